/*
 * intercept.c - helpers of the wrappers.
 */
#include "intercept/intercept.h"

#include <limits.h>
#include <stdlib.h>

ac_call ac_call_make(const ac_comm *c, ac_collective coll)
{
    ac_call call = {.collective = coll, .size = c->size, .op = MPI_OP_NULL};
    return call;
}

int ac_root_ok(MPI_Comm comm, int root)
{
    int size;
    if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &size) != MPI_SUCCESS) return 0;
    return root >= 0 && root < size;
}

int ac_at_root(MPI_Comm comm, int root)
{
    int rank;
    if (!ac_root_ok(comm, root) || PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return -1;
    return rank == root;
}

#if MPI_VERSION >= 4
int ac_count_fits(MPI_Count count, int *out)
{
    if (count < 0 || count > INT_MAX) return 0;
    *out = (int)count;
    return 1;
}

int ac_counts_fit(const MPI_Count *counts, int n, int **out)
{
    *out = NULL;
    if (!counts) return 1;
    int *v = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!v) return 0;
    for (int i = 0; i < n; i++) {
        if (counts[i] < 0 || counts[i] > INT_MAX) {
            free(v);
            return 0;
        }
        v[i] = (int)counts[i];
    }
    *out = v;
    return 1;
}

int ac_displs_fit(const MPI_Aint *displs, int n, int **out)
{
    *out = NULL;
    if (!displs) return 1;
    int *v = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!v) return 0;
    for (int i = 0; i < n; i++) {
        if (displs[i] < INT_MIN || displs[i] > INT_MAX) {
            free(v);
            return 0;
        }
        v[i] = (int)displs[i];
    }
    *out = v;
    return 1;
}

int ac_intra_size(MPI_Comm comm)
{
    int inter = 1, size = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return 0;
    PMPI_Comm_size(comm, &size);
    return size;
}
#endif
