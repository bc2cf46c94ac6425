/*
 * star.c - the `star` strategy: the dynamic AEOS algorithm of STAR-MPI (Faraj, Yuan, Lowenthal,
 * "STAR-MPI: self tuned adaptive routines for MPI collective operations", ICS 2006;
 * ../shared/seeds/000_f55c59541f7c85ce.txt), as a state machine over one context's candidates.
 * It makes no MPI call: the collective steps go through the ac_agreement callback, which every
 * rank reaches at the same call because every decision below depends only on call counters and
 * agreed values (invariant 1). choose() never looks at a local time.
 *
 * Measure_Select (section 3.2, Figure 2 lines 7-18). Candidates run in candidate order, each
 * ITER consecutive calls; the local time of every call is kept. After the last call, ONE
 * agreement of all those times (Dist_Time, line 17): value [k * ITER + j] is the time of call j
 * of the k-th measured candidate, combined as the maximum over the ranks (the slowest rank is
 * the collective's time for that call). A candidate's time is the best (minimum) of its ITER
 * agreed calls (line 44: "selected based on the best performance measured"); the candidates
 * are kept sorted by that time (Sort_Alg, line 18, ties by candidate index) and the first is
 * chosen. The agreed mean of the ITER calls is kept too, for O_MS^c.
 *
 * Monitor_Adapt (section 3.2, lines 19-38). The chosen candidate runs; the window is
 * delta * ITER calls, delta starting at delta_init (the paper: 2). Each call adds its local time
 * to total[0], and the last ITER calls of the window also to total[1] (line 24:
 * delta * ITER - monitor <= ITER, monitor counting the calls before this one). At the end of the
 * window ONE agreement of the two sums (line 28; maximum over ranks), ave[0] = total[0] / window
 * and ave[1] = total[1] / ITER, compared with T = (1 + epsilon) * time of the second best (the
 * best candidate other than the chosen one):
 *   ave[0] <  T             delta doubles, bounded by delta_max (section 3.2: "an upper bound
 *                           can be set for delta");
 *   ave[0] >= T, ave[1] >= T  the chosen one's time becomes ave[0] (line 35), the candidates are
 *                           re-sorted (line 36), the second best is chosen, delta = delta_init;
 *   ave[0] >= T, ave[1] <  T  a transient: delta = delta_init, no switch.
 * The window then starts again (line 38). With one candidate nothing is measured or agreed.
 *
 * Grouping (enhanced AEOS, section 3.3), when params.grouping is on and the candidates form
 * more than one group and fewer groups than candidates (otherwise it would only add an
 * agreement). Groups are the registry's `group` strings; a candidate without one is a group of
 * its own. Measure_Select first measures one representative per group (the first candidate of
 * each group in candidate order), agrees once, and takes the group of the best representative;
 * then it measures the other members of that group, agrees once more, and chooses the best of
 * that group (the representative's measurement is reused; a singleton best group needs no
 * second agreement). Monitor_Adapt as above; when a switch would move to a candidate whose group
 * has members never measured (necessarily another group: the chosen one's group is always fully
 * measured), those members are probed first, each ITER calls, one agreement at the end, and the
 * best of that group is chosen. Probe calls are counted apart (probe_calls): they are not the
 * chosen candidate, and they are not the decision length. A candidate is measured once.
 *
 * Rechecks (our addition; params.recheck, 0 = off). STAR-MPI never measures again a candidate
 * it left: after a switch the left one keeps its degraded window average as its time, so a
 * transient degradation (a busy node on a tree's path) would exile it for the rest of the run.
 * Here a candidate left for a degradation (the switch branch above) is stale; at the end of a
 * monitoring window that does not switch, the stale candidate longest overdue (left at least
 * its interval ago, `recheck` calls at first) runs ITER calls, one agreement gives its new
 * time (best of ITER), and it replaces the chosen one when the chosen one's last window average
 * is at least (1 + epsilon) times that time: Monitor_Adapt's own test. Otherwise it stays stale
 * and its interval doubles, up to AC_STAR_RECHECK_CAP x recheck: a candidate that stays slow
 * costs O(log calls) rechecks; one that recovered comes back within about the time it was
 * slow. Recheck calls are counted apart (recheck_calls), like probes.
 *
 * Warm start (history.h; not in the paper, which always starts cold). When the history file
 * knows what Measure_Select would measure (ac_knowledge_best), the known candidates count as
 * measured with their earlier times and Monitor_Adapt starts on the best at the first call (if
 * members of its group were never measured, Measure_Select measures just them first);
 * the monitor corrects a stale history as it would a degradation. save() gives, for each
 * candidate this run measured, the median of its ITER agreed calls (not the best: the file is
 * shared with the other strategies, whose statistics are central ones) or, for one left for a
 * degradation, its window average, with the calls behind it.
 *
 * Overheads (section 4.3, Tables 6 and 7): the stats give calls and local seconds per stage and
 * O_MS^c = sum over the candidates measured in Measure_Select of ITER * (agreed mean - agreed
 * mean of the chosen one). O_MS^a and O_MA (bookkeeping) are timed by the caller around calls.
 *
 * Deviations from Figure 2, and why:
 * - Agreement is the maximum over ranks (the interface offers MPI_MAX), not Figure 2's sum
 *   divided by nprocs: the slowest rank defines a collective's time. Figure 2 line 29 also
 *   divides the summed totals by the window length only, not by nprocs, which would compare
 *   nprocs times the mean with a per-rank time; the maximum has no such mismatch.
 * - Line 26 (monitor_x++) is drawn inside the last-ITER branch; taken literally the window would
 *   never end. Here every call of the window counts.
 * - After a switch the new choice is the second best explicitly (the text), not the head of the
 *   re-sorted list (line 36): they differ only on exact ties of the old choice's new time.
 * - delta_max (default 64): the longest window is delta_max * ITER = 640 calls at ITER = 10, so
 *   a lasting degradation is noticed within two windows (under 1300 calls) while monitoring
 *   costs one two-double agreement per 640 calls. The paper leaves the bound open.
 * - The parameters are taken as given: their ranges are checked where the settings are read
 *   (core/config.c).
 * - If an agreement fails, observe() returns its error and the state stops: native (candidate 0)
 *   from then on, without further agreements. observe() for a candidate other than the one
 *   choose() returned is refused with MPI_ERR_ARG and changes nothing. A negative or NaN local
 *   time counts as 0.
 */
