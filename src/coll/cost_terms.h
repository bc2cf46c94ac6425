/*
 * cost_terms.h - the vocabulary of an algorithm's cost model: what a registry entry's `.cost`
 * (coll.h) points to. Each collective's registry.c keeps the models of its algorithms beside
 * their entries (its tree instances' model is its TREE_COST, common/tree.h; the orthogonal
 * family's are in orthogonal.c; those that several collectives share, algorithms of the same
 * shape, once in common/cost_models.c), so that an entry, its algorithm file and its formula
 * read together; cost.c evaluates them (cost.h). An entry without a model (native, and whatever
 * runs the library's collective) is measured, never predicted.
 *
 * A model is a short list of terms {quantity, parameter, link, multiplier} and at most two inner
 * collectives. The quantity is one of the enumerated functions of the shape below (in the unit
 * of its collective: the block for allgather, alltoall, gather, scatter; the vector for
 * allreduce, reduce, bcast and the reduce-scatters; for allgatherv and alltoallv the total over
 * p, the block), the parameter (P_MESSAGE: messages one after the other, each a latency alpha
 * and an overhead o; P_ALPHA and P_OVERHEAD apart for messages posted at once, which share one
 * latency and pay every overhead; P_BETA, P_GAMMA), and the link says which of the intra- and
 * inter-node parameters it counts against:
 *   worst  inter-node as soon as the ranks span nodes (a step of a ring or a pairwise exchange
 *          ends when its slowest pair does, and some pair crosses a node boundary);
 *   split  steps at partner distances 1, 2, 4, ... (recursive doubling, Bruck, binomial trees):
 *          with consecutive ranks on a node, the first floor(log2 ppn) of the ceil(log2 p)
 *          steps stay inside a node; the term is shared between the links in that proportion;
 *   intra, inter: the term says (node-aware algorithms).
 *   all    exchanges among all pairs (L_ALL, below).
 * The terms are those of each algorithm file's header comment ("Cost: ..."), corrected where
 * SimGrid disagreed on a contention-free platform (scripts/cost_check, docs/model.md: sends
 * posted at once, trees level by level, reductions child by child); where a header gives
 * only the leading terms, so does the model. Composed algorithms add their inner
 * collectives (params->allgatherv with params->inner, params->alltoallv with params->inner2:
 * the model of the registry entry that runs that function) evaluated on blocks of the vector;
 * orthogonal instances add their phase algorithm (params->phase) on each dimension of the mesh,
 * with the bytes each phase moves (the whole vector, growing runs of blocks, or p / n[d] blocks
 * per pair), each line priced on its own nodes x ranks per node (cost.c phase_features: its
 * members are a stride apart, so a line of a block placement holds ppn / stride of a node's
 * ranks). Hierarchical instances add their phases: the
 * intra-node ones on one node of ppn ranks (intra-node parameters), the inter-node one on the
 * leaders, one per node (inter-node parameters).
 */
#ifndef AUTOCOLL_COST_TERMS_H
#define AUTOCOLL_COST_TERMS_H

#include "coll/coll.h"

/* Quantities: functions of the shape; p' is the largest power of two <= p, m the unit bytes. */
typedef enum ac_cost_quantity {
    Q_ONE,           /* 1 when there is anyone to talk to (p > 1), else 0 */
    Q_LOG,           /* ceil(log2 p) */
    Q_FLOOR_LOG,     /* log2 p' */
    Q_NOT_POW2,      /* 1 when p is not a power of two (the extra fold steps), else 0 */
    Q_P1,            /* p - 1 */
    Q_SYNC,          /* steps of phase synchronisation (params->sync): light p - 2 token
                      * exchanges, barrier p - 2 barriers of ceil(log2 p) steps, none 0 */
    Q_MESH_PHASES,   /* mesh dimensions (params->dims, default 2) of size d_k > 1 */
    Q_MESH_STEPS,    /* sum over the mesh dimensions of d_k - 1: the messages of a rank */
    Q_N,             /* m */
    Q_N_LOG,         /* m ceil(log2 p) */
    Q_N_FLOOR_LOG,   /* m log2 p' */
    Q_N_NOT_POW2,    /* m when p is not a power of two, else 0 */
    Q_N_FRACTION,    /* (p - 1) / p m */
    Q_N_FRACTION_P2, /* (p' - 1) / p' m */
    Q_N_P1,          /* (p - 1) m */
    Q_N_P1_P,        /* (p - 1) p m */
    Q_N_HALF_P_LOG,  /* p / 2 ceil(log2 p) m */
    Q_N_MESH,        /* sum over the mesh dimensions of (d_k - 1) p / d_k m */
    Q_N_SCATTER,     /* the bytes on a binomial scatter's critical path: each level waits
                      * for the whole of its subtree's data, sum over the levels l = 1 .. L of
                      * (2^l - 1) / p m, L = ceil(log2 p) */
    Q_TREE_STEPS,    /* latencies of a pipelined tree (cost.c, tree_shape): L + m - 1 */
    Q_TREE_MESSAGES, /* messages of a pipelined tree's critical path: S + F (m - 1) */
    Q_TREE_BYTES,    /* bytes of a pipelined tree: (S + F (m - 1)) x the bytes of a step (a
                      * segment, or the message whole) */
    Q_REDUCE_STEPS,  /* latencies of a pipelined reduction tree (tree_shape, reduce) */
    Q_REDUCE_MESSAGES, /* messages of a pipelined reduction tree: S + F (m - 1) */
    Q_REDUCE_BYTES,  /* bytes of a pipelined reduction tree: (S + F (m - 1)) x a step's */
    Q_ROOT_STEPS,    /* gather / scatter trees: the levels, plus one latency per further
                      * segment of a block */
    Q_ROOT_MESSAGES, /* gather / scatter trees: the root's messages, F per segment of a block */
    Q_ROOT_BYTES,    /* gather / scatter trees: (p - 1) m through the root's link; the chain
                      * forwards p (p - 1) / 2 m in sequence unless its segment is at most a
                      * block (then it pipelines) */
    Q_PPN1,          /* ranks per node - 1 */
    Q_N_PPN1_P,      /* (ppn - 1) p m */
    Q_SHM_CHUNK,     /* the bytes of one chunk through shared memory: min(m, AC_SHM_CHUNK)
                      * (common/shm.h) */
    Q_SHM_SYNC_STEPS, /* the steps of one barrier a chunk through shared memory: ceil(m /
                       * AC_SHM_CHUNK) ceil(log2 p) */
    Q_SHM_ALLTOALL_SYNC_STEPS /* the same for an alltoall's chunks of m / ac_shm_alltoall_slot
                               * bytes a block (about AC_SHM_CHUNK / p) */

} ac_cost_quantity;

