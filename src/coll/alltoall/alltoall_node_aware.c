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
 * With k leaders (a hierarchical instance's params->leaders, hier_k<k>_<intra>_<inter>) every
 * packed block is cut into k pieces as even as can be (ac_phase_pieces), and piece i of every
 * block takes the path above alone with local rank i as its node's leader: gathered on the node
 * to local rank i, exchanged among the i-th ranks of every node (ac_nodes.lane: lane member m's
 * run placed by its node, as lane order is not always the nodes'), scattered on the node from
 * local rank i; every rank then interleaves its k pieces back into blocks. Pieces of no byte
 * (b < k) run no phase. Cost: k x gather(L, p n / k) + alltoallv(N, L p n / k a leader, the k
 * lanes on k pairs of links at once) + k x scatter(L, p n / k). Requirements: the family's
 * (every node at least k ranks; nodes may differ in size).
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
 * ranks in nodes->order (local-rank order); counts[n] and displs[n], node n's run in slots. */
typedef struct leader_blocks {
    const ac_nodes *nodes;
    MPI_Aint bytes;
    int size;
    const int *first, *counts, *displs;
    char *local, *outgoing, *incoming;
} leader_blocks;

/* A leader's blocks of `bytes` bytes and their layout (the schedule's temporaries); NULL
 * without memory (the schedule's error). */
static leader_blocks *leader_begin(ac_sched *s, const ac_nodes *nodes, MPI_Aint bytes)
{
    int nn = nodes->nnodes, lsize = nodes->local_size;
    MPI_Aint all = (MPI_Aint)lsize * s->size * bytes;
    leader_blocks *b = ac_sched_tmp(s, sizeof *b, MPI_BYTE);
    int *first = ac_sched_tmp(s, 3 * (MPI_Aint)nn, MPI_INT);
    char *local = ac_sched_tmp(s, all, MPI_BYTE), *outgoing = ac_sched_tmp(s, all, MPI_BYTE);
    char *incoming = ac_sched_tmp(s, all, MPI_BYTE);
    if (!b || !first || !local || !outgoing || !incoming) return NULL;
    int *counts = first + nn, *displs = first + 2 * nn;
    for (int n = 0, at = 0; n < nn; at += nodes->node_size[n], n++) {
        first[n] = at;
        counts[n] = lsize * nodes->node_size[n];
        displs[n] = lsize * at;
    }
    *b = (leader_blocks){nodes, bytes, s->size, first, counts, displs, local, outgoing, incoming};
    return b;
}

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

/* The exchange of piece j (slots `slot`) among lane j, local rank j of every node: the counts
 * and displacements of the nodes (counts, displs, by node) given to each lane member by its
 * node. */
static int lane_exchange(ac_sched *s, const ac_params *p, const ac_nodes *nodes, int j,
                         const int *counts, const int *displs, MPI_Datatype slot, const char *out,
                         char *in)
{
    int nn = nodes->nnodes;
    int *lane_counts = ac_sched_tmp(s, 2 * (MPI_Aint)nn, MPI_INT);
    if (!lane_counts) return ac_sched_error(s);
    int *lane_displs = lane_counts + nn;
    for (int r = 0, m = 0; r < s->size && m < nn; r++) {
        if (nodes->local_rank_of[r] != j) continue;
        lane_counts[m] = counts[nodes->node_of[r]]; /* lane member m: local rank j of this node */
        lane_displs[m++] = displs[nodes->node_of[r]];
    }
    return ac_phase_alltoallv(s, p->phase, j == 0 ? nodes->leaders : nodes->lane, out,
                              lane_counts, lane_displs, slot, in, lane_counts, lane_displs, slot);
}

/* k leaders a node (the header): piece i of every block through local rank i. */
static int lanes(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, MPI_Aint bytes, const ac_nodes *nodes,
                 const ac_params *p)
{
    int rc = MPI_SUCCESS, k = p->leaders, size = s->size, j = nodes->local_rank;
    MPI_Aint lo[AC_HIER_SHARES + 1]; /* piece i: bytes [lo[i], lo[i + 1]) of a block */
    MPI_Datatype slot[AC_HIER_SHARES], strided[AC_HIER_SHARES];
    if (k > AC_HIER_SHARES) return MPI_ERR_ARG;
    ac_phase_pieces(bytes, k, lo);
    /* blocks: this rank's p blocks, packed; pieces: piece i of each at pieces + p lo[i] */
    char *blocks = ac_sched_tmp(s, size * bytes, MPI_BYTE);
    char *pieces = ac_sched_tmp(s, size * bytes, MPI_BYTE);
    if (!blocks || !pieces) return ac_sched_error(s);
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++) {
        MPI_Aint len = lo[i + 1] - lo[i];
        if (len == 0) continue; /* equal on every rank: bytes is */
        rc = ac_alltoall_slot_type(len, &slot[i]);
        if (rc != MPI_SUCCESS) break;
        ac_sched_own(s, slot[i]);
        rc = PMPI_Type_create_hvector(size, 1, bytes, slot[i], &strided[i]);
        if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(&strided[i]);
        if (rc == MPI_SUCCESS) ac_sched_own(s, strided[i]);
    }
    if (rc != MPI_SUCCESS) return rc;
    ac_alltoall_pack_schedule(s, sbuf, scount, stype, 0, size, blocks, bytes);
    for (int i = 0; i < k; i++)
        if (lo[i + 1] > lo[i])
            ac_sched_copy(s, blocks + lo[i], 1, strided[i], pieces + (MPI_Aint)size * lo[i], size,
                          slot[i]);

    /* (1) piece i of every rank's blocks gathered on the node to local rank i: local[l][q], the
     * piece of the block from local rank l to rank q */
    MPI_Aint len = j < k ? lo[j + 1] - lo[j] : 0;
    leader_blocks *b = len > 0 ? leader_begin(s, nodes, len) : NULL;
    if (len > 0 && !b) return ac_sched_error(s);
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++)
        if (lo[i + 1] > lo[i])
            rc = ac_phase_gather(s, p->intra[0], nodes->local, pieces + (MPI_Aint)size * lo[i],
                                 size, slot[i], i == j ? b->local : NULL, size, slot[i], i);

    /* (2) the nodes' runs of piece j among the j-th ranks */
    if (rc == MPI_SUCCESS && len > 0) {
        ac_sched_local(s, to_outgoing, b);
        rc = lane_exchange(s, p, nodes, j, b->counts, b->displs, slot[j], b->outgoing,
                           b->incoming);
        if (rc == MPI_SUCCESS) ac_sched_local(s, from_incoming, b);
    }

    /* (3) scattered back from local rank i; the pieces interleaved back into blocks */
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++)
        if (lo[i + 1] > lo[i])
            rc = ac_phase_scatter(s, p->intra[1], nodes->local, i == j ? b->local : NULL, size,
                                  slot[i], pieces + (MPI_Aint)size * lo[i], size, slot[i], i);
    if (rc != MPI_SUCCESS) return rc;
    for (int i = 0; i < k; i++)
        if (lo[i + 1] > lo[i])
            ac_sched_copy(s, pieces + (MPI_Aint)size * lo[i], size, slot[i], blocks + lo[i], 1,
                          strided[i]);
    return ac_alltoall_unpack_schedule(s, blocks, bytes, 0, size, rbuf, rcount, rtype);
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
    if (p->leaders > 1)
        return lanes(s, sbuf, scount, stype, rbuf, rcount, rtype, bytes, nodes, p);
    if ((rc = ac_alltoall_slot_type(bytes, &slot)) != MPI_SUCCESS) return rc;
    ac_sched_own(s, slot);
    int me = nodes->node, lsize = nodes->local_size;
    if (rank != nodes->leader_of[me])
        return member(s, sbuf, scount, stype, rbuf, rcount, rtype, bytes, slot, nodes, p);

    /* Leader. */
    leader_blocks *b = leader_begin(s, nodes, bytes);
    if (!b) return ac_sched_error(s);
    char *local = b->local;
    const int *mine = nodes->order + b->first[me];

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
    rc = exchange(s, p, nodes, b->outgoing, b->counts, b->displs, slot, b->incoming);
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
