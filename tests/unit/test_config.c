/*
 * test_config.c - the declaration of the settings and its one check (core/config.h), without
 * MPI: every default is valid and gives the parameters the strategies' unit tests assume; a valid
 * value is used as given; an invalid or out-of-range one gives the default and exactly one
 * warning of the common form; the generated "values" texts; the keyword lists agree with the
 * enums and strategies that their indices select. Linked with the library for the strategies.
 */
#include "check.h"
#include "core/config.h"
#include "core/spelling.h"
#include "select/lottery.h"
#include "select/select.h"
#include "select/strategy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- The value a getter returns, written as text, with what it wrote on stderr. ---- */

static void used_integer(const ac_setting *s, char *out, size_t n)
{
    snprintf(out, n, "%ld", ac_config_int(s->name));
}

static void used_real(const ac_setting *s, char *out, size_t n)
{
    snprintf(out, n, "%g", ac_config_real(s->name));
}

static void used_keyword(const ac_setting *s, char *out, size_t n)
{
    snprintf(out, n, "%d", ac_config_keyword(s->name));
}

static void used_switch(const ac_setting *s, char *out, size_t n)
{
    snprintf(out, n, "%d", ac_config_switch(s->name));
}

static void used_string(const ac_setting *s, char *out, size_t n)
{
    snprintf(out, n, "%s", ac_config_get(s->name));
}

static void used_name(const ac_setting *s, char *out, size_t n)
{
    snprintf(out, n, "%s", ac_config_name(s->name));
}

static void (*const used_by_type[AC_SETTING_TYPES])(const ac_setting *, char *, size_t) = {
    [AC_SETTING_SWITCH] = used_switch,   [AC_SETTING_INTEGER] = used_integer,
    [AC_SETTING_REAL] = used_real,       [AC_SETTING_KEYWORD] = used_keyword,
    [AC_SETTING_PATH] = used_string,     [AC_SETTING_ALGORITHM] = used_string,
    [AC_SETTING_NAME] = used_name,
};

/* Reads the value of `name` with `value` in the environment (NULL: unset): the value used into
 * `used`, stderr's output into `said`. */
static void read_setting(const char *name, const char *value, char *used, size_t used_size,
                         char *said, size_t said_size)
{
    const ac_setting *s = ac_setting_find(name);
    said[0] = used[0] = '\0';
    if (!CHECK(s != NULL)) return;
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    FILE *capture = tmpfile();
    if (!CHECK(capture != NULL)) return;
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(capture), STDERR_FILENO);
    used_by_type[s->type](s, used, used_size);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(capture);
    size_t got = fread(said, 1, said_size - 1, capture);
    said[got] = '\0';
    fclose(capture);
    unsetenv(name);
}

/* ---- The declaration. ---- */

static void test_declaration(void)
{
    int n;
    const ac_setting *s = ac_settings(&n);
    CHECK(n == 82);
    const ac_setting *refuse = ac_setting_find("AUTOCOLL_TEST_SHM_REFUSE"); /* -1: off */
    CHECK(refuse && ac_setting_valid(refuse, "-1") && ac_setting_valid(refuse, "3") &&
          !ac_setting_valid(refuse, "-2"));
    const ac_setting *try_ = ac_setting_find("AUTOCOLL_TABLE_TRY"); /* 1 to 8: a rule's length */
    CHECK(try_ && ac_setting_valid(try_, "1") && ac_setting_valid(try_, "8") &&
          !ac_setting_valid(try_, "0") && !ac_setting_valid(try_, "9"));
    for (int i = 0; i < n; i++) {
        char values[256];
        CHECK(strncmp(s[i].name, "AUTOCOLL", 8) == 0 && s[i].summary && s[i].summary[0]);
        CHECK(ac_setting_find(s[i].name) == &s[i]); /* names are unique */
        CHECK(ac_setting_values(&s[i], values, sizeof values)[0] != '\0');
        if (!CHECK(ac_setting_valid(&s[i], s[i].default_value)))
            fprintf(stderr, "  %s's default %s is not valid\n", s[i].name, s[i].default_value);
    }
}

