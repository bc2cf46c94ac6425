/*
 * cost.c - the registry's cost models as data, and the fit of the platform parameters
 * (cost.h).
 *
 * One row per algorithm function: the collective whose signature it has, the function, its
 * terms and the inner collectives it runs. A term is {quantity, parameter, link, multiplier}:
 * the quantity is one of the enumerated functions of the shape below (in the unit of its
 * collective: the block for allgather, alltoall, gather, scatter; the vector for allreduce,
 * reduce, bcast and the reduce-scatters; for allgatherv and alltoallv the total over p, the
 * block), the parameter (P_MESSAGE: messages one after the other, each a latency alpha and an
 * overhead o; P_ALPHA and P_OVERHEAD apart for messages posted at once, which share one
 * latency and pay every overhead; P_BETA, P_GAMMA), and the link says which of the intra- and
 * inter-node parameters it counts against:
 *   worst  inter-node as soon as the ranks span nodes (a step of a ring or a pairwise exchange
 *          ends when its slowest pair does, and some pair crosses a node boundary);
 *   split  steps at partner distances 1, 2, 4, ... (recursive doubling, Bruck, binomial trees):
 *          with consecutive ranks on a node, the first floor(log2 ppn) of the ceil(log2 p)
 *          steps stay inside a node; the term is shared between the links in that proportion;
 *   intra, inter: the term says (node-aware algorithms).
 * The terms are those of each algorithm file's header comment ("Cost: ..."), corrected where
 * SimGrid disagreed on a contention-free platform (scripts/cost_check, docs/model.md: sends
 * posted at once, trees level by level, reductions child by child); where a header gives
 * only the leading terms, so does the row. Composed algorithms add their inner
 * collectives (params->allgatherv with params->inner, params->alltoallv with params->inner2)
 * evaluated on blocks of the vector; orthogonal instances add their phase algorithm
 * (params->phase) on each dimension of the mesh, with the bytes each phase moves (the whole
 * vector, growing runs of blocks, or p / n[d] blocks per pair). A phase line is taken as
 * inter-node whenever the communicator spans nodes (lines may cross nodes whatever their
 * dimension). The library's algorithms have no row: whatever runs one has no model.
 */
#include "coll/cost.h"
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"

#include <math.h>
#include <string.h>

/* Quantities: functions of the shape; p' is the largest power of two <= p, m the unit bytes. */
typedef enum cost_quantity {
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
    Q_TREE_STEPS,    /* latencies of a pipelined tree (tree_shape): L + m - 1 */
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
    Q_N_PPN1_P       /* (ppn - 1) p m */

} cost_quantity;

/* P_MESSAGE: a message on the critical path, one after the other: a latency and an overhead.
 * P_ALPHA: a latency alone (messages posted at once share one), P_OVERHEAD: an overhead alone
 * (each of those messages still costs its own, LogP's o). */
typedef enum cost_param { P_MESSAGE, P_ALPHA, P_OVERHEAD, P_BETA, P_GAMMA } cost_param;
typedef enum cost_link { L_WORST, L_SPLIT, L_TREE, L_INTRA, L_INTER } cost_link;
/* L_TREE: split for the trees whose partners are at distances 1, 2, 4, ... (binomial,
 * k-nomial), worst for the others. */

typedef struct cost_term {
    cost_quantity q;
    cost_param param;
    cost_link link;
    double mult;
} cost_term;

/* An inner collective of a composed algorithm. */
typedef enum cost_part {
    PART_NONE,
    PART_ALLGATHERV, /* params->allgatherv with params->inner */
    PART_ALLTOALLV,  /* params->alltoallv with params->inner2 */
    PART_PHASES,     /* orthogonal: params->phase on each mesh dimension */
    PART_LEADERS     /* params->alltoallv with params->inner2 among the node leaders, one per
                      * node, with blocks of ppn^2 units (what two nodes exchange) */
} cost_part;

typedef enum cost_block {
    BLOCK_UNIT,     /* each rank's block is the whole unit (all-gather of whole vectors) */
    BLOCK_FRACTION  /* each rank's block is the unit over p (the vector in p blocks) */
} cost_block;

typedef struct cost_inner {
    cost_part part;
    cost_block block;
} cost_inner;

typedef void (*cost_fn)(void);

typedef struct cost_row {
    ac_collective collective;
    cost_fn fn;
    const cost_term *terms;
    int nterms;
    cost_inner inner[2];
} cost_row;

#define T(q, param, link, mult) {q, param, link, mult}
#define TERMS(a) a, (int)(sizeof a / sizeof a[0])
#define FN(f) (cost_fn)(f)

