/*
 * model.c - the `model` strategy (model.h): decide from the cost models, measure only what
 * they cannot tell apart.
 *
 * The prediction. At create() every candidate with a cost model (coll/cost.h: every one but
 * native and those that run the library's collective on sub-communicators) gets its feature
 * vector for the context's shape (size, nodes x ranks per node, bytes: the facts select.c
 * gives, equal on every rank); its predicted time is the vector times the platform parameters,
 * at first the AUTOCOLL_MODEL_* defaults. Candidates without a model are never measured,
 * except native.
 *
 * A decision, in at most two rounds and `budget` calls. Round 1 measures native, then the
 * best predicted candidate of each group (STAR-MPI's algorithm groups of the registry, each
 * split by its members' mesh dimensionality unless AUTOCOLL_MODEL_GROUPS says registry: see
 * group_split) predicted within the larger of group_range x and (1 + margin) x the best
 * prediction, in predicted order (groups_first), then the other candidates predicted within
 * (1 + margin) x the best prediction (different predictions before repeats of one:
 * distinct_first), at most half the budget's candidates; before those, the candidates a
 * loaded table's rule suggests (the facts' `suggested`: select.c gives them where the table
 * measured no cell at the context's process count), whatever their predictions, within the
 * budget in all. A cost formula's error is mostly its family's (a tree whose root's sends SMPI
 * overlaps, a torus's contention), and the fit cannot correct a family it never measured: on
 * the simulated 64-rank cells, without the groups the round filled with layouts of one
 * orthogonal family and missed a flat tree 1.66 x faster (docs/model.md). With group_range 0,
 * the predictions alone order the round. Each measured candidate runs `samples` consecutive
 * calls; at the end of the round ONE agreement of all their local times (the maximum over the ranks
 * per call, as race does), and each candidate's median of its calls after the first (a
 * candidate's first call runs cold: its buffers, the communicators of a mesh are made then;
 * race's median of 3 ignores it the same way) becomes an observation: (its feature vector,
 * its agreed median). The platform parameters are refitted to all observations so far
 * (ac_cost_fit: non-negative least squares on relative errors, drawn towards the defaults
 * with AUTOCOLL_MODEL_PRIOR_WEIGHT so that what no observation determines keeps its default).
 * Round 2 measures the candidates not yet measured that the refitted model predicts within
 * (1 + margin / 2) x the best measured median, best predicted first, after the best predicted
 * of each group not measured yet predicted within group_range x that median, as many as the
 * budget has left. The best measured median wins (ties: the lower candidate index, native
 * first). A candidate whose real time is far from its prediction is caught where it matters: a
 * candidate predicted best is measured, so an optimistic prediction never wins by itself; a
 * pessimistic one is corrected by the fit when the error is the platform's, not the formula's.
 *
 * A mesh's set-up. A layout's first call on a communicator makes its mesh's line
 * communicators (coll/common/mesh.c; the layouts of one mesh share them): at 256 simulated ranks
 * that first call costs 68 to 326 calls of an 8-byte bcast's best algorithm. Each measured
 * candidate that made a mesh shows its set-up (its first agreed call less its median) per line
 * communicator (see_setup). Once one has been seen, a candidate whose mesh is not made yet is
 * measured only when its prediction, times its group's measured error when the group
 * measured slower than predicted (group_error: the least median / prediction of its measured
 * members), at the optimistic end of the round's margin (divided by 1 + margin / 2 in round
 * 2; by 1 against the degraded median of a new decision) plus the estimated set-up spread over
 * `horizon` calls beats the best measured median (pays_back): a layout the margin would measure
 * for a few calls' risk must also be able to repay its set-up, and a formula its family has
 * shown optimistic is not trusted with a set-up. Round 1 of the first decision has seen none,
 * so its candidates are as before.
 *
 * The monitor (as race's). Windows of W calls, W = 16 at first, doubling up to window_max. At
 * the end of a window ONE agreement of the local times of its last (at most 16) calls; their
 * median m is one more observation of the chosen candidate (the fit follows the platform as it
 * runs). The runner-up is the smallest median of the other measured candidates. When m >
 * (1 + epsilon) x runner-up the window is degraded: the first one shortens W to 16, a second in
 * a row starts a decision among the chosen one, the measured candidates whose median is below
 * m and the unmeasured ones the current fit predicts below m (round 2 may add more).
 *
 * Refresh (as race's). A candidate that gets faster without the chosen one getting slower
 * never shows in the chosen one's windows. So at the end of the first window after `refresh`
 * settled calls that is neither degraded nor noisy (see below: a refresh reads candidates
 * from single calls, which a noisy window says are more likely delayed than not), a refresh
 * starts: a decision like the first one by the current fit (native, the best predicted of each
 * group, the others within the margin, at most half the budget's candidates; round 2 as ever)
 * among the candidates other than the chosen one, whose median of that window stands for it;
 * another wins only by more than epsilon (the monitor's tolerance). The next refresh comes
 * after twice as many settled calls when the refresh kept the choice (up to
 * REFRESH_MAX_FACTOR x `refresh`), after `refresh` again when it changed it.
 *
 * Challenges (the monitor under noise). A decision reads each candidate from one call after its
 * first; where nearly every call waits on some rank's delay (the measured noise of
 * docs/results/simgrid-2026-11-23 at 256 simulated ranks: tens of microseconds against
 * algorithms a few microseconds apart), that reading ranks candidates by their delays, and the
 * monitor, comparing the chosen one's window median with those readings, kept finding it
 * degraded and deciding again. So a window whose median call waited more than epsilon x its
 * median beyond its fastest call is noisy (a single reading is more likely delayed than not).
 * After a noisy window, the candidate with the lowest single reading (fewer than WINDOW_MIN
 * calls behind it in this run) below the window's upper quartile runs the next WINDOW_MIN
 * calls, a challenge; it becomes the chosen one when its fastest call beats the chosen one's
 * fastest in that window (with delays that only add, the fastest call is the closest to the
 * time itself), else the chosen one goes on with its doubled window. Either way both have
 * WINDOW_MIN calls behind their medians and are not challenged again; at most `challenges`
 * per context. A noisy window ignores single readings as runners-up and is degraded only by
 * more than half its interquartile range beyond (1 + epsilon) x the runner-up. Without noise
 * (median within epsilon of the fastest) the monitor is as before.
 *
 * Warm start. When create() is given knowledge of native and of at least one other candidate
 * (history or a table's cell), the known times become medians and observations, and the state
 * settles at once on the best known one: a warm decision takes no call. Every decision depends
 * only on call counts, settings, the context's facts and agreed values (invariant 1).
 *
 * Failure. If an agreement fails, observe() returns its error and the state stops: native from
 * then on, without further agreements. observe() for a candidate other than the one choose()
 * returned is refused with MPI_ERR_ARG. A negative or NaN local time counts as 0.
 */
#include "select/model.h"
#include "coll/common/mesh.h"
#include "core/config.h"
#include "select/history.h"
#include "select/monitor.h"
#include "select/plan.h"
#include "select/rounds.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    OBS_MAX = 64, /* observations kept for the fit (the most recent) */
    WINDOW_MIN = AC_MONITOR_WINDOW_MIN, /* the monitor's first window (monitor.h) */
};

