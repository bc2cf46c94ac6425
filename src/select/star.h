/*
 * star.h - the `star` strategy: STAR-MPI's dynamic AEOS algorithm (Measure_Select, then
 * Monitor_Adapt; Figure 2 of the paper) with optional algorithm grouping (enhanced AEOS,
 * section 3.3). A pure state machine: it makes no MPI call; the only collective step is the
 * ac_agreement callback. See star.c for exactly what is implemented.
 */
#ifndef AUTOCOLL_STAR_H
#define AUTOCOLL_STAR_H

#include "select/strategy.h"

/* Parameters, read by create(). The strategy's configure() fills them from the
 * AUTOCOLL_STAR_* settings, whose declaration (core/config.c) holds their defaults and
 * ranges. */
typedef struct ac_star_params {
    int iter;       /* ITER: calls per candidate in a measurement, and the "last ITER" check */
    double epsilon; /* tolerance against the second best time in Monitor_Adapt */
    int delta_init; /* delta at the start of Monitor_Adapt and after a switch or a transient */
    int delta_max;  /* upper bound of delta: the longest window is delta_max * iter calls */
    int grouping;   /* 1: enhanced AEOS (two-level Measure_Select, probes); 0: basic AEOS */
    int recheck;    /* calls before a candidate left for a degradation is measured again
                     * (doubling while it stays worse, up to AC_STAR_RECHECK_CAP x); 0: never */
} ac_star_params;

#define AC_STAR_DELTA_INIT 2 /* the paper's delta at the start of Monitor_Adapt */
#define AC_STAR_RECHECK_CAP 16

/* Stages reported by ac_star_get_stats(). */
enum {
    AC_STAR_MEASURE_SELECT = 0, /* the first measurement of the candidates */
    AC_STAR_MONITOR_ADAPT = 1,  /* running the chosen one, monitoring (and probing new groups) */
    AC_STAR_STOPPED = 2         /* an agreement failed: native (candidate 0) from then on */
};

typedef struct ac_star_stats {
    int stage;              /* AC_STAR_* above */
    int chosen;             /* candidate index, or -1 during Measure_Select */
    long measure_calls;     /* calls in Measure_Select: the decision length */
    long monitor_calls;     /* calls that ran the chosen candidate in Monitor_Adapt */
    long probe_calls;       /* calls in Monitor_Adapt that measured a new group (grouping only) */
    long recheck_calls;     /* calls that measured again a candidate left for a degradation */
    int rechecks;           /* such measurements (ITER calls each) */
    int switches;           /* changes of the chosen candidate in Monitor_Adapt */
    int delta;              /* current monitoring factor: the window is delta * iter calls */
    int agreements;         /* agreement calls made so far */
    double measure_seconds; /* local seconds of the measure_calls */
    double monitor_seconds; /* local seconds of the monitor_calls */
    double probe_seconds;   /* local seconds of the probe_calls */
    double recheck_seconds; /* local seconds of the recheck_calls */
    /* O_MS^c: the agreed time of the Measure_Select calls beyond what the same number of calls
     * of the chosen candidate would have cost, from agreed per-candidate means (0 while no
     * candidate is chosen). Equal on every rank. */
    double o_ms_c;
} ac_star_stats;

/* Parameters for states created from now on (configure() fills them from AUTOCOLL_STAR_*; set
 * them before the first create()), and the ones create() will use. */
void ac_star_set_params(const ac_star_params *p);
void ac_star_get_params(ac_star_params *out);

/* A snapshot of a state made by ac_strategy_star.create. */
void ac_star_get_stats(const void *state, ac_star_stats *out);

extern const ac_strategy ac_strategy_star;

#endif
