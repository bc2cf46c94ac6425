/*
 * plan.c - the measurement plan (plan.h).
 */
#include "select/plan.h"

#include <stdlib.h>

int ac_plan_init(ac_plan *p, int capacity, int per)
{
    p->per = per;
    p->len = p->pos = p->iter = 0;
    p->cand = calloc((size_t)capacity, sizeof *p->cand);
    p->times = calloc((size_t)capacity * (size_t)per, sizeof *p->times);
    return p->cand && p->times ? 0 : -1;
}

void ac_plan_free(ac_plan *p)
{
    free(p->cand);
    free(p->times);
    p->cand = NULL;
    p->times = NULL;
}

void ac_plan_clear(ac_plan *p)
{
    p->len = 0;
}

void ac_plan_add(ac_plan *p, int candidate)
{
    p->cand[p->len++] = candidate;
}

void ac_plan_start(ac_plan *p)
{
    p->pos = 0;
    p->iter = 0;
}

int ac_plan_current(const ac_plan *p)
{
    return p->cand[p->pos];
}

int ac_plan_record(ac_plan *p, double seconds)
{
    p->times[(size_t)p->pos * (size_t)p->per + (size_t)p->iter] = seconds;
    if (++p->iter == p->per) {
        p->iter = 0;
        p->pos++;
    }
    return p->pos == p->len;
}

int ac_plan_agree(ac_plan *p, const ac_agreement *agree)
{
    return agree->max(agree->ctx, p->times, p->len * p->per);
}

const double *ac_plan_times(const ac_plan *p, int k)
{
    return p->times + (size_t)k * (size_t)p->per;
}
