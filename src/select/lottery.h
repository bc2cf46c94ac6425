/*
 * lottery.h - the `lottery` strategy: the lottery scheduler of Nishtala, Patel, Sanghavi,
 * Chakrabarti ("Automatic tuning of collective communication operations in MPI", Berkeley 2003,
 * section 6.1; ../shared/seeds/001_dc4f7c1caa8c7acd.txt). A pure state machine: it makes no MPI
 * call; the only collective step is the ac_agreement callback. See lottery.c for exactly what
 * is implemented, when agreements happen and how the draws stay identical on every rank.
 */
#ifndef AUTOCOLL_LOTTERY_H
#define AUTOCOLL_LOTTERY_H

#include "select/strategy.h"

#include <stdint.h>

/* How the exploration share (1 - alpha) is spread over the other eligible candidates. */
enum { AC_LOTTERY_UNIFORM = 0, AC_LOTTERY_INVERSE = 1 };

/* How every rank gets the same draw. */
enum {
    AC_LOTTERY_SEED = 0,     /* every rank draws from the same generator: no communication */
    AC_LOTTERY_BROADCAST = 1 /* rank 0 draws; one agreement per time-to-live carries it */
};

/* Parameters, read by create(). The strategy's configure() fills them from the
 * AUTOCOLL_LOTTERY_* settings, whose declaration (core/config.c) holds their defaults and
 * ranges. */
typedef struct ac_lottery_params {
    double alpha;          /* share of the tickets of the candidate with the smallest average */
    int spread;            /* AC_LOTTERY_UNIFORM or AC_LOTTERY_INVERSE */
    double explore_sigmas; /* explore only candidates within this many standard deviations of
                            * the best; INFINITY: every candidate (the plain scheduler) */
    double ema;            /* weight of a new time in a candidate's exponential average */
    int ttl;               /* the longest time-to-live: a draw of share s holds ceil(s * ttl) */
    int window;            /* calls between two agreements of the timings */
    int init;              /* calls of each candidate, in order, before the first draw (0: none) */
    int recheck;           /* calls before a candidate excluded by explore_sigmas may be explored
                            * again (doubling while it stays excluded); 0: never */
    int draw;              /* AC_LOTTERY_SEED or AC_LOTTERY_BROADCAST */
    uint64_t seed;         /* of the generator (mixed with the candidates' names) */
} ac_lottery_params;

/* The recheck interval of a candidate that stays excluded doubles up to this many times the
 * base interval. */
#define AC_LOTTERY_RECHECK_CAP 16
/* A candidate is excluded from exploration only once it has this many agreed times. */
#define AC_LOTTERY_MIN_SAMPLES 3
/* After an agreement that changed the winner, the next agreement comes after at most this many
 * calls (a new winner's average may be stale: see "Winner changes" in lottery.c). */
#define AC_LOTTERY_CONFIRM_CALLS 4

/* Stages reported by ac_lottery_get_stats(). */
enum {
    AC_LOTTERY_INIT = 0,    /* the first calls: each candidate `init` times, in order */
    AC_LOTTERY_DRAWING = 1, /* the lottery */
    AC_LOTTERY_STOPPED = 2  /* an agreement failed: native (candidate 0) from then on */
};

typedef struct ac_lottery_stats {
    int stage;            /* AC_LOTTERY_* above */
    int winner;           /* the candidate with the smallest agreed average (alpha's holder) */
    int choice;           /* the candidate of the next call */
    int ttl_left;         /* calls the current choice still holds */
    int measured;         /* candidates with at least one agreed time */
    long calls;           /* calls observed */
    long explore_calls;   /* calls that ran another candidate than the winner of their draw */
    long decision_calls;  /* calls until every candidate had an agreed time; -1 before */
    long draws;           /* lottery draws */
    int agreements;       /* agreement calls, broadcasts included */
    int broadcasts;       /* agreements made only to carry rank 0's draw (broadcast mode) */
    long rechecks;        /* explorations of a candidate excluded by explore_sigmas */
    int winner_changes;   /* changes of the winner after the first */
    double local_seconds; /* local time of the calls observed */
    /* Agreed time of the calls run while deciding, beyond what as many calls of the winner
     * would have cost at its agreed mean; 0 while undecided. Equal on every rank. */
    double o_ms_c;
} ac_lottery_stats;

/* One candidate's agreed statistics (equal on every rank). */
typedef struct ac_lottery_candidate {
    double average;  /* exponential average of its agreed times; 0 while unmeasured */
    double sd;       /* exponentially weighted standard deviation */
    double mean;     /* plain mean of all its agreed times */
    long samples;    /* agreed times */
    long runs;       /* calls that ran it */
    double tickets;  /* its share of the next draw, in [0, 1] */
    int excluded;    /* 1: outside explore_sigmas of the winner */
    long recheck_in; /* excluded: calls until it may be explored again (-1: never) */
} ac_lottery_candidate;

/* Parameters for states created from now on (configure() fills them from AUTOCOLL_LOTTERY_*;
 * set them before the first create()), and the ones create() will use. */
void ac_lottery_set_params(const ac_lottery_params *p);
void ac_lottery_get_params(ac_lottery_params *out);

/* Snapshots of a state made by ac_strategy_lottery.create. */
void ac_lottery_get_stats(const void *state, ac_lottery_stats *out);
void ac_lottery_get_candidate(const void *state, int index, ac_lottery_candidate *out);

extern const ac_strategy ac_strategy_lottery;

#endif