/* What a window's agreed calls show (window_stats_of). */
typedef struct window_stats {
    double fastest; /* the fastest call: the time itself plus the least delay */
    double median;
    double q1, q3; /* lower and upper quartiles */
} window_stats;

typedef struct model_state {
    ac_model_params p;
    int n;
    int stage;
    int chosen;
    double *feat;             /* [n * AC_COST_PARAMS] feature vectors */
    unsigned char *has_model; /* [n] */
    int *group;               /* [n] group (ac_candidate_families: AUTOCOLL_MODEL_GROUPS) */
    int *reps;                /* [n] scratch: the first candidate of each group */
    double *median;           /* [n] last agreed median; < 0: never measured */
    int *median_samples;      /* [n] agreed calls behind it in this run (0: none) */
    unsigned char *tried;     /* [n] measured in the decision in progress */
    int *order;               /* [n] scratch: candidates sorted by a key */
    int *pick;                /* [n] scratch: the candidates of a round */
    double *key;              /* [n] scratch: the key */
    int *mesh;                /* [n] the first candidate on c's mesh; -1: c needs none */
    unsigned char *lines;     /* [n] the line communicators of c's mesh (0: none) */
    unsigned char *made;      /* [n] by mesh[c]: the mesh was made in this run */
    double setup_line;        /* the set-up seen per line communicator, mean */
    int setups;               /* set-ups seen */
    double platform[AC_COST_PARAMS]; /* the current fit (read it through fitted()) */
    int stale;                       /* observations came since the fit: fitted() redoes it */
    double obs_rows[OBS_MAX * AC_COST_PARAMS], obs_seconds[OBS_MAX];
    int nobs, obs_next;
    long observations;
    /* The decision in progress. */
    ac_plan plan;
    int round;      /* rounds finished */
    int used;       /* calls planned so far */
    int first;      /* it is the first decision */
    double scratch[WINDOW_MIN];
    /* The monitor. */
    ac_monitor monitor; /* of the chosen one or the challenger (monitor.h) */
    int challenger;   /* the candidate running a challenge; -1: none */
    window_stats defender; /* the chosen one's window before the challenge */
    int resume;       /* the chosen one's window after the challenge */
    int challenges;   /* challenges run */
    int refreshing;        /* the decision in progress is a refresh */
    int refreshes;         /* refreshes started */
    /* Accounting. */
    long first_calls, decide_calls, settled_calls;
    double first_sum; /* agreed seconds of the first decision */
    long first_count;
    double o_ms_c;
    int decisions, switches, agreements, warm;
} model_state;

static ac_model_params model_params;

void ac_model_set_params(const ac_model_params *p)
{
    model_params = *p;
}

void ac_model_get_params(ac_model_params *out)
{
    *out = model_params;
}

/* The platform parameters fitted to the observations so far. add_observation() marks the fit
 * stale and the fit is made here, when something reads it: a settled context adds an
 * observation at the end of every window, and one fit (64 least-squares solves) per window was
 * most of a settled call's cost. The fit depends on the observations and the prior alone, never
 * fails once there is an observation, and every place that adds observations adds them all
 * before anything reads a prediction, so the values are those of a fit made at each addition. */
static const double *fitted(const model_state *cs)
{
    model_state *s = (model_state *)cs; /* the fit is a cache: not part of the state's value */
    double x[AC_COST_PARAMS];
    if (s->stale &&
        ac_cost_fit(s->obs_rows, s->obs_seconds, s->nobs, s->p.platform, s->p.prior_weight, x) == 0)
        memcpy(s->platform, x, sizeof x);
    s->stale = 0;
    return s->platform;
}

static double predict(const model_state *s, int c)
{
    if (!s->has_model[c]) return -1.0;
    const double *platform = fitted(s);
    double t = 0.0;
    for (int j = 0; j < AC_COST_PARAMS; j++) t += s->feat[c * AC_COST_PARAMS + j] * platform[j];
    return t;
}

/* One agreed timing of candidate c; the fit is redone when next read (fitted()). */
static void add_observation(model_state *s, int c, double seconds)
{
    if (!s->has_model[c] || !(seconds > 0.0)) return;
    memcpy(s->obs_rows + s->obs_next * AC_COST_PARAMS, s->feat + c * AC_COST_PARAMS,
           AC_COST_PARAMS * sizeof(double));
    s->obs_seconds[s->obs_next] = seconds;
    s->obs_next = (s->obs_next + 1) % OBS_MAX;
    if (s->nobs < OBS_MAX) s->nobs++;
    s->observations++;
    s->stale = 1;
}

/* The set-up candidate c's first call would cost: the line communicators of a mesh not made
 * yet times the mean set-up per line seen so far; 0 when c needs no set-up or none was seen. */
static double setup_estimate(const model_state *s, int c)
{
    int r = s->mesh[c];
    return r < 0 || s->made[r] ? 0.0 : s->setup_line * s->lines[c]; /* 0 until one is seen */
}

/* How much slower than predicted candidate c's group measured in this run: the least
 * median / prediction over its measured members with a model, when above 1; 1 otherwise (no
 * member measured, or one as fast as predicted or faster). */
static double group_error(const model_state *s, int c)
{
    double least = -1.0;
    for (int j = 1; j < s->n; j++)
        if (s->group[j] == s->group[c] && s->has_model[j] && s->median_samples[j] > 0 &&
            s->median[j] > 0.0 && predict(s, j) > 0.0) {
            double e = s->median[j] / predict(s, j);
            if (least < 0.0 || e < least) least = e;
        }
    return least > 1.0 ? least : 1.0;
}

/* Whether candidate c, predicted to take `predicted`, may be measured against `best`, where
 * the round hedges a prediction's error by `within` (it measures what is predicted within
 * `within` x `best`): always, unless its mesh is still to be made at an estimated set-up; then
 * only when the prediction at its most optimistic (predicted / within) plus that set-up spread
 * over the horizon beats `best`. Without a set-up that is the round's own test. */
static int pays_back(const model_state *s, int c, double predicted, double best, double within)
{
    double setup = s->p.horizon > 0.0 ? setup_estimate(s, c) : 0.0;
    return setup <= 0.0 || predicted * group_error(s, c) / within + setup / s->p.horizon < best;
}

/* s->order[0..k) sorted by s->key (ties: the lower index); returns k. */
static int sort_order(model_state *s, int k)
{
    for (int i = 1; i < k; i++) {
        int c = s->order[i], j = i;
        while (j > 0 && (s->key[c] < s->key[s->order[j - 1]] ||
                         (s->key[c] == s->key[s->order[j - 1]] && c < s->order[j - 1]))) {
            s->order[j] = s->order[j - 1];
            j--;
        }
        s->order[j] = c;
    }
    return k;
}

/* s->order[0..k) (sorted by s->key) with the candidates whose key differs from every earlier
 * one's first, the others after them, each part in its order; returns min(k, cap). Candidates
 * the model cannot tell apart (a mesh and its transpose, phases with equal costs) teach the fit
 * nothing new, so a round measures as many different predictions as it can. */