/* every message posted at once: the latencies overlap, the rank's link carries the bytes */
static const cost_term concurrent[] = {T(Q_ONE, P_ALPHA, L_WORST, 1),
                                       T(Q_P1, P_OVERHEAD, L_WORST, 1),
                                       T(Q_N_P1, P_BETA, L_WORST, 1)};
static const cost_term linear_sync[] = {T(Q_P1, P_MESSAGE, L_WORST, 1),
                                        T(Q_N_P1, P_BETA, L_WORST, 1),
                                        T(Q_SYNC, P_MESSAGE, L_WORST, 1)};
static const cost_term gather_doubling[] = {T(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 1),
                                            T(Q_NOT_POW2, P_MESSAGE, L_WORST, 2),
                                            T(Q_N_P1, P_BETA, L_SPLIT, 1)};
static const cost_term gather_bruck[] = {T(Q_LOG, P_MESSAGE, L_SPLIT, 1),
                                         T(Q_N_P1, P_BETA, L_SPLIT, 1)};
static const cost_term gather_mesh[] = {T(Q_MESH_PHASES, P_ALPHA, L_WORST, 1),
                                        T(Q_MESH_STEPS, P_OVERHEAD, L_WORST, 1),
                                        T(Q_N_P1, P_BETA, L_WORST, 1)};
static const cost_term a2a_mesh[] = {T(Q_MESH_PHASES, P_ALPHA, L_WORST, 1),
                                     T(Q_MESH_STEPS, P_OVERHEAD, L_WORST, 1),
                                     T(Q_N_MESH, P_BETA, L_WORST, 1)};
static const cost_term a2a_doubling[] = {T(Q_LOG, P_MESSAGE, L_SPLIT, 1),
                                         T(Q_N_P1_P, P_BETA, L_SPLIT, 1)};
static const cost_term a2a_bruck[] = {T(Q_LOG, P_MESSAGE, L_SPLIT, 1),
                                      T(Q_N_HALF_P_LOG, P_BETA, L_SPLIT, 1)};
/* through the node's leader and back; the leaders' exchange is an inner part */
static const cost_term a2a_node_aware[] = {T(Q_PPN1, P_MESSAGE, L_INTRA, 2),
                                           T(Q_N_PPN1_P, P_BETA, L_INTRA, 2)};
static const cost_term ar_doubling[] = {
    T(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 1), T(Q_N_FLOOR_LOG, P_BETA, L_SPLIT, 1),
    T(Q_N_FLOOR_LOG, P_GAMMA, L_WORST, 1), T(Q_NOT_POW2, P_MESSAGE, L_WORST, 2),
    T(Q_N_NOT_POW2, P_BETA, L_WORST, 2), T(Q_N_NOT_POW2, P_GAMMA, L_WORST, 1)};
static const cost_term ar_ring[] = {T(Q_P1, P_MESSAGE, L_WORST, 2),
                                    T(Q_N_FRACTION, P_BETA, L_WORST, 2),
                                    T(Q_N_FRACTION, P_GAMMA, L_WORST, 1)};
static const cost_term ar_allgather[] = {T(Q_N_P1, P_GAMMA, L_WORST, 1)};
/* recursive halving on p' ranks after the fold of the ranks above p' (Rabenseifner) */
static const cost_term halving_p2[] = {
    T(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 1), T(Q_N_FRACTION_P2, P_BETA, L_SPLIT, 1),
    T(Q_N_FRACTION_P2, P_GAMMA, L_WORST, 1), T(Q_NOT_POW2, P_MESSAGE, L_WORST, 1),
    T(Q_N_NOT_POW2, P_BETA, L_WORST, 1), T(Q_N_NOT_POW2, P_GAMMA, L_WORST, 1)};
static const cost_term ar_alltoall_allgather[] = {T(Q_N_FRACTION, P_GAMMA, L_WORST, 1)};
static const cost_term barrier_dissemination[] = {T(Q_LOG, P_MESSAGE, L_SPLIT, 1)};
static const cost_term barrier_linear[] = {T(Q_P1, P_MESSAGE, L_WORST, 2)};
static const cost_term barrier_doubling[] = {T(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 1),
                                             T(Q_NOT_POW2, P_MESSAGE, L_WORST, 2)};
static const cost_term tree_pipeline[] = {T(Q_TREE_STEPS, P_ALPHA, L_TREE, 1),
                                          T(Q_TREE_MESSAGES, P_OVERHEAD, L_TREE, 1),
                                          T(Q_TREE_BYTES, P_BETA, L_TREE, 1)};
static const cost_term tree_reduce[] = {T(Q_REDUCE_STEPS, P_ALPHA, L_TREE, 1),
                                        T(Q_REDUCE_MESSAGES, P_OVERHEAD, L_TREE, 1),
                                        T(Q_REDUCE_BYTES, P_BETA, L_TREE, 1),
                                        T(Q_REDUCE_BYTES, P_GAMMA, L_WORST, 1)};
