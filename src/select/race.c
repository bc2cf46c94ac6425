/*
 * race.c - the `race` strategy: autocoll's own run-time selection (see race.h).
 *
 * Why not STAR-MPI's rules. Measured on this project's 2-core machine (docs/star.md), STAR's
 * Measure_Select spends ITER = 10 calls on every candidate however slow it is, which is most
 * of its learning cost, and its Monitor_Adapt compares a window's mean with the second best's
 * best-of-ITER: different statistics, so one noisy window makes it switch to an algorithm that
 * is not faster. `race` spends few calls on clearly slow candidates and compares medians with
 * medians.
 *
 * The race. Every candidate in the race runs `samples` consecutive calls per round (in
 * candidate order; consecutive so each runs as it would once chosen, with its buffers warm);
 * the local time of each call is kept. At the end of the round ONE agreement of those times:
 * value [k * samples + j] is call j of the k-th racing candidate, the maximum over the ranks
 * (the slowest rank is the collective's time for that call). Each candidate's statistic is the
 * median of all its agreed calls in this race (a median ignores the one cold first call, and a
 * lucky one). With best = the smallest median (ties: the lower candidate index, so native wins
 * ties), a candidate leaves the race when
 *   - even its fastest call is slower than best's median (it is slower beyond the noise: the
 *     rule adapts to the noise of the machine), or
 *   - its median > (1 + margin_r) x best's, margin_r = margin / 2^(r-1) for round r = 1, 2, ...
 *     (clearly slower even where the noise is wide).
 * A candidate twice as slow leaves after `samples` calls (STAR: ITER), close ones are measured
 * further. The race ends when one candidate is left
 * or after `rounds` rounds, or once every candidate left is within epsilon / 2 of the best
 * (from round 2 on: they are equivalent); the best median wins.
 *
 * Grouping (on by default; STAR-MPI's enhanced AEOS idea, with a margin). When the candidates
 * form more than one group and fewer groups than candidates, round 1 of a race of all
 * candidates (the first one, and refreshes) runs one representative per registry group (its
 * first candidate); the groups whose representative stays in the race join round 2 with all
 * their members (in round 1 only the margin rule applies: a representative stands for its
 * group, whose other members may be faster). STAR keeps only the single best group, so one noisy measurement of a
 * representative can lose the best algorithm for good; here every group within the margin goes
 * on.
 *
 * The final (AUTOCOLL_RACE_FINAL calls per finalist; default 0: none, see docs/race.md). A
 * race's best median is biased low: of many noisy candidates the one measured in a lucky
 * phase looks best (the winner's curse). So when the race's best is not native, it does not
 * win yet: the best, the runner-up (the best median of the other candidates measured in this race, eliminated or not:
 * the best's lucky calls may have eliminated it) and native (the library's choice, the safe
 * default) run `final` fresh calls each, in candidate order, each finalist's calls consecutive
 * as in the rounds. (Not interleaved call by call: a call's time depends on the skew the previous
 * call left between the ranks, and for a collective that does not synchronise them, bcast of
 * 1 KiB on the emulated cluster, interleaving measured native at 1.2 ms where its consecutive
 * calls take 75 us.) ONE agreement of the final's times (maximum over the ranks per call); the
 * smallest median of the final wins (ties: the lower candidate index, native first), and the
 * final's medians replace the race's for the finalists. A race whose best is native ends at
 * once: keeping the library's choice needs no confirmation.
 *
 * The monitor. The winner runs; windows of W calls, W = 16 at first, doubling up to window_max.
 * At the end of a window ONE agreement of the local times of its last K calls (K = 3 x samples,
 * at most 16; per call, the maximum over the ranks, as in the race), and m = their median: the
 * same statistic as the race's. The runner-up is the smallest race median of the other
 * candidates. When m > (1 + epsilon) x runner-up the window is degraded: the first degraded
 * window shortens W to 16 (look again soon: a one-window transient changes nothing); a second
 * degraded window in a row starts a race among the winner and every candidate whose last median
 * is below m (those that may now beat it), with fresh samples. A window that is not degraded
 * doubles W. Every decision depends only on call counts and agreed values (invariant 1).
 *
 * Refresh. The monitor cannot see a candidate get faster (after a transient that slowed it
 * ends, say), so after `refresh` settled calls the whole candidate list races again; when the
 * refresh race keeps the choice, the next interval doubles (up to 64 x refresh), otherwise it is
 * `refresh` again. refresh = 0: never.
 *
 * Warm start (history.h). When the history file knows what the first race would measure
 * (ac_knowledge_best), the state settles at the first call on the best known candidate, the
 * known medians standing for the race's; no race runs until the monitor or the refresh asks for
 * one. If members of that candidate's group were never measured, the first race runs among it
 * and them only. save() gives each candidate's last median with the calls of this run behind it.
 *
 * Failure. If an agreement fails, observe() returns its error and the state stops: native
 * (candidate 0) from then on, without further agreements. observe() for a candidate other
 * than the one choose() returned is refused with MPI_ERR_ARG and changes nothing. A negative or
 * NaN local time counts as 0. With one candidate nothing is measured or agreed.
 */