#include "select/star.h"
#include "core/config.h"
#include "select/monitor.h"
#include "select/plan.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { PHASE_NONE, PHASE_ALL, PHASE_REPRESENTATIVES, PHASE_MEMBERS, PHASE_PROBE, PHASE_RECHECK };

typedef struct star_state {
    ac_star_params p;
    int n;
    int grouping;                  /* grouping in effect (see the header comment) */
    int *group;                    /* group number of each candidate, by first occurrence */
    unsigned char *measured;       /* per candidate: best_time and mean_time are agreed */
    unsigned char *measure_select; /* per candidate: measured in Measure_Select (O_MS^c) */
    double *best_time;             /* agreed best of ITER; a replaced one's window average */
    double *mean_time;             /* agreed mean of its ITER measurement calls */
    double *median_time;           /* agreed median of its ITER calls; a replaced one's window
                                    * average (what the history file keeps: star_save) */
    long *samples;                 /* agreed calls behind median_time, measured in this run */
    double *scratch;               /* [ITER], for medians */
    int *order;                    /* candidates: measured first, by best_time, then by index */
    /* The measurement in progress: each planned candidate runs ITER times (plan.h). */
    int phase;
    ac_plan plan;
    /* Monitor_Adapt. */
    int stage;
    int chosen;
    int delta;
    long long window_calls; /* monitor_x */
    double total[2];        /* the window's sum, the sum of its last ITER calls */
    double last_ave;        /* the agreed average of the last window */
    /* Rechecks: candidates left for a degradation. */
    unsigned char *stale;
    long long *left_at;  /* calls (all stages) when it was left or last rechecked */
    long long *interval; /* calls before its next recheck */
    long long calls;     /* every call observed */
    /* Accounting. */
    long measure_calls, monitor_calls, probe_calls, recheck_calls;
    double measure_seconds, monitor_seconds, probe_seconds, recheck_seconds;
    int switches, agreements, rechecks;
    int warm; /* started from knowledge given to create() */
} star_state;

