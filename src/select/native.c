/*
 * native.c - the `native` strategy: the MPI library's own algorithm (candidate 0) for every
 * call. Outside table mode selection keeps no tuning contexts for it (it learns nothing:
 * `learns` is 0); in table mode it runs the contexts no rule covers.
 */
#include "select/strategy.h"

#include <stdlib.h>
#include <string.h>

typedef struct native_state {
    int n;
} native_state;

static void *native_create(const ac_algorithm *const *candidates, int n,
                           const ac_knowledge *known, const ac_context_facts *facts)
{
    (void)candidates, (void)known, (void)facts;
    native_state *s = calloc(1, sizeof *s);
    if (s) s->n = n;
    return s;
}

static int native_choose(void *state)
{
    (void)state;
    return 0;
}

static int native_observe(void *state, int index, double seconds, const ac_agreement *agree,
                          int *deciding)
{
    (void)state, (void)seconds, (void)agree;
    *deciding = 0;
    return index == 0 ? MPI_SUCCESS : MPI_ERR_ARG;
}

static void native_save(const void *state, ac_knowledge *out)
{
    const native_state *s = state;
    memset(out, 0, sizeof *out * (size_t)s->n); /* it measures nothing */
}

static void native_describe(const void *state, const ac_algorithm *const *candidates,
                            ac_strategy_summary *out, ac_json_writer *w)
{
    (void)state, (void)candidates, (void)w;
    *out = (ac_strategy_summary){.stage = "native", .chosen = 0, .o_ms_c = -1.0,
                                 .native_seconds = -1.0};
}

static void native_destroy(void *state)
{
    free(state);
}

const ac_strategy ac_strategy_native = {
    .name = "native",
    .learns = 0,
    .create = native_create,
    .choose = native_choose,
    .observe = native_observe,
    .save = native_save,
    .describe = native_describe,
    .destroy = native_destroy,
};
