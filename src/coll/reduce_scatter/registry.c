/*
 * registry.c - the reduce_scatter algorithms. Tests, autocoll-info, selection and reports read
 * this table; nobody keeps a second list.
 */
#include "coll/algorithms.h"
#include "coll/cost_terms.h"

/* The cost models of the algorithms below (each entry's .cost, in the terms of cost_terms.h):
 * their files' "Cost: ..." corrected where SimGrid disagreed on a contention-free platform. */

static const ac_cost_model pairwise_cost = {
    AC_TERMS(AC_TERM(Q_P1, P_MESSAGE, L_WORST, 1),
             AC_TERM(Q_N_FRACTION, P_BETA, L_WORST, 1),
             AC_TERM(Q_N_FRACTION, P_GAMMA, L_WORST, 1))};
static const ac_cost_model recursive_halving_cost = {
    AC_TERMS(AC_TERM(Q_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_N_FRACTION, P_BETA, L_SPLIT, 1),
             AC_TERM(Q_N_FRACTION, P_GAMMA, L_WORST, 1),
             AC_TERM(Q_N_NOT_POW2, P_BETA, L_WORST, 1),
             AC_TERM(Q_N_NOT_POW2, P_GAMMA, L_WORST, 1))};
static const ac_cost_model reduce_then_scatter_cost = {
    AC_TERMS(AC_TERM(Q_LOG, P_MESSAGE, L_SPLIT, 2),
             AC_TERM(Q_N_LOG, P_BETA, L_SPLIT, 1),
             AC_TERM(Q_N_LOG, P_GAMMA, L_WORST, 1),
             AC_TERM(Q_N_FRACTION, P_BETA, L_SPLIT, 1))};

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_REDUCE_SCATTER,
     .group = "native",
     .attributes = "library=native",
     .fn.reduce_scatter = ac_reduce_scatter_native,
     .summary = "the MPI library's own MPI_Reduce_scatter"},
    {.name = "reduce_then_scatter",
     .collective = AC_REDUCE_SCATTER,
     .group = "reduce_scatter",
     .attributes = "tree=binomial partners=tree sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce_scatter = ac_reduce_scatter_reduce_then_scatter,
     .cost = &reduce_then_scatter_cost,
     .summary = "binomial reduce (rank order) to rank 0, then binomial scatterv"},
    {.name = "pairwise",
     .collective = AC_REDUCE_SCATTER,
     .group = "pairwise",
     .attributes = "partners=pair sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce_scatter = ac_reduce_scatter_pairwise,
     .cost = &pairwise_cost,
     .summary = "p-1 pairwise exchanges of blocks, combined in rank order"},
    {.name = "recursive_halving",
     .collective = AC_REDUCE_SCATTER,
     .group = "recursive_halving",
     .attributes = "partners=pair sync=none primitive=blocking data=ddt",
     .requires = AC_REQ_COMMUTATIVE,
     .max_bytes = 524288,
     .fn.reduce_scatter = ac_reduce_scatter_recursive_halving,
     .cost = &recursive_halving_cost,
     .summary = "recursive halving of the vector, extra step for non-power-of-two sizes"},
};

AC_REGISTRY(reduce_scatter, algorithms);
