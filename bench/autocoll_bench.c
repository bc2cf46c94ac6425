/*
 * autocoll_bench.c - STAR-MPI's micro-benchmark (Figure 4) for one collective and one message
 * size: each iteration runs a computation loop lasting `factor` times the native collective's
 * time, then one collective call, timed with PMPI_Wtime around the call only.
 *
 *   autocoll_bench --collective NAME --bytes N [--iterations 500] [--warmup 10] [--factor 5]
 *                  [--out FILE.json] [--only NAME[,NAME...]] [--compute loop|sleep]
 *                  [--noise none|exp:MEAN|detour:PROB:MEAN] [--noise-seed N]
 *                  [--sync none|barrier|clock]
 *
 * In one run, for the same workload, it measures configurations one after another: `native`
 * (the registry's native entry: PMPI_<Collective> itself), then every algorithm of the
 * collective for the world's size (ac_registry_for_size: the mesh layouts that factor it),
 * fixed, called directly on a private duplicate of MPI_COMM_WORLD as the
 * correctness harness does. Algorithms that do not apply to the call (ac_applicable) are never
 * run and are listed as skipped with the reason, as are those left out by --only (native always
 * runs: it is the baseline and the calibration). The oracle is the fixed algorithm with the
 * smallest median in this run.
 *
 * Workload. Message size is docs/guide.md's: the per-rank block for allgather, alltoall, gather
 * and scatter; the vector for allreduce, reduce, bcast and the reduce-scatters; the total for
 * allgatherv and alltoallv. Reductions use MPI_DOUBLE with MPI_SUM, count = bytes / 8 (bytes a
 * multiple of 8; of 8 x ranks for reduce_scatter_block); everything else moves MPI_BYTE. The
 * v-collectives and reduce_scatter split the total as evenly as possible, the first
 * (total mod ranks) ranks one element more. Rooted collectives use root 0.
 *
 * Calibration, once per run: the native collective back to back (after the warm-up) gives a
 * median (max across ranks per call); a loop of floating-point work is timed on every rank and
 * its length set so that it lasts `factor` times that median on the slowest rank. The same loop
 * length serves every configuration. Each configuration starts with a barrier on its private
 * communicator (never one per iteration: the loop models the application) and runs `warmup`
 * untimed iterations, then `iterations` timed ones; per-iteration times are reduced to their
 * maximum across ranks after the configuration, outside the timed region.
 *
 * Computation is a loop of floating-point work (`--compute loop`, real CPU time) or a sleep of
 * the same length (`--compute sleep`): under SimGrid's SMPI, run with simulated computation off
 * so that simulated time does not depend on this machine's load, a sleep is simulated time and
 * the loop takes none (docs/simgrid.md).
 *
 * Synchronisation (`--sync`): with `none` (the default, STAR-MPI's benchmark) nothing but the
 * computation separates two calls, so a collective that does not synchronise its ranks (bcast,
 * reduce, gather, scatter: the root returns once its sends are buffered) lets the ranks drift
 * apart: the lag of one call hides the latency of the next, and after a few calls each rank's
 * time is only its own overhead. With `barrier` every iteration (calibration included) starts
 * with a PMPI_Barrier on the configuration's communicator, outside the timed region, so each
 * call starts from ranks in step and its time (the maximum over the ranks) includes the
 * latency to the last rank, as OSU's and IMB's benchmarks measure it. A barrier does not release
 * every rank at the same instant, though: at 256 simulated ranks a receiver of a bcast released
 * late found its data already there, and the call's time no longer held the broadcast's latency.
 * With `clock` (only where MPI_WTIME_IS_GLOBAL says the ranks share one clock: SMPI's simulated
 * time) the ranks agree on the latest of their clocks (an allreduce, untimed) and each sleeps
 * until CLOCK_MARGIN after it, so every call starts at the same instant on every rank (to the
 * nanosecond of nanosleep) and its time, the maximum over the ranks, ends at the last rank to
 * finish. An iteration where a rank left the agreement after that instant fails the run.
 *
 * Noise on purpose (`--noise`): before every timed or warm-up call of every configuration
 * (never in the calibration), each rank sleeps a delay drawn from its own generator (seeded
 * with --noise-seed and the rank): `exp:MEAN`, an exponential delay of mean MEAN seconds on
 * every call; `detour:PROB:MEAN`, with probability PROB an exponential delay of mean MEAN, else
 * none (an operating-system detour). Ranks reach the call apart, as on a loaded machine, and
 * the call's time (the maximum over the ranks) pays for the skew.
 *
 * Output: a table on stdout (rank 0) and, with --out, JSON written atomically (schema
 * "autocoll-bench", version 1; times in seconds). Exit status 0, 1 on a failure, 2 on bad
 * arguments. A configuration is a {name, kind, run} struct: a new kind (strategies from a cold
 * start) adds a kind and a run function, nothing else.
 */
#include "coll/coll.h"
#include "core/config.h"
#include "core/state.h"
#include "report/report.h"
#include "select/lottery.h"
#include "select/race.h"
#include "select/select.h"
#include "select/star.h"
#include "select/table.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef AUTOCOLL_VERSION
#define AUTOCOLL_VERSION "unknown"
#endif
#ifndef AUTOCOLL_MPI_NAME
#define AUTOCOLL_MPI_NAME "unknown"
#endif

#define PROG "autocoll_bench"
#define EXIT_USAGE 2
#define CALIBRATION_CALLS 50      /* native calls timed back to back to calibrate the loop */
#define CALIBRATION_SECONDS 0.001 /* each timing of the loop lasts at least this long, */
#define CALIBRATION_REPS 20       /* below a time slice: the best is an undisturbed run */
#define HOST_LEN 256

/* ---- options ----------------------------------------------------------------------------- */

typedef struct options {
    ac_collective coll;
    long bytes; /* -1: not given */
    long iterations;
    long warmup;
    double factor;
    const char *out;       /* NULL: no JSON */
    const char *only;      /* comma-separated names, NULL: all */
    const char *layers;    /* comma-separated layer specs, NULL: AUTOCOLL_STRATEGY */
    long fixed_iterations; /* timed iterations of each fixed algorithm */
    const char *history;   /* --history, NULL: off */
    int compute_sleep;     /* --compute sleep: the computation is a sleep */
    const char *noise;     /* --noise as given */
    double noise_prob;     /* probability of a delay before a call (0: no noise) */
    double noise_mean;     /* mean of the exponential delay, seconds */
    long noise_seed;
    int sync;              /* --sync, an index of sync_names */
} options;

/* --sync: what separates two iterations (the header's "Synchronisation") */
enum { SYNC_NONE, SYNC_BARRIER, SYNC_CLOCK };
static const char *const sync_names[] = {"none", "barrier", "clock"};
#define CLOCK_MARGIN 1e-2 /* seconds from the agreed clock to the start (--sync clock) */

/* Layer configurations: the layer's own choice through MPI_<Coll>, with a strategy. */
typedef struct layer_spec {
    const char *name;     /* --layers name; the configuration is "layer:<name>" */
    const char *strategy; /* AUTOCOLL_STRATEGY value */
    int grouping;         /* star: 1 enhanced AEOS, 0 basic, -1 AUTOCOLL_STAR_GROUPING */
    int draw;             /* lottery: AC_LOTTERY_SEED, _BROADCAST, -1 AUTOCOLL_LOTTERY_DRAW */
    int final;            /* race: calls per finalist, -1 AUTOCOLL_RACE_FINAL */
    const char *summary;
} layer_spec;

static const layer_spec layer_specs[] = {
    {"native", "native", -1, -1, -1, "every call through the layer, native algorithm: its cost"},
    {"star", "star", -1, -1, -1, "STAR-MPI run-time tuning, AUTOCOLL_STAR_GROUPING as set"},
    {"star_enhanced", "star", 1, -1, -1, "STAR-MPI enhanced AEOS: algorithm grouping"},
    {"star_basic", "star", 0, -1, -1, "STAR-MPI basic AEOS: every algorithm measured"},
    {"lottery", "lottery", -1, -1, -1, "the lottery scheduler, AUTOCOLL_LOTTERY_DRAW as set"},
    {"lottery_seed", "lottery", -1, AC_LOTTERY_SEED, -1, "lottery, draws from the shared seed"},
    {"lottery_broadcast", "lottery", -1, AC_LOTTERY_BROADCAST, -1,
     "lottery, rank 0's draw sent once per TTL (paper)"},
    {"race", "race", -1, -1, -1, "autocoll's own run-time tuning: a race in rounds, medians"},
    {"race_final", "race", -1, -1, 8, "race with a final of 8 calls (AUTOCOLL_RACE_FINAL=8)"},
    {"model", "model", -1, -1, -1, "cost models choose the few candidates measured (issue 21)"},
    {"table", "table", -1, -1, -1, "the configuration table's algorithms (AUTOCOLL_TABLE)"},
};
#define NUM_LAYER_SPECS (int)(sizeof layer_specs / sizeof layer_specs[0])
#define MAX_LAYERS 8

