/*
 * site_name.c - call sites named for the report (site_name.h): the site's origin on this rank
 * (select/site.h) resolved through the line resolver, opened on the first name asked for.
 */
#include "report/site_name.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ac_lines *lines;
static int lines_opened;

static void *cxx_runtime; /* libstdc++, opened for its demangler when the program had none */

/* A C++ function's symbol (_ZN9LAMMPS_NS4Atom10tag_extendEv) as its source names it
 * (LAMMPS_NS::Atom::tag_extend()), in place: through the C++ runtime's __cxa_demangle, the
 * program's, or libstdc++'s opened for it (a C++ program linked --as-needed may not load it).
 * Left as it is without one. */
static void demangle(char *name, size_t size)
{
    char *(*cxa_demangle)(const char *, char *, size_t *, int *);
    int status = -1;
    if (strncmp(name, "_Z", 2) != 0) return;
    *(void **)&cxa_demangle = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (!cxa_demangle && !cxx_runtime) cxx_runtime = dlopen("libstdc++.so.6", RTLD_LAZY);
    if (!cxa_demangle && cxx_runtime)
        *(void **)&cxa_demangle = dlsym(cxx_runtime, "__cxa_demangle");
    if (!cxa_demangle) return;
    char *plain = cxa_demangle(name, NULL, NULL, &status);
    if (status == 0 && plain) snprintf(name, size, "%s", plain);
    free(plain);
}

void ac_site_name_of(uint64_t key, ac_site_name *out)
{
    memset(out, 0, sizeof *out);
    if (!ac_site_origin_of(key, &out->origin)) {
        ac_site_describe(key, out->text, sizeof out->text);
        return;
    }
    out->known = 1;
    if (!lines_opened) {
        lines = ac_lines_open();
        lines_opened = 1;
    }
    /* The return address follows the call instruction, which may end another line. */
    if (lines) ac_lines_find(lines, (const char *)out->origin.address - 1, &out->source);
    demangle(out->source.function, sizeof out->source.function);
    const ac_source_line *s = &out->source;
    const char *slash = strrchr(s->file, '/');
    char where[700];
    if (s->line > 0)
        snprintf(where, sizeof where, "%s:%d", slash ? slash + 1 : s->file, s->line);
    else
        snprintf(where, sizeof where, "%s+0x%lx", out->origin.module,
                 (unsigned long)out->origin.offset);
    if (s->function[0])
        snprintf(out->text, sizeof out->text, "%s (%s)", where, s->function);
    else
        snprintf(out->text, sizeof out->text, "%s", where);
}

void ac_site_names_done(void)
{
    ac_lines_close(lines);
    lines = NULL;
    lines_opened = 0;
    if (cxx_runtime) dlclose(cxx_runtime);
    cxx_runtime = NULL;
}
