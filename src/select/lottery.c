/*
 * lottery.c - the `lottery` strategy: the lottery scheduler of Nishtala, Patel, Sanghavi and
 * Chakrabarti ("Automatic tuning of collective communication operations in MPI", Berkeley 2003,
 * section 6.1; ../shared/seeds/001_dc4f7c1caa8c7acd.txt), as a state machine over one
 * context's candidates. It makes no MPI call: the collective steps go through the ac_agreement
 * callback, which every rank reaches at the same call because every step below depends only on
 * call counters, agreed values and a generator whose state is the same on every rank
 * (invariant 1). choose() never looks at a local time.
 *
 * Statistics (6.1.2). Per candidate: an exponential average of its agreed times (weight `ema`
 * for a new time), an exponentially weighted variance (the same weight: West's update), the
 * plain mean, and counts. Times are agreed, never local: see "Agreements".
 *
 * Tickets (6.1.2 and the proposals at the end of 6.2). The winner is the measured candidate
 * with the smallest average (ties: the lower index; none measured: native, candidate 0). It
 * holds a share `alpha` of the tickets; the rest, 1 - alpha, is spread over the eligible other
 * candidates, uniformly or in inverse proportion to their average (`spread`; an unmeasured
 * candidate weighs as much as the winner). A candidate is eligible unless it is excluded:
 * measured at least AC_LOTTERY_MIN_SAMPLES times and slower than the winner by more than
 * `explore_sigmas` standard deviations of the difference, avg_j - avg_w > k sqrt(var_j + var_w)
 * (the paper's "at most two standard deviations more than the optimal running time"; k =
 * INFINITY turns the rule off). With no eligible candidate the winner holds every ticket.
 *
 * Draws and time-to-live (6.1.1). A draw picks a candidate with probability its share s and
 * holds it for TTL = ceil(s * ttl) calls (at least 1): the winner's choice holds about
 * alpha * ttl calls, an exploration a few. When the TTL runs out the next draw is made, at the
 * end of that call (in observe()), so choose() is a table look-up.
 *
 * Identical draws on every rank, two ways (`draw`):
 *   seed       every rank runs the same generator (splitmix64, seeded with `seed` mixed with a
 *              hash of the candidates' names, which every rank of a context has in the same
 *              order) and draws u in [0, 1) itself: no communication. The shares are computed
 *              from agreed statistics and call counters only, so every rank maps u to the same
 *              candidate and TTL.
 *   broadcast  the paper's: rank 0 draws u and the others take it from rank 0, through an
 *              agreement (MAX; every other rank contributes -1) at every draw: one per TTL.
 *              When a draw falls on the call of a timing agreement, u rides on it as one more
 *              value instead of costing an agreement of its own.
 * Both are measured in docs/lottery.md; `seed` (no communication per TTL) is the default.
 *
 * Agreements. The paper updates each node's averages from its own measurements; here a time
 * may influence a choice only once agreed. The local time of every call is kept; ONE agreement
 * of all of them (value k is the time of the k-th call since the last agreement, combined as
 * the maximum over the ranks: the slowest rank is the collective's time) happens at the end of
 * each window: the `init` round (n * init calls), then every `window` calls, whatever the TTLs.
 * The agreed times then update the statistics in call order. So the averages, the winner and
 * the tickets change only at agreements, equal on every rank.
 *
 * Unmeasured candidates (initialisation). With init > 0 (default 1) the first n * init calls
 * run each candidate init times in candidate order (native first), then one agreement, and the
 * lottery starts with every candidate measured. With init = 0, the paper's cold start: the
 * first call runs native (the winner while nothing is measured), the first draw follows it,
 * and unmeasured candidates are found only by exploration (section 6.1.3: about
 * Z lg Z / (1 - alpha) draws to see them all; tests/unit/test_lottery.c measures it).
 *
 * Rechecks (our addition). A candidate excluded by explore_sigmas is never drawn, so with the
 * paper's rule a transient slowness (section 6.1.2's example: a chain tree through a busy node)
 * would exile it for good. After `recheck` calls without running, an excluded candidate is
 * eligible again; when drawn, its first agreed time replaces its stale average (its variance
 * is kept), and if it is still excluded the interval doubles, up to AC_LOTTERY_RECHECK_CAP
 * times `recheck`: a permanently slow candidate costs O(log calls) explorations, and a
 * recovered one comes back within about the time it was slow. recheck = 0: never.
 *
 * Winner changes (our addition). Statistics change only at agreements, so a candidate that
 * has not run for a while keeps the average it had then. When the winner slows down (a rank
 * becomes busy), the next winner is the candidate with the smallest average, which may be an
 * equally affected one whose average is stale; it would hold the winner's share until the next
 * agreement a whole window later, and so would each such candidate in turn. So an agreement
 * that changes the winner ends the current draw (a new one is made at once, with the new
 * tickets) and brings the next agreement forward to AC_LOTTERY_CONFIRM_CALLS calls: a stale
 * winner is found out within a few calls. The paper updates each node's averages after every
 * call and has no such delay.
 *
 * Deviations from the paper, and why:
 * - Agreed (maximum over ranks) times instead of each node's own: the root of a broadcast
 *   returns before the others, so its own times would miss the slow rank of section 6.1.2.
 * - Statistics change at agreements (every `window` calls), not after every call.
 * - The TTL function: the paper says only that it is "a function of the implementation's
 *   relative number of tickets"; ceil(share * ttl) is the simplest increasing one.
 * - The variance and the "two standard deviations" are of the difference of two exponential
 *   averages' distributions (sqrt(var_j + var_w)); the paper does not say whose deviation.
 * - The init round, the rechecks and the early agreement after a winner change (above).
 *
 * Warm start (section 6.1.3's history; history.h). With earlier knowledge of some candidate,
 * the averages and variances start from history (the samples behind them count, up to
 * AC_LOTTERY_MIN_SAMPLES, for the exclusion rule), the init round is skipped and the first
 * call runs the best known candidate: the lottery has decided (decision_calls 0). Unknown
 * candidates are found by exploration, like the paper's cold start. save() gives the averages
 * with the agreed times of this run behind them.
 * - The parameters are taken as given (core/config.c checks the settings). If an agreement
 *   fails, observe() returns its error and the state stops: native from then on, no further
 *   agreement. observe() for another candidate than choose() returned is refused with
 *   MPI_ERR_ARG and changes nothing. A negative or NaN local time counts as 0.
 */