static const cost_term tree_root[] = {T(Q_ROOT_STEPS, P_ALPHA, L_TREE, 1),
                                      T(Q_ROOT_MESSAGES, P_OVERHEAD, L_TREE, 1),
                                      T(Q_ROOT_BYTES, P_BETA, L_TREE, 1)};
static const cost_term binomial_scatter[] = {T(Q_LOG, P_MESSAGE, L_SPLIT, 1),
                                             T(Q_N_SCATTER, P_BETA, L_SPLIT, 1)};
/* halving (as halving_p2) then a binomial gather of the p' blocks */
static const cost_term reduce_rabenseifner[] = {
    T(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 2), T(Q_N_FRACTION_P2, P_BETA, L_SPLIT, 2),
    T(Q_N_FRACTION_P2, P_GAMMA, L_WORST, 1), T(Q_NOT_POW2, P_MESSAGE, L_WORST, 1),
    T(Q_N_NOT_POW2, P_BETA, L_WORST, 1), T(Q_N_NOT_POW2, P_GAMMA, L_WORST, 1)};
static const cost_term reduce_linear[] = {T(Q_P1, P_MESSAGE, L_WORST, 1),
                                          T(Q_N_P1, P_BETA, L_WORST, 1),
                                          T(Q_N_P1, P_GAMMA, L_WORST, 1)};
static const cost_term rs_pairwise[] = {T(Q_P1, P_MESSAGE, L_WORST, 1),
                                        T(Q_N_FRACTION, P_BETA, L_WORST, 1),
                                        T(Q_N_FRACTION, P_GAMMA, L_WORST, 1)};
static const cost_term rs_halving[] = {
    T(Q_LOG, P_MESSAGE, L_SPLIT, 1), T(Q_N_FRACTION, P_BETA, L_SPLIT, 1),
    T(Q_N_FRACTION, P_GAMMA, L_WORST, 1), T(Q_N_NOT_POW2, P_BETA, L_WORST, 1),
    T(Q_N_NOT_POW2, P_GAMMA, L_WORST, 1)};
static const cost_term rs_reduce_scatter[] = {
    T(Q_LOG, P_MESSAGE, L_SPLIT, 2), T(Q_N_LOG, P_BETA, L_SPLIT, 1),
    T(Q_N_LOG, P_GAMMA, L_WORST, 1), T(Q_N_FRACTION, P_BETA, L_SPLIT, 1)};
/* orthogonal instances: their phases only (a row's term list is never empty) */
static const cost_term phases_only[] = {T(Q_ONE, P_MESSAGE, L_WORST, 0)};

#define NO_INNER {{PART_NONE, BLOCK_UNIT}, {PART_NONE, BLOCK_UNIT}}
#define ROW(coll, f, terms) {coll, FN(f), TERMS(terms), NO_INNER}
#define PHASES(coll, f)                                                                        \
    {coll, FN(f), TERMS(phases_only), {{PART_PHASES, BLOCK_UNIT}, {PART_NONE, BLOCK_UNIT}}}

