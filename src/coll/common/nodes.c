/*
 * nodes.c - the node layout of a communicator (which ranks share a node), computed once per
 * communicator with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and cached as an attribute.
 * AUTOCOLL_TEST_RANKS_PER_NODE=k with AUTOCOLL_TEST_PLACEMENT (testing only; selection passes
 * them on at initialisation) takes nodes of k processes of MPI_COMM_WORLD instead, in blocks of
 * world ranks or dealt round-robin (coll.h, ac_coll_set_test_nodes).
 *
 * Under SMPI a node the platform loader built out of one host a rank (platforms/
 * node_overheads.cpp) gives each of its hosts the property autocoll/node, the node's number:
 * there MPI_COMM_TYPE_SHARED, which SMPI takes by host, would see one rank a node, and the
 * number is taken instead.
 */
#include "coll/common/common.h"

#include <stdlib.h>

#if AUTOCOLL_SIMULATED
#include <simgrid/host.h>
#endif

static atomic_int nodes_keyval = MPI_KEYVAL_INVALID;
static int test_ranks_per_node; /* 0: real shared-memory nodes */
static int test_cyclic;         /* 1: world ranks dealt round-robin over the nodes */

void ac_coll_set_test_nodes(int k, int cyclic)
{
    test_ranks_per_node = k > 0 ? k : 0;
    test_cyclic = cyclic != 0;
}

/* The number of this process's simulated node where the platform gives one (a node built out
 * of one host a rank), else -1: SMPI's MPI_COMM_TYPE_SHARED groups the ranks of a host. */
static int simulated_node(void)
{
#if AUTOCOLL_SIMULATED
    const char *v = sg_host_get_property_value(sg_host_self(), "autocoll/node");
    char *end = NULL;
    long node = v ? strtol(v, &end, 10) : -1;
    if (v && end != v && *end == '\0' && node >= 0 && node <= 0x7fffffffL) return (int)node;
#endif
    return -1;
}

/* The emulated node of this process: by its world rank. */
static int test_node(int per_node)
{
    int world_rank, world_size;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    int nnodes = (world_size + per_node - 1) / per_node;
    return test_cyclic ? world_rank % nnodes : world_rank / per_node;
}

static void nodes_free(ac_nodes *n)
{
    if (n->local != MPI_COMM_NULL) PMPI_Comm_free(&n->local);
    if (n->leaders != MPI_COMM_NULL) PMPI_Comm_free(&n->leaders);
    if (n->lane != MPI_COMM_NULL) PMPI_Comm_free(&n->lane);
    free(n->node_of);
    free(n->local_rank_of);
    free(n->leader_of);
    free(n->node_size);
    free(n->order);
    free(n);
}

static int nodes_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    nodes_free(value);
    return MPI_SUCCESS;
}

/* Whether the ranks of sub (a communicator of some of comm's processes) are in comm's order:
 * 1 or 0, -1 without memory. Local: group rank translation, no message. Every rank of sub
 * finds the same answer (the groups are the same on all). */
static int in_comm_order(MPI_Comm sub, MPI_Comm comm)
{
    MPI_Group gs, gc;
    int n, ordered = 1;
    PMPI_Comm_group(sub, &gs);
    PMPI_Comm_group(comm, &gc);
    PMPI_Group_size(gs, &n);
    int *in = malloc(sizeof(int) * (size_t)n), *out = malloc(sizeof(int) * (size_t)n);
    if (!in || !out) {
        ordered = -1;
    } else {
        for (int i = 0; i < n; i++) in[i] = i;
        PMPI_Group_translate_ranks(gs, n, in, gc, out);
        for (int i = 1; i < n; i++) ordered &= out[i - 1] < out[i];
    }
    free(in);
    free(out);
    PMPI_Group_free(&gs);
    PMPI_Group_free(&gc);
    return ordered;
}

static int nodes_build(MPI_Comm comm, ac_nodes **out)
{
    int rc, rank, size;
    int per_node = test_ranks_per_node;
    ac_nodes *n = calloc(1, sizeof *n);
    int *leader_rank = NULL;
    if (!n) return MPI_ERR_NO_MEM;
    n->local = n->leaders = n->lane = MPI_COMM_NULL;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int node = per_node > 0 ? test_node(per_node) : simulated_node();
    if (node >= 0) {
        rc = PMPI_Comm_split(comm, node, rank, &n->local);
    } else {
        /* The node communicator's ranks must follow comm's (its rank 0 is the node's lowest
         * rank of comm, its leader): MPI_Comm_split_type orders by the key, but SMPI's ignores
         * it and orders by world rank (../shared/FACTS.md), which on a communicator not in
         * world order (a reversed split) made a leader that is not local rank 0. Where the
         * order is not comm's (told locally, from the groups), a split by comm's rank restores
         * it; otherwise nothing more is sent. */
        rc = PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &n->local);
        if (rc != MPI_SUCCESS) goto fail;
        int ordered = in_comm_order(n->local, comm);
        if (ordered < 0) {
            rc = MPI_ERR_NO_MEM;
            goto fail;
        }
        if (!ordered) {
            MPI_Comm shared = n->local;
            rc = PMPI_Comm_split(shared, 0, rank, &n->local);
            PMPI_Comm_free(&shared);
        }
    }
    if (rc != MPI_SUCCESS) goto fail;
    PMPI_Comm_rank(n->local, &n->local_rank);
    PMPI_Comm_size(n->local, &n->local_size);

    /* Every rank learns the lowest rank (the leader) of every rank's node. */
    int my_leader = rank;
    rc = PMPI_Allreduce(MPI_IN_PLACE, &my_leader, 1, MPI_INT, MPI_MIN, n->local);
    if (rc != MPI_SUCCESS) goto fail;
    leader_rank = malloc(sizeof(int) * (size_t)size);
    n->node_of = malloc(sizeof(int) * (size_t)size);
    n->local_rank_of = malloc(sizeof(int) * (size_t)size);
    n->order = malloc(sizeof(int) * (size_t)size);
    n->leader_of = malloc(sizeof(int) * (size_t)size);
    n->node_size = calloc((size_t)size, sizeof(int));
    if (!leader_rank || !n->node_of || !n->local_rank_of || !n->order || !n->leader_of ||
        !n->node_size) {
        rc = MPI_ERR_NO_MEM;
        goto fail;
    }
    rc = PMPI_Allgather(&my_leader, 1, MPI_INT, leader_rank, 1, MPI_INT, comm);
    if (rc != MPI_SUCCESS) goto fail;

    /* Nodes are numbered by their leaders in increasing rank order. */
    n->nnodes = 0;
    for (int r = 0; r < size; r++) {
        if (leader_rank[r] == r) n->leader_of[n->nnodes++] = r;
    }
    for (int r = 0; r < size; r++) {
        int node = 0;
        while (n->leader_of[node] != leader_rank[r])
            node++;
        n->node_of[r] = node;
        n->local_rank_of[r] = n->node_size[node]++;
    }
    n->node = n->node_of[rank];
    for (int k = 0, node = 0; node < n->nnodes; node++)
        for (int r = 0; r < size; r++)
            if (n->node_of[r] == node) n->order[k++] = r;

    n->blocks = 1;
    for (int r = 0; r < size; r++)
        n->blocks &= n->order[r] == r;
    rc = PMPI_Comm_split(comm, n->local_rank == 0 ? 0 : MPI_UNDEFINED, rank, &n->leaders);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_split(comm, n->local_rank, rank, &n->lane);
    if (rc != MPI_SUCCESS) goto fail;
    free(leader_rank);
    *out = n;
    return MPI_SUCCESS;
