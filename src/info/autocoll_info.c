/*
 * autocoll_info.c - `autocoll-info`, in the manner of ompi_info: what this build offers (the
 * registry's algorithms by collective and group, the families of mesh instances) and how this
 * environment sets it (every AUTOCOLL_* setting with its value, where the value comes from and
 * what it takes; the AUTOCOLL_* variables that are no setting). Without an option an overview
 * that fits on a screen; filters select collectives, algorithms and settings; --parsable writes
 * one key:value line per fact, --json one document (schema autocoll-info, version 1). Generated
 * from the registry and the settings' declaration (core/config.c); needs no MPI initialisation.
 * `autocoll-info --help` lists the options. With --json --size N --bytes B [--nodes K] every
 * algorithm also has its cost model's feature vector for N ranks on K nodes (default 1) and B
 * bytes (coll/cost.h: seconds per unit of each platform parameter; null without a model).
 * --json also lists the implementations of ADCL's neighbourhood exchange with their attributes
 * ("adcl_implementations"; empty when a filter is given).
 */
#include "adcl/halo/halo.h"
#include "coll/coll.h"
#include "coll/cost.h"
#include "core/config.h"
#include "core/json_writer.h"
#include "core/spelling.h"
#include "report/lines.h"
#include "select/model.h"
#include "select/strategy.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef AUTOCOLL_VERSION
#define AUTOCOLL_VERSION "unknown"
#endif
#ifndef AUTOCOLL_MPI_NAME
#define AUTOCOLL_MPI_NAME "unknown"
#endif
#ifndef AUTOCOLL_MPI_FAMILY /* the library its mpi.h is: Open MPI, MPICH, Intel MPI, ... */
#define AUTOCOLL_MPI_FAMILY "unknown"
#endif

enum { MAX_FILTERS = 16, NAME_MAX_LEN = 128 };

typedef enum output { TEXT, PARSABLE, JSON } output;

/* What the command line asks for. Without a filter: the overview (text), everything (--parsable,
 * --json). */
typedef struct options {
    int help;
    output format;
    int format_given;
    int size;                                      /* --size: algorithms for N ranks; 0: none */
    long bytes;                                    /* --bytes: cost features; -1: none */
    int nodes;                                     /* --nodes: of the cost shape; 0: one */
    int all;                                       /* --all */
    int all_settings;                              /* --settings */
    unsigned collectives;                          /* --collective: bit per collective */
    const char *algorithms[MAX_FILTERS];           /* --algorithm: names, groups, families */
    int nalgorithms;
    char settings[MAX_FILTERS][NAME_MAX_LEN];      /* --setting: names or name prefixes */
    int nsettings;
} options;

static int filtered(const options *o)
{
    return o->all || o->all_settings || o->collectives || o->nalgorithms || o->nsettings;
}

/* ---- The registry: algorithms of a collective, static or for a size. ---- */

static int algorithm_count(ac_collective c, int size)
{
    return size > 0 ? ac_registry_for_size(c, size).count : ac_registry_of(c).count;
}

static const ac_algorithm *algorithm_at(ac_collective c, int size, int i)
{
    return size > 0 ? ac_registry_for_size(c, size).algorithms[i]
                    : &ac_registry_of(c).algorithms[i];
}

/* Whether algorithm i of c is the first of its group in the list. */
static int first_of_group(ac_collective c, int size, int i)
{
    const char *group = algorithm_at(c, size, i)->group;
    for (int j = 0; j < i; j++)
        if (strcmp(algorithm_at(c, size, j)->group, group) == 0) return 0;
    return 1;
}

static int group_count(ac_collective c, int size)
{
    int n = 0;
    for (int i = 0; i < algorithm_count(c, size); i++)
        n += first_of_group(c, size, i);
    return n;
}

/* ---- What the filters select. ---- */

/* Whether algorithm i of c is selected. A list for a size is the static table, then the
 * family's instances (coll.h): those are selected by the family's name too. */
static int shows_algorithm(const options *o, ac_collective c, int i)
{
    const ac_algorithm *a = algorithm_at(c, o->size, i);
    const ac_family *f = i >= ac_registry_of(c).count && strncmp(a->name, "orthogonal_", 11) == 0
                             ? ac_orthogonal_family(c)
                             : NULL;
    if (o->all || (o->collectives >> c & 1u)) return 1;
    for (int k = 0; k < o->nalgorithms; k++)
        if (strcmp(o->algorithms[k], a->name) == 0 || strcmp(o->algorithms[k], a->group) == 0 ||
            (f && strcmp(o->algorithms[k], f->name) == 0))
            return 1;
    return 0;
}