static const cost_row rows[] = {
    ROW(AC_ALLGATHER, ac_allgather_simple, concurrent),
    ROW(AC_ALLGATHER, ac_allgather_ring, linear_sync),
    ROW(AC_ALLGATHER, ac_allgather_pair, linear_sync),
    ROW(AC_ALLGATHER, ac_allgather_node_ring, linear_sync),
    ROW(AC_ALLGATHER, ac_allgather_recursive_doubling, gather_doubling),
    ROW(AC_ALLGATHER, ac_allgather_bruck, gather_bruck),
    ROW(AC_ALLGATHER, ac_allgather_mesh, gather_mesh),
    PHASES(AC_ALLGATHER, ac_allgather_orthogonal),
    ROW(AC_ALLGATHERV, ac_allgatherv_simple, concurrent),
    ROW(AC_ALLGATHERV, ac_allgatherv_ring, linear_sync),
    ROW(AC_ALLGATHERV, ac_allgatherv_pair, linear_sync),
    ROW(AC_ALLGATHERV, ac_allgatherv_node_ring, linear_sync),
    ROW(AC_ALLGATHERV, ac_allgatherv_recursive_doubling, gather_doubling),
    ROW(AC_ALLGATHERV, ac_allgatherv_bruck, gather_bruck),
    ROW(AC_ALLGATHERV, ac_allgatherv_mesh, gather_mesh),
    PHASES(AC_ALLGATHERV, ac_allgatherv_orthogonal),
    ROW(AC_ALLREDUCE, ac_allreduce_recursive_doubling, ar_doubling),
    ROW(AC_ALLREDUCE, ac_allreduce_ring, ar_ring),
    {AC_ALLREDUCE, FN(ac_allreduce_allgather), TERMS(ar_allgather),
     {{PART_ALLGATHERV, BLOCK_UNIT}, {PART_NONE, BLOCK_UNIT}}},
    {AC_ALLREDUCE, FN(ac_allreduce_rabenseifner), TERMS(halving_p2),
     {{PART_ALLGATHERV, BLOCK_FRACTION}, {PART_NONE, BLOCK_UNIT}}},
    {AC_ALLREDUCE, FN(ac_allreduce_alltoall_allgather), TERMS(ar_alltoall_allgather),
     {{PART_ALLTOALLV, BLOCK_FRACTION}, {PART_ALLGATHERV, BLOCK_FRACTION}}},
    PHASES(AC_ALLREDUCE, ac_allreduce_orthogonal),
    ROW(AC_ALLTOALL, ac_alltoall_simple, concurrent),
    ROW(AC_ALLTOALL, ac_alltoall_ring, linear_sync),
    ROW(AC_ALLTOALL, ac_alltoall_pair, linear_sync),
    ROW(AC_ALLTOALL, ac_alltoall_mesh, a2a_mesh),
    ROW(AC_ALLTOALL, ac_alltoall_recursive_doubling, a2a_doubling),
    ROW(AC_ALLTOALL, ac_alltoall_bruck, a2a_bruck),
    {AC_ALLTOALL, FN(ac_alltoall_node_aware), TERMS(a2a_node_aware),
     {{PART_LEADERS, BLOCK_UNIT}, {PART_NONE, BLOCK_UNIT}}},
    PHASES(AC_ALLTOALL, ac_alltoall_orthogonal),
    ROW(AC_ALLTOALLV, ac_alltoallv_simple, concurrent),
    ROW(AC_ALLTOALLV, ac_alltoallv_ring, linear_sync),
    ROW(AC_ALLTOALLV, ac_alltoallv_pair, linear_sync),
    ROW(AC_BARRIER, ac_barrier_dissemination, barrier_dissemination),
    ROW(AC_BARRIER, ac_barrier_linear, barrier_linear),
    ROW(AC_BARRIER, ac_barrier_recursive_doubling, barrier_doubling),
    ROW(AC_BCAST, ac_bcast_tree, tree_pipeline),
    {AC_BCAST, FN(ac_bcast_scatter_allgather), TERMS(binomial_scatter),
     {{PART_ALLGATHERV, BLOCK_FRACTION}, {PART_NONE, BLOCK_UNIT}}},
    PHASES(AC_BCAST, ac_bcast_orthogonal),
    ROW(AC_GATHER, ac_gather_tree, tree_root),
    PHASES(AC_GATHER, ac_gather_orthogonal),
    ROW(AC_SCATTER, ac_scatter_tree, tree_root),
    PHASES(AC_SCATTER, ac_scatter_orthogonal),
    ROW(AC_REDUCE, ac_reduce_tree, tree_reduce),
    ROW(AC_REDUCE, ac_reduce_rabenseifner, reduce_rabenseifner),
    ROW(AC_REDUCE, ac_reduce_linear_ordered, reduce_linear),
    PHASES(AC_REDUCE, ac_reduce_orthogonal),
    ROW(AC_REDUCE_SCATTER, ac_reduce_scatter_pairwise, rs_pairwise),
    ROW(AC_REDUCE_SCATTER, ac_reduce_scatter_recursive_halving, rs_halving),
    ROW(AC_REDUCE_SCATTER, ac_reduce_scatter_reduce_then_scatter, rs_reduce_scatter),
    ROW(AC_REDUCE_SCATTER_BLOCK, ac_reduce_scatter_block_pairwise, rs_pairwise),
    ROW(AC_REDUCE_SCATTER_BLOCK, ac_reduce_scatter_block_recursive_halving, rs_halving),
    ROW(AC_REDUCE_SCATTER_BLOCK, ac_reduce_scatter_block_reduce_then_scatter,
        rs_reduce_scatter),
};

/* What the bytes of one orthogonal phase are, per collective. */
typedef enum phase_bytes {
    PHASE_NONE,    /* the collective has no orthogonal family */
    PHASE_WHOLE,   /* every phase moves the whole message (bcast, reduce, allreduce) */
    PHASE_GROWING, /* the last dimension's phase moves one block per rank, each earlier one the
                    * runs gathered by the phases before it (gather, allgather; scatter is the
                    * same phases in reverse) */
    PHASE_BLOCKS   /* the phase on n[d] ranks moves p / n[d] blocks per pair (alltoall) */
} phase_bytes;

