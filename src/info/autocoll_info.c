/*
 * autocoll_info.c - `autocoll-info [--json] [--size N]`: the algorithms of every collective
 * (name, group, attributes, requirements, summary) and its family of mesh instances, described
 * once (name patterns, phase algorithms, layout rule); with --size N every algorithm of a
 * communicator of N ranks, the family's instances for N included. Then every AUTOCOLL_* setting
 * with its default. With --size N --bytes B [--nodes K] (JSON only) every algorithm also has
 * its cost model's feature vector for N ranks on K nodes (default 1) and B bytes (coll/cost.h:
 * seconds per unit of each platform parameter; null without a model). Reads the registry and
 * the settings table; needs no MPI initialisation.
 */
#include "coll/coll.h"
#include "coll/cost.h"
#include "core/config.h"
#include "core/json_writer.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef AUTOCOLL_VERSION
#define AUTOCOLL_VERSION "unknown"
#endif
#ifndef AUTOCOLL_MPI_NAME
#define AUTOCOLL_MPI_NAME "unknown"
#endif

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

/* Every collective's static entries, or with size > 0 its whole list for that size. */
static void json_algorithms(ac_json_writer *w, int size)
{
    ac_json_array_begin(w, "algorithms");
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        if (size > 0) {
            ac_algorithm_list r = ac_registry_for_size((ac_collective)c, size);
            for (int i = 0; i < r.count; i++)
                json_algorithm(w, r.algorithms[i]);
        } else {
            ac_registry r = ac_registry_of((ac_collective)c);
            for (int i = 0; i < r.count; i++)
                json_algorithm(w, &r.algorithms[i]);
        }
    }
    ac_json_array_end(w);
}

static void json_families(ac_json_writer *w)
{
    ac_json_array_begin(w, "families");
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        const ac_family *f = ac_orthogonal_family((ac_collective)c);
        if (!f) continue;
        char req[512];
        ac_requirements_text(&f->base, req, sizeof req);
        ac_json_object_begin(w, NULL);
        ac_json_string(w, "collective", ac_collective_name((ac_collective)c));
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
    ac_json_array_end(w);
}

static void print_json(int size)
{
    int nsettings;
    const ac_setting *settings = ac_settings(&nsettings);
    char fingerprint[32];
    ac_json_writer w;
    snprintf(fingerprint, sizeof fingerprint, "%016lx", ac_registry_fingerprint());
    ac_json_writer_init(&w, stdout);
    ac_json_object_begin(&w, NULL);
    ac_json_string(&w, "schema", "autocoll-info");
    ac_json_integer_value(&w, "version", 1);
    ac_json_string(&w, "autocoll_version", AUTOCOLL_VERSION);
    ac_json_string(&w, "mpi", AUTOCOLL_MPI_NAME);
    ac_json_string(&w, "registry_fingerprint", fingerprint);
    if (size > 0) ac_json_integer_value(&w, "size", size);
    if (cost_shape.size > 0) {
        ac_json_object_begin(&w, "cost_shape");
        ac_json_integer_value(&w, "nodes", cost_shape.nodes);
        ac_json_integer_value(&w, "ppn", cost_shape.ppn);
        ac_json_real(&w, "bytes", cost_shape.bytes);
        ac_json_object_end(&w);
    }
    json_algorithms(&w, size);
    json_families(&w);
    ac_json_array_begin(&w, "settings");
    for (int i = 0; i < nsettings; i++) {
        const ac_setting *s = &settings[i];
        char values[256];
        ac_json_object_begin(&w, NULL);
        ac_json_string(&w, "name", s->name);
        ac_json_string(&w, "type", ac_setting_type_name(s->type));
        ac_json_string(&w, "default", s->default_value);
        ac_json_string(&w, "values", ac_setting_values(s, values, sizeof values));
        ac_json_string(&w, "summary", s->summary);
        ac_json_object_end(&w);
    }
    ac_json_array_end(&w);
    ac_json_object_end(&w);
}

