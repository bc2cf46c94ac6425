/*
 * registry.c - the reduce_scatter_block algorithms. Tests, autocoll-info, selection and reports
 * read this table; nobody keeps a second list.
 */
#include "coll/algorithms.h"
#include "coll/common/cost_models.h"

/* The cost models of the algorithms below (each entry's .cost) are those of the reduce_scatter
 * engines they run, shared in common/cost_models.c. */

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(reduce_scatter_block, REDUCE_SCATTER_BLOCK, Reduce_scatter_block),
     .sched.reduce_scatter_block = ac_reduce_scatter_block_native_schedule},
    {.name = "reduce_then_scatter",
     .collective = AC_REDUCE_SCATTER_BLOCK,
     .group = "reduce_scatter",
     .attributes = "tree=binomial partners=tree sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce_scatter_block = ac_reduce_scatter_block_reduce_then_scatter,
     .sched.reduce_scatter_block = ac_reduce_scatter_block_reduce_then_scatter_schedule,
     .cost = &ac_reduce_scatter_reduce_then_scatter_cost,
     .summary = "binomial reduce (rank order) to rank 0, then binomial scatter"},
    {.name = "pairwise",
     .collective = AC_REDUCE_SCATTER_BLOCK,
     .group = "pairwise",
     .attributes = "partners=pair sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce_scatter_block = ac_reduce_scatter_block_pairwise,
     .sched.reduce_scatter_block = ac_reduce_scatter_block_pairwise_schedule,
     .cost = &ac_reduce_scatter_pairwise_cost,
     .summary = "p-1 pairwise exchanges of blocks, combined in rank order"},
    {.name = "recursive_halving",
     .collective = AC_REDUCE_SCATTER_BLOCK,
     .group = "recursive_halving",
     .attributes = "partners=pair sync=none primitive=blocking data=ddt",
     .requires = AC_REQ_COMMUTATIVE,
     .max_bytes = 524288,
     .fn.reduce_scatter_block = ac_reduce_scatter_block_recursive_halving,
     .sched.reduce_scatter_block = ac_reduce_scatter_block_recursive_halving_schedule,
     .cost = &ac_reduce_scatter_recursive_halving_cost,
     .summary = "recursive halving of the vector, extra step for non-power-of-two sizes"},
};

AC_REGISTRY(reduce_scatter_block, algorithms);