static const phase_bytes phase_rule[AC_NUM_COLLECTIVES] = {
    [AC_ALLGATHER] = PHASE_GROWING, [AC_ALLGATHERV] = PHASE_GROWING,
    [AC_ALLREDUCE] = PHASE_WHOLE,   [AC_ALLTOALL] = PHASE_BLOCKS,
    [AC_BCAST] = PHASE_WHOLE,       [AC_GATHER] = PHASE_GROWING,
    [AC_REDUCE] = PHASE_WHOLE,      [AC_SCATTER] = PHASE_GROWING,
};

static const char *const param_names[AC_COST_PARAMS] = {
    [AC_COST_ALPHA_INTRA] = "alpha_intra", [AC_COST_BETA_INTRA] = "beta_intra",
    [AC_COST_ALPHA_INTER] = "alpha_inter", [AC_COST_BETA_INTER] = "beta_inter",
    [AC_COST_GAMMA] = "gamma", [AC_COST_OVERHEAD] = "overhead",
};

const char *ac_cost_param_name(int param)
{
    return param >= 0 && param < AC_COST_PARAMS ? param_names[param] : "?";
}

/* The entry's function. The union holds function pointers only, all of one representation;
 * registry.c compares them the same way (ac_same_messages). */
static cost_fn function_of(const ac_algorithm *a)
{
    return (cost_fn)a->fn.bcast;
}

static const cost_row *row_of(ac_collective c, cost_fn fn)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].collective == c && rows[i].fn == fn) return &rows[i];
    return NULL;
}

/* The unit bytes m of a call of collective c: the total over p for the v-collectives. */
static double unit_bytes(ac_collective c, const ac_cost_shape *s)
{
    if (c == AC_BARRIER) return 0.0;
    if (c == AC_ALLGATHERV || c == AC_ALLTOALLV) return s->bytes / (double)s->size;
    return s->bytes;
}

/* The bytes ac_call counts for a call of collective c on p ranks with blocks of `block`. */
static double call_bytes(ac_collective c, int p, double block)
{
    return c == AC_ALLGATHERV || c == AC_ALLTOALLV ? block * (double)p : block;
}

/* A tree's shape for the pipeline (p > 1). The tree engine posts a node's sends to its children
 * at once, so their latencies overlap and the node's link carries their bytes one after the
 * other: a level of the tree costs alpha + f s beta when the sending node has f children. L is
 * the number of levels, F the root's children (it sends F x m segments: the pipeline's
 * bottleneck), S the sum of the sending nodes' children along the critical path:
 *   binomial  L = ceil(log2 p), F = L, S = L (L + 1) / 2  (the root's first child heads the
 *             largest subtree, and so on down)
 *   k-nomial  L = ceil(log_k p), F = (k - 1) L, S = (k - 1) L (L + 1) / 2
 *   binary    L = floor(log2 p), F = S / L = 2
 *   chain     L = p - 1, F = 1, S = p - 1
 *   flat      L = 1, F = S = p - 1
 * A pipelined tree of m segments of s bytes then takes (L + m - 1) alpha + (S + F (m - 1)) s
 * beta: the first segment's way down, then the root's other segments.
 * A reduction (`reduce`) combines its children's data one child after the other, so the
 * receives along the critical path add up: S = L for the binomial tree (the root's children
 * finish one step apart), (k - 1) L for the k-nomial, 2 L - 1 for the binary tree (2 L when it
 * is complete); the flat and k-nomial trees take one latency more than their levels (their
 * receives are posted at once, the combining is not): as SimGrid measured them on the
 * contention-free platform of scripts/cost_check. */
static void tree_shape(const ac_params *pr, int p, int reduce, double *levels, double *fanout,
                       double *sum)
{
    ac_tree_kind kind = pr ? pr->tree : AC_TREE_BINOMIAL;
    int l = 0, k = kind == AC_TREE_KNOMIAL && pr->k >= 2 ? pr->k : 2;
    switch (kind) {
    case AC_TREE_BINARY:
        while ((2 << l) <= p) l++;
        *levels = l;
        *fanout = p > 2 ? 2.0 : 1.0;
        *sum = *fanout * l;
        if (reduce && p > 2) *levels = *sum = (2 << l) - 1 == p ? 2 * l : 2 * l - 1;
        return;
    case AC_TREE_CHAIN:
        *levels = *sum = p - 1;
        *fanout = 1.0;
        return;
    case AC_TREE_FLAT:
        *levels = reduce ? 2.0 : 1.0;
        *fanout = *sum = p - 1;
        return;
    case AC_TREE_BINOMIAL:
    case AC_TREE_KNOMIAL:
        break;
    }
    for (long reach = 1; reach < p; reach *= k) l++;
    *levels = reduce && kind == AC_TREE_KNOMIAL ? l + 1 : l;
    *fanout = (double)(k - 1) * l;
    *sum = reduce ? *fanout : (double)(k - 1) * l * (l + 1) / 2.0;
}

