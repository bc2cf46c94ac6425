/*
 * test_star.c - the `star` strategy (src/select/star.c) without MPI: a fake clock, synthetic
 * cost models and a fake agreement over simulated ranks.
 *
 * The simulation runs R state machines, one per simulated rank, over the same sequence of
 * calls. Each call, every rank asks choose(), "runs" that candidate for cost(candidate, call,
 * rank) seconds of its fake clock and reports it through observe(). The fake agreement gives
 * every rank the maximum over the ranks of what they sent, as MPI_MAX would. Agreements are
 * resolved by replay: the ranks run until the first agreement nobody has answered yet; the
 * values each sent there are combined and recorded, and the ranks run again from the start with
 * the answers known so far, until a run needs no new answer. That last run is the trace. The
 * simulation checks that the ranks agree at the same calls with the same number of values and
 * choose the same candidate at every call; the tests check the rest.
 */
#include "select/star.h"

#include "check.h"
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* create()'s facts: the strategy under test measures, it predicts nothing */
static const ac_context_facts no_facts;

/* What the last observe() said: whether the state was still deciding after it. */
static int deciding_after;

/* ------------------------------------------------------------------------------------------ */
/* Fake candidates. */

static const ac_algorithm alg_native = {.name = "native", .group = "native"};
static const ac_algorithm alg_ring = {.name = "ring", .group = "ring"};
static const ac_algorithm alg_pair = {.name = "pair", .group = "pair"};
static const ac_algorithm alg_bruck = {.name = "bruck", .group = "small_message"};
static const ac_algorithm alg_simple = {.name = "simple", .group = "simple"};

/* Five candidates, five groups (grouping has nothing to group). */
static const ac_algorithm *const five[] = {&alg_native, &alg_ring, &alg_pair, &alg_bruck,
                                           &alg_simple};
enum { NATIVE, RING, PAIR, BRUCK, SIMPLE };

/* Eight candidates in four groups, the groups interleaved in candidate order. */
static const ac_algorithm alg_t1 = {.name = "tree_1", .group = "tree"};
static const ac_algorithm alg_r1 = {.name = "ring_1", .group = "ring"};
static const ac_algorithm alg_t2 = {.name = "tree_2", .group = "tree"};
static const ac_algorithm alg_r2 = {.name = "ring_2", .group = "ring"};
static const ac_algorithm alg_p1 = {.name = "pair_1", .group = "pair"};
static const ac_algorithm alg_t3 = {.name = "tree_3", .group = "tree"};
static const ac_algorithm alg_p2 = {.name = "pair_2", .group = "pair"};
static const ac_algorithm *const eight[] = {&alg_native, &alg_t1, &alg_r1, &alg_t2,
                                            &alg_r2,     &alg_p1, &alg_t3, &alg_p2};
enum { G_NATIVE, G_T1, G_R1, G_T2, G_R2, G_P1, G_T3, G_P2 };

/* ------------------------------------------------------------------------------------------ */
/* Synthetic cost model: seconds of one call of a candidate on a rank. */

#define MAX_CANDIDATES 8
#define MAX_RANKS 8
#define MAX_EPISODES 4

typedef struct episode {
    int candidate;
    int rank;      /* -1: every rank */
    long from, to; /* calls [from, to) */
    double factor;
} episode;

typedef struct model {
    double base[MAX_CANDIDATES]; /* seconds */
    double rank_skew;            /* rank r is (1 + rank_skew * r) times slower */
    double noise;                /* deterministic jitter of +-noise, different per rank */
    episode episodes[MAX_EPISODES];
    int nepisodes;
} model;

static double model_cost(const model *m, int candidate, long call, int rank)
{
    double t = m->base[candidate] * (1.0 + m->rank_skew * rank);
    t *= 1.0 + m->noise * (double)((call * 37 + rank * 11 + candidate * 5) % 7 - 3) / 3.0;
    for (int e = 0; e < m->nepisodes; e++) {
        const episode *ep = &m->episodes[e];
        if (ep->candidate == candidate && (ep->rank < 0 || ep->rank == rank) && call >= ep->from &&
            call < ep->to)
            t *= ep->factor;
    }
    return t;
}

static void add_episode(model *m, int candidate, int rank, long from, long to, double factor)
{
    m->episodes[m->nepisodes++] = (episode){candidate, rank, from, to, factor};
}

/* ------------------------------------------------------------------------------------------ */
/* Simulation. */

#define MAX_AGREEMENTS 64
#define MAX_POOL 65536
#define CAPTURED (-4242) /* returned to a rank that reached an agreement not answered yet */

typedef struct sim_config {
    const ac_algorithm *const *candidates;
    int n;
    ac_star_params params;
    int ranks;
    long calls;
    const model *cost;
    int fail_agreement; /* this agreement (0-based) returns fail_rc; -1: none */
    int fail_rc;
    const ac_knowledge *know; /* [n]: given to warm() right after create(); NULL: cold start */
} sim_config;

