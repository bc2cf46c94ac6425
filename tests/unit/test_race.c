/*
 * test_race.c - the `race` strategy (src/select/race.c) without MPI: simulated ranks (sim.h)
 * with a fake clock and synthetic cost models.
 */
#include "select/monitor.h"
#include "select/race.h"
#include "select/star.h"
#include "sim.h"

#include "check.h"
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* create()'s facts: the strategy under test measures, it predicts nothing */
static const ac_context_facts no_facts;

/* What the last observe() said: whether the state was still deciding after it. */
static int deciding_after;

static const ac_algorithm algs[8] = {
    {.name = "native", .group = "native"}, {.name = "ring", .group = "ring"},
    {.name = "pair", .group = "pair"},     {.name = "bruck", .group = "small"},
    {.name = "simple", .group = "simple"}, {.name = "mesh", .group = "mesh"},
    {.name = "tree", .group = "tree"},     {.name = "chain", .group = "tree"},
};
static const ac_algorithm *const candidates[8] = {&algs[0], &algs[1], &algs[2], &algs[3],
                                                  &algs[4], &algs[5], &algs[6], &algs[7]};

/* ---- cost model --------------------------------------------------------------------------- */

typedef struct episode {
    int candidate;
    int rank;      /* -1: every rank */
    long from, to; /* calls [from, to) */
    double factor;
} episode;

typedef struct model {
    double base[8];          /* seconds */
    double rank_skew;        /* rank r is (1 + rank_skew * r) times slower */
    double noise;            /* deterministic jitter of +-noise, different per rank and call */
    unsigned long long seed; /* of the jitter */
    double cold; /* the first call of each candidate on each rank costs this factor more */
    episode episodes[4];
    int nepisodes;
    long seen[SIM_MAX_RANKS][8]; /* calls of each candidate per rank so far */
} model;

/* Uniform in [-1, 1), a hash of (call, rank, candidate): deterministic, but without the short
 * period of a modular pattern (which the maximum over ranks would flatten). */
static double jitter(unsigned long long seed, unsigned long long call, int rank, int candidate)
{
    unsigned long long z = seed * 0xD6E8FEB86659FD93ull + call * 0x9E3779B97F4A7C15ull +
                           (unsigned long long)rank * 0xBF58476D1CE4E5B9ull +
                           (unsigned long long)candidate * 0x94D049BB133111EBull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) / 4503599627370496.0 - 1.0;
}

static double model_cost(void *arg, int candidate, long call, int rank)
{
    model *m = arg;
    double t = m->base[candidate] * (1.0 + m->rank_skew * rank);
    t *= 1.0 + m->noise * jitter(m->seed, (unsigned long long)call, rank, candidate);
    if (m->seen[rank][candidate]++ == 0) t *= m->cold;
    for (int e = 0; e < m->nepisodes; e++) {
        const episode *ep = &m->episodes[e];
        if (ep->candidate == candidate && (ep->rank < 0 || ep->rank == rank) && call >= ep->from &&
            call < ep->to)
            t *= ep->factor;
    }
    return t;
}

static model make_model(const double *base, int n, double noise)
{
    model m;
    memset(&m, 0, sizeof m);
    for (int i = 0; i < n; i++)
        m.base[i] = base[i];
    m.noise = noise;
    m.cold = 1.0;
    return m;
}

/* ---- running ------------------------------------------------------------------------------ */

#define MAX_CALLS 40000

typedef struct watch {
    ac_race_stats stats[MAX_CALLS];
    double native_median[MAX_CALLS]; /* ac_race_median(state, 0) */
} watch;

static void watch_call(void *arg, const void *state, long call)
{
    watch *w = arg;
    ac_race_get_stats(state, &w->stats[call]);
    w->native_median[call] = ac_race_median(state, 0);
}

static watch *g_watch;

/* Calls per finalist in the tests of the final (off by default). */
enum { FINAL = 8 };

/* The declared defaults of AUTOCOLL_RACE_* (core/config.c; test_config checks them). */
static ac_race_params defaults(void)
{
    return (ac_race_params){3, 4, 0.5, 0.05, 1024, 4096, 1, 0};
}

