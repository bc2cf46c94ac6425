/*
 * factorial.c - the `factorial` rounds strategy (rounds.h): a two-level factorial screening
 * (the 2^k design of ADCL's later work), then the attribute search (attribute.c) over what it
 * leaves. Each attribute gets two levels, the first candidate's value and the next one present;
 * every candidate whose attributes all take one of their two levels is measured (one per
 * combination, up to 2^k), and for each attribute the level with the smaller mean over those
 * runs (the sign of its main effect) prunes the candidates with the other level.
 */
#include "select/rounds.h"

#include <stdlib.h>

typedef struct factorial_state {
    ac_rounds r;      /* first: ac_rounds_of */
    int (*level)[2];  /* the two levels of each attribute */
    int designed;     /* the screening's runs are chosen (and being measured, in r.set) */
    int screened;     /* the screening is over */
    ac_rounds_attribute a;
} factorial_state;

/* The screening's design: the two levels of each attribute (the first alive candidate's value
 * and the next value an alive candidate has; level[1] -1: one value only), and as runs the
 * alive candidates whose every attribute takes one of its two levels, one per combination.
 * Returns the number of runs, written to r->set. */
static int design(factorial_state *s)
{
    ac_rounds *r = &s->r;
    int base = -1, n = 0;
    for (int f = 0; f < r->n && base < 0; f++)
        if (r->alive[f]) base = f;
    for (int a = 0; a < r->nattrs; a++) {
        s->level[a][0] = r->values[base][a];
        s->level[a][1] = -1;
        for (int f = 0; f < r->n && s->level[a][1] < 0; f++)
            if (r->alive[f] && r->values[f][a] != s->level[a][0])
                s->level[a][1] = r->values[f][a];
    }
    for (int f = 0; f < r->n; f++) {
        int run = r->alive[f];
        for (int a = 0; a < r->nattrs && run; a++)
            run = r->values[f][a] == s->level[a][0] || r->values[f][a] == s->level[a][1];
        for (int i = 0; i < n && run; i++) /* one candidate per combination of levels */
            run = ac_rounds_distance(r, f, r->set[i], -1) > 0;
        if (run) r->set[n++] = f;
    }
    return n;
}

/* The screening's verdict: for each attribute with both levels measured, the level of the
 * smaller mean over the runs (its main effect's sign); every candidate with the other level is
 * pruned. Values outside the two levels stay for the attribute search that follows. */
static void screen(factorial_state *s)
{
    ac_rounds *r = &s->r;
    for (int a = 0; a < r->nattrs; a++) {
        double sum[2] = {0, 0};
        int runs[2] = {0, 0};
        if (s->level[a][1] < 0) continue;
        for (int i = 0; i < r->nset; i++) {
            int f = r->set[i], l = r->values[f][a] == s->level[a][1];
            if (r->agreed[f] < 0) continue;
            sum[l] += r->agreed[f];
            runs[l]++;
        }
        if (!runs[0] || !runs[1]) continue; /* an effect needs both levels */
        int worse = sum[1] / runs[1] < sum[0] / runs[0] ? s->level[a][0] : s->level[a][1];
        for (int f = 0; f < r->n; f++)
            if (r->alive[f] && r->values[f][a] == worse) r->alive[f] = 0;
    }
}

static void factorial_advance(void *state)
{
    factorial_state *s = state;
    if (!s->screened) {
        if (!s->designed) {
            s->r.nset = design(s);
            s->designed = 1;
            if (ac_rounds_start_round(&s->r, s->r.set, s->r.nset)) return;
        }
        screen(s);
        s->screened = 1;
    }
    ac_rounds_attribute_advance(&s->r, &s->a);
}

static void factorial_destroy(void *state)
{
    factorial_state *s = state;
    if (!s) return;
    ac_rounds_free(&s->r);
    free(s->level);
    free(s);
}

static void *factorial_create(const ac_algorithm *const *candidates, int n,
                              const ac_knowledge *known, const ac_context_facts *facts)
{
    int decided;
    factorial_state *s =
        ac_rounds_new(sizeof *s, n, facts, facts->samples, facts->samples, factorial_advance,
                      &decided);
    (void)candidates;
    if (!s) return NULL;
    s->level = malloc((size_t)(facts->nattrs > 0 ? facts->nattrs : 1) * sizeof *s->level);
    if (!s->level) {
        ac_rounds_destroy(s);
        return NULL;
    }
    if (!decided) factorial_advance(s);
    ac_rounds_warm(&s->r, known);
    return s;
}

const ac_strategy ac_strategy_factorial = {
    .name = "factorial",
    .learns = 1,
    .create = factorial_create,
    .choose = ac_rounds_choose,
    .observe = ac_rounds_observe,
    .save = ac_rounds_save,
    .describe = ac_rounds_describe,
    .destroy = factorial_destroy,
};
