/*
 * brute.c - the `brute_force` rounds strategy (rounds.h): one round of every applicable
 * candidate; the smallest agreed time wins.
 */
#include "select/rounds.h"

#include <stdlib.h>

static void brute_advance(void *state)
{
    ac_rounds *r = state;
    int n = 0;
    for (int f = 0; f < r->n; f++)
        if (r->applicable[f]) r->set[n++] = f;
    if (!ac_rounds_start_round(r, r->set, n)) ac_rounds_decide(r, ac_rounds_fastest(r, r->set, n));
}

static void *brute_create(const ac_algorithm *const *candidates, int n, const ac_knowledge *known,
                          const ac_context_facts *facts)
{
    int decided;
    ac_rounds *r = ac_rounds_new(sizeof *r, n, facts, facts->samples, facts->samples,
                                 brute_advance, &decided);
    (void)candidates;
    if (r && !decided) brute_advance(r);
    if (r) ac_rounds_warm(r, known);
    return r;
}

const ac_strategy ac_strategy_brute_force = {
    .name = "brute_force",
    .learns = 1,
    .create = brute_create,
    .choose = ac_rounds_choose,
    .observe = ac_rounds_observe,
    .save = ac_rounds_save,
    .describe = ac_rounds_describe,
    .destroy = ac_rounds_destroy,
};