static int shows_family(const options *o, const ac_family *f)
{
    if (!f) return 0;
    if (o->all || (o->collectives >> f->base.collective & 1u)) return 1;
    for (int i = 0; i < o->nalgorithms; i++)
        if (strcmp(o->algorithms[i], f->name) == 0) return 1;
    return 0;
}

static int shows_collective(const options *o, ac_collective c)
{
    for (int i = 0; i < algorithm_count(c, o->size); i++)
        if (shows_algorithm(o, c, i)) return 1;
    return shows_family(o, ac_orthogonal_family(c));
}

/* A --setting filter: the name itself, or every name it begins followed by '_'. */
static int setting_matches(const char *filter, const char *name)
{
    size_t n = strlen(filter);
    return strcmp(filter, name) == 0 || (strncmp(filter, name, n) == 0 && name[n] == '_');
}

static int shows_setting(const options *o, const ac_setting *s)
{
    if (o->all || o->all_settings) return 1;
    for (int i = 0; i < o->nsettings; i++)
        if (setting_matches(o->settings[i], s->name)) return 1;
    return 0;
}

static int shows_settings(const options *o)
{
    int n;
    const ac_setting *settings = ac_settings(&n);
    for (int i = 0; i < n; i++)
        if (shows_setting(o, &settings[i])) return 1;
    return 0;
}

/* ---- Values in use. ---- */

typedef struct current {
    const char *value, *given;
    ac_setting_source source;
} current;

/* The value the layer uses and where it comes from: the declaration's check, and for a forced
 * algorithm the registry's (select.c runs native for a name it does not know). */
static current current_of(const ac_setting *s)
{
    current v;
    v.value = ac_setting_current(s, &v.source, &v.given);
    if (s->type != AC_SETTING_ALGORITHM || v.source != AC_SOURCE_ENVIRONMENT ||
        strcmp(v.value, "auto") == 0)
        return v;
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++)
        if (strcmp(ac_collective_env((ac_collective)c), s->name) == 0 &&
            !ac_registry_find((ac_collective)c, v.value)) {
            v.source = AC_SOURCE_INVALID;
            v.value = "native";
        }
    return v;
}

static int changed_settings(void)
{
    int n, changed = 0;
    const ac_setting *settings = ac_settings(&n);
    for (int i = 0; i < n; i++)
        changed += current_of(&settings[i]).source != AC_SOURCE_DEFAULT;
    return changed;
}

/* ---- Text. ---- */

static void text_algorithm(const ac_algorithm *a)
{
    char req[512];
    ac_requirements_text(a, req, sizeof req);
    printf("    %-42s %s\n", a->name, a->attributes ? a->attributes : "");
    printf("    %-42s requires: %s\n", "", req[0] ? req : "nothing");
    printf("    %-42s %s\n", "", a->summary);
}

static void text_family(const ac_family *f)
{
    char req[512];
    ac_requirements_text(&f->base, req, sizeof req);
    printf("  family %s: %s\n", f->name, f->names);
    printf("    %-42s phases:", "");
    for (int ph = 0; ph < AC_FAMILY_PHASES; ph++)
        printf(" %s", f->phases[ph]);
    printf("\n    %-42s layouts: %s\n", "", f->layouts);
    printf("    %-42s group=%s  %s\n", "", f->groups, f->attributes);
    printf("    %-42s requires: %s\n", "", req);
    printf("    %-42s %s\n", "", f->base.summary);
}

/* A collective's selected algorithms, group by group in the order of the registry, then its
 * family. */
static void text_collective(const options *o, ac_collective c)
{
    const ac_family *f = ac_orthogonal_family(c);
    int n = algorithm_count(c, o->size);
    if (o->size > 0)
        printf("\n%s (%d algorithms for %d ranks, force with %s=<name>)\n", ac_collective_name(c),
               n, o->size, ac_collective_env(c));
    else
        printf("\n%s (%d algorithms%s, force with %s=<name>)\n", ac_collective_name(c), n,
               f ? " and a family" : "", ac_collective_env(c));
    for (int i = 0; i < n; i++) {
        const char *group = algorithm_at(c, o->size, i)->group;
        int heading = 0;
        if (!first_of_group(c, o->size, i)) continue;
        for (int j = i; j < n; j++) {
            const ac_algorithm *a = algorithm_at(c, o->size, j);
            if (strcmp(a->group, group) != 0 || !shows_algorithm(o, c, j)) continue;
            if (!heading++) printf("  group %s\n", group);
            text_algorithm(a);
        }
    }
    if (shows_family(o, f)) text_family(f);
}

