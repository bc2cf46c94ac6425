/*
 * handles.c - the table of live ADCL handles, one per kind, so that an invalid handle (NULL,
 * freed, of another kind) is recognised without being dereferenced; and the one way ADCL
 * functions report a bad argument: one line on stderr, an error code back.
 */
#include "adcl/adcl.h"
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct live_table {
    const void **handles;
    int n, cap;
} live_table;

static live_table live[AC_ADCL_KINDS];

int ac_adcl_live_add(ac_adcl_kind kind, const void *handle)
{
    live_table *t = &live[kind];
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        const void **grown = realloc(t->handles, (size_t)cap * sizeof *grown);
        if (!grown) return ADCL_NO_MEMORY;
        t->handles = grown;
        t->cap = cap;
    }
    t->handles[t->n++] = handle;
    return ADCL_SUCCESS;
}

int ac_adcl_live(ac_adcl_kind kind, const void *handle)
{
    const live_table *t = &live[kind];
    if (!handle) return 0;
    for (int i = 0; i < t->n; i++)
        if (t->handles[i] == handle) return 1;
    return 0;
}

void ac_adcl_live_remove(ac_adcl_kind kind, const void *handle)
{
    live_table *t = &live[kind];
    for (int i = 0; i < t->n; i++)
        if (t->handles[i] == handle) {
            t->handles[i] = t->handles[--t->n];
            return;
        }
}

const void *const *ac_adcl_live_handles(ac_adcl_kind kind, int *n)
{
    *n = live[kind].n;
    return live[kind].handles;
}

int ac_adcl_fail(int code, const char *function, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ac_log_error("%s: %s", function, msg);
    return code;
}