static void text_algorithm(const ac_algorithm *a)
{
    char req[512];
    ac_requirements_text(a, req, sizeof req);
    printf("  %-44s group=%s  %s\n", a->name, a->group, a->attributes ? a->attributes : "");
    printf("  %-44s requires: %s\n", "", req[0] ? req : "nothing");
    printf("  %-44s %s\n", "", a->summary);
}

static void text_family(const ac_family *f)
{
    char req[512];
    ac_requirements_text(&f->base, req, sizeof req);
    printf("  family %s: %s\n", f->name, f->names);
    printf("  %-44s phases:", "");
    for (int ph = 0; ph < AC_FAMILY_PHASES; ph++)
        printf(" %s", f->phases[ph]);
    printf("\n  %-44s layouts: %s\n", "", f->layouts);
    printf("  %-44s group=%s  %s\n", "", f->groups, f->attributes);
    printf("  %-44s requires: %s\n", "", req);
    printf("  %-44s %s\n", "", f->base.summary);
}

/* Every collective's static entries and family, or with size > 0 its whole list for that
 * size (and the family). */
static void text_algorithms(int size)
{
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        const ac_family *f = ac_orthogonal_family((ac_collective)c);
        printf("\n%s (", ac_collective_name((ac_collective)c));
        if (size > 0) {
            ac_algorithm_list r = ac_registry_for_size((ac_collective)c, size);
            printf("%d algorithms for %d ranks, force with %s=<name>)\n", r.count, size,
                   ac_collective_env((ac_collective)c));
            for (int i = 0; i < r.count; i++)
                text_algorithm(r.algorithms[i]);
        } else {
            ac_registry r = ac_registry_of((ac_collective)c);
            printf("%d algorithms%s, force with %s=<name>)\n", r.count, f ? " and a family" : "",
                   ac_collective_env((ac_collective)c));
            for (int i = 0; i < r.count; i++)
                text_algorithm(&r.algorithms[i]);
        }
        if (f) text_family(f);
    }
}

static void print_text(int size)
{
    int nsettings;
    const ac_setting *settings = ac_settings(&nsettings);
    printf("autocoll %s built for %s\n", AUTOCOLL_VERSION, AUTOCOLL_MPI_NAME);
    text_algorithms(size);
    printf("\nsettings (environment variables, equal on every rank)\n");
    for (int i = 0; i < nsettings; i++) {
        const ac_setting *s = &settings[i];
        char values[256];
        printf("  %-30s default %-6s %s\n  %-30s %s: %s\n", s->name, s->default_value,
               s->summary, "", ac_setting_type_name(s->type),
               ac_setting_values(s, values, sizeof values));
    }
}

/* --size N: a communicator size, 1 .. INT_MAX; 0 when not one. */
static int parse_size(const char *text)
{
    char *end;
    long v = strtol(text, &end, 10);
    return end != text && *end == '\0' && v >= 1 && v <= INT_MAX ? (int)v : 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: autocoll-info [--json] [--size N [--bytes B [--nodes K]]]\n"
                    "  --bytes (JSON only): each algorithm's cost features for N ranks on K "
                    "nodes (K divides N; default 1) and B bytes\n");
    return 2;
}

int main(int argc, char **argv)
{
    int json = 0, size = 0, bytes = -1, nodes = 0;
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(argv[i], "--json") == 0 && !json)
            json = 1;
        else if (strcmp(argv[i], "--size") == 0 && !size && (size = parse_size(value)))
            i++;
        else if (strcmp(argv[i], "--bytes") == 0 && bytes < 0 &&
                 (strcmp(value, "0") == 0 || parse_size(value))) {
            bytes = parse_size(value);
            i++;
        } else if (strcmp(argv[i], "--nodes") == 0 && !nodes && (nodes = parse_size(value)))
            i++;
        else
            return usage();
    }
    if ((bytes >= 0 || nodes) && (!json || !size || bytes < 0 || size % (nodes ? nodes : 1)))
        return usage();
    if (bytes >= 0)
        cost_shape = (ac_cost_shape){size, nodes ? nodes : 1, size / (nodes ? nodes : 1), bytes};
    if (json)
        print_json(size);
    else
        print_text(size);
    return 0;
}