/* "= 12 (environment; default 10)", "= 10 (default)", "= 10 (invalid -3 in the environment:
 * the default is used)" */
static void text_current(const ac_setting *s, current v)
{
    printf("  %s = %s", s->name, v.value[0] ? v.value : "\"\"");
    if (v.source == AC_SOURCE_INVALID)
        printf("  (%s=%s is invalid: %s is used)\n", s->name, v.given, v.value);
    else if (v.source == AC_SOURCE_ENVIRONMENT)
        printf("  (environment; default %s)\n", s->default_value[0] ? s->default_value : "\"\"");
    else
        printf("  (default)\n");
}

static void text_setting(const ac_setting *s)
{
    char values[256];
    text_current(s, current_of(s));
    printf("      %s: %s\n      %s\n", ac_setting_type_name(s->type),
           ac_setting_values(s, values, sizeof values), s->summary);
}

static void text_unknown(const char *name, const char *value, const ac_setting *closest,
                         void *arg)
{
    int *count = arg;
    if (!(*count)++) printf("\nnot settings (the layer ignores them):\n");
    printf("  %s=%s", name, value);
    if (closest) printf("  (did you mean %s?)", closest->name);
    printf("\n");
}

static void text_overview(const options *o)
{
    int n, unknown = 0;
    const ac_setting *settings = ac_settings(&n);
    const ac_setting *strategy = ac_setting_find("AUTOCOLL_STRATEGY");
    current v = current_of(strategy);
    printf("\n%-22s %10s %7s  family", "collective", "algorithms", "groups");
    if (o->size > 0) printf("  (for %d ranks)", o->size);
    printf("\n");
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        const ac_family *f = ac_orthogonal_family((ac_collective)c);
        printf("%-22s %10d %7d  %s\n", ac_collective_name((ac_collective)c),
               algorithm_count((ac_collective)c, o->size),
               group_count((ac_collective)c, o->size), f ? f->name : "-");
    }
    printf("\nstrategy %s (AUTOCOLL_STRATEGY, %s)\n", v.value, ac_setting_source_name(v.source));
    int changed = changed_settings();
    printf("%d settings, %d set in this environment%s\n", n, changed, changed ? ":" : "");
    for (int i = 0; i < n; i++)
        if (current_of(&settings[i]).source != AC_SOURCE_DEFAULT)
            text_current(&settings[i], current_of(&settings[i]));
    ac_config_each_unknown(text_unknown, &unknown);
    printf("\nmore: autocoll-info --collective C | --algorithm NAME | --setting NAME | --settings "
           "| --all | --help\n");
}

static void print_text(const options *o)
{
    char fingerprint[32];
    int unknown = 0;
    snprintf(fingerprint, sizeof fingerprint, "%016lx", ac_registry_fingerprint());
    printf("autocoll %s built for %s (registry %s; mpi.h of %s)\n", AUTOCOLL_VERSION,
           AUTOCOLL_MPI_NAME, fingerprint, AUTOCOLL_MPI_FAMILY);
    if (strcmp(ac_lines_library(), "none") != 0)
        printf("report: call sites as file:line (function), read with %s\n", ac_lines_library());
    else
        printf("report: call sites as module+offset (built without libdw)\n");
    if (!filtered(o)) {
        text_overview(o);
        return;
    }
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++)
        if (shows_collective(o, (ac_collective)c)) text_collective(o, (ac_collective)c);
    if (!shows_settings(o)) return;
    int n;
    const ac_setting *settings = ac_settings(&n);
    printf("\nsettings (environment variables, equal on every rank but AUTOCOLL_REPORT and "
           "AUTOCOLL_VERBOSE)\n");
    for (int i = 0; i < n; i++)
        if (shows_setting(o, &settings[i])) text_setting(&settings[i]);
    ac_config_each_unknown(text_unknown, &unknown);
}

/* ---- Parsable: one "kind:name...:key:value" line per fact. ---- */