static ac_star_params star_params;

void ac_star_set_params(const ac_star_params *p)
{
    star_params = *p;
}

void ac_star_get_params(ac_star_params *out)
{
    *out = star_params;
}

/* Sort_Alg's order: measured candidates first, then by time, then by index. */
static int star_before(const star_state *s, int a, int b)
{
    if (s->measured[a] != s->measured[b]) return s->measured[a];
    if (s->best_time[a] != s->best_time[b]) return s->best_time[a] < s->best_time[b];
    return a < b;
}

static void star_sort(star_state *s)
{
    for (int i = 1; i < s->n; i++) {
        int c = s->order[i], j = i;
        for (; j > 0 && star_before(s, c, s->order[j - 1]); j--)
            s->order[j] = s->order[j - 1];
        s->order[j] = c;
    }
}

/* The best measured candidate other than the chosen one; -1 if none. */
static int star_second(const star_state *s)
{
    for (int i = 0; i < s->n; i++) {
        int c = s->order[i];
        if (s->measured[c] && c != s->chosen) return c;
    }
    return -1;
}

/* The best measured member of group g. */
static int star_best_of_group(const star_state *s, int g)
{
    for (int i = 0; i < s->n; i++) {
        int c = s->order[i];
        if (s->measured[c] && s->group[c] == g) return c;
    }
    return -1;
}

/* Plan the measurement of the members of group g never measured; returns how many. */
static int star_plan_group(star_state *s, int g)
{
    ac_plan_clear(&s->plan);
    for (int i = 0; i < s->n; i++)
        if (s->group[i] == g && !s->measured[i]) ac_plan_add(&s->plan, i);
    return s->plan.len;
}

static void star_start_plan(star_state *s, int phase)
{
    s->phase = phase;
    ac_plan_start(&s->plan);
}

static void star_reset_window(star_state *s)
{
    s->window_calls = 0;
    s->total[0] = 0.0;
    s->total[1] = 0.0;
}

static void star_monitor(star_state *s, int chosen)
{
    s->stage = AC_STAR_MONITOR_ADAPT;
    s->phase = PHASE_NONE;
    s->chosen = chosen;
    s->delta = s->p.delta_init;
    star_reset_window(s);
}

/* An agreement failed: stop tuning, native from now on. */
static int star_stop(star_state *s, int rc)
{
    s->stage = AC_STAR_STOPPED;
    s->phase = PHASE_NONE;
    s->chosen = 0;
    return rc;
}

/* A recheck of c just agreed (its best_time is new): switch to it if the chosen one's last
 * window is worse by (1 + epsilon), else double its interval. */
static void star_end_recheck(star_state *s, int c)
{
    s->left_at[c] = s->calls;
    if (s->last_ave >= (1.0 + s->p.epsilon) * s->best_time[c]) {
        s->stale[c] = 0;
        s->switches++;
        star_monitor(s, c);
        return;
    }
    long long cap = (long long)s->p.recheck * AC_STAR_RECHECK_CAP;
    s->interval[c] = ac_doubled(s->interval[c], cap);
    s->phase = PHASE_NONE; /* back to the chosen one, delta as it was */
    star_reset_window(s);
}

