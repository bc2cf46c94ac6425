/*
 * config.h - the one declaration of the AUTOCOLL_* settings: name, type, default, range and one
 * line of help each. Values come from the environment, read once at initialisation; every rank
 * must see the same values (checked at MPI_Init, see state.c).
 *
 * The typed getters below are the one place where values are parsed and checked against the
 * declaration. An invalid or out-of-range value gets one warning (from rank 0 once MPI is
 * initialised, from every process before) and the default:
 *   AUTOCOLL_X=value is invalid (it takes <values>); using the default <default>
 */
#ifndef AUTOCOLL_CONFIG_H
#define AUTOCOLL_CONFIG_H

#include <stddef.h>

typedef enum ac_setting_type {
    AC_SETTING_SWITCH,    /* on | off */
    AC_SETTING_INTEGER,   /* a base-10 integer in [min_integer, max_integer] */
    AC_SETTING_REAL,      /* a number within the real bounds below */
    AC_SETTING_KEYWORD,   /* one of `keywords` */
    AC_SETTING_PATH,      /* one of `keywords` (if any), or any other string: a path */
    AC_SETTING_ALGORITHM, /* auto, or an algorithm name (checked by the caller's registry) */
    AC_SETTING_NAME,      /* one of `keywords`, or a name: letters, digits and - _ . only */
    AC_SETTING_TYPES
} ac_setting_type;

/* Bounds of a real setting (real_bounds). Without AC_REAL_MAX_BOUNDED there is no maximum. */
enum {
    AC_REAL_MIN_EXCLUSIVE = 1u << 0, /* x > min_real instead of x >= min_real */
    AC_REAL_MAX_BOUNDED = 1u << 1,   /* x <= max_real */
    AC_REAL_MAX_EXCLUSIVE = 1u << 2, /* x < max_real (with AC_REAL_MAX_BOUNDED) */
    AC_REAL_INFINITY = 1u << 3       /* "inf" is valid too */
};

typedef struct ac_setting {
    const char *name; /* environment variable */
    ac_setting_type type;
    const char *default_value;     /* value when unset or empty, written as a user would */
    long min_integer, max_integer; /* AC_SETTING_INTEGER: LONG_MIN, LONG_MAX when open */
    double min_real, max_real;     /* AC_SETTING_REAL, with real_bounds */
    unsigned real_bounds;          /* AC_REAL_* */
    const char *const *keywords;   /* KEYWORD, SWITCH and PATH: NULL-terminated */
    const char *summary;           /* one line of help */
} ac_setting;

/* The declaration, in display order. */
const ac_setting *ac_settings(int *count);

/* Declarations of settings, for config.c's own and for the groups the layers above declare
 * (ac_config_declare: the strategies' settings, select/strategy.h). */
extern const char *const ac_on_off[]; /* a SWITCH's keywords */
#define AC_DECLARE_SWITCH(n, def, help)                                                         \
    {.name = n, .type = AC_SETTING_SWITCH, .default_value = def, .keywords = ac_on_off,        \
     .summary = help}
#define AC_DECLARE_INTEGER(n, def, lo, hi, help)                                                \
    {.name = n, .type = AC_SETTING_INTEGER, .default_value = def, .min_integer = lo,           \
     .max_integer = hi, .summary = help}
#define AC_DECLARE_REAL(n, def, lo, hi, bounds, help)                                           \
    {.name = n, .type = AC_SETTING_REAL, .default_value = def, .min_real = lo, .max_real = hi,  \
     .real_bounds = bounds, .summary = help}
#define AC_DECLARE_KEYWORD(n, def, names, help)                                                 \
    {.name = n, .type = AC_SETTING_KEYWORD, .default_value = def, .keywords = names,           \
     .summary = help}
#define AC_DECLARE_PATH(n, def, names, help)                                                    \
    {.name = n, .type = AC_SETTING_PATH, .default_value = def, .keywords = names,              \
     .summary = help}
#define AC_DECLARE_NAME(n, def, names, help)                                                    \
    {.name = n, .type = AC_SETTING_NAME, .default_value = def, .keywords = names,              \
     .summary = help}
/* 0 < x < 1, 0 < x <= 1 */
#define AC_REAL_OPEN_UNIT (AC_REAL_MIN_EXCLUSIVE | AC_REAL_MAX_BOUNDED | AC_REAL_MAX_EXCLUSIVE)
#define AC_REAL_HALF_OPEN_UNIT (AC_REAL_MIN_EXCLUSIVE | AC_REAL_MAX_BOUNDED)

