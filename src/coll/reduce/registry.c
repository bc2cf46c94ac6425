/*
 * registry.c - the reduce algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 *
 * Tree instances (one engine, reduce_tree.c): <shape>_tree[_k<k>][_segment_<size>], shape binomial,
 * binary, chain, flat or knomial (k-nomial, radix k), size 1k, 8k or 64k (the pipeline
 * segment; none: unsegmented). One group per shape, so grouped search measures one instance
 * of each shape first. Declared once in common/tree_instances.def.
 * Every tree instance keeps operand order (non-commutative ops: the tree is rooted at rank 0 and
 * the result sent to the root), so none requires a commutative op. binomial_tree is MPICH's
 * binomial reduce. rabenseifner: reduce-scatter by recursive halving, then gather to the root.
 */
#include "coll/algorithms.h"
#include "coll/common/cost_models.h"
#include "coll/cost_terms.h"
#include "coll/common/tree.h"

/* The cost model of the tree instances (TREE_COST, in the terms of cost_terms.h; the shape of
 * each tree is cost.c's tree_shape): the engine's "Cost: ..." corrected where SimGrid disagreed
 * on a contention-free platform. */
static const ac_cost_model tree_cost = {
    AC_TERMS(AC_TERM(Q_REDUCE_STEPS, P_ALPHA, L_TREE, 1),
             AC_TERM(Q_REDUCE_MESSAGES, P_OVERHEAD, L_TREE, 1),
             AC_TERM(Q_REDUCE_BYTES, P_BETA, L_TREE, 1),
             AC_TERM(Q_REDUCE_BYTES, P_GAMMA, L_WORST, 1))};

/* What this collective's tree instances (tree_instances.def) have of their own. */
#define TREE_COLLECTIVE AC_REDUCE
#define TREE_ENGINE fn.reduce = ac_reduce_tree
#define TREE_REQUIRES 0
#define TREE_FLAT_SHAPE "flat tree (the root receives from every rank)"
#define TREE_SUMMARY(shape, segmentation)                                                         \
    shape ", " segmentation "; rank order (non-commutative: via rank 0)"
#define TREE_ATTRIBUTES " partners=tree sync=none order=rank primitive=nonblocking data=ddt"
#define TREE_MAX_BYTES(kind, segment) 0
#define TREE_COST tree_cost
/* every instance is written as a schedule (reduce_tree.c) */
#define TREE_SCHED(segment) {.reduce = ac_reduce_tree_schedule}

/* The cost models of the algorithms below (each entry's .cost, in the terms of cost_terms.h):
 * their files' "Cost: ..." corrected where SimGrid disagreed on a contention-free platform. */

/* recursive halving on p' ranks after the fold of the ranks above p' (as allreduce's
 * rabenseifner), then a binomial gather of the p' blocks */
static const ac_cost_model rabenseifner_cost = {
    AC_TERMS(AC_TERM(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 2),
             AC_TERM(Q_N_FRACTION_P2, P_BETA, L_SPLIT, 2),
             AC_TERM(Q_N_FRACTION_P2, P_GAMMA, L_WORST, 1),
             AC_TERM(Q_NOT_POW2, P_MESSAGE, L_WORST, 1),
             AC_TERM(Q_N_NOT_POW2, P_BETA, L_WORST, 1),
             AC_TERM(Q_N_NOT_POW2, P_GAMMA, L_WORST, 1))};
static const ac_cost_model linear_ordered_cost = {
    AC_TERMS(AC_TERM(Q_P1, P_MESSAGE, L_WORST, 1),
             AC_TERM(Q_N_P1, P_BETA, L_WORST, 1),
             AC_TERM(Q_N_P1, P_GAMMA, L_WORST, 1))};

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(reduce, REDUCE, Reduce), .sched.reduce = ac_reduce_native_schedule},
#define AC_TREE_INSTANCE AC_TREE_ENTRY
#include "coll/common/tree_instances.def"
#undef AC_TREE_INSTANCE
    {.name = "rabenseifner",
     .collective = AC_REDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving gather=binomial "
                   "partners=pair sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce = ac_reduce_rabenseifner,
     .sched.reduce = ac_reduce_rabenseifner_schedule,
     .cost = &rabenseifner_cost,
     .summary = "recursive halving reduce-scatter (rank order kept), then binomial gather to "
                "the root"},
    {.name = "linear_ordered",
     .collective = AC_REDUCE,
     .group = "linear",
     .attributes = "tree=flat partners=all sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce = ac_reduce_linear_ordered,
     .sched.reduce = ac_reduce_linear_ordered_schedule,
     .cost = &linear_ordered_cost,
     .summary = "the root receives every vector and combines them in rank order"},
    {.name = "shm",
     .collective = AC_REDUCE,
     .group = "shared_memory",
     .requires = AC_REQ_SHARED_MEMORY,
     .attributes = "partners=node sync=barrier primitive=shared_memory order=rank data=ddt",
     .fn.reduce = ac_reduce_shm,
     .cost = &ac_shm_reduce_cost,
     .summary = "through the node's shared memory: every rank reduces a share of every slot in "
                "rank order, the root copies the result out (blocking only)"},
};

AC_REGISTRY(reduce, algorithms);