/* The stale candidate longest overdue for a recheck, or -1. */
static int star_due(const star_state *s)
{
    int due = -1;
    long long most = -1;
    for (int i = 0; i < s->n; i++) {
        if (!s->stale[i] || i == s->chosen) continue;
        long long over = s->calls - s->left_at[i] - s->interval[i];
        if (over >= 0 && over > most) {
            most = over;
            due = i;
        }
    }
    return due;
}

/* Dist_Time and Sort_Alg for the plan just run, then the next step of the stage. */
static int star_end_plan(star_state *s, const ac_agreement *agree)
{
    int iter = s->p.iter;
    int rc = ac_plan_agree(&s->plan, agree);
    s->agreements++;
    if (rc != 0) return star_stop(s, rc);

    for (int k = 0; k < s->plan.len; k++) {
        int c = s->plan.cand[k];
        const double *v = ac_plan_times(&s->plan, k);
        double best = v[0], sum = 0.0;
        for (int j = 0; j < iter; j++) {
            if (v[j] < best) best = v[j];
            sum += v[j];
        }
        s->best_time[c] = best;
        s->median_time[c] = ac_median(v, iter, s->scratch);
        s->samples[c] = iter;
        if (s->phase == PHASE_RECHECK) continue; /* mean_time: its first measurement's */
        s->mean_time[c] = sum / iter;
        s->measured[c] = 1;
        s->measure_select[c] = s->stage == AC_STAR_MEASURE_SELECT;
    }
    star_sort(s);

    int g = s->group[s->plan.cand[0]];
    switch (s->phase) {
    case PHASE_ALL:
        star_monitor(s, s->order[0]);
        break;
    case PHASE_REPRESENTATIVES:
        /* The best group is the best representative's; then the rest of its members. */
        g = s->group[s->order[0]];
        if (star_plan_group(s, g) > 0)
            star_start_plan(s, PHASE_MEMBERS);
        else
            star_monitor(s, s->order[0]);
        break;
    case PHASE_MEMBERS:
    case PHASE_PROBE:
        star_monitor(s, star_best_of_group(s, g));
        break;
    case PHASE_RECHECK:
        star_end_recheck(s, s->plan.cand[0]);
        break;
    }
    return MPI_SUCCESS;
}

/* The end of a monitoring window: Figure 2 lines 28-38. */
static int star_end_window(star_state *s, const ac_agreement *agree)
{
    double ave[2] = {s->total[0], s->total[1]};
    int rc = agree->max(agree->ctx, ave, 2);
    s->agreements++;
    if (rc != 0) return star_stop(s, rc);
    long window = (long)s->window_calls;
    ave[0] /= (double)window;
    ave[1] /= (double)s->p.iter;
    int second = star_second(s);
    double limit = (1.0 + s->p.epsilon) * s->best_time[second];
    star_reset_window(s);

    s->last_ave = ave[0];

    if (ave[0] < limit) {
        s->delta = (int)ac_doubled(s->delta, s->p.delta_max);
    } else if (ave[1] >= limit) {
        s->best_time[s->chosen] = ave[0];
        s->median_time[s->chosen] = ave[0];
        s->samples[s->chosen] = window;
        star_sort(s);
        s->switches++;
        if (s->p.recheck > 0) {
            s->stale[s->chosen] = 1;
            s->left_at[s->chosen] = s->calls;
            s->interval[s->chosen] = s->p.recheck;
        }
        s->chosen = second;
        s->stale[second] = 0;
        s->delta = s->p.delta_init;
        if (s->grouping && star_plan_group(s, s->group[second]) > 0)
            star_start_plan(s, PHASE_PROBE);
        return MPI_SUCCESS;
    } else {
        s->delta = s->p.delta_init;
    }
    int due = s->p.recheck > 0 ? star_due(s) : -1;
    if (due >= 0) {
        ac_plan_clear(&s->plan);
        ac_plan_add(&s->plan, due);
        s->rechecks++;
        star_start_plan(s, PHASE_RECHECK);
    }
    return MPI_SUCCESS;
}

