/*
 * comm_create.c - the blocking communicator constructors (MPI_Comm_dup, _dup_with_info, _split,
 * _split_type, _create, _create_group, MPI_Cart_create, MPI_Cart_sub, MPI_Graph_create,
 * MPI_Dist_graph_create, _adjacent, MPI_Intercomm_merge, MPI-4's MPI_Comm_create_from_group): the
 * library's call, then, where the layer may run nonblocking collectives, the new communicator's
 * state made at once.
 *
 * The layer makes a communicator's state collectively (a private duplicate, core/state.c), at
 * its first blocking collective otherwise; a nonblocking collective must not block to make it,
 * so on a communicator no blocking collective has touched yet it would pass to the library
 * (requests.h). A constructor is collective over the new communicator's members, which are the
 * ranks that return it, so making the state there is legal and costs each of them one more
 * duplicate. It is made only where the configuration could run nonblocking collectives by the
 * layer (ac_select_may_run_nonblocking) and outside MPI_THREAD_MULTIPLE: nowhere else does it
 * change anything but when the duplicate is made (and, where a forced algorithm or the table's
 * rules need it, the node layout is learned: ac_select_comm_made). The Fortran constructors
 * that call the library directly (Open MPI's, MPICH's mpi_f08 ones) come here through
 * fortran_comm_create.c. MPI_Comm_idup and MPI_Comm_idup_with_info (MPI-4) must not block:
 * their request, the layer's, makes the private duplicate nonblocking beside the library's and
 * gives the new communicator its state when both complete (ac_request_idup); MPI_COMM_IDUP
 * from Fortran too (fortran_comm_create.c, where the binding would call the library directly).
 */
#include "intercept/intercept.h"
#include "intercept/requests.h"
#include "select/select.h"

int ac_comm_constructed(int rc, MPI_Comm comm)
{
    if (rc == MPI_SUCCESS && comm != MPI_COMM_NULL && ac_g.initialized && ac_g.enabled &&
        ac_select_may_run_nonblocking() && ac_requests_allowed()) {
        ac_comm_make(comm);
        ac_select_comm_made(ac_comm_find(comm)); /* its node layout, where needed */
    }
    return rc;
}

/* After a constructor that returned rc and *comm. */
static int made(int rc, const MPI_Comm *comm)
{
    return ac_comm_constructed(rc, rc == MPI_SUCCESS ? *comm : MPI_COMM_NULL);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return made(PMPI_Comm_dup(comm, newcomm), newcomm);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return made(PMPI_Comm_dup_with_info(comm, info, newcomm), newcomm);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    if (!request) return PMPI_Comm_idup(comm, newcomm, request); /* the library's error */
    MPI_Request user = MPI_REQUEST_NULL;
    int rc = PMPI_Comm_idup(comm, newcomm, &user);
    if (rc != MPI_SUCCESS) {
        *request = user;
        return rc;
    }
    return ac_request_idup(comm, *newcomm, user, request);
}

#if MPI_VERSION >= 4
int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                            MPI_Request *request)
{
    if (!request) /* the library's error */
        return PMPI_Comm_idup_with_info(comm, info, newcomm, request);
    MPI_Request user = MPI_REQUEST_NULL;
    int rc = PMPI_Comm_idup_with_info(comm, info, newcomm, &user);
    if (rc != MPI_SUCCESS) {
        *request = user;
        return rc;
    }
    return ac_request_idup(comm, *newcomm, user, request);
}
#endif

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    return made(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm)
{
    return made(PMPI_Comm_split_type(comm, split_type, key, info, newcomm), newcomm);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    return made(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    return made(PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm);
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *newcomm)
{
    return made(PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm), newcomm);
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    return made(PMPI_Cart_sub(comm, remain_dims, newcomm), newcomm);
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *newcomm)
{
    return made(PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm), newcomm);
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info,
                          int reorder, MPI_Comm *newcomm)
{
    return made(PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info,
                                       reorder, newcomm),
                newcomm);
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[],
                                   MPI_Info info, int reorder, MPI_Comm *newcomm)
{
    return made(PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights,
                                                outdegree, destinations, destweights, info,
                                                reorder, newcomm),
                newcomm);
}

#if MPI_VERSION >= 4
/* Collective over the group's members, each of which returns the new communicator. */
int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                               MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    return made(PMPI_Comm_create_from_group(group, stringtag, info, errhandler, newcomm),
                newcomm);
}
#endif

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    return made(PMPI_Intercomm_merge(intercomm, high, newintracomm), newintracomm);
}