typedef struct sim_trace {
    long calls;
    int *choice;          /* [call]: the candidate rank 0 ran */
    ac_star_stats *stats; /* [call]: rank 0's stats after the call */
    int diverged;         /* ranks chose or agreed differently */
    long diverged_call;
    int agreements;
    long agree_call[MAX_AGREEMENTS]; /* the call during which agreement k happened */
    int agree_len[MAX_AGREEMENTS];   /* its number of values */
    int rc;                          /* first non-zero observe() result on rank 0 */
    long rc_call;
    int warm;             /* what warm() returned on rank 0 */
    ac_star_stats final[MAX_RANKS];
    double clock[MAX_RANKS]; /* fake clock: simulated seconds of each rank */
    long runs[MAX_CANDIDATES];
} sim_trace;

typedef struct sim {
    const sim_config *cfg;
    sim_trace *trace;
    int known; /* answered agreements */
    size_t offset[MAX_AGREEMENTS];
    double pool[MAX_POOL]; /* their answers */
    size_t used;
    double capture[MAX_RANKS][MAX_POOL / MAX_RANKS]; /* what each rank sent to the next one */
    int capture_len[MAX_RANKS];
    long capture_call[MAX_RANKS];
    int mismatch;
    int *choices; /* [rank * calls + call] */
} sim;

typedef struct rank_ctx {
    sim *sim;
    int rank;
    long call;
    int next; /* this rank's agreements so far */
    int captured;
} rank_ctx;

static int fake_max(void *arg, double *values, int n)
{
    rank_ctx *rc = arg;
    sim *s = rc->sim;
    int k = rc->next++;
    if (k < s->known) {
        sim_trace *tr = s->trace;
        if (n != tr->agree_len[k] || rc->call != tr->agree_call[k]) {
            s->mismatch = 1;
            return CAPTURED;
        }
        if (k == s->cfg->fail_agreement) return s->cfg->fail_rc;
        for (int i = 0; i < n; i++)
            values[i] = s->pool[s->offset[k] + (size_t)i];
        return 0;
    }
    if (n < 0 || n > MAX_POOL / MAX_RANKS) {
        s->mismatch = 1;
    } else {
        memcpy(s->capture[rc->rank], values, (size_t)n * sizeof *values);
        s->capture_len[rc->rank] = n;
    }
    s->capture_call[rc->rank] = rc->call;
    rc->captured = 1;
    return CAPTURED;
}

/* Run one rank from the start with the answers known so far. */
static void run_rank(sim *s, int rank)
{
    const sim_config *cfg = s->cfg;
    sim_trace *tr = s->trace;
    rank_ctx ctx = {s, rank, 0, 0, 0};
    ac_agreement agree = {fake_max, &ctx, rank};
    void *state = ac_strategy_star.create(cfg->candidates, cfg->n, cfg->know, &no_facts);
    if (!CHECK(state != NULL)) {
        s->mismatch = 1;
        return;
    }
    if (cfg->know && rank == 0) {
        ac_strategy_summary sum;
        ac_strategy_star.describe(state, cfg->candidates, &sum, NULL);
        tr->warm = sum.warm;
    }
    tr->clock[rank] = 0.0;
    for (long call = 0; call < cfg->calls; call++) {
        ctx.call = call;
        int c = ac_strategy_star.choose(state);
        if (c < 0 || c >= cfg->n) {
            s->mismatch = 1;
            break;
        }
        s->choices[(size_t)rank * (size_t)cfg->calls + (size_t)call] = c;
        double t = model_cost(cfg->cost, c, call, rank);
        tr->clock[rank] += t;
        int rc = ac_strategy_star.observe(state, c, t, &agree, &deciding_after);
        if (ctx.captured || s->mismatch) break;
        if (rank == 0) {
            ac_star_get_stats(state, &tr->stats[call]);
            tr->runs[c]++;
            if (rc != 0 && tr->rc == 0) {
                tr->rc = rc;
                tr->rc_call = call;
            }
        }
    }
    ac_star_get_stats(state, &tr->final[rank]);
    if (!ctx.captured && ctx.next != s->known) s->mismatch = 1;
    ac_strategy_star.destroy(state);
}