static int distinct_first(model_state *s, int k, int cap)
{
    int d = 0, r = 0;
    for (int i = 0; i < k; i++) {
        int c = s->order[i], seen = 0;
        for (int j = 0; j < d && !seen; j++)
            seen = fabs(s->key[s->pick[j]] - s->key[c]) <= 1e-9 * s->key[c];
        if (seen)
            s->order[r++] = c; /* r <= i: the repeated ones move down in place */
        else
            s->pick[d++] = c;
    }
    memmove(s->order + d, s->order, (size_t)r * sizeof *s->order);
    memcpy(s->order, s->pick, (size_t)d * sizeof *s->order);
    return k < cap ? k : cap;
}

/* s->order[0..k) (sorted by s->key): the first candidate of each group with no member
 * measured in this decision first, then the other candidates whose key is within `within` (the
 * others only stood for their group), those with a key that differs from every earlier one's
 * first; returns min(count, cap). */
static int groups_first(model_state *s, int k, int cap, double within)
{
    int g = 0, r = 0;
    for (int i = 0; i < k; i++) {
        int c = s->order[i], seen = 0;
        for (int j = 0; j < g && !seen; j++) seen = s->group[s->reps[j]] == s->group[c];
        for (int j = 0; j < s->n && !seen; j++) seen = s->tried[j] && s->group[j] == s->group[c];
        if (!seen)
            s->reps[g++] = c;
        else if (s->key[c] <= within)
            s->order[r++] = c; /* r <= i: the others move down in place */
    }
    r = distinct_first(s, r, r);
    memmove(s->order + g, s->order, (size_t)r * sizeof *s->order);
    memcpy(s->order, s->reps, (size_t)g * sizeof *s->order);
    return g + r < cap ? g + r : cap;
}

/* The candidates of a round in s->order, and how many (at most cap): those not measured in this
 * decision predicted within the larger of group_range x and `within` x `base` whose set-up
 * pays back against `base` (pays_back), ordered by groups_first (the ones that do not stand
 * for their group only within `within` x `base`) or, with group_range 0, by distinct_first. */
static int round_candidates(model_state *s, double base, double within, int cap)
{
    double limit = within * base, range = s->p.group_range * base;
    int k = 0;
    for (int c = 1; c < s->n; c++) {
        s->key[c] = predict(s, c);
        if (!s->tried[c] && s->key[c] >= 0.0 && s->key[c] <= (range > limit ? range : limit) &&
            pays_back(s, c, s->key[c], base, within))
            s->order[k++] = c;
    }
    k = sort_order(s, k);
    return s->p.group_range > 0.0 ? groups_first(s, k, cap, limit) : distinct_first(s, k, cap);
}

/* The calls a decision may spend on candidates not planned yet, in candidates. */
static int slots_left(const model_state *s)
{
    return (s->p.budget - s->used) / s->p.samples;
}

/* Plan a round of the given candidates, none measured yet in this decision (any order: they
 * run in candidate order). */
static void plan_round(model_state *s, const int *cands, int k)
{
    enum { THIS_ROUND = 2 };
    ac_plan_clear(&s->plan);
    for (int i = 0; i < k; i++) s->tried[cands[i]] = THIS_ROUND;
    for (int c = 0; c < s->n; c++)
        if (s->tried[c] == THIS_ROUND) {
            ac_plan_add(&s->plan, c);
            s->tried[c] = 1;
        }
    s->used += k * s->p.samples;
    ac_plan_start(&s->plan);
}

static void settle(model_state *s, int winner)
{
    if (s->first && s->chosen < 0)
        s->o_ms_c = s->first_sum - (double)s->first_count * s->median[winner];
    if (s->chosen >= 0 && winner != s->chosen) s->switches++;
    if (s->refreshing) {
        ac_monitor_refreshed(&s->monitor, winner == s->chosen);
        s->refreshing = 0;
    }
    s->first = 0;
    s->stage = AC_MODEL_SETTLED;
    s->chosen = winner;
    ac_monitor_settle(&s->monitor);
    s->challenger = -1;
}

static int stop(model_state *s, int rc)
{
    s->stage = AC_MODEL_STOPPED;
    s->chosen = 0;
    return rc;
}

/* Start a decision among cands[0..k) (k >= 1, cands[0] runs if nothing else does). */
static void decide(model_state *s, const int *cands, int k)
{
    s->stage = AC_MODEL_MEASURING;
    s->round = 0;
    s->used = 0;
    s->decisions++;
    memset(s->tried, 0, (size_t)s->n);
    plan_round(s, cands, k);
}

/* The candidates a first decision measures of its own, by the current fit, in s->order (uses
 * pick): round_candidates within the margin of the best prediction, at most half the budget's
 * candidates and what the budget leaves beside `taken` others; returns how many. */
static int own_candidates(model_state *s, int taken)
{
    double best = -1.0;
    int slots = s->p.budget / s->p.samples;
    int own = slots / 2 < slots - taken ? slots / 2 : slots - taken;
    for (int c = 1; c < s->n; c++) {
        double t = predict(s, c);
        if (t >= 0.0 && (best < 0.0 || t < best)) best = t;
    }
    return own > 0 ? round_candidates(s, best, 1.0 + s->p.margin, own) : 0;
}

/* The first decision: native, the table's suggestions (facts->suggested, those not native;
 * with a cost model or without), the best predicted of each group within group_range x the
 * best prediction, then the others within the margin (without group_range: those alone), at
 * most half the budget's candidates of its own and the whole budget's in all. */
static void decide_first(model_state *s, const ac_context_facts *facts)
{
    int m = 1, slots = s->p.budget / s->p.samples;
    for (int i = 0; i < facts->nsuggested && m < slots; i++) {
        int c = facts->suggested[i];
        if (c > 0 && c < s->n && !s->tried[c]) {
            s->tried[c] = 1; /* not among its own */
            m++;
        }
    }
    int k = own_candidates(s, m);
    if (k + m < 2) { /* nothing to compare native with */
        settle(s, 0);
        return;
    }
    s->pick[0] = 0;
    for (int c = 1, j = 1; c < s->n; c++)
        if (s->tried[c]) s->pick[j++] = c; /* the suggested ones (any order: see decide) */
    memcpy(s->pick + m, s->order, (size_t)k * sizeof *s->pick);
    memset(s->tried, 0, (size_t)s->n);
    s->first = 1;
    decide(s, s->pick, k + m);
}

/* The best median among the candidates measured in this decision. */
static int best_tried(const model_state *s)
{
    int best = -1;
    for (int c = 0; c < s->n; c++)
        if (s->tried[c] && s->median[c] >= 0.0 && (best < 0 || s->median[c] < s->median[best]))
            best = c;
    return best;
}

/* Candidate c's first agreed call in this decision took `first`: if it made c's mesh (the
 * plan runs candidates in index order, so the first of a mesh makes it), what it took beyond
 * c's median is one more set-up seen, per line communicator. */
static void see_setup(model_state *s, int c, double first)
{
    int r = s->mesh[c];
    if (r < 0 || s->made[r]) return;
    s->made[r] = 1;
    if (s->p.samples < 2) return; /* no call after the first to tell the set-up from */
    double setup = first > s->median[c] ? (first - s->median[c]) / s->lines[c] : 0.0;
    s->setup_line += (setup - s->setup_line) / ++s->setups;
}

