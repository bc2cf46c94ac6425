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
 * Written as a schedule (common/sched.h): the messages between a leader and its node's ranks a
 * round of their own (the leader's receives and its sends each a posted round: MPI_Irecv or
 * MPI_Isend and MPI_Waitall), the node's and leaders' phases their rounds on their
 * communicators (common/phase.h), the leader's rearrangements of blocks local steps
 * (ac_sched_local). The hierarchical instances whose phases can all be progressed are
 * progressed; node_aware and node_aware_ring where the node layout is known
 * (AC_REQ_NODE_LAYOUT: learning it is collective).
 * Source: not in STAR-MPI; the usual two-level (SMP-aware) scheme of hierarchical MPI
 * collectives. It stands in for STAR-MPI's topology-specific all-to-all (section 3.1): it uses
 * the node structure instead of the switch topology. The leaders' exchange is STAR-MPI's simple
 * or ring all-to-all.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"

#include <string.h>

/* A leader's blocks and the layout of its messages among the leaders: local[l][j] the block
 * from local rank l to rank j; outgoing, for node n: [local rank l][rank m of node n];
 * incoming, from node n: [rank l of node n][local rank m]. first[n]: the position of node n's
 * ranks in nodes->order (local-rank order); displs[n], node n's run in slots. */
typedef struct leader_blocks {
    const ac_nodes *nodes;
    MPI_Aint bytes;
    int size;
    const int *first, *displs;
    char *local, *outgoing, *incoming;
} leader_blocks;

static int to_outgoing(const void *arg)
{
    const leader_blocks *b = arg;
    const ac_nodes *nodes = b->nodes;
    MPI_Aint bytes = b->bytes;
    for (int n = 0; n < nodes->nnodes; n++) {
        char *to = b->outgoing + (MPI_Aint)b->displs[n] * bytes;
        for (int l = 0; l < nodes->local_size; l++)
            for (int m = 0; m < nodes->node_size[n]; m++, to += bytes)
                memcpy(to,
                       b->local + ((MPI_Aint)l * b->size + nodes->order[b->first[n] + m]) * bytes,
                       (size_t)bytes);
    }
    return MPI_SUCCESS;
}

/* local[m][j] gets the block from rank j to local rank m */
static int from_incoming(const void *arg)
{
    const leader_blocks *b = arg;
    const ac_nodes *nodes = b->nodes;
    MPI_Aint bytes = b->bytes;
    int lsize = nodes->local_size;
    for (int j = 0; j < b->size; j++) {
        int n = nodes->node_of[j];
        const char *from = b->incoming + ((MPI_Aint)b->displs[n] +
                                          (MPI_Aint)nodes->local_rank_of[j] * lsize) * bytes;
        for (int m = 0; m < lsize; m++)
            memcpy(b->local + ((MPI_Aint)m * b->size + j) * bytes, from + m * bytes,
                   (size_t)bytes);
    }
    return MPI_SUCCESS;
}

/* Non-leader ranks: hand the packed blocks to the leader, get the received ones back. */
static int member(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, MPI_Aint bytes, MPI_Datatype slot,
                  const ac_nodes *nodes, const ac_params *p)
{
    int rc = MPI_SUCCESS, size = s->size, leader = nodes->leader_of[nodes->node];
    const ac_algorithm *gather = p ? p->intra[0] : NULL, *scatter = p ? p->intra[1] : NULL;
    char *blocks = ac_sched_tmp(s, size * bytes, MPI_BYTE);
    if (!blocks) return ac_sched_error(s);
    ac_alltoall_pack_schedule(s, sbuf, scount, stype, 0, size, blocks, bytes);
    if (gather) {
        rc = ac_phase_gather(s, gather, nodes->local, blocks, size, slot, NULL, size, slot,
                                  0);
    } else {
        ac_sched_send(s, blocks, size, slot, leader);
        ac_sched_round(s);
    }
    if (rc == MPI_SUCCESS && scatter) {
        rc = ac_phase_scatter(s, scatter, nodes->local, NULL, size, slot, blocks, size, slot,
                                   0);
    } else if (rc == MPI_SUCCESS) {
        ac_sched_recv(s, blocks, size, slot, leader);
        ac_sched_round(s);
    }
    if (rc != MPI_SUCCESS) return rc;
    return ac_alltoall_unpack_schedule(s, blocks, bytes, 0, size, rbuf, rcount, rtype);
}

/* The leaders' exchange: a hierarchical instance's phase (params->phase), else node_aware's
 * params->alltoallv with params->inner2 (allreduce/inner.c's inner all-to-all). */