/* A run over `cands` with an agreement that fails at `fail_agreement` (-1: none). */
static sim_run run_over_all(const ac_race_params *p, model *m, const ac_algorithm *const *cands,
                            int n, int ranks, long calls, int fail_agreement,
                            const ac_knowledge *know)
{
    sim_run r;
    memset(&r, 0, sizeof r);
    ac_race_set_params(p);
    r.strategy = &ac_strategy_race;
    r.candidates = cands;
    r.n = n;
    r.ranks = ranks;
    r.calls = calls;
    r.cost = model_cost;
    r.cost_arg = m;
    r.watch = watch_call;
    r.watch_arg = g_watch;
    r.fail_agreement = fail_agreement;
    r.fail_rc = MPI_ERR_OTHER;
    r.know = know;
    CHECK(sim_execute(&r) == 0);
    CHECK(!r.diverged);
    return r;
}

static sim_run run_over(const ac_race_params *p, model *m, const ac_algorithm *const *cands, int n,
                        int ranks, long calls, int fail_agreement)
{
    return run_over_all(p, m, cands, n, ranks, calls, fail_agreement, NULL);
}

/* A run that starts from history's knowledge `know` (warm()). */
static sim_run run_over_known(const ac_race_params *p, model *m, const ac_algorithm *const *cands,
                              int n, int ranks, long calls, const ac_knowledge *know)
{
    return run_over_all(p, m, cands, n, ranks, calls, -1, know);
}

static sim_run run(const ac_race_params *p, model *m, int n, int ranks, long calls)
{
    return run_over(p, m, candidates, n, ranks, calls, -1);
}

static int final_choice(const sim_run *r)
{
    return r->choice[r->calls - 1];
}

/* ---- tests -------------------------------------------------------------------------------- */

/* The fastest wins; clearly slow candidates run one round only, so the race is shorter than
 * STAR's Measure_Select (ITER = 10 calls per candidate). */
static void test_picks_fastest(void)
{
    const double base[5] = {1.0e-3, 2.5e-3, 0.5e-3, 3.0e-3, 0.8e-3};
    model m = make_model(base, 5, 0.05);
    m.cold = 4.0; /* a cold first call must not disqualify anybody */
    ac_race_params p = defaults();
    p.final = FINAL;
    sim_run r = run(&p, &m, 5, 4, 600);
    const ac_race_stats *end = &g_watch->stats[599];
    CHECK(final_choice(&r) == 2);
    CHECK(end->stage == AC_RACE_SETTLED && end->chosen == 2 && end->races == 1);
    CHECK(end->switches == 0);
    /* 2.5x and 3x slower than the best: out after round 1 (3 calls) */
    CHECK(r.runs[1] == 3 && r.runs[3] == 3);
    /* the decision: round 1 has 15 calls; native (2x) leaves after round 1 too (margin 0.5);
     * the final confirms the best against the runner-up (0.8) and native, 8 calls each */
    CHECK(r.runs[0] == 3 + FINAL && r.runs[4] == 3 + FINAL);
    CHECK(end->finals == 1 && end->overturned == 0);
    CHECK(end->first_race_calls == 15 + 3 * FINAL);
    CHECK(end->first_race_calls < 5 * 10); /* star's measurement at its default ITER */
    CHECK(end->o_ms_c > 0.0);
    /* the settled monitor agrees rarely: windows double to 1024 */
    CHECK(end->agreements < 12);
    sim_free(&r);
}

/* Close candidates under noise, over 60 seeds: the race picks the fastest of two candidates 8 %
 * apart under +-15 % noise (one rank: no maximum over ranks smoothing the noise) in at least
 * 90 % of the seeds, and spends more calls on them than on candidates 50 % apart. Clearly slow
 * candidates always run one round only. */
static void test_close_candidates(void)
{
    const double close[4] = {1.00e-3, 1.08e-3, 2.0e-3, 1.6e-3};
    const double apart[4] = {1.00e-3, 1.50e-3, 2.0e-3, 1.6e-3};
    ac_race_params p = defaults();
    int right = 0, seeds = 60, one_round = 1;
    long calls_close = 0, calls_apart = 0;
    for (int seed = 0; seed < seeds; seed++) {
        model m = make_model(close, 4, 0.15);
        m.seed = (unsigned long long)seed;
        sim_run r = run(&p, &m, 4, 1, 200);
        right += final_choice(&r) == 0;
        one_round &= r.runs[2] == 3;
        calls_close += g_watch->stats[199].first_race_calls;
        sim_free(&r);
        m = make_model(apart, 4, 0.15);
        m.seed = (unsigned long long)seed;
        r = run(&p, &m, 4, 1, 200);
        CHECK(final_choice(&r) == 0);
        calls_apart += g_watch->stats[199].first_race_calls;
        sim_free(&r);
    }
    printf("close: %d/%d right, %.1f vs %.1f calls\n", right, seeds, (double)calls_close / seeds,
           (double)calls_apart / seeds);
    CHECK(right >= seeds * 9 / 10);
    CHECK(one_round);
    CHECK(calls_close > calls_apart);
}

