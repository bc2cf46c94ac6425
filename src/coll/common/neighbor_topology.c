/*
 * neighbor_topology.c - the neighbours of a topology communicator, in the standard's order,
 * with the tags of their edges (neighbor.h), computed once per communicator and cached as an
 * attribute (ac_neighbors_lists: local); the one-sided engine's dynamic window is made and agreed
 * at the first blocking call (ac_neighbors_get: collective).
 */
#include "coll/common/common.h"
#include "coll/common/neighbor.h"
#include "coll/common/sched.h"

#include <stdlib.h>

static atomic_int neighbors_keyval = MPI_KEYVAL_INVALID;

static void neighbors_free(ac_neighbors *nb)
{
    /* A window made on some ranks only cannot be freed (MPI_Win_free is collective): it is
     * left to MPI_Finalize. */
    if (nb->window && nb->win != MPI_WIN_NULL) {
        if (nb->staging) PMPI_Win_detach(nb->win, nb->staging);
        PMPI_Win_free(&nb->win);
    }
    free(nb->sources);
    free(nb->dests);
    free(nb->recv_tags);
    free(nb->send_tags);
    free(nb->send);
    free(nb->recv);
    free(nb->staging);
    free(nb->packed);
    free(nb->offsets);
    free(nb->targets);
    free(nb->requests);
    free(nb->statuses);
    free(nb);
}

static int neighbors_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    neighbors_free(value);
    return MPI_SUCCESS;
}

/* A call that may fail without ending the run: errors_return() makes comm's errors return
 * (MPI_ERRORS_RETURN), keeping its handler in *previous, which errors_restore() puts back. */
static int errors_return(MPI_Comm comm, MPI_Errhandler *previous)
{
    int rc = PMPI_Comm_get_errhandler(comm, previous);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    return rc;
}

static void errors_restore(MPI_Comm comm, MPI_Errhandler previous)
{
    PMPI_Comm_set_errhandler(comm, previous);
    PMPI_Errhandler_free(&previous);
}

/* SimGrid 3.32's SMPI aborts in MPI_Topo_test (and in MPI_Dist_graph_create*, so only Cartesian
 * communicators exist there): a Cartesian one is told by MPI_Cartdim_get, which returns
 * MPI_ERR_TOPOLOGY on any other (SMPI logs a warning then). */
static int cartesian_probe(MPI_Comm comm, ac_topology *out)
{
    MPI_Errhandler previous;
    int ndims, rc = errors_return(comm, &previous);
    if (rc != MPI_SUCCESS) return rc;
    *out = PMPI_Cartdim_get(comm, &ndims) == MPI_SUCCESS ? AC_TOPOLOGY_CARTESIAN : AC_TOPOLOGY_NONE;
    errors_restore(comm, previous);
    return MPI_SUCCESS;
}

int ac_neighbors_topology(MPI_Comm comm, ac_topology *out)
{
    int status = MPI_UNDEFINED;
    *out = AC_TOPOLOGY_NONE;
    if (!AUTOCOLL_NEIGHBOR_COLLECTIVES) return cartesian_probe(comm, out);
    int rc = PMPI_Topo_test(comm, &status);
    *out = status == MPI_CART         ? AC_TOPOLOGY_CARTESIAN
           : status == MPI_DIST_GRAPH ? AC_TOPOLOGY_DIST_GRAPH
                                      : AC_TOPOLOGY_NONE;
    return rc;
}

static int cartesian_neighbors(MPI_Comm comm, ac_neighbors *nb)
{
    int ndims, rc = PMPI_Cartdim_get(comm, &ndims);
    if (rc != MPI_SUCCESS) return rc;
    nb->indegree = nb->outdegree = 2 * ndims;
    nb->sources = malloc(sizeof(int) * (size_t)(2 * ndims + 1));
    nb->dests = malloc(sizeof(int) * (size_t)(2 * ndims + 1));
    if (!nb->sources || !nb->dests) return MPI_ERR_NO_MEM;
    for (int d = 0; d < ndims && rc == MPI_SUCCESS; d++) {
        rc = PMPI_Cart_shift(comm, d, 1, &nb->sources[2 * d], &nb->sources[2 * d + 1]);
        nb->dests[2 * d] = nb->sources[2 * d];
        nb->dests[2 * d + 1] = nb->sources[2 * d + 1];
    }
    return rc;
}

static int dist_graph_neighbors(MPI_Comm comm, ac_neighbors *nb)
{
    int weighted,
        rc = PMPI_Dist_graph_neighbors_count(comm, &nb->indegree, &nb->outdegree, &weighted);
    if (rc != MPI_SUCCESS) return rc;
    size_t in = (size_t)nb->indegree + 1, out = (size_t)nb->outdegree + 1;
    int *weights = malloc(sizeof(int) * (in + out));
    nb->sources = malloc(sizeof(int) * in);
    nb->dests = malloc(sizeof(int) * out);
    if (!weights || !nb->sources || !nb->dests)
        rc = MPI_ERR_NO_MEM;
    else
        rc = PMPI_Dist_graph_neighbors(comm, nb->indegree, nb->sources, weights, nb->outdegree,
                                       nb->dests, weights + in);
    free(weights);
    return rc;
}