static void fact(const char *prefix, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fact(const char *prefix, const char *key, const char *fmt, ...)
{
    va_list ap;
    printf("%s:%s:", prefix, key);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static void parsable_algorithm(const ac_algorithm *a)
{
    char prefix[256], req[512];
    snprintf(prefix, sizeof prefix, "algorithm:%s:%s", ac_collective_name(a->collective), a->name);
    ac_requirements_text(a, req, sizeof req);
    fact(prefix, "group", "%s", a->group);
    fact(prefix, "attributes", "%s", a->attributes ? a->attributes : "");
    fact(prefix, "requires", "%s", req);
    fact(prefix, "min_bytes", "%zu", a->min_bytes);
    fact(prefix, "max_bytes", "%zu", a->max_bytes);
    fact(prefix, "summary", "%s", a->summary);
}

static void parsable_family(const ac_family *f)
{
    char prefix[256], req[512], phases[512] = "";
    snprintf(prefix, sizeof prefix, "family:%s:%s", ac_collective_name(f->base.collective),
             f->name);
    ac_requirements_text(&f->base, req, sizeof req);
    for (int ph = 0; ph < AC_FAMILY_PHASES; ph++)
        snprintf(phases + strlen(phases), sizeof phases - strlen(phases), "%s%s", ph ? " " : "",
                 f->phases[ph]);
    fact(prefix, "names", "%s", f->names);
    fact(prefix, "phases", "%s", phases);
    fact(prefix, "layouts", "%s", f->layouts);
    fact(prefix, "groups", "%s", f->groups);
    fact(prefix, "attributes", "%s", f->attributes);
    fact(prefix, "requires", "%s", req);
    fact(prefix, "summary", "%s", f->base.summary);
}

static void parsable_setting(const ac_setting *s)
{
    char prefix[256], values[256];
    current v = current_of(s);
    snprintf(prefix, sizeof prefix, "setting:%s", s->name);
    fact(prefix, "value", "%s", v.value);
    fact(prefix, "source", "%s", ac_setting_source_name(v.source));
    if (v.given) fact(prefix, "given", "%s", v.given);
    fact(prefix, "default", "%s", s->default_value);
    fact(prefix, "type", "%s", ac_setting_type_name(s->type));
    fact(prefix, "values", "%s", ac_setting_values(s, values, sizeof values));
    fact(prefix, "summary", "%s", s->summary);
}

static void parsable_unknown(const char *name, const char *value, const ac_setting *closest,
                             void *arg)
{
    char prefix[256];
    (void)arg;
    snprintf(prefix, sizeof prefix, "unknown:%s", name);
    fact(prefix, "value", "%s", value);
    if (closest) fact(prefix, "closest", "%s", closest->name);
}

static void print_parsable(const options *o)
{
    int n;
    const ac_setting *settings = ac_settings(&n);
    fact("autocoll", "version", "%s", AUTOCOLL_VERSION);
    fact("autocoll", "mpi", "%s", AUTOCOLL_MPI_NAME);
    fact("autocoll", "mpi_family", "%s", AUTOCOLL_MPI_FAMILY);
    fact("autocoll", "site_lines", "%s", ac_lines_library());
    fact("autocoll", "registry_fingerprint", "%016lx", ac_registry_fingerprint());
    if (o->size > 0) fact("autocoll", "size", "%d", o->size);
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        char prefix[64];
        const ac_family *f = ac_orthogonal_family((ac_collective)c);
        if (!shows_collective(o, (ac_collective)c)) continue;
        snprintf(prefix, sizeof prefix, "collective:%s", ac_collective_name((ac_collective)c));
        fact(prefix, "algorithms", "%d", algorithm_count((ac_collective)c, o->size));
        fact(prefix, "groups", "%d", group_count((ac_collective)c, o->size));
        fact(prefix, "forced_by", "%s", ac_collective_env((ac_collective)c));
        for (int i = 0; i < algorithm_count((ac_collective)c, o->size); i++)
            if (shows_algorithm(o, (ac_collective)c, i))
                parsable_algorithm(algorithm_at((ac_collective)c, o->size, i));
        if (shows_family(o, f)) parsable_family(f);
    }
    for (int i = 0; i < n; i++)
        if (shows_setting(o, &settings[i])) parsable_setting(&settings[i]);
    ac_config_each_unknown(parsable_unknown, NULL);
}

/* ---- JSON (schema autocoll-info, version 1): what the tools read (tools/autocoll/formats/registry.py).
 * ---- */

/* "a=b c=d" -> {"a": "b", "c": "d"} */
static void json_attributes(ac_json_writer *w, const char *attrs)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", attrs ? attrs : "");
    ac_json_object_begin(w, "attributes");
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) continue;
        *eq = '\0';
        ac_json_string(w, tok, eq + 1);
    }
    ac_json_object_end(w);
}