static int g_rank, g_size;

/* AUTOCOLL_HISTORY before MPI_Init, where the layer reads it: --history's file, else off, so
 * that the layers start cold unless asked (every rank has the same arguments). */
static void history_setting(int argc, char **argv)
{
    const char *path = "off";
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--history=", 10) == 0) path = argv[i] + 10;
        if (strcmp(argv[i], "--history") == 0 && i + 1 < argc) path = argv[i + 1];
    }
    setenv("AUTOCOLL_HISTORY", path[0] ? path : "off", 1);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: " PROG " --collective NAME --bytes N [--iterations 500] [--warmup 10]\n"
               "       [--factor 5] [--out FILE.json] [--only NAME[,NAME...]]\n"
               "       [--fixed-iterations N] [--layers SPEC[,SPEC...]] [--history FILE]\n"
               "       [--compute loop|sleep] [--noise none|exp:MEAN|detour:PROB:MEAN]\n"
               "       [--noise-seed N] [--sync none|barrier]\n"
               "  --collective  one of:");
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++)
        if (!ac_collective_neighborhood((ac_collective)c))
            fprintf(f, " %s", ac_collective_name((ac_collective)c));
    fprintf(f, "\n  --bytes       message size (as in docs/guide.md); suffix K or M for KiB, MiB;\n"
               "                reductions use MPI_DOUBLE/MPI_SUM, count = bytes / 8\n"
               "  --iterations  timed iterations per configuration\n"
               "  --warmup      untimed iterations before them\n"
               "  --factor      computation per iteration, in multiples of the native time\n"
               "  --out         write the results as JSON (schema autocoll-bench, version 1)\n"
               "  --only        fixed algorithms to run (native always runs)\n"
               "  --fixed-iterations  timed iterations of each fixed algorithm (default:\n"
               "                --iterations; native and the layers always run --iterations)\n"
               "  --history     start the layers warm from this history file and merge what\n"
               "                they learn into it (docs/history.md); without it history is off\n"
               "                and every layer starts cold\n"
               "  --compute     loop (floating-point work, default) or sleep (the same time\n"
               "                asleep: simulated time under SMPI, docs/simgrid.md)\n"
               "  --noise       a random delay before every call, per rank: exp:MEAN (every\n"
               "                call, exponential, mean MEAN seconds) or detour:PROB:MEAN\n"
               "                (with probability PROB); none (default)\n"
               "  --noise-seed  seed of the ranks' delay generators (default 1)\n"
               "  --sync        none (default); barrier: a barrier before every iteration,\n"
               "                untimed, so that every call starts from ranks in step; clock:\n"
               "                every call starts at one instant of a global clock (SMPI)\n"
               "  --layers      layer configurations, each from a cold start with no warm-up\n"
               "                (default: AUTOCOLL_STRATEGY):");
    for (int i = 0; i < NUM_LAYER_SPECS; i++)
        fprintf(f, "\n                  %-18s %s", layer_specs[i].name, layer_specs[i].summary);
    fputc('\n', f);
}

/* Prints (rank 0) a usage error and returns EXIT_USAGE. */
static int usage_error(const char *fmt, ...)
{
    if (g_rank == 0) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, PROG ": error: ");
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, " (see " PROG " --help)\n");
        va_end(ap);
    }
    return EXIT_USAGE;
}

static int parse_long(const char *opt, const char *s, long min, long max, long *out)
{
    char *end;
    long mult = 1;
    long v = strtol(s, &end, 10);
    if (strcmp(opt, "--bytes") == 0 && end != s && (*end == 'K' || *end == 'k'))
        mult = 1024, end++;
    else if (strcmp(opt, "--bytes") == 0 && end != s && (*end == 'M' || *end == 'm'))
        mult = 1024 * 1024, end++;
    if (end == s || *end != '\0' || v < min || v > max / mult)
        return usage_error("%s: '%s' is not an integer in [%ld, %ld]", opt, s, min, max);
    *out = v * mult;
    return 0;
}

static int parse_factor(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !(v >= 0 && v <= 1000))
        return usage_error("--factor: '%s' is not a number in [0, 1000]", s);
    *out = v;
    return 0;
}

/* --noise none | exp:MEAN | detour:PROB:MEAN (seconds). */
static int parse_noise(const char *s, options *o)
{
    char *end;
    o->noise = s;
    o->noise_prob = 0;
    o->noise_mean = 0;
    if (strcmp(s, "none") == 0) return 0;
    if (strncmp(s, "exp:", 4) == 0) {
        o->noise_prob = 1;
        o->noise_mean = strtod(s + 4, &end);
    } else if (strncmp(s, "detour:", 7) == 0) {
        o->noise_prob = strtod(s + 7, &end);
        if (*end == ':') o->noise_mean = strtod(end + 1, &end);
        else end = (char *)s;
    } else {
        end = (char *)s;
    }
    if (end == s || *end != '\0' || !(o->noise_prob > 0 && o->noise_prob <= 1) ||
        !(o->noise_mean > 0 && o->noise_mean <= 10))
        return usage_error("--noise: '%s' is not none, exp:MEAN or detour:PROB:MEAN (0 < PROB "
                           "<= 1, 0 < MEAN <= 10 seconds)",
                           s);
    return 0;
}

/* Every name in --only must be an algorithm of the collective. */
static int check_only(const options *o)
{
    char buf[4096];
    if (!o->only) return 0;
    if (strlen(o->only) >= sizeof buf) return usage_error("--only: list too long");
    strcpy(buf, o->only);
    for (char *save = NULL, *name = strtok_r(buf, ",", &save); name;
         name = strtok_r(NULL, ",", &save))
        if (!ac_registry_find(o->coll, name))
            return usage_error("--only: no %s algorithm named '%s', autocoll-info lists them",
                               ac_collective_name(o->coll), name);
    return 0;
}

/* The layer specs of --layers (or AUTOCOLL_STRATEGY), in order; their count or EXIT_USAGE<0. */
static int parse_layers(const options *o, const layer_spec **out)
{
    char buf[512];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", o->layers ? o->layers : ac_config_get("AUTOCOLL_STRATEGY"));
    for (char *save = NULL, *name = strtok_r(buf, ",", &save); name;
         name = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < NUM_LAYER_SPECS && strcmp(layer_specs[k].name, name) != 0)
            k++;
        if (k == NUM_LAYER_SPECS) {
            usage_error("--layers: no layer configuration '%s' (--help lists them)", name);
            return -EXIT_USAGE;
        }
        if (n == MAX_LAYERS) {
            usage_error("--layers: at most %d", MAX_LAYERS);
            return -EXIT_USAGE;
        }
        /* Without a table the table strategy runs native: that would measure nothing. */
        if (strcmp(layer_specs[k].strategy, "table") == 0 && !ac_table_loaded()) {
            usage_error("--layers: '%s' needs a usable configuration table in AUTOCOLL_TABLE "
                        "(the layer's warning says why there is none)",
                        name);
            return -EXIT_USAGE;
        }
        out[n++] = &layer_specs[k];
    }
    return n;
}

