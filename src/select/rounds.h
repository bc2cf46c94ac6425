/*
 * rounds.h - selection in measured rounds: the engine of the searches that ADCL requests run
 * (AUTOCOLL_ADCL_SEARCH), each a strategy (strategy.h) over a context whose candidates are a
 * request's functions and whose facts (ac_context_facts) give which may run, one forced, the
 * measurements per candidate, the candidates' attribute values and the model's features.
 *
 * During the first calls the candidates of a round are measured in turn, `target` calls each
 * (ADCL's default 30); a measurement is one call's time, or one interval of the request's
 * timer. When a round's candidates have their measurements, each rank filters its outliers and
 * reduces each candidate's times to one number (ac_rounds_statistic), and one agreement (MAX)
 * over the context's ranks agrees them: the slowest rank judges a candidate, and every decision
 * is taken from agreed values only, so all ranks run the same candidate at every call. The
 * searches differ in what a round measures and what they decide from the agreed values:
 *   brute_force (brute.c):   one round of every applicable candidate; the smallest agreed
 *                            time wins.
 *   attribute (attribute.c): ADCL's attribute-based search. For each attribute in turn, one
 *                representative per value still present (the candidate closest to the best so
 *                far in its other attributes) is measured; the value of the fastest
 *                representative is kept and every candidate with another value is pruned. What
 *                remains after the last attribute is measured and the fastest wins.
 *   factorial (factorial.c): a two-level factorial screening first (the 2^k design of ADCL's
 *                later work): each attribute gets two levels, the first candidate's value and
 *                the next one present; every candidate whose attributes all take one of their
 *                two levels is measured (one per combination, up to 2^k), and for each
 *                attribute the level with the smaller mean over those runs (the sign of its
 *                main effect) prunes the candidates with the other level. The attribute search
 *                then goes on over what remains (values outside the two levels included).
 *   race (race.c, ac_strategy_race_rounds): every candidate a few calls per round
 *                (AUTOCOLL_RACE_SAMPLES), the clearly slower drop out after each round (beyond
 *                (1 + AUTOCOLL_RACE_MARGIN) x the best, the margin halving), the fastest after
 *                AUTOCOLL_RACE_ROUNDS rounds or when one is left.
 *   model (model.c, ac_strategy_model_rounds): predict every candidate from a cost model (the
 *                facts' features), measure the few it cannot tell apart, refit, settle on the
 *                fastest measured.
 * A forced candidate (facts->forced) runs from the start, as does the only applicable one.
 * A pure state machine: no MPI call, the only collective step is the ac_agreement callback.
 *
 * Every such strategy's state begins with its ac_rounds (ac_rounds_of), which its caller may
 * read: the running candidate, the agreed values and the counts of the report and history.
 */
#ifndef AUTOCOLL_ROUNDS_H
#define AUTOCOLL_ROUNDS_H

#include "select/strategy.h"

typedef struct ac_rounds {
    int n, nattrs, samples;   /* samples: room for measurements per candidate */
    int target;               /* measurements each candidate of the round must have */
    const int *const *values; /* values[c][a]: attribute a of candidate c (nattrs > 0) */
    int forced;               /* a forced candidate runs (no search, no warm start) */
    int *applicable;          /* agreed: whether candidate c may run */
    int *alive;               /* not pruned (attribute search, race) */
    int *round;               /* the candidates measured in this round, in order */
    int nround, pos;          /* its size; the one running now */
    int *set, nset;           /* scratch of the searches: a set of candidates */
    double *times;            /* this rank's measurements: times[c * samples + k] */
    int *count;               /* measurements of each candidate */
    double *agreed;           /* agreed statistic of each candidate; < 0: not measured */
    int current;              /* the candidate that runs now */
    int decided;              /* the winner is known (current) */
    int calls;                /* calls so far */
    int selection_calls;      /* calls measured before the decision */
    int measured;             /* candidates measured */
    int warm;                 /* started warm from the knowledge given to create() */
    void (*advance)(void *state); /* the search's next step, after each agreed round */
} ac_rounds;