/* The dynamic window of the one-sided engine. Open MPI 4.1.4 cannot make a window over a
 * communicator of one process here (docs/adcl.md): a failure on any rank makes win_fence_put
 * inapplicable on this communicator (AC_REQ_WINDOW) instead of ending the run. */
static int make_window(MPI_Comm comm, ac_neighbors *nb)
{
    MPI_Errhandler previous;
    int ok, rc = errors_return(comm, &previous);
    if (rc != MPI_SUCCESS) return rc;
    ok = PMPI_Win_create_dynamic(MPI_INFO_NULL, comm, &nb->win) == MPI_SUCCESS;
    if (!ok) nb->win = MPI_WIN_NULL;
    errors_restore(comm, previous);
    return PMPI_Allreduce(&ok, &nb->window, 1, MPI_INT, MPI_MIN, comm);
}

static int neighbors_build(MPI_Comm comm, ac_neighbors **out)
{
    ac_neighbors *nb = calloc(1, sizeof *nb);
    if (!nb) return MPI_ERR_NO_MEM;
    nb->win = MPI_WIN_NULL;
    int rc = ac_neighbors_topology(comm, &nb->topology);
    if (rc == MPI_SUCCESS && nb->topology == AC_TOPOLOGY_NONE) rc = MPI_ERR_TOPOLOGY;
    if (rc == MPI_SUCCESS)
        rc = nb->topology == AC_TOPOLOGY_CARTESIAN ? cartesian_neighbors(comm, nb)
                                                   : dist_graph_neighbors(comm, nb);
    if (rc != MPI_SUCCESS) goto fail;
    size_t in = (size_t)nb->indegree + 1, out_ = (size_t)nb->outdegree + 1;
    nb->recv_tags = malloc(sizeof(int) * in);
    nb->send_tags = malloc(sizeof(int) * out_);
    nb->recv = malloc(sizeof *nb->recv * in);
    nb->send = malloc(sizeof *nb->send * out_);
    nb->offsets = malloc(sizeof(MPI_Aint) * (2 * in + 2 * out_));
    nb->targets = malloc(sizeof(MPI_Aint) * out_);
    nb->requests = malloc(sizeof(MPI_Request) * (in + out_));
    nb->statuses = malloc(sizeof(MPI_Status) * (in + out_));
    if (!nb->recv_tags || !nb->send_tags || !nb->recv || !nb->send || !nb->offsets ||
        !nb->targets || !nb->requests || !nb->statuses) {
        rc = MPI_ERR_NO_MEM;
        goto fail;
    }
    int cartesian = nb->topology == AC_TOPOLOGY_CARTESIAN;
    for (int j = 0; j < nb->indegree; j++)
        nb->recv_tags[j] = cartesian ? j : 0;
    for (int k = 0; k < nb->outdegree; k++)
        nb->send_tags[k] = cartesian ? k ^ 1 : 0;
    *out = nb;
    return MPI_SUCCESS;
fail:
    neighbors_free(nb);
    return rc;
}

int ac_neighbors_lists(MPI_Comm comm, ac_neighbors **out)
{
    void *value;
    int rc = ac_comm_cached(comm, &neighbors_keyval, neighbors_delete, &value);
    if (rc != MPI_SUCCESS) return rc;
    if (!value) {
        ac_neighbors *nb;
        rc = neighbors_build(comm, &nb);
        if (rc != MPI_SUCCESS) return rc;
        rc = PMPI_Comm_set_attr(comm, neighbors_keyval, nb);
        if (rc != MPI_SUCCESS) {
            neighbors_free(nb);
            return rc;
        }
        value = nb;
    }
    *out = value;
    return MPI_SUCCESS;
}

int ac_neighbors_get(MPI_Comm comm, ac_neighbors **out)
{
    int rc = ac_neighbors_lists(comm, out);
    if (rc != MPI_SUCCESS || (*out)->window_made) return rc;
    rc = make_window(comm, *out);
    (*out)->window_made = rc == MPI_SUCCESS;
    return rc;
}

int ac_neighbor_exchange(ac_neighbors *nb, MPI_Comm comm, const ac_params *p)
{
    if (!p->exchange_schedule) return p->exchange(nb, comm);
    ac_sched s;
    int rc = ac_sched_init(&s, comm, AC_TAG_DATA);
    s.blocking = 1;
    if (rc == MPI_SUCCESS) rc = p->exchange_schedule(&s, nb);
    if (rc == MPI_SUCCESS) rc = ac_sched_run(&s);
    ac_sched_free(&s);
    return rc;
}

int ac_neighbor_blocks(ac_neighbor_block *blocks, int n, const void *buf, MPI_Datatype type,
                       int count, const int *counts, const int *displs)
{
    MPI_Aint lb, extent;
    int rc = PMPI_Type_get_extent(type, &lb, &extent);
    if (rc != MPI_SUCCESS) return rc;
    for (int i = 0; i < n; i++) {
        MPI_Aint at = counts ? displs[i] * extent : (MPI_Aint)i * count * extent;
        blocks[i] = (ac_neighbor_block){ac_at(buf, at), counts ? counts[i] : count, type};
    }
    return MPI_SUCCESS;
}
