/*
 * sim.h - a strategy (src/select/strategy.h) on simulated ranks, without MPI: every rank is a
 * thread running its own state over the same sequence of calls, with a fake clock (the cost
 * model gives the seconds of each call on each rank) and a fake agreement (the maximum over the
 * ranks, as MPI_MAX). Every rank meets the others once per call, and once more inside each
 * agreement; the meeting checks that all of them arrive at the same point - same call, same
 * kind, same number of values - and that they chose the same candidate; otherwise the run is
 * marked diverged and stops (where real MPI would hang or mix up messages).
 */
#ifndef AUTOCOLL_TEST_SIM_H
#define AUTOCOLL_TEST_SIM_H

#include "select/strategy.h"

#define SIM_MAX_RANKS 8
#define SIM_MAX_CANDIDATES 32
#define SIM_MAX_AGREEMENTS 4096

/* Seconds of one call of `candidate` on `rank`. */
typedef double sim_cost_fn(void *arg, int candidate, long call, int rank);

/* Called on rank 0 after each call with its state (for per-call snapshots). */
typedef void sim_watch_fn(void *arg, const void *state, long call);

typedef struct sim_run {
    /* input */
    const ac_strategy *strategy;
    const ac_algorithm *const *candidates;
    int n, ranks;
    long calls;
    sim_cost_fn *cost;
    void *cost_arg;
    sim_watch_fn *watch; /* may be NULL */
    void *watch_arg;
    int fail_agreement; /* this agreement (0-based) returns fail_rc on every rank; -1: none */
    int fail_rc;
    const ac_knowledge *know; /* [n]: given to warm() right after create(); NULL: cold start */
    const ac_context_facts *facts; /* given to create(); NULL: a context with nothing known */
    /* output */
    int *choice;   /* [calls]: the candidate every rank ran (malloc'ed; sim_free) */
    int warm;      /* what warm() returned on rank 0 (0 without know) */
    int diverged;  /* the ranks chose, agreed or failed differently */
    long diverged_call;
    int agreements;
    long agree_call[SIM_MAX_AGREEMENTS]; /* the call during which agreement k happened */
    int agree_len[SIM_MAX_AGREEMENTS];   /* its number of values */
    int rc;                              /* first non-zero observe() result (rank 0) */
    long rc_call;
    long runs[SIM_MAX_CANDIDATES];       /* calls of each candidate */
    double clock[SIM_MAX_RANKS];         /* simulated seconds of each rank */
} sim_run;

/* Runs the simulation; 0 on success (check run->diverged), -1 if it could not start. */
int sim_execute(sim_run *run);
void sim_free(sim_run *run);

#endif
