/*
 * autocoll_info.c - `autocoll-info [--json] [--size N]`: the algorithms of every collective
 * (name, group, attributes, requirements, summary) and its family of mesh instances, described
 * once (name patterns, phase algorithms, layout rule); with --size N every algorithm of a
 * communicator of N ranks, the family's instances for N included. Then every AUTOCOLL_* setting
 * with its default. Reads the registry and the settings table; needs no MPI initialisation.
 */
#include "coll/coll.h"
#include "core/config.h"

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

static void json_string(const char *s)
{
    putchar('"');
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

/* "a=b c=d" -> {"a": "b", "c": "d"} */
static void json_attributes(const char *attrs)
{
    char buf[512];
    int first = 1;
    snprintf(buf, sizeof buf, "%s", attrs ? attrs : "");
    putchar('{');
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) continue;
        *eq = '\0';
        printf("%s", first ? "" : ", ");
        json_string(tok);
        printf(": ");
        json_string(eq + 1);
        first = 0;
    }
    putchar('}');
}

/* , "key": "value" */
static void json_member(const char *key, const char *value)
{
    printf(", \"%s\": ", key);
    json_string(value);
}

static void json_algorithm(const ac_algorithm *a, int first)
{
    char req[512];
    ac_requirements_text(a, req, sizeof req);
    printf("%s\n    {\"collective\": \"%s\"", first ? "" : ",", ac_collective_name(a->collective));
    json_member("name", a->name);
    json_member("group", a->group);
    printf(", \"attributes\": ");
    json_attributes(a->attributes);
    json_member("requires", req);
    printf(", \"min_bytes\": %zu, \"max_bytes\": %zu", a->min_bytes, a->max_bytes);
    json_member("summary", a->summary);
    putchar('}');
}

/* Every collective's static entries, or with size > 0 its whole list for that size. */
static void json_algorithms(int size)
{
    int first = 1;
    printf(",\n  \"algorithms\": [");
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        if (size > 0) {
            ac_algorithm_list r = ac_registry_for_size((ac_collective)c, size);
            for (int i = 0; i < r.count; i++, first = 0)
                json_algorithm(r.algorithms[i], first);
        } else {
            ac_registry r = ac_registry_of((ac_collective)c);
            for (int i = 0; i < r.count; i++, first = 0)
                json_algorithm(&r.algorithms[i], first);
        }
    }
    printf("\n  ]");
}

static void json_families(void)
{
    int first = 1;
    printf(",\n  \"families\": [");
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        const ac_family *f = ac_orthogonal_family((ac_collective)c);
        if (!f) continue;
        char req[512];
        ac_requirements_text(&f->base, req, sizeof req);
        printf("%s\n    {\"collective\": \"%s\"", first ? "" : ",",
               ac_collective_name((ac_collective)c));
        json_member("family", f->name);
        json_member("names", f->names);
        printf(", \"phases\": [");
        for (int ph = 0; ph < AC_FAMILY_PHASES; ph++) {
            printf("%s", ph ? ", " : "");
            json_string(f->phases[ph]);
        }
        putchar(']');
        json_member("layouts", f->layouts);
        json_member("groups", f->groups);
        json_member("attributes", f->attributes);
        json_member("requires", req);
        json_member("summary", f->base.summary);
        putchar('}');
        first = 0;
    }
    printf("\n  ]");
}

static void print_json(int size)
{
    int nsettings;
    const ac_setting *settings = ac_settings(&nsettings);
    printf("{\n  \"schema\": \"autocoll-info\",\n  \"version\": 1,\n  \"autocoll_version\": ");
    json_string(AUTOCOLL_VERSION);
    printf(",\n  \"mpi\": ");
    json_string(AUTOCOLL_MPI_NAME);
    printf(",\n  \"registry_fingerprint\": \"%016lx\"", ac_registry_fingerprint());
    if (size > 0) printf(",\n  \"size\": %d", size);
    json_algorithms(size);
    json_families();
    printf(",\n  \"settings\": [");
    for (int i = 0; i < nsettings; i++) {
        const ac_setting *s = &settings[i];
        char values[256];
        printf("%s\n    {\"name\": ", i ? "," : "");
        json_string(s->name);
        printf(", \"type\": ");
        json_string(ac_setting_type_name(s->type));
        printf(", \"default\": ");
        json_string(s->default_value);
        printf(", \"values\": ");
        json_string(ac_setting_values(s, values, sizeof values));
        printf(", \"summary\": ");
        json_string(s->summary);
        putchar('}');
    }
    printf("\n  ]\n}\n");
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

int main(int argc, char **argv)
{
    int json = 0, size = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && !json)
            json = 1;
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc && !size &&
                 (size = parse_size(argv[i + 1])))
            i++;
        else {
            fprintf(stderr, "usage: autocoll-info [--json] [--size N]\n");
            return 2;
        }
    }
    if (json)
        print_json(size);
    else
        print_text(size);
    return 0;
}
