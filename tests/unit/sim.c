/*
 * sim.c - simulated ranks for strategy tests (see sim.h).
 */
#include "sim.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What the last observe() said: whether the state was still deciding after it. */
static int deciding_after;

enum { MEET_CALL, MEET_AGREE, MEET_END };

#define MAX_VALUES 4096

typedef struct meeting {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int arrived;
    unsigned long generation;
    /* what each rank brought */
    int kind[SIM_MAX_RANKS];
    long call[SIM_MAX_RANKS];
    int n[SIM_MAX_RANKS];
    int choice[SIM_MAX_RANKS];
    double values[SIM_MAX_RANKS][MAX_VALUES];
    /* the outcome */
    int mismatch;
    double result[MAX_VALUES];
} meeting;

typedef struct shared {
    sim_run *run;
    meeting m;
    int stop;
} shared;

typedef struct rank_ctx {
    shared *sh;
    int rank;
    long call;
    int agreements;
    int diverged; /* a meeting inside an agreement did not match */
} rank_ctx;

/* Every rank brings (kind, call, n values, choice); returns 0 when they all match. */
static int meet(rank_ctx *rc, int kind, const double *values, int n, int choice)
{
    shared *sh = rc->sh;
    meeting *m = &sh->m;
    int r = rc->rank, ranks = sh->run->ranks, bad;
    pthread_mutex_lock(&m->lock);
    m->kind[r] = kind;
    m->call[r] = rc->call;
    m->n[r] = n;
    m->choice[r] = choice;
    if (n > 0 && n <= MAX_VALUES) memcpy(m->values[r], values, (size_t)n * sizeof *values);
    if (++m->arrived == ranks) {
        m->mismatch = 0;
        for (int i = 0; i < ranks; i++)
            if (m->kind[i] != kind || m->call[i] != rc->call || m->n[i] != n ||
                m->choice[i] != choice || n > MAX_VALUES)
                m->mismatch = 1;
        for (int j = 0; !m->mismatch && j < n; j++) {
            m->result[j] = m->values[0][j];
            for (int i = 1; i < ranks; i++)
                if (m->values[i][j] > m->result[j]) m->result[j] = m->values[i][j];
        }
        if (m->mismatch && !sh->run->diverged) {
            sh->run->diverged = 1;
            sh->run->diverged_call = rc->call;
        }
        m->arrived = 0;
        m->generation++;
        pthread_cond_broadcast(&m->cond);
    } else {
        unsigned long g = m->generation;
        while (g == m->generation) pthread_cond_wait(&m->cond, &m->lock);
    }
    bad = m->mismatch;
    pthread_mutex_unlock(&m->lock);
    return bad;
}

static int fake_max(void *arg, double *values, int n)
{
    rank_ctx *rc = arg;
    sim_run *run = rc->sh->run;
    int k = rc->agreements++;
    if (meet(rc, MEET_AGREE, values, n, -1)) {
        rc->diverged = 1;
        return -1;
    }
    memcpy(values, rc->sh->m.result, (size_t)n * sizeof *values);
    if (rc->rank == 0 && k < SIM_MAX_AGREEMENTS) {
        run->agree_call[k] = rc->call;
        run->agree_len[k] = n;
        run->agreements = k + 1;
    }
    return k == run->fail_agreement ? run->fail_rc : 0;
}

static void *rank_main(void *arg)
{
    rank_ctx *rc = arg;
    sim_run *run = rc->sh->run;
    ac_agreement agree = {fake_max, rc, rc->rank};
    static const ac_context_facts none = {0};
    void *state =
        run->strategy->create(run->candidates, run->n, run->know, run->facts ? run->facts : &none);
    if (state && run->know && rc->rank == 0) {
        ac_strategy_summary sum;
        run->strategy->describe(state, run->candidates, &sum, NULL);
        run->warm = sum.warm;
    }
    int stopped = 0;
    /* A rank without a state still meets the others, choosing -1, so they all stop. Every
     * stop is decided at a meeting, so all ranks stop together. */
    for (rc->call = 0; rc->call < run->calls && !stopped; rc->call++) {
        int c = state ? run->strategy->choose(state) : -1;
        if (c < 0 || c >= run->n) c = -1;
        if (meet(rc, MEET_CALL, NULL, 0, c) || c < 0) {
            stopped = 1;
            break;
        }
        double t = run->cost(run->cost_arg, c, rc->call, rc->rank);
        run->clock[rc->rank] += t;
        int rcode = run->strategy->observe(state, c, t, &agree, &deciding_after);
        if (rc->diverged) {
            stopped = 1;
            break;
        }
        if (rc->rank == 0) {
            run->choice[rc->call] = c;
            run->runs[c]++;
            if (rcode != 0 && run->rc == 0) {
                run->rc = rcode;
                run->rc_call = rc->call;
            }
            if (run->watch) run->watch(run->watch_arg, state, rc->call);
        }
    }
    /* The end is a meeting too: a rank still inside an agreement here diverged. */
    if (!stopped) meet(rc, MEET_END, NULL, 0, -1);
    if (state) run->strategy->destroy(state);
    return NULL;
}

int sim_execute(sim_run *run)
{
    pthread_t threads[SIM_MAX_RANKS];
    rank_ctx ctx[SIM_MAX_RANKS];
    shared *sh = calloc(1, sizeof *sh);
    if (!sh || run->ranks < 1 || run->ranks > SIM_MAX_RANKS || run->n > SIM_MAX_CANDIDATES) {
        free(sh);
        return -1;
    }
    run->choice = calloc((size_t)run->calls, sizeof *run->choice);
    if (!run->choice) {
        free(sh);
        return -1;
    }
    for (long i = 0; i < run->calls; i++) run->choice[i] = -1;
    run->diverged = 0;
    run->agreements = 0;
    run->rc = 0;
    memset(run->runs, 0, sizeof run->runs);
    memset(run->clock, 0, sizeof run->clock);
    sh->run = run;
    pthread_mutex_init(&sh->m.lock, NULL);
    pthread_cond_init(&sh->m.cond, NULL);
    for (int r = 0; r < run->ranks; r++) {
        ctx[r] = (rank_ctx){sh, r, 0, 0, 0};
        pthread_create(&threads[r], NULL, rank_main, &ctx[r]);
    }
    for (int r = 0; r < run->ranks; r++) pthread_join(threads[r], NULL);
    pthread_mutex_destroy(&sh->m.lock);
    pthread_cond_destroy(&sh->m.cond);
    free(sh);
    return 0;
}

void sim_free(sim_run *run)
{
    free(run->choice);
    run->choice = NULL;
}
