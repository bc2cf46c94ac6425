/*
 * fail_dup.c - test-only preload: a local failure of PMPI_Comm_dup on one rank (issue 19). The
 * first PMPI_Comm_dup of world rank AUTOCOLL_TEST_FAIL_DUP_RANK returns MPI_ERR_COMM and
 * MPI_COMM_NULL; the duplicate is still made (a duplication is collective: the other ranks
 * complete theirs) and leaked. Every other call, and every call of other ranks, is forwarded to
 * the MPI library's own through dlsym(RTLD_NEXT, ...). Put it before libautocoll.so in
 * LD_PRELOAD, so that the layer's calls reach it (tests/tools/test_divergence.py).
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef int dup_fn(MPI_Comm, MPI_Comm *);

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    static dup_fn *real;
    static int failed;
    if (!real) real = (dup_fn *)dlsym(RTLD_NEXT, "PMPI_Comm_dup");
    if (!real) {
        fprintf(stderr, "fail_dup: no PMPI_Comm_dup after this library\n");
        abort();
    }
    int rc = real(comm, newcomm), rank = -1;
    const char *which = getenv("AUTOCOLL_TEST_FAIL_DUP_RANK");
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rc == MPI_SUCCESS && which && atoi(which) == rank && !failed) {
        failed = 1;
        *newcomm = MPI_COMM_NULL;
        return MPI_ERR_COMM;
    }
    return rc;
}
