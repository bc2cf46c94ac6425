/*
 * strategy.h - the interface of a selection strategy (DESIGN.md, "Strategies").
 *
 * A strategy owns the statistics and the state machine of one tuning context (communicator,
 * collective, message size, call site) over that context's candidate list: the algorithms
 * applicable to the context, native first. select.c owns contexts, precedence and the
 * invariants. A strategy must be deterministic given the values it agreed on: every rank calls
 * choose() and observe() for the same calls in the same order, so every rank must reach the
 * same choices (invariant 1). Local timings may differ between ranks; they may influence a
 * choice only after they were combined through `agree`, which is collective over the context's
 * communicator and must be called at the same call on every rank.
 */
#ifndef AUTOCOLL_STRATEGY_H
#define AUTOCOLL_STRATEGY_H

#include "coll/coll.h"

#include <stdio.h>

/* Agreement across the ranks of a context: values[i] becomes the maximum over the ranks
 * (MPI_MAX of doubles on the private communicator). Returns an MPI error code. Tests replace
 * it with a function of their own. `rank` is this rank's rank in the context's communicator:
 * a strategy may use it only to decide what it contributes to an agreement (e.g. rank 0's
 * value, -1 elsewhere, to broadcast through MAX), never to choose. */
typedef struct ac_agreement {
    int (*max)(void *ctx, double *values, int n);
    void *ctx;
    int rank;
} ac_agreement;

/* What every strategy tells the end-of-run report about one context. */
typedef struct ac_strategy_summary {
    const char *stage;   /* the strategy's own stage name, e.g. "measure_select" */
    int chosen;          /* candidate index of the current choice, -1 while there is none */
    long decision_calls; /* calls before the first choice (-1 while deciding) */
    int switches;        /* changes of the choice after the first one */
    double o_ms_c;       /* time spent running slower candidates while deciding, relative to
                          * the chosen one (agreed, equal on every rank); negative: unknown */
} ac_strategy_summary;

/* What a strategy knows of one candidate: the learned state kept between runs (history.h).
 * `seconds` is the strategy's own agreed statistic of one call (star: the best of ITER; race:
 * the median; lottery: the exponential average), `var` its variance where the strategy keeps
 * one (else 0), `samples` the agreed calls behind it; samples == 0: nothing known. */
typedef struct ac_knowledge {
    double seconds, var;
    long samples;
} ac_knowledge;

typedef struct ac_strategy {
    const char *name;
    /* 1: the choice does not depend on the call site (the table: its rules name a collective,
     * a process count and a message size), so the strategy's contexts are site-less and cost
     * no call-site agreements (select.c, site.h). */
    int site_less;
    /* A new state over `n` candidates (n >= 1, candidates[0] is native). NULL on no memory. */
    void *(*create)(const ac_algorithm *const *candidates, int n);
    /* The index of the candidate that runs the next call. */
    int (*choose)(void *state);
    /* The call ran candidate `index` and took `seconds` on this rank. */
    int (*observe)(void *state, int index, double seconds, const ac_agreement *agree);
    /* 1 while the state is still deciding (STAR's Measure_Select), 0 once it has chosen: the
     * report splits the layer's bookkeeping time by it (O_MS^a against O_MA). */
    int (*deciding)(const void *state);
    /* The agreed mean time of one native call, or a negative value while unknown: the base of
     * the report's estimate of time saved against native. */
    double (*native_seconds)(const void *state);
    /* The summary above. */
    void (*summarize)(const void *state, ac_strategy_summary *out);
    /* The strategy's own JSON members of the context's report object, each written as
     * `, "key": value` (candidate names from `candidates`, the list given to create()). */
    void (*report_json)(const void *state, const ac_algorithm *const *candidates, FILE *f);
    /* What this run learned, into out[n]: samples counts only this run's agreed calls (0 for a
     * candidate this run never measured), so that knowledge loaded by warm() is not counted
     * twice when the history file merges it back. */
    void (*save)(const void *state, ac_knowledge *out);
    /* Called once, right after create() and before any call, with what earlier runs learned of
     * each candidate (know[n]; samples 0: unknown). Returns 1 when the state starts from it,
     * 0 when it starts cold. A warm state has no decision phase (the summary's decision_calls
     * is 0) unless grouping left members of the best known one's group unknown: it measures
     * just those first. Depends only on `know`, which is equal on every rank (history.c
     * broadcasts it). */
    int (*warm)(void *state, const ac_knowledge *know);
    void (*destroy)(void *state);
} ac_strategy;

/* Registry groups of a candidate list, numbered by first occurrence (group[i] = the number of
 * candidate i's group; a candidate without a group string is a group of its own). Candidate i
 * is the first of its group (its representative) exactly when group[i] equals the number of
 * groups seen before it. Returns the number of groups. */
int ac_candidate_groups(const ac_algorithm *const *candidates, int n, int *group);

/* The median of v[0..n) (n >= 1), sorting a copy in scratch[n]. */
double ac_median(const double *v, int n, double *scratch);

/* Whether `know` covers what a decision phase would have measured: with grouping (group[] from
 * ac_candidate_groups), some candidate of every group; without (group NULL), every candidate.
 * Returns the best known candidate (smallest seconds, ties: the lower index), or -1 when not
 * covered or fewer than two are known (n >= 2). *unknown is the number of members of the best
 * one's group never measured (0 without grouping): a warm start measures them first. */
int ac_knowledge_best(const ac_knowledge *know, int n, const int *group, int *unknown);

#endif