#include "select/race.h"
#include "core/config.h"
#include "select/monitor.h"
#include "select/plan.h"
#include "select/rounds.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { RACE_FIRST, RACE_DEGRADED, RACE_REFRESH };

typedef struct race_state {
    ac_race_params p;
    int n;
    int stage;
    int chosen;
    /* The race in progress (or the last one). */
    int kind;               /* RACE_* */
    int round;              /* rounds finished */
    int *group;             /* group number of each candidate, by first occurrence */
    int grouping;           /* grouping in effect (see above) */
    int representatives;    /* the race's round 1 runs representatives only */
    unsigned char *racing;  /* per candidate: still in the race */
    ac_plan plan;           /* this round's candidates, in candidate order (plan.h) */
    double *samples;        /* agreed times of this race, [c * cap + i] */
    int *nsamples;          /* per candidate */
    int cap;                /* samples x rounds */
    double *median;         /* last race median of each candidate; < 0: never measured */
    int *median_samples;    /* agreed calls behind median[] measured in this run (0: none) */
    double *scratch;        /* for medians */
    /* The final (race_params.final > 0). */
    int in_final;
    int finalist[AC_RACE_FINALISTS]; /* candidate indices, increasing */
    int nfinal, final_pos;           /* finalists; calls of the final so far */
    int race_best;                   /* the race's best, which the final confirms or overturns */
    double *final_times;             /* [call], call i ran finalist[i / final] */
    int finals, overturned;
    ac_monitor monitor; /* of the winner (monitor.h) */
    /* Accounting. */
    long first_race_calls, race_calls, settled_calls;
    double first_sum; /* agreed seconds of the first race */
    long first_count;
    double o_ms_c;
    int races, switches, agreements;
    int warm; /* started from knowledge given to create() */
} race_state;

static ac_race_params race_params;

void ac_race_set_params(const ac_race_params *p)
{
    race_params = *p;
}

void ac_race_get_params(ac_race_params *out)
{
    *out = race_params;
}

/* The fastest agreed call of candidate c in this race. */
static double fastest(const race_state *s, int c)
{
    const double *v = s->samples + (size_t)c * (size_t)s->cap;
    double m = v[0];
    for (int i = 1; i < s->nsamples[c]; i++)
        if (v[i] < m) m = v[i];
    return m;
}

static int recent_len(const race_state *s)
{
    int k = 3 * s->p.samples;
    return k > AC_MONITOR_WINDOW_MIN ? AC_MONITOR_WINDOW_MIN : k;
}

static void plan_round(race_state *s)
{
    ac_plan_clear(&s->plan);
    for (int c = 0; c < s->n; c++)
        if (s->racing[c]) ac_plan_add(&s->plan, c);
    ac_plan_start(&s->plan);
}

/* Start a race among the candidates marked in s->racing. A race of all candidates under
 * grouping starts with the representatives: candidate c is the first of its group when its
 * group number is the count of groups seen before it. */
static void race_start(race_state *s, int kind, int representatives)
{
    s->stage = AC_RACE_RACING;
    s->kind = kind;
    s->round = 0;
    s->races++;
    s->representatives = representatives;
    for (int c = 0, groups = 0; c < s->n; c++) {
        if (s->representatives) {
            s->racing[c] = s->group[c] == groups;
            groups += s->racing[c];
        }
        s->nsamples[c] = 0; /* samples of this race only (the final appends to them) */
    }
    plan_round(s);
}