/* Returns a trace to free with trace_free(); check trace->diverged. */
static sim_trace *simulate(const sim_config *cfg)
{
    sim *s = calloc(1, sizeof *s);
    sim_trace *tr = calloc(1, sizeof *tr);
    if (!s || !tr) abort();
    s->cfg = cfg;
    s->trace = tr;
    tr->calls = cfg->calls;
    tr->choice = calloc((size_t)cfg->calls, sizeof *tr->choice);
    tr->stats = calloc((size_t)cfg->calls, sizeof *tr->stats);
    s->choices = calloc((size_t)cfg->calls * (size_t)cfg->ranks, sizeof *s->choices);
    if (!tr->choice || !tr->stats || !s->choices) abort();
    ac_star_set_params(&cfg->params);

    for (;;) {
        int captured = 0;
        memset(tr->runs, 0, sizeof tr->runs);
        tr->rc = 0;
        for (int r = 0; r < cfg->ranks; r++) {
            s->capture_len[r] = -1;
            run_rank(s, r);
            captured += s->capture_len[r] >= 0;
        }
        if (s->mismatch || (captured > 0 && captured < cfg->ranks)) {
            tr->diverged = 1;
            break;
        }
        if (captured == 0) break;
        /* Every rank reached agreement `known`: same call, same length? */
        int k = s->known, n = s->capture_len[0];
        for (int r = 1; r < cfg->ranks; r++)
            if (s->capture_call[r] != s->capture_call[0] || s->capture_len[r] != n)
                tr->diverged = 1;
        if (tr->diverged || k == MAX_AGREEMENTS || s->used + (size_t)n > MAX_POOL) {
            tr->diverged = 1;
            break;
        }
        tr->agree_call[k] = s->capture_call[0];
        tr->agree_len[k] = n;
        s->offset[k] = s->used;
        for (int i = 0; i < n; i++) {
            double v = s->capture[0][i];
            for (int r = 1; r < cfg->ranks; r++)
                if (s->capture[r][i] > v) v = s->capture[r][i];
            s->pool[s->used++] = v;
        }
        s->known++;
    }
    tr->agreements = s->known;
    tr->diverged_call = -1;
    for (long call = 0; call < cfg->calls && !tr->diverged; call++) {
        tr->choice[call] = s->choices[call];
        for (int r = 1; r < cfg->ranks; r++)
            if (s->choices[(size_t)r * (size_t)cfg->calls + (size_t)call] != tr->choice[call]) {
                tr->diverged = 1;
                tr->diverged_call = call;
            }
    }
    free(s->choices);
    free(s);
    return tr;
}

static void trace_free(sim_trace *tr)
{
    free(tr->choice);
    free(tr->stats);
    free(tr);
}

/* The declared defaults of AUTOCOLL_STAR_* (core/config.c; test_config checks them). */
static ac_star_params defaults(int grouping)
{
    return (ac_star_params){10, 0.10, AC_STAR_DELTA_INIT, 64, grouping, 2000};
}

/* Every call in [from, to) ran `candidate`. */
static int ran(const sim_trace *tr, long from, long to, int candidate)
{
    for (long call = from; call < to; call++)
        if (tr->choice[call] != candidate) return 0;
    return 1;
}

/* The index of the agreement made during `call`, or -1. */
static int agreement_at(const sim_trace *tr, long call)
{
    for (int k = 0; k < tr->agreements; k++)
        if (tr->agree_call[k] == call) return k;
    return -1;
}

/* Base costs of the five candidates: pair best, simple second. */
static model five_model(void)
{
    model m = {.base = {1.0e-3, 0.8e-3, 0.5e-3, 0.9e-3, 0.7e-3}, .rank_skew = 0.01, .noise = 0.015};
    return m;
}

/* ------------------------------------------------------------------------------------------ */
/* (1) Picks the fastest; the decision takes n * ITER calls; O_MS^c; best-of-ITER. */

static void test_picks_fastest(void)
{
    model m = five_model();
    sim_config cfg = {five, 5, defaults(0), 3, 200, &m, -1, 0, NULL};
    sim_trace *tr = simulate(&cfg);
    CHECK(!tr->diverged);
    for (long call = 0; call < 50; call++)
        CHECK(tr->choice[call] == (int)(call / 10)); /* each candidate ITER times, in order */
    CHECK(tr->stats[48].stage == AC_STAR_MEASURE_SELECT && tr->stats[48].chosen == -1);
    CHECK(tr->stats[49].stage == AC_STAR_MONITOR_ADAPT && tr->stats[49].chosen == PAIR);
    CHECK(ran(tr, 50, 200, PAIR));
    CHECK(tr->final[0].measure_calls == 50);
    CHECK(tr->final[0].monitor_calls == 150);
    CHECK(tr->final[0].switches == 0);

    /* Local accounting adds up to the fake clock. */
    for (int r = 0; r < 3; r++) {
        const ac_star_stats *st = &tr->final[r];
        CHECK(fabs(st->measure_seconds + st->monitor_seconds + st->probe_seconds - tr->clock[r]) <
              1e-12);
    }

    /* O_MS^c from the agreed (max over ranks) per-call times: everything measured minus 50
     * calls at the chosen one's agreed mean. Equal on every rank. */
    double all = 0.0, chosen = 0.0;
    for (long call = 0; call < 50; call++) {
        double t = 0.0;
        for (int r = 0; r < 3; r++) {
            double local = model_cost(&m, tr->choice[call], call, r);
            if (local > t) t = local;
        }
        all += t;
        if (tr->choice[call] == PAIR) chosen += t;
    }
    double expected = all - 50.0 * chosen / 10.0;
    CHECK(expected > 0.0);
    for (int r = 0; r < 3; r++)
        CHECK(fabs(tr->final[r].o_ms_c - expected) < 1e-12);
    trace_free(tr);

    /* Selection by the best of ITER (Figure 2 line 44), not the mean: bruck is slow (2 ms) but
     * its first call took 0.45 ms; it is chosen, then Monitor_Adapt replaces it by pair at the
     * end of its first window. */
    m.base[BRUCK] = 2.0e-3;
    m.noise = 0.0;
    add_episode(&m, BRUCK, -1, 30, 31, 0.225);
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(tr->stats[49].chosen == BRUCK);
    CHECK(ran(tr, 50, 70, BRUCK) && ran(tr, 70, 200, PAIR));
    trace_free(tr);
}