static int exchange(ac_sched *s, const ac_params *p, const ac_nodes *nodes, const char *out,
                    const int *counts, const int *displs, MPI_Datatype slot, char *in)
{
    if (p->phase)
        return ac_phase_alltoallv(s, p->phase, nodes->leaders, out, counts, displs, slot, in,
                                       counts, displs, slot);
    MPI_Comm own = s->comm;
    ac_sched_phase(s, nodes->leaders);
    int rc = ac_allreduce_inner_alltoallv(s, p, out, counts, displs, slot, in, counts, displs,
                                          slot);
    ac_sched_phase(s, own);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

AC_BLOCKS_BY_SCHEDULE(alltoall, node_aware)

int ac_alltoall_node_aware_schedule(ac_sched *s, const void *sbuf, int scount,
                                    MPI_Datatype stype, void *rbuf, int rcount,
                                    MPI_Datatype rtype, const ac_params *p)
{
    static const ac_params simple = {.alltoallv = ac_alltoallv_simple};
    int rc, rank, size;
    const ac_nodes *nodes;
    MPI_Datatype slot;
    if (!p) p = &simple;
    MPI_Aint bytes = ac_alltoall_slots_start(s->comm, &sbuf, &scount, &stype, rbuf, rcount,
                                             rtype, &rank, &size);
    if (bytes == 0) return ac_sched_error(s);
    if ((rc = ac_nodes_get(s->comm, &nodes)) != MPI_SUCCESS) return rc;
    if ((rc = ac_alltoall_slot_type(bytes, &slot)) != MPI_SUCCESS) return rc;
    ac_sched_own(s, slot);
    int nn = nodes->nnodes, me = nodes->node, lsize = nodes->local_size;
    if (rank != nodes->leader_of[me])
        return member(s, sbuf, scount, stype, rbuf, rcount, rtype, bytes, slot, nodes, p);

    /* Leader. */
    MPI_Aint all = (MPI_Aint)lsize * size * bytes;
    leader_blocks *b = ac_sched_tmp(s, sizeof *b, MPI_BYTE);
    int *first = ac_sched_tmp(s, 3 * (MPI_Aint)nn, MPI_INT);
    char *local = ac_sched_tmp(s, all, MPI_BYTE), *outgoing = ac_sched_tmp(s, all, MPI_BYTE);
    char *incoming = ac_sched_tmp(s, all, MPI_BYTE);
    if (!b || !first || !local || !outgoing || !incoming) return ac_sched_error(s);
    int *counts = first + nn, *displs = first + 2 * nn;
    for (int n = 0, at = 0; n < nn; at += nodes->node_size[n], n++) {
        first[n] = at;
        counts[n] = lsize * nodes->node_size[n];
        displs[n] = lsize * at;
    }
    *b = (leader_blocks){nodes, bytes, size, first, displs, local, outgoing, incoming};
    const int *mine = nodes->order + first[me];

    /* (1) local[l][j]: block from local rank l to rank j. */
    ac_alltoall_pack_schedule(s, sbuf, scount, stype, 0, size, local, bytes);
    if (p->intra[0]) {
        rc = ac_phase_gather(s, p->intra[0], nodes->local, MPI_IN_PLACE, size, slot, local,
                                  size, slot, 0);
        if (rc != MPI_SUCCESS) return rc;
    } else {
        for (int l = 1; l < lsize; l++)
            ac_sched_recv(s, local + l * size * bytes, size, slot, mine[l]);
        ac_sched_round_posted(s);
    }

    /* (2) */
    ac_sched_local(s, to_outgoing, b);
    rc = exchange(s, p, nodes, outgoing, counts, displs, slot, incoming);
    if (rc != MPI_SUCCESS) return rc;

    /* (3) */
    ac_sched_local(s, from_incoming, b);
    if (p->intra[1]) {
        rc = ac_phase_scatter(s, p->intra[1], nodes->local, local, size, slot, MPI_IN_PLACE,
                                   size, slot, 0);
        if (rc != MPI_SUCCESS) return rc;
        return ac_alltoall_unpack_schedule(s, local, bytes, 0, size, rbuf, rcount, rtype);
    }
    /* the unpack (a local step) before the sends start, which only read local */
    ac_alltoall_unpack_schedule(s, local, bytes, 0, size, rbuf, rcount, rtype);
    for (int l = 1; l < lsize; l++)
        ac_sched_send(s, local + l * size * bytes, size, slot, mine[l]);
    ac_sched_round_posted(s);
    return ac_sched_error(s);
}