static void settle(race_state *s, int winner)
{
    if (s->kind == RACE_REFRESH) ac_monitor_refreshed(&s->monitor, winner == s->chosen);
    if (s->chosen >= 0 && winner != s->chosen) s->switches++;
    if (s->kind == RACE_FIRST) {
        int k = s->nsamples[winner];
        double sum = 0.0;
        for (int i = 0; i < k; i++) sum += s->samples[(size_t)winner * (size_t)s->cap + (size_t)i];
        s->o_ms_c = s->first_sum - (double)s->first_count * (sum / k);
    }
    s->stage = AC_RACE_SETTLED;
    s->chosen = winner;
    ac_monitor_settle(&s->monitor);
}

static int stop(race_state *s, int rc)
{
    s->stage = AC_RACE_STOPPED;
    s->chosen = 0;
    return rc;
}

/* Appends k agreed times of candidate c to its samples of this race (and to the first race's
 * sums); returns where they went. */
static double *append_samples(race_state *s, int c, const double *times, int k)
{
    double *dst = s->samples + (size_t)c * (size_t)s->cap + (size_t)s->nsamples[c];
    memcpy(dst, times, (size_t)k * sizeof *dst);
    if (s->kind == RACE_FIRST) {
        for (int j = 0; j < k; j++) s->first_sum += dst[j];
        s->first_count += k;
    }
    s->nsamples[c] += k;
    return dst;
}

/* The race has a best: native wins at once, another one goes to the final (see above). */
static void finish(race_state *s, int best)
{
    if (best == 0 || s->p.final == 0) {
        settle(s, best);
        return;
    }
    int runner = -1;
    for (int c = 1; c < s->n; c++)
        if (c != best && s->nsamples[c] > 0 && (runner < 0 || s->median[c] < s->median[runner]))
            runner = c;
    s->nfinal = 0;
    for (int c = 0; c < s->n; c++)
        if (c == 0 || c == best || c == runner) s->finalist[s->nfinal++] = c;
    s->in_final = 1;
    s->final_pos = 0;
    s->race_best = best;
    s->finals++;
}

/* The end of the final: agree, the finalists' medians from its calls only, the best wins. */
static int end_final(race_state *s, const ac_agreement *agree)
{
    int f = s->p.final, total = s->nfinal * f, winner = -1;
    int rc = agree->max(agree->ctx, s->final_times, total);
    s->agreements++;
    s->in_final = 0;
    if (rc != 0) return stop(s, rc);
    for (int i = 0; i < s->nfinal; i++) {
        int c = s->finalist[i];
        double *dst = append_samples(s, c, s->final_times + (size_t)i * (size_t)f, f);
        s->median[c] = ac_median(dst, f, s->scratch);
        s->median_samples[c] = f;
        if (winner < 0 || s->median[c] < s->median[winner]) winner = c;
    }
    s->overturned += winner != s->race_best;
    settle(s, winner);
    return MPI_SUCCESS;
}

/* The end of a round: agree, update the medians, drop the clearly slower, maybe finish. */
static int end_round(race_state *s, const ac_agreement *agree)
{
    int k = s->p.samples, best = -1, alive = 0;
    int rc = ac_plan_agree(&s->plan, agree);
    s->agreements++;
    if (rc != 0) return stop(s, rc);
    s->round++;

    for (int i = 0; i < s->plan.len; i++) {
        int c = s->plan.cand[i];
        append_samples(s, c, ac_plan_times(&s->plan, i), k);
        s->median[c] = ac_median(s->samples + (size_t)c * (size_t)s->cap, s->nsamples[c],
                                 s->scratch);
        s->median_samples[c] = s->nsamples[c];
        if (best < 0 || s->median[c] < s->median[best]) best = c;
    }

    double limit = (1.0 + s->p.margin / (double)(1 << (s->round - 1))) * s->median[best];
    double tie = (1.0 + s->p.epsilon / 2.0) * s->median[best];
    int ties = 1;
    for (int i = 0; i < s->plan.len; i++) {
        int c = s->plan.cand[i];
        /* a representative stands for its group: the margin alone decides */
        if (s->median[c] > limit || (!s->representatives && fastest(s, c) > s->median[best]))
            s->racing[c] = 0;
        if (s->racing[c] && s->median[c] > tie) ties = 0;
    }
    if (s->representatives) {
        /* the groups of the representatives left join with all their members */
        s->representatives = 0;
        for (int c = 0; c < s->n; c++)
            if (!s->racing[c])
                for (int i = 0; i < s->plan.len; i++)
                    if (s->racing[s->plan.cand[i]] &&
                        s->group[s->plan.cand[i]] == s->group[c]) {
                        s->racing[c] = 1;
                        s->nsamples[c] = 0;
                        ties = 0;
                    }
    }
    for (int c = 0; c < s->n; c++) alive += s->racing[c];
    if (alive == 1 || s->round == s->p.rounds || (s->round >= 2 && ties))
        finish(s, best);
    else
        plan_round(s);
    return MPI_SUCCESS;
}