static double quantity(cost_quantity q, const ac_params *pr, const ac_cost_shape *s, double m)
{
    int p = s->size, p2 = ac_pow2_floor(p), log = ac_ceil_log2(p), floor_log = ac_ceil_log2(p2);
    double dp = p, not_pow2 = ac_is_pow2(p) ? 0.0 : 1.0, levels = 0, fanout = 0, sum = 0;
    int dims[3] = {1, 1, 1}, ndims = pr && pr->dims == 3 ? 3 : 2;
    double mesh_phases = 0.0, mesh_steps = 0.0, mesh_blocks = 0.0, scatter = 0.0;
    if (q == Q_MESH_PHASES || q == Q_MESH_STEPS || q == Q_N_MESH) {
        ac_mesh_dims(p, ndims, dims);
        for (int d = 0; d < ndims; d++) {
            mesh_phases += dims[d] > 1;
            mesh_steps += dims[d] - 1;
            mesh_blocks += (double)(dims[d] - 1) * dp / dims[d];
        }
    }
    for (int l = 1; q == Q_N_SCATTER && l <= log; l++) scatter += ((1 << l) - 1) / dp * m;
    int segment = pr ? pr->segment : 0, segmented = segment > 0 && m > segment;
    double nseg = segmented ? ceil(m / segment) : 1.0, step_bytes = segmented ? segment : m;
    int reduce = q == Q_REDUCE_STEPS || q == Q_REDUCE_MESSAGES || q == Q_REDUCE_BYTES;
    if (p > 1) tree_shape(pr, p, reduce, &levels, &fanout, &sum);
    switch (q) {
    case Q_ONE: return p > 1 ? 1.0 : 0.0;
    case Q_LOG: return log;
    case Q_FLOOR_LOG: return floor_log;
    case Q_NOT_POW2: return not_pow2;
    case Q_P1: return dp - 1.0;
    case Q_SYNC: {
        ac_sync sync = pr ? pr->sync : AC_SYNC_NONE;
        double phases = p > 2 ? dp - 2.0 : 0.0;
        return sync == AC_SYNC_LIGHT ? phases : sync == AC_SYNC_BARRIER ? phases * log : 0.0;
    }
    case Q_MESH_PHASES: return mesh_phases;
    case Q_MESH_STEPS: return mesh_steps;
    case Q_N: return m;
    case Q_N_LOG: return m * log;
    case Q_N_FLOOR_LOG: return m * floor_log;
    case Q_N_NOT_POW2: return m * not_pow2;
    case Q_N_FRACTION: return (dp - 1.0) / dp * m;
    case Q_N_FRACTION_P2: return (double)(p2 - 1) / p2 * m;
    case Q_N_P1: return (dp - 1.0) * m;
    case Q_N_P1_P: return (dp - 1.0) * dp * m;
    case Q_N_HALF_P_LOG: return dp / 2.0 * log * m;
    case Q_N_MESH: return mesh_blocks * m;
    case Q_N_SCATTER: return scatter;
    case Q_TREE_STEPS:
    case Q_REDUCE_STEPS: return p > 1 ? levels + nseg - 1.0 : 0.0;
    case Q_TREE_MESSAGES:
    case Q_REDUCE_MESSAGES: return p > 1 ? sum + fanout * (nseg - 1.0) : 0.0;
    case Q_TREE_BYTES:
    case Q_REDUCE_BYTES: return p > 1 ? (sum + fanout * (nseg - 1.0)) * step_bytes : 0.0;
    case Q_ROOT_MESSAGES: return p > 1 ? fanout * nseg : 0.0;
    case Q_ROOT_STEPS: return p > 1 ? levels + nseg - 1.0 : 0.0;
    case Q_ROOT_BYTES:
        if (pr && pr->tree == AC_TREE_CHAIN && !(segment > 0 && segment <= m))
            return dp * (dp - 1.0) / 2.0 * m;
        return (dp - 1.0) * m;
    case Q_PPN1: return s->ppn - 1;
    case Q_N_PPN1_P: return (double)(s->ppn - 1) * dp * m;
    }
    return 0.0;
}

/* The share of the steps at distances 1, 2, 4, ... that stay inside a node. */
static double intra_share(const ac_cost_shape *s)
{
    int steps = ac_ceil_log2(s->size), local = 0;
    if (s->nodes <= 1) return 1.0;
    if (steps == 0) return 0.0;
    while ((2 << local) <= s->ppn) local++;
    return (double)(local < steps ? local : steps) / steps;
}

