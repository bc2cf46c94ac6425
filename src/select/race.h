/*
 * race.h - the `race` strategy: autocoll's own run-time selection. Candidates race in rounds of
 * a few calls each; after every round one agreement of the round's call times, and candidates
 * whose median is clearly worse than the best median drop out, with a margin that halves every
 * round. When the race's best is not native, a final on fresh calls decides among the best, the
 * runner-up and native. The winner then runs under a monitor that compares like with like (the median of its
 * recent calls, agreed per call as in the race, against the medians of the race) and races
 * again when it has degraded for two windows in a row, or after a long settled spell (refresh).
 * A pure state machine like star.c: no MPI call, the only collective step is the ac_agreement
 * callback. See race.c for the rules and why they beat STAR-MPI's on this kind of machine.
 */
#ifndef AUTOCOLL_RACE_H
#define AUTOCOLL_RACE_H

#include "select/strategy.h"

/* Parameters, read by create(). The strategy's configure() fills them from the
 * AUTOCOLL_RACE_* settings, whose declaration (core/config.c) holds their defaults and
 * ranges. */
typedef struct ac_race_params {
    int samples;       /* calls of each racing candidate per round */
    int rounds;        /* rounds at most; the best median after the last one wins */
    double margin;     /* first round: out when median > (1 + margin) x best median; halves */
    double epsilon;    /* monitor: degraded when the recent median > (1 + epsilon) x runner-up */
    int window_max;    /* longest monitoring window, calls (windows double from 16) */
    long refresh;      /* settled calls before a fresh race (doubles while the choice holds);
                        * 0: never */
    int grouping;      /* 1: round 1 of a full race runs one candidate per registry group, and
                        * only the groups whose representative stays join round 2 */
    int final;         /* fresh calls of each finalist in the final (the race's best, its
                        * runner-up and native); 0: no final, the race's best wins */
} ac_race_params;

#define AC_RACE_FINALISTS 3

/* Stages reported by ac_race_get_stats(). */
enum {
    AC_RACE_RACING = 0,  /* a race is running (the first one, or a re-race), its final included */
    AC_RACE_SETTLED = 1, /* the winner runs under the monitor */
    AC_RACE_STOPPED = 2  /* an agreement failed: native (candidate 0) from then on */
};

typedef struct ac_race_stats {
    int stage;             /* AC_RACE_* above */
    int chosen;            /* candidate index, or -1 during the first race */
    int round;             /* rounds finished in the current or last race */
    int alive;             /* candidates still in the current or last race */
    long first_race_calls; /* calls of the first race: the decision length (while racing: so far) */
    long race_calls;       /* calls in every race */
    long settled_calls;    /* calls run by the chosen candidate under the monitor */
    int races;             /* races started (the first one included) */
    int switches;          /* changes of the chosen candidate after the first race */
    int window;            /* current monitoring window, calls */
    int agreements;        /* agreement calls made so far */
    int finals;            /* finals run (each ends a race whose best was not native) */
    int overturned;        /* finals whose winner was not the race's best */
    int final_calls;       /* calls of the final in progress (0: none) */
    /* The time the first race spent beyond what as many calls of the chosen candidate cost,
     * from agreed per-call times (0 while no candidate is chosen). Equal on every rank. */
    double o_ms_c;
} ac_race_stats;

/* Parameters for states created from now on (configure() fills them from AUTOCOLL_RACE_*; set
 * them before the first create()), and the ones create() will use. */
void ac_race_set_params(const ac_race_params *p);
void ac_race_get_params(ac_race_params *out);

/* A snapshot of a state made by ac_strategy_race.create. */
void ac_race_get_stats(const void *state, ac_race_stats *out);

/* The agreed median call time of candidate `index` in the last race that measured it; a
 * negative value when it was never measured. */
double ac_race_median(const void *state, int index);

extern const ac_strategy ac_strategy_race;

#endif
