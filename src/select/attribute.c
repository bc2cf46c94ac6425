/*
 * attribute.c - the `attribute` rounds strategy (rounds.h): ADCL's attribute-based search. For
 * each attribute in turn, one representative per value still present (the candidate closest to
 * the best so far in its other attributes) is measured; the value of the fastest representative
 * is kept and every candidate with another value is pruned. What remains after the last
 * attribute is measured and the fastest wins. Candidates without attributes (facts->values
 * NULL) are all measured, as brute force does.
 */
#include "select/rounds.h"

#include <stdlib.h>

typedef struct attribute_state {
    ac_rounds r; /* first: ac_rounds_of */
    ac_rounds_attribute a;
} attribute_state;

/* The representatives of attribute a: for each value present among the alive candidates, the
 * alive one with that value closest to `base` in the other attributes (the first in candidate
 * order on a tie). Returns how many, written to reps. */
static int representatives(const ac_rounds *r, int a, int base, int *reps)
{
    int n = 0;
    for (int f = 0; f < r->n; f++) {
        if (!r->alive[f]) continue;
        int slot = -1;
        for (int i = 0; i < n; i++)
            if (r->values[reps[i]][a] == r->values[f][a]) slot = i;
        if (slot < 0)
            reps[n++] = f;
        else if (ac_rounds_distance(r, f, base, a) < ac_rounds_distance(r, reps[slot], base, a))
            reps[slot] = f;
    }
    return n;
}

void ac_rounds_attribute_advance(ac_rounds *r, ac_rounds_attribute *s)
{
    int n = 0;
    for (; s->attribute < r->nattrs; s->attribute++) {
        int a = s->attribute;
        if (!s->chosen) { /* this attribute's representatives, around the best so far */
            int base;
            for (int f = 0; f < r->n; f++)
                if (r->alive[f]) r->set[n++] = f;
            base = ac_rounds_fastest(r, r->set, n);
            if (base < 0) base = r->set[0];
            r->nset = representatives(r, a, base, r->set);
            n = 0;
            if (r->nset < 2) continue; /* one value left: nothing to decide */
            s->chosen = 1;
            if (ac_rounds_start_round(r, r->set, r->nset)) return;
        }
        int value = r->values[ac_rounds_fastest(r, r->set, r->nset)][a];
        for (int f = 0; f < r->n; f++)
            if (r->alive[f] && r->values[f][a] != value) r->alive[f] = 0;
        s->chosen = 0;
    }
    for (int f = 0; f < r->n; f++)
        if (r->alive[f]) r->set[n++] = f;
    if (n == 1)
        /* the attributes name one candidate: no need to measure it */
        ac_rounds_decide(r, r->set[0]);
    else if (!ac_rounds_start_round(r, r->set, n))
        ac_rounds_decide(r, ac_rounds_fastest(r, r->set, n));
}

static void attribute_advance(void *state)
{
    attribute_state *s = state;
    ac_rounds_attribute_advance(&s->r, &s->a);
}

static void *attribute_create(const ac_algorithm *const *candidates, int n,
                              const ac_knowledge *known, const ac_context_facts *facts)
{
    int decided;
    attribute_state *s =
        ac_rounds_new(sizeof *s, n, facts, facts->samples, facts->samples, attribute_advance,
                      &decided);
    (void)candidates;
    if (s && !decided) attribute_advance(s);
    if (s) ac_rounds_warm(&s->r, known);
    return s;
}

const ac_strategy ac_strategy_attribute = {
    .name = "attribute",
    .learns = 1,
    .create = attribute_create,
    .choose = ac_rounds_choose,
    .observe = ac_rounds_observe,
    .save = ac_rounds_save,
    .describe = ac_rounds_describe,
    .destroy = ac_rounds_destroy,
};