/* The shape of --size, --bytes and --nodes; size 0: no costs asked for. */
static ac_cost_shape cost_shape;

static void json_algorithm(ac_json_writer *w, const ac_algorithm *a)
{
    char req[512];
    ac_requirements_text(a, req, sizeof req);
    ac_json_object_begin(w, NULL);
    ac_json_string(w, "collective", ac_collective_name(a->collective));
    ac_json_string(w, "name", a->name);
    ac_json_string(w, "group", a->group);
    json_attributes(w, a->attributes);
    ac_json_string(w, "requires", req);
    ac_json_integer_value(w, "min_bytes", (long long)a->min_bytes);
    ac_json_integer_value(w, "max_bytes", (long long)a->max_bytes);
    ac_json_string(w, "summary", a->summary);
    /* written as a schedule (coll/common/sched.h): it runs nonblocking and persistent calls too */
    ac_json_boolean(w, "schedule", ac_has_schedule(a));
    double f[AC_COST_PARAMS];
    if (cost_shape.size > 0 && ac_cost_features(a, &cost_shape, f) == 0) {
        ac_json_object_begin(w, "cost");
        for (int j = 0; j < AC_COST_PARAMS; j++) ac_json_real(w, ac_cost_param_name(j), f[j]);
        ac_json_object_end(w);
    } else if (cost_shape.size > 0) {
        ac_json_null(w, "cost");
    }
    ac_json_object_end(w);
}

static void json_family(ac_json_writer *w, const ac_family *f)
{
    char req[512];
    ac_requirements_text(&f->base, req, sizeof req);
    ac_json_object_begin(w, NULL);
    ac_json_string(w, "collective", ac_collective_name(f->base.collective));
    ac_json_string(w, "family", f->name);
    ac_json_string(w, "names", f->names);
    ac_json_array_begin(w, "phases");
    for (int ph = 0; ph < AC_FAMILY_PHASES; ph++)
        ac_json_string(w, NULL, f->phases[ph]);
    ac_json_array_end(w);
    ac_json_string(w, "layouts", f->layouts);
    ac_json_string(w, "groups", f->groups);
    ac_json_string(w, "attributes", f->attributes);
    ac_json_string(w, "requires", req);
    ac_json_string(w, "summary", f->base.summary);
    ac_json_object_end(w);
}

static void json_setting(ac_json_writer *w, const ac_setting *s)
{
    char values[256];
    current v = current_of(s);
    ac_json_object_begin(w, NULL);
    ac_json_string(w, "name", s->name);
    ac_json_string(w, "type", ac_setting_type_name(s->type));
    ac_json_string(w, "default", s->default_value);
    ac_json_string(w, "values", ac_setting_values(s, values, sizeof values));
    ac_json_string(w, "value", v.value);
    ac_json_string(w, "source", ac_setting_source_name(v.source));
    if (v.given) ac_json_string(w, "given", v.given);
    ac_json_string(w, "summary", s->summary);
    ac_json_object_end(w);
}

static void json_unknown(const char *name, const char *value, const ac_setting *closest,
                         void *arg)
{
    ac_json_writer *w = arg;
    ac_json_object_begin(w, NULL);
    ac_json_string(w, "name", name);
    ac_json_string(w, "value", value);
    if (closest) ac_json_string(w, "closest", closest->name);
    ac_json_object_end(w);
}

/* One implementation of ADCL's neighbourhood exchange (src/adcl/halo/registry.c). */
static void json_adcl_implementation(ac_json_writer *w, const ac_halo_impl *impl)
{
    ac_json_object_begin(w, NULL);
    ac_json_string(w, "name", impl->name);
    ac_json_object_begin(w, "attributes");
    for (int a = 0; a < AC_HALO_ATTRIBUTES; a++)
        ac_json_string(w, ac_halo_attribute_name(a),
                       ac_halo_attribute_values(a)[ac_halo_attribute(impl, a)]);
    ac_json_object_end(w);
    ac_json_string(w, "summary", impl->summary);
    ac_json_object_end(w);
}

