/*
 * alltoall_node_aware.c - two-level all-to-all: gather to node leaders, leaders exchange,
 * leaders scatter.
 *
 * Nodes come from ac_nodes_get (shared-memory domains; AUTOCOLL_TEST_RANKS_PER_NODE fakes them);
 * a node's leader is its lowest rank. (1) Every rank packs its p blocks (bytes, independent of
 * the user's types) and sends them to its leader. (2) Each leader builds, for every node B, one
 * message with the blocks from its L ranks to B's L_B ranks (L x L_B blocks) and the leaders run
 * an alltoallv over the leaders' communicator with params->alltoallv (default
 * ac_alltoallv_simple; params->inner2 are its parameters). (3) Each leader reorders what it
 * received into p blocks per local rank, in source-rank order, and sends them back.
 * Cost, N nodes of L ranks: intra-node 2 (L-1) alpha + 2 (L-1) p n beta through the leader,
 * plus the leaders' all-to-all of N-1 messages of L^2 n bytes ((N-1) alpha + (N-1) L^2 n beta
 * with the simple or ring exchange): few, large inter-node messages.
 * Requirements: none. Nodes of any and unequal sizes, ranks of a node need not be consecutive;
 * any process count. MPI_IN_PLACE: the receive buffer is packed first.
 *
 * The same engine runs alltoall's hierarchical instances (hierarchical.c's family,
 * hier_<intra>_<inter>): there (1) is params->intra[0] (a gather of every rank's p slots to
 * local rank 0 on the node's communicator), the leaders' exchange params->phase (an alltoallv
 * registry entry, with its own parameters) and (3) params->intra[1] (a scatter of them back);
 * node_aware and node_aware_ring (no intra phases) send the slots point to point.
 * Cost of an instance (N nodes of L ranks, p = N L, blocks of n bytes): gather(L, p n) +
 * alltoallv(N, L p n received a leader) + scatter(L, p n).
 * Source: not in STAR-MPI; the usual two-level (SMP-aware) scheme of hierarchical MPI
 * collectives. It stands in for STAR-MPI's topology-specific all-to-all (section 3.1): it uses
 * the node structure instead of the switch topology. The leaders' exchange is STAR-MPI's simple
 * or ring all-to-all.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>
#include <string.h>

/* The node's phases: params->intra[0] (a gather) and params->intra[1] (a scatter) of the
 * hierarchical instances on the node's communicator, else point-to-point messages between the
 * leader and each member. */
typedef struct node_phases {
    const ac_algorithm *gather, *scatter;
} node_phases;

/* Non-leader ranks: hand the packed blocks to the leader, get the received ones back. */
static int member(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm, MPI_Aint bytes, MPI_Datatype slot,
                  const ac_nodes *nodes, node_phases ph, int size)
{
    int rc, leader = nodes->leader_of[nodes->node];
    char *blocks = malloc((size_t)(size * bytes));
    if (!blocks) return MPI_ERR_NO_MEM;
    rc = ac_alltoall_pack(sbuf, scount, stype, 0, size, blocks, bytes, comm);
    if (rc != MPI_SUCCESS) goto out;
    if (ph.gather)
        rc = ph.gather->fn.gather(blocks, size, slot, NULL, size, slot, 0, nodes->local,
                                  ph.gather->params);
    else
        rc = PMPI_Send(blocks, size, slot, leader, AC_TAG_DATA, comm);
    if (rc != MPI_SUCCESS) goto out;
    if (ph.scatter)
        rc = ph.scatter->fn.scatter(NULL, size, slot, blocks, size, slot, 0, nodes->local,
                                    ph.scatter->params);
    else
        rc = PMPI_Recv(blocks, size, slot, leader, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) goto out;
    rc = ac_alltoall_unpack(blocks, bytes, 0, size, rbuf, rcount, rtype, comm);
out:
    free(blocks);
    return rc;
}

