/*
 * intercept.c - helpers of the wrappers.
 */
#include "intercept/intercept.h"
#include "core/log.h"

#include <limits.h>
#include <stdlib.h>

size_t ac_counts_bytes(const int counts[], int n, MPI_Datatype type)
{
    long total = 0;
    for (int i = 0; i < n; i++)
        total += counts[i];
    return ac_signature_bytes(total, type);
}

ac_comm *ac_enter_neighbor(MPI_Comm comm, ac_collective coll, const void *sbuf, ac_neighbors **nb,
                           ac_call *call)
{
    ac_topology topology = AC_TOPOLOGY_NONE;
    if (comm == MPI_COMM_NULL || sbuf == MPI_IN_PLACE ||
        ac_neighbors_topology(comm, &topology) != MPI_SUCCESS || topology == AC_TOPOLOGY_NONE) {
        ac_count_passthrough(comm, coll, AC_PASS_NO_TOPOLOGY);
        return NULL;
    }
    ac_comm *c = ac_enter(comm, coll);
    if (!c) return NULL;
    int rc = ac_neighbors_get(c->pcomm, nb);
    if (rc != MPI_SUCCESS) {
        /* every rank made them at this call; one that failed cannot go on with the others */
        ac_log_error("the neighbours of %s could not be made (MPI error %d); ending the run "
                     "rather than letting the ranks diverge",
                     c->name, rc);
        ac_log_abort(rc);
        return NULL;
    }
    *call = ac_call_make(c, coll);
    call->topology = (*nb)->topology;
    call->window = (*nb)->window;
    return c;
}

int ac_blocks_ok(const int counts[], const MPI_Datatype types[], MPI_Datatype type, int n)
{
    if (n > 0 && (!counts || (!types && type == MPI_DATATYPE_NULL))) return 0;
    for (int i = 0; i < n; i++)
        if (counts[i] < 0 || (types && types[i] == MPI_DATATYPE_NULL)) return 0;
    return 1;
}

int ac_neighbor_degrees(MPI_Comm comm, int *indegree, int *outdegree)
{
    ac_topology topology = AC_TOPOLOGY_NONE;
    int ndims = 0, weighted;
    *indegree = *outdegree = 0;
    if (comm == MPI_COMM_NULL || ac_neighbors_topology(comm, &topology) != MPI_SUCCESS) return 0;
    if (topology == AC_TOPOLOGY_CARTESIAN && PMPI_Cartdim_get(comm, &ndims) == MPI_SUCCESS) {
        *indegree = *outdegree = 2 * ndims;
        return 1;
    }
    return topology == AC_TOPOLOGY_DIST_GRAPH &&
           PMPI_Dist_graph_neighbors_count(comm, indegree, outdegree, &weighted) == MPI_SUCCESS;
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