static void print_json(const options *o)
{
    int n;
    const ac_setting *settings = ac_settings(&n);
    char fingerprint[32];
    ac_json_writer w;
    snprintf(fingerprint, sizeof fingerprint, "%016lx", ac_registry_fingerprint());
    ac_json_writer_init(&w, stdout);
    ac_json_object_begin(&w, NULL);
    ac_json_string(&w, "schema", "autocoll-info");
    ac_json_integer_value(&w, "version", 1);
    ac_json_string(&w, "autocoll_version", AUTOCOLL_VERSION);
    ac_json_string(&w, "mpi", AUTOCOLL_MPI_NAME);
    ac_json_string(&w, "mpi_family", AUTOCOLL_MPI_FAMILY);
    ac_json_string(&w, "site_lines", ac_lines_library());
    ac_json_string(&w, "registry_fingerprint", fingerprint);
    if (o->size > 0) ac_json_integer_value(&w, "size", o->size);
    if (cost_shape.size > 0) {
        ac_json_object_begin(&w, "cost_shape");
        ac_json_integer_value(&w, "nodes", cost_shape.nodes);
        ac_json_integer_value(&w, "ppn", cost_shape.ppn);
        ac_json_real(&w, "bytes", cost_shape.bytes);
        ac_json_object_end(&w);
    }
    ac_json_array_begin(&w, "algorithms");
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++)
        for (int i = 0; i < algorithm_count((ac_collective)c, o->size); i++)
            if (shows_algorithm(o, (ac_collective)c, i))
                json_algorithm(&w, algorithm_at((ac_collective)c, o->size, i));
    ac_json_array_end(&w);
    ac_json_array_begin(&w, "families");
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++)
        if (shows_family(o, ac_orthogonal_family((ac_collective)c)))
            json_family(&w, ac_orthogonal_family((ac_collective)c));
    ac_json_array_end(&w);
    ac_json_array_begin(&w, "adcl_implementations");
    int nimpl;
    const ac_halo_impl *impls = ac_halo_registry(&nimpl);
    for (int i = 0; o->all && i < nimpl; i++)
        json_adcl_implementation(&w, &impls[i]);
    ac_json_array_end(&w);
    ac_json_array_begin(&w, "settings");
    for (int i = 0; i < n; i++)
        if (shows_setting(o, &settings[i])) json_setting(&w, &settings[i]);
    ac_json_array_end(&w);
    ac_json_array_begin(&w, "tooling");
    for (const char *const *t = ac_config_tooling_names(); *t; t++)
        ac_json_string(&w, NULL, *t);
    ac_json_array_end(&w);
    ac_json_array_begin(&w, "unknown");
    ac_config_each_unknown(json_unknown, &w);
    ac_json_array_end(&w);
    ac_json_object_end(&w);
}

/* ---- The command line. ---- */

/* Each option's action: 0, or -1 with a one-line reason in `why`. */
typedef int option_fn(options *o, const char *arg, char *why, size_t size);

static int set_format(options *o, output format, const char *name, char *why, size_t size)
{
    if (o->format_given) {
        snprintf(why, size, "%s: one output format only", name);
        return -1;
    }
    o->format = format;
    o->format_given = 1;
    return 0;
}

static int opt_json(options *o, const char *arg, char *why, size_t size)
{
    (void)arg;
    return set_format(o, JSON, "--json", why, size);
}

static int opt_parsable(options *o, const char *arg, char *why, size_t size)
{
    (void)arg;
    return set_format(o, PARSABLE, "--parsable", why, size);
}

static int opt_all(options *o, const char *arg, char *why, size_t size)
{
    (void)arg, (void)why, (void)size;
    o->all = 1;
    return 0;
}

static int opt_settings(options *o, const char *arg, char *why, size_t size)
{
    (void)arg, (void)why, (void)size;
    o->all_settings = 1;
    return 0;
}

static int opt_size(options *o, const char *arg, char *why, size_t size)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (o->size || end == arg || *end != '\0' || v < 1 || v > INT_MAX) {
        snprintf(why, size, "--size %s: a communicator size, once (1 <= N <= %d)", arg, INT_MAX);
        return -1;
    }
    o->size = (int)v;
    return 0;
}