/* The chosen one degrades for good: two degraded windows, a new race, the runner-up wins. */
static void test_lasting_degradation(void)
{
    const double base[3] = {2.0e-3, 1.0e-3, 1.3e-3};
    model m = make_model(base, 3, 0.02);
    m.episodes[m.nepisodes++] = (episode){1, -1, 1000, MAX_CALLS, 3.0};
    ac_race_params p = defaults();
    p.refresh = 0;
    sim_run r = run(&p, &m, 3, 4, 3000);
    const ac_race_stats *end = &g_watch->stats[2999];
    CHECK(g_watch->stats[999].chosen == 1);
    CHECK(final_choice(&r) == 2);
    CHECK(end->races == 2 && end->switches == 1);
    /* noticed within two short windows after the current one (at most 1024 + 2 x 16 calls) */
    long moved = -1;
    for (long c = 1000; c < 3000 && moved < 0; c++)
        if (g_watch->stats[c].races == 2) moved = c;
    CHECK(moved > 1000 && moved < 1000 + 1024 + 2 * AC_MONITOR_WINDOW_MIN);
    /* the new race: the degraded one and every candidate whose median is below its recent
     * one (native 2.0 and pair 1.3, both below 3.0) */
    CHECK(r.runs[0] >= 2 * 3);
    sim_free(&r);
}

/* A transient shorter than a window changes nothing. */
static void test_transient(void)
{
    const double base[3] = {2.0e-3, 1.0e-3, 1.3e-3};
    model m = make_model(base, 3, 0.02);
    /* 12 slow calls around call 700: inside one window */
    m.episodes[m.nepisodes++] = (episode){1, -1, 700, 712, 5.0};
    ac_race_params p = defaults();
    p.refresh = 0;
    sim_run r = run(&p, &m, 3, 3, 3000);
    const ac_race_stats *end = &g_watch->stats[2999];
    CHECK(final_choice(&r) == 1);
    CHECK(end->races == 1 && end->switches == 0);
    for (long c = 100; c < 3000; c++)
        CHECK(r.choice[c] == 1);
    sim_free(&r);
}

/* A candidate slowed for a while, then fast again: the layer moves away, and the refresh race
 * brings it back after the slowdown ends. */
static void test_comes_back(void)
{
    const double base[3] = {2.0e-3, 1.0e-3, 1.3e-3};
    model m = make_model(base, 3, 0.02);
    m.episodes[m.nepisodes++] = (episode){1, -1, 500, 3000, 4.0};
    ac_race_params p = defaults();
    p.refresh = 1024;
    sim_run r = run(&p, &m, 3, 4, 12000);
    CHECK(r.choice[400] == 1);
    CHECK(r.choice[2900] == 2);
    CHECK(final_choice(&r) == 1);
    /* the refresh interval doubled after a refresh that kept the choice: few races overall */
    CHECK(g_watch->stats[11999].races <= 8);
    sim_free(&r);
}

/* Ranks whose local timings differ (one rank skewed, per-rank noise) still choose the same
 * candidate at every call: the simulation fails the run otherwise. */
static void test_skewed_ranks_agree(void)
{
    const double base[8] = {1.0e-3, 1.02e-3, 0.98e-3, 1.01e-3, 1.5e-3, 0.99e-3, 3e-3, 1e-3};
    model m = make_model(base, 8, 0.10);
    m.rank_skew = 0.3;
    m.episodes[m.nepisodes++] = (episode){5, 2, 0, MAX_CALLS, 1.5}; /* one rank: 5 slower */
    m.episodes[m.nepisodes++] = (episode){2, 0, 300, 900, 2.0};
    ac_race_params p = defaults();
    p.refresh = 256;
    sim_run r = run(&p, &m, 8, 7, 4000);
    CHECK(!r.diverged);
    CHECK(g_watch->stats[3999].races > 2); /* refreshes happened, all agreed */
    sim_free(&r);
}