/* The end of a monitoring window. */
static int end_window(race_state *s, const ac_agreement *agree)
{
    int k;
    int rc = ac_monitor_agree(&s->monitor, agree, &k);
    s->agreements++;
    if (rc != 0) return stop(s, rc);
    double m = ac_median(s->monitor.recent, k, s->scratch), runner = -1.0;
    for (int c = 0; c < s->n; c++)
        if (c != s->chosen && s->median[c] >= 0.0 && (runner < 0.0 || s->median[c] < runner))
            runner = s->median[c];

    if (runner >= 0.0 && m > (1.0 + s->p.epsilon) * runner) {
        if (ac_monitor_degraded(&s->monitor)) {
            for (int c = 0; c < s->n; c++)
                s->racing[c] = c == s->chosen || (s->median[c] >= 0.0 && s->median[c] < m);
            race_start(s, RACE_DEGRADED, 0);
            return MPI_SUCCESS;
        }
    } else {
        ac_monitor_calm(&s->monitor);
    }
    if (ac_monitor_refresh_due(&s->monitor)) {
        memset(s->racing, 1, (size_t)s->n);
        race_start(s, RACE_REFRESH, s->grouping);
    }
    return MPI_SUCCESS;
}

static void race_destroy(void *state)
{
    race_state *s = state;
    if (!s) return;
    free(s->racing);
    free(s->group);
    ac_plan_free(&s->plan);
    free(s->samples);
    free(s->nsamples);
    free(s->median);
    free(s->median_samples);
    free(s->scratch);
    free(s->final_times);
    free(s);
}

static void *race_create_cold(const ac_algorithm *const *candidates, int n)
{
    race_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->p = race_params;
    s->n = n;
    s->cap = s->p.samples * s->p.rounds + s->p.final;
    size_t un = (size_t)n, cap = (size_t)s->cap;
    s->racing = calloc(un, 1);
    s->group = calloc(un, sizeof *s->group);
    int planned = ac_plan_init(&s->plan, n, s->p.samples);
    s->samples = calloc(un * cap, sizeof *s->samples);
    s->nsamples = calloc(un, sizeof *s->nsamples);
    s->median = malloc(un * sizeof *s->median);
    s->median_samples = calloc(un, sizeof *s->median_samples);
    s->scratch =
        calloc(cap > AC_MONITOR_WINDOW_MIN ? cap : AC_MONITOR_WINDOW_MIN, sizeof *s->scratch);
    s->final_times = calloc((size_t)(AC_RACE_FINALISTS * s->p.final + 1), sizeof *s->final_times);
    if (!s->racing || !s->group || planned != 0 || !s->samples || !s->nsamples || !s->median ||
        !s->median_samples || !s->scratch || !s->final_times) {
        race_destroy(s);
        return NULL;
    }
    int ngroups = ac_candidate_groups(candidates, n, s->group);
    for (int c = 0; c < n; c++) s->median[c] = -1.0;
    s->grouping = s->p.grouping && ngroups > 1 && ngroups < n;
    s->chosen = -1;
    ac_monitor_init(&s->monitor, s->p.window_max, s->p.refresh);
    if (n == 1) {
        s->kind = RACE_FIRST;
        settle(s, 0);
        return s;
    }
    memset(s->racing, 1, un);
    race_start(s, RACE_FIRST, s->grouping);
    return s;
}