static void add_term(const cost_term *t, const ac_params *pr, const ac_cost_shape *s, double m,
                     double *f)
{
    double v = t->mult * quantity(t->q, pr, s, m);
    if (t->param == P_GAMMA) {
        f[AC_COST_GAMMA] += v;
        return;
    }
    if (t->param == P_OVERHEAD || t->param == P_MESSAGE) f[AC_COST_OVERHEAD] += v;
    if (t->param == P_OVERHEAD) return;
    int latency = t->param != P_BETA;
    int intra = latency ? AC_COST_ALPHA_INTRA : AC_COST_BETA_INTRA;
    int inter = latency ? AC_COST_ALPHA_INTER : AC_COST_BETA_INTER;
    cost_link link = t->link;
    if (link == L_TREE) {
        ac_tree_kind kind = pr ? pr->tree : AC_TREE_BINOMIAL;
        link = kind == AC_TREE_BINOMIAL || kind == AC_TREE_KNOMIAL ? L_SPLIT : L_WORST;
    }
    double share = link == L_INTRA   ? 1.0
                   : link == L_INTER ? 0.0
                   : link == L_SPLIT ? intra_share(s)
                                     : (s->nodes > 1 ? 0.0 : 1.0);
    f[intra] += share * v;
    f[inter] += (1.0 - share) * v;
}

static int features(ac_collective c, cost_fn fn, const ac_params *pr, const ac_cost_shape *s,
                    double *f);

/* An inner collective `ic` of a composed algorithm, run by `fn` with `ipr` on the whole
 * communicator with blocks of `block` bytes. */
static int inner_features(ac_collective ic, cost_fn fn, const ac_params *ipr,
                          const ac_cost_shape *s, double block, double *f)
{
    if (!fn) return -1; /* the library's collective */
    ac_cost_shape is = *s;
    is.bytes = call_bytes(ic, s->size, block);
    return features(ic, fn, ipr, &is, f);
}

/* The phases of an orthogonal instance: its phase algorithm on each dimension's lines. */
static int phase_features(ac_collective c, const ac_params *pr, const ac_cost_shape *s,
                          double m, double *f)
{
    int n[3];
    int dims = pr && pr->phase ? ac_mesh_layout(s->size, pr, n) : 0;
    if (dims == 0 || phase_rule[c] == PHASE_NONE) return -1;
    double run = m; /* PHASE_GROWING: the block of the phase, from the last dimension down */
    for (int d = dims - 1; d >= 0; d--) {
        ac_cost_shape ps = {.size = n[d],
                            .nodes = s->nodes > 1 ? n[d] : 1,
                            .ppn = s->nodes > 1 ? 1 : n[d]};
        double block = phase_rule[c] == PHASE_WHOLE    ? m
                       : phase_rule[c] == PHASE_BLOCKS ? m * s->size / n[d]
                                                       : run;
        ps.bytes = phase_rule[c] == PHASE_WHOLE ? m : call_bytes(c, n[d], block);
        double pf[AC_COST_PARAMS];
        if (ac_cost_features(pr->phase, &ps, pf) != 0) return -1;
        for (int j = 0; j < AC_COST_PARAMS; j++) f[j] += pf[j];
        run *= n[d];
    }
    return 0;
}

/* Adds the features of function fn of collective c with parameters pr to f. */
static int features(ac_collective c, cost_fn fn, const ac_params *pr, const ac_cost_shape *s,
                    double *f)
{
    const cost_row *r = row_of(c, fn);
    if (!r) return -1;
    double m = unit_bytes(c, s);
    for (int i = 0; i < r->nterms; i++) add_term(&r->terms[i], pr, s, m, f);
    for (int i = 0; i < 2; i++) {
        const cost_inner *in = &r->inner[i];
        double block = in->block == BLOCK_UNIT ? m : m / s->size;
        int rc = 0;
        switch (in->part) {
        case PART_NONE: break;
        case PART_ALLGATHERV:
            rc = inner_features(AC_ALLGATHERV, pr ? (cost_fn)pr->allgatherv : NULL,
                                pr ? pr->inner : NULL, s, block, f);
            break;
        case PART_ALLTOALLV:
            rc = inner_features(AC_ALLTOALLV, pr ? (cost_fn)pr->alltoallv : NULL,
                                pr ? pr->inner2 : NULL, s, block, f);
            break;
        case PART_PHASES: rc = phase_features(c, pr, s, m, f); break;
        case PART_LEADERS: {
            ac_cost_shape ls = {.size = s->nodes, .nodes = s->nodes, .ppn = 1};
            rc = inner_features(AC_ALLTOALLV, pr ? (cost_fn)pr->alltoallv : NULL,
                                pr ? pr->inner2 : NULL, &ls, block * s->ppn * s->ppn, f);
            break;
        }
        }
        if (rc != 0) return -1;
    }
    return 0;
}