/* A failed agreement stops the state: native from then on, the error returned once. */
static void test_agreement_failure(void)
{
    const double base[3] = {2.0e-3, 1.0e-3, 1.3e-3};
    model m = make_model(base, 3, 0.0);
    ac_race_params p = defaults();
    sim_run r = run_over(&p, &m, candidates, 3, 2, 100, 0);
    CHECK(r.rc == MPI_ERR_OTHER && r.rc_call == 8);
    CHECK(r.agreements == 1);
    for (long c = 9; c < 100; c++)
        CHECK(r.choice[c] == 0);
    sim_free(&r);
}

/* Grouping: round 1 runs one representative per group; a group whose representative is a
 * little slower than the best one's still joins round 2, and its fastest member wins (STAR's
 * enhanced AEOS would keep the best representative's group only). A group whose
 * representative is clearly slow never runs its other members. */
static const ac_algorithm g_algs[7] = {
    {.name = "native", .group = "native"}, {.name = "ring_1", .group = "ring"},
    {.name = "tree_1", .group = "tree"},   {.name = "ring_2", .group = "ring"},
    {.name = "tree_2", .group = "tree"},   {.name = "pair_1", .group = "pair"},
    {.name = "pair_2", .group = "pair"},
};
static const ac_algorithm *const grouped[7] = {&g_algs[0], &g_algs[1], &g_algs[2], &g_algs[3],
                                               &g_algs[4], &g_algs[5], &g_algs[6]};

static void test_grouping(void)
{
    /* native 2.0; ring rep 1.0, ring_2 1.1; tree rep 1.2, tree_2 0.7 (the best); pairs 5.0 */
    const double base[7] = {2.0e-3, 1.0e-3, 1.2e-3, 1.1e-3, 0.7e-3, 5.0e-3, 5.0e-3};
    for (int grouping = 0; grouping <= 1; grouping++) {
        model m = make_model(base, 7, 0.02);
        ac_race_params p = defaults();
        p.grouping = grouping;
        sim_run r = run_over(&p, &m, grouped, 7, 3, 400, -1);
        CHECK(final_choice(&r) == 4);
        CHECK(r.runs[5] == 3);                  /* the pair representative, one round */
        CHECK(r.runs[6] == (grouping ? 0 : 3)); /* its group never runs under grouping */
        CHECK(r.runs[0] == 3 + p.final);        /* native: 2x, out after round 1, a finalist */
        sim_free(&r);
    }
}

/* A warm start (history.c's knowledge, equal on every rank): every group known -> settled at
 * once on the best known, no decision phase; the best one's group partly unknown -> the first
 * race runs the best and its unknown members only; a group nobody measured -> a cold start. */
static void test_warm_start(void)
{
    /* ring_2 (0.6) is the best */
    const double base[7] = {2.0e-3, 1.0e-3, 1.2e-3, 0.6e-3, 0.9e-3, 5.0e-3, 5.0e-3};
    ac_race_params p = defaults();
    ac_knowledge all[7], part[7], cold[7];
    for (int c = 0; c < 7; c++)
        all[c] = (ac_knowledge){base[c], 0.0, 10};
    model m = make_model(base, 7, 0.02);
    sim_run r = run_over_known(&p, &m, grouped, 7, 3, 120, all);
    CHECK(r.warm == 1 && r.runs[3] == 120);
    CHECK(g_watch->stats[0].stage == AC_RACE_SETTLED && g_watch->stats[119].first_race_calls == 0);
    sim_free(&r);

    /* ring_2 and pair_2 unknown; ring_1 (0.5 by history, 1.0 in truth) the best known */
    memcpy(part, all, sizeof part);
    part[1].seconds = 0.5e-3;
    part[3].samples = part[6].samples = 0;
    m = make_model(base, 7, 0.02);
    r = run_over_known(&p, &m, grouped, 7, 3, 120, part);
    CHECK(r.warm == 1);
    const ac_race_stats *end = &g_watch->stats[119];
    CHECK(end->chosen == 3 && end->races == 1 && end->first_race_calls > 0);
    for (long call = 0; call < end->first_race_calls; call++)
        CHECK(r.choice[call] == 1 || r.choice[call] == 3);
    CHECK(r.runs[1] + r.runs[3] == 120 && r.runs[6] == 0);
    sim_free(&r);

    /* pair_1 and pair_2 unknown: the pair group was never measured */
    memcpy(cold, all, sizeof cold);
    cold[5].samples = cold[6].samples = 0;
    m = make_model(base, 7, 0.02);
    r = run_over_known(&p, &m, grouped, 7, 3, 120, cold);
    CHECK(r.warm == 0 && r.runs[5] > 0 && g_watch->stats[119].first_race_calls > 0);
    sim_free(&r);

    /* without grouping every candidate must be known */
    p.grouping = 0;
    m = make_model(base, 7, 0.02);
    r = run_over_known(&p, &m, grouped, 7, 3, 120, part);
    CHECK(r.warm == 0 && r.runs[6] > 0);
    sim_free(&r);
}