static void star_destroy(void *state)
{
    star_state *s = state;
    if (!s) return;
    free(s->group);
    free(s->measured);
    free(s->measure_select);
    free(s->best_time);
    free(s->mean_time);
    free(s->samples);
    free(s->median_time);
    free(s->scratch);
    free(s->order);
    ac_plan_free(&s->plan);
    free(s->stale);
    free(s->left_at);
    free(s->interval);
    free(s);
}

static void *star_create_cold(const ac_algorithm *const *candidates, int n)
{
    star_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->p = star_params;
    s->n = n;
    size_t un = (size_t)n;
    s->group = calloc(un, sizeof *s->group);
    s->measured = calloc(un, 1);
    s->measure_select = calloc(un, 1);
    s->best_time = calloc(un, sizeof *s->best_time);
    s->mean_time = calloc(un, sizeof *s->mean_time);
    s->samples = calloc(un, sizeof *s->samples);
    s->median_time = calloc(un, sizeof *s->median_time);
    s->scratch = calloc((size_t)s->p.iter, sizeof *s->scratch);
    s->order = calloc(un, sizeof *s->order);
    int planned = ac_plan_init(&s->plan, n, s->p.iter);
    s->stale = calloc(un, 1);
    s->left_at = calloc(un, sizeof *s->left_at);
    s->interval = calloc(un, sizeof *s->interval);
    if (!s->group || !s->measured || !s->measure_select || !s->best_time || !s->mean_time ||
        !s->samples || !s->median_time || !s->scratch || !s->order || planned != 0 || !s->stale || !s->left_at || !s->interval) {
        star_destroy(s);
        return NULL;
    }

    /* The first member of each group is its representative. */
    int ngroups = ac_candidate_groups(candidates, n, s->group);
    for (int i = 0; i < n; i++) s->order[i] = i;
    s->grouping = s->p.grouping && ngroups > 1 && ngroups < n;

    s->stage = AC_STAR_MEASURE_SELECT;
    s->chosen = -1;
    s->delta = s->p.delta_init;
    if (n == 1) {
        star_monitor(s, 0);
        return s;
    }
    /* Group numbers follow first occurrence: candidate i is the first of its group (the
     * representative) when its number is the count of groups seen before it. */
    for (int i = 0; i < n; i++)
        if (!s->grouping || s->group[i] == s->plan.len) ac_plan_add(&s->plan, i);
    star_start_plan(s, s->grouping ? PHASE_REPRESENTATIVES : PHASE_ALL);
    return s;
}

static int star_choose(void *state)
{
    star_state *s = state;
    return s->phase == PHASE_NONE ? s->chosen : ac_plan_current(&s->plan);
}

static int star_step(void *state, int index, double seconds, const ac_agreement *agree)
{
    star_state *s = state;
    if (index != star_choose(s)) return MPI_ERR_ARG;
    if (!(seconds >= 0.0)) seconds = 0.0;
    if (s->stage == AC_STAR_STOPPED) return MPI_SUCCESS;
    s->calls++;

    if (s->phase != PHASE_NONE) {
        if (s->stage == AC_STAR_MEASURE_SELECT) {
            s->measure_calls++;
            s->measure_seconds += seconds;
        } else if (s->phase == PHASE_RECHECK) {
            s->recheck_calls++;
            s->recheck_seconds += seconds;
        } else {
            s->probe_calls++;
            s->probe_seconds += seconds;
        }
        return ac_plan_record(&s->plan, seconds) ? star_end_plan(s, agree) : MPI_SUCCESS;
    }

    s->monitor_calls++;
    s->monitor_seconds += seconds;
    if (s->n == 1) return MPI_SUCCESS; /* nothing to compare with */
    long long window = (long long)s->delta * s->p.iter;
    s->total[0] += seconds;
    if (window - s->window_calls <= s->p.iter) s->total[1] += seconds;
    s->window_calls++;
    return s->window_calls == window ? star_end_window(s, agree) : MPI_SUCCESS;
}

