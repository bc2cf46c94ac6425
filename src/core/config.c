/*
 * config.c - the declaration of every AUTOCOLL_* setting (name, type, default, range, help), and
 * the one place that parses and checks their values. `autocoll-info` prints the declaration;
 * nothing else keeps a list of settings, their defaults or their ranges. Two parts of it come
 * from the lists they describe: the settings that force an algorithm, one per collective of the
 * registry (coll/coll.h), and AUTOCOLL_STRATEGY's keywords, the strategies' names, which
 * selection gives (ac_config_set_keywords: select/strategies.c is above this layer).
 */
#include "core/config.h"
#include "coll/coll.h"
#include "core/log.h"
#include "core/spelling.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const on_off[] = {"on", "off", NULL};
static const char *const report_keywords[] = {"off", "stderr", NULL};
static const char *const history_keywords[] = {"auto", "off", NULL};
static const char *const platform_keywords[] = {"auto", NULL};
static const char *const clock_keywords[] = {"auto", "mpi", NULL};
static const char *const spread_names[] = {"uniform", "inverse", NULL};
static const char *const draw_names[] = {"seed", "broadcast", NULL};
/* in the order of src/select/strategies.c's rounds strategies (ac_rounds_strategies) */
static const char *const adcl_search_names[] = {"brute_force", "attribute", "factorial", "race",
                                                "model",       NULL};

#define SWITCH(n, def, help)                                                                    \
    {.name = n, .type = AC_SETTING_SWITCH, .default_value = def, .keywords = on_off,           \
     .summary = help}
#define INTEGER(n, def, lo, hi, help)                                                           \
    {.name = n, .type = AC_SETTING_INTEGER, .default_value = def, .min_integer = lo,           \
     .max_integer = hi, .summary = help}
#define REAL(n, def, lo, hi, bounds, help)                                                      \
    {.name = n, .type = AC_SETTING_REAL, .default_value = def, .min_real = lo, .max_real = hi,  \
     .real_bounds = bounds, .summary = help}
#define KEYWORD(n, def, names, help)                                                            \
    {.name = n, .type = AC_SETTING_KEYWORD, .default_value = def, .keywords = names,           \
     .summary = help}
#define PATH(n, def, names, help)                                                               \
    {.name = n, .type = AC_SETTING_PATH, .default_value = def, .keywords = names,              \
     .summary = help}
#define NAME(n, def, names, help)                                                               \
    {.name = n, .type = AC_SETTING_NAME, .default_value = def, .keywords = names,              \
     .summary = help}

/* 0 < x < 1, 0 < x <= 1 */
#define OPEN_UNIT (AC_REAL_MIN_EXCLUSIVE | AC_REAL_MAX_BOUNDED | AC_REAL_MAX_EXCLUSIVE)
#define HALF_OPEN_UNIT (AC_REAL_MIN_EXCLUSIVE | AC_REAL_MAX_BOUNDED)