/* The winner's curse: a candidate 30 % slower than native that ran a lucky spell (twice as fast)
 * while the race measured it wins the race, eliminating native; the final, on fresh calls,
 * gives the choice back to native. Without a final the lucky one stays. */
static void test_final_overturns_a_lucky_best(void)
{
    const double base[3] = {1.0e-3, 1.3e-3, 3.0e-3};
    for (int final = 0; final <= 1; final++) {
        model m = make_model(base, 3, 0.02);
        m.episodes[m.nepisodes++] = (episode){1, -1, 0, 9, 0.5};
        ac_race_params p = defaults();
        p.final = final ? FINAL : 0;
        p.refresh = 0;
        sim_run r = run(&p, &m, 3, 3, 400);
        const ac_race_stats *end = &g_watch->stats[399];
        CHECK(g_watch->stats[8].alive == 1); /* the race itself ended with the lucky one */
        if (final) {
            CHECK(final_choice(&r) == 0);
            CHECK(end->finals == 1 && end->overturned == 1 && end->races == 1);
            /* the final: fresh calls, each finalist's consecutive, in candidate order; the 3x
             * one (eliminated, but measured in the race) is the runner-up */
            for (long c = 9; c < 9 + 3 * FINAL; c++) {
                CHECK(r.choice[c] == (int)((c - 9) / FINAL));
                /* (the watch sees the state after the call: the last one settled it) */
                CHECK(g_watch->stats[c].stage ==
                      (c < 8 + 3 * FINAL ? AC_RACE_RACING : AC_RACE_SETTLED));
            }
            CHECK(g_watch->stats[10].final_calls == 2);
            CHECK(end->first_race_calls == 9 + 3 * FINAL);
            /* native's median is the final's (fresh), not round 1's */
            CHECK(fabs(g_watch->native_median[399] - 1.0e-3) < 0.05e-3);
        } else {
            /* the lucky one runs until the monitor sees it degrade (and races again) */
            CHECK(r.choice[9] == 1 && r.choice[40] == 1);
            CHECK(end->finals == 0 && end->first_race_calls == 9);
        }
        sim_free(&r);
    }
}

/* The final overturns in favour of the runner-up too: the lucky best's spell eliminated a
 * candidate that is really the fastest; a race whose best is native has no final. */
static void test_final_finds_the_runner_up(void)
{
    const double base[4] = {2.0e-3, 1.0e-3, 0.9e-3, 4.0e-3};
    model m = make_model(base, 4, 0.0);
    m.episodes[m.nepisodes++] = (episode){1, -1, 0, 12, 0.7};
    ac_race_params p = defaults();
    p.refresh = 0;
    p.final = FINAL;
    sim_run r = run(&p, &m, 4, 2, 300);
    const ac_race_stats *end = &g_watch->stats[299];
    CHECK(g_watch->stats[11].alive == 1);
    CHECK(final_choice(&r) == 2 && end->finals == 1 && end->overturned == 1);
    CHECK(r.runs[3] == 3); /* the slowest is no finalist */
    sim_free(&r);

    const double native_best[3] = {1.0e-3, 1.6e-3, 2.0e-3};
    m = make_model(native_best, 3, 0.02);
    r = run(&p, &m, 3, 2, 300);
    CHECK(final_choice(&r) == 0 && g_watch->stats[299].finals == 0);
    CHECK(g_watch->stats[299].first_race_calls == 9);
    sim_free(&r);
}