static void test_values_text(void)
{
    static const struct {
        const char *name, *values, *type;
    } cases[] = {
        {"AUTOCOLL", "on | off", "switch"},
        {"AUTOCOLL_REPORT", "off | stderr | <path>", "path"},
        {"AUTOCOLL_TABLE", "<path>", "path"},
        {"AUTOCOLL_PLATFORM", "auto | <name: letters, digits, - _ .>", "name"},
        {"AUTOCOLL_VERBOSE", "0 <= n <= 2", "integer"},
        {"AUTOCOLL_STRATEGY", "native | star | lottery | race | model | table", "keyword"},
        {"AUTOCOLL_MAX_SIZES", "1 <= n <= 2147483647", "integer"},
        {"AUTOCOLL_STAR_ITER", "1 <= n <= 1000", "integer"},
        {"AUTOCOLL_STAR_EPSILON", "x >= 0", "real"},
        {"AUTOCOLL_LOTTERY_ALPHA", "0 < x < 1", "real"},
        {"AUTOCOLL_LOTTERY_EMA", "0 < x <= 1", "real"},
        {"AUTOCOLL_LOTTERY_EXPLORE_SIGMAS", "x >= 0 | inf", "real"},
        {"AUTOCOLL_LOTTERY_SEED", "an integer from -9223372036854775808 to 9223372036854775807",
         "integer"},
        {"AUTOCOLL_ALLREDUCE", "auto, or an algorithm name from autocoll-info", "algorithm"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ac_setting *s = ac_setting_find(cases[i].name);
        char values[256];
        if (!CHECK(s != NULL)) continue;
        if (!CHECK(strcmp(ac_setting_values(s, values, sizeof values), cases[i].values) == 0))
            fprintf(stderr, "  %s: values \"%s\"\n", cases[i].name, values);
        CHECK(strcmp(ac_setting_type_name(s->type), cases[i].type) == 0);
    }
}

/* With nothing set, the defaults: the parameters the strategies' unit tests take as defaults
 * (test_star.c, test_lottery.c, test_race.c), and the limits of select.c. */
static void test_defaults(void)
{
    static const struct {
        const char *name, *used;
    } cases[] = {
        {"AUTOCOLL", "1"},
        {"AUTOCOLL_VERBOSE", "1"},
        {"AUTOCOLL_STRATEGY", "0"},
        {"AUTOCOLL_MAX_SITES", "8"},
        {"AUTOCOLL_MAX_SIZES", "8"},
        {"AUTOCOLL_MAX_SCRATCH_MIB", "64"},
        {"AUTOCOLL_STAR_ITER", "10"},
        {"AUTOCOLL_STAR_EPSILON", "0.1"},
        {"AUTOCOLL_STAR_DELTA_MAX", "64"},
        {"AUTOCOLL_STAR_GROUPING", "1"},
        {"AUTOCOLL_STAR_RECHECK", "2000"},
        {"AUTOCOLL_LOTTERY_ALPHA", "0.8"},
        {"AUTOCOLL_LOTTERY_SPREAD", "0"},
        {"AUTOCOLL_LOTTERY_EXPLORE_SIGMAS", "2"},
        {"AUTOCOLL_LOTTERY_EMA", "0.25"},
        {"AUTOCOLL_LOTTERY_TTL", "20"},
        {"AUTOCOLL_LOTTERY_WINDOW", "64"},
        {"AUTOCOLL_LOTTERY_INIT", "1"},
        {"AUTOCOLL_LOTTERY_RECHECK", "1000"},
        {"AUTOCOLL_LOTTERY_DRAW", "0"},
        {"AUTOCOLL_LOTTERY_SEED", "1"},
        {"AUTOCOLL_RACE_SAMPLES", "3"},
        {"AUTOCOLL_RACE_ROUNDS", "4"},
        {"AUTOCOLL_RACE_MARGIN", "0.5"},
        {"AUTOCOLL_RACE_EPSILON", "0.05"},
        {"AUTOCOLL_RACE_WINDOW_MAX", "1024"},
        {"AUTOCOLL_RACE_REFRESH", "4096"},
        {"AUTOCOLL_RACE_GROUPING", "1"},
        {"AUTOCOLL_RACE_COMPOSED", "1"},
        {"AUTOCOLL_RACE_FINAL", "0"},
        {"AUTOCOLL_TEST_RANKS_PER_NODE", "0"},
        {"AUTOCOLL_REPORT", "off"},
        {"AUTOCOLL_HISTORY", "auto"},
        {"AUTOCOLL_TABLE", ""},
        {"AUTOCOLL_PLATFORM", "auto"},
        {"AUTOCOLL_BCAST", "auto"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char used[64], said[1024];
        read_setting(cases[i].name, NULL, used, sizeof used, said, sizeof said);
        if (!CHECK(strcmp(used, cases[i].used) == 0 && said[0] == '\0'))
            fprintf(stderr, "  %s unset: used %s, said \"%s\"\n", cases[i].name, used, said);
    }
}

/* A value: used as given when valid; otherwise the default and one warning. */
static void test_values(void)
{
    static const struct {
        const char *name, *value, *used;
        int valid;
    } cases[] = {
        {"AUTOCOLL", "off", "0", 1},
        {"AUTOCOLL", "OFF", "1", 0},
        {"AUTOCOLL", "", "1", 1}, /* empty: unset */
        {"AUTOCOLL_VERBOSE", "2", "2", 1},
        {"AUTOCOLL_VERBOSE", "3", "1", 0},
        {"AUTOCOLL_STRATEGY", "race", "3", 1},
        {"AUTOCOLL_STRATEGY", "fastest", "0", 0},
        {"AUTOCOLL_MAX_SITES", "0", "0", 1},
        {"AUTOCOLL_MAX_SITES", "-1", "8", 0},        /* select.c used to clamp to 0 */
        {"AUTOCOLL_MAX_SIZES", "0", "8", 0},         /* select.c used to clamp to 1 */
        {"AUTOCOLL_MAX_SIZES", "2147483648", "8", 0}, /* beyond an int */
        {"AUTOCOLL_MAX_SCRATCH_MIB", "1024", "1024", 1},
        {"AUTOCOLL_MAX_SCRATCH_MIB", "0", "64", 0},
        {"AUTOCOLL_STAR_ITER", "1000", "1000", 1},
        {"AUTOCOLL_STAR_ITER", "1001", "10", 0},
        {"AUTOCOLL_STAR_ITER", "0", "10", 0},
        {"AUTOCOLL_STAR_ITER", "ten", "10", 0},
        {"AUTOCOLL_STAR_ITER", "12x", "10", 0},
        {"AUTOCOLL_STAR_EPSILON", "0", "0", 1},
        {"AUTOCOLL_STAR_EPSILON", "inf", "0.1", 0},
        {"AUTOCOLL_STAR_EPSILON", "-0.5", "0.1", 0},
        {"AUTOCOLL_STAR_DELTA_MAX", "2", "2", 1},
        {"AUTOCOLL_STAR_DELTA_MAX", "1", "64", 0}, /* star.c used to clamp to 2 */
        {"AUTOCOLL_STAR_GROUPING", "off", "0", 1},
        {"AUTOCOLL_STAR_GROUPING", "no", "1", 0},
        {"AUTOCOLL_STAR_RECHECK", "100000001", "2000", 0},
        {"AUTOCOLL_LOTTERY_ALPHA", "0.5", "0.5", 1},
        {"AUTOCOLL_LOTTERY_ALPHA", "1", "0.8", 0},
        {"AUTOCOLL_LOTTERY_ALPHA", "0", "0.8", 0},
        {"AUTOCOLL_LOTTERY_ALPHA", "nan", "0.8", 0},
        {"AUTOCOLL_LOTTERY_SPREAD", "inverse", "1", 1},
        {"AUTOCOLL_LOTTERY_SPREAD", "Inverse", "0", 0},
        {"AUTOCOLL_LOTTERY_EXPLORE_SIGMAS", "inf", "inf", 1},
        {"AUTOCOLL_LOTTERY_EXPLORE_SIGMAS", "0", "0", 1},
        {"AUTOCOLL_LOTTERY_EXPLORE_SIGMAS", "-inf", "2", 0},
        {"AUTOCOLL_LOTTERY_EXPLORE_SIGMAS", "-1", "2", 0},
        {"AUTOCOLL_LOTTERY_EMA", "1", "1", 1},
        {"AUTOCOLL_LOTTERY_EMA", "0", "0.25", 0},
        {"AUTOCOLL_LOTTERY_TTL", "1000000", "1000000", 1},
        {"AUTOCOLL_LOTTERY_TTL", "1000001", "20", 0},
        {"AUTOCOLL_LOTTERY_WINDOW", "100001", "64", 0},
        {"AUTOCOLL_LOTTERY_INIT", "0", "0", 1},
        {"AUTOCOLL_LOTTERY_INIT", "1001", "1", 0},
        {"AUTOCOLL_LOTTERY_DRAW", "broadcast", "1", 1},
        {"AUTOCOLL_LOTTERY_SEED", "-7", "-7", 1},
        {"AUTOCOLL_LOTTERY_SEED", "99999999999999999999", "1", 0},
        {"AUTOCOLL_RACE_SAMPLES", "50", "50", 1},
        {"AUTOCOLL_RACE_SAMPLES", "51", "3", 0},
        {"AUTOCOLL_RACE_ROUNDS", "21", "4", 0},
        {"AUTOCOLL_RACE_MARGIN", "-1", "0.5", 0},
        {"AUTOCOLL_RACE_WINDOW_MAX", "16", "16", 1},
        {"AUTOCOLL_RACE_WINDOW_MAX", "15", "1024", 0}, /* race.c used to clamp to 16 */
        {"AUTOCOLL_RACE_REFRESH", "1000000000", "1000000000", 1},
        {"AUTOCOLL_RACE_REFRESH", "1000000001", "4096", 0},
        {"AUTOCOLL_RACE_FINAL", "101", "0", 0},
        {"AUTOCOLL_TEST_RANKS_PER_NODE", "-2", "0", 0},
        {"AUTOCOLL_REPORT", "report-%r.json", "report-%r.json", 1},
        {"AUTOCOLL_PLATFORM", "cluster-A_2.ib", "cluster-A_2.ib", 1},
        {"AUTOCOLL_PLATFORM", "my cluster", "auto", 0}, /* one word: it is in a one-line key */
        {"AUTOCOLL_PLATFORM", "a/b", "auto", 0},
        {"AUTOCOLL_ALLREDUCE", "no_such_algorithm", "no_such_algorithm", 1}, /* select's job */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ac_setting *s = ac_setting_find(cases[i].name);
        char used[64], said[1024], expected[1024] = "", values[256];
        read_setting(cases[i].name, cases[i].value, used, sizeof used, said, sizeof said);
        if (!s) continue;
        if (!cases[i].valid)
            snprintf(expected, sizeof expected,
                     "autocoll: warning: %s=%s is invalid (it takes %s); using the default %s\n",
                     s->name, cases[i].value, ac_setting_values(s, values, sizeof values),
                     s->default_value);
        if (!CHECK(strcmp(used, cases[i].used) == 0 && strcmp(said, expected) == 0))
            fprintf(stderr, "  %s=%s: used %s, said \"%s\"\n", cases[i].name, cases[i].value,
                    used, said);
    }
    /* One literal, so the common form itself is checked. */
    char used[64], said[1024];
    read_setting("AUTOCOLL_STAR_ITER", "1001", used, sizeof used, said, sizeof said);
    CHECK(strcmp(said, "autocoll: warning: AUTOCOLL_STAR_ITER=1001 is invalid (it takes 1 <= n "
                       "<= 1000); using the default 10\n") == 0);
}

/* The indices of keywords are the values of the lottery's enums; the strategy's keywords are the
 * names of the strategies' list (strategies.c), in its order, each one select.c takes; every
 * collective has its forcing setting, help text from its name. */
static void test_keywords_agree(void)
{
    const ac_setting *spread = ac_setting_find("AUTOCOLL_LOTTERY_SPREAD");
    const ac_setting *draw = ac_setting_find("AUTOCOLL_LOTTERY_DRAW");
    const ac_setting *strategy = ac_setting_find("AUTOCOLL_STRATEGY");
    CHECK(strcmp(spread->keywords[AC_LOTTERY_UNIFORM], "uniform") == 0);
    CHECK(strcmp(spread->keywords[AC_LOTTERY_INVERSE], "inverse") == 0);
    CHECK(strcmp(draw->keywords[AC_LOTTERY_SEED], "seed") == 0);
    CHECK(strcmp(draw->keywords[AC_LOTTERY_BROADCAST], "broadcast") == 0);
    int n, k = 0;
    const ac_strategy *const *all = ac_strategies(&n);
    for (; strategy->keywords[k]; k++) {
        CHECK(k < n && strcmp(strategy->keywords[k], all[k]->name) == 0);
        CHECK(ac_select_use_strategy(strategy->keywords[k]));
    }
    CHECK(k == n && n >= 6);
    CHECK(!ac_select_use_strategy("fastest"));
    const ac_setting *forced = ac_setting_find("AUTOCOLL_REDUCE_SCATTER_BLOCK");
    CHECK(forced && forced->type == AC_SETTING_ALGORITHM &&
          strcmp(forced->default_value, "auto") == 0 &&
          strcmp(forced->summary, "force the MPI_Reduce_scatter_block algorithm") == 0);
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++)
        CHECK(ac_setting_find(ac_collective_env((ac_collective)c)) != NULL);
}

/* Edit distance, suggestions, and the report of AUTOCOLL_* names no setting declares. */
static void test_spelling(void)
{
    CHECK(ac_spelling_distance("", "") == 0);
    CHECK(ac_spelling_distance("STRATGY", "STRATEGY") == 1);      /* a letter left out */
    CHECK(ac_spelling_distance("STRAETGY", "STRATEGY") == 1);     /* two letters swapped */
    CHECK(ac_spelling_distance("strategy", "STRATEGY") == 0);     /* case */
    CHECK(ac_spelling_distance("CA", "ABC") == 3); /* a swapped pair is not edited again */
    CHECK(ac_spelling_distance("kitten", "sitting") == 3);
    CHECK(ac_spelling_close("STRATGY", "STRATEGY"));
    CHECK(ac_spelling_close("STAR_ITERS", "STAR_ITER"));
    CHECK(!ac_spelling_close("RACE", "RATE_")); /* two edits in a short name */
    CHECK(!ac_spelling_close("XY", "Z"));       /* the whole name replaced */
}

static void test_closest(void)
{
    static const struct {
        const char *typed, *closest; /* NULL: nothing close */
    } cases[] = {
        {"AUTOCOLL_STRATGY", "AUTOCOLL_STRATEGY"},
        {"AUTOCOLL_STAR_ITERS", "AUTOCOLL_STAR_ITER"},
        {"AUTOCOLL_ALLREDUCE_", "AUTOCOLL_ALLREDUCE"},
        {"AUTOCOLL_VERBSOE", "AUTOCOLL_VERBOSE"},
        {"AUTOCOLL_RACE_SAMPLE", "AUTOCOLL_RACE_SAMPLES"},
        {"AUTOCOLL_FASTEST", NULL},
        {"AUTOCOLL_X", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ac_setting *s = ac_setting_closest(cases[i].typed);
        const char *got = s ? s->name : NULL;
        if (!CHECK(got == cases[i].closest ||
                   (got && cases[i].closest && strcmp(got, cases[i].closest) == 0)))
            fprintf(stderr, "  closest to %s: %s\n", cases[i].typed, got ? got : "none");
    }
}

/* What ac_config_check_environment writes on stderr, into `said`. */
static void check_environment(char *said, size_t said_size)
{
    FILE *capture = tmpfile();
    said[0] = '\0';
    if (!CHECK(capture != NULL)) return;
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(capture), STDERR_FILENO);
    ac_config_check_environment();
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(capture);
    size_t got = fread(said, 1, said_size - 1, capture);
    said[got] = '\0';
    fclose(capture);
}

static void test_unknown_names(void)
{
    char said[2048];
    setenv("AUTOCOLL_STAR_ITER", "12", 1);        /* declared */
    setenv("AUTOCOLL_TEST_RANKS_PER_NODE", "2", 1); /* declared, in the tooling's prefix */
    setenv("AUTOCOLL_TEST_PRELOAD", "x.so", 1);   /* the tooling's */
    setenv("AUTOCOLL_VENV", ".venv", 1);          /* the tooling's */
    check_environment(said, sizeof said);
    if (!CHECK(said[0] == '\0')) fprintf(stderr, "  said \"%s\"\n", said);
    setenv("AUTOCOLL_STRATGY", "race", 1);
    setenv("AUTOCOLL_FASTEST", "1", 1);
    setenv("AUTOCOLL_VENVS", "x", 1); /* not a prefix of the tooling */
    check_environment(said, sizeof said);
    CHECK(strstr(said, "autocoll: warning: AUTOCOLL_STRATGY=race is not an autocoll setting "
                       "(did you mean AUTOCOLL_STRATEGY?); ignored\n") != NULL);
    CHECK(strstr(said, "autocoll: warning: AUTOCOLL_FASTEST=1 is not an autocoll setting "
                       "(autocoll-info --settings lists them); ignored\n") != NULL);
    CHECK(strstr(said, "AUTOCOLL_VENVS=x is not an autocoll setting") != NULL);
    int lines = 0;
    for (const char *c = said; *c; c++)
        lines += *c == '\n';
    if (!CHECK(lines == 3)) fprintf(stderr, "  said \"%s\"\n", said);
    const char *set[] = {"AUTOCOLL_STAR_ITER", "AUTOCOLL_TEST_RANKS_PER_NODE",
                         "AUTOCOLL_TEST_PRELOAD", "AUTOCOLL_VENV", "AUTOCOLL_STRATGY",
                         "AUTOCOLL_FASTEST", "AUTOCOLL_VENVS"};
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
        unsetenv(set[i]);
}

/* The value in use and its source, as autocoll-info shows them, without a word on stderr. */
static void test_current(void)
{
    static const struct {
        const char *value, *used, *source, *given; /* value NULL: unset */
    } cases[] = {
        {NULL, "10", "default", NULL},
        {"", "10", "default", NULL},
        {"12", "12", "environment", "12"},
        {"-3", "10", "invalid", "-3"},
    };
    const ac_setting *s = ac_setting_find("AUTOCOLL_STAR_ITER");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ac_setting_source source;
        const char *given;
        if (cases[i].value)
            setenv(s->name, cases[i].value, 1);
        else
            unsetenv(s->name);
        const char *used = ac_setting_current(s, &source, &given);
        CHECK(strcmp(used, cases[i].used) == 0);
        CHECK(strcmp(ac_setting_source_name(source), cases[i].source) == 0);
        CHECK(cases[i].given ? given && strcmp(given, cases[i].given) == 0 : given == NULL);
    }
    unsetenv(s->name);
}

int main(void)
{
    ac_strategies_declare(); /* AUTOCOLL_STRATEGY's keywords, as ac_select_init gives them */
    test_declaration();
    test_values_text();
    test_defaults();
    test_values();
    test_keywords_agree();
    test_spelling();
    test_closest();
    test_unknown_names();
    test_current();
    if (failures) fprintf(stderr, "test_config: %d check(s) failed\n", failures);
    return failures != 0;
}