static int race_choose(void *state)
{
    race_state *s = state;
    if (s->stage != AC_RACE_RACING) return s->chosen;
    return s->in_final ? s->finalist[s->final_pos / s->p.final] : ac_plan_current(&s->plan);
}

static int race_step(void *state, int index, double seconds, const ac_agreement *agree)
{
    race_state *s = state;
    if (index != race_choose(s)) return MPI_ERR_ARG;
    if (!(seconds >= 0.0)) seconds = 0.0;
    if (s->stage == AC_RACE_STOPPED) return MPI_SUCCESS;

    if (s->stage == AC_RACE_RACING) {
        s->race_calls++;
        if (s->kind == RACE_FIRST) s->first_race_calls++;
        if (s->in_final) {
            s->final_times[s->final_pos++] = seconds;
            return s->final_pos == s->nfinal * s->p.final ? end_final(s, agree) : MPI_SUCCESS;
        }
        return ac_plan_record(&s->plan, seconds) ? end_round(s, agree) : MPI_SUCCESS;
    }

    s->settled_calls++;
    if (s->n == 1) return MPI_SUCCESS; /* nothing to compare with */
    return ac_monitor_record(&s->monitor, seconds, recent_len(s)) ? end_window(s, agree)
                                                                  : MPI_SUCCESS;
}

static int race_deciding(const void *state)
{
    const race_state *s = state;
    return s->stage == AC_RACE_RACING;
}

/* Native is candidate 0; every race's first round measures it except a degraded-window race
 * it was too slow to join, which keeps its older median. */
static double race_native_seconds(const void *state)
{
    const race_state *s = state;
    return s->median[0];
}

double ac_race_median(const void *state, int index)
{
    const race_state *s = state;
    return index >= 0 && index < s->n ? s->median[index] : -1.0;
}

void ac_race_get_stats(const void *state, ac_race_stats *out)
{
    const race_state *s = state;
    memset(out, 0, sizeof *out);
    out->stage = s->stage;
    out->chosen = s->chosen;
    out->round = s->round;
    for (int c = 0; c < s->n; c++) out->alive += s->racing[c];
    out->first_race_calls = s->first_race_calls;
    out->race_calls = s->race_calls;
    out->settled_calls = s->settled_calls;
    out->races = s->races;
    out->switches = s->switches;
    out->window = s->monitor.window;
    out->agreements = s->agreements;
    out->o_ms_c = s->chosen >= 0 ? s->o_ms_c : 0.0;
    out->finals = s->finals;
    out->overturned = s->overturned;
    out->final_calls = s->in_final ? s->final_pos : 0;
}

static const char *const stage_names[] = {
    [AC_RACE_RACING] = "racing",
    [AC_RACE_SETTLED] = "settled",
    [AC_RACE_STOPPED] = "stopped",
};

static void race_describe(const void *state, const ac_algorithm *const *candidates,
                          ac_strategy_summary *out, ac_json_writer *w)
{
    const race_state *s = state;
    ac_race_stats st;
    ac_race_get_stats(state, &st);
    *out = (ac_strategy_summary){
        .stage = stage_names[st.stage],
        .deciding = race_deciding(s),
        .chosen = st.chosen,
        .decision_calls = st.chosen >= 0 || s->n == 1 ? st.first_race_calls : -1,
        .switches = st.switches,
        .warm = s->warm,
        .o_ms_c = st.chosen >= 0 ? st.o_ms_c : -1.0,
        .native_seconds = race_native_seconds(s),
    };
    if (!w) return;
    ac_json_integer_value(w, "races", st.races);
    ac_json_integer_value(w, "race_calls", st.race_calls);
    ac_json_integer_value(w, "settled_calls", st.settled_calls);
    ac_json_integer_value(w, "round", st.round);
    ac_json_integer_value(w, "racing", st.alive);
    ac_json_integer_value(w, "window", st.window);
    ac_json_integer_value(w, "agreements", st.agreements);
    ac_json_real(w, "o_ms_c_seconds", st.o_ms_c);
    ac_json_integer_value(w, "finals", st.finals);
    ac_json_integer_value(w, "overturned", st.overturned);
    ac_json_object_begin(w, "medians");
    for (int c = 0; c < s->n; c++)
        if (s->median[c] >= 0.0) ac_json_real(w, candidates[c]->name, s->median[c]);
    ac_json_object_end(w);
}

