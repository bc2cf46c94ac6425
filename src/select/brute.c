/*
 * brute.c - the `brute_force` rounds strategy (rounds.h): one round of every applicable
 * candidate; the smallest agreed time wins.
 */
#include "select/rounds.h"

#include <stdlib.h>

typedef struct brute_state {
    ac_rounds r; /* first: ac_rounds_of */
} brute_state;

static void brute_advance(void *state)
{
    ac_rounds *r = &((brute_state *)state)->r;
    int n = 0;
    for (int f = 0; f < r->n; f++)
        if (r->applicable[f]) r->set[n++] = f;
    if (!ac_rounds_start_round(r, r->set, n)) ac_rounds_decide(r, ac_rounds_fastest(r, r->set, n));
}

static void brute_destroy(void *state)
{
    brute_state *s = state;
    if (!s) return;
    ac_rounds_free(&s->r);
    free(s);
}

static void *brute_create(const ac_algorithm *const *candidates, int n, const ac_knowledge *known,
                          const ac_context_facts *facts)
{
    brute_state *s = calloc(1, sizeof *s);
    int decided;
    (void)candidates;
    if (!s) return NULL;
    if (ac_rounds_init(&s->r, n, facts, facts->samples, facts->samples, &decided) != 0) {
        free(s);
        return NULL;
    }
    if (!decided) brute_advance(s);
    ac_rounds_warm(&s->r, known);
    return s;
}

static int brute_observe(void *state, int index, double seconds, const ac_agreement *agree,
                         int *deciding)
{
    return ac_rounds_observe(state, index, seconds, agree, brute_advance, state, deciding);
}

const ac_strategy ac_strategy_brute_force = {
    .name = "brute_force",
    .learns = 1,
    .create = brute_create,
    .choose = ac_rounds_choose,
    .observe = brute_observe,
    .save = ac_rounds_save,
    .describe = ac_rounds_describe,
    .destroy = brute_destroy,
};
