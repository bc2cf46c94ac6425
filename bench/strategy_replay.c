/*
 * strategy_replay.c - the run-time strategies replayed over measured per-call times, for
 * platforms too large to simulate their learning call by call (`autocoll simgrid replay`,
 * docs/simgrid.md, "Learning at scale").
 *
 * A cell of `autocoll bench --simgrid` measures every fixed algorithm of a context (a few calls
 * each, in step: an untimed barrier before every call) and native. Without noise a simulated
 * call's time depends on the algorithm and hardly on what ran before, so a strategy's run is a
 * sequence of those calls: this program runs the strategies' own code (src/select/: the same
 * create/choose/observe as in the layer, with the parameters of the settings) over the
 * context's candidate list (the registry's order, native first, inapplicable ones and twins
 * left out as select.c does) and gives each call the measured time of the candidate it chose,
 * plus `agreement` seconds for each agreement the strategy made during it (the layer's one
 * MPI_MAX allreduce on the private communicator). A candidate's first run costs its measured
 * first call instead (mesh sub-communicators are made then), unless a candidate with the same
 * mesh ran before (the layer caches meshes per communicator), and the run's first call costs
 * `start` more (the layer makes its private communicator then). With noise (detour:PROB:MEAN,
 * the driver's model) every call also waits for the longest delay among `ranks` ranks, each
 * delayed with probability PROB by an exponential of mean MEAN (a synchronising collective
 * waits for its last rank). One process, started as an MPI singleton (MPI_Init through the
 * layer sets the strategies' parameters); a 256-rank cell replays in under a second here.
 *
 * Input (stdin), one item a line:
 *   collective NAME | ranks N | ppn N | bytes B | calls N | agreement SECONDS | seed S
 *   noise PROB MEAN
 *   candidate NAME SECONDS [SECONDS ...]   measured calls of NAME (cycled through, in order)
 *   cold NAME SECONDS                      NAME's first call (the driver's first warm-up call)
 *   start SECONDS                          more for the layer's first call (its private
 *                                          communicator, the agreement on its state)
 *   layer NAME                             star_enhanced, star_basic, lottery, race or model,
 *                                          or fixed:CANDIDATE (that candidate on every call,
 *                                          under the same noise: the baseline of a noisy run)
 *   describe 1                             each layer's object also holds the strategy's own
 *                                          description after the last call (`state`: for
 *                                          model its fitted platform, predictions, medians)
 *   warm 1                                 start warm, as from a history file that knows every
 *                                          candidate: its median over WARM_SAMPLES calls
 *   subset 1                               the candidates are the measured ones only (the
 *                                          applicable ones not measured are left out, as
 *                                          AUTOCOLL_TABLE_TRY leaves out all but a rule's
 *                                          first few and native); without it each one
 *                                          applicable must have been measured
 *   suggest NAME                           one line per name, best first: a loaded table's
 *                                          rule for the context (the facts' `suggested`,
 *                                          which the model strategy measures first)
 * Output (stdout): one JSON object, per layer the candidate of every call and its seconds,
 * and the strategy's summary (decision length, chosen candidate).
 */
#include "coll/coll.h"
#include "coll/common/mesh.h"
#include "select/lottery.h"
#include "select/model.h"
#include "select/race.h"
#include "select/star.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "strategy_replay"
#define MAX_LAYERS 8
#define MAX_MEASURED 64
#define WARM_SAMPLES 10
#define MAX_SUGGESTED 8

typedef struct measured {
    char name[128];
    double seconds[MAX_MEASURED];
    int n;
    double cold; /* its first call on a new communicator (sub-communicators made); -1: unknown */
} measured;

/* A layer configuration: the strategy and the parameter the benchmark driver changes. */
typedef struct layer_spec {
    const char *name;
    const ac_strategy *strategy;
    int star_grouping; /* -1: as set */
} layer_spec;

static const layer_spec layer_specs[] = {
    {"star_enhanced", &ac_strategy_star, 1},
    {"star_basic", &ac_strategy_star, 0},
    {"lottery", &ac_strategy_lottery, -1},
    {"race", &ac_strategy_race, -1},
    {"model", &ac_strategy_model, -1},
};