static void race_save(const void *state, ac_knowledge *out)
{
    const race_state *s = state;
    for (int c = 0; c < s->n; c++) {
        out[c].seconds = s->median[c];
        out[c].var = 0.0;
        out[c].samples = s->median_samples[c];
    }
}

/* A warm start settles at once on the best known candidate when history knows what the first
 * race would have measured (ac_knowledge_best); the known medians are the monitor's runner-ups
 * and the refresh race measures everything again in due time. When members of the best one's
 * group were never measured, the first race is run among the best and them only (no
 * representatives round). Otherwise the first race runs as from a cold start. */
static int race_warm(void *state, const ac_knowledge *know)
{
    race_state *s = state;
    if (s->n < 2 || s->stage != AC_RACE_RACING || s->races != 1 || s->race_calls > 0) return 0;
    int unknown, best = ac_knowledge_best(know, s->n, s->grouping ? s->group : NULL, &unknown);
    if (best < 0) return 0;
    for (int c = 0; c < s->n; c++)
        if (know[c].samples > 0) s->median[c] = know[c].seconds;
    s->races = 0;
    if (unknown > 0) {
        for (int c = 0; c < s->n; c++)
            s->racing[c] = c == best || (s->group[c] == s->group[best] && know[c].samples <= 0);
        race_start(s, RACE_FIRST, 0);
        return 1;
    }
    memset(s->racing, 0, (size_t)s->n);
    s->kind = RACE_DEGRADED; /* neither the first race (O_MS^c) nor a refresh */
    settle(s, best);
    return 1;
}

static void *race_create(const ac_algorithm *const *candidates, int n,
                         const ac_knowledge *known, const ac_context_facts *facts)
{
    (void)facts;
    race_state *s = race_create_cold(candidates, n);
    if (s && known) s->warm = race_warm(s, known);
    return s;
}

static int race_observe(void *state, int index, double seconds, const ac_agreement *agree,
                        int *deciding)
{
    int rc = race_step(state, index, seconds, agree);
    *deciding = race_deciding(state);
    return rc;
}

/* The parameters from the AUTOCOLL_RACE_* settings (core/config.c checks them). */
static void race_configure(void)
{
    ac_race_params race = {
        .samples = (int)ac_config_int("AUTOCOLL_RACE_SAMPLES"),
        .rounds = (int)ac_config_int("AUTOCOLL_RACE_ROUNDS"),
        .margin = ac_config_real("AUTOCOLL_RACE_MARGIN"),
        .epsilon = ac_config_real("AUTOCOLL_RACE_EPSILON"),
        .window_max = (int)ac_config_int("AUTOCOLL_RACE_WINDOW_MAX"),
        .refresh = ac_config_int("AUTOCOLL_RACE_REFRESH"),
        .grouping = ac_config_switch("AUTOCOLL_RACE_GROUPING"),
        .final = (int)ac_config_int("AUTOCOLL_RACE_FINAL"),
    };
    ac_race_set_params(&race);
}

/* The strategy's settings (strategy.h: `settings`), shown by autocoll-info and the settings
 * table of docs/guide.md among the others. */
static const ac_setting race_settings[] = {
    AC_DECLARE_INTEGER("AUTOCOLL_RACE_SAMPLES", "3", 1, 50,
                       "race: calls of each candidate per round"),
    AC_DECLARE_INTEGER("AUTOCOLL_RACE_ROUNDS", "4", 1, 20,
            "race: rounds at most; the best median after the last one wins"),
    AC_DECLARE_REAL("AUTOCOLL_RACE_MARGIN", "0.5", 0.0, 0.0, 0,
         "race: after round 1 a candidate slower than (1 + margin) x the best median drops "
         "out; the margin halves every round"),
    AC_DECLARE_REAL("AUTOCOLL_RACE_EPSILON", "0.05", 0.0, 0.0, 0,
         "race: the chosen one is degraded when its recent median exceeds (1 + epsilon) x the "
         "runner-up's; two degraded windows in a row start a new race"),
    AC_DECLARE_INTEGER("AUTOCOLL_RACE_WINDOW_MAX", "1024", 16, INT_MAX,
            "race: longest monitoring window (windows start at 16 calls and double)"),
    AC_DECLARE_INTEGER("AUTOCOLL_RACE_REFRESH", "4096", 0, 1000000000,
            "race: settled calls before every candidate races again (doubles while the choice "
            "holds); 0: never"),
    AC_DECLARE_SWITCH("AUTOCOLL_RACE_GROUPING", "on",
           "race: round 1 runs one algorithm per group, and every group whose representative "
           "stays in the race joins round 2"),
    AC_DECLARE_SWITCH("AUTOCOLL_RACE_COMPOSED", "on",
           "nonblocking races: one instance of each composed family (hierarchical, orthogonal, "
           "Rabenseifner, ...) races too, then the winning family's instances"),
    /* default 0, no final: no measured gain on the emulated cluster (docs/race.md) */
    AC_DECLARE_INTEGER("AUTOCOLL_RACE_FINAL", "0", 0, 100,
            "race: when a race's best is not native, it, the runner-up and native run n fresh "
            "calls each, and the best median of those wins; 0: no final"),
};

