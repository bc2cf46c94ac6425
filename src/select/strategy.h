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
 *
 * A strategy is one file: its ops struct below names it, reads its own settings (configure),
 * and keeps in history what it learns beyond the common ac_knowledge (its own record). The
 * list of strategies is strategies.c: adding one is its file and one line there.
 */
#ifndef AUTOCOLL_STRATEGY_H
#define AUTOCOLL_STRATEGY_H

#include "coll/coll.h"
#include "core/config.h"
#include "core/json_writer.h"
#include "core/store.h"

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

/* What a strategy knows of one candidate (ac_knowledge, core/store.h: a record's named value):
 * the learned state kept between runs (history.h), or a configuration table's measured cell
 * (table.h). `seconds` is the strategy's own agreed statistic of one call (star: the best of
 * ITER; race: the median; lottery: the exponential average), `var` its variance where the
 * strategy keeps one (else 0), `samples` the agreed calls behind it; samples == 0: nothing
 * known. */

/* What every rank knows alike of a context, for strategies that predict (model.c): given to
 * create(). nodes and ppn are 0 unless the strategy declares uses_nodes (finding them is a
 * collective step on the context's communicator, which the others do without). */
typedef struct ac_context_facts {
    ac_collective collective;
    int size;     /* communicator size */
    int nodes;    /* shared-memory nodes of the communicator (0: not asked) */
    int ppn;      /* ranks on its largest node (0: not asked) */
    size_t bytes; /* message size of the context's calls (ac_call.bytes; 0 for alltoallv,
                   * whose contexts are not keyed on it) */
    const int *suggested; /* candidates a loaded table's rule names for the context, its
                           * first AUTOCOLL_TABLE_TRY that can run here, best first; a
                           * strategy that can (model) measures them in its first decision */
    int nsuggested;
    /* Candidates measured in rounds (rounds.h: the ADCL requests' searches, whose candidates
     * are a request's functions): which may run, one forced from the start, measurements of
     * each, and what the searches that need them read. Unused (zero) elsewhere. */
    const int *applicable;     /* applicable[c]: candidate c may run (equal on every rank) */
    int forced;                /* a candidate that runs from the start, or -1 */
    int samples;               /* measurements of each candidate (race: per round) */
    int rounds;                /* race: rounds at most */
    double margin;             /* race: first margin; model: (1 + margin) x the best */
    int nattrs;                /* attributes of each candidate (0: none) */
    const int *const *values;  /* values[c][a]: attribute a of candidate c (NULL: none) */
    /* model: each candidate's feature vector, nfeatures (AC_COST_PARAMS, coll/cost.h) per
     * candidate, its predicted time the dot product with the parameters (NULL: no model);
     * the default parameters and the weight that keeps a fit near them */
    const double *features;
    int nfeatures;
    const double *prior;
    double prior_weight;
} ac_context_facts;

/* What a strategy tells selection and the end-of-run report about one of its states. */
typedef struct ac_strategy_summary {
    const char *stage;    /* the strategy's own stage name, e.g. "measure_select" */
    int deciding;         /* 1 while deciding (STAR's Measure_Select): the report splits the
                           * layer's bookkeeping time by it (O_MS^a against O_MA) */
    int chosen;           /* candidate index of the current choice, -1 while there is none */
    long decision_calls;  /* calls before the first choice (-1 while deciding) */
    int switches;         /* changes of the choice after the first one */
    int warm;             /* the state started from the knowledge given to create() */
    double o_ms_c;        /* time spent running slower candidates while deciding, relative to
                           * the chosen one (agreed, equal on every rank); negative: unknown */
    double native_seconds; /* the agreed mean time of one native call (the base of the report's
                            * estimate of time saved), negative while unknown */
} ac_strategy_summary;

