/*
 * plan.h - a measurement plan, shared by the strategies that measure candidates in turn
 * (star's Measure_Select, probes and rechecks; race's rounds): candidates run one after
 * another, `per` consecutive calls each, the local time of every call kept; at the end ONE
 * agreement of all of them (MPI_MAX over the ranks, through the context's ac_agreement).
 */
#ifndef AUTOCOLL_PLAN_H
#define AUTOCOLL_PLAN_H

#include "select/strategy.h"

typedef struct ac_plan {
    int per;       /* calls of each candidate */
    int *cand;     /* candidates in the order they run */
    int len;       /* candidates planned */
    int pos, iter; /* the call in flight: candidate cand[pos], its call number iter */
    double *times; /* times[k * per + j]: call j of cand[k] (local, then agreed) */
} ac_plan;

/* A plan for up to `capacity` candidates of `per` calls each: 0, or -1 on no memory (free it
 * with ac_plan_free either way). */
int ac_plan_init(ac_plan *p, int capacity, int per);
void ac_plan_free(ac_plan *p);

/* Empty the plan; add a candidate at its end; start running it from its first candidate. */
void ac_plan_clear(ac_plan *p);
void ac_plan_add(ac_plan *p, int candidate);
void ac_plan_start(ac_plan *p);

/* The candidate of the next call. */
int ac_plan_current(const ac_plan *p);

/* Record the time of the call just run; 1 when it was the plan's last call. */
int ac_plan_record(ac_plan *p, double seconds);

/* The one agreement of the whole plan's times (they become the maximum over the ranks);
 * returns its MPI error code. */
int ac_plan_agree(ac_plan *p, const ac_agreement *agree);

/* The `per` times of the k-th candidate planned. */
const double *ac_plan_times(const ac_plan *p, int k);

#endif
