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

const char *const ac_on_off[] = {"on", "off", NULL};
static const char *const report_keywords[] = {"off", "stderr", NULL};
static const char *const history_keywords[] = {"auto", "off", NULL};
static const char *const platform_keywords[] = {"auto", NULL};
static const char *const clock_keywords[] = {"auto", "mpi", NULL};
/* The settings before the forced algorithms (ac_settings). */
static const ac_setting declared_first[] = {
    AC_DECLARE_SWITCH("AUTOCOLL", "on",
                      "off makes the layer a pure pass-through to the MPI library"),
    AC_DECLARE_PATH("AUTOCOLL_REPORT", "off", report_keywords,
         "end-of-run report: text on stderr from rank 0, or JSON written by rank 0 to <path>"),
    AC_DECLARE_INTEGER("AUTOCOLL_VERBOSE", "1", 0, 2,
            "0 errors only, 1 warnings (default), 2 also information about every decision"),
    AC_DECLARE_KEYWORD("AUTOCOLL_CLOCK", "auto", clock_keywords,
            "the layer's clock: auto (the CPU's time-stamp counter on x86-64 where the kernel "
            "keeps time with it, else MPI_Wtime; MPI_Wtime under SimGrid) or mpi (MPI_Wtime)"),
    AC_DECLARE_KEYWORD("AUTOCOLL_STRATEGY", "native", NULL, /* the strategies' names: select's */
            "how unforced calls choose: native (the library's own), star (STAR-MPI's run-time "
            "tuning: Measure_Select, then Monitor_Adapt), lottery (the Berkeley lottery "
            "scheduler), race (autocoll's own: candidates race in rounds, the clearly slower "
            "drop out, medians compared with medians), model (cost models rank the candidates, "
            "only the predicted best few are measured, the fit follows every agreed timing) or "
            "table (the rules of AUTOCOLL_TABLE, no run-time tuning)"),
    AC_DECLARE_PATH("AUTOCOLL_TABLE", "", NULL,
         "a configuration table from `autocoll tune` (docs/table.md): the rules of the table "
         "strategy; with another strategy its measured cells seed contexts history does not "
         "know; empty: none"),
    AC_DECLARE_INTEGER("AUTOCOLL_TABLE_TRY", "1", 1, 8,
            "table: the first N algorithms of a context's rule that can run there race (race's "
            "settings) with native, and the fastest runs; 1: the first runs, nothing measured; "
            "model with AUTOCOLL_TABLE: its first decision measures them too at a count the "
            "table has no cell at"),
    AC_DECLARE_PATH("AUTOCOLL_HISTORY", "auto", history_keywords,
         "learned state kept between runs (docs/history.md): read at MPI_Init, merged into the "
         "file at MPI_Finalize, per platform; auto: $XDG_CACHE_HOME/autocoll/history or "
         "~/.cache/autocoll/history, used when a strategy measures (star, lottery, race, model, "
         "table with AUTOCOLL_TABLE_TRY > 1; a path: "
         "always)"),
    AC_DECLARE_NAME("AUTOCOLL_PLATFORM", "auto", platform_keywords,
         "the network part of the platform that history is kept for (docs/history.md): auto, "
         "the host names with their digits masked (node017 and node112 are both node#, so a "
         "new allocation on the same cluster starts warm); a name, e.g. the cluster's, to "
         "share what was learned between clusters of other host names or keep apart "
         "partitions of one"),
    AC_DECLARE_INTEGER("AUTOCOLL_MAX_SITES", "8", 0, INT_MAX,
            "call sites tuned apart per communicator (N); further sites run native; 0: one "
            "site-less context per message size (no call-site agreements)"),
    AC_DECLARE_INTEGER("AUTOCOLL_MAX_SIZES", "8", 1, INT_MAX,
            "tuning contexts (message sizes) per call site and collective (X); further sizes "
            "run native; nonblocking calls: per communicator and collective"),
    AC_DECLARE_INTEGER("AUTOCOLL_MAX_SCRATCH_MIB", "64", 1, INT_MAX,
            "the most scratch memory (MiB) an algorithm whose scratch grows faster than the "
            "call's buffers may take on a rank: alltoall's recursive_doubling keeps a table of "
            "size x size blocks (256 MiB at 64 ranks and 64 KiB); where it needs more it is not "
            "a candidate and cannot be forced"),
    AC_DECLARE_SWITCH("AUTOCOLL_TUNE_ONE_RANK", "off",
                      "on: tune communicators of one rank too (off: a learning strategy "
                      "runs native there untuned, every algorithm moving nothing; a table's "
                      "rules apply either way; on: what scripts/call_cost measures a "
                      "strategy's settled path with)"),
    AC_DECLARE_PATH("AUTOCOLL_ADCL_FUNCTION", "", NULL,
         "ADCL requests: run this function of the request's set (e.g. IsendIrecv_aao) instead "
         "of selecting; before config.adcl's ADCL_EMETHOD_SELECTION; an unknown name: one "
         "warning and selection; empty: none"),
    AC_DECLARE_KEYWORD("AUTOCOLL_ADCL_SEARCH", "brute_force", NULL, /* rounds strategies' */
            "ADCL requests: how a request selects its function: brute_force (every function), "
            "attribute (ADCL's attribute-based search: one attribute at a time, pruning) or "
            "factorial (a two-level factorial screening of the attributes, then attribute) or "
            "race (autocoll's race: AUTOCOLL_RACE_SAMPLES, _ROUNDS and _MARGIN) or model "
            "(autocoll's model-guided search: AUTOCOLL_ADCL_MODEL_SAMPLES and _MARGIN)"),
    AC_DECLARE_INTEGER("AUTOCOLL_ADCL_SAMPLES", "30", 1, 10000,
            "ADCL requests: measurements of each function during selection (ADCL's default 30)"),
    AC_DECLARE_INTEGER("AUTOCOLL_ADCL_MODEL_SAMPLES", "3", 1, 10000,
            "ADCL requests, model search: measurements of each function it measures"),
    AC_DECLARE_REAL("AUTOCOLL_ADCL_MODEL_MARGIN", "0.1", 0.0, 0.0, 0,
         "ADCL requests, model search: measure the functions the cost model predicts within "
         "(1 + margin) x the best prediction (first round: the best of each structure), then "
         "those the refitted model predicts within (1 + margin) x the best measured time"),
    AC_DECLARE_REAL("AUTOCOLL_ADCL_MODEL_PRIOR_WEIGHT", "0.001", 0.0, 0.0, 0,
         "ADCL requests, model search: how strongly a fit keeps the cost model's parameters "
         "near their defaults (the AUTOCOLL_MODEL_* platform settings); small: the "
         "measurements decide what they determine"),
};