int ac_cost_features(const ac_algorithm *alg, const ac_cost_shape *shape, double *f)
{
    double sum[AC_COST_PARAMS] = {0};
    int rc = shape->size >= 1
                 ? features(alg->collective, function_of(alg), alg->params, shape, sum)
                 : -1;
    for (int j = 0; j < AC_COST_PARAMS; j++) f[j] = rc == 0 ? sum[j] : 0.0;
    return rc;
}

double ac_cost_time(const ac_algorithm *alg, const ac_cost_shape *shape, const double *params)
{
    double f[AC_COST_PARAMS], t = 0.0;
    if (ac_cost_features(alg, shape, f) != 0) return -1.0;
    for (int j = 0; j < AC_COST_PARAMS; j++) t += f[j] * params[j];
    return t;
}

/* Least squares on the columns in `mask` of the k x AC_COST_PARAMS system a x = b, by the
 * normal equations with every column scaled to unit norm (the parameters differ by orders of
 * magnitude). Returns 0 with x (zero outside the mask), -1 when the columns are dependent. */
static int solve_subset(const double *a, const double *b, int k, unsigned mask, double *x)
{
    enum { N = AC_COST_PARAMS };
    int cols[N], n = 0;
    double scale[N], g[N][N + 1];
    for (int j = 0; j < N; j++)
        if (mask & (1u << j)) cols[n++] = j;
    for (int u = 0; u < n; u++) {
        double s = 0.0;
        for (int i = 0; i < k; i++) s += a[i * N + cols[u]] * a[i * N + cols[u]];
        if (!(s > 0.0)) return -1;
        scale[u] = 1.0 / sqrt(s);
    }
    for (int u = 0; u < n; u++) {
        for (int v = 0; v <= n; v++) {
            double s = 0.0;
            for (int i = 0; i < k; i++)
                s += a[i * N + cols[u]] * (v < n ? a[i * N + cols[v]] * scale[v] : b[i]);
            g[u][v] = s * scale[u];
        }
    }
    /* Gaussian elimination with partial pivoting */
    for (int u = 0; u < n; u++) {
        int piv = u;
        for (int v = u + 1; v < n; v++)
            if (fabs(g[v][u]) > fabs(g[piv][u])) piv = v;
        if (fabs(g[piv][u]) < 1e-10) return -1;
        for (int v = 0; v <= n; v++) {
            double t = g[u][v];
            g[u][v] = g[piv][v];
            g[piv][v] = t;
        }
        for (int v = u + 1; v < n; v++) {
            double r = g[v][u] / g[u][u];
            for (int w = u; w <= n; w++) g[v][w] -= r * g[u][w];
        }
    }
    memset(x, 0, N * sizeof *x);
    for (int u = n - 1; u >= 0; u--) {
        double s = g[u][n];
        for (int v = u + 1; v < n; v++) s -= g[u][v] * x[cols[v]] / scale[v];
        x[cols[u]] = s / g[u][u] * scale[u];
    }
    return 0;
}

int ac_cost_fit(const double *rows_in, const double *seconds, int k, const double *prior,
                double prior_weight, double *out)
{
    enum { N = AC_COST_PARAMS, MAX_ROWS = 256 };
    double a[(MAX_ROWS + N) * N], b[MAX_ROWS + N];
    int m = 0;
    /* the most recent MAX_ROWS observations, each row relative to its time */
    for (int i = k > MAX_ROWS ? k - MAX_ROWS : 0; i < k; i++) {
        if (!(seconds[i] > 0.0)) continue;
        for (int j = 0; j < N; j++) a[m * N + j] = rows_in[i * N + j] / seconds[i];
        b[m++] = 1.0;
    }
    if (prior && prior_weight > 0.0)
        for (int j = 0; j < N; j++) {
            if (!(prior[j] > 0.0)) continue;
            for (int u = 0; u < N; u++) a[m * N + u] = u == j ? prior_weight / prior[j] : 0.0;
            b[m++] = prior_weight;
        }
    if (m == 0) return -1;
    double best = -1.0, x[N];
    for (unsigned mask = 0; mask < (1u << N); mask++) {
        if (solve_subset(a, b, m, mask, x) != 0) continue;
        int feasible = 1;
        for (int j = 0; j < N; j++) feasible &= x[j] >= 0.0;
        if (!feasible) continue;
        double r = 0.0;
        for (int i = 0; i < m; i++) {
            double e = -b[i];
            for (int j = 0; j < N; j++) e += a[i * N + j] * x[j];
            r += e * e;
        }
        if (best < 0.0 || r < best * (1.0 - 1e-12)) {
            best = r;
            memcpy(out, x, sizeof x);
        }
    }
    return best < 0.0 ? -1 : 0;
}
