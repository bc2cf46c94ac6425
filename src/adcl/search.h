/*
 * search.h - which function of a request's set runs at each call: ADCL's run-time selection.
 *
 * During the first calls the functions are measured in turn, `samples` calls each (ADCL's
 * default 30); a measurement is one call's time, or one interval of the request's timer. When a
 * round of functions has its measurements, each rank filters its outliers and reduces each
 * function's times to one number (ac_adcl_statistic), and one MPI_Allreduce(MAX) over the
 * request's communicator agrees them: the slowest rank judges a function, and every decision is
 * taken from agreed values only, so all ranks run the same function at every call.
 *   brute force: one round of every applicable function; the smallest agreed time wins.
 *   attribute:   ADCL's attribute-based search. For each attribute in turn, one representative
 *                per value still present (the function closest to the best so far in its other
 *                attributes) is measured; the value of the fastest representative is kept and
 *                every function with another value is pruned. What remains after the last
 *                attribute is measured and the fastest wins.
 *   factorial:   a two-level factorial screening first (the 2^k design of ADCL's later work):
 *                each attribute gets two levels, the first function's value and the next one
 *                present; every function whose attributes all take one of their two levels
 *                is measured (one per combination, up to 2^k), and for each attribute the
 *                level with the smaller mean over those runs (the sign of its main effect)
 *                prunes the functions with the other level. The attribute search then goes on
 *                over what remains (values outside the two levels included).
 *   race:        autocoll's own (src/select/race.c for collectives): every function a few
 *                calls per round (AUTOCOLL_RACE_SAMPLES), the clearly slower drop out after
 *                each round (beyond (1 + AUTOCOLL_RACE_MARGIN) x the best, the margin halving),
 *                the fastest after AUTOCOLL_RACE_ROUNDS rounds or when one is left.
 *   model:       autocoll's model-guided search (model_search.c): predict every function from a
 *                cost model, measure the few it cannot tell apart, refit, settle on the
 *                fastest measured.
 *   forced:      one function from the start (AUTOCOLL_ADCL_FUNCTION, config.adcl).
 */
#ifndef AUTOCOLL_ADCL_SEARCH_H
#define AUTOCOLL_ADCL_SEARCH_H

#include "coll/cost.h"

#include <mpi.h>

typedef enum ac_adcl_method {
    AC_ADCL_BRUTE_FORCE,
    AC_ADCL_ATTRIBUTE,
    AC_ADCL_FACTORIAL,
    AC_ADCL_RACE,
    AC_ADCL_MODEL,
    AC_ADCL_FORCED
} ac_adcl_method;

typedef struct ac_adcl_search {
    ac_adcl_method method;
    int n, nattrs, samples;   /* samples: room for measurements per function */
    int target;               /* measurements each function of the round must have */
    int race_samples, race_rounds, race_round; /* race: per round; rounds at most; this one */
    double race_margin;       /* race: drop out beyond (1 + margin) x the best */
    const int *const *values; /* values[f][a]: attribute a of function f (nattrs > 0) */
    int *applicable;          /* agreed: whether function f may run */
    int *alive;               /* attribute search: not pruned */
    int *round;               /* the functions measured in this round, in order */
    int nround, pos;          /* its size; the one running now */
    int attribute;            /* attribute search: the attribute being decided */
    int *set, nset;           /* attribute search: its representatives */
    int chosen;               /* attribute search: they are chosen (and being measured) */
    int (*level)[2];          /* factorial: the two levels of each attribute */
    int screened;             /* factorial: the screening is over */
    double *times;            /* this rank's measurements: times[f * samples + k] */
    int *count;               /* measurements of each function */
    double *agreed;           /* agreed statistic of each function; < 0: not measured */
    int current;              /* the function that runs now */
    int decided;              /* the winner is known (current) */
    int calls;                /* calls so far */
    int selection_calls;      /* calls measured before the decision */
    int measured;             /* functions measured */
    int warm;                 /* started warm from history (ac_adcl_search_warm) */
    /* model (model_search.c; AC_COST_PARAMS: the fit's vectors, whose slots halo/cost.h names): */
    double *features;         /* features[f * AC_COST_PARAMS + j]; NULL: no model */
    double prior[AC_COST_PARAMS], params[AC_COST_PARAMS]; /* default, fitted */
    double prior_weight, model_margin;
    int model_round;          /* rounds measured so far */
} ac_adcl_search;

/* Prepares the search over n functions; `forced` is a function's index or -1; applicable[f]
 * must be equal on all ranks. samples: measurements of each function (per round for the race);
 * rounds and margin: the race's. Does not communicate. Returns an MPI error code. */
int ac_adcl_search_init(ac_adcl_search *s, ac_adcl_method method, int n, int nattrs,
                        const int *const *values, const int *applicable, int forced, int samples,
                        int rounds, double margin, MPI_Comm comm);
/* A warm start before the first call: known[f] is what history knows of function f (an agreed
 * time; < 0: nothing), equal on all ranks. The applicable function of the smallest known time
 * runs from the first call and nothing is measured (none of these searches monitors after its
 * decision, so functions history does not know are not measured either). Nothing changes when
 * the function is forced, after the first call, or when no applicable function is known.
 * Returns whether the search starts warm. */
int ac_adcl_search_warm(ac_adcl_search *s, const double *known);
/* Accounts one call (or timer interval) of the current function, of `seconds`; when a round is
 * complete, agrees it over comm (collective) and moves on. Returns an MPI error code. */
int ac_adcl_search_record(ac_adcl_search *s, double seconds, MPI_Comm comm);
/* One function's times reduced to one number after ADCL's outlier filter. */
double ac_adcl_statistic(const double *times, int n);
void ac_adcl_search_free(ac_adcl_search *s);

/* The steps the searches share (search.c; model_search.c uses them too). decide: f runs from
 * now on, nothing more is measured. start_round: a round over the functions of set[0..n) not
 * measured yet, in that order; returns whether there is anything to measure. */
void ac_adcl_search_decide(ac_adcl_search *s, int f);
int ac_adcl_search_start_round(ac_adcl_search *s, const int *set, int n);

/* The model search (model_search.c). After ac_adcl_search_init(AC_ADCL_MODEL, ...), which
 * leaves the search undecided and measuring nothing yet: the feature vectors of the n functions
 * (n x AC_COST_PARAMS, equal on every rank; NULL: no model, every function is measured),
 * the default parameters, the weight that keeps a fit near them and the margin. Starts the
 * first round. Returns an MPI error code. */
int ac_adcl_model_start(ac_adcl_search *s, const double *features, const double *prior,
                        double prior_weight, double margin);
/* The model search's next step once a round is agreed (search.c's advance calls it). */
void ac_adcl_model_advance(ac_adcl_search *s);

#endif
