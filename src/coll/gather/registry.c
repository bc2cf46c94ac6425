/*
 * registry.c - the gather algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 *
 * Tree instances (one engine, gather_tree.c): <shape>_tree[_k<k>][_segment_<size>], shape binomial,
 * binary, chain, flat or knomial (k-nomial, radix k), size 1k, 8k or 64k (the pipeline
 * segment; none: unsegmented). One group per shape, so grouped search measures one instance
 * of each shape first. Declared once in common/tree_instances.def.
 * binomial_tree is MPICH's binomial gather, flat_tree the linear one (the root receives every
 * block directly).
 */
#include "coll/algorithms.h"
#include "coll/common/cost_models.h"
#include "coll/common/tree.h"

/* What this collective's tree instances (tree_instances.def) have of their own. */
#define TREE_COLLECTIVE AC_GATHER
#define TREE_ENGINE fn.gather = ac_gather_tree
#define TREE_REQUIRES AC_REQ_BLOCKS_FIT_INT
#define TREE_FLAT_SHAPE "flat tree (the root receives every block)"
#define TREE_SUMMARY(shape, segmentation) shape ", subtrees forwarded packed, " segmentation
#define TREE_ATTRIBUTES " partners=tree sync=none primitive=nonblocking data=pack"
#define TREE_MAX_BYTES(kind, segment) 0
#define TREE_COST ac_gather_scatter_tree_cost /* scatter's too: common/cost_models.c */
/* every instance is written as a schedule (gather_tree.c) */
#define TREE_SCHED(segment) {.gather = ac_gather_tree_schedule}

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(gather, GATHER, Gather), .sched.gather = ac_gather_native_schedule},
#define AC_TREE_INSTANCE AC_TREE_ENTRY
#include "coll/common/tree_instances.def"
#undef AC_TREE_INSTANCE
    {.name = "shm",
     .collective = AC_GATHER,
     .group = "shared_memory",
     .requires = AC_REQ_SHARED_MEMORY | AC_REQ_BLOCKS_FIT_INT,
     .attributes = "partners=node sync=barrier primitive=shared_memory data=pack",
     .fn.gather = ac_gather_shm,
     .cost = &ac_shm_blocks_cost,
     .summary = "through the node's shared memory: every rank copies its block in, the root "
                "copies them out (blocking only)"},
};

AC_REGISTRY(gather, algorithms);
