/*
 * autocoll_info.c - `autocoll-info [--json]`: the algorithms of every collective (name, group,
 * attributes, requirements, summary) and every AUTOCOLL_* setting with its default. Reads the
 * registry and the settings table; needs no MPI initialisation.
 */
#include "coll/coll.h"
#include "core/config.h"

#include <stdio.h>
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

static void print_json(void)
{
    int nsettings, first = 1;
    const ac_setting *settings = ac_settings(&nsettings);
    printf("{\n  \"schema\": \"autocoll-info\",\n  \"version\": 1,\n  \"autocoll_version\": ");
    json_string(AUTOCOLL_VERSION);
    printf(",\n  \"mpi\": ");
    json_string(AUTOCOLL_MPI_NAME);
    printf(",\n  \"registry_fingerprint\": \"%016lx\",\n  \"algorithms\": [",
           ac_registry_fingerprint());
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        ac_registry r = ac_registry_of((ac_collective)c);
        for (int i = 0; i < r.count; i++) {
            const ac_algorithm *a = &r.algorithms[i];
            char req[512];
            ac_requirements_text(a, req, sizeof req);
            printf("%s\n    {\"collective\": \"%s\", \"name\": ", first ? "" : ",",
                   ac_collective_name((ac_collective)c));
            json_string(a->name);
            printf(", \"group\": ");
            json_string(a->group);
            printf(", \"attributes\": ");
            json_attributes(a->attributes);
            printf(", \"requires\": ");
            json_string(req);
            printf(", \"min_bytes\": %zu, \"max_bytes\": %zu, \"summary\": ", a->min_bytes,
                   a->max_bytes);
            json_string(a->summary);
            putchar('}');
            first = 0;
        }
    }
    printf("\n  ],\n  \"settings\": [");
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

static void print_text(void)
{
    int nsettings;
    const ac_setting *settings = ac_settings(&nsettings);
    printf("autocoll %s built for %s\n", AUTOCOLL_VERSION, AUTOCOLL_MPI_NAME);
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        ac_registry r = ac_registry_of((ac_collective)c);
        printf("\n%s (%d algorithms, force with %s=<name>)\n", ac_collective_name((ac_collective)c),
               r.count, ac_collective_env((ac_collective)c));
        for (int i = 0; i < r.count; i++) {
            const ac_algorithm *a = &r.algorithms[i];
            char req[512];
            ac_requirements_text(a, req, sizeof req);
            printf("  %-44s group=%s  %s\n", a->name, a->group, a->attributes ? a->attributes : "");
            printf("  %-44s requires: %s\n", "", req[0] ? req : "nothing");
            printf("  %-44s %s\n", "", a->summary);
        }
    }
    printf("\nsettings (environment variables, equal on every rank)\n");
    for (int i = 0; i < nsettings; i++) {
        const ac_setting *s = &settings[i];
        char values[256];
        printf("  %-30s default %-6s %s\n  %-30s %s: %s\n", s->name, s->default_value,
               s->summary, "", ac_setting_type_name(s->type),
               ac_setting_values(s, values, sizeof values));
    }
}

int main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--json") != 0)) {
        fprintf(stderr, "usage: autocoll-info [--json]\n");
        return 2;
    }
    if (argc == 2)
        print_json();
    else
        print_text();
    return 0;
}
