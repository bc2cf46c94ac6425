/*
 * mesh_cache.c - the orthogonal meshes' line communicators (src/coll/common/mesh.c): built on
 * a layout's first use, cached on the communicator and reused by later calls, one mesh per
 * layout, with the right members, and a layout that does not factor the size refused.
 * Run on 12 ranks (2D: 2 x 6, 3 x 4; 3D: 2 x 3 x 2). Prints "mesh_cache: ok" when every check
 * passed; exit status 1 otherwise.
 */
#include "coll/common/mesh.h"

#include <mpi.h>
#include <stdio.h>

static int failures;

static void check(int ok, const char *what, int rank)
{
    if (!ok) {
        fprintf(stderr, "mesh_cache: rank %d: %s\n", rank, what);
        failures++;
    }
}

/* Every line holds the ranks that differ from this one only in its coordinate, ranked by it. */
static void check_lines(const ac_mesh *m, MPI_Comm comm, int rank)
{
    for (int d = 0; d < m->ndims; d++) {
        int size, me, members[64];
        MPI_Comm_size(m->line[d], &size);
        MPI_Comm_rank(m->line[d], &me);
        check(size == m->n[d] && me == m->coord[d], "line size or rank", rank);
        MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, m->line[d]);
        for (int k = 0; k < size; k++)
            check(members[k] == rank + (k - m->coord[d]) * m->stride[d], "line member", rank);
    }
    int result;
    for (int d = 0; d < m->ndims; d++) {
        MPI_Comm_compare(m->line[d], comm, &result);
        check(result == MPI_UNEQUAL, "a line is not a new communicator", rank);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    ac_params two = {.dims = 2, .layout = {3, 0}}, other = {.dims = 2, .layout = {2, 0}};
    ac_params three = {.dims = 3, .layout = {2, 3}}, bad = {.dims = 2, .layout = {5, 0}};
    const ac_mesh *a = NULL, *b = NULL, *c = NULL, *again = NULL;
    check(ac_mesh_get(comm, &two, &a) == MPI_SUCCESS && a, "3 x n mesh", rank);
    check(ac_mesh_get(comm, &other, &b) == MPI_SUCCESS && b && b != a, "2 x n mesh", rank);
    check(ac_mesh_get(comm, &three, &c) == MPI_SUCCESS && c && c != a && c != b, "2 x 3 x n",
          rank);
    check(ac_mesh_get(comm, &two, &again) == MPI_SUCCESS && again == a, "3 x n reused", rank);
    check(ac_mesh_get(comm, &three, &again) == MPI_SUCCESS && again == c, "2 x 3 x n reused",
          rank);
    check(ac_mesh_get(comm, &other, &again) == MPI_SUCCESS && again == b, "2 x n reused", rank);
    const ac_mesh *none = NULL;
    check(ac_mesh_get(comm, &bad, &none) == MPI_ERR_ARG && !none, "5 x n refused", rank);
    if (a && b && c) {
        check(a->n[0] == 3 && a->n[1] == size / 3, "3 x n sizes", rank);
        check(c->ndims == 3 && c->n[0] == 2 && c->n[1] == 3 && c->n[2] == size / 6,
              "2 x 3 x n sizes", rank);
        check_lines(a, comm, rank);
        check_lines(b, comm, rank);
        check_lines(c, comm, rank);
    }
    /* Another communicator has its own meshes. */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    check(ac_mesh_get(dup, &two, &again) == MPI_SUCCESS && again != a, "own cache per comm",
          rank);
    MPI_Comm_free(&dup); /* frees its mesh (the attribute's delete callback) */
    MPI_Comm_free(&comm);
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0) printf("mesh_cache: ok\n");
    MPI_Finalize();
    return all != 0;
}