static int end_round(model_state *s, const ac_agreement *agree)
{
    int k = s->p.samples, warm = k > 1 ? k - 1 : 1; /* the calls after a cold first one */
    int rc = ac_plan_agree(&s->plan, agree);
    s->agreements++;
    if (rc != 0) return stop(s, rc);
    s->round++;
    for (int i = 0; i < s->plan.len; i++) {
        int c = s->plan.cand[i];
        const double *t = ac_plan_times(&s->plan, i);
        s->median[c] = ac_median(t + k - warm, warm, s->scratch);
        s->median_samples[c] += k;
        if (s->first)
            for (int j = 0; j < k; j++) s->first_sum += t[j];
        if (s->first) s->first_count += k;
        add_observation(s, s->plan.cand[i], s->median[c]);
        see_setup(s, c, t[0]);
    }
    int best = best_tried(s);
    /* A refresh keeps the chosen one unless a reading beats its window's median by more than
     * epsilon: the monitor's tolerance (a single reading's luck is not a change). */
    if (s->refreshing && best != s->chosen &&
        (1.0 + s->p.epsilon) * s->median[best] >= s->median[s->chosen])
        best = s->chosen;
    if (s->round == 1) {
        int m = round_candidates(s, s->median[best], 1.0 + s->p.margin / 2.0, slots_left(s));
        if (m > 0) {
            plan_round(s, s->order, m);
            return MPI_SUCCESS;
        }
    }
    settle(s, best);
    return MPI_SUCCESS;
}

/* A degraded choice: decide again among those that may now beat its recent median m. */
static void redecide(model_state *s, double m)
{
    int k = 0;
    for (int c = 0; c < s->n; c++) {
        if (c == s->chosen) continue;
        s->key[c] = s->median[c] >= 0.0 ? s->median[c] : predict(s, c);
        if (s->key[c] >= 0.0 && s->key[c] < m && pays_back(s, c, s->key[c], m, 1.0))
            s->order[k++] = c;
    }
    k = sort_order(s, k);
    int cap = s->p.budget / s->p.samples - 1;
    if (k > cap) k = cap;
    s->pick[0] = s->chosen;
    memcpy(s->pick + 1, s->order, (size_t)k * sizeof *s->pick);
    decide(s, s->pick, k + 1);
}

/* A refresh (see the top of this file): a decision among native and the candidates a first
 * decision would measure by the current fit, the chosen one standing on its window median m.
 * With nothing to measure (native chosen, no modelled candidate) the chosen one goes on. */
static void refresh(model_state *s, double m)
{
    int chosen = s->chosen, natives = chosen != 0;
    s->refreshes++;
    memset(s->tried, 0, (size_t)s->n);
    s->tried[chosen] = 1; /* not measured: its window stands for it */
    int k = own_candidates(s, natives);
    if (k + natives == 0) {
        s->refreshing = 1;
        settle(s, chosen);
        return;
    }
    s->pick[0] = 0;
    memcpy(s->pick + natives, s->order, (size_t)k * sizeof *s->pick);
    decide(s, s->pick, k + natives);
    s->tried[chosen] = 1;
    s->median[chosen] = m;
    s->median_samples[chosen] += WINDOW_MIN; /* a window is never shorter */
    s->refreshing = 1;
}

/* What a window's agreed calls t[0..k) (1 <= k <= WINDOW_MIN) show (ac_median leaves them
 * sorted in scratch). */
static window_stats window_stats_of(const double *t, int k, double *scratch)
{
    double median = ac_median(t, k, scratch);
    return (window_stats){scratch[0], median, scratch[k / 4], scratch[(3 * k) / 4]};
}

/* Whether candidate c's median is a decision's reading (fewer than WINDOW_MIN calls of this
 * run; not one known from history or a table). */
static int single_reading(const model_state *s, int c)
{
    return s->median[c] >= 0.0 && s->median_samples[c] > 0 && s->median_samples[c] < WINDOW_MIN;
}

/* The challenger after a noisy window w of the chosen one: the candidate with the lowest single
 * reading below w's upper quartile (a delay that large came in at least a quarter of the chosen
 * one's calls, so the reading may hide a faster candidate), or -1. */
static int challenger_of(const model_state *s, const window_stats *w)
{
    int best = -1;
    if (s->challenges >= s->p.challenges) return -1;
    for (int c = 0; c < s->n; c++)
        if (c != s->chosen && single_reading(s, c) && s->median[c] < w->q3 &&
            (best < 0 || s->median[c] < s->median[best]))
            best = c;
    return best;
}

static void start_challenge(model_state *s, int c, const window_stats *w)
{
    s->challenger = c;
    s->challenges++;
    s->defender = *w;
    s->resume = ac_monitor_next_window(&s->monitor);
    s->monitor.suspicious = 0;
    s->monitor.window = WINDOW_MIN;
}

/* The end of a challenge whose WINDOW_MIN calls showed w: the challenger is chosen when its
 * fastest call beats the defender's (under additive delays the fastest call is the best
 * estimate of a time; both from WINDOW_MIN calls), else the chosen one goes on with its window.
 * Either way both keep the median of WINDOW_MIN calls, no longer a single reading. */
static void end_challenge(model_state *s, const window_stats *w)
{
    int c = s->challenger, defender = s->chosen;
    s->challenger = -1;
    s->median[c] = w->median;
    s->median_samples[c] += WINDOW_MIN;
    s->median[defender] = s->defender.median;
    s->median_samples[defender] += WINDOW_MIN;
    if (w->fastest < s->defender.fastest) {
        settle(s, c);
    } else {
        s->monitor.window = s->resume;
    }
}

static int end_window(model_state *s, const ac_agreement *agree)
{
    int k;
    int rc = ac_monitor_agree(&s->monitor, agree, &k);
    s->agreements++;
    if (rc != 0) return stop(s, rc);
    window_stats w = window_stats_of(s->monitor.recent, k, s->scratch);
    double m = w.median, runner = -1.0;
    add_observation(s, s->challenger >= 0 ? s->challenger : s->chosen, m);
    if (s->challenger >= 0) {
        end_challenge(s, &w);
        return MPI_SUCCESS;
    }
    /* Noisy: the median call waited more than epsilon x m beyond the fastest, so a single
     * reading is more likely delayed than not. */
    int calm = m - w.fastest <= s->p.epsilon * m;
    int noisy = s->p.challenges > 0 && !calm;
    int c = noisy ? challenger_of(s, &w) : -1;
    if (c >= 0) {
        start_challenge(s, c, &w);
        return MPI_SUCCESS;
    }
    for (int c = 0; c < s->n; c++)
        if (c != s->chosen && s->median[c] >= 0.0 && !(noisy && single_reading(s, c)) &&
            (runner < 0.0 || s->median[c] < runner))
            runner = s->median[c];
    double margin = noisy ? (w.q3 - w.q1) / 2.0 : 0.0; /* a noisy median's own error */
    if (runner >= 0.0 && m > (1.0 + s->p.epsilon) * runner + margin) {
        if (ac_monitor_degraded(&s->monitor)) {
            redecide(s, m);
            return MPI_SUCCESS;
        }
    } else if (calm && ac_monitor_refresh_due(&s->monitor)) {
        refresh(s, m);
    } else {
        ac_monitor_calm(&s->monitor);
    }
    return MPI_SUCCESS;
}