static int star_deciding(const void *state)
{
    const star_state *s = state;
    return s->stage == AC_STAR_MEASURE_SELECT;
}

/* Native is candidate 0, measured in Measure_Select (it is a group of its own, so it is a
 * representative under grouping too). */
static double star_native_seconds(const void *state)
{
    const star_state *s = state;
    return s->measured[0] ? s->mean_time[0] : -1.0;
}

void ac_star_get_stats(const void *state, ac_star_stats *out)
{
    const star_state *s = state;
    memset(out, 0, sizeof *out);
    out->stage = s->stage;
    out->chosen = s->chosen;
    out->measure_calls = s->measure_calls;
    out->monitor_calls = s->monitor_calls;
    out->probe_calls = s->probe_calls;
    out->recheck_calls = s->recheck_calls;
    out->rechecks = s->rechecks;
    out->switches = s->switches;
    out->delta = s->delta;
    out->agreements = s->agreements;
    out->measure_seconds = s->measure_seconds;
    out->monitor_seconds = s->monitor_seconds;
    out->probe_seconds = s->probe_seconds;
    out->recheck_seconds = s->recheck_seconds;
    if (s->chosen >= 0 && s->measured[s->chosen])
        for (int i = 0; i < s->n; i++)
            if (s->measure_select[i])
                out->o_ms_c += s->p.iter * (s->mean_time[i] - s->mean_time[s->chosen]);
}

static const char *const stage_names[] = {
    [AC_STAR_MEASURE_SELECT] = "measure_select",
    [AC_STAR_MONITOR_ADAPT] = "monitor_adapt",
    [AC_STAR_STOPPED] = "stopped",
};

static void star_describe(const void *state, const ac_algorithm *const *candidates,
                          ac_strategy_summary *out, ac_json_writer *w)
{
    const star_state *s = state;
    ac_star_stats st;
    (void)candidates;
    ac_star_get_stats(state, &st);
    *out = (ac_strategy_summary){
        .stage = stage_names[st.stage],
        .deciding = star_deciding(s),
        .chosen = st.chosen,
        .decision_calls = st.chosen >= 0 ? st.measure_calls : -1,
        .switches = st.switches,
        .warm = s->warm,
        .o_ms_c = st.chosen >= 0 ? st.o_ms_c : -1.0,
        .native_seconds = star_native_seconds(s),
    };
    if (!w) return;
    ac_json_integer_value(w, "measure_select_calls", st.measure_calls);
    ac_json_integer_value(w, "monitor_adapt_calls", st.monitor_calls);
    ac_json_integer_value(w, "probe_calls", st.probe_calls);
    ac_json_integer_value(w, "recheck_calls", st.recheck_calls);
    ac_json_integer_value(w, "rechecks", st.rechecks);
    ac_json_integer_value(w, "delta", st.delta);
    ac_json_integer_value(w, "agreements", st.agreements);
    ac_json_real(w, "o_ms_c_seconds", st.o_ms_c);
}

/* Each candidate's median (not Sort_Alg's best of ITER: the file is shared with the other
 * strategies, whose statistics are central ones), with the calls behind it when this run
 * measured it. */
static void star_save(const void *state, ac_knowledge *out)
{
    const star_state *s = state;
    for (int i = 0; i < s->n; i++) {
        out[i].seconds = s->median_time[i];
        out[i].var = 0.0;
        out[i].samples = s->measured[i] ? s->samples[i] : 0;
    }
}

/* A warm start skips Measure_Select when history knows what it would have measured
 * (ac_knowledge_best: with grouping, a candidate of every group; else every candidate): the
 * known candidates count as measured, with their history times, and Monitor_Adapt starts on
 * the best. When members of the best one's group were never measured, Measure_Select measures
 * just them first (ITER calls each, one agreement) and picks the best of that group. Otherwise
 * Measure_Select runs as from a cold start. */