typedef struct input {
    ac_collective coll;
    int ranks, ppn;
    size_t bytes;
    long calls;
    double agreement, start;
    double noise_prob, noise_mean;
    unsigned long long seed;
    int warm;   /* start every strategy from knowledge of every candidate (its median) */
    int describe; /* write the strategy's description after the last call */
    int subset; /* the measured candidates only */
    char suggest[MAX_SUGGESTED][128];
    int nsuggest;
    measured *cands;
    int ncands;
    const layer_spec *layers[MAX_LAYERS]; /* NULL: the fixed candidate of fixed[] */
    char fixed[MAX_LAYERS][128];
    int nlayers;
} input;

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, PROG ": %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

static int read_input(FILE *f, input *in)
{
    char line[16384];
    memset(in, 0, sizeof *in);
    in->coll = AC_NUM_COLLECTIVES;
    in->seed = 1;
    in->ppn = 1;
    while (fgets(line, sizeof line, f)) {
        char *key = strtok(line, " \t\n"), *val;
        if (!key) continue;
        val = strtok(NULL, " \t\n");
        if (!val) return fail("no value after", key);
        if (strcmp(key, "collective") == 0) {
            for (int c = 0; c < AC_NUM_COLLECTIVES; c++)
                if (strcmp(ac_collective_name((ac_collective)c), val) == 0)
                    in->coll = (ac_collective)c;
            if (in->coll == AC_NUM_COLLECTIVES) return fail("no such collective", val);
        } else if (strcmp(key, "ranks") == 0) {
            in->ranks = atoi(val);
        } else if (strcmp(key, "ppn") == 0) {
            in->ppn = atoi(val);
        } else if (strcmp(key, "bytes") == 0) {
            in->bytes = (size_t)strtoull(val, NULL, 10);
        } else if (strcmp(key, "calls") == 0) {
            in->calls = atol(val);
        } else if (strcmp(key, "agreement") == 0) {
            in->agreement = atof(val);
        } else if (strcmp(key, "warm") == 0) {
            in->warm = atoi(val);
        } else if (strcmp(key, "describe") == 0) {
            in->describe = atoi(val);
        } else if (strcmp(key, "subset") == 0) {
            in->subset = atoi(val);
        } else if (strcmp(key, "suggest") == 0) {
            if (in->nsuggest == MAX_SUGGESTED) return fail("too many suggestions", val);
            snprintf(in->suggest[in->nsuggest++], sizeof in->suggest[0], "%s", val);
        } else if (strcmp(key, "start") == 0) {
            in->start = atof(val);
        } else if (strcmp(key, "cold") == 0) {
            char *sec = strtok(NULL, " \t\n");
            measured *m = NULL;
            for (int k = 0; k < in->ncands && !m; k++)
                if (strcmp(in->cands[k].name, val) == 0) m = &in->cands[k];
            if (!m || !sec) return fail("cold needs a candidate named before and SECONDS", val);
            m->cold = atof(sec);
        } else if (strcmp(key, "seed") == 0) {
            in->seed = strtoull(val, NULL, 10);
        } else if (strcmp(key, "noise") == 0) {
            char *mean = strtok(NULL, " \t\n");
            if (!mean) return fail("noise needs PROB MEAN", NULL);
            in->noise_prob = atof(val);
            in->noise_mean = atof(mean);
        } else if (strcmp(key, "layer") == 0) {
            const layer_spec *spec = NULL;
            int fixed = strncmp(val, "fixed:", 6) == 0;
            for (size_t i = 0; i < sizeof layer_specs / sizeof layer_specs[0]; i++)
                if (strcmp(layer_specs[i].name, val) == 0) spec = &layer_specs[i];
            if (!spec && !fixed) return fail("no such layer", val);
            if (in->nlayers == MAX_LAYERS) return fail("too many layers", NULL);
            snprintf(in->fixed[in->nlayers], sizeof in->fixed[0], "%s", fixed ? val + 6 : "");
            in->layers[in->nlayers++] = spec;
        } else if (strcmp(key, "candidate") == 0) {
            measured *m = realloc(in->cands, sizeof *m * (size_t)(in->ncands + 1));
            if (!m) return fail("out of memory", NULL);
            in->cands = m;
            m = &in->cands[in->ncands++];
            memset(m, 0, sizeof *m);
            snprintf(m->name, sizeof m->name, "%s", val);
            m->cold = -1.0;
            for (char *s = strtok(NULL, " \t\n"); s && m->n < MAX_MEASURED;
                 s = strtok(NULL, " \t\n"))
                m->seconds[m->n++] = atof(s);
            if (m->n == 0) return fail("no seconds for candidate", val);
        } else {
            return fail("unknown line", key);
        }
    }
    if (in->coll == AC_NUM_COLLECTIVES || in->ranks < 1 || in->calls < 1 || in->ncands < 1 ||
        in->ppn < 1 || in->ranks % in->ppn)
        return fail("collective, ranks (a multiple of ppn), calls and candidates are required",
                    NULL);
    return 0;
}