static void model_destroy(void *state)
{
    model_state *s = state;
    if (!s) return;
    free(s->feat);
    free(s->has_model);
    free(s->group);
    free(s->reps);
    free(s->median);
    free(s->median_samples);
    free(s->tried);
    free(s->order);
    free(s->pick);
    free(s->key);
    free(s->mesh);
    free(s->lines);
    free(s->made);
    ac_plan_free(&s->plan);
    free(s);
}

/* Knowledge of native and of another candidate: settle on the best known at once. */
static int model_warm(model_state *s, const ac_knowledge *know)
{
    int others = 0, best = -1;
    for (int c = 1; c < s->n; c++) others += know[c].samples > 0 && know[c].seconds >= 0.0;
    if (!(know[0].samples > 0 && know[0].seconds >= 0.0) || others == 0) return 0;
    for (int c = 0; c < s->n; c++)
        if (know[c].samples > 0 && know[c].seconds >= 0.0) {
            s->median[c] = know[c].seconds;
            add_observation(s, c, know[c].seconds);
            if (best < 0 || s->median[c] < s->median[best]) best = c;
        }
    settle(s, best);
    return 1;
}

/* The attributes that split a registry group into the model's groups, by
 * AUTOCOLL_MODEL_GROUPS (AC_MODEL_GROUPS_* order). A formula's error is mostly its family's,
 * and a mesh's dimensionality is part of its family: the 2D and the 3D meshes of one group
 * share a formula whose error differs between them (a 3D mesh's lines are shorter and more),
 * so the group's best predicted member, a 2D mesh, stood for a 3D mesh that was truly faster
 * (allreduce and alltoall of 8 B at 8 a node, allgather of 8 B at 32 a node:
 * docs/results/model-groups-2026-11-28). */
static const struct {
    const char *const *keys;
    int n;
} group_split[] = {
    [AC_MODEL_GROUPS_REGISTRY] = {NULL, 0},
    [AC_MODEL_GROUPS_DIMS] = {(const char *const[]){"dims"}, 1},
};

static void *model_create(const ac_algorithm *const *candidates, int n,
                          const ac_knowledge *known, const ac_context_facts *facts)
{
    model_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->p = model_params;
    if (s->p.samples < 1) s->p.samples = 1;
    if (s->p.budget < 2 * s->p.samples) s->p.budget = 2 * s->p.samples;
    s->n = n;
    size_t un = (size_t)n;
    s->feat = calloc(un * AC_COST_PARAMS, sizeof *s->feat);
    s->has_model = calloc(un, 1);
    s->group = calloc(un, sizeof *s->group);
    s->reps = calloc(un, sizeof *s->reps);
    s->median = malloc(un * sizeof *s->median);
    s->median_samples = calloc(un, sizeof *s->median_samples);
    s->tried = calloc(un, 1);
    s->order = calloc(un, sizeof *s->order);
    s->pick = calloc(un, sizeof *s->pick);
    s->key = calloc(un, sizeof *s->key);
    s->mesh = malloc(un * sizeof *s->mesh);
    s->lines = calloc(un, 1);
    s->made = calloc(un, 1);
    int planned = ac_plan_init(&s->plan, n, s->p.samples);
    if (!s->feat || !s->has_model || !s->median || !s->median_samples || !s->tried || !s->order ||
        !s->pick || !s->key || !s->group || !s->reps || !s->mesh || !s->lines || !s->made ||
        planned != 0) {
        model_destroy(s);
        return NULL;
    }
    memcpy(s->platform, s->p.platform, sizeof s->platform);
    ac_candidate_families(candidates, n, group_split[s->p.groups].keys,
                          group_split[s->p.groups].n, s->group);
    ac_cost_shape shape = {.size = facts->size,
                           .nodes = facts->nodes > 0 ? facts->nodes : 1,
                           .ppn = facts->ppn > 0 ? facts->ppn : facts->size,
                           .bytes = (double)facts->bytes};
    for (int c = 0; c < n; c++) {
        s->median[c] = -1.0;
        s->has_model[c] =
            c > 0 && ac_cost_features(candidates[c], &shape, s->feat + c * AC_COST_PARAMS) == 0;
        s->lines[c] = (unsigned char)ac_mesh_lines(candidates[c]->params);
        s->mesh[c] = ac_mesh_first(candidates, c);
    }
    s->chosen = -1;
    s->challenger = -1;
    ac_monitor_init(&s->monitor, s->p.window_max, s->p.refresh);
    if (known && n > 1) s->warm = model_warm(s, known);
    if (s->warm) return s;
    if (n == 1) {
        settle(s, 0);
        return s;
    }
    decide_first(s, facts);
    return s;
}

static int model_choose(void *state)
{
    model_state *s = state;
    return s->stage == AC_MODEL_MEASURING ? ac_plan_current(&s->plan)
           : s->challenger >= 0           ? s->challenger
                                          : s->chosen;
}

static int model_step(model_state *s, int index, double seconds, const ac_agreement *agree)
{
    if (index != model_choose(s)) return MPI_ERR_ARG;
    if (!(seconds >= 0.0)) seconds = 0.0;
    if (s->stage == AC_MODEL_STOPPED) return MPI_SUCCESS;
    if (s->stage == AC_MODEL_MEASURING) {
        s->decide_calls++;
        if (s->first) s->first_calls++;
        return ac_plan_record(&s->plan, seconds) ? end_round(s, agree) : MPI_SUCCESS;
    }
    s->settled_calls++;
    if (s->n == 1) return MPI_SUCCESS; /* nothing to compare with */
    return ac_monitor_record(&s->monitor, seconds, WINDOW_MIN) ? end_window(s, agree)
                                                               : MPI_SUCCESS;
}

static int model_observe(void *state, int index, double seconds, const ac_agreement *agree,
                         int *deciding)
{
    model_state *s = state;
    int rc = model_step(s, index, seconds, agree);
    *deciding = s->stage == AC_MODEL_MEASURING;
    return rc;
}

void ac_model_get_stats(const void *state, ac_model_stats *out)
{
    const model_state *s = state;
    memset(out, 0, sizeof *out);
    out->stage = s->stage;
    out->chosen = s->chosen;
    out->first_calls = s->first_calls;
    out->decide_calls = s->decide_calls;
    out->settled_calls = s->settled_calls;
    out->decisions = s->decisions;
    out->switches = s->switches;
    out->challenges = s->challenges;
    out->refreshes = s->refreshes;
    out->agreements = s->agreements;
    for (int c = 0; c < s->n; c++) out->measured += s->median_samples[c] > 0;
    out->observations = (int)s->observations;
}

void ac_model_get_learned(const void *state, double *value, double *weight)
{
    const model_state *s = state;
    const double *platform = fitted(s);
    memcpy(value, platform, sizeof s->platform);
    for (int j = 0; j < AC_COST_PARAMS; j++) weight[j] = 0.0;
    for (int i = 0; i < s->nobs; i++) {
        const double *row = s->obs_rows + i * AC_COST_PARAMS;
        double total = 0.0;
        for (int j = 0; j < AC_COST_PARAMS; j++) total += row[j] * platform[j];
        if (!(total > 0.0)) continue;
        for (int j = 0; j < AC_COST_PARAMS; j++) weight[j] += row[j] * platform[j] / total;
    }
}

