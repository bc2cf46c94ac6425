/*
 * registry.c - the reduce_scatter algorithms. Tests, autocoll-info, selection and reports read
 * this table; nobody keeps a second list.
 */
#include "coll/algorithms.h"
#include "coll/common/cost_models.h"

/* The cost models of the algorithms below (each entry's .cost) are shared with
 * reduce_scatter_block, which runs these engines, in common/cost_models.c. */

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(reduce_scatter, REDUCE_SCATTER, Reduce_scatter),
     .sched.reduce_scatter = ac_reduce_scatter_native_schedule},
    {.name = "reduce_then_scatter",
     .collective = AC_REDUCE_SCATTER,
     .group = "reduce_scatter",
     .attributes = "tree=binomial partners=tree sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce_scatter = ac_reduce_scatter_reduce_then_scatter,
     .sched.reduce_scatter = ac_reduce_scatter_reduce_then_scatter_schedule,
     .cost = &ac_reduce_scatter_reduce_then_scatter_cost,
     .summary = "binomial reduce (rank order) to rank 0, then binomial scatterv"},
    {.name = "pairwise",
     .collective = AC_REDUCE_SCATTER,
     .group = "pairwise",
     .attributes = "partners=pair sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce_scatter = ac_reduce_scatter_pairwise,
     .sched.reduce_scatter = ac_reduce_scatter_pairwise_schedule,
     .cost = &ac_reduce_scatter_pairwise_cost,
     .summary = "p-1 pairwise exchanges of blocks, combined in rank order"},
    {.name = "recursive_halving",
     .collective = AC_REDUCE_SCATTER,
     .group = "recursive_halving",
     .attributes = "partners=pair sync=none primitive=blocking data=ddt",
     .requires = AC_REQ_COMMUTATIVE,
     .max_bytes = 524288,
     .fn.reduce_scatter = ac_reduce_scatter_recursive_halving,
     .sched.reduce_scatter = ac_reduce_scatter_recursive_halving_schedule,
     .cost = &ac_reduce_scatter_recursive_halving_cost,
     .summary = "recursive halving of the vector, extra step for non-power-of-two sizes"},
};

AC_REGISTRY(reduce_scatter, algorithms);
