/*
 * test_adcl_model.c - the model-guided search of ADCL requests (the `model` rounds strategy,
 * src/select/model.c, given the halo cost model's features as data) and
 * the exchange's cost model (src/adcl/halo/cost.c) on one rank, without MPI:
 *   - feature vectors of the implementations against hand-computed values (a 2x2x2 grid's
 *     corner: one neighbour per dimension; a periodic one: two), contiguous and not;
 *   - with times drawn from the model under parameters far from the defaults (a Gigabit
 *     Ethernet-like and an InfiniBand-like platform, and one where a fence put wins), the
 *     search finds the fastest of the 21 while measuring at most 11 of them, at a cost under
 *     2 % of a 700-call run where the defaults are not far off;
 *   - with times the model cannot explain it still settles on the fastest it measured;
 *   - an inapplicable function is never run; without a model every function is measured.
 * The agreement is one rank's (the maximum is the value itself).
 */
#include "adcl/halo/cost.h"
#include "check.h"
#include "select/rounds.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int agree_self(void *ctx, double *values, int n)
{
    (void)ctx, (void)values, (void)n;
    return MPI_SUCCESS;
}

enum {
    L = AC_HALO_COST_LATENCY,
    B = AC_HALO_COST_BYTE,
    O = AC_HALO_COST_OVERHEAD,
    C = AC_HALO_COST_COPY,
    F = AC_HALO_COST_FENCE,
    H = AC_HALO_COST_HANDSHAKE,
    P = AC_HALO_COST_PARAMS,
    MAXF = 32,
    SAMPLES = 3
};

static const ac_halo_impl *find(const char *name)
{
    int n;
    const ac_halo_impl *r = ac_halo_registry(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(r[i].name, name) == 0) return &r[i];
    return NULL;
}

/* A 3-D exchange of 8 processes, faces of `face` bytes; periodic: a neighbour on both sides
 * of every dimension (6 distinct), else on the right side only (3). */
static ac_halo_shape grid(double face, int periodic, int contiguous)
{
    ac_halo_shape x;
    memset(&x, 0, sizeof x);
    x.ndims = 3;
    x.size = 8;
    x.neighbours = periodic ? 6 : 3;
    for (int d = 0; d < 3; d++)
        for (int s = 0; s < 2; s++) {
            x.exists[d][s] = periodic || s == 1;
            x.send[d][s] = x.recv[d][s] = face;
            x.contiguous[d][s] = contiguous;
        }
    return x;
}

static void expect(const char *name, const ac_halo_shape *x, const double want[P])
{
    const ac_halo_impl *impl = find(name);
    double f[P];
    int ok = 1;
    if (!CHECK(impl != NULL)) return;
    ac_halo_cost_features(impl, x, f);
    for (int j = 0; j < P; j++) ok &= fabs(f[j] - want[j]) <= 1e-9 * fabs(want[j]);
    if (!CHECK(ok)) {
        fprintf(stderr, "  %s:", name);
        for (int j = 0; j < P; j++)
            fprintf(stderr, " %s %g (want %g)", ac_halo_cost_param_name(j), f[j], want[j]);
        fprintf(stderr, "\n");
    }
}

/* The synthetic clock: the model's time of every registry function under `truth`, or a table. */
static int nfunctions;
static double features[MAXF * P], truth[P], table[MAXF];
static const char *names[MAXF];

static double model_cost(int f)
{
    return ac_halo_cost_time(&features[f * P], truth);
}

static double table_cost(int f)
{
    return table[f];
}

static void set_features(const ac_halo_shape *x)
{
    const ac_halo_impl *r = ac_halo_registry(&nfunctions);
    for (int f = 0; f < nfunctions; f++) {
        ac_halo_cost_features(&r[f], x, &features[f * P]);
        names[f] = r[f].name;
    }
}

/* Runs the model search to its decision; returns the calls it took, or -1 when it ran an
 * inapplicable function or did not decide. */