/* The facts of the driver's call (bench/autocoll_bench.c), for applicability and twins. */
static ac_call driver_call(const input *in)
{
    ac_call call = {.collective = in->coll, .size = in->ranks, .op = MPI_OP_NULL,
                    .bytes = in->bytes};
    /* the driver's nodes, as its call gives them to hierarchical candidates: ppn ranks each
     * (ranks is a multiple of ppn); whether they are rank blocks matters to non-commutative
     * ops only, which the driver does not run */
    call.nodes = (ac_node_shape){.nodes = in->ranks / in->ppn, .ppn_min = in->ppn,
                                 .ppn_max = in->ppn, .blocks = 1};
    size_t n = in->bytes / 8;
    switch (in->coll) {
    case AC_ALLREDUCE:
    case AC_REDUCE:
    case AC_REDUCE_SCATTER:
    case AC_REDUCE_SCATTER_BLOCK:
        call.count = (int)n;
        call.op = MPI_SUM;
        call.op_builtin = call.op_commutative = 1;
        break;
    case AC_BCAST:
        call.count = (int)in->bytes;
        break;
    default:
        break;
    }
    return call;
}

/* The context's candidate list as select.c makes it (registry order, native first, no
 * inapplicable algorithm, no twin), restricted to the measured ones; *which[i] is candidate
 * i's measurement. Returns the number of candidates, -1 when one of the list was not measured
 * (with `subset`: it is left out). */
static int candidates_of(const input *in, const ac_algorithm **cands, const measured **which)
{
    ac_call call = driver_call(in);
    ac_algorithm_list r = ac_registry_for_size(in->coll, in->ranks);
    int n = 0;
    for (int i = 0; i < r.count; i++) {
        const ac_algorithm *a = r.algorithms[i];
        int twin = 0;
        for (int j = 0; j < n && !twin; j++)
            twin = ac_same_messages(cands[j], a, &call);
        if (twin || !ac_applicable(a, &call, NULL)) continue;
        const measured *m = NULL;
        for (int k = 0; k < in->ncands && !m; k++)
            if (strcmp(in->cands[k].name, a->name) == 0) m = &in->cands[k];
        if (!m && in->subset) continue;
        if (!m) {
            fprintf(stderr, PROG ": %s applies here but was not measured\n", a->name);
            return -1;
        }
        cands[n] = a;
        which[n++] = m;
    }
    return n;
}

/* The seconds of candidate i's next call: cold on its first run unless its mesh exists. */
static double call_seconds(const ac_algorithm **cands, const measured **which, int *runs, int n,
                           int i)
{
    const measured *m = which[i];
    int mesh_made = 0;
    for (int j = 0; j < n && !mesh_made; j++)
        mesh_made = j != i && runs[j] > 0 && ac_mesh_same(cands[i]->params, cands[j]->params);
    if (runs[i] == 0 && m->cold >= 0.0 && !mesh_made) {
        runs[i]++;
        return m->cold;
    }
    return m->seconds[runs[i]++ % m->n];
}