/* ------------------------------------------------------------------------------------------ */
/* (2) A degradation over a whole window and its last ITER calls switches to the second best;
 * the replaced one's window average becomes its time and the order is re-sorted. */

static void test_switch_on_degradation(void)
{
    model m = five_model();
    add_episode(&m, PAIR, -1, 60, 1000000, 4.0);    /* 2 ms from call 60 on */
    add_episode(&m, SIMPLE, -1, 200, 1000000, 4.3); /* 3 ms from call 200 on */
    sim_config cfg = {five, 5, defaults(0), 2, 400, &m, -1, 0, NULL};
    sim_trace *tr = simulate(&cfg);
    CHECK(!tr->diverged);
    /* Window 50..69: average 1.25 ms and last ten 2 ms, both >= 1.1 * 0.7 ms (simple). */
    CHECK(ran(tr, 50, 70, PAIR));
    CHECK(agreement_at(tr, 69) >= 0);
    CHECK(tr->stats[69].chosen == SIMPLE && tr->stats[69].switches == 1);
    CHECK(tr->stats[69].delta == 2);
    /* Windows of 20, 40 and 80 calls: 70..89, 90..129, 130..209; the last one ends degraded.
     * The second best is then ring (0.8 ms), not pair, whose time is now its 1.25 ms. */
    CHECK(tr->stats[129].delta == 8);
    CHECK(ran(tr, 70, 210, SIMPLE));
    CHECK(tr->stats[209].chosen == RING && tr->stats[209].switches == 2);
    CHECK(tr->stats[208].delta == 8 && tr->stats[209].delta == 2); /* reset by the switch */
    CHECK(agreement_at(tr, 229) >= 0);
    CHECK(ran(tr, 210, 400, RING));
    CHECK(tr->final[0].switches == 2);
    trace_free(tr);

    /* Within (1 + epsilon) of the second best is good enough: pair at 0.75 ms against simple's
     * 0.7 ms stays with epsilon = 0.10 (limit 0.77 ms) and is replaced with epsilon = 0.02. */
    model exact = {.base = {1.0e-3, 0.8e-3, 0.5e-3, 0.9e-3, 0.7e-3}};
    add_episode(&exact, PAIR, -1, 50, 1000000, 1.5);
    cfg.cost = &exact;
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(ran(tr, 50, 400, PAIR) && tr->stats[69].delta == 4 && tr->final[0].switches == 0);
    trace_free(tr);
    cfg.params.epsilon = 0.02;
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(ran(tr, 50, 70, PAIR) && ran(tr, 70, 400, SIMPLE));
    trace_free(tr);
}

/* ------------------------------------------------------------------------------------------ */
/* (3) A transient over by the last ITER calls of its window: no switch, delta back to 2. */

static void test_transient(void)
{
    model m = five_model();
    add_episode(&m, PAIR, -1, 110, 151, 4.0); /* inside the window 110..189 (delta 8) */
    sim_config cfg = {five, 5, defaults(0), 2, 400, &m, -1, 0, NULL};
    sim_trace *tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(ran(tr, 50, 400, PAIR));
    CHECK(tr->final[0].switches == 0);
    CHECK(tr->stats[188].delta == 8);
    CHECK(agreement_at(tr, 189) >= 0);
    CHECK(tr->stats[189].delta == 2); /* average 1.27 ms >= 0.77 ms, last ten 0.5 ms */
    CHECK(agreement_at(tr, 209) >= 0 && agreement_at(tr, 249) >= 0); /* windows of 20, 40 */
    CHECK(agreement_at(tr, 229) < 0);
    trace_free(tr);

    /* A degradation of the last ITER calls alone, with the window's average under the limit,
     * is no reason to switch either: delta doubles. */
    m = five_model();
    add_episode(&m, PAIR, -1, 180, 190, 4.0);
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(ran(tr, 50, 400, PAIR));
    CHECK(tr->stats[189].delta == 16 && tr->final[0].switches == 0);
    trace_free(tr);

    /* The last-ITER check covers exactly calls 180..189 of the window 110..189: one very slow
     * call at 180 makes their average 1.45 ms (switch); one at 179 is outside (transient). */
    m = five_model();
    add_episode(&m, PAIR, -1, 110, 180, 4.0);
    add_episode(&m, PAIR, -1, 180, 181, 20.0);
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(ran(tr, 50, 190, PAIR) && ran(tr, 190, 400, SIMPLE));
    trace_free(tr);
    m = five_model();
    add_episode(&m, PAIR, -1, 110, 179, 4.0);
    add_episode(&m, PAIR, -1, 179, 180, 100.0);
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(ran(tr, 50, 400, PAIR) && tr->stats[189].delta == 2);
    trace_free(tr);
}

/* ------------------------------------------------------------------------------------------ */
/* (4) delta doubles while the choice stays good and never exceeds delta_max. */