/* The settings before the forced algorithms (ac_settings). */
static const ac_setting declared_first[] = {
    SWITCH("AUTOCOLL", "on", "off makes the layer a pure pass-through to the MPI library"),
    PATH("AUTOCOLL_REPORT", "off", report_keywords,
         "end-of-run report: text on stderr from rank 0, or JSON written by rank 0 to <path>"),
    INTEGER("AUTOCOLL_VERBOSE", "1", 0, 2,
            "0 errors only, 1 warnings (default), 2 also information about every decision"),
    KEYWORD("AUTOCOLL_CLOCK", "auto", clock_keywords,
            "the layer's clock: auto (the CPU's time-stamp counter on x86-64 where the kernel "
            "keeps time with it, else MPI_Wtime; MPI_Wtime under SimGrid) or mpi (MPI_Wtime)"),
    KEYWORD("AUTOCOLL_STRATEGY", "native", NULL, /* the strategies' names: select's */
            "how unforced calls choose: native (the library's own), star (STAR-MPI's run-time "
            "tuning: Measure_Select, then Monitor_Adapt), lottery (the Berkeley lottery "
            "scheduler), race (autocoll's own: candidates race in rounds, the clearly slower "
            "drop out, medians compared with medians), model (cost models rank the candidates, "
            "only the predicted best few are measured, the fit follows every agreed timing) or "
            "table (the rules of AUTOCOLL_TABLE, no run-time tuning)"),
    PATH("AUTOCOLL_TABLE", "", NULL,
         "a configuration table from `autocoll tune` (docs/table.md): the rules of the table "
         "strategy; with another strategy its measured cells seed contexts history does not "
         "know; empty: none"),
    INTEGER("AUTOCOLL_TABLE_TRY", "1", 1, 8,
            "table: the first N algorithms of a context's rule that can run there race (race's "
            "settings) with native, and the fastest runs; 1: the first runs, nothing measured; "
            "model with AUTOCOLL_TABLE: its first decision measures them too at a count the "
            "table has no cell at"),
    PATH("AUTOCOLL_HISTORY", "auto", history_keywords,
         "learned state kept between runs (docs/history.md): read at MPI_Init, merged into the "
         "file at MPI_Finalize, per platform; auto: $XDG_CACHE_HOME/autocoll/history or "
         "~/.cache/autocoll/history, used when a strategy measures (star, lottery, race, model, "
         "table with AUTOCOLL_TABLE_TRY > 1; a path: "
         "always)"),
    NAME("AUTOCOLL_PLATFORM", "auto", platform_keywords,
         "the network part of the platform that history is kept for (docs/history.md): auto, "
         "the host names with their digits masked (node017 and node112 are both node#, so a "
         "new allocation on the same cluster starts warm); a name, e.g. the cluster's, to "
         "share what was learned between clusters of other host names or keep apart "
         "partitions of one"),
    INTEGER("AUTOCOLL_MAX_SITES", "8", 0, INT_MAX,
            "call sites tuned apart per communicator (N); further sites run native; 0: one "
            "site-less context per message size (no call-site agreements)"),
    INTEGER("AUTOCOLL_MAX_SIZES", "8", 1, INT_MAX,
            "tuning contexts (message sizes) per call site and collective (X); further sizes "
            "run native"),
    INTEGER("AUTOCOLL_STAR_ITER", "10", 1, 1000, "star: measurements of each candidate (ITER)"),
    REAL("AUTOCOLL_STAR_EPSILON", "0.10", 0.0, 0.0, 0,
         "star: tolerance over the second best before Monitor_Adapt switches (epsilon)"),
    INTEGER("AUTOCOLL_STAR_DELTA_MAX", "64", 2, INT_MAX,
            "star: upper bound of the monitoring factor delta (window = delta * ITER calls; "
            "delta starts at 2)"),
    SWITCH("AUTOCOLL_STAR_GROUPING", "on",
           "star: enhanced AEOS, measure one algorithm per group first (STAR-MPI section 3.3)"),
    INTEGER("AUTOCOLL_STAR_RECHECK", "2000", 0, 100000000,
            "star: calls before an algorithm left for a degradation is measured again (doubling "
            "while it stays slower, up to 16x); 0: never (STAR-MPI as published)"),
    REAL("AUTOCOLL_LOTTERY_ALPHA", "0.8", 0.0, 1.0, OPEN_UNIT,
         "lottery: share of the tickets of the candidate with the smallest average time "
         "(alpha)"),
    KEYWORD("AUTOCOLL_LOTTERY_SPREAD", "uniform", spread_names,
            "lottery: how the other 1 - alpha of the tickets are spread over the other "
            "candidates: equally, or in inverse proportion to their average time"),
    REAL("AUTOCOLL_LOTTERY_EXPLORE_SIGMAS", "2", 0.0, 0.0, AC_REAL_INFINITY,
         "lottery: explore only candidates whose average is within this many standard "
         "deviations of the best's; inf: every candidate"),
    REAL("AUTOCOLL_LOTTERY_EMA", "0.25", 0.0, 1.0, HALF_OPEN_UNIT,
         "lottery: weight of a new agreed time in a candidate's exponential average"),
    INTEGER("AUTOCOLL_LOTTERY_TTL", "20", 1, 1000000,
            "lottery: longest time-to-live; a draw with a share s of the tickets holds "
            "ceil(s * n) calls"),
    INTEGER("AUTOCOLL_LOTTERY_WINDOW", "64", 1, 100000,
            "lottery: calls between two agreements of the timings (one allreduce each)"),
    INTEGER("AUTOCOLL_LOTTERY_INIT", "1", 0, 1000,
            "lottery: calls of each candidate, in order, before the first draw; 0: the paper's "
            "cold start (unmeasured candidates are found by exploration)"),
    INTEGER("AUTOCOLL_LOTTERY_RECHECK", "1000", 0, 100000000,
            "lottery: calls after which a candidate excluded by EXPLORE_SIGMAS may be explored "
            "again (doubling while it stays excluded, up to 16x); 0: never"),
    KEYWORD("AUTOCOLL_LOTTERY_DRAW", "seed", draw_names,
            "lottery: how ranks draw alike: the same generator on every rank (no "
            "communication), or rank 0's draw carried by one agreement per time-to-live (the "
            "paper's broadcast)"),
    INTEGER("AUTOCOLL_LOTTERY_SEED", "1", LONG_MIN, LONG_MAX,
            "lottery: seed of the generator of the draws"),
    INTEGER("AUTOCOLL_RACE_SAMPLES", "3", 1, 50, "race: calls of each candidate per round"),
    INTEGER("AUTOCOLL_RACE_ROUNDS", "4", 1, 20,
            "race: rounds at most; the best median after the last one wins"),
    REAL("AUTOCOLL_RACE_MARGIN", "0.5", 0.0, 0.0, 0,
         "race: after round 1 a candidate slower than (1 + margin) x the best median drops "
         "out; the margin halves every round"),
    REAL("AUTOCOLL_RACE_EPSILON", "0.05", 0.0, 0.0, 0,
         "race: the chosen one is degraded when its recent median exceeds (1 + epsilon) x the "
         "runner-up's; two degraded windows in a row start a new race"),
    INTEGER("AUTOCOLL_RACE_WINDOW_MAX", "1024", 16, INT_MAX,
            "race: longest monitoring window (windows start at 16 calls and double)"),
    INTEGER("AUTOCOLL_RACE_REFRESH", "4096", 0, 1000000000,
            "race: settled calls before every candidate races again (doubles while the choice "
            "holds); 0: never"),
    SWITCH("AUTOCOLL_RACE_GROUPING", "on",
           "race: round 1 runs one algorithm per group, and every group whose representative "
           "stays in the race joins round 2"),
    /* default 0, no final: no measured gain on the emulated cluster (docs/race.md) */
    INTEGER("AUTOCOLL_RACE_FINAL", "0", 0, 100,
            "race: when a race's best is not native, it, the runner-up and native run n fresh "
            "calls each, and the best median of those wins; 0: no final"),
    PATH("AUTOCOLL_ADCL_FUNCTION", "", NULL,
         "ADCL requests: run this function of the request's set (e.g. IsendIrecv_aao) instead "
         "of selecting; before config.adcl's ADCL_EMETHOD_SELECTION; an unknown name: one "
         "warning and selection; empty: none"),
    KEYWORD("AUTOCOLL_ADCL_SEARCH", "brute_force", adcl_search_names,
            "ADCL requests: how a request selects its function: brute_force (every function), "
            "attribute (ADCL's attribute-based search: one attribute at a time, pruning) or "
            "factorial (a two-level factorial screening of the attributes, then attribute) or "
            "race (autocoll's race: AUTOCOLL_RACE_SAMPLES, _ROUNDS and _MARGIN) or model "
            "(autocoll's model-guided search: AUTOCOLL_ADCL_MODEL_SAMPLES and _MARGIN)"),
    INTEGER("AUTOCOLL_ADCL_SAMPLES", "30", 1, 10000,
            "ADCL requests: measurements of each function during selection (ADCL's default 30)"),
    INTEGER("AUTOCOLL_ADCL_MODEL_SAMPLES", "3", 1, 10000,
            "ADCL requests, model search: measurements of each function it measures"),
    REAL("AUTOCOLL_ADCL_MODEL_MARGIN", "0.1", 0.0, 0.0, 0,
         "ADCL requests, model search: measure the functions the cost model predicts within "
         "(1 + margin) x the best prediction (first round: the best of each structure), then "
         "those the refitted model predicts within (1 + margin) x the best measured time"),
    REAL("AUTOCOLL_ADCL_MODEL_PRIOR_WEIGHT", "0.001", 0.0, 0.0, 0,
         "ADCL requests, model search: how strongly a fit keeps the cost model's parameters "
         "near their defaults (the AUTOCOLL_MODEL_* platform settings); small: the "
         "measurements decide what they determine"),
    REAL("AUTOCOLL_MODEL_MARGIN", "0.5", 0.0, 0.0, 0,
         "model: measure the candidates predicted within (1 + margin) x the best prediction, "
         "then those the refitted model predicts within (1 + margin / 2) x the best measured"),
    REAL("AUTOCOLL_MODEL_GROUP_RANGE", "3", 0.0, 0.0, 0,
         "model: each round of a decision measures first the best predicted candidate of each "
         "registry group not measured yet that is predicted within this many times the best "
         "prediction (round 1) or the best measured time (round 2); 0: the predictions alone"),
    REAL("AUTOCOLL_MODEL_HORIZON", "300", 0.0, 0.0, 0,
         "model: calls a mesh's set-up (its line communicators, seen on a layout's first call) "
         "must pay back within: once a set-up has been seen, a layout whose mesh is not made "
         "yet is measured only when its prediction at the optimistic end of the round's margin "
         "plus its set-up / horizon beats the best measured time; 0: set-up ignored"),
    INTEGER("AUTOCOLL_MODEL_SAMPLES", "2", 1, 50, "model: calls of each measured candidate"),
    INTEGER("AUTOCOLL_MODEL_BUDGET", "20", 2, 100000,
            "model: calls of one decision at most, native included"),
    REAL("AUTOCOLL_MODEL_EPSILON", "0.05", 0.0, 0.0, 0,
         "model: the chosen one is degraded when its recent median exceeds (1 + epsilon) x the "
         "runner-up's; two degraded windows in a row start a new decision"),
    INTEGER("AUTOCOLL_MODEL_WINDOW_MAX", "1024", 16, INT_MAX,
            "model: longest monitoring window (windows start at 16 calls and double)"),
    INTEGER("AUTOCOLL_MODEL_CHALLENGES", "4", 0, 100000,
            "model: challenges per context at most: after a window of the chosen one whose "
            "median call waited more than EPSILON x its median beyond its fastest (noise), the "
            "candidate with the lowest one-call reading below that window's upper quartile "
            "runs 16 calls and is chosen if its fastest call beats the chosen one's; 0: off"),
    INTEGER("AUTOCOLL_MODEL_REFRESH", "4096", 0, 1000000000,
            "model: settled calls before a refresh, a decision like the first (native, then "
            "what the current fit predicts best) against the chosen one's last window; the "
            "interval doubles, up to 64 x, while the choice holds; 0: never"),
    REAL("AUTOCOLL_MODEL_ALPHA_INTRA", "1e-6", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: latency inside a node before any fit, seconds"),
    REAL("AUTOCOLL_MODEL_BETA_INTRA", "1e-10", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: time per byte inside a node before any fit, seconds"),
    REAL("AUTOCOLL_MODEL_ALPHA_INTER", "5e-6", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: latency between nodes before any fit, seconds"),
    REAL("AUTOCOLL_MODEL_BETA_INTER", "1e-9", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: time per byte between nodes before any fit, seconds"),
    REAL("AUTOCOLL_MODEL_GAMMA", "5e-10", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: time per byte of a local reduction before any fit, seconds"),
    REAL("AUTOCOLL_MODEL_OVERHEAD", "5e-7", 0.0, 0.0, AC_REAL_MIN_EXCLUSIVE,
         "model: time a rank spends on each message (LogP's o) before any fit, seconds"),
    REAL("AUTOCOLL_MODEL_PRIOR_WEIGHT", "0.1", 0.0, 0.0, 0,
         "model: how strongly a fit keeps the parameters near their defaults (relative to one "
         "observation); 0: the observations alone"),
};

/* The settings after them. */
static const ac_setting declared_last[] = {
    INTEGER("AUTOCOLL_TEST_RANKS_PER_NODE", "0", 0, INT_MAX,
            "testing only: treat consecutive blocks of n ranks as nodes (0: real shared-memory "
            "nodes)"),
};

enum {
    DECLARED_FIRST = sizeof declared_first / sizeof declared_first[0],
    DECLARED_LAST = sizeof declared_last / sizeof declared_last[0],
    SETTINGS = DECLARED_FIRST + AC_NUM_COLLECTIVES + DECLARED_LAST
};

/* The whole declaration, in display order: `declared_first`, one setting per collective that forces
 * its algorithm (AUTOCOLL_ALLREDUCE: "force the MPI_Allreduce algorithm"), `declared_last`. */
static ac_setting settings[SETTINGS];
static char force_summaries[AC_NUM_COLLECTIVES][64];
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;

static void settings_build(void)
{
    memcpy(settings, declared_first, sizeof declared_first);
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        char *summary = force_summaries[c];
        size_t initial = strlen("force the MPI_"); /* MPI_Allreduce: the name capitalised */
        snprintf(summary, sizeof force_summaries[c], "force the MPI_%s algorithm",
                 ac_collective_name((ac_collective)c));
        summary[initial] = (char)toupper((unsigned char)summary[initial]);
        settings[DECLARED_FIRST + c] = (ac_setting){.name = ac_collective_env((ac_collective)c),
                                              .type = AC_SETTING_ALGORITHM,
                                              .default_value = "auto",
                                              .summary = summary};
    }
    memcpy(settings + DECLARED_FIRST + AC_NUM_COLLECTIVES, declared_last, sizeof declared_last);
}

const ac_setting *ac_settings(int *count)
{
    pthread_once(&settings_once, settings_build);
    *count = SETTINGS;
    return settings;
}

void ac_config_set_keywords(const char *name, const char *const *keywords)
{
    int n;
    ac_setting *s = (ac_setting *)ac_settings(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0 && s[i].type == AC_SETTING_KEYWORD)
            s[i].keywords = keywords;
}

const ac_setting *ac_setting_find(const char *name)
{
    int n;
    const ac_setting *s = ac_settings(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0) return &s[i];
    return NULL;
}

/* ---- Names that are not settings. ---- */

/* The AUTOCOLL_* variables of the project's tooling, not settings of the library
 * (tests/mpirun.sh, tests/tools, scripts/; AUTOCOLL_PLATFORM_FILE: the simulated platforms'
 * loader, platforms/node_overheads.cpp; README "Settings"): the library says nothing about
 * them. A name ending in '_' stands for every name it begins that no setting declares. */
static const char *const tooling_names[] = {"AUTOCOLL_TEST_", "AUTOCOLL_BUILD", "AUTOCOLL_VENV",
                                            "AUTOCOLL_FUZZ_SEEDS", "AUTOCOLL_PLATFORM_FILE",
                                            NULL};

const char *const *ac_config_tooling_names(void)
{
    return tooling_names;
}

static int is_tooling_name(const char *name)
{
    for (int i = 0; tooling_names[i]; i++) {
        size_t n = strlen(tooling_names[i]);
        if (tooling_names[i][n - 1] == '_' ? strncmp(name, tooling_names[i], n) == 0
                                           : strcmp(name, tooling_names[i]) == 0)
            return 1;
    }
    return 0;
}

/* Names are compared without the common prefix, so that the closeness is the part typed. */
static const char *unprefixed(const char *name)
{
    return strncmp(name, "AUTOCOLL_", 9) == 0 ? name + 9 : name;
}

const ac_setting *ac_setting_closest(const char *name)
{
    int n, best_distance = 0;
    const ac_setting *s = ac_settings(&n), *best = NULL;
    for (int i = 0; i < n; i++) {
        const char *candidate = unprefixed(s[i].name);
        if (candidate == s[i].name || !ac_spelling_close(unprefixed(name), candidate)) continue;
        int d = ac_spelling_distance(unprefixed(name), candidate);
        if (!best || d < best_distance) best = &s[i], best_distance = d;
    }
    return best;
}

/* ---- The types: what each accepts and how it is described. ---- */

/* Index of `value` in s->keywords, or -1. */
static int keyword_index(const ac_setting *s, const char *value)
{
    for (int i = 0; s->keywords && s->keywords[i]; i++)
        if (strcmp(value, s->keywords[i]) == 0) return i;
    return -1;
}

static int keyword_valid(const ac_setting *s, const char *value)
{
    return keyword_index(s, value) >= 0;
}

static int integer_valid(const ac_setting *s, const char *value)
{
    char *end;
    errno = 0;
    long x = strtol(value, &end, 10);
    return end != value && *end == '\0' && errno != ERANGE && x >= s->min_integer &&
           x <= s->max_integer;
}

static int real_valid(const ac_setting *s, const char *value)
{
    char *end;
    double x = strtod(value, &end);
    unsigned b = s->real_bounds;
    if (end == value || *end != '\0' || isnan(x)) return 0;
    if (isinf(x)) return x > 0 && (b & AC_REAL_INFINITY);
    if (b & AC_REAL_MIN_EXCLUSIVE ? x <= s->min_real : x < s->min_real) return 0;
    if (!(b & AC_REAL_MAX_BOUNDED)) return 1;
    return b & AC_REAL_MAX_EXCLUSIVE ? x < s->max_real : x <= s->max_real;
}

static int name_valid(const ac_setting *s, const char *value)
{
    if (keyword_valid(s, value)) return 1;
    if (!value[0]) return 0;
    for (const char *c = value; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("-_.", *c)) return 0;
    return 1;
}

static int any_valid(const ac_setting *s, const char *value)
{
    (void)s;
    (void)value;
    return 1;
}

/* Appends printf-formatted text to buf (of `size`, holding a string). */
static void append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= size) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

static void keywords_describe(const ac_setting *s, char *buf, size_t size)
{
    for (int i = 0; s->keywords && s->keywords[i]; i++)
        append(buf, size, "%s%s", i ? " | " : "", s->keywords[i]);
}

static void path_describe(const ac_setting *s, char *buf, size_t size)
{
    keywords_describe(s, buf, size);
    append(buf, size, "%s<path>", buf[0] ? " | " : "");
}

static void name_describe(const ac_setting *s, char *buf, size_t size)
{
    keywords_describe(s, buf, size);
    append(buf, size, "%s<name: letters, digits, - _ .>", buf[0] ? " | " : "");
}

static void integer_describe(const ac_setting *s, char *buf, size_t size)
{
    if (s->min_integer == LONG_MIN && s->max_integer == LONG_MAX)
        append(buf, size, "an integer from %ld to %ld", LONG_MIN, LONG_MAX);
    else if (s->max_integer == LONG_MAX)
        append(buf, size, "n >= %ld", s->min_integer);
    else if (s->min_integer == LONG_MIN)
        append(buf, size, "n <= %ld", s->max_integer);
    else
        append(buf, size, "%ld <= n <= %ld", s->min_integer, s->max_integer);
}

static void real_describe(const ac_setting *s, char *buf, size_t size)
{
    unsigned b = s->real_bounds;
    if (b & AC_REAL_MAX_BOUNDED)
        append(buf, size, "%g %s x %s %g", s->min_real, b & AC_REAL_MIN_EXCLUSIVE ? "<" : "<=",
               b & AC_REAL_MAX_EXCLUSIVE ? "<" : "<=", s->max_real);
    else
        append(buf, size, "x %s %g", b & AC_REAL_MIN_EXCLUSIVE ? ">" : ">=", s->min_real);
    if (b & AC_REAL_INFINITY) append(buf, size, " | inf");
}

static void algorithm_describe(const ac_setting *s, char *buf, size_t size)
{
    (void)s;
    append(buf, size, "auto, or an algorithm name from autocoll-info");
}

static const struct {
    const char *name;
    int (*valid)(const ac_setting *s, const char *value);
    void (*describe)(const ac_setting *s, char *buf, size_t size);
} types[AC_SETTING_TYPES] = {
    [AC_SETTING_SWITCH] = {"switch", keyword_valid, keywords_describe},
    [AC_SETTING_INTEGER] = {"integer", integer_valid, integer_describe},
    [AC_SETTING_REAL] = {"real", real_valid, real_describe},
    [AC_SETTING_KEYWORD] = {"keyword", keyword_valid, keywords_describe},
    [AC_SETTING_PATH] = {"path", any_valid, path_describe},
    [AC_SETTING_ALGORITHM] = {"algorithm", any_valid, algorithm_describe},
    [AC_SETTING_NAME] = {"name", name_valid, name_describe},
};

const char *ac_setting_type_name(ac_setting_type type)
{
    return (unsigned)type < AC_SETTING_TYPES ? types[type].name : "?";
}

const char *ac_setting_values(const ac_setting *s, char *buf, size_t size)
{
    if (size == 0) return buf;
    buf[0] = '\0';
    types[s->type].describe(s, buf, size);
    return buf;
}

int ac_setting_valid(const ac_setting *s, const char *value)
{
    return types[s->type].valid(s, value);
}

/* ---- The getters. ---- */

const char *ac_config_get(const char *name)
{
    const ac_setting *s = ac_setting_find(name);
    if (!s) return NULL;
    const char *v = getenv(name);
    return (v && *v) ? v : s->default_value;
}

/* Whether this process reports invalid settings: rank 0 of MPI_COMM_WORLD while MPI is
 * initialised (every rank reads the same settings), every process otherwise. */
static int reports_settings(void)
{
    int initialized = 0, finalized = 0, rank = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    if (initialized && !finalized) PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank == 0;
}

/* The declaration of `name`, which the caller reads as `type`. */
static const ac_setting *declared(const char *name, ac_setting_type type)
{
    const ac_setting *s = ac_setting_find(name);
    if (!s || s->type != type) {
        ac_log_error("%s is not a declared %s setting (core/config.c)", name,
                     ac_setting_type_name(type));
        return NULL;
    }
    return s;
}

const char *ac_setting_current(const ac_setting *s, ac_setting_source *source,
                               const char **given)
{
    const char *v = getenv(s->name);
    *given = (v && *v) ? v : NULL;
    *source = !*given                    ? AC_SOURCE_DEFAULT
              : ac_setting_valid(s, *given) ? AC_SOURCE_ENVIRONMENT
                                          : AC_SOURCE_INVALID;
    return *source == AC_SOURCE_ENVIRONMENT ? *given : s->default_value;
}

const char *ac_setting_source_name(ac_setting_source source)
{
    static const char *const names[] = {[AC_SOURCE_DEFAULT] = "default",
                                        [AC_SOURCE_ENVIRONMENT] = "environment",
                                        [AC_SOURCE_INVALID] = "invalid"};
    return names[source];
}

/* The value of s if valid, else its default, with the warning. */
static const char *checked_value(const ac_setting *s)
{
    ac_setting_source source;
    const char *given, *v = ac_setting_current(s, &source, &given);
    if (source == AC_SOURCE_INVALID && reports_settings()) {
        char values[256];
        ac_log_warn("%s=%s is invalid (it takes %s); using the default %s", s->name, given,
                    ac_setting_values(s, values, sizeof values), s->default_value);
    }
    return v;
}

extern char **environ;

void ac_config_each_unknown(ac_unknown_fn *fn, void *arg)
{
    for (char **e = environ; *e; e++) {
        char name[128];
        const char *eq = strchr(*e, '=');
        size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
        if (strncmp(*e, "AUTOCOLL_", 9) != 0) continue;
        if (len >= sizeof name) { /* longer than any setting: unknown, named by its start */
            snprintf(name, sizeof name, "%.*s...", (int)sizeof name - 4, *e);
            fn(name, eq ? eq + 1 : "", NULL, arg);
            continue;
        }
        memcpy(name, *e, len);
        name[len] = '\0';
        if (ac_setting_find(name) || is_tooling_name(name)) continue;
        fn(name, eq ? eq + 1 : "", ac_setting_closest(name), arg);
    }
}

static void warn_unknown(const char *name, const char *value, const ac_setting *closest,
                         void *arg)
{
    (void)arg;
    if (closest)
        ac_log_warn("%s=%s is not an autocoll setting (did you mean %s?); ignored", name, value,
                    closest->name);
    else
        ac_log_warn("%s=%s is not an autocoll setting (autocoll-info --settings lists them); "
                    "ignored",
                    name, value);
}

void ac_config_check_environment(void)
{
    if (reports_settings()) ac_config_each_unknown(warn_unknown, NULL);
}

long ac_config_int(const char *name)
{
    const ac_setting *s = declared(name, AC_SETTING_INTEGER);
    return s ? strtol(checked_value(s), NULL, 10) : 0;
}

double ac_config_real(const char *name)
{
    const ac_setting *s = declared(name, AC_SETTING_REAL);
    return s ? strtod(checked_value(s), NULL) : 0.0;
}

int ac_config_keyword(const char *name)
{
    const ac_setting *s = declared(name, AC_SETTING_KEYWORD);
    return s ? keyword_index(s, checked_value(s)) : 0;
}

int ac_config_switch(const char *name)
{
    const ac_setting *s = declared(name, AC_SETTING_SWITCH);
    return s ? keyword_index(s, checked_value(s)) == 0 : 0;
}

const char *ac_config_name(const char *name)
{
    const ac_setting *s = declared(name, AC_SETTING_NAME);
    return s ? checked_value(s) : "";
}

/* The settings that only shape this rank's own output, never a choice nor a collective step:
 * they may differ between ranks (ac_config_hash leaves them out). */
static const char *const rank_local[] = {"AUTOCOLL_REPORT", "AUTOCOLL_VERBOSE"};

static int is_rank_local(const char *name)
{
    for (size_t i = 0; i < sizeof rank_local / sizeof rank_local[0]; i++)
        if (strcmp(rank_local[i], name) == 0) return 1;
    return 0;
}

int ac_config_hash(void)
{
    unsigned long h = 5381;
    int n;
    const ac_setting *s = ac_settings(&n);
    for (int i = 0; i < n; i++) {
        if (is_rank_local(s[i].name)) continue;
        const char *v = ac_config_get(s[i].name);
        for (const char *c = v; *c; c++)
            h = h * 33 + (unsigned char)*c;
        h = h * 33 + 0xff;
    }
    return (int)(h & 0x7fffffff);
}