static int run(void **state, const int *applicable, double (*cost)(int), int with_model)
{
    static const double prior[P] = {5e-6, 1e-9, 5e-7, 5e-10, 5e-6, 5e-6};
    const ac_strategy *st = &ac_strategy_model_rounds;
    const ac_agreement agree = {.max = agree_self};
    ac_context_facts facts = {.size = 1,
                              .applicable = applicable,
                              .forced = -1,
                              .samples = SAMPLES,
                              .rounds = 1,
                              .margin = 0.1,
                              .features = with_model ? features : NULL,
                              .nfeatures = with_model ? P : 0,
                              .prior = prior,
                              .prior_weight = 0.001};
    if (!(*state = st->create(NULL, nfunctions, NULL, &facts))) return -1;
    const ac_rounds *s = ac_rounds_of(*state);
    for (int call = 0; call < 10000; call++) {
        int deciding;
        if (s->decided) return call;
        if (!applicable[s->current]) return -1;
        st->observe(*state, s->current, cost(s->current), &agree, &deciding);
    }
    return -1;
}

/* The fastest applicable function under cost (the lower index on a tie). */
static int fastest(const int *applicable, double (*cost)(int))
{
    int best = -1;
    for (int f = 0; f < nfunctions; f++)
        if (applicable[f] && (best < 0 || cost(f) < cost(best))) best = f;
    return best;
}

/* The model search finds the fastest under `params`, measuring at most 11 of the 21, and what
 * its measurements cost beyond the fastest's time is under `most` x 700 calls of the fastest
 * (issue 22's goal for a 700-iteration solve: 2 %). */
static void finds(const char *platform, const double params[P], const int *applicable,
                  double most)
{
    void *st;
    memcpy(truth, params, sizeof truth);
    int calls = run(&st, applicable, model_cost, 1), want = fastest(applicable, model_cost);
    ac_rounds s = *ac_rounds_of(st);
    double excess = 0.0;
    for (int f = 0; f < nfunctions; f++)
        if (s.agreed[f] >= 0) excess += SAMPLES * (model_cost(f) - model_cost(want));
    excess /= 700 * model_cost(want);
    CHECK(calls > 0);
    if (!CHECK(s.decided && model_cost(s.current) == model_cost(want)) ||
        !CHECK(s.measured <= 11) || !CHECK(calls == s.measured * SAMPLES) ||
        !CHECK(excess < most))
        fprintf(stderr, "  %s: chose %s (%g s), fastest %s (%g s), %d measured in %d calls\n",
                platform, names[s.current], model_cost(s.current), names[want], model_cost(want),
                s.measured, calls);
    printf("%s: %s after %d functions, %d calls, %.2f %% of 700 calls more\n", platform,
           names[s.current], s.measured, calls, 100 * excess);
    ac_strategy_model_rounds.destroy(st);
}