/* A group of settings declared by a layer above (a strategy's, select/strategy.h), shown after
 * config.c's own first ones: called before any setting is read (ac_strategies_declare, at the
 * start of MPI_Init and of the tools); a group given twice counts once. Kept, not copied. */
void ac_config_declare(const ac_setting *group, int n);

/* The keywords of the KEYWORD setting `name` where a higher layer owns the list
 * (AUTOCOLL_STRATEGY: the strategies' names, select/strategy.h: ac_strategies_declare),
 * NULL-terminated, kept, not copied; given before the setting is read. */
void ac_config_set_keywords(const char *name, const char *const *keywords);

/* The entry of `name`, or NULL for a name not declared. */
const ac_setting *ac_setting_find(const char *name);

/* The declared setting whose name is closest to `name`, an AUTOCOLL_* name no setting declares,
 * when one is close enough to suggest (core/spelling.h); NULL otherwise. */
const ac_setting *ac_setting_closest(const char *name);

/* Where the value of a setting comes from: unset or empty (the default), the environment, or an
 * invalid value in the environment (the default, with a warning from the getters). */
typedef enum ac_setting_source {
    AC_SOURCE_DEFAULT,
    AC_SOURCE_ENVIRONMENT,
    AC_SOURCE_INVALID
} ac_setting_source;

/* The value the getters use for s and its source; *given: the environment's text, NULL when
 * unset or empty. Says nothing (autocoll-info shows it). */
const char *ac_setting_current(const ac_setting *s, ac_setting_source *source,
                               const char **given);

/* "default", "environment" or "invalid". */
const char *ac_setting_source_name(ac_setting_source source);

/* An AUTOCOLL_* variable of the environment that no setting declares: its name and value, the
 * closest declared setting or NULL. */
typedef void ac_unknown_fn(const char *name, const char *value, const ac_setting *closest,
                           void *arg);

/* The AUTOCOLL_* names of the test tooling, which are not settings (NULL-terminated; a name
 * ending in '_' stands for every undeclared name it begins). */
const char *const *ac_config_tooling_names(void);

/* Calls fn for every AUTOCOLL_* variable of the environment that no setting declares and that
 * is not the tooling's (AUTOCOLL_TEST_*, AUTOCOLL_BUILD, AUTOCOLL_VENV, AUTOCOLL_FUZZ_SEEDS,
 * AUTOCOLL_PLATFORM_FILE: config.c, tooling_names). */
void ac_config_each_unknown(ac_unknown_fn *fn, void *arg);

/* The type's name: "switch", "integer", "real", "keyword", "path" or "algorithm". */
const char *ac_setting_type_name(ac_setting_type type);

/* What the setting accepts, generated from its type and range ("1 <= n <= 50", "0 < x <= 1",
 * "uniform | inverse", ...), written into buf; returns buf. */
const char *ac_setting_values(const ac_setting *s, char *buf, size_t size);

/* Whether `value` is valid for s. */
int ac_setting_valid(const ac_setting *s, const char *value);

/* The value as given: the environment's, or the default when unset or empty; unchecked. For
 * PATH and ALGORITHM settings (any string). NULL for a name not declared. */
const char *ac_config_get(const char *name);

/* Checked values (see the top of this file): an INTEGER, a REAL, the index of a KEYWORD in its
 * `keywords`, a SWITCH (1 on, 0 off), a NAME (one of its keywords, or the name). */
long ac_config_int(const char *name);
double ac_config_real(const char *name);
int ac_config_keyword(const char *name);
int ac_config_switch(const char *name);
const char *ac_config_name(const char *name);

/* Reports every variable of ac_config_each_unknown, one warning each, with the closest declared
 * name when there is one:
 *   AUTOCOLL_STRATGY=race is not an autocoll setting (did you mean AUTOCOLL_STRATEGY?); ignored
 * From rank 0 once MPI is initialised (called once, at MPI_Init), from every process before.
 * Invalid values of declared settings are reported by the getters, when the setting is read. */
void ac_config_check_environment(void);

/* 31-bit hash of every setting's value, to check that all ranks were configured alike. */
int ac_config_hash(void);

#endif
