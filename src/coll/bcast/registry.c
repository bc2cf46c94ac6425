/*
 * registry.c - the bcast algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 *
 * Tree instances (one engine, bcast_tree.c): <shape>_tree[_k<k>][_segment_<size>], shape binomial,
 * binary, chain, flat or knomial (k-nomial, radix k), size 1k, 8k or 64k (the pipeline
 * segment; none: unsegmented). One group per shape, so grouped search measures one instance
 * of each shape first. Declared once in common/tree_instances.def.
 * binomial_tree is MPICH's binomial broadcast, flat_tree the linear one (the root sends to every
 * rank). scatter_<allgather>_allgather: van de Geijn's scatter then all-gather.
 */
#include "coll/algorithms.h"
#include "coll/cost_terms.h"
#include "coll/common/tree.h"

static const ac_params scatter_ring = {.allgatherv = ac_allgatherv_ring,
                                       .allgatherv_schedule = ac_allgatherv_ring_schedule};
static const ac_params scatter_recursive_doubling = {
    .allgatherv = ac_allgatherv_recursive_doubling,
    .allgatherv_schedule = ac_allgatherv_recursive_doubling_schedule};

/* The cost model of the tree instances (TREE_COST, in the terms of cost_terms.h; the shape of
 * each tree is cost.c's tree_shape): the engine's "Cost: ..." corrected where SimGrid disagreed
 * on a contention-free platform. */
static const ac_cost_model tree_cost = {
    AC_TERMS(AC_TERM(Q_TREE_STEPS, P_ALPHA, L_TREE, 1),
             AC_TERM(Q_TREE_MESSAGES, P_OVERHEAD, L_TREE, 1),
             AC_TERM(Q_TREE_BYTES, P_BETA, L_TREE, 1))};

/* What this collective's tree instances (tree_instances.def) have of their own. */
#define TREE_COLLECTIVE AC_BCAST
#define TREE_ENGINE fn.bcast = ac_bcast_tree
#define TREE_REQUIRES AC_REQ_MESSAGE_FITS_INT
#define TREE_FLAT_SHAPE "flat tree (the root sends to every rank)"
#define TREE_SUMMARY(shape, segmentation) shape ", " segmentation
#define TREE_ATTRIBUTES " partners=tree sync=none primitive=nonblocking data=pack"
/* the unsegmented binomial tree up to 12 KiB, van de Geijn's scatter_*_allgather from there */
#define TREE_MAX_BYTES(kind, segment) ((kind) == AC_TREE_BINOMIAL && (segment) == 0 ? 12288 : 0)
#define TREE_COST tree_cost
/* every instance is written as a schedule (bcast_tree.c) */
#define TREE_SCHED(segment) {.bcast = ac_bcast_tree_schedule}

/* The cost models of the algorithms below (each entry's .cost, in the terms of cost_terms.h):
 * their files' "Cost: ..." corrected where SimGrid disagreed on a contention-free platform. */

/* the binomial scatter of the p blocks, then the inner all-gather of them */
static const ac_cost_model scatter_allgather_cost = {
    AC_TERMS(AC_TERM(Q_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_N_SCATTER, P_BETA, L_SPLIT, 1)),
    .inner = {{PART_ALLGATHERV, BLOCK_FRACTION}}};

/* through shared memory: the root's copies in and the others' copies out overlap chunk by
 * chunk, one barrier a chunk (bcast_shm.c) */
static const ac_cost_model shm_cost = {
    AC_TERMS(AC_TERM(Q_N, P_BETA, L_INTRA, 1),
             AC_TERM(Q_SHM_CHUNK, P_BETA, L_INTRA, 1),
             AC_TERM(Q_SHM_SYNC_STEPS, P_MESSAGE, L_INTRA, 1))};

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(bcast, BCAST, Bcast), .sched.bcast = ac_bcast_native_schedule},
#define AC_TREE_INSTANCE AC_TREE_ENTRY
#include "coll/common/tree_instances.def"
#undef AC_TREE_INSTANCE
    {.name = "scatter_ring_allgather",
     .collective = AC_BCAST,
     .group = "scatter_allgather",
     .requires = AC_REQ_MESSAGE_FITS_INT,
     .attributes = "tree=binomial allgather=ring partners=tree,ring sync=none "
                   "primitive=nonblocking,blocking data=pack",
     .min_bytes = 12288,
     .fn.bcast = ac_bcast_scatter_allgather,
     .sched.bcast = ac_bcast_scatter_allgather_schedule,
     .params = &scatter_ring,
     .cost = &scatter_allgather_cost,
     .summary = "van de Geijn: binomial scatter of p chunks, then ring all-gather"},
    {.name = "scatter_recursive_doubling_allgather",
     .collective = AC_BCAST,
     .group = "scatter_allgather",
     .requires = AC_REQ_MESSAGE_FITS_INT,
     .attributes = "tree=binomial allgather=recursive_doubling partners=tree,pair sync=none "
                   "primitive=nonblocking,blocking data=pack",
     .min_bytes = 12288,
     .fn.bcast = ac_bcast_scatter_allgather,
     .sched.bcast = ac_bcast_scatter_allgather_schedule,
     .params = &scatter_recursive_doubling,
     .cost = &scatter_allgather_cost,
     .summary = "van de Geijn: binomial scatter of p chunks, then recursive doubling all-gather"},
    {.name = "shm",
     .collective = AC_BCAST,
     .group = "shared_memory",
     .requires = AC_REQ_SHARED_MEMORY | AC_REQ_MESSAGE_FITS_INT,
     .attributes = "partners=node sync=barrier primitive=shared_memory data=pack",
     .fn.bcast = ac_bcast_shm,
     .cost = &shm_cost,
     .summary = "through the node's shared memory: the root copies chunks in, the others copy "
                "them out (blocking only)"},
};

AC_REGISTRY(bcast, algorithms);