int main(void)
{
    /* Features, hand-computed. A corner of a 2x2x2 grid: 3 faces of 8 KiB, not contiguous. */
    ac_halo_shape corner = grid(8192, 0, 0), torus = grid(8192, 1, 0), flat = grid(8192, 0, 1);
    /*                                         latency byte   overhead copy fence handshake */
    expect("IsendIrecv_aao", &corner, (double[P]){1, 24576, 6, 49152, 0, 0});
    expect("SendIrecv_aao_pack", &corner, (double[P]){1, 24576, 6, 49152, 0, 0});
    expect("IsendIrecv_pair", &corner, (double[P]){3, 24576, 6, 49152, 0, 0});
    /* Send then Recv: each face out and in, one at a time */
    expect("Send_Recv_pair", &corner, (double[P]){6, 49152, 6, 49152, 0, 0});
    /* Sendrecv per side: a step that sends right, one that receives from the right: 2 steps
     * of one face a dimension */
    expect("Sendrecv_pair", &corner, (double[P]){6, 49152, 6, 49152, 0, 0});
    /* fences before and after: 2 x ceil(log2 8) rounds; a put is one access */
    expect("WinFencePut_aao", &corner, (double[P]){1, 24576, 3, 49152, 6, 0});
    /* a fence per dimension and one more; a get is a request and its reply */
    expect("WinFenceGet_pair", &corner, (double[P]){6, 24576, 3, 49152, 12, 0});
    /* a handshake per epoch: 2 rounds, 4 messages per neighbour */
    expect("PostStartPut_aao", &corner, (double[P]){1, 24576, 3 + 12, 49152, 0, 2});
    expect("PostStartGet_pair", &corner, (double[P]){6, 24576, 3 + 36, 49152, 0, 6});
    expect("Neighbor_alltoallw", &corner, (double[P]){1, 24576, 6, 49152, 0, 0});
    /* Contiguous faces: derived datatypes copy nothing, packing still does. */
    expect("IsendIrecv_aao", &flat, (double[P]){1, 24576, 6, 0, 0, 0});
    expect("IsendIrecv_aao_pack", &flat, (double[P]){1, 24576, 6, 49152, 0, 0});
    /* Periodic: 6 faces, both sides of every dimension. */
    expect("IsendIrecv_aao", &torus, (double[P]){1, 49152, 12, 98304, 0, 0});
    expect("IsendIrecv_pair", &torus, (double[P]){3, 49152, 12, 98304, 0, 0});
    expect("Send_Recv_pair", &torus, (double[P]){12, 98304, 12, 98304, 0, 0});
    expect("Sendrecv_pair", &torus, (double[P]){6, 49152, 12, 98304, 0, 0});
    expect("PostStartPut_pair", &torus, (double[P]){3, 49152, 6 + 72, 98304, 0, 6});

    /* Times from the model, parameters far from the defaults: found, with few measured. */
    int all[MAXF], applicable[MAXF];
    set_features(&corner);
    for (int f = 0; f < nfunctions; f++) all[f] = applicable[f] = 1;
    finds("gigabit ethernet", (double[P]){25e-6, 8.5e-9, 1e-6, 0, 40e-6, 30e-6}, all, 0.02);
    finds("infiniband", (double[P]){1e-6, 8e-11, 2e-7, 1e-10, 2e-6, 1.5e-6}, all, 0.02);
    /* Costly messages, cheap fences: a fence put (3 accesses, not 6 messages) wins. The
     * defaults are far off (overhead 80 x, handshakes 6 x): the first round measures a
     * handshake 5 x slower than the best, over 2 % of 700 calls but under 3 %. */
    finds("fence put", (double[P]){2e-6, 1e-10, 40e-6, 0, 1e-6, 30e-6}, all, 0.03);
    set_features(&torus);
    finds("periodic", (double[P]){25e-6, 8.5e-9, 1e-6, 1e-10, 40e-6, 30e-6}, all, 0.02);
    /* The fastest is inapplicable: never run, the next one wins. */
    memcpy(truth, (double[P]){25e-6, 8.5e-9, 1e-6, 0, 40e-6, 30e-6}, sizeof truth);
    applicable[fastest(all, model_cost)] = 0;
    finds("inapplicable fastest", truth, applicable, 0.02);

    /* Times the model cannot explain (the slowest predicted is the fastest): the search still
     * ends on the fastest function it measured, and measured it. */
    void *st;
    const ac_rounds *s;
    set_features(&corner);
    for (int f = 0; f < nfunctions; f++) table[f] = 1e-3 / (1 + f);
    CHECK(run(&st, all, table_cost, 1) > 0);
    s = ac_rounds_of(st);
    int best_measured = -1;
    for (int f = 0; f < nfunctions; f++)
        if (s->agreed[f] >= 0 && (best_measured < 0 || table[f] < table[best_measured]))
            best_measured = f;
    CHECK(s->decided && s->current == best_measured && s->agreed[s->current] == table[s->current]);
    ac_strategy_model_rounds.destroy(st);

    /* Without a model: every applicable function once, the fastest wins. */
    for (int f = 0; f < nfunctions; f++) applicable[f] = f != 3;
    CHECK(run(&st, applicable, table_cost, 0) == (nfunctions - 1) * SAMPLES);
    s = ac_rounds_of(st);
    CHECK(s->current == nfunctions - 1 && s->measured == nfunctions - 1);
    ac_strategy_model_rounds.destroy(st);

    /* One applicable function: decided at once, nothing measured. */
    int one[MAXF] = {0};
    one[5] = 1;
    CHECK(run(&st, one, table_cost, 1) == 0 && ac_rounds_of(st)->current == 5);
    ac_strategy_model_rounds.destroy(st);

    if (failures == 0) printf("test_adcl_model: ok\n");
    return failures != 0;
}