int ac_alltoall_node_aware(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                           int rcount, MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    int rc = MPI_SUCCESS, rank, size, nreq = 0;
    const ac_nodes *nodes;
    ac_alltoallv_fn *exchange = p && p->alltoallv ? p->alltoallv : ac_alltoallv_simple;
    const ac_params *exchange_params = p ? p->inner2 : NULL;
    node_phases ph = {p ? p->intra[0] : NULL, p ? p->intra[1] : NULL};
    if (p && p->phase) { /* a hierarchical instance: the leaders' phase is a registry entry */
        exchange = p->phase->fn.alltoallv;
        exchange_params = p->phase->params;
    }
    MPI_Datatype slot = MPI_DATATYPE_NULL;
    char *local = NULL, *outgoing = NULL, *incoming = NULL;
    int *first = NULL, *counts = NULL, *displs = NULL;
    MPI_Request *reqs = NULL;
    MPI_Status *stats = NULL; /* not MPI_STATUSES_IGNORE: gcc 12 -Wstringop-overflow with MPICH */
    MPI_Aint bytes =
        ac_alltoall_slots_start(comm, &sbuf, &scount, &stype, rbuf, rcount, rtype, &rank, &size);
    if (bytes == 0) return MPI_SUCCESS;
    rc = ac_nodes_get(comm, &nodes);
    if (rc != MPI_SUCCESS) return rc;
    rc = ac_alltoall_slot_type(bytes, &slot);
    if (rc != MPI_SUCCESS) return rc;
    int nn = nodes->nnodes, me = nodes->node, lsize = nodes->local_size;
    if (rank != nodes->leader_of[me]) {
        rc = member(sbuf, scount, stype, rbuf, rcount, rtype, comm, bytes, slot, nodes, ph,
                    size);
        goto out;
    }

    /* Leader. first[n]: position of node n's ranks in nodes->order (local-rank order). */
    MPI_Aint all = (MPI_Aint)lsize * size * bytes;
    local = malloc((size_t)all);
    outgoing = malloc((size_t)all);
    incoming = malloc((size_t)all);
    first = malloc(sizeof(int) * 3 * (size_t)nn);
    reqs = malloc(sizeof(MPI_Request) * (size_t)lsize);
    stats = malloc(sizeof(MPI_Status) * (size_t)lsize);
    if (!local || !outgoing || !incoming || !first || !reqs || !stats) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    counts = first + nn;
    displs = first + 2 * nn;
    for (int n = 0, at = 0; n < nn; at += nodes->node_size[n], n++) {
        first[n] = at;
        counts[n] = lsize * nodes->node_size[n];
        displs[n] = lsize * at;
    }
    const int *mine = nodes->order + first[me];

    /* (1) local[l][j]: block from local rank l to rank j. */
    rc = ac_alltoall_pack(sbuf, scount, stype, 0, size, local, bytes, comm);
    if (rc != MPI_SUCCESS) goto out;
    if (ph.gather) {
        rc = ph.gather->fn.gather(MPI_IN_PLACE, size, slot, local, size, slot, 0, nodes->local,
                                  ph.gather->params);
    } else {
        for (int l = 1; l < lsize; l++) {
            rc = PMPI_Irecv(local + l * size * bytes, size, slot, mine[l], AC_TAG_DATA, comm,
                            &reqs[nreq]);
            if (rc != MPI_SUCCESS) goto out;
            nreq++;
        }
        rc = PMPI_Waitall(nreq, reqs, stats);
        nreq = 0;
    }
    if (rc != MPI_SUCCESS) goto out;

    /* (2) outgoing, for node n: [local rank l][rank m of node n]. */
    for (int n = 0; n < nn; n++) {
        char *to = outgoing + (MPI_Aint)displs[n] * bytes;
        for (int l = 0; l < lsize; l++)
            for (int m = 0; m < nodes->node_size[n]; m++, to += bytes)
                memcpy(to, local + ((MPI_Aint)l * size + nodes->order[first[n] + m]) * bytes,
                       (size_t)bytes);
    }
    rc = exchange(outgoing, counts, displs, slot, incoming, counts, displs, slot, nodes->leaders,
                  exchange_params);
    if (rc != MPI_SUCCESS) goto out;

    /* (3) incoming, from node n: [rank l of node n][local rank m]; local[m][j] gets the block
     * from rank j to local rank m. */
    for (int j = 0; j < size; j++) {
        int n = nodes->node_of[j];
        const char *from = incoming + ((MPI_Aint)displs[n] + (MPI_Aint)nodes->local_rank_of[j] *
                                                                 lsize) * bytes;
        for (int m = 0; m < lsize; m++)
            memcpy(local + ((MPI_Aint)m * size + j) * bytes, from + m * bytes, (size_t)bytes);
    }
    if (ph.scatter) {
        rc = ph.scatter->fn.scatter(local, size, slot, MPI_IN_PLACE, size, slot, 0, nodes->local,
                                    ph.scatter->params);
        if (rc != MPI_SUCCESS) goto out;
    } else {
        for (int l = 1; l < lsize; l++) {
            rc = PMPI_Isend(local + l * size * bytes, size, slot, mine[l], AC_TAG_DATA, comm,
                            &reqs[nreq]);
            if (rc != MPI_SUCCESS) goto out;
            nreq++;
        }
    }
    rc = ac_alltoall_unpack(local, bytes, 0, size, rbuf, rcount, rtype, comm);
out:
    rc = ac_wait_pending(rc, nreq, reqs, stats);
    PMPI_Type_free(&slot);
    free(stats);
    free(reqs);
    free(first);
    free(incoming);
    free(outgoing);
    free(local);
    return rc;
}