static void check_windows(int delta_max, const long *calls, const int *deltas, int windows)
{
    model m = five_model();
    ac_star_params p = defaults(0);
    p.delta_max = delta_max;
    sim_config cfg = {five, 5, p, 2, 3000, &m, -1, 0, NULL};
    sim_trace *tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(tr->agreements == windows + 1);
    CHECK(tr->agree_call[0] == 49);
    for (int w = 0; w < windows && w + 1 < tr->agreements; w++) {
        CHECK(tr->agree_call[w + 1] == calls[w]);
        CHECK(tr->stats[calls[w]].delta == deltas[w]);
    }
    int highest = 0;
    for (long call = 0; call < 3000; call++)
        if (tr->stats[call].delta > highest) highest = tr->stats[call].delta;
    CHECK(highest == delta_max);
    CHECK(ran(tr, 50, 3000, PAIR));
    trace_free(tr);
}

static void test_delta(void)
{
    /* Windows of 20, 40, 80, 160, 320, then 640 calls. */
    static const long calls64[] = {69, 109, 189, 349, 669, 1309, 1949, 2589};
    static const int deltas64[] = {4, 8, 16, 32, 64, 64, 64, 64};
    check_windows(64, calls64, deltas64, 8);
    /* A bound that is not a power of two: 32 doubles to 48. */
    static const long calls48[] = {69, 109, 189, 349, 669, 1149, 1629, 2109, 2589};
    static const int deltas48[] = {4, 8, 16, 32, 48, 48, 48, 48, 48};
    check_windows(48, calls48, deltas48, 9);

    /* Parameters are taken as given (core/config.c checks the settings: test_config). */
    ac_star_params p = {1000, 0.0, AC_STAR_DELTA_INIT, 2, 0, 0}, got;
    ac_star_set_params(&p);
    ac_star_get_params(&got);
    CHECK(memcmp(&got, &p, sizeof p) == 0);
}

/* ------------------------------------------------------------------------------------------ */
/* (5) Grouping: representatives, then the best group; probes of a new group. */

static void test_grouping(void)
{
    /* Representatives: native 1.0, tree_1 0.7, ring_1 0.6, pair_1 0.95 -> the ring group;
     * ring_2 (0.55) is its best. pair_2 (0.3) is the best overall, in a group that lost. */
    model m = {.base = {1.0e-3, 0.7e-3, 0.6e-3, 0.45e-3, 0.55e-3, 0.95e-3, 0.65e-3, 0.3e-3},
               .rank_skew = 0.01,
               .noise = 0.01};
    sim_config cfg = {eight, 8, defaults(1), 3, 300, &m, -1, 0, NULL};
    sim_trace *tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(ran(tr, 0, 10, G_NATIVE) && ran(tr, 10, 20, G_T1) && ran(tr, 20, 30, G_R1) &&
          ran(tr, 30, 40, G_P1)); /* one representative per group: the first member */
    CHECK(ran(tr, 40, 50, G_R2)); /* the rest of the best group; ring_1 is reused */
    CHECK(tr->stats[49].chosen == G_R2 && tr->final[0].measure_calls == 50);
    CHECK(ran(tr, 50, 300, G_R2));
    CHECK(tr->agreements >= 2 && tr->agree_call[0] == 39 && tr->agree_len[0] == 40 &&
          tr->agree_call[1] == 49 && tr->agree_len[1] == 10);
    long grouped = tr->final[0].measure_calls;
    trace_free(tr);

    cfg.params.grouping = 0;
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(tr->stats[79].chosen == G_P2 && tr->final[0].measure_calls == 80);
    CHECK(grouped < tr->final[0].measure_calls);
    trace_free(tr);

    /* The best group is a single candidate: no second agreement. */
    m.base[G_NATIVE] = 0.2e-3;
    cfg.params.grouping = 1;
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(tr->stats[39].chosen == G_NATIVE && tr->final[0].measure_calls == 40);
    CHECK(tr->agree_call[0] == 39 && agreement_at(tr, 49) < 0);
    trace_free(tr);

    /* Probe before trust: ring_1 is chosen (ring_2 0.9); it degrades, so the second best,
     * tree_1 (0.7), would be next; its group was never measured beyond it, so tree_2 and tree_3
     * run ITER times each first, and the best of the tree group, tree_2 (0.45), is chosen. */
    m.base[G_NATIVE] = 1.0e-3;
    m.base[G_R2] = 0.9e-3;
    add_episode(&m, G_R1, -1, 50, 1000000, 5.0);
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(tr->stats[49].chosen == G_R1 && ran(tr, 50, 70, G_R1));
    CHECK(ran(tr, 70, 80, G_T2) && ran(tr, 80, 90, G_T3)); /* the probe */
    CHECK(tr->stats[75].stage == AC_STAR_MONITOR_ADAPT);
    int k = agreement_at(tr, 89);
    CHECK(k >= 0 && tr->agree_len[k] == 20);
    CHECK(tr->stats[89].chosen == G_T2 && tr->stats[89].delta == 2);
    CHECK(ran(tr, 90, 300, G_T2));
    CHECK(tr->runs[G_T1] == 10 && tr->runs[G_P2] == 0); /* tree_1 reused; pair never probed */
    CHECK(tr->final[0].probe_calls == 20 && tr->final[0].switches == 1);
    CHECK(tr->final[0].measure_calls == 50);
    CHECK(tr->final[0].monitor_calls == 300 - 50 - 20);
    trace_free(tr);

    /* A switch inside a fully measured group needs no probe. */
    m.nepisodes = 0;
    m.base[G_R2] = 0.62e-3;
    add_episode(&m, G_R1, -1, 50, 1000000, 5.0);
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(tr->stats[49].chosen == G_R1 && ran(tr, 70, 300, G_R2));
    CHECK(tr->final[0].probe_calls == 0);
    trace_free(tr);

    /* Grouping on, but every candidate alone in its group: basic AEOS, one agreement. */
    model f = five_model();
    sim_config basic = {five, 5, defaults(1), 2, 100, &f, -1, 0, NULL};
    tr = simulate(&basic);
    CHECK(!tr->diverged);
    CHECK(tr->final[0].measure_calls == 50 && tr->agree_call[0] == 49 && tr->agree_len[0] == 50);
    trace_free(tr);
}