static int only_selects(const options *o, const char *name)
{
    size_t n = strlen(name);
    if (!o->only) return 1;
    for (const char *p = o->only; (p = strstr(p, name)) != NULL; p += n)
        if ((p == o->only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

static int is_reduction(ac_collective c)
{
    return c == AC_ALLREDUCE || c == AC_REDUCE || c == AC_REDUCE_SCATTER ||
           c == AC_REDUCE_SCATTER_BLOCK;
}

/* Collectives whose buffers hold one block per rank. */
static int per_rank_blocks(ac_collective c)
{
    return c == AC_ALLGATHER || c == AC_ALLTOALL || c == AC_GATHER || c == AC_SCATTER ||
           c == AC_ALLTOALLV;
}

/* Returns 0, -1 after --help (exit 0), or EXIT_USAGE. Deterministic in argv and the size. */
static int parse_args(int argc, char **argv, options *o)
{
    const char *coll = NULL;
    int rc = 0;
    *o = (options){
        .bytes = -1, .iterations = 500, .warmup = 10, .factor = 5, .fixed_iterations = -1,
        .noise = "none", .noise_seed = 1};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val, *eq = strchr(arg, '=');
        char name[64];
        rc = 0;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            if (g_rank == 0) usage(stdout);
            return -1;
        }
        if (strncmp(arg, "--", 2) != 0) return usage_error("unexpected argument '%s'", arg);
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
        if (eq)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return usage_error("%s needs a value", name);
        if (strcmp(name, "--collective") == 0)
            coll = val;
        else if (strcmp(name, "--bytes") == 0)
            rc = parse_long(name, val, 0, INT_MAX, &o->bytes);
        else if (strcmp(name, "--iterations") == 0)
            rc = parse_long(name, val, 1, 100000000, &o->iterations);
        else if (strcmp(name, "--warmup") == 0)
            rc = parse_long(name, val, 0, 100000000, &o->warmup);
        else if (strcmp(name, "--factor") == 0)
            rc = parse_factor(val, &o->factor);
        else if (strcmp(name, "--out") == 0)
            o->out = val;
        else if (strcmp(name, "--only") == 0)
            o->only = val;
        else if (strcmp(name, "--layers") == 0)
            o->layers = val;
        else if (strcmp(name, "--fixed-iterations") == 0)
            rc = parse_long(name, val, 1, 100000000, &o->fixed_iterations);
        else if (strcmp(name, "--history") == 0)
            o->history = val; /* in force since MPI_Init (history_setting) */
        else if (strcmp(name, "--compute") == 0 && strcmp(val, "loop") == 0)
            o->compute_sleep = 0;
        else if (strcmp(name, "--compute") == 0 && strcmp(val, "sleep") == 0)
            o->compute_sleep = 1;
        else if (strcmp(name, "--compute") == 0)
            return usage_error("--compute: '%s' is not loop or sleep", val);
        else if (strcmp(name, "--sync") == 0) {
            o->sync = -1;
            for (int k = 0; k < (int)(sizeof sync_names / sizeof *sync_names); k++)
                if (strcmp(val, sync_names[k]) == 0) o->sync = k;
            if (o->sync < 0) return usage_error("--sync: '%s' is not none, barrier or clock", val);
        }
        else if (strcmp(name, "--noise") == 0)
            rc = parse_noise(val, o);
        else if (strcmp(name, "--noise-seed") == 0)
            rc = parse_long(name, val, 0, LONG_MAX, &o->noise_seed);
        else
            return usage_error("unknown option '%s'", name);
        if (rc) return rc;
    }
    if (!coll) return usage_error("--collective is required");
    int c = ac_collective_from_name(coll);
    if (c < 0) return usage_error("unknown collective '%s'", coll);
    if (ac_collective_neighborhood((ac_collective)c))
        return usage_error("%s needs a topology communicator: not measured by this driver", coll);
    o->coll = (ac_collective)c;
    if (o->coll == AC_BARRIER && o->bytes < 0) o->bytes = 0;
    if (o->bytes < 0) return usage_error("--bytes is required");
    if (o->coll == AC_BARRIER && o->bytes != 0)
        return usage_error("barrier moves no data: --bytes must be 0");
    if (is_reduction(o->coll) && o->bytes % 8 != 0)
        return usage_error("--bytes %ld: %s reduces MPI_DOUBLE elements, so bytes must be a "
                           "multiple of 8",
                           o->bytes, coll);
    if (o->coll == AC_REDUCE_SCATTER_BLOCK && o->bytes % (8L * g_size) != 0)
        return usage_error("--bytes %ld: reduce_scatter_block gives each of the %d ranks the "
                           "same number of doubles, so bytes must be a multiple of %ld",
                           o->bytes, g_size, 8L * g_size);
    if (per_rank_blocks(o->coll) && o->bytes > INT_MAX / g_size)
        return usage_error("--bytes %ld: %d blocks of it do not fit in an int", o->bytes, g_size);
    if (o->out && o->out[0] == '\0') return usage_error("--out needs a file name");
    if (o->fixed_iterations < 0) o->fixed_iterations = o->iterations;
    if (o->sync == SYNC_CLOCK) {
        int *global = NULL, flag = 0;
        PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
        if (!flag || !global || !*global)
            return usage_error("--sync clock needs one clock shared by every rank "
                               "(MPI_WTIME_IS_GLOBAL, e.g. SMPI's simulated time); this MPI's "
                               "clocks are not: use --sync barrier");
    }
    const layer_spec *specs[MAX_LAYERS];
    if (parse_layers(o, specs) < 0) return EXIT_USAGE;
    return check_only(o);
}

/* ---- workload ---------------------------------------------------------------------------- */

typedef struct workload {
    ac_collective coll;
    ac_call call; /* facts for ac_applicable, as the layer would see them */
    MPI_Datatype type;
    MPI_Op op;
    int count; /* elements per call: block, vector, own share or received block */
    int root;
    void *sbuf, *rbuf;
    int *scounts, *sdispls, *rcounts, *rdispls; /* v-collectives and reduce_scatter */
} workload;

/* The share of the total `n` that rank `i` gets: as even as possible, the first ones more. */
static int share(long n, int i)
{
    return (int)(n / g_size + (i < n % g_size ? 1 : 0));
}

static void fill_displs(const int *counts, int *displs)
{
    displs[0] = 0;
    for (int i = 1; i < g_size; i++)
        displs[i] = displs[i - 1] + counts[i - 1];
}

static int workload_init(workload *w, const options *o)
{
    size_t sbytes = 0, rbytes = 0, bytes = (size_t)o->bytes;
    long n = o->bytes / 8;
    int rc = MPI_SUCCESS;
    *w = (workload){.coll = o->coll, .type = MPI_BYTE, .op = MPI_OP_NULL, .root = 0};
    w->call = (ac_call){.collective = o->coll, .size = g_size, .op = MPI_OP_NULL, .bytes = bytes};
    if (is_reduction(o->coll)) {
        w->type = MPI_DOUBLE;
        w->op = MPI_SUM;
        ac_call_set_op(&w->call, MPI_SUM);
    }
    /* the node layout, as selection gives it to hierarchical candidates (AC_REQ_NODES);
     * collective over MPI_COMM_WORLD, whose layout each run's duplicate shares */
    if (ac_hier_instances(o->coll, g_size, NULL) > 0 &&
        (rc = ac_call_nodes(&w->call, MPI_COMM_WORLD)) != MPI_SUCCESS)
        return rc;
    w->scounts = calloc((size_t)g_size, sizeof(int));
    w->sdispls = calloc((size_t)g_size, sizeof(int));
    w->rcounts = calloc((size_t)g_size, sizeof(int));
    w->rdispls = calloc((size_t)g_size, sizeof(int));
    if (!w->scounts || !w->sdispls || !w->rcounts || !w->rdispls) {
        rc = MPI_ERR_NO_MEM;
        goto done;
    }
    switch (o->coll) {
    case AC_ALLGATHER:
    case AC_ALLTOALL:
    case AC_GATHER:
        w->count = (int)bytes;
        sbytes = o->coll == AC_ALLTOALL ? bytes * g_size : bytes;
        rbytes = bytes * g_size;
        break;
    case AC_SCATTER:
        w->count = (int)bytes;
        sbytes = bytes * g_size;
        rbytes = bytes;
        break;
    case AC_ALLGATHERV:
        for (int i = 0; i < g_size; i++)
            w->rcounts[i] = share(o->bytes, i);
        fill_displs(w->rcounts, w->rdispls);
        w->count = w->rcounts[g_rank];
        sbytes = (size_t)w->count;
        rbytes = bytes;
        break;
    case AC_ALLTOALLV:
        /* rank i sends share(i) bytes to every rank: every rank receives `bytes` in all */
        for (int i = 0; i < g_size; i++) {
            w->scounts[i] = share(o->bytes, g_rank);
            w->rcounts[i] = share(o->bytes, i);
        }
        fill_displs(w->scounts, w->sdispls);
        fill_displs(w->rcounts, w->rdispls);
        sbytes = (size_t)share(o->bytes, g_rank) * g_size;
        rbytes = bytes;
        break;
    case AC_BARRIER:
        break;
    case AC_BCAST:
        w->count = (int)bytes;
        w->call.count = w->count;
        sbytes = bytes;
        break;
    case AC_ALLREDUCE:
    case AC_REDUCE:
        w->count = (int)n;
        w->call.count = w->count;
        sbytes = rbytes = bytes;
        break;
    case AC_REDUCE_SCATTER:
        for (int i = 0; i < g_size; i++)
            w->rcounts[i] = share(n, i);
        w->count = w->rcounts[g_rank];
        w->call.count = (int)n;
        sbytes = bytes;
        rbytes = (size_t)w->count * 8;
        break;
    case AC_REDUCE_SCATTER_BLOCK:
        w->count = (int)(n / g_size);
        w->call.count = (int)n;
        sbytes = bytes;
        rbytes = (size_t)w->count * 8;
        break;
    default:
        rc = MPI_ERR_ARG;
        goto done;
    }
    /* Touch every page now, so that no configuration pays for first-touch faults. */
    w->sbuf = malloc(sbytes ? sbytes : 1);
    w->rbuf = malloc(rbytes ? rbytes : 1);
    if (!w->sbuf || !w->rbuf) {
        rc = MPI_ERR_NO_MEM;
        goto done;
    }
    if (w->type == MPI_DOUBLE)
        for (size_t i = 0; i < sbytes / 8; i++)
            ((double *)w->sbuf)[i] = 0.5 * (g_rank + 1) + (double)(i % 7);
    else
        memset(w->sbuf, g_rank + 1, sbytes);
    memset(w->rbuf, 0, rbytes);
done:
    return rc;
}

static void workload_free(workload *w)
{
    free(w->sbuf);
    free(w->rbuf);
    free(w->scounts);
    free(w->sdispls);
    free(w->rcounts);
    free(w->rdispls);
}

/* ---- configurations ---------------------------------------------------------------------- */

typedef enum bench_kind { KIND_NATIVE, KIND_FIXED, KIND_LAYER, NUM_KINDS } bench_kind;

static const char *const kind_names[NUM_KINDS] = {"native", "fixed", "layer"};

typedef struct bench_config bench_config;
struct bench_config {
    const char *name;
    bench_kind kind;
    /* One collective call of the workload on `comm` (the configuration's private duplicate of
     * MPI_COMM_WORLD). Returns an MPI error code. */
    int (*run)(const bench_config *cfg, const workload *w, MPI_Comm comm);
    const ac_algorithm *alg; /* native, fixed: the registry entry that runs; layer: NULL */
    const layer_spec *layer; /* layer: its strategy */
    char label[64];          /* layer: "layer:<spec>" (name points here) */
};

typedef struct skipped_config {
    const char *name;
    bench_kind kind;
    char reason[160];
} skipped_config;

/* Native and fixed: the registry entry's function, directly (native's is PMPI_<Collective>). */
static int run_algorithm(const bench_config *cfg, const workload *w, MPI_Comm comm)
{
    const ac_algorithm *a = cfg->alg;
    const ac_params *p = a->params;
    switch (w->coll) {
    case AC_ALLGATHER:
        return a->fn.allgather(w->sbuf, w->count, w->type, w->rbuf, w->count, w->type, comm, p);
    case AC_ALLGATHERV:
        return a->fn.allgatherv(w->sbuf, w->count, w->type, w->rbuf, w->rcounts, w->rdispls,
                                w->type, comm, p);
    case AC_ALLREDUCE:
        return a->fn.allreduce(w->sbuf, w->rbuf, w->count, w->type, w->op, comm, p);
    case AC_ALLTOALL:
        return a->fn.alltoall(w->sbuf, w->count, w->type, w->rbuf, w->count, w->type, comm, p);
    case AC_ALLTOALLV:
        return a->fn.alltoallv(w->sbuf, w->scounts, w->sdispls, w->type, w->rbuf, w->rcounts,
                               w->rdispls, w->type, comm, p);
    case AC_BARRIER:
        return a->fn.barrier(comm, p);
    case AC_BCAST:
        return a->fn.bcast(w->sbuf, w->count, w->type, w->root, comm, p);
    case AC_GATHER:
        return a->fn.gather(w->sbuf, w->count, w->type, w->rbuf, w->count, w->type, w->root, comm,
                            p);
    case AC_REDUCE:
        return a->fn.reduce(w->sbuf, w->rbuf, w->count, w->type, w->op, w->root, comm, p);
    case AC_REDUCE_SCATTER:
        return a->fn.reduce_scatter(w->sbuf, w->rbuf, w->rcounts, w->type, w->op, comm, p);
    case AC_REDUCE_SCATTER_BLOCK:
        return a->fn.reduce_scatter_block(w->sbuf, w->rbuf, w->count, w->type, w->op, comm, p);
    case AC_SCATTER:
        return a->fn.scatter(w->sbuf, w->count, w->type, w->rbuf, w->count, w->type, w->root, comm,
                             p);
    default:
        return MPI_ERR_ARG;
    }
}

/* Layer: the call goes through autocoll's own MPI_<Collective>, so the layer chooses as it
 * would in an application (AUTOCOLL_STRATEGY, or an algorithm forced by AUTOCOLL_<COLL>). The
 * configuration's communicator is new, so a tuning strategy starts cold. With
 * AUTOCOLL_STRATEGY=native it measures the layer's own cost per call against `native`. */
static int run_layer(const bench_config *cfg, const workload *w, MPI_Comm comm)
{
    (void)cfg;
    switch (w->coll) {
    case AC_ALLGATHER:
        return MPI_Allgather(w->sbuf, w->count, w->type, w->rbuf, w->count, w->type, comm);
    case AC_ALLGATHERV:
        return MPI_Allgatherv(w->sbuf, w->count, w->type, w->rbuf, w->rcounts, w->rdispls, w->type,
                              comm);
    case AC_ALLREDUCE:
        return MPI_Allreduce(w->sbuf, w->rbuf, w->count, w->type, w->op, comm);
    case AC_ALLTOALL:
        return MPI_Alltoall(w->sbuf, w->count, w->type, w->rbuf, w->count, w->type, comm);
    case AC_ALLTOALLV:
        return MPI_Alltoallv(w->sbuf, w->scounts, w->sdispls, w->type, w->rbuf, w->rcounts,
                             w->rdispls, w->type, comm);
    case AC_BARRIER:
        return MPI_Barrier(comm);
    case AC_BCAST:
        return MPI_Bcast(w->sbuf, w->count, w->type, w->root, comm);
    case AC_GATHER:
        return MPI_Gather(w->sbuf, w->count, w->type, w->rbuf, w->count, w->type, w->root, comm);
    case AC_REDUCE:
        return MPI_Reduce(w->sbuf, w->rbuf, w->count, w->type, w->op, w->root, comm);
    case AC_REDUCE_SCATTER:
        return MPI_Reduce_scatter(w->sbuf, w->rbuf, w->rcounts, w->type, w->op, comm);
    case AC_REDUCE_SCATTER_BLOCK:
        return MPI_Reduce_scatter_block(w->sbuf, w->rbuf, w->count, w->type, w->op, comm);
    case AC_SCATTER:
        return MPI_Scatter(w->sbuf, w->count, w->type, w->rbuf, w->count, w->type, w->root, comm);
    default:
        return MPI_ERR_ARG;
    }
}

/* Native first, then every algorithm for the world's size in registry order: run when applicable
 * and selected by --only, skipped (with the reason) otherwise; last the layer configurations.
 * Arrays hold that list's count plus MAX_LAYERS. */
static int configurations(const options *o, const workload *w, bench_config *run, int *nrun,
                          skipped_config *skip, int *nskip)
{
    ac_algorithm_list r = ac_registry_for_size(o->coll, g_size);
    const ac_algorithm *native = ac_registry_native(o->coll);
    *nrun = *nskip = 0;
    if (!native) return MPI_ERR_INTERN;
    run[(*nrun)++] = (bench_config){
        .name = native->name, .kind = KIND_NATIVE, .run = run_algorithm, .alg = native};
    for (int i = 0; i < r.count; i++) {
        const ac_algorithm *a = r.algorithms[i];
        const char *why = NULL;
        if (a == native) continue;
        if (ac_applicable(a, &w->call, &why) && only_selects(o, a->name)) {
            run[(*nrun)++] =
                (bench_config){.name = a->name, .kind = KIND_FIXED, .run = run_algorithm, .alg = a};
            continue;
        }
        skipped_config *s = &skip[(*nskip)++];
        *s = (skipped_config){.name = a->name, .kind = KIND_FIXED};
        if (why)
            snprintf(s->reason, sizeof s->reason, "needs %s", why);
        else
            snprintf(s->reason, sizeof s->reason, "not selected by --only");
    }
    const layer_spec *specs[MAX_LAYERS];
    int nlayers = parse_layers(o, specs);
    for (int i = 0; i < nlayers; i++) {
        bench_config *c = &run[(*nrun)++];
        *c = (bench_config){.kind = KIND_LAYER, .run = run_layer, .layer = specs[i]};
        snprintf(c->label, sizeof c->label, "layer:%s", specs[i]->name);
        c->name = c->label;
    }
    return MPI_SUCCESS;
}

/* ---- computation ------------------------------------------------------------------------- */

static volatile double compute_sink;
static int g_compute_sleep; /* --compute sleep: units are nanoseconds asleep */
static int g_sync;          /* --sync: SYNC_NONE, SYNC_BARRIER or SYNC_CLOCK */

static void sleep_seconds(double seconds)
{
    struct timespec ts = {.tv_sec = (time_t)seconds};
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    if (ts.tv_sec > 0 || ts.tv_nsec > 0) nanosleep(&ts, NULL);
}

/* --sync clock: the ranks agree on the latest of their clocks and each sleeps until CLOCK_MARGIN
 * after it, so that the iteration starts at one instant on every rank of a global clock. A rank
 * that leaves the agreement after that instant starts late and adds one to *late. */
static int clock_start(MPI_Comm comm, long *late)
{
    double now = PMPI_Wtime(), start;
    int rc = PMPI_Allreduce(&now, &start, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (rc != MPI_SUCCESS) return rc;
    start += CLOCK_MARGIN;
    now = PMPI_Wtime();
    if (now > start)
        ++*late;
    else
        sleep_seconds(start - now);
    return MPI_SUCCESS;
}

/* `units` steps of four independent floating-point recurrences. They converge to fixed points
 * (no overflow, no denormals), and the result is stored, so the compiler keeps the work. With
 * --compute sleep, `units` nanoseconds asleep instead. */
static void compute(long units)
{
    double a = 0.0, b = 1.0, c = 2.0, d = 3.0;
    if (g_compute_sleep) {
        sleep_seconds(1e-9 * (double)units);
        return;
    }
    for (long i = 0; i < units; i++) {
        a = a * 0.5 + 1.0;
        b = b * 0.75 + 0.5;
        c = c * 0.875 + 0.25;
        d = d * 0.9375 + 0.125;
    }
    compute_sink = a + b + c + d;
}

/* Loop units lasting `seconds` on the slowest rank: each rank takes its best of
 * CALIBRATION_REPS timings of at least CALIBRATION_SECONDS (short, so that ranks sharing a
 * core still see one undisturbed run), then the maximum of the lengths is agreed. */
static int compute_units(double seconds, long *units)
{
    double best = 0;
    long n = 1024, mine = 0;
    if (g_compute_sleep) {
        *units = (long)ceil(seconds * 1e9); /* equal on every rank: no agreement needed */
        return MPI_SUCCESS;
    }
    if (seconds > 0) {
        for (int reps = 0; reps < CALIBRATION_REPS;) {
            double t0 = PMPI_Wtime();
            compute(n);
            double t = PMPI_Wtime() - t0;
            if (t < CALIBRATION_SECONDS) {
                n *= 2;
                continue;
            }
            if (n / t > best) best = n / t;
            reps++;
        }
        mine = (long)ceil(seconds * best);
    }
    return PMPI_Allreduce(&mine, units, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
}

/* ---- noise ------------------------------------------------------------------------------- */

/* --noise: each rank's delays come from its own generator (splitmix64), seeded with
 * --noise-seed and the rank, so a run is reproducible and ranks are delayed independently. */
static double g_noise_prob, g_noise_mean;
static unsigned long long g_noise_state;

static double noise_uniform(void)
{
    unsigned long long z = (g_noise_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) * 0x1.0p-53; /* in (0, 1) */
}

static void noise_init(const options *o)
{
    g_noise_prob = o->noise_prob;
    g_noise_mean = o->noise_mean;
    g_noise_state = (unsigned long long)o->noise_seed * 0x100000001b3ULL + (unsigned)g_rank;
}

/* Sleeps this rank's next delay (none without --noise). */
static void noise_delay(void)
{
    if (g_noise_prob <= 0) return;
    double u = noise_uniform(), v = noise_uniform();
    if (u < g_noise_prob) sleep_seconds(-g_noise_mean * log(v));
}

/* ---- measurement ------------------------------------------------------------------------- */

typedef struct stats {
    double median, mean, min, max, p10, p90;
} stats;

typedef struct result {
    long n; /* timed iterations */
    ac_collective coll;
    double *times;   /* per timed iteration, max across ranks (rank 0) */
    double first;    /* the first warm-up iteration, max across ranks (rank 0): the cold call,
                      * sub-communicators made (-1 without warm-up) */
    double *compute; /* computation loop per iteration, max across ranks (rank 0) */
    stats time, comp;
    stats steady;   /* the last STEADY_CALLS timed iterations (all when fewer) */
    int *algs;      /* layer: registry index of the algorithm of every call (equal on all ranks) */
    char *contexts; /* layer: the tuning contexts of its communicator, JSON (rank 0) */
} result;

#define STEADY_CALLS 100

/* The strategies' parameters a layer configuration may change. */
typedef struct layer_saved {
    ac_star_params star;
    ac_lottery_params lottery;
    ac_race_params race;
} layer_saved;

/* Layer configurations switch the strategy new contexts get, star's grouping, the lottery's
 * draw mode and race's final. */
static void layer_begin(const layer_spec *l, layer_saved *saved)
{
    ac_star_get_params(&saved->star);
    ac_lottery_get_params(&saved->lottery);
    ac_race_get_params(&saved->race);
    ac_select_use_strategy(l->strategy);
    if (l->final >= 0) {
        ac_race_params p = saved->race;
        p.final = l->final;
        ac_race_set_params(&p);
    }
    if (l->grouping >= 0) {
        ac_star_params p = saved->star;
        p.grouping = l->grouping;
        ac_star_set_params(&p);
    }
    if (l->draw >= 0) {
        ac_lottery_params p = saved->lottery;
        p.draw = l->draw;
        ac_lottery_set_params(&p);
    }
}

static void layer_end(const layer_saved *saved)
{
    ac_star_set_params(&saved->star);
    ac_lottery_set_params(&saved->lottery);
    ac_race_set_params(&saved->race);
    ac_select_use_strategy(ac_config_get("AUTOCOLL_STRATEGY"));
}

/* The tuning contexts of comm as a JSON array, in a new string (NULL on no memory). */
static char *contexts_json(MPI_Comm comm, ac_collective coll)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    const ac_comm *c = ac_comm_find(comm);
    if (!f) return NULL;
    if (c)
        ac_report_contexts_json(f, c, coll);
    else
        fputs("[]", f);
    fclose(f);
    return text;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Percentile q in [0, 1] of sorted values, linear between closest ranks. */
static double percentile(const double *sorted, long n, double q)
{
    double pos = q * (double)(n - 1);
    long lo = (long)floor(pos);
    long hi = lo + 1 < n ? lo + 1 : lo;
    return sorted[lo] + (pos - (double)lo) * (sorted[hi] - sorted[lo]);
}

static int summarise(const double *values, long n, stats *s)
{
    double *sorted = malloc((size_t)n * sizeof(double)), sum = 0;
    if (!sorted) return MPI_ERR_NO_MEM;
    memcpy(sorted, values, (size_t)n * sizeof(double));
    qsort(sorted, (size_t)n, sizeof(double), cmp_double);
    for (long i = 0; i < n; i++)
        sum += sorted[i];
    *s = (stats){.median = percentile(sorted, n, 0.5),
                 .mean = sum / (double)n,
                 .min = sorted[0],
                 .max = sorted[n - 1],
                 .p10 = percentile(sorted, n, 0.1),
                 .p90 = percentile(sorted, n, 0.9)};
    free(sorted);
    return MPI_SUCCESS;
}

/* Runs one configuration: `warmup` untimed then `iterations` timed iterations of (a barrier
 * with --sync barrier, loop of `units`, the --noise delay when `noisy`, one call), on a
 * private duplicate of
 * MPI_COMM_WORLD. Fills res on rank 0. */
static int measure(const bench_config *cfg, const workload *w, long warmup, long iterations,
                   long units, int noisy, result *res)
{
    MPI_Comm comm = MPI_COMM_NULL;
    double *t = malloc((size_t)iterations * sizeof(double));
    double *c = malloc((size_t)iterations * sizeof(double));
    int *algs = cfg->layer ? malloc((size_t)iterations * 2 * sizeof(int)) : NULL;
    int rc = MPI_SUCCESS;
    long late = 0; /* --sync clock: iterations this rank started after the agreed instant */
    layer_saved saved;
    ac_algorithm_list reg = ac_registry_for_size(w->coll, g_size);
    res->times = res->compute = NULL;
    res->first = -1.0;
    res->algs = NULL;
    res->contexts = NULL;
    res->n = iterations;
    res->coll = w->coll;
    if (!t || !c || (cfg->layer && !algs)) {
        rc = MPI_ERR_NO_MEM;
        goto done;
    }
    if ((rc = PMPI_Comm_dup(MPI_COMM_WORLD, &comm)) != MPI_SUCCESS ||
        (rc = PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)) != MPI_SUCCESS ||
        (rc = PMPI_Barrier(comm)) != MPI_SUCCESS)
        goto done;
    if (cfg->layer) layer_begin(cfg->layer, &saved);
    for (long i = 0; i < warmup + iterations; i++) {
        if (g_sync == SYNC_BARRIER && (rc = PMPI_Barrier(comm)) != MPI_SUCCESS) break;
        if (g_sync == SYNC_CLOCK && (rc = clock_start(comm, &late)) != MPI_SUCCESS) break;
        double c0 = PMPI_Wtime();
        compute(units);
        if (noisy) noise_delay();
        double t0 = PMPI_Wtime();
        ac_select_clear_last_algorithm();
        rc = cfg->run(cfg, w, comm);
        double t1 = PMPI_Wtime();
        if (rc != MPI_SUCCESS) break;
        if (i == 0 && warmup > 0) res->first = t1 - t0;
        if (i >= warmup) {
            t[i - warmup] = t1 - t0;
            c[i - warmup] = t0 - c0;
            if (algs)
                algs[i - warmup] =
                    ac_select_last_algorithm()
                        ? ac_algorithm_list_index(reg, ac_select_last_algorithm())
                        : -1;
        }
    }
    if (cfg->layer) {
        layer_end(&saved);
        if (rc != MPI_SUCCESS) goto done;
        /* Invariant 1, checked: every rank ran the same algorithm at every call. The second
         * half holds the negated indices, so one MPI_MAX gives the maximum and the minimum. */
        for (long i = 0; i < iterations; i++)
            algs[iterations + i] = -algs[i];
        if ((rc = PMPI_Allreduce(MPI_IN_PLACE, algs, (int)(2 * iterations), MPI_INT, MPI_MAX,
                                 comm)) != MPI_SUCCESS)
            goto done;
        for (long i = 0; i < iterations; i++)
            if (algs[i] != -algs[iterations + i]) {
                fprintf(stderr, PROG ": %s: ranks ran different algorithms at call %ld\n",
                        cfg->name, i);
                rc = MPI_ERR_INTERN;
                goto done;
            }
        if (g_rank == 0 && !(res->contexts = contexts_json(comm, w->coll))) {
            rc = MPI_ERR_NO_MEM;
            goto done;
        }
    }
    if (rc != MPI_SUCCESS) goto done;
    if (g_sync == SYNC_CLOCK) {
        if ((rc = PMPI_Allreduce(MPI_IN_PLACE, &late, 1, MPI_LONG, MPI_SUM, comm)) !=
            MPI_SUCCESS)
            goto done;
        if (late > 0) {
            if (g_rank == 0)
                fprintf(stderr, PROG ": %s: --sync clock: %ld rank-iterations left the clock "
                        "agreement after the agreed start (CLOCK_MARGIN %g s)\n", cfg->name,
                        late, CLOCK_MARGIN);
            rc = MPI_ERR_OTHER;
            goto done;
        }
    }
    if ((rc = PMPI_Reduce(g_rank ? &res->first : MPI_IN_PLACE, &res->first, 1, MPI_DOUBLE,
                          MPI_MAX, 0, comm)) != MPI_SUCCESS ||
        (rc = PMPI_Reduce(g_rank ? t : MPI_IN_PLACE, t, (int)iterations, MPI_DOUBLE, MPI_MAX, 0,
                          comm)) != MPI_SUCCESS ||
        (rc = PMPI_Reduce(g_rank ? c : MPI_IN_PLACE, c, (int)iterations, MPI_DOUBLE, MPI_MAX, 0,
                          comm)) != MPI_SUCCESS)
        goto done;
    if (g_rank == 0) {
        long steady = iterations < STEADY_CALLS ? iterations : STEADY_CALLS;
        if ((rc = summarise(t, iterations, &res->time)) != MPI_SUCCESS ||
            (rc = summarise(c, iterations, &res->comp)) != MPI_SUCCESS ||
            (rc = summarise(t + iterations - steady, steady, &res->steady)) != MPI_SUCCESS)
            goto done;
        res->times = t;
        res->compute = c;
        res->algs = algs;
        t = c = NULL;
        algs = NULL;
    }
done:
    if (comm != MPI_COMM_NULL) PMPI_Comm_free(&comm);
    free(t);
    free(c);
    free(algs);
    return rc;
}

/* ---- machine ----------------------------------------------------------------------------- */

typedef struct host {
    char name[HOST_LEN];
    int ranks;
    int cores;
} host;

typedef struct machine {
    char started[32];
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int version, subversion;
    long cores; /* online cores on rank 0's host */
    double load_start[3], load_end[3];
    host *hosts; /* rank 0: distinct hosts in rank order */
    int nhosts;
    int simulated; /* SimGrid's SMPI: hosts are simulated, times are simulated time */
} machine;

static void read_loadavg(double load[3])
{
    FILE *f = fopen("/proc/loadavg", "r");
    load[0] = load[1] = load[2] = NAN;
    if (!f) return;
    if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
        load[0] = load[1] = load[2] = NAN;
    fclose(f);
}

static int machine_init(machine *m)
{
    host mine = {.ranks = 1};
    host *all = NULL;
    int len, rc = MPI_SUCCESS;
    time_t now = time(NULL);
    struct tm tm;
    memset(m, 0, sizeof *m);
    strftime(m->started, sizeof m->started, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    PMPI_Get_library_version(m->library, &len);
    PMPI_Get_version(&m->version, &m->subversion);
    m->cores = sysconf(_SC_NPROCESSORS_ONLN);
    read_loadavg(m->load_start);
    m->simulated = strncmp(m->library, "SMPI", 4) == 0;
    if (m->simulated) {
        /* This machine's name and cores say nothing of the simulated platform's hosts. */
        char name[MPI_MAX_PROCESSOR_NAME];
        int n = 0;
        PMPI_Get_processor_name(name, &n);
        snprintf(mine.name, sizeof mine.name, "%s", name);
    } else if (gethostname(mine.name, sizeof mine.name) != 0) {
        strcpy(mine.name, "unknown");
    }
    mine.name[HOST_LEN - 1] = '\0';
    mine.cores = (int)m->cores;
    if (g_rank == 0 && !(all = calloc((size_t)g_size, sizeof(host)))) rc = MPI_ERR_NO_MEM;
    PMPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) goto done;
    if ((rc = PMPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0,
                          MPI_COMM_WORLD)) != MPI_SUCCESS)
        goto done;
    if (g_rank == 0) {
        for (int i = 0; i < g_size; i++) {
            int j = 0;
            while (j < m->nhosts && strcmp(all[j].name, all[i].name) != 0)
                j++;
            if (j == m->nhosts)
                all[m->nhosts++] = all[i];
            else
                all[j].ranks++;
        }
        m->hosts = all;
        all = NULL;
    }
done:
    free(all);
    return rc;
}

/* ---- output ------------------------------------------------------------------------------ */

static void json_string(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch == '\t')
            fputs("\\t", f);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

static void json_stats(FILE *f, const char *prefix, const stats *s)
{
    const double v[] = {s->median, s->mean, s->min, s->max, s->p10, s->p90};
    const char *names[] = {"median", "mean", "min", "max", "p10", "p90"};
    for (int i = 0; i < 6; i++) {
        fprintf(f, ", \"%s%s\": ", prefix, names[i]);
        json_number(f, v[i]);
    }
}

static void json_load(FILE *f, const double load[3])
{
    fputc('[', f);
    for (int i = 0; i < 3; i++) {
        fputs(i ? ", " : "", f);
        json_number(f, load[i]);
    }
    fputc(']', f);
}

typedef struct run_info {
    const options *o;
    const workload *w;
    const machine *m;
    double native_median; /* calibration */
    long units;
    const bench_config *cfgs;
    const result *results;
    int ncfg;
    const skipped_config *skipped;
    int nskip;
    int oracle; /* index in cfgs, -1: no fixed configuration */
    char warnings[8][256];
    int nwarnings;
} run_info;

static const char *type_name(MPI_Datatype t)
{
    return t == MPI_DOUBLE ? "MPI_DOUBLE" : "MPI_BYTE";
}

/* A layer's algorithm per call, run-length encoded: [name, calls] pairs in call order. */
static void write_runs(FILE *f, const result *res)
{
    ac_algorithm_list reg = ac_registry_for_size(res->coll, g_size);
    for (long k = 0, first = 1; k < res->n;) {
        long end = k;
        while (end < res->n && res->algs[end] == res->algs[k])
            end++;
        fputs(first ? "[" : ", [", f);
        json_string(f, res->algs[k] >= 0 ? reg.algorithms[res->algs[k]]->name : "(none)");
        fprintf(f, ", %ld]", end - k);
        first = 0;
        k = end;
    }
}

static void write_json(FILE *f, const run_info *r)
{
    const options *o = r->o;
    const machine *m = r->m;
    fprintf(f, "{\n  \"schema\": \"autocoll-bench\",\n  \"version\": 1,\n");
    fprintf(f, "  \"autocoll_version\": \"%s\",\n  \"mpi\": \"%s\",\n", AUTOCOLL_VERSION,
            AUTOCOLL_MPI_NAME);
    fprintf(f, "  \"started\": \"%s\",\n  \"time_unit\": \"seconds\",\n", m->started);
    fprintf(f, "  \"machine\": {\n    \"hostname\": ");
    json_string(f, m->hosts[0].name);
    fprintf(f, ",\n    \"simulated\": %s", m->simulated ? "true" : "false");
    fprintf(f, ",\n    \"cores_online\": %ld,\n    \"loadavg_start\": ", m->cores);
    json_load(f, m->load_start);
    fprintf(f, ",\n    \"loadavg_end\": ");
    json_load(f, m->load_end);
    fprintf(f, ",\n    \"mpi_library\": ");
    json_string(f, m->library);
    fprintf(f, ",\n    \"mpi_standard\": \"%d.%d\",\n    \"ranks\": %d,\n    \"hosts\": [",
            m->version, m->subversion, g_size);
    for (int i = 0; i < m->nhosts; i++) {
        fprintf(f, "%s{\"name\": ", i ? ", " : "");
        json_string(f, m->hosts[i].name);
        fprintf(f, ", \"ranks\": %d, \"cores_online\": %d}", m->hosts[i].ranks, m->hosts[i].cores);
    }
    fprintf(f, "],\n    \"wtick\": ");
    json_number(f, PMPI_Wtick());
    fprintf(f, ",\n    \"registry_fingerprint\": \"%016lx\"\n  },\n", ac_registry_fingerprint());
    fprintf(f,
            "  \"parameters\": {\"collective\": \"%s\", \"bytes\": %ld, \"datatype\": \"%s\", "
            "\"op\": %s, \"count\": %d, \"root\": %d, \"iterations\": %ld, \"warmup\": %ld, "
            "\"factor\": ",
            ac_collective_name(o->coll), o->bytes, type_name(r->w->type),
            r->w->op == MPI_SUM ? "\"MPI_SUM\"" : "null",
            (int)(o->bytes / (r->w->type == MPI_DOUBLE ? 8 : 1)), r->w->root, o->iterations,
            o->warmup);
    json_number(f, o->factor);
    fprintf(f, ", \"fixed_iterations\": %ld, \"only\": ", o->fixed_iterations);
    if (o->only)
        json_string(f, o->only);
    else
        fputs("null", f);
    fprintf(f, ", \"history\": ");
    if (o->history)
        json_string(f, o->history);
    else
        fputs("null", f);
    fprintf(f, ", \"compute\": \"%s\", \"sync\": \"%s\", \"noise\": ",
            o->compute_sleep ? "sleep" : "loop", sync_names[o->sync]);
    json_string(f, o->noise);
    fprintf(f, ", \"noise_seed\": %ld", o->noise_seed);
    fprintf(f, "},\n  \"calibration\": {\"calls\": %d, \"native_median\": ", CALIBRATION_CALLS);
    json_number(f, r->native_median);
    fprintf(f, ", \"compute_target\": ");
    json_number(f, o->factor * r->native_median);
    fprintf(f, ", \"compute_units\": %ld},\n  \"configurations\": [", r->units);
    for (int i = 0; i < r->ncfg; i++) {
        const bench_config *c = &r->cfgs[i];
        const result *res = &r->results[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, c->name);
        fprintf(f, ", \"kind\": \"%s\", \"group\": ", kind_names[c->kind]);
        json_string(f, c->alg ? c->alg->group : NULL);
        json_stats(f, "", &res->time);
        json_stats(f, "compute_", &res->comp);
        json_stats(f, "steady_", &res->steady);
        fprintf(f, ", \"iterations\": %ld, \"first_call\": ", res->n);
        if (res->first >= 0.0)
            json_number(f, res->first);
        else
            fputs("null", f);
        if (c->layer) {
            fprintf(f, ",\n     \"layer\": {\"spec\": ");
            json_string(f, c->layer->name);
            fprintf(f, ", \"strategy\": ");
            json_string(f, c->layer->strategy);
            fprintf(f, ", \"grouping\": %d, \"draw\": %d, \"final\": %d, \"algorithm_runs\": [",
                    c->layer->grouping, c->layer->draw, c->layer->final);
            write_runs(f, res);
            fprintf(f, "],\n      \"contexts\": %s}", res->contexts ? res->contexts : "[]");
        }
        fprintf(f, ",\n     \"times\": [");
        for (long k = 0; k < res->n; k++) {
            fputs(k ? (k % 8 ? ", " : ",\n      ") : "", f);
            json_number(f, res->times[k]);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ],\n  \"skipped\": [");
    for (int i = 0; i < r->nskip; i++) {
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, r->skipped[i].name);
        fprintf(f, ", \"kind\": \"%s\", \"reason\": ", kind_names[r->skipped[i].kind]);
        json_string(f, r->skipped[i].reason);
        fputc('}', f);
    }
    fprintf(f, "%s],\n  \"oracle\": ", r->nskip ? "\n  " : "");
    if (r->oracle >= 0) {
        fprintf(f, "{\"name\": ");
        json_string(f, r->cfgs[r->oracle].name);
        fprintf(f, ", \"median\": ");
        json_number(f, r->results[r->oracle].time.median);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ",\n  \"warnings\": [");
    for (int i = 0; i < r->nwarnings; i++) {
        fputs(i ? ", " : "", f);
        json_string(f, r->warnings[i]);
    }
    fprintf(f, "]\n}\n");
}