/* The agreement of one process: the values are already the maximum over the ranks (each
 * measurement is the slowest rank's time); counts the agreements of the current call. */
static int count_agreement(void *ctx, double *values, int n)
{
    (void)values;
    (void)n;
    ++*(int *)ctx;
    return MPI_SUCCESS;
}

/* splitmix64: uniform in [0, 1). */
static double uniform(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* The longest of the ranks' delays before one call (0 without noise). */
static double noise_wait(const input *in, unsigned long long *state)
{
    double longest = 0.0;
    if (in->noise_prob <= 0.0) return 0.0;
    for (int r = 0; r < in->ranks; r++)
        if (uniform(state) < in->noise_prob) {
            double d = -in->noise_mean * log(1.0 - uniform(state));
            if (d > longest) longest = d;
        }
    return longest;
}

static double median_of(const measured *m)
{
    double v[MAX_MEASURED];
    memcpy(v, m->seconds, sizeof(double) * (size_t)m->n);
    for (int i = 1; i < m->n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return m->n % 2 ? v[m->n / 2] : 0.5 * (v[m->n / 2 - 1] + v[m->n / 2]);
}

/* One candidate's measured calls on every call, with the same noise draws as the strategies'
 * runs, and without its cold call or the layer's set-up: the oracle or native of a noisy run,
 * as the measured ones are of a quiet run. */
static int replay_fixed(const input *in, const char *name, const ac_algorithm **cands,
                        const measured **which, int n, FILE *out)
{
    int i = 0, *runs = calloc((size_t)n, sizeof *runs);
    unsigned long long noise_state = in->seed;
    while (i < n && strcmp(cands[i]->name, name) != 0)
        i++;
    if (!runs || i == n) {
        free(runs);
        return fail("fixed: not a candidate here", name);
    }
    fprintf(out, "{\"layer\": \"fixed:%s\", \"decision_calls\": 0, \"chosen\": \"%s\", "
                 "\"switches\": 0, \"choices\": [",
            name, name);
    for (long call = 0; call < in->calls; call++)
        fprintf(out, "%s%d", call ? ", " : "", i);
    fputs("], \"times\": [", out);
    for (long call = 0; call < in->calls; call++) {
        double t = which[i]->seconds[runs[i]++ % which[i]->n] + noise_wait(in, &noise_state);
        fprintf(out, "%s%.9g", call ? ", " : "", t);
    }
    fputs("]}", out);
    free(runs);
    return 0;
}

/* The suggested names as candidate indices (the candidate of that name, or its twin) into
 * out[]; returns how many, -1 when one is neither an algorithm nor a candidate's twin. */
static int suggested_of(const input *in, const ac_algorithm **cands, int n, int *out)
{
    ac_call call = driver_call(in);
    int k = 0;
    for (int s = 0; s < in->nsuggest; s++) {
        const ac_algorithm *a = ac_registry_find(in->coll, in->suggest[s]);
        int found = -1;
        for (int i = 0; a && i < n && found < 0; i++)
            if (cands[i] == a || ac_same_messages(cands[i], a, &call)) found = i;
        if (found < 0) {
            fail("a suggestion is not a candidate here", in->suggest[s]);
            return -1;
        }
        out[k++] = found;
    }
    return k;
}

static int replay_layer(const input *in, const layer_spec *spec, const ac_algorithm **cands,
                        const measured **which, int n, FILE *out)
{
    ac_star_params star_saved;
    ac_star_get_params(&star_saved);
    if (spec->star_grouping >= 0) {
        ac_star_params p = star_saved;
        p.grouping = spec->star_grouping;
        ac_star_set_params(&p);
    }
    int *runs = calloc((size_t)n, sizeof *runs), rc = 1;
    int *choice = malloc(sizeof *choice * (size_t)in->calls);
    double *seconds = malloc(sizeof *seconds * (size_t)in->calls);
    int suggested[MAX_SUGGESTED];
    ac_context_facts facts = {.collective = in->coll, .size = in->ranks,
                              .nodes = in->ranks / in->ppn, .ppn = in->ppn, .bytes = in->bytes,
                              .suggested = suggested,
                              .nsuggested = suggested_of(in, cands, n, suggested)};
    void *state = NULL;
    ac_knowledge *known = in->warm ? calloc((size_t)n, sizeof *known) : NULL;
    if (!runs || !choice || !seconds || (in->warm && !known) || facts.nsuggested < 0) goto done;
    for (int i = 0; known && i < n; i++)
        known[i] = (ac_knowledge){median_of(which[i]), 0.0, WARM_SAMPLES};
    if (!(state = spec->strategy->create(cands, n, known, &facts))) goto done;
    unsigned long long noise_state = in->seed;
    int agreements = 0, deciding = 0;
    ac_agreement agree = {count_agreement, &agreements, 0};
    for (long call = 0; call < in->calls; call++) {
        int i = spec->strategy->choose(state);
        double t = call_seconds(cands, which, runs, n, i) + noise_wait(in, &noise_state);
        agreements = 0;
        if (spec->strategy->observe(state, i, t, &agree, &deciding) != MPI_SUCCESS) goto done;
        choice[call] = i;
        seconds[call] = t + agreements * in->agreement + (call == 0 ? in->start : 0.0);
    }
    ac_strategy_summary sum;
    spec->strategy->describe(state, cands, &sum, NULL);
    fprintf(out,
            "{\"layer\": \"%s\", \"decision_calls\": %ld, \"chosen\": \"%s\", "
            "\"switches\": %d",
            spec->name, sum.decision_calls, sum.chosen >= 0 ? cands[sum.chosen]->name : "",
            sum.switches);
    fputs(", \"choices\": [", out);
    for (long call = 0; call < in->calls; call++)
        fprintf(out, "%s%d", call ? ", " : "", choice[call]);
    fputs("], \"times\": [", out);
    for (long call = 0; call < in->calls; call++)
        fprintf(out, "%s%.9g", call ? ", " : "", seconds[call]);
    fputs("]", out);
    if (in->describe) {
        ac_json_writer w;
        ac_json_writer_init(&w, out);
        fputs(", \"state\": ", out);
        ac_json_object_begin(&w, NULL);
        spec->strategy->describe(state, cands, &sum, &w);
        ac_json_object_end(&w);
    }
    fputs("}", out);
    rc = 0;
done:
    if (state) spec->strategy->destroy(state);
    ac_star_set_params(&star_saved);
    free(known);
    free(runs);
    free(choice);
    free(seconds);
    return rc ? fail("a strategy failed", spec->name) : 0;
}

int main(int argc, char **argv)
{
    input in;
    int rc = 1;
    const ac_algorithm **cands = NULL;
    const measured **which = NULL;
    /* MPI_Init through the layer: the strategies' parameters come from their settings */
    MPI_Init(&argc, &argv);
    if (read_input(stdin, &in)) goto done;
    ac_algorithm_list r = ac_registry_for_size(in.coll, in.ranks);
    cands = malloc(sizeof *cands * (size_t)r.count);
    which = malloc(sizeof *which * (size_t)r.count);
    if (!cands || !which) goto done;
    int n = candidates_of(&in, cands, &which[0]);
    if (n < 1) goto done;
    printf("{\"candidates\": [");
    for (int i = 0; i < n; i++)
        printf("%s\"%s\"", i ? ", " : "", cands[i]->name);
    printf("], \"layers\": [");
    for (int l = 0; l < in.nlayers; l++) {
        if (l) printf(", ");
        if (in.layers[l] ? replay_layer(&in, in.layers[l], cands, which, n, stdout)
                         : replay_fixed(&in, in.fixed[l], cands, which, n, stdout))
            goto done;
    }
    printf("]}\n");
    rc = 0;
done:
    free(cands);
    free(which);
    free(in.cands);
    MPI_Finalize();
    return rc;
}