static const char *const stage_names[] = {
    [AC_MODEL_MEASURING] = "measuring",
    [AC_MODEL_SETTLED] = "settled",
    [AC_MODEL_STOPPED] = "stopped",
};

static void model_describe(const void *state, const ac_algorithm *const *candidates,
                           ac_strategy_summary *out, ac_json_writer *w)
{
    const model_state *s = state;
    ac_model_stats st;
    ac_model_get_stats(state, &st);
    *out = (ac_strategy_summary){
        .stage = stage_names[st.stage],
        .deciding = st.stage == AC_MODEL_MEASURING,
        .chosen = st.chosen,
        .decision_calls = st.chosen < 0 ? -1 : st.first_calls,
        .switches = st.switches,
        .warm = s->warm,
        .o_ms_c = st.chosen < 0 ? -1.0 : s->o_ms_c,
        .native_seconds = s->median[0],
    };
    if (!w) return;
    ac_json_integer_value(w, "decisions", st.decisions);
    ac_json_integer_value(w, "decide_calls", st.decide_calls);
    ac_json_integer_value(w, "settled_calls", st.settled_calls);
    ac_json_integer_value(w, "window", s->monitor.window);
    ac_json_integer_value(w, "challenges", st.challenges);
    ac_json_integer_value(w, "refreshes", st.refreshes);
    ac_json_integer_value(w, "agreements", st.agreements);
    ac_json_integer_value(w, "observations", st.observations);
    ac_json_real(w, "o_ms_c_seconds", out->o_ms_c);
    ac_json_object_begin(w, "platform");
    for (int j = 0; j < AC_COST_PARAMS; j++) ac_json_real(w, ac_cost_param_name(j), fitted(s)[j]);
    ac_json_object_end(w);
    ac_json_object_begin(w, "platform_prior");
    for (int j = 0; j < AC_COST_PARAMS; j++)
        ac_json_real(w, ac_cost_param_name(j), s->p.platform[j]);
    ac_json_object_end(w);
    ac_json_object_begin(w, "predicted");
    for (int c = 0; c < s->n; c++)
        if (s->has_model[c]) ac_json_real(w, candidates[c]->name, predict(s, c));
    ac_json_object_end(w);
    ac_json_object_begin(w, "medians");
    for (int c = 0; c < s->n; c++)
        if (s->median[c] >= 0.0) ac_json_real(w, candidates[c]->name, s->median[c]);
    ac_json_object_end(w);
}

static void model_save(const void *state, ac_knowledge *out)
{
    const model_state *s = state;
    for (int c = 0; c < s->n; c++) {
        out[c].seconds = s->median[c];
        out[c].var = 0.0;
        out[c].samples = s->median_samples[c];
    }
}

/* The settings of the platform parameters, in coll/cost.h's order. */
static const char *const platform_settings[AC_COST_PARAMS] = {
    [AC_COST_ALPHA_INTRA] = "AUTOCOLL_MODEL_ALPHA_INTRA",
    [AC_COST_BETA_INTRA] = "AUTOCOLL_MODEL_BETA_INTRA",
    [AC_COST_ALPHA_INTER] = "AUTOCOLL_MODEL_ALPHA_INTER",
    [AC_COST_BETA_INTER] = "AUTOCOLL_MODEL_BETA_INTER",
    [AC_COST_GAMMA] = "AUTOCOLL_MODEL_GAMMA",
    [AC_COST_OVERHEAD] = "AUTOCOLL_MODEL_OVERHEAD",
};

void ac_model_apply_stand_ins(void)
{
    int rules = ac_config_keyword("AUTOCOLL_MODEL_STAND_INS");
    if (rules == AC_MODEL_STAND_INS_AUTO) /* the build's mpi.h says whose it is */
#if defined(OMPI_MAJOR_VERSION) && !AUTOCOLL_SIMULATED
        rules = AC_MODEL_STAND_INS_TUNED;
#else
        rules = AC_MODEL_STAND_INS_MPICH;
#endif
    ac_cost_set_stand_ins(rules == AC_MODEL_STAND_INS_TUNED ? AC_STAND_INS_TUNED
                                                            : AC_STAND_INS_MPICH);
}

/* The parameters from the AUTOCOLL_MODEL_* settings (core/config.c checks them). */
static void model_configure(void)
{
    ac_model_apply_stand_ins();
    ac_model_params model = {
        .margin = ac_config_real("AUTOCOLL_MODEL_MARGIN"),
        .samples = (int)ac_config_int("AUTOCOLL_MODEL_SAMPLES"),
        .budget = (int)ac_config_int("AUTOCOLL_MODEL_BUDGET"),
        .epsilon = ac_config_real("AUTOCOLL_MODEL_EPSILON"),
        .window_max = (int)ac_config_int("AUTOCOLL_MODEL_WINDOW_MAX"),
        .challenges = (int)ac_config_int("AUTOCOLL_MODEL_CHALLENGES"),
        .refresh = (int)ac_config_int("AUTOCOLL_MODEL_REFRESH"),
        .prior_weight = ac_config_real("AUTOCOLL_MODEL_PRIOR_WEIGHT"),
        .group_range = ac_config_real("AUTOCOLL_MODEL_GROUP_RANGE"),
        .groups = ac_config_keyword("AUTOCOLL_MODEL_GROUPS"), /* AC_MODEL_GROUPS_* */
        .horizon = ac_config_real("AUTOCOLL_MODEL_HORIZON"),
    };
    for (int j = 0; j < AC_COST_PARAMS; j++)
        model.platform[j] = ac_config_real(platform_settings[j]);
    ac_model_set_params(&model);
}

/* The kind of the model's history line (history.h: ac_history_write_record): one a section,
 * without a key. */
static const ac_store_kind model_record = {"model", 0, NULL};

/* The platform parameters that history knows and the environment does not set become the
 * parameters new states start from (the same on every rank: the section is rank 0's,
 * broadcast). */
static void model_load_history(void)
{
    const char *names[AC_COST_PARAMS];
    ac_knowledge know[AC_COST_PARAMS] = {{0}};
    for (int j = 0; j < AC_COST_PARAMS; j++) names[j] = ac_cost_param_name(j);
    if (!ac_history_lookup_record(&model_record, "", names, AC_COST_PARAMS, know)) return;
    ac_model_params p;
    ac_model_get_params(&p);
    for (int j = 0; j < AC_COST_PARAMS; j++) {
        ac_setting_source source;
        const char *given;
        ac_setting_current(ac_setting_find(platform_settings[j]), &source, &given);
        if (know[j].samples > 0 && know[j].seconds > 0.0 && source != AC_SOURCE_ENVIRONMENT)
            p.platform[j] = know[j].seconds;
    }
    ac_model_set_params(&p);
}