static void print_table(const run_info *r)
{
    const options *o = r->o;
    const machine *m = r->m;
    double native = r->results[0].time.median;
    double oracle = r->oracle >= 0 ? r->results[r->oracle].time.median : NAN;
    char lib[80];
    int width = (int)strlen("configuration");
    for (int i = 0; i < r->ncfg; i++)
        if ((int)strlen(r->cfgs[i].name) > width) width = (int)strlen(r->cfgs[i].name);
    for (int i = 0; i < r->nskip; i++)
        if ((int)strlen(r->skipped[i].name) > width) width = (int)strlen(r->skipped[i].name);
    snprintf(lib, sizeof lib, "%.*s", (int)strcspn(m->library, ",\n"), m->library);
    printf("%s of %ld bytes", ac_collective_name(o->coll), o->bytes);
    if (r->w->type == MPI_DOUBLE) printf(" (%d doubles, MPI_SUM)", r->w->call.count);
    printf(" on %d ranks, %s; %ld iterations after %ld warm-up, computation %g x native\n", g_size,
           lib, o->iterations, o->warmup, o->factor);
    printf("host %s: %ld cores online, load %.2f -> %.2f\n", m->hosts[0].name, m->cores,
           m->load_start[0], m->load_end[0]);
    printf("calibration: native median %.2f us, computation %.2f us per iteration "
           "(%ld units, measured %.2f us in native)\n\n",
           1e6 * r->native_median, 1e6 * o->factor * r->native_median, r->units,
           1e6 * r->results[0].comp.median);
    printf("%-*s %-7s %10s %10s %10s %8s %8s\n", width, "configuration", "kind", "median us",
           "p10 us", "p90 us", "/native", "/oracle");
    for (int i = 0; i < r->ncfg; i++) {
        const stats *s = &r->results[i].time;
        char vs_oracle[16] = "-";
        if (r->oracle >= 0) snprintf(vs_oracle, sizeof vs_oracle, "%.2f", s->median / oracle);
        printf("%-*s %-7s %10.2f %10.2f %10.2f %8.2f %8s%s\n", width, r->cfgs[i].name,
               kind_names[r->cfgs[i].kind], 1e6 * s->median, 1e6 * s->p10, 1e6 * s->p90,
               s->median / native, vs_oracle, i == r->oracle ? "  oracle" : "");
    }
    for (int i = 0; i < r->nskip; i++)
        printf("%-*s %-7s skipped: %s\n", width, r->skipped[i].name, kind_names[r->skipped[i].kind],
               r->skipped[i].reason);
    for (int i = 0; i < r->nwarnings; i++)
        printf("warning: %s\n", r->warnings[i]);
}