/* A strategy: six operations on a state of one tuning context, and its hooks. */
typedef struct ac_strategy {
    const char *name; /* its AUTOCOLL_STRATEGY keyword */
    /* Its settings (AUTOCOLL_<NAME>_*), declared here and collected by core/config.c at
     * ac_strategies_declare: autocoll-info, docs/guide.md's table and the checks see them. */
    const ac_setting *settings;
    int nsettings;
    /* 0: the choice never changes (native): selection keeps no tuning contexts for it. */
    int learns;
    /* 1: the table strategy: the rules of a loaded table choose; the operations below run
     * where no rule covers a context, and `trial` where a rule's first candidates race
     * (AUTOCOLL_TABLE_TRY > 1). */
    int table_mode;
    const struct ac_strategy *trial;
    /* 1: create() needs the facts' nodes and ppn. */
    int uses_nodes;
    /* 1: create() measures the facts' suggested candidates (a loaded table's rule) first;
     * selection seeds it from a table's cell only at the cell's own process count. */
    int uses_suggestions;
    /* A new state over `n` candidates (n >= 1, candidates[0] is native), or NULL on no memory.
     * `known` (NULL: nothing) is what earlier runs learned of each candidate (known[n]; samples
     * 0: unknown), equal on every rank (history.c broadcasts it, the table is read by every
     * rank): the state starts from it when it covers what a decision phase would measure
     * (ac_knowledge_best), and then has no decision phase, unless grouping left members of the
     * best known one's group unknown: it measures just those first. The summary says whether
     * it started warm. `facts` (never NULL) describes the context; strategies that only
     * measure ignore it. */
    void *(*create)(const ac_algorithm *const *candidates, int n, const ac_knowledge *known,
                    const ac_context_facts *facts);
    /* The index of the candidate that runs the next call. */
    int (*choose)(void *state);
    /* The call ran candidate `index` and took `seconds` on this rank; *deciding is set to
     * whether the state is still deciding after it. Returns an MPI error code (an agreement's). */
    int (*observe)(void *state, int index, double seconds, const ac_agreement *agree,
                   int *deciding);
    /* What this run learned, into out[n]: samples counts only this run's agreed calls (0 for a
     * candidate this run never measured), so that knowledge given to create() is not counted
     * twice when the history file merges it back. */
    void (*save)(const void *state, ac_knowledge *out);
    /* The summary above into *out and, when w is not NULL, the strategy's own members of the
     * context's report object (candidate names from `candidates`, the list given to
     * create()). */
    void (*describe)(const void *state, const ac_algorithm *const *candidates,
                     ac_strategy_summary *out, ac_json_writer *w);
    void (*destroy)(void *state);

    /* Hooks, each NULL where the strategy has nothing to do. */
    /* Read its AUTOCOLL_* settings into the parameters of states created from now on
     * (ac_select_init, for every strategy: the benchmark driver switches them at run time). */
    void (*configure)(void);
    /* The kind of its own history line (history.h: ac_history_write_record), which the file
     * accepts for it. */
    const ac_store_kind *record;
    /* After the history file was loaded (ac_select_load): take from its record what states
     * created from now on start from (the same on every rank). */
    void (*load_history)(void);
    /* After each of its contexts' history line (ac_select_finalize, rank 0 of the context's
     * communicator): write its record of what `state` learned beyond the ac_knowledge. */
    void (*write_history)(const void *state, FILE *f);
} ac_strategy;

/* Every strategy, in the order of AUTOCOLL_STRATEGY's keywords (strategies.c), and their
 * number in *count. */
const ac_strategy *const *ac_strategies(int *count);

/* The strategy of that name, or NULL. */
const ac_strategy *ac_strategy_find(const char *name);

/* Gives core/config.c AUTOCOLL_STRATEGY's keywords: the strategies' names, in their order.
 * Before any reading of AUTOCOLL_STRATEGY (ac_select_init; autocoll-info). */
void ac_strategies_declare(void);

/* The library's own algorithm for every call: candidate 0, never measured. */
extern const ac_strategy ac_strategy_native;

/* Registry groups of a candidate list, numbered by first occurrence (group[i] = the number of
 * candidate i's group; a candidate without a group string is a group of its own). Candidate i
 * is the first of its group (its representative) exactly when group[i] equals the number of
 * groups seen before it. Returns the number of groups. */
int ac_candidate_groups(const ac_algorithm *const *candidates, int n, int *group);

/* As ac_candidate_groups, with a group split further by the values of the attribute keys
 * split[0..nsplit) (two candidates share a group when their registry groups are equal and each
 * of those keys has one value in both, or is absent from both). */
int ac_candidate_families(const ac_algorithm *const *candidates, int n, const char *const *split,
                          int nsplit, int *group);

/* The median of v[0..n) (n >= 1), sorting a copy in scratch[n]. */
double ac_median(const double *v, int n, double *scratch);

/* Whether `know` covers what a decision phase would have measured: with grouping (group[] from
 * ac_candidate_groups), some candidate of every group; without (group NULL), every candidate.
 * Returns the best known candidate (smallest seconds, ties: the lower index), or -1 when not
 * covered or fewer than two are known (n >= 2). *unknown is the number of members of the best
 * one's group never measured (0 without grouping): a warm start measures them first. */
int ac_knowledge_best(const ac_knowledge *know, int n, const int *group, int *unknown);

#endif