static int star_warm(void *state, const ac_knowledge *know)
{
    star_state *s = state;
    if (s->n < 2 || s->stage != AC_STAR_MEASURE_SELECT) return 0;
    int unknown, best = ac_knowledge_best(know, s->n, s->grouping ? s->group : NULL, &unknown);
    if (best < 0) return 0;
    for (int i = 0; i < s->n; i++)
        if (know[i].samples > 0) {
            s->measured[i] = 1;
            s->best_time[i] = know[i].seconds;
            s->mean_time[i] = know[i].seconds;
        }
    star_sort(s);
    if (unknown > 0 && star_plan_group(s, s->group[best]) > 0)
        star_start_plan(s, PHASE_MEMBERS); /* still Measure_Select: its calls are counted */
    else
        star_monitor(s, s->order[0]);
    return 1;
}

static void *star_create(const ac_algorithm *const *candidates, int n,
                         const ac_knowledge *known, const ac_context_facts *facts)
{
    (void)facts;
    star_state *s = star_create_cold(candidates, n);
    if (s && known) s->warm = star_warm(s, known);
    return s;
}

static int star_observe(void *state, int index, double seconds, const ac_agreement *agree,
                        int *deciding)
{
    int rc = star_step(state, index, seconds, agree);
    *deciding = star_deciding(state);
    return rc;
}

/* The parameters from the AUTOCOLL_STAR_* settings (core/config.c checks them). */
static void star_configure(void)
{
    ac_star_params star = {
        .iter = (int)ac_config_int("AUTOCOLL_STAR_ITER"),
        .epsilon = ac_config_real("AUTOCOLL_STAR_EPSILON"),
        .delta_init = AC_STAR_DELTA_INIT,
        .delta_max = (int)ac_config_int("AUTOCOLL_STAR_DELTA_MAX"),
        .grouping = ac_config_switch("AUTOCOLL_STAR_GROUPING"),
        .recheck = (int)ac_config_int("AUTOCOLL_STAR_RECHECK"),
    };
    ac_star_set_params(&star);
}

/* The strategy's settings (strategy.h: `settings`), shown by autocoll-info and the settings
 * table of docs/guide.md among the others. */
static const ac_setting star_settings[] = {
    AC_DECLARE_INTEGER("AUTOCOLL_STAR_ITER", "10", 1, 1000,
                       "star: measurements of each candidate (ITER)"),
    AC_DECLARE_REAL("AUTOCOLL_STAR_EPSILON", "0.10", 0.0, 0.0, 0,
         "star: tolerance over the second best before Monitor_Adapt switches (epsilon)"),
    AC_DECLARE_INTEGER("AUTOCOLL_STAR_DELTA_MAX", "64", 2, INT_MAX,
            "star: upper bound of the monitoring factor delta (window = delta * ITER calls; "
            "delta starts at 2)"),
    AC_DECLARE_SWITCH("AUTOCOLL_STAR_GROUPING", "on",
           "star: enhanced AEOS, measure one algorithm per group first (STAR-MPI section 3.3)"),
    AC_DECLARE_INTEGER("AUTOCOLL_STAR_RECHECK", "2000", 0, 100000000,
            "star: calls before an algorithm left for a degradation is measured again (doubling "
            "while it stays slower, up to 16x); 0: never (STAR-MPI as published)"),
};

const ac_strategy ac_strategy_star = {
    .name = "star",
    .settings = star_settings,
    .nsettings = sizeof star_settings / sizeof star_settings[0],
    .learns = 1,
    .configure = star_configure,
    .create = star_create,
    .choose = star_choose,
    .observe = star_observe,
    .save = star_save,
    .describe = star_describe,
    .destroy = star_destroy,
};
