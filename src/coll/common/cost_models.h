/*
 * cost_models.h - the cost models (cost_terms.h) that the registries of several collectives
 * share, because their algorithms have the same shape: the all-to-all-shaped exchanges of
 * allgather, allgatherv, alltoall and alltoallv (simple, phased), the allgather algorithms,
 * which are the allgatherv engines with uniform counts, the reduce_scatter engines that
 * reduce_scatter_block runs with equal blocks, and the gather and scatter trees (the same
 * edges, data in the other direction). Defined once in cost_models.c, each with its comment;
 * every other model stays beside its entry in its collective's registry.c.
 */
#ifndef AUTOCOLL_COST_MODELS_H
#define AUTOCOLL_COST_MODELS_H

#include "coll/cost_terms.h"

/* allgather, allgatherv, alltoall, alltoallv */
extern const ac_cost_model ac_simple_cost;
extern const ac_cost_model ac_phased_cost;
extern const ac_cost_model ac_pairwise_cost;

/* allgather, allgatherv */
extern const ac_cost_model ac_allgather_recursive_doubling_cost;
extern const ac_cost_model ac_allgather_bruck_cost;
extern const ac_cost_model ac_allgather_mesh_cost;

/* reduce_scatter, reduce_scatter_block */
extern const ac_cost_model ac_reduce_scatter_pairwise_cost;
extern const ac_cost_model ac_reduce_scatter_recursive_halving_cost;
extern const ac_cost_model ac_reduce_scatter_reduce_then_scatter_cost;

/* gather, scatter: the tree instances' TREE_COST */
extern const ac_cost_model ac_gather_scatter_tree_cost;

/* reduce, allreduce: the reduction through shared memory (common/shm.h, ac_shm_reduce) */
extern const ac_cost_model ac_shm_reduce_cost;

/* gather, scatter, allgather through shared memory (gather_shm.c, scatter_shm.c,
 * allgather_shm.c) */
extern const ac_cost_model ac_shm_blocks_cost;

#endif