fail:
    free(leader_rank);
    nodes_free(n);
    return rc;
}

int ac_nodes_get(MPI_Comm comm, const ac_nodes **nodes)
{
    void *value;
    int rc = ac_comm_cached(comm, &nodes_keyval, nodes_delete, &value);
    if (rc != MPI_SUCCESS) return rc;
    if (!value) {
        ac_nodes *n;
        rc = nodes_build(comm, &n);
        if (rc != MPI_SUCCESS) return rc;
        rc = PMPI_Comm_set_attr(comm, nodes_keyval, n);
        if (rc != MPI_SUCCESS) {
            nodes_free(n);
            return rc;
        }
        value = n;
    }
    *nodes = value;
    return MPI_SUCCESS;
}

int ac_nodes_known(MPI_Comm comm)
{
    void *value;
    return ac_comm_cached(comm, &nodes_keyval, nodes_delete, &value) == MPI_SUCCESS && value;
}

int ac_call_nodes(ac_call *call, MPI_Comm comm)
{
    const ac_nodes *n;
    call->nodes = (ac_node_shape){0};
    int rc = ac_nodes_get(comm, &n);
    if (rc != MPI_SUCCESS) return rc;
    ac_node_shape s = {.nodes = n->nnodes, .ppn_min = n->node_size[0],
                       .ppn_max = n->node_size[0], .blocks = n->blocks};
    for (int i = 1; i < n->nnodes; i++) {
        if (n->node_size[i] < s.ppn_min) s.ppn_min = n->node_size[i];
        if (n->node_size[i] > s.ppn_max) s.ppn_max = n->node_size[i];
    }
    call->nodes = s;
    return MPI_SUCCESS;
}

void ac_nodes_lane_roots(const ac_nodes *n, int size, int node, int k, int rank[],
                         int lane_rank[])
{
    if (k == 1) { /* lane 0 is the leaders, in node order */
        rank[0] = n->leader_of[node];
        lane_rank[0] = node;
        return;
    }
    for (int j = 0; j < k; j++)
        rank[j] = -1, lane_rank[j] = 0;
    for (int r = 0; r < size; r++) {
        int j = n->local_rank_of[r];
        if (j >= k || rank[j] >= 0) continue;
        if (n->node_of[r] == node)
            rank[j] = r;
        else
            lane_rank[j]++;
    }
}

int ac_nodes_equal(const ac_nodes *n)
{
    for (int i = 1; i < n->nnodes; i++)
        if (n->node_size[i] != n->node_size[0]) return 0;
    return 1;
}

int ac_nodes_runs(const ac_nodes *n, MPI_Aint block, int **counts, int **displs)
{
    *counts = malloc(sizeof(int) * (size_t)n->nnodes);
    *displs = malloc(sizeof(int) * (size_t)n->nnodes);
    if (!*counts || !*displs) {
        free(*counts);
        free(*displs);
        *counts = *displs = NULL;
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0, at = 0; i < n->nnodes; i++) {
        (*counts)[i] = (int)(n->node_size[i] * block);
        (*displs)[i] = at;
        at += (*counts)[i];
    }
    return MPI_SUCCESS;
}

int ac_hier_begin(ac_hier_call *h, MPI_Comm comm, const ac_params *p, int count,
                  MPI_Datatype dtype)
{
    int rc = ac_nodes_get(comm, &h->nodes);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_rank(comm, &h->rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &h->size);
    if (rc != MPI_SUCCESS) return rc;
    h->k = p->leaders > 1 ? p->leaders : 1;
    if (h->k > AC_HIER_SHARES) return MPI_ERR_ARG;
    ac_even_blocks(count, h->k, h->counts, h->displs);
    h->extent = ac_extent(dtype);
    h->shares = h->k;
    while (h->k > 1 && h->shares > 0 && h->counts[h->shares - 1] == 0)
        h->shares--;
    return MPI_SUCCESS;
}