/* One candidate: nothing is measured or agreed. */
static void test_single_candidate(void)
{
    const double base[1] = {1.0e-3};
    model m = make_model(base, 1, 0.1);
    ac_race_params p = defaults();
    sim_run r = run(&p, &m, 1, 3, 500);
    CHECK(r.agreements == 0 && r.runs[0] == 500);
    CHECK(g_watch->stats[499].stage == AC_RACE_SETTLED);
    sim_free(&r);
}

/* The parameters are taken as given (core/config.c checks the settings: test_config); a wrong
 * observe() is refused. */
static void test_parameters_and_misuse(void)
{
    ac_race_params edge = {1, 20, 0.0, 0.0, 16, 0, 0, 100}, got;
    ac_race_set_params(&edge);
    ac_race_get_params(&got);
    CHECK(memcmp(&got, &edge, sizeof edge) == 0);

    ac_race_params p = defaults();
    ac_race_set_params(&p);
    void *s = ac_strategy_race.create(candidates, 3, NULL, &no_facts);
    ac_agreement none = {NULL, NULL, 0};
    CHECK(ac_strategy_race.choose(s) == 0);
    CHECK(ac_strategy_race.observe(s, 1, 1.0, &none, &deciding_after) == MPI_ERR_ARG);
    CHECK(ac_strategy_race.observe(s, 0, -1.0, &none, &deciding_after) == 0);
    CHECK(ac_strategy_race.observe(s, 0, NAN, &none, &deciding_after) == 0);
    ac_strategy_summary sum;
    ac_strategy_race.describe(s, candidates, &sum, NULL);
    CHECK(sum.deciding == 1 && deciding_after == 1 && sum.native_seconds < 0.0);
    CHECK(sum.chosen == -1 && sum.decision_calls == -1 && !strcmp(sum.stage, "racing"));
    ac_strategy_race.destroy(s);
    ac_strategy_race.destroy(NULL);
}

/* The simulation itself must catch ranks that diverge (a test that cannot fail is a defect):
 * a strategy whose agreement point depends on the rank's local time. */
typedef struct bad_state {
    double local;
    int done;
} bad_state;

static void *bad_create(const ac_algorithm *const *c, int n, const ac_knowledge *known,
                        const ac_context_facts *facts)
{
    (void)c;
    (void)n;
    (void)known;
    (void)facts;
    return calloc(1, sizeof(bad_state));
}
static int bad_choose(void *s)
{
    return ((bad_state *)s)->done;
}
static int bad_observe(void *st, int i, double t, const ac_agreement *a, int *deciding)
{
    bad_state *s = st;
    double v = t;
    (void)i;
    *deciding = 0;
    s->local += t;
    if (!s->done && s->local > 4.5e-3) {
        s->done = 1;
        return a->max(a->ctx, &v, 1);
    }
    return 0;
}
static void bad_destroy(void *s)
{
    free(s);
}
static const ac_strategy bad_strategy = {.name = "bad",
                                         .create = bad_create,
                                         .choose = bad_choose,
                                         .observe = bad_observe,
                                         .destroy = bad_destroy};

static void test_simulation_catches_divergence(void)
{
    const double base[2] = {1.0e-3, 1.0e-3};
    model m = make_model(base, 2, 0.0);
    m.rank_skew = 0.5;
    sim_run r;
    memset(&r, 0, sizeof r);
    r.strategy = &bad_strategy;
    r.candidates = candidates;
    r.n = 2;
    r.ranks = 3;
    r.calls = 20;
    r.cost = model_cost;
    r.cost_arg = &m;
    r.fail_agreement = -1;
    CHECK(sim_execute(&r) == 0);
    CHECK(r.diverged);
    sim_free(&r);
}

int main(void)
{
    g_watch = calloc(1, sizeof *g_watch);
    if (!g_watch) return 2;
    test_picks_fastest();
    test_close_candidates();
    test_lasting_degradation();
    test_transient();
    test_grouping();
    test_warm_start();
    test_comes_back();
    test_skewed_ranks_agree();
    test_agreement_failure();
    test_single_candidate();
    test_final_overturns_a_lucky_best();
    test_final_finds_the_runner_up();
    test_parameters_and_misuse();
    test_simulation_catches_divergence();
    free(g_watch);
    if (failures) {
        fprintf(stderr, "test_race: %d checks failed\n", failures);
        return 1;
    }
    printf("test_race: all checks passed\n");
    return 0;
}