void ac_model_write_learned(FILE *f, const double *value, const double *weight)
{
    const char *names[AC_COST_PARAMS];
    ac_knowledge know[AC_COST_PARAMS] = {{0}};
    for (int j = 0; j < AC_COST_PARAMS; j++) {
        names[j] = ac_cost_param_name(j);
        know[j].seconds = value[j];
        know[j].samples = weight[j] >= 0.5 ? (long)floor(weight[j] + 0.5) : 0;
    }
    ac_history_write_record(f, &model_record, "", names, AC_COST_PARAMS, know);
}

/* What a state learned of the platform, after its context's line (the file merges them all). */
static void model_write_history(const void *state, FILE *f)
{
    double value[AC_COST_PARAMS], weight[AC_COST_PARAMS];
    ac_model_get_learned(state, value, weight);
    ac_model_write_learned(f, value, weight);
}

static const char *const groups_names[] = {"registry", "dims", NULL}; /* AC_MODEL_GROUPS_* */
/* AC_MODEL_STAND_INS_* */
static const char *const stand_ins_names[] = {"auto", "mpich", "tuned", NULL};

/* The strategy's settings (strategy.h: `settings`), shown by autocoll-info and the settings
 * table of docs/guide.md among the others. */
static const ac_setting model_settings[] = {
    AC_DECLARE_REAL("AUTOCOLL_MODEL_MARGIN", "0.5", 0.0, 0.0, 0,
         "model: measure the candidates predicted within (1 + margin) x the best prediction, "
         "then those the refitted model predicts within (1 + margin / 2) x the best measured"),
    AC_DECLARE_REAL("AUTOCOLL_MODEL_GROUP_RANGE", "3", 0.0, 0.0, 0,
         "model: each round of a decision measures first the best predicted candidate of each "
         "group (AUTOCOLL_MODEL_GROUPS) not measured yet that is predicted within this many "
         "times the best prediction (round 1) or the best measured time (round 2); 0: the "
         "predictions alone"),
    AC_DECLARE_KEYWORD("AUTOCOLL_MODEL_GROUPS", "dims", groups_names,
         "model: the groups of AUTOCOLL_MODEL_GROUP_RANGE: the registry's (registry) or those "
         "split by the mesh dimensionality of their members (dims)"),
    AC_DECLARE_KEYWORD("AUTOCOLL_MODEL_STAND_INS", "auto", stand_ins_names,
         "model: the rules whose choice prices the library's own collective inside composed "
         "instances (an orthogonal native phase, a hierarchical phase): MPICH 4's defaults "
         "(mpich), Open MPI's coll/tuned fixed decisions (tuned; SimGrid's ompi selector "
         "copies them), or the build's MPI library's (auto: tuned for Open MPI, else mpich; "
         "autocoll simgrid sets it from the selector)"),
    AC_DECLARE_REAL("AUTOCOLL_MODEL_HORIZON", "300", 0.0, 0.0, 0,
         "model: calls a mesh's set-up (its line communicators, seen on a layout's first call) "
         "must pay back within: once a set-up has been seen, a layout whose mesh is not made "
         "yet is measured only when its prediction at the optimistic end of the round's margin "
         "plus its set-up / horizon beats the best measured time; 0: set-up ignored"),
    AC_DECLARE_INTEGER("AUTOCOLL_MODEL_SAMPLES", "2", 1, 50,
                       "model: calls of each measured candidate"),
    AC_DECLARE_INTEGER("AUTOCOLL_MODEL_BUDGET", "20", 2, 100000,
            "model: calls of one decision at most, native included"),
    AC_DECLARE_REAL("AUTOCOLL_MODEL_EPSILON", "0.05", 0.0, 0.0, 0,
         "model: the chosen one is degraded when its recent median exceeds (1 + epsilon) x the "
         "runner-up's; two degraded windows in a row start a new decision"),
    AC_DECLARE_INTEGER("AUTOCOLL_MODEL_WINDOW_MAX", "1024", 16, INT_MAX,
            "model: longest monitoring window (windows start at 16 calls and double)"),
    AC_DECLARE_INTEGER("AUTOCOLL_MODEL_CHALLENGES", "4", 0, 100000,
            "model: challenges per context at most: after a window of the chosen one whose "
            "median call waited more than EPSILON x its median beyond its fastest (noise), the "
            "candidate with the lowest one-call reading below that window's upper quartile "
            "runs 16 calls and is chosen if its fastest call beats the chosen one's; 0: off"),
    AC_DECLARE_INTEGER("AUTOCOLL_MODEL_REFRESH", "4096", 0, 1000000000,
            "model: settled calls before a refresh, a decision like the first (native, then "
            "what the current fit predicts best) against the chosen one's last window; the "
            "interval doubles, up to 64 x, while the choice holds; 0: never"),
    AC_DECLARE_REAL("AUTOCOLL_MODEL_ALPHA_INTRA", "1e-6", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: latency inside a node before any fit, seconds"),
    AC_DECLARE_REAL("AUTOCOLL_MODEL_BETA_INTRA", "1e-10", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: time per byte inside a node before any fit, seconds"),
    AC_DECLARE_REAL("AUTOCOLL_MODEL_ALPHA_INTER", "5e-6", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: latency between nodes before any fit, seconds"),
    AC_DECLARE_REAL("AUTOCOLL_MODEL_BETA_INTER", "1e-9", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: time per byte between nodes before any fit, seconds"),
    AC_DECLARE_REAL("AUTOCOLL_MODEL_GAMMA", "5e-10", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: time per byte of a local reduction before any fit, seconds"),
    AC_DECLARE_REAL("AUTOCOLL_MODEL_OVERHEAD", "5e-7", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: time a rank spends on each message (LogP's o) before any fit, seconds"),
    AC_DECLARE_REAL("AUTOCOLL_MODEL_PRIOR_WEIGHT", "0.1", 0.0, 0.0, 0,
         "model: how strongly a fit keeps the parameters near their defaults (relative to one "
         "observation); 0: the observations alone"),
};

const ac_strategy ac_strategy_model = {
    .name = "model",
    .settings = model_settings,
    .nsettings = sizeof model_settings / sizeof model_settings[0],
    .learns = 1,
    .uses_nodes = 1,
    .uses_suggestions = 1,
    .configure = model_configure,
    .record = &model_record,
    .load_history = model_load_history,
    .write_history = model_write_history,
    .create = model_create,
    .choose = model_choose,
    .observe = model_observe,
    .save = model_save,
    .describe = model_describe,
    .destroy = model_destroy,
};

/* The model-guided search in measured rounds (rounds.h): the model search of the ADCL requests
 * (AUTOCOLL_ADCL_SEARCH=model), a request's functions as candidates. Measure few candidates:
 * those the cost model cannot rule out. Every applicable candidate has a feature vector
 * (facts->features, AC_COST_PARAMS each, equal on every rank: its predicted time is
 * features . params), and the parameters start at facts->prior. Rounds of the rounds engine
 * (facts->samples calls of each candidate, ADCL's outlier filter, one agreement per round):
 *   round 1: the candidate predicted fastest, and for every structure (the set of parameters a
 *            candidate's time depends on) its predicted fastest, when predicted within
 *            (1 + margin) x the best prediction: one observation of every parameter that can
 *            matter.
 *   then:    the parameters are fitted to every agreed time so far (ac_cost_fit, drawn towards
 *            the prior by facts->prior_weight), every candidate is predicted again, and the
 *            next round measures the candidates not yet measured that are predicted within
 *            (1 + margin) x the best measured time, the best predicted first. When there is
 *            none, the fastest measured wins.
 * A candidate predicted best is always measured, so a prediction never wins by itself, and the
 * winner is the fastest agreed time. Without features every applicable candidate is measured
 * once, as brute force does. */
enum { MP = AC_COST_PARAMS };

typedef struct model_rounds_state {
    ac_rounds r;       /* first: ac_rounds_of */
    double *features;  /* features[f * MP + j]; NULL: no model */
    double prior[MP], params[MP];
    double prior_weight, margin;
    int round;         /* rounds measured so far */
} model_rounds_state;

static double mr_predict(const model_rounds_state *s, int f)
{
    double t = 0.0;
    for (int j = 0; j < MP; j++) t += s->features[f * MP + j] * s->params[j];
    return t;
}

/* The parameters a candidate's time depends on, as a bit mask: its structure. */
static unsigned mr_structure(const model_rounds_state *s, int f)
{
    unsigned mask = 0;
    for (int j = 0; j < MP; j++)
        if (s->features[f * MP + j] > 0.0) mask |= 1u << j;
    return mask;
}

/* Measures set[0..n) (none measured yet) next, with a model sorted by prediction (then
 * index). */
static void mr_measure(model_rounds_state *s, int *set, int n)
{
    for (int i = 1; i < n && s->features; i++)
        for (int j = i; j > 0 && mr_predict(s, set[j]) < mr_predict(s, set[j - 1]); j--) {
            int t = set[j];
            set[j] = set[j - 1];
            set[j - 1] = t;
        }
    ac_rounds_start_round(&s->r, set, n);
    s->round++;
}

/* The measured candidate with the smallest agreed time, or -1. */
static int mr_fastest_measured(const model_rounds_state *s)
{
    const ac_rounds *r = &s->r;
    int best = -1;
    for (int f = 0; f < r->n; f++)
        if (r->applicable[f] && r->agreed[f] >= 0 && (best < 0 || r->agreed[f] < r->agreed[best]))
            best = f;
    return best;
}

/* Refits the parameters to every agreed time; they stay as they are when nothing fits. */
static void mr_fit(model_rounds_state *s)
{
    const ac_rounds *r = &s->r;
    double *rows = malloc((size_t)r->n * MP * sizeof *rows);
    double *seconds = malloc((size_t)r->n * sizeof *seconds), out[MP];
    int k = 0;
    for (int f = 0; f < r->n && rows && seconds; f++) {
        if (!r->applicable[f] || r->agreed[f] < 0) continue;
        memcpy(&rows[k * MP], &s->features[f * MP], MP * sizeof *rows);
        seconds[k++] = r->agreed[f];
    }
    if (rows && seconds && ac_cost_fit(rows, seconds, k, s->prior, s->prior_weight, out) == 0)
        memcpy(s->params, out, sizeof out);
    free(rows);
    free(seconds);
}

/* Whether f is the best predicted candidate of its structure (the lower index on a tie). */
static int mr_structure_best(const model_rounds_state *s, int f)
{
    for (int g = 0; g < s->r.n; g++)
        if (g != f && s->r.applicable[g] && mr_structure(s, g) == mr_structure(s, f) &&
            (mr_predict(s, g) < mr_predict(s, f) ||
             (mr_predict(s, g) == mr_predict(s, f) && g < f)))
            return 0;
    return 1;
}

/* Whether an applicable candidate with f's feature vector was measured or comes before f:
 * measuring f would teach the model nothing new. */
static int mr_twin(const model_rounds_state *s, int f)
{
    for (int g = 0; g < s->r.n; g++)
        if (g != f && s->r.applicable[g] && (s->r.agreed[g] >= 0 || g < f) &&
            memcmp(&s->features[g * MP], &s->features[f * MP], MP * sizeof *s->features) == 0)
            return 1;
    return 0;
}

static void model_rounds_advance(void *state)
{
    model_rounds_state *s = state;
    ac_rounds *r = &s->r;
    int n = 0, best = -1;
    if (!s->features) { /* no model: every applicable candidate, once */
        for (int f = 0; f < r->n; f++)
            if (r->applicable[f] && r->agreed[f] < 0) r->set[n++] = f;
    } else if (s->round == 0) { /* the best predicted, and each structure's best near it */
        for (int f = 0; f < r->n; f++)
            if (r->applicable[f] && (best < 0 || mr_predict(s, f) < mr_predict(s, best))) best = f;
        r->set[n++] = best;
        for (int f = 0; f < r->n; f++)
            if (r->applicable[f] && mr_structure(s, f) != mr_structure(s, best) &&
                mr_predict(s, f) <= (1 + s->margin) * mr_predict(s, best) &&
                mr_structure_best(s, f))
                r->set[n++] = f;
    } else { /* what the refitted model cannot rule out against the best measured */
        mr_fit(s);
        double bound = (1 + s->margin) * r->agreed[mr_fastest_measured(s)];
        for (int f = 0; f < r->n; f++) /* first one of each feature vector not measured yet */
            if (r->applicable[f] && r->agreed[f] < 0 && mr_predict(s, f) <= bound &&
                !mr_twin(s, f))
                r->set[n++] = f;
        for (int f = 0; f < r->n && n == 0; f++) /* then the twins the model cannot separate */
            if (r->applicable[f] && r->agreed[f] < 0 && mr_predict(s, f) <= bound)
                r->set[n++] = f;
    }
    if (n)
        mr_measure(s, r->set, n);
    else
        ac_rounds_decide(r, mr_fastest_measured(s));
}

static void model_rounds_destroy(void *state)
{
    model_rounds_state *s = state;
    if (!s) return;
    ac_rounds_free(&s->r);
    free(s->features);
    free(s);
}

static void *model_rounds_create(const ac_algorithm *const *candidates, int n,
                                 const ac_knowledge *known, const ac_context_facts *facts)
{
    int decided;
    model_rounds_state *s =
        ac_rounds_new(sizeof *s, n, facts, facts->samples, facts->samples,
                      model_rounds_advance, &decided);
    (void)candidates;
    if (!s) return NULL;
    if (facts->prior) memcpy(s->prior, facts->prior, sizeof s->prior);
    memcpy(s->params, s->prior, sizeof s->params);
    s->prior_weight = facts->prior_weight;
    s->margin = facts->margin;
    if (!decided) {
        if (facts->features && facts->nfeatures == MP) {
            s->features = malloc((size_t)n * MP * sizeof *s->features);
            if (!s->features) {
                ac_rounds_destroy(s);
                return NULL;
            }
            memcpy(s->features, facts->features, (size_t)n * MP * sizeof *s->features);
        }
        model_rounds_advance(s);
    }
    ac_rounds_warm(&s->r, known);
    return s;
}

const ac_strategy ac_strategy_model_rounds = {
    .name = "model",
    .learns = 1,
    .create = model_rounds_create,
    .choose = ac_rounds_choose,
    .observe = ac_rounds_observe,
    .save = ac_rounds_save,
    .describe = ac_rounds_describe,
    .destroy = model_rounds_destroy,
};