#include "select/lottery.h"
#include "core/config.h"
#include "select/monitor.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the lottery knows of one candidate. The first four fields are learned from agreed times
 * (equal on every rank): what a history file would keep (6.1.3). */
typedef struct lottery_candidate {
    double avg;       /* exponential average of its agreed times */
    double var;       /* exponentially weighted variance */
    double sum;       /* of its agreed times (the plain mean: sum / samples) */
    long samples;     /* agreed times (with `prior`) */
    long prior;       /* of them, the history file's (a warm start) */
    int excluded;     /* outside explore_sigmas of the winner at the last agreement */
    int recheck_draw; /* drawn as a recheck: its next agreed time replaces avg */
    long interval;    /* recheck interval while excluded */
    long runs;        /* calls that ran it (equal on every rank: they count calls) */
    long last_run;    /* the call count after its last call */
    double dsum;      /* agreed time of its calls run while deciding */
    long dcount;
} lottery_candidate;

/* A context's lottery: plain data, with pointers only to its own arrays. */
typedef struct lottery_state {
    ac_lottery_params p;
    int n;
    int stage;
    uint64_t rng;             /* the generator's state (the same on every rank) */
    lottery_candidate *cand;  /* [n] */
    unsigned char *rechecked; /* scratch [n]: a recheck time arrived in this agreement */
    double *share;            /* scratch [n]: the tickets of a draw */
    /* The window of local times since the last agreement. */
    int *win_cand;
    double *win_time;
    int win_len, win_target, win_size;
    /* The lottery. */
    int winner;
    int choice, ttl_left;
    int draw_winner; /* the winner when the current choice was drawn */
    int measured;
    long calls, explore_calls, decision_calls, draws, rechecks;
    int agreements, broadcasts, winner_changes;
    int have_winner;    /* some candidate was measured at an earlier agreement */
    int winner_changed; /* at the last agreement */
    double local_seconds;
    int warm; /* started from knowledge given to create() */
} lottery_state;