/* A warm start (history.c's knowledge, equal on every rank): every group known -> Monitor_Adapt
 * on the best known from the first call; the best one's group partly unknown -> Measure_Select
 * measures just its unknown members (ITER calls each) and picks the best of that group; a group
 * nobody measured -> a cold start. */
static void test_warm_start(void)
{
    /* the truth: tree_3 (0.3) is the best; ring_2 (0.55) the best of the rest */
    model m = {.base = {1.0e-3, 0.7e-3, 0.6e-3, 0.45e-3, 0.55e-3, 0.95e-3, 0.3e-3, 0.8e-3},
               .rank_skew = 0.01,
               .noise = 0.01};
    ac_knowledge all[8], part[8], cold[8];
    for (int i = 0; i < 8; i++)
        all[i] = (ac_knowledge){m.base[i], 0.0, 10};
    sim_config cfg = {eight, 8, defaults(1), 3, 200, &m, -1, 0, all};
    sim_trace *tr = simulate(&cfg);
    CHECK(!tr->diverged && tr->warm == 1);
    CHECK(ran(tr, 0, 200, G_T3) && tr->stats[0].stage == AC_STAR_MONITOR_ADAPT);
    CHECK(tr->final[0].measure_calls == 0 && tr->stats[0].chosen == G_T3);
    trace_free(tr);

    /* tree_2, tree_3 and pair_2 unknown; tree_1 (0.4 by history, 0.7 in truth) the best known */
    memcpy(part, all, sizeof part);
    part[G_T1].seconds = 0.4e-3;
    part[G_T2].samples = part[G_T3].samples = part[G_P2].samples = 0;
    cfg.know = part;
    tr = simulate(&cfg);
    CHECK(!tr->diverged && tr->warm == 1);
    CHECK(ran(tr, 0, 10, G_T2) && ran(tr, 10, 20, G_T3)); /* the members, tree_1 reused */
    CHECK(tr->final[0].measure_calls == 20 && tr->stats[19].chosen == G_T3);
    CHECK(ran(tr, 20, 200, G_T3) && tr->runs[G_P2] == 0 && tr->runs[G_T1] == 0);
    CHECK(tr->agreements >= 1 && tr->agree_call[0] == 19 && tr->agree_len[0] == 20);
    trace_free(tr);

    /* pair_1 and pair_2 unknown: the pair group was never measured */
    memcpy(cold, all, sizeof cold);
    cold[G_P1].samples = cold[G_P2].samples = 0;
    cfg.know = cold;
    tr = simulate(&cfg);
    CHECK(!tr->diverged && tr->warm == 0);
    CHECK(ran(tr, 0, 10, G_NATIVE) && tr->final[0].measure_calls == 50); /* as test_grouping */
    trace_free(tr);

    /* without grouping every candidate must be known */
    cfg.params.grouping = 0;
    cfg.know = part;
    tr = simulate(&cfg);
    CHECK(!tr->diverged && tr->warm == 0 && tr->final[0].measure_calls == 80);
    trace_free(tr);
}

/* ------------------------------------------------------------------------------------------ */
/* (6) Rank-divergent local times: identical choices on every rank at every call. */