const ac_strategy ac_strategy_race = {
    .name = "race",
    .settings = race_settings,
    .nsettings = sizeof race_settings / sizeof race_settings[0],
    .learns = 1,
    .configure = race_configure,
    .create = race_create,
    .choose = race_choose,
    .observe = race_observe,
    .save = race_save,
    .describe = race_describe,
    .destroy = race_destroy,
};

/* The race in measured rounds (rounds.h): the race of the ADCL requests' searches
 * (AUTOCOLL_ADCL_SEARCH=race), a request's functions as candidates. Its rounds are those of the
 * rounds engine (each rank's outlier-filtered mean per candidate, one agreement per round)
 * rather than the per-call medians above, and it settles for good: every alive candidate runs
 * facts->samples more calls per round; after a round, those slower than (1 + margin) x the
 * fastest agreed value drop out, and the margin halves. The fastest wins when one is left or
 * after facts->rounds rounds. A candidate's value covers all its measurements so far. */
typedef struct race_rounds_state {
    ac_rounds r; /* first: ac_rounds_of */
    int samples, rounds, round;
    double margin;
} race_rounds_state;

static void race_rounds_advance(void *state)
{
    race_rounds_state *s = state;
    ac_rounds *r = &s->r;
    int n = 0;
    if (s->round > 0) { /* a round is over: drop the clearly slower */
        for (int f = 0; f < r->n; f++)
            if (r->alive[f]) r->set[n++] = f;
        int best = ac_rounds_fastest(r, r->set, n);
        for (int i = 0; i < n; i++)
            if (r->agreed[r->set[i]] > (1 + s->margin) * r->agreed[best])
                r->alive[r->set[i]] = 0;
        s->margin /= 2;
        n = 0;
    }
    for (int f = 0; f < r->n; f++)
        if (r->alive[f]) r->set[n++] = f;
    if (n == 1 || s->round == s->rounds) {
        int best = ac_rounds_fastest(r, r->set, n);
        ac_rounds_decide(r, best >= 0 ? best : r->set[0]);
        return;
    }
    s->round++;
    r->target = s->samples * s->round;
    memcpy(r->round, r->set, (size_t)n * sizeof *r->round); /* measured again, every one */
    r->nround = n;
    r->pos = 0;
    r->current = r->round[0];
}

static void *race_rounds_create(const ac_algorithm *const *candidates, int n,
                                const ac_knowledge *known, const ac_context_facts *facts)
{
    int decided;
    race_rounds_state *s = ac_rounds_new(sizeof *s, n, facts, facts->samples * facts->rounds,
                                         facts->samples, race_rounds_advance, &decided);
    (void)candidates;
    if (!s) return NULL;
    s->samples = facts->samples;
    s->rounds = facts->rounds;
    s->margin = facts->margin;
    if (!decided) race_rounds_advance(s);
    ac_rounds_warm(&s->r, known);
    return s;
}

const ac_strategy ac_strategy_race_rounds = {
    .name = "race",
    .learns = 1,
    .create = race_rounds_create,
    .choose = ac_rounds_choose,
    .observe = ac_rounds_observe,
    .save = ac_rounds_save,
    .describe = ac_rounds_describe,
    .destroy = ac_rounds_destroy,
};