/* P_MESSAGE: a message on the critical path, one after the other: a latency and an overhead.
 * P_ALPHA: a latency alone (messages posted at once share one), P_OVERHEAD: an overhead alone
 * (each of those messages still costs its own, LogP's o). */
typedef enum ac_cost_param { P_MESSAGE, P_ALPHA, P_OVERHEAD, P_BETA, P_GAMMA } ac_cost_param;
typedef enum ac_cost_link {
    L_WORST,
    L_SPLIT,
    L_TREE,
    L_INTRA,
    L_INTER,
    L_ALL,
    L_MESH
} ac_cost_link;
/* L_TREE: split for the trees whose partners are at distances 1, 2, 4, ... (binomial,
 * k-nomial), worst for the others; their inter-node steps have few senders a node, so their
 * bytes are not multiplied (below).
 * L_ALL: exchanges among all pairs (pairwise, all at once): with the ranks in node blocks,
 * (ppn - 1) / (p - 1) of a rank's partners share its node, the others are on other nodes.
 * The node's link is shared: in the inter-node steps of L_SPLIT terms (recursive doubling
 * and halving, Bruck, dissemination) and of L_ALL terms every rank of a node sends across at
 * once, so their inter-node bytes count ppn times (the node's injection bandwidth divided among
 * its ranks); L_WORST (rings: one neighbour a node crosses) and trees count them once.
 * L_MESH: the mesh algorithms' phases (Q_MESH_PHASES, Q_MESH_STEPS, Q_N_MESH, and Q_N_P1 of
 * the mesh all-gather): dimension k's lines are d_k ranks s_k apart (s_0 = 1, s_{k+1} = s_k
 * d_k: allgatherv_mesh.c, alltoall_mesh.c), so min(d_k, max(1, ppn / s_k)) of a line share a
 * node; each phase is split like L_ALL within its lines, its inter-node bytes counted ppn
 * times. */

typedef struct ac_cost_term {
    ac_cost_quantity q;
    ac_cost_param param;
    ac_cost_link link;
    double mult;
} ac_cost_term;

/* An inner collective of a composed algorithm. */
typedef enum ac_cost_part {
    PART_NONE,
    PART_ALLGATHERV, /* params->allgatherv with params->inner */
    PART_ALLTOALLV,  /* params->alltoallv with params->inner2 */
    PART_PHASES,     /* orthogonal: params->phase on each mesh dimension */
    PART_LEADERS,    /* params->alltoallv with params->inner2 among the node leaders, one per
                      * node, with blocks of ppn^2 units (what two nodes exchange) */
    PART_HIER        /* hierarchical: params->intra[0] on a node of ppn ranks, params->phase
                      * among the nodes' leaders, params->intra[1] on the node, with the bytes of
                      * the family's rules (ac_hier_family.bytes); with k leaders, each node runs
                      * its k intra-node phases one after the other and the k lanes their
                      * inter-node phases at once */
} ac_cost_part;

typedef enum ac_cost_block {
    BLOCK_UNIT,     /* each rank's block is the whole unit (all-gather of whole vectors) */
    BLOCK_FRACTION  /* each rank's block is the unit over p (the vector in p blocks) */
} ac_cost_block;

typedef struct ac_cost_inner {
    ac_cost_part part;
    ac_cost_block block;
} ac_cost_inner;

/* What the bytes of one orthogonal phase are (PART_PHASES), per collective. */
typedef enum ac_cost_phases {
    PHASES_NONE,    /* no phases */
    PHASES_WHOLE,   /* every phase moves the whole message (bcast, reduce, allreduce) */
    PHASES_GROWING, /* the last dimension's phase moves one block per rank, each earlier one the
                     * runs gathered by the phases before it (gather, allgather; scatter is the
                     * same phases in reverse) */
    PHASES_BLOCKS   /* the phase on n[d] ranks moves p / n[d] blocks per pair (alltoall) */
} ac_cost_phases;

typedef struct ac_cost_model {
    const ac_cost_term *terms;
    int nterms;
    ac_cost_inner inner[2]; /* the inner collectives, in this order; PART_NONE: none */
    ac_cost_phases phases;  /* PART_PHASES: the bytes of each phase */
} ac_cost_model;

/* A term, and a model's list of them:
 *   static const ac_cost_model ring_cost = {AC_TERMS(AC_TERM(Q_P1, P_MESSAGE, L_WORST, 2),
 *                                                    ...)}; */
#define AC_TERM(q, param, link, mult) {q, param, link, mult}
#define AC_TERMS(...)                                                                          \
    .terms = (const ac_cost_term[]){__VA_ARGS__},                                              \
    .nterms = (int)(sizeof((const ac_cost_term[]){__VA_ARGS__}) / sizeof(ac_cost_term))

#endif