static void test_rank_divergence(void)
{
    /* Rank 3 is 10x slower on pair: the agreed (slowest-rank) time rules pair out for all. */
    model m = five_model();
    add_episode(&m, PAIR, 3, 0, 1000000, 10.0);
    /* Later rank 1 alone sees simple degrade 10x from call 300: all ranks leave it together. */
    add_episode(&m, SIMPLE, 1, 300, 1000000, 10.0);
    sim_config cfg = {five, 5, defaults(0), 4, 600, &m, -1, 0, NULL};
    sim_trace *tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(tr->diverged_call == -1);
    CHECK(tr->stats[49].chosen == SIMPLE);
    CHECK(ran(tr, 50, 350, SIMPLE) && ran(tr, 350, 600, RING)); /* window 190..349 */
    for (int r = 1; r < 4; r++) {
        const ac_star_stats *a = &tr->final[0], *b = &tr->final[r];
        CHECK(a->stage == b->stage && a->chosen == b->chosen && a->switches == b->switches &&
              a->delta == b->delta && a->agreements == b->agreements &&
              a->measure_calls == b->measure_calls && a->monitor_calls == b->monitor_calls &&
              a->o_ms_c == b->o_ms_c);
        CHECK(a->monitor_seconds != b->monitor_seconds); /* the local views did differ */
    }
    trace_free(tr);

    /* Without rank 3 the same model picks pair: the slow rank did decide. */
    cfg.ranks = 3;
    tr = simulate(&cfg);
    CHECK(!tr->diverged && tr->stats[49].chosen == PAIR);
    trace_free(tr);

    /* With grouping and a probe, one rank slow on the probed group's best member. */
    model g = {.base = {1.0e-3, 0.7e-3, 0.6e-3, 0.45e-3, 0.9e-3, 0.95e-3, 0.65e-3, 0.3e-3},
               .rank_skew = 0.02,
               .noise = 0.02};
    add_episode(&g, G_R1, -1, 50, 1000000, 5.0);
    add_episode(&g, G_T2, 2, 0, 1000000, 10.0);
    sim_config grouped = {eight, 8, defaults(1), 4, 300, &g, -1, 0, NULL};
    tr = simulate(&grouped);
    CHECK(!tr->diverged);
    CHECK(tr->stats[89].chosen == G_T3 && ran(tr, 90, 300, G_T3));
    trace_free(tr);
}

/* ------------------------------------------------------------------------------------------ */
/* (7) One agreement per Measure_Select (two with grouping) and one per monitoring window. */

static void test_agreement_count(void)
{
    model m = five_model();
    sim_config cfg = {five, 5, defaults(0), 2, 349, &m, -1, 0, NULL};
    sim_trace *tr = simulate(&cfg);
    CHECK(!tr->diverged);
    /* Measure_Select: one agreement of all 50 times, at its last call. */
    CHECK(tr->agree_call[0] == 49 && tr->agree_len[0] == 50);
    /* Monitor_Adapt over calls 50..348: windows end at 69, 109, 189 (349 is not reached). */
    CHECK(tr->agreements == 4);
    for (int k = 1; k < tr->agreements; k++)
        CHECK(tr->agree_len[k] == 2);
    CHECK(tr->agree_call[1] == 69 && tr->agree_call[2] == 109 && tr->agree_call[3] == 189);
    CHECK(tr->final[0].agreements == tr->agreements);
    trace_free(tr);

    /* ITER = 3: the decision takes 15 calls, still one agreement of 15 values. */
    cfg.params.iter = 3;
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(tr->agree_call[0] == 14 && tr->agree_len[0] == 15 && tr->agree_call[1] == 20);
    CHECK(tr->final[0].measure_calls == 15);
    trace_free(tr);

    /* Grouping: exactly two in Measure_Select. */
    model g = {.base = {1.0e-3, 0.7e-3, 0.6e-3, 0.45e-3, 0.55e-3, 0.95e-3, 0.65e-3, 0.3e-3}};
    sim_config grouped = {eight, 8, defaults(1), 2, 69, &g, -1, 0, NULL};
    tr = simulate(&grouped);
    CHECK(!tr->diverged);
    CHECK(tr->agreements == 2 && tr->agree_call[0] == 39 && tr->agree_call[1] == 49);
    trace_free(tr);

    /* One candidate: nothing to measure, nothing to agree. */
    static const ac_algorithm *const one[] = {&alg_native};
    sim_config single = {one, 1, defaults(1), 2, 1000, &m, -1, 0, NULL};
    tr = simulate(&single);
    CHECK(!tr->diverged && tr->agreements == 0 && ran(tr, 0, 1000, NATIVE));
    CHECK(tr->final[0].measure_calls == 0 && tr->final[0].monitor_calls == 1000);
    trace_free(tr);
}

/* ------------------------------------------------------------------------------------------ */
/* (8) A failed agreement: its error comes back from observe(), then native, no agreement. */

static void test_agreement_error(void)
{
    model m = five_model();
    sim_config cfg = {five, 5, defaults(0), 2, 300, &m, 0, 17, NULL};
    sim_trace *tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(tr->rc == 17 && tr->rc_call == 49);
    CHECK(tr->agreements == 1 && ran(tr, 50, 300, NATIVE));
    CHECK(tr->final[0].stage == AC_STAR_STOPPED && tr->final[0].chosen == NATIVE);
    trace_free(tr);

    cfg.fail_agreement = 2; /* the second monitoring window */
    tr = simulate(&cfg);
    CHECK(!tr->diverged);
    CHECK(tr->rc == 17 && tr->rc_call == 109);
    CHECK(ran(tr, 50, 110, PAIR) && ran(tr, 110, 300, NATIVE) && tr->agreements == 3);
    trace_free(tr);
}

/* ------------------------------------------------------------------------------------------ */
/* (9) observe() misuse: another candidate than chosen is refused; bad times count as 0. */