static void warn(run_info *r, const char *fmt, ...)
{
    va_list ap;
    if (r->nwarnings == (int)(sizeof r->warnings / sizeof r->warnings[0])) return;
    va_start(ap, fmt);
    vsnprintf(r->warnings[r->nwarnings++], sizeof r->warnings[0], fmt, ap);
    va_end(ap);
}

/* Measurements the reader should distrust, said in the JSON and under the table. */
static void noise_warnings(run_info *r)
{
    const machine *m = r->m;
    char noisy[256] = "";
    int nnoisy = 0;
    for (int i = 0; i < m->nhosts && !m->simulated; i++)
        if (m->hosts[i].ranks > m->hosts[i].cores)
            warn(r, "%d ranks share the %d online cores of %s: times include scheduling",
                 m->hosts[i].ranks, m->hosts[i].cores, m->hosts[i].name);
    if (!m->simulated && m->load_start[0] >= 0.5 * (double)m->cores)
        warn(r, "load average %.2f at start on %ld cores: other work competes for them",
             m->load_start[0], m->cores);
    for (int i = 0; i < r->ncfg; i++) {
        const stats *s = &r->results[i].time;
        if (s->p90 > 2 * s->p10) {
            size_t used = strlen(noisy);
            if (nnoisy++ < 4)
                snprintf(noisy + used, sizeof noisy - used, "%s%s", used ? ", " : "",
                         r->cfgs[i].name);
        }
    }
    if (nnoisy)
        warn(r, "%d configuration(s) with p90 > 2 x p10 (noisy): %s%s", nnoisy, noisy,
             nnoisy > 4 ? ", ..." : "");
}

