/*
 * registry.c - the barrier algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"
#include "coll/cost_terms.h"

/* The cost models of the algorithms below (each entry's .cost, in the terms of cost_terms.h):
 * their files' "Cost: ..." corrected where SimGrid disagreed on a contention-free platform. */

static const ac_cost_model dissemination_cost = {
    AC_TERMS(AC_TERM(Q_LOG, P_MESSAGE, L_SPLIT, 1))};
static const ac_cost_model recursive_doubling_cost = {
    AC_TERMS(AC_TERM(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_NOT_POW2, P_MESSAGE, L_WORST, 2))};
static const ac_cost_model linear_cost = {
    AC_TERMS(AC_TERM(Q_P1, P_MESSAGE, L_WORST, 2))};

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(barrier, BARRIER, Barrier), .sched.barrier = ac_barrier_native_schedule},
    {.name = "dissemination",
     .collective = AC_BARRIER,
     .group = "dissemination",
     .attributes = "partners=ring sync=none primitive=blocking",
     .fn.barrier = ac_barrier_dissemination,
     .sched.barrier = ac_barrier_dissemination_schedule,
     .cost = &dissemination_cost,
     .summary = "dissemination: tokens to rank + 2^k for ceil(log2 p) rounds"},
    {.name = "recursive_doubling",
     .collective = AC_BARRIER,
     .group = "recursive_doubling",
     .attributes = "partners=pair sync=none primitive=blocking",
     .fn.barrier = ac_barrier_recursive_doubling,
     .sched.barrier = ac_barrier_recursive_doubling_schedule,
     .cost = &recursive_doubling_cost,
     .summary = "pairwise token exchanges with rank XOR 2^k, extra step for non-power-of-two"},
    {.name = "linear",
     .collective = AC_BARRIER,
     .group = "linear",
     .attributes = "tree=flat partners=all sync=none primitive=nonblocking",
     .fn.barrier = ac_barrier_linear,
     .sched.barrier = ac_barrier_linear_schedule,
     .cost = &linear_cost,
     .summary = "tokens gathered at rank 0, then released to every rank"},
};

AC_REGISTRY(barrier, algorithms);