static const char *const placement_keywords[] = {"block", "cyclic", NULL};

/* The settings after them. */
static const ac_setting declared_last[] = {
    AC_DECLARE_INTEGER("AUTOCOLL_TEST_RANKS_PER_NODE", "0", 0, INT_MAX,
            "testing only: treat the processes as nodes of n world ranks (0: real shared-memory "
            "nodes)"),
    AC_DECLARE_KEYWORD("AUTOCOLL_TEST_PLACEMENT", "block", placement_keywords,
            "testing only: the emulated nodes of AUTOCOLL_TEST_RANKS_PER_NODE hold consecutive "
            "world ranks (block) or ranks dealt round-robin over them (cyclic)"),
    AC_DECLARE_INTEGER("AUTOCOLL_TEST_SHM_REFUSE", "-1", -1, INT_MAX,
            "testing only: this world rank takes the shared-memory window of the shm "
            "algorithms for refused, so every rank runs the library's collective; -1: off"),
    AC_DECLARE_INTEGER("AUTOCOLL_TEST_NBC_SLOW_FROM", "0", 0, INT_MAX,
            "testing only: from this call of a nonblocking context on, the calls its first "
            "race's winner runs are timed 1000 s slower (the monitor must find it); 0: off"),
};

enum {
    DECLARED_FIRST = sizeof declared_first / sizeof declared_first[0],
    DECLARED_LAST = sizeof declared_last / sizeof declared_last[0],
    MAX_GROUPS = 16,
    MAX_SETTINGS = 256
};

/* The groups the layers above declare (ac_config_declare), in order. */
static struct {
    const ac_setting *settings;
    int n;
} groups[MAX_GROUPS];
static int ngroups, built;

/* The whole declaration, in display order: `declared_first`, the groups, one setting per
 * collective that forces its algorithm (AUTOCOLL_ALLREDUCE: "force the MPI_Allreduce
 * algorithm"), `declared_last`. */
static ac_setting settings[MAX_SETTINGS];
static int nsettings;
static char force_summaries[AC_NUM_COLLECTIVES][64];
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;

void ac_config_declare(const ac_setting *group, int n)
{
    for (int i = 0; i < ngroups; i++)
        if (groups[i].settings == group) return;
    if (built || ngroups == MAX_GROUPS) {
        ac_log_error("settings from %s on are declared %s; they are unknown to this run "
                     "(core/config.h: ac_config_declare)",
                     n > 0 ? group[0].name : "(none)",
                     built ? "after the settings were read" : "in too many groups");
        return;
    }
    groups[ngroups].settings = group;
    groups[ngroups++].n = n;
}

static void add(const ac_setting *s)
{
    if (nsettings < MAX_SETTINGS)
        settings[nsettings++] = *s;
    else
        ac_log_error("more than %d settings declared; %s is unknown to this run (core/config.c)",
                     MAX_SETTINGS, s->name);
}

static void settings_build(void)
{
    built = 1;
    for (int i = 0; i < DECLARED_FIRST; i++)
        add(&declared_first[i]);
    for (int g = 0; g < ngroups; g++)
        for (int i = 0; i < groups[g].n; i++)
            add(&groups[g].settings[i]);
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        char *summary = force_summaries[c];
        size_t initial = strlen("force the MPI_"); /* MPI_Allreduce: the name capitalised */
        snprintf(summary, sizeof force_summaries[c], "force the MPI_%s algorithm",
                 ac_collective_name((ac_collective)c));
        summary[initial] = (char)toupper((unsigned char)summary[initial]);
        add(&(ac_setting){.name = ac_collective_env((ac_collective)c),
                          .type = AC_SETTING_ALGORITHM,
                          .default_value = "auto",
                          .summary = summary});
    }
    for (int i = 0; i < DECLARED_LAST; i++)
        add(&declared_last[i]);
}

const ac_setting *ac_settings(int *count)
{
    pthread_once(&settings_once, settings_build);
    *count = nsettings;
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
 * (tests/mpirun.sh, tests/tools, scripts/; AUTOCOLL_PLATFORM_FILE and the other
 * AUTOCOLL_PLATFORM_*: the simulated platforms' loader, platforms/node_overheads.cpp;
 * docs/guide.md "Settings"): the library says nothing about them. A name ending in '_' stands
 * for every name it begins that no setting declares. */
static const char *const tooling_names[] = {"AUTOCOLL_TEST_", "AUTOCOLL_BUILD", "AUTOCOLL_VENV",
                                            "AUTOCOLL_FUZZ_SEEDS", "AUTOCOLL_PLATFORM_",
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