static int no_agreement(void *ctx, double *values, int n)
{
    (void)values;
    (void)n;
    ++*(int *)ctx;
    return 0;
}

static void test_observe_guards(void)
{
    ac_star_params p = defaults(0);
    ac_star_set_params(&p);
    int agreed = 0;
    ac_agreement agree = {no_agreement, &agreed, 0};
    void *s = ac_strategy_star.create(five, 5, NULL, &no_facts);
    CHECK(s != NULL);
    CHECK(ac_strategy_star.choose(s) == NATIVE);
    CHECK(ac_strategy_star.observe(s, RING, 1.0, &agree, &deciding_after) == MPI_ERR_ARG);
    ac_star_stats st;
    ac_star_get_stats(s, &st);
    CHECK(st.measure_calls == 0 && ac_strategy_star.choose(s) == NATIVE);
    CHECK(ac_strategy_star.observe(s, NATIVE, -1.0, &agree, &deciding_after) == 0);
    CHECK(ac_strategy_star.observe(s, NATIVE, NAN, &agree, &deciding_after) == 0);
    ac_star_get_stats(s, &st);
    CHECK(st.measure_calls == 2 && st.measure_seconds == 0.0 && agreed == 0);
    ac_strategy_star.destroy(s);
    ac_strategy_star.destroy(NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* (10) Rechecks: the chosen one degrades for a while (a transient), star leaves it, measures it
 * again at growing intervals and comes back once it recovered; with recheck = 0 (STAR-MPI as
 * published) it never comes back. */

static void test_recheck(void)
{
    model m = five_model();
    add_episode(&m, PAIR, -1, 60, 1500, 4.0); /* 2 ms over calls 60..1499 */
    ac_star_params p = defaults(0);
    p.recheck = 200;
    sim_config cfg = {five, 5, p, 2, 3000, &m, -1, 0, NULL};
    sim_trace *tr = simulate(&cfg);
    CHECK(!tr->diverged);
    /* Left at the end of the window 50..69; simple's windows end at 89, 129, 209 and 369; at
     * 369 pair is 300 calls overdue: 10 recheck calls, still slow, interval 400. Windows 380..699
     * and 700..1339; at 1339 it is due again: still slow, interval 800. Windows 1350..1989 and
     * 1990..2629; at 2629 it is due: 0.5 ms against simple's 0.7 ms window: back to pair. */
    CHECK(ran(tr, 50, 70, PAIR) && ran(tr, 70, 370, SIMPLE));
    CHECK(ran(tr, 370, 380, PAIR) && ran(tr, 380, 1340, SIMPLE));
    CHECK(ran(tr, 1340, 1350, PAIR) && ran(tr, 1350, 2630, SIMPLE));
    CHECK(ran(tr, 2630, 3000, PAIR));
    CHECK(tr->stats[369].delta == 32 && tr->stats[379].delta == 32); /* kept over a recheck */
    CHECK(tr->stats[2639].chosen == PAIR && tr->stats[2639].delta == 2);
    CHECK(tr->final[0].rechecks == 3 && tr->final[0].recheck_calls == 30);
    CHECK(tr->final[0].switches == 2);
    int k = agreement_at(tr, 379);
    CHECK(k >= 0 && tr->agree_len[k] == 10);
    for (int r = 0; r < 2; r++) {
        const ac_star_stats *st = &tr->final[r];
        CHECK(fabs(st->measure_seconds + st->monitor_seconds + st->probe_seconds +
                   st->recheck_seconds - tr->clock[r]) < 1e-12);
    }
    trace_free(tr);

    /* STAR-MPI as published: exiled for good. */
    cfg.params.recheck = 0;
    tr = simulate(&cfg);
    CHECK(!tr->diverged && ran(tr, 70, 3000, SIMPLE) && tr->final[0].rechecks == 0);
    trace_free(tr);

    /* A candidate that stays slow: rechecks at doubling intervals, capped at 16 x 200. */
    m = five_model();
    add_episode(&m, PAIR, -1, 60, 1000000, 4.0);
    cfg.params.recheck = 200;
    cfg.calls = 20000;
    tr = simulate(&cfg);
    CHECK(!tr->diverged && tr->final[0].switches == 1);
    CHECK(tr->final[0].rechecks >= 5 && tr->final[0].rechecks <= 9);
    trace_free(tr);
}

static void run(const char *name, void (*test)(void))
{
    int before = failures;
    test();
    printf("%-28s %s\n", name, failures == before ? "ok" : "FAILED");
}

int main(void)
{
    run("picks_fastest", test_picks_fastest);
    run("switch_on_degradation", test_switch_on_degradation);
    run("transient", test_transient);
    run("delta", test_delta);
    run("grouping", test_grouping);
    run("warm_start", test_warm_start);
    run("rank_divergence", test_rank_divergence);
    run("agreement_count", test_agreement_count);
    run("agreement_error", test_agreement_error);
    run("observe_guards", test_observe_guards);
    run("recheck", test_recheck);
    if (failures) {
        fprintf(stderr, "test_star: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test_star: all checks passed\n");
    return 0;
}