static ac_lottery_params lottery_params;

void ac_lottery_set_params(const ac_lottery_params *p)
{
    lottery_params = *p;
}

void ac_lottery_get_params(ac_lottery_params *out)
{
    *out = lottery_params;
}

/* splitmix64 (Steele, Lea, Flood 2014): a small generator with a 64-bit state, the same
 * sequence on every rank from the same seed. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static double rng_uniform(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) * 0x1.0p-53;
}

/* The generator's seed: the setting mixed with the candidates' names (FNV-1a). */
static uint64_t seed_of(uint64_t seed, const ac_algorithm *const *candidates, int n)
{
    uint64_t h = 14695981039346656037ull;
    for (int i = 0; i < n; i++) {
        for (const char *c = candidates[i]->name; c && *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
        h = (h ^ 0xffu) * 1099511628211ull;
    }
    uint64_t state = seed ^ h;
    rng_next(&state);
    return state;
}

/* The measured candidate with the smallest average (ties: lower index); 0 if none. */
static int lottery_best(const lottery_state *s)
{
    int best = -1;
    for (int i = 0; i < s->n; i++)
        if (s->cand[i].samples > 0 && (best < 0 || s->cand[i].avg < s->cand[best].avg)) best = i;
    return best < 0 ? 0 : best;
}

/* Whether j may be drawn for exploration now. */
static int lottery_eligible(const lottery_state *s, int j)
{
    if (j == s->winner) return 0;
    if (!s->cand[j].excluded) return 1;
    return s->p.recheck > 0 && s->calls - s->cand[j].last_run >= s->cand[j].interval;
}

/* The tickets of the next draw, in s->share. */
static void lottery_shares(lottery_state *s)
{
    double total = 0.0;
    for (int j = 0; j < s->n; j++) {
        s->share[j] = 0.0;
        if (!lottery_eligible(s, j)) continue;
        double w = 1.0;
        if (s->p.spread == AC_LOTTERY_INVERSE && s->cand[j].samples > 0 && !s->cand[j].excluded &&
            s->cand[j].avg > 0.0 && s->cand[s->winner].samples > 0)
            w = s->cand[s->winner].avg / s->cand[j].avg;
        s->share[j] = w;
        total += w;
    }
    if (total <= 0.0) {
        s->share[s->winner] = 1.0;
        return;
    }
    for (int j = 0; j < s->n; j++)
        s->share[j] *= (1.0 - s->p.alpha) / total;
    s->share[s->winner] = s->p.alpha;
}

/* A draw with u in [0, 1): the candidate and its time-to-live. */
static void lottery_draw(lottery_state *s, double u)
{
    if (!(u >= 0.0 && u < 1.0)) u = 0.0;
    lottery_shares(s);
    int pick = s->winner;
    double acc = 0.0;
    for (int j = 0; j < s->n; j++) {
        if (s->share[j] <= 0.0) continue;
        acc += s->share[j];
        if (u < acc) {
            pick = j;
            break;
        }
    }
    double t = ceil(s->share[pick] * s->p.ttl - 1e-9);
    s->ttl_left = t < 1.0 ? 1 : (int)t;
    s->choice = pick;
    s->draw_winner = s->winner;
    if (s->cand[pick].excluded) {
        s->cand[pick].recheck_draw = 1;
        s->rechecks++;
    }
    s->draws++;
}

/* One agreed time x of candidate c. */
static void lottery_update(lottery_state *s, int c, double x)
{
    double w = s->p.ema;
    if (s->cand[c].samples == 0) {
        s->cand[c].avg = x;
        s->cand[c].var = 0.0;
        s->measured++;
    } else if (s->cand[c].recheck_draw) {
        s->cand[c].avg = x; /* the stale average is replaced; the variance is kept */
        s->cand[c].recheck_draw = 0;
        s->rechecked[c] = 1;
    } else {
        double d = x - s->cand[c].avg, inc = w * d;
        s->cand[c].avg += inc;
        s->cand[c].var = (1.0 - w) * (s->cand[c].var + d * inc);
    }
    s->cand[c].samples++;
    s->cand[c].sum += x;
    if (s->decision_calls < 0) {
        s->cand[c].dsum += x;
        s->cand[c].dcount++;
    }
}

/* After new agreed times: the winner, the exclusions, the end of the decision. */
static void lottery_refresh(lottery_state *s)
{
    int best = lottery_best(s);
    s->winner_changed = s->have_winner && best != s->winner;
    if (s->winner_changed) s->winner_changes++;
    s->have_winner = s->measured > 0;
    s->winner = best;
    double k = s->p.explore_sigmas;
    long base = s->p.recheck;
    for (int j = 0; j < s->n; j++) {
        int bad = j != best && s->cand[j].samples >= AC_LOTTERY_MIN_SAMPLES &&
                  s->cand[best].samples > 0 &&
                  s->cand[j].avg - s->cand[best].avg > k * sqrt(s->cand[j].var + s->cand[best].var);
        if (!bad) {
            s->cand[j].excluded = 0;
            s->cand[j].interval = base;
        } else if (!s->cand[j].excluded) {
            s->cand[j].excluded = 1;
            s->cand[j].interval = base;
        } else if (s->rechecked[j]) {
            long cap = base * AC_LOTTERY_RECHECK_CAP;
            s->cand[j].interval = (long)ac_doubled(s->cand[j].interval, cap);
        }
        s->rechecked[j] = 0;
    }
    if (s->decision_calls < 0 && s->measured == s->n) s->decision_calls = s->calls;
}

/* An agreement failed: stop tuning, native from now on. */
static int lottery_stop(lottery_state *s, int rc)
{
    s->stage = AC_LOTTERY_STOPPED;
    s->choice = 0;
    return rc;
}

static void lottery_destroy(void *state)
{
    lottery_state *s = state;
    if (!s) return;
    free(s->cand);
    free(s->rechecked);
    free(s->share);
    free(s->win_cand);
    free(s->win_time);
    free(s);
}

static void *lottery_create_cold(const ac_algorithm *const *candidates, int n)
{
    lottery_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->p = lottery_params;
    s->n = n;
    size_t un = (size_t)n;
    s->win_size = s->p.window > n * s->p.init ? s->p.window : n * s->p.init;
    size_t uw = (size_t)s->win_size + 1; /* + the draw riding on an agreement */
    s->cand = calloc(un, sizeof *s->cand);
    s->rechecked = calloc(un, 1);
    s->share = calloc(un, sizeof *s->share);
    s->win_cand = calloc(uw, sizeof *s->win_cand);
    s->win_time = calloc(uw, sizeof *s->win_time);
    if (!s->cand || !s->rechecked || !s->share || !s->win_cand || !s->win_time) {
        lottery_destroy(s);
        return NULL;
    }
    s->rng = seed_of(s->p.seed, candidates, n);
    s->decision_calls = -1;
    s->winner = 0;
    s->choice = 0;
    s->draw_winner = 0;
    s->ttl_left = 1;
    if (n == 1) {
        s->stage = AC_LOTTERY_DRAWING;
        s->decision_calls = 0;
    } else if (s->p.init > 0) {
        s->stage = AC_LOTTERY_INIT;
        s->win_target = n * s->p.init;
    } else {
        s->stage = AC_LOTTERY_DRAWING; /* native first, then the first draw */
        s->win_target = s->p.window;
    }
    return s;
}

static void lottery_save(const void *state, ac_knowledge *out)
{
    const lottery_state *s = state;
    for (int i = 0; i < s->n; i++) {
        out[i].seconds = s->cand[i].avg;
        out[i].var = s->cand[i].var;
        out[i].samples = s->cand[i].samples - s->cand[i].prior;
    }
}

static int lottery_warm(void *state, const ac_knowledge *know)
{
    lottery_state *s = state;
    if (s->n < 2 || s->calls > 0 || s->stage == AC_LOTTERY_STOPPED) return 0;
    int known = 0;
    for (int i = 0; i < s->n; i++)
        if (know[i].samples > 0 && know[i].seconds >= 0.0 && isfinite(know[i].seconds)) {
            lottery_candidate *c = &s->cand[i];
            long k = know[i].samples < AC_LOTTERY_MIN_SAMPLES ? know[i].samples
                                                              : AC_LOTTERY_MIN_SAMPLES;
            c->avg = know[i].seconds;
            c->var = know[i].var >= 0.0 && isfinite(know[i].var) ? know[i].var : 0.0;
            c->samples = c->prior = k;
            c->sum = c->avg * (double)k;
            known++;
        }
    if (!known) return 0;
    s->measured = known;
    lottery_refresh(s);
    s->decision_calls = 0;
    s->stage = AC_LOTTERY_DRAWING;
    s->win_target = s->p.window;
    s->choice = s->draw_winner = s->winner;
    s->ttl_left = 1; /* the first draw follows the first call */
    return 1;
}

static int lottery_choose(void *state)
{
    lottery_state *s = state;
    if (s->stage == AC_LOTTERY_INIT) return (int)(s->calls / s->p.init);
    return s->choice;
}

/* The window's agreement, with rank 0's draw as one more value when `u` is not NULL. */
static int lottery_agree_window(lottery_state *s, const ac_agreement *agree, double *u)
{
    int len = s->win_len;
    if (u) s->win_time[len] = *u;
    int rc = agree->max(agree->ctx, s->win_time, len + (u != NULL));
    s->agreements++;
    if (rc != 0) return rc;
    if (u) *u = s->win_time[len];
    for (int k = 0; k < len; k++)
        lottery_update(s, s->win_cand[k], s->win_time[k]);
    s->win_len = 0;
    lottery_refresh(s);
    s->win_target = s->winner_changed && s->p.window > AC_LOTTERY_CONFIRM_CALLS
                        ? AC_LOTTERY_CONFIRM_CALLS
                        : s->p.window;
    return 0;
}

/* The u of a draw: every rank's own generator (seed), or rank 0's through an agreement of its
 * own (broadcast: the paper's, one per TTL). */
static int lottery_next_u(lottery_state *s, const ac_agreement *agree, double *u)
{
    if (s->p.draw == AC_LOTTERY_SEED) {
        *u = rng_uniform(&s->rng);
        return 0;
    }
    *u = agree->rank == 0 ? rng_uniform(&s->rng) : -1.0;
    s->agreements++;
    s->broadcasts++;
    return agree->max(agree->ctx, u, 1);
}

static int lottery_step(void *state, int index, double seconds, const ac_agreement *agree)
{
    lottery_state *s = state;
    if (index != lottery_choose(s)) return MPI_ERR_ARG;
    if (!(seconds >= 0.0)) seconds = 0.0;
    s->calls++;
    s->cand[index].runs++;
    s->cand[index].last_run = s->calls;
    s->local_seconds += seconds;
    if (s->stage == AC_LOTTERY_STOPPED || s->n == 1) return MPI_SUCCESS;
    if (s->stage == AC_LOTTERY_DRAWING && index != s->draw_winner) s->explore_calls++;

    s->win_cand[s->win_len] = index;
    s->win_time[s->win_len] = seconds;
    s->win_len++;
    int agree_now = s->win_len == s->win_target;
    int draw_now;
    if (s->stage == AC_LOTTERY_INIT) {
        draw_now = agree_now; /* the end of the init round */
    } else {
        s->ttl_left--;
        draw_now = s->ttl_left <= 0;
    }

    double u = 0.0;
    int have_u = 0;
    if (agree_now) {
        /* A draw due at this call rides on the agreement in broadcast mode. */
        int piggyback = draw_now && s->p.draw == AC_LOTTERY_BROADCAST;
        if (piggyback) u = agree->rank == 0 ? rng_uniform(&s->rng) : -1.0;
        int rc = lottery_agree_window(s, agree, piggyback ? &u : NULL);
        if (rc != 0) return lottery_stop(s, rc);
        have_u = piggyback;
        if (s->stage == AC_LOTTERY_DRAWING && s->winner_changed) draw_now = 1; /* see above */
    }
    if (draw_now && !have_u) {
        int rc = lottery_next_u(s, agree, &u);
        if (rc != 0) return lottery_stop(s, rc);
    }
    if (draw_now) {
        s->stage = AC_LOTTERY_DRAWING;
        lottery_draw(s, u);
    }
    return MPI_SUCCESS;
}

static int lottery_deciding(const void *state)
{
    const lottery_state *s = state;
    return s->stage != AC_LOTTERY_STOPPED && s->decision_calls < 0;
}

static double lottery_native_seconds(const void *state)
{
    const lottery_state *s = state;
    return s->cand[0].samples > 0 ? s->cand[0].sum / (double)s->cand[0].samples : -1.0;
}

void ac_lottery_get_stats(const void *state, ac_lottery_stats *out)
{
    const lottery_state *s = state;
    memset(out, 0, sizeof *out);
    out->stage = s->stage;
    out->winner = s->winner;
    out->choice = lottery_choose((void *)s);
    out->ttl_left = s->ttl_left;
    out->measured = s->measured;
    out->calls = s->calls;
    out->explore_calls = s->explore_calls;
    out->decision_calls = s->decision_calls;
    out->draws = s->draws;
    out->agreements = s->agreements;
    out->broadcasts = s->broadcasts;
    out->rechecks = s->rechecks;
    out->winner_changes = s->winner_changes;
    out->local_seconds = s->local_seconds;
    if (s->decision_calls >= 0 && s->cand[s->winner].samples > 0) {
        double mean = s->cand[s->winner].sum / (double)s->cand[s->winner].samples;
        for (int i = 0; i < s->n; i++)
            if (i != s->winner) out->o_ms_c += s->cand[i].dsum - (double)s->cand[i].dcount * mean;
    }
}

void ac_lottery_get_candidate(const void *state, int i, ac_lottery_candidate *out)
{
    lottery_state *s = (lottery_state *)state;
    memset(out, 0, sizeof *out);
    if (i < 0 || i >= s->n) return;
    out->average = s->cand[i].avg;
    out->sd = sqrt(s->cand[i].var);
    out->mean = s->cand[i].samples > 0 ? s->cand[i].sum / (double)s->cand[i].samples : 0.0;
    out->samples = s->cand[i].samples;
    out->runs = s->cand[i].runs;
    out->excluded = s->cand[i].excluded;
    out->recheck_in = -1;
    if (s->cand[i].excluded && s->p.recheck > 0) {
        long due = s->cand[i].interval - (s->calls - s->cand[i].last_run);
        out->recheck_in = due > 0 ? due : 0;
    }
    if (s->stage == AC_LOTTERY_DRAWING && s->n > 1) {
        lottery_shares(s); /* scratch only: the state's choices do not depend on it */
        out->tickets = s->share[i];
    } else {
        out->tickets = s->n == 1 ? 1.0 : 0.0;
    }
}

static const char *const stage_names[] = {
    [AC_LOTTERY_INIT] = "init",
    [AC_LOTTERY_DRAWING] = "lottery",
    [AC_LOTTERY_STOPPED] = "stopped",
};

static void lottery_describe(const void *state, const ac_algorithm *const *candidates,
                             ac_strategy_summary *out, ac_json_writer *w)
{
    const lottery_state *s = state;
    ac_lottery_stats st;
    ac_lottery_get_stats(state, &st);
    *out = (ac_strategy_summary){
        .stage = stage_names[st.stage],
        .deciding = lottery_deciding(s),
        .chosen = st.stage == AC_LOTTERY_STOPPED ? 0 : st.measured > 0 ? st.winner : -1,
        .decision_calls = st.decision_calls,
        .switches = st.winner_changes,
        .warm = s->warm,
        .o_ms_c = st.decision_calls >= 0 ? st.o_ms_c : -1.0,
        .native_seconds = lottery_native_seconds(s),
    };
    if (!w) return;
    ac_json_real(w, "alpha", s->p.alpha);
    ac_json_string(w, "spread", s->p.spread == AC_LOTTERY_INVERSE ? "inverse" : "uniform");
    ac_json_string(w, "draw", s->p.draw == AC_LOTTERY_BROADCAST ? "broadcast" : "seed");
    ac_json_integer_value(w, "ttl", s->p.ttl);
    ac_json_integer_value(w, "window", s->p.window);
    ac_json_real(w, "explore_sigmas", s->p.explore_sigmas); /* inf: null */
    ac_json_string(w, "choice", candidates[st.choice]->name);
    ac_json_integer_value(w, "ttl_left", st.ttl_left);
    ac_json_integer_value(w, "draws", st.draws);
    ac_json_integer_value(w, "agreements", st.agreements);
    ac_json_integer_value(w, "broadcasts", st.broadcasts);
    ac_json_integer_value(w, "rechecks", st.rechecks);
    ac_json_integer_value(w, "explore_calls", st.explore_calls);
    ac_json_real(w, "o_ms_c_seconds", st.o_ms_c);
    ac_json_array_begin(w, "lottery");
    for (int i = 0; i < s->n; i++) {
        ac_lottery_candidate c;
        ac_lottery_get_candidate(state, i, &c);
        ac_json_object_begin(w, NULL);
        ac_json_string(w, "name", candidates[i]->name);
        ac_json_real(w, "average_seconds", c.average);
        ac_json_real(w, "sd_seconds", c.sd);
        ac_json_real(w, "mean_seconds", c.mean);
        ac_json_integer_value(w, "samples", c.samples);
        ac_json_integer_value(w, "runs", c.runs);
        ac_json_real(w, "tickets", c.tickets);
        ac_json_boolean(w, "excluded", c.excluded);
        if (c.excluded) ac_json_integer_value(w, "recheck_in", c.recheck_in);
        ac_json_object_end(w);
    }
    ac_json_array_end(w);
}

static void *lottery_create(const ac_algorithm *const *candidates, int n,
                            const ac_knowledge *known, const ac_context_facts *facts)
{
    (void)facts;
    lottery_state *s = lottery_create_cold(candidates, n);
    if (s && known) s->warm = lottery_warm(s, known);
    return s;
}

static int lottery_observe(void *state, int index, double seconds, const ac_agreement *agree,
                           int *deciding)
{
    int rc = lottery_step(state, index, seconds, agree);
    *deciding = lottery_deciding(state);
    return rc;
}

/* The parameters from the AUTOCOLL_LOTTERY_* settings (core/config.c checks them). */
static void lottery_configure(void)
{
    ac_lottery_params lottery = {
        .alpha = ac_config_real("AUTOCOLL_LOTTERY_ALPHA"),
        .spread = ac_config_keyword("AUTOCOLL_LOTTERY_SPREAD"), /* AC_LOTTERY_UNIFORM, ... */
        .explore_sigmas = ac_config_real("AUTOCOLL_LOTTERY_EXPLORE_SIGMAS"),
        .ema = ac_config_real("AUTOCOLL_LOTTERY_EMA"),
        .ttl = (int)ac_config_int("AUTOCOLL_LOTTERY_TTL"),
        .window = (int)ac_config_int("AUTOCOLL_LOTTERY_WINDOW"),
        .init = (int)ac_config_int("AUTOCOLL_LOTTERY_INIT"),
        .recheck = (int)ac_config_int("AUTOCOLL_LOTTERY_RECHECK"),
        .draw = ac_config_keyword("AUTOCOLL_LOTTERY_DRAW"), /* AC_LOTTERY_SEED, ... */
        .seed = (uint64_t)ac_config_int("AUTOCOLL_LOTTERY_SEED"),
    };
    ac_lottery_set_params(&lottery);
}

/* The strategy's settings (strategy.h: `settings`), shown by autocoll-info and the settings
 * table of docs/guide.md among the others. */
static const char *const spread_names[] = {"uniform", "inverse", NULL};
static const char *const draw_names[] = {"seed", "broadcast", NULL};

static const ac_setting lottery_settings[] = {
    AC_DECLARE_REAL("AUTOCOLL_LOTTERY_ALPHA", "0.8", 0.0, 1.0, AC_REAL_OPEN_UNIT,
         "lottery: share of the tickets of the candidate with the smallest average time "
         "(alpha)"),
    AC_DECLARE_KEYWORD("AUTOCOLL_LOTTERY_SPREAD", "uniform", spread_names,
            "lottery: how the other 1 - alpha of the tickets are spread over the other "
            "candidates: equally, or in inverse proportion to their average time"),
    AC_DECLARE_REAL("AUTOCOLL_LOTTERY_EXPLORE_SIGMAS", "2", 0.0, 0.0, AC_REAL_INFINITY,
         "lottery: explore only candidates whose average is within this many standard "
         "deviations of the best's; inf: every candidate"),
    AC_DECLARE_REAL("AUTOCOLL_LOTTERY_EMA", "0.25", 0.0, 1.0, AC_REAL_HALF_OPEN_UNIT,
         "lottery: weight of a new agreed time in a candidate's exponential average"),
    AC_DECLARE_INTEGER("AUTOCOLL_LOTTERY_TTL", "20", 1, 1000000,
            "lottery: longest time-to-live; a draw with a share s of the tickets holds "
            "ceil(s * n) calls"),
    AC_DECLARE_INTEGER("AUTOCOLL_LOTTERY_WINDOW", "64", 1, 100000,
            "lottery: calls between two agreements of the timings (one allreduce each)"),
    AC_DECLARE_INTEGER("AUTOCOLL_LOTTERY_INIT", "1", 0, 1000,
            "lottery: calls of each candidate, in order, before the first draw; 0: the paper's "
            "cold start (unmeasured candidates are found by exploration)"),
    AC_DECLARE_INTEGER("AUTOCOLL_LOTTERY_RECHECK", "1000", 0, 100000000,
            "lottery: calls after which a candidate excluded by EXPLORE_SIGMAS may be explored "
            "again (doubling while it stays excluded, up to 16x); 0: never"),
    AC_DECLARE_KEYWORD("AUTOCOLL_LOTTERY_DRAW", "seed", draw_names,
            "lottery: how ranks draw alike: the same generator on every rank (no "
            "communication), or rank 0's draw carried by one agreement per time-to-live (the "
            "paper's broadcast)"),
    AC_DECLARE_INTEGER("AUTOCOLL_LOTTERY_SEED", "1", LONG_MIN, LONG_MAX,
            "lottery: seed of the generator of the draws"),
};

const ac_strategy ac_strategy_lottery = {
    .name = "lottery",
    .settings = lottery_settings,
    .nsettings = sizeof lottery_settings / sizeof lottery_settings[0],
    .learns = 1,
    .configure = lottery_configure,
    .create = lottery_create,
    .choose = lottery_choose,
    .observe = lottery_observe,
    .save = lottery_save,
    .describe = lottery_describe,
    .destroy = lottery_destroy,
};