static int opt_bytes(options *o, const char *arg, char *why, size_t size)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (o->bytes >= 0 || end == arg || *end != '\0' || v < 0 || v > INT_MAX) {
        snprintf(why, size, "--bytes %s: a message size in bytes, once (0 <= B <= %d)", arg,
                 INT_MAX);
        return -1;
    }
    o->bytes = v;
    return 0;
}

static int opt_nodes(options *o, const char *arg, char *why, size_t size)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (o->nodes || end == arg || *end != '\0' || v < 1 || v > INT_MAX) {
        snprintf(why, size, "--nodes %s: a node count, once (1 <= K <= %d)", arg, INT_MAX);
        return -1;
    }
    o->nodes = (int)v;
    return 0;
}

static int opt_collective(options *o, const char *arg, char *why, size_t size)
{
    char name[NAME_MAX_LEN];
    const char *plain = strncasecmp(arg, "MPI_", 4) == 0 ? arg + 4 : arg;
    snprintf(name, sizeof name, "%s", plain);
    for (char *c = name; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    int c = ac_collective_from_name(name);
    if (c < 0) {
        size_t used = (size_t)snprintf(why, size, "--collective %s: no such collective (", arg);
        for (int k = 0; k < AC_NUM_COLLECTIVES && used < size; k++)
            used += (size_t)snprintf(why + used, size - used, "%s%s", k ? ", " : "",
                                     ac_collective_name((ac_collective)k));
        if (used < size) snprintf(why + used, size - used, ")");
        return -1;
    }
    o->collectives |= 1u << c;
    return 0;
}

static int opt_algorithm(options *o, const char *arg, char *why, size_t size)
{
    if (o->nalgorithms == MAX_FILTERS) {
        snprintf(why, size, "--algorithm: at most %d", MAX_FILTERS);
        return -1;
    }
    o->algorithms[o->nalgorithms++] = arg; /* checked once --size is known (check_algorithms) */
    return 0;
}

static int opt_setting(options *o, const char *arg, char *why, size_t size)
{
    char *name = o->settings[o->nsettings];
    int n, matched = 0;
    const ac_setting *settings = ac_settings(&n);
    if (o->nsettings == MAX_FILTERS) {
        snprintf(why, size, "--setting: at most %d", MAX_FILTERS);
        return -1;
    }
    snprintf(name, NAME_MAX_LEN, "%s%s", strncasecmp(arg, "AUTOCOLL", 8) == 0 ? "" : "AUTOCOLL_",
             arg);
    for (char *c = name; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    for (int i = 0; i < n; i++)
        matched += setting_matches(name, settings[i].name);
    if (!matched) {
        const ac_setting *closest = ac_setting_closest(name);
        snprintf(why, size, "--setting %s: no such setting%s%s%s", arg,
                 closest ? "; did you mean " : " (autocoll-info --settings lists them)",
                 closest ? closest->name : "", closest ? "?" : "");
        return -1;
    }
    o->nsettings++;
    return 0;
}

static int opt_help(options *o, const char *arg, char *why, size_t size)
{
    (void)arg, (void)why, (void)size;
    o->help = 1;
    return 0;
}

static const struct option_spec {
    const char *name, *argument; /* argument NULL: a flag */
    option_fn *apply;
    const char *help;
} option_specs[] = {
    {"--collective", "C", opt_collective,
     "the algorithms of collective C (allreduce, bcast, ...), group by group"},
    {"--algorithm", "NAME", opt_algorithm,
     "the algorithm NAME, or every algorithm of the group or family NAME"},
    {"--setting", "NAME", opt_setting,
     "the setting NAME (AUTOCOLL_STAR_ITER or star_iter), or every setting it begins (star)"},
    {"--settings", NULL, opt_settings, "every setting: value, source, what it takes"},
    {"--all", NULL, opt_all, "every algorithm, family and setting"},
    {"--size", "N", opt_size,
     "the algorithms for a communicator of N ranks (the family's instances for N included)"},
    {"--bytes", "B", opt_bytes,
     "with --json and --size N: each algorithm's cost features for B bytes (coll/cost.h)"},
    {"--nodes", "K", opt_nodes, "with --bytes: the N ranks on K nodes (K divides N; default 1)"},
    {"--parsable", NULL, opt_parsable, "one line per fact: kind:name:key:value"},
    {"--json", NULL, opt_json, "one JSON document (schema autocoll-info, version 1)"},
    {"--help", NULL, opt_help, "this help (also -h)"},
};
enum { NUM_OPTIONS = sizeof option_specs / sizeof option_specs[0] };

static void print_help(void)
{
    printf("usage: autocoll-info [OPTION]...\n"
           "What this build of autocoll offers and how the environment sets it: the algorithms\n"
           "of each collective (from the registry) and every AUTOCOLL_* setting with its value,\n"
           "its source (default, environment, invalid) and what it takes. Without an option,\n"
           "an overview. Filters add up.\n\n");
    for (int i = 0; i < NUM_OPTIONS; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", option_specs[i].name,
                 option_specs[i].argument ? " " : "",
                 option_specs[i].argument ? option_specs[i].argument : "");
        printf("  %-18s %s\n", left, option_specs[i].help);
    }
}

/* --algorithm names: each one names an algorithm, group or family of some collective. */
static int check_algorithms(const options *o, char *why, size_t size)
{
    for (int k = 0; k < o->nalgorithms; k++) {
        options only = {.size = o->size, .nalgorithms = 1, .algorithms = {o->algorithms[k]}};
        const char *closest = NULL;
        int found = 0, best = INT_MAX;
        for (int c = 0; c < AC_NUM_COLLECTIVES && !found; c++) {
            const ac_family *f = ac_orthogonal_family((ac_collective)c);
            found = shows_collective(&only, (ac_collective)c);
            for (int i = 0; i < algorithm_count((ac_collective)c, o->size); i++) {
                const ac_algorithm *a = algorithm_at((ac_collective)c, o->size, i);
                const char *names[] = {a->name, a->group, f ? f->name : a->name};
                for (int j = 0; j < 3; j++) {
                    int d = ac_spelling_distance(o->algorithms[k], names[j]);
                    if (d < best && ac_spelling_close(o->algorithms[k], names[j]))
                        best = d, closest = names[j];
                }
            }
        }
        if (found) continue;
        snprintf(why, size, "--algorithm %s: no algorithm, group or family of that name%s%s%s",
                 o->algorithms[k],
                 closest ? "; did you mean " : " (autocoll-info --all lists them)",
                 closest ? closest : "", closest ? "?" : "");
        return -1;
    }
    return 0;
}

/* Fills o from argv; 0, or -1 with a one-line reason in `why`. */
static int parse(int argc, char **argv, options *o, char *why, size_t size)
{
    for (int i = 1; i < argc; i++) {
        const struct option_spec *spec = NULL;
        for (int k = 0; k < NUM_OPTIONS; k++)
            if (strcmp(argv[i], option_specs[k].name) == 0) spec = &option_specs[k];
        if (strcmp(argv[i], "-h") == 0) spec = &option_specs[NUM_OPTIONS - 1];
        if (!spec) {
            snprintf(why, size, "unknown option %s (autocoll-info --help lists them)", argv[i]);
            return -1;
        }
        if (spec->argument && i + 1 == argc) {
            snprintf(why, size, "%s needs %s", spec->name, spec->argument);
            return -1;
        }
        if (spec->apply(o, spec->argument ? argv[++i] : NULL, why, size) != 0) return -1;
    }
    if ((o->bytes >= 0 || o->nodes) &&
        (o->format != JSON || !o->size || o->bytes < 0 || o->size % (o->nodes ? o->nodes : 1))) {
        snprintf(why, size, "--bytes and --nodes go with --json and --size N (K dividing N)");
        return -1;
    }
    return check_algorithms(o, why, size);
}

int main(int argc, char **argv)
{
    static void (*const printers[])(const options *) = {
        [TEXT] = print_text, [PARSABLE] = print_parsable, [JSON] = print_json};
    options o = {.bytes = -1};
    char why[512];
    ac_strategies_declare(); /* AUTOCOLL_STRATEGY's keywords */
    if (parse(argc, argv, &o, why, sizeof why) != 0) {
        fprintf(stderr, "autocoll-info: %s\n", why);
        return 2;
    }
    if (o.help) {
        print_help();
        return 0;
    }
    if (o.format != TEXT && !filtered(&o)) o.all = 1;
    if (o.bytes >= 0) {
        int nodes = o.nodes ? o.nodes : 1;
        cost_shape = (ac_cost_shape){o.size, nodes, o.size / nodes, (double)o.bytes, 1};
        ac_model_apply_stand_ins(); /* the library's phases priced as the model prices them */
    }
    printers[o.format](&o);
    return 0;
}