/* ---- main -------------------------------------------------------------------------------- */

/* Reports a failed MPI call (or allocation) and aborts: ranks may have diverged. */
static void fail(const char *what, int rc)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (rc == MPI_ERR_NO_MEM)
        snprintf(text, sizeof text, "out of memory");
    else
        PMPI_Error_string(rc, text, &len);
    fprintf(stderr, PROG ": rank %d: %s failed: %s\n", g_rank, what, text);
    PMPI_Abort(MPI_COMM_WORLD, 1);
}

/* Opens the temporary file beside --out on rank 0 now, so a bad path fails before the run. */
static int open_out(const options *o, char *tmp, size_t len, FILE **f)
{
    int ok = 1, err = 0;
    *f = NULL;
    if (!o->out) return 0;
    if (g_rank == 0) {
        snprintf(tmp, len, "%s.tmp%ld", o->out, (long)getpid());
        *f = fopen(tmp, "w");
        ok = *f != NULL;
        err = errno;
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok ? 0 : usage_error("--out %s: cannot write there: %s", o->out, strerror(err));
}

static int close_out(const options *o, const char *tmp, FILE *f)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, o->out) != 0) {
        fprintf(stderr, PROG ": error: --out %s: cannot write it\n", o->out);
        remove(tmp);
        return 1;
    }
    return 0;
}