/* The engine of a state of a rounds strategy (its first member). */
static inline const ac_rounds *ac_rounds_of(const void *state)
{
    return (const ac_rounds *)state;
}

/* A new state of `size` bytes (the strategy's state, its ac_rounds first, the rest zero) over
 * n candidates from the facts (applicable, forced, nattrs, values): `capacity` measurements of
 * each candidate are kept, `target` make a round, `advance` takes the search's next step after
 * each agreed round. Decides at once when a candidate is forced or at most one may run
 * (*decided then 1). NULL: no memory. */
void *ac_rounds_new(size_t size, int n, const ac_context_facts *facts, int capacity, int target,
                    void (*advance)(void *state), int *decided);
/* Frees a state made by ac_rounds_new that owns nothing else (else: ac_rounds_free, then it). */
void ac_rounds_destroy(void *state);
/* A warm start before the first call (known: create()'s, NULL: nothing; samples 0: unknown,
 * equal on every rank): the applicable candidate of the smallest known time runs from the
 * first call and nothing is measured (no rounds search monitors after its decision, so the
 * candidates history does not know are not measured either). Nothing changes when a candidate
 * is forced, after the first call, or when no applicable candidate is known. Returns whether
 * the search starts warm. */
int ac_rounds_warm(ac_rounds *r, const ac_knowledge *known);
/* Every rounds strategy's observe (strategy.h): accounts one call of candidate `index` (the
 * current one), of `seconds`; when a round is complete, agrees it (collective) and calls the
 * state's advance for the search's next step. Returns an MPI error code (the agreement's;
 * MPI_ERR_ARG for another candidate). */
int ac_rounds_observe(void *state, int index, double seconds, const ac_agreement *agree,
                      int *deciding);
/* One candidate's times reduced to one number after ADCL's outlier filter. */
double ac_rounds_statistic(const double *times, int n);
void ac_rounds_free(ac_rounds *r);

/* The steps the searches share. decide: f runs from now on, nothing more is measured.
 * start_round: a round over the candidates of set[0..n) not measured yet, in that order;
 * returns whether there is anything to measure. fastest: the candidate of set[0..n) with the
 * smallest agreed time, or -1. distance: the Hamming distance of two candidates' attributes,
 * attribute `skip` left out (-1: none). */
void ac_rounds_decide(ac_rounds *r, int f);
int ac_rounds_start_round(ac_rounds *r, const int *set, int n);
int ac_rounds_fastest(const ac_rounds *r, const int *set, int n);
int ac_rounds_distance(const ac_rounds *r, int f, int g, int skip);

/* The attribute search's progress and its next step once a round is agreed (attribute.c; the
 * factorial screening goes on with it): the attribute being decided, and whether its
 * representatives are chosen (and being measured, in r->set). */
typedef struct ac_rounds_attribute {
    int attribute;
    int chosen;
} ac_rounds_attribute;
void ac_rounds_attribute_advance(ac_rounds *r, ac_rounds_attribute *a);

/* The operations every rounds strategy shares: the current candidate; save (this run's agreed
 * value of each candidate measured and the measurements behind it); describe (the summary). */
int ac_rounds_choose(void *state);
void ac_rounds_save(const void *state, ac_knowledge *out);
void ac_rounds_describe(const void *state, const ac_algorithm *const *candidates,
                        ac_strategy_summary *out, ac_json_writer *w);

/* The rounds strategies, in the order of AUTOCOLL_ADCL_SEARCH's keywords (strategies.c:
 * brute_force, attribute, factorial, race, model), and their number in *count. */
const ac_strategy *const *ac_rounds_strategies(int *count);

extern const ac_strategy ac_strategy_brute_force, ac_strategy_attribute, ac_strategy_factorial,
    ac_strategy_race_rounds, ac_strategy_model_rounds;

#endif