/* Rank 0 says each configuration done (`autocoll bench` reads these lines to tell a hung job
 * from a slow one: tools/autocoll/run/bench.py, Stall). */
static void progress(int done, int total, const char *what)
{
    if (g_rank != 0) return;
    fprintf(stderr, "progress: %d/%d %s\n", done, total, what); /* stdout: the results */
    fflush(stderr);
}

int main(int argc, char **argv)
{
    options o;
    workload w = {0};
    machine m = {0};
    bench_config *cfgs = NULL;
    skipped_config *skipped = NULL;
    result *results = NULL, calib = {0};
    run_info r = {0};
    char tmp[4096] = "";
    FILE *out = NULL;
    int status = 0, rc, ncfg = 0, nskip = 0, nalg;
    long units = 0;
    double native_median = 0;

    history_setting(argc, argv);
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &g_size);
    status = parse_args(argc, argv, &o);
    if (status == 0) status = open_out(&o, tmp, sizeof tmp, &out);
    if (status != 0) goto done;
    g_compute_sleep = o.compute_sleep;
    g_sync = o.sync;
    noise_init(&o);

    if ((rc = machine_init(&m)) != MPI_SUCCESS) fail("collecting machine metadata", rc);
    if ((rc = workload_init(&w, &o)) != MPI_SUCCESS) fail("allocating the buffers", rc);
    nalg = ac_registry_for_size(o.coll, g_size).count + MAX_LAYERS;
    cfgs = calloc((size_t)nalg, sizeof *cfgs);
    skipped = calloc((size_t)nalg, sizeof *skipped);
    results = calloc((size_t)nalg, sizeof *results);
    if (!cfgs || !skipped || !results) fail("allocating the configurations", MPI_ERR_NO_MEM);
    if ((rc = configurations(&o, &w, cfgs, &ncfg, skipped, &nskip)) != MPI_SUCCESS)
        fail("finding the native algorithm", rc);

    /* Calibration: native back to back, then the loop length for factor x its median. */
    if ((rc = measure(&cfgs[0], &w, o.warmup, CALIBRATION_CALLS, 0, 0, &calib)) != MPI_SUCCESS)
        fail("calibration (native)", rc);
    native_median = calib.time.median;
    PMPI_Bcast(&native_median, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if ((rc = compute_units(o.factor * native_median, &units)) != MPI_SUCCESS)
        fail("calibrating the computation loop", rc);

    progress(0, ncfg, "calibration");
    for (int i = 0; i < ncfg; i++) {
        /* Fixed algorithms may run fewer iterations; layers start cold, without warm-up. */
        long warmup = cfgs[i].kind == KIND_LAYER ? 0 : o.warmup;
        long iterations = cfgs[i].kind == KIND_FIXED ? o.fixed_iterations : o.iterations;
        if ((rc = measure(&cfgs[i], &w, warmup, iterations, units, 1, &results[i])) !=
            MPI_SUCCESS) {
            char what[256];
            snprintf(what, sizeof what, "configuration %s", cfgs[i].name);
            fail(what, rc);
        }
        progress(i + 1, ncfg, cfgs[i].name);
    }
    read_loadavg(m.load_end);

    if (g_rank == 0) {
        r = (run_info){.o = &o,
                       .w = &w,
                       .m = &m,
                       .native_median = native_median,
                       .units = units,
                       .cfgs = cfgs,
                       .results = results,
                       .ncfg = ncfg,
                       .skipped = skipped,
                       .nskip = nskip,
                       .oracle = -1};
        for (int i = 0; i < ncfg; i++)
            if (cfgs[i].kind != KIND_LAYER &&
                (r.oracle < 0 || results[i].time.median < results[r.oracle].time.median))
                r.oracle = i;
        noise_warnings(&r);
        print_table(&r);
        if (out) {
            write_json(out, &r);
            status = close_out(&o, tmp, out);
            out = NULL;
            if (status == 0) printf("\nresults: %s\n", o.out);
        }
    }
    PMPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);

done:
    if (out) {
        fclose(out);
        remove(tmp);
    }
    for (int i = 0; results && i < ncfg; i++) {
        free(results[i].times);
        free(results[i].compute);
        free(results[i].algs);
        free(results[i].contexts);
    }
    free(calib.times);
    free(calib.compute);
    free(results);
    free(cfgs);
    free(skipped);
    free(m.hosts);
    workload_free(&w);
    MPI_Finalize();
    return status < 0 ? 0 : status;
}
