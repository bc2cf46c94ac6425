/*
 * search.c - ADCL's run-time selection of a request's function: brute force and the
 * attribute-based search, from measurements agreed over the request's communicator (search.h).
 */
#include "adcl/search.h"

#include <stdlib.h>
#include <string.h>

/* ADCL's outlier filter (Benkert, Gabriel and Resch, "Outlier detection in performance data of
 * parallel applications", the paper's reference [1], as ADCL applies it): a measurement at
 * least OUTLIER_FACTOR times this rank's fastest one is an outlier (a context switch, a late
 * neighbour) and is dropped, unless more than OUTLIER_PERCENT of the measurements are: then
 * they are the function's real behaviour and all count. The statistic is the mean. */
#define OUTLIER_FACTOR 3.0
#define OUTLIER_PERCENT 20

double ac_adcl_statistic(const double *times, int n)
{
    double min = times[0], sum = 0, kept = 0;
    int outliers = 0;
    for (int i = 1; i < n; i++)
        if (times[i] < min) min = times[i];
    for (int i = 0; i < n; i++) {
        sum += times[i];
        if (times[i] >= OUTLIER_FACTOR * min && times[i] > min)
            outliers++;
        else
            kept += times[i];
    }
    if (outliers * 100 > OUTLIER_PERCENT * n) return sum / n;
    return kept / (n - outliers);
}

/* Hamming distance between two functions over the attributes other than `skip`. */
static int distance(const ac_adcl_search *s, int f, int g, int skip)
{
    int d = 0;
    for (int a = 0; a < s->nattrs; a++)
        if (a != skip && s->values[f][a] != s->values[g][a]) d++;
    return d;
}

/* The alive function with the smallest agreed time among `set` (n entries), or -1. */
static int fastest(const ac_adcl_search *s, const int *set, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++) {
        int f = set[i];
        if (s->agreed[f] < 0) continue;
        if (best < 0 || s->agreed[f] < s->agreed[best]) best = f;
    }
    return best;
}

void ac_adcl_search_decide(ac_adcl_search *s, int f)
{
    s->current = f;
    s->decided = 1;
    s->nround = 0;
}

int ac_adcl_search_start_round(ac_adcl_search *s, const int *set, int n)
{
    s->nround = 0;
    for (int i = 0; i < n; i++)
        if (s->agreed[set[i]] < 0) s->round[s->nround++] = set[i];
    s->pos = 0;
    if (s->nround) s->current = s->round[0];
    return s->nround > 0;
}

/* The attribute search's representatives of attribute a: for each value present among the
 * alive functions, the alive one with that value closest to `base` in the other attributes
 * (the first in set order on a tie). Returns how many, written to reps. */
static int representatives(const ac_adcl_search *s, int a, int base, int *reps)
{
    int n = 0;
    for (int f = 0; f < s->n; f++) {
        if (!s->alive[f]) continue;
        int slot = -1;
        for (int i = 0; i < n; i++)
            if (s->values[reps[i]][a] == s->values[f][a]) slot = i;
        if (slot < 0)
            reps[n++] = f;
        else if (distance(s, f, base, a) < distance(s, reps[slot], base, a))
            reps[slot] = f;
    }
    return n;
}

/* The race (autocoll's own, as src/select/race.c for collectives): every alive function runs
 * race_samples more calls per round; after a round, those slower than (1 + margin) x the
 * fastest agreed value drop out, and the margin halves. The fastest wins when one is left or
 * after race_rounds rounds. A function's value covers all its measurements so far. */
static void race(ac_adcl_search *s)
{
    int n = 0;
    if (s->race_round > 0) { /* a round is over: drop the clearly slower */
        for (int f = 0; f < s->n; f++)
            if (s->alive[f]) s->set[n++] = f;
        int best = fastest(s, s->set, n);
        for (int i = 0; i < n; i++)
            if (s->agreed[s->set[i]] > (1 + s->race_margin) * s->agreed[best])
                s->alive[s->set[i]] = 0;
        s->race_margin /= 2;
        n = 0;
    }
    for (int f = 0; f < s->n; f++)
        if (s->alive[f]) s->set[n++] = f;
    if (n == 1 || s->race_round == s->race_rounds) {
        ac_adcl_search_decide(s, fastest(s, s->set, n) >= 0 ? fastest(s, s->set, n)
                                                             : s->set[0]);
        return;
    }
    s->race_round++;
    s->target = s->race_samples * s->race_round;
    memcpy(s->round, s->set, (size_t)n * sizeof *s->round); /* measured again, every one */
    s->nround = n;
    s->pos = 0;
    s->current = s->round[0];
}

/* The factorial screening's design: the two levels of each attribute (the first alive
 * function's value and the next value an alive function has; level[1] -1: one value only), and
 * as runs the alive functions whose every attribute takes one of its two levels, one per
 * combination. Returns the number of runs, written to s->set. */
static int design(ac_adcl_search *s)
{
    int base = -1, n = 0;
    for (int f = 0; f < s->n && base < 0; f++)
        if (s->alive[f]) base = f;
    for (int a = 0; a < s->nattrs; a++) {
        s->level[a][0] = s->values[base][a];
        s->level[a][1] = -1;
        for (int f = 0; f < s->n && s->level[a][1] < 0; f++)
            if (s->alive[f] && s->values[f][a] != s->level[a][0])
                s->level[a][1] = s->values[f][a];
    }
    for (int f = 0; f < s->n; f++) {
        int run = s->alive[f];
        for (int a = 0; a < s->nattrs && run; a++)
            run = s->values[f][a] == s->level[a][0] || s->values[f][a] == s->level[a][1];
        for (int i = 0; i < n && run; i++) /* one function per combination of levels */
            run = distance(s, f, s->set[i], -1) > 0;
        if (run) s->set[n++] = f;
    }
    return n;
}

/* The screening's verdict: for each attribute with both levels measured, the level of the
 * smaller mean over the runs (its main effect's sign); every function with the other level is
 * pruned. Values outside the two levels stay for the attribute search that follows. */
static void screen(ac_adcl_search *s)
{
    for (int a = 0; a < s->nattrs; a++) {
        double sum[2] = {0, 0};
        int runs[2] = {0, 0};
        if (s->level[a][1] < 0) continue;
        for (int i = 0; i < s->nset; i++) {
            int f = s->set[i], l = s->values[f][a] == s->level[a][1];
            if (s->agreed[f] < 0) continue;
            sum[l] += s->agreed[f];
            runs[l]++;
        }
        if (!runs[0] || !runs[1]) continue; /* an effect needs both levels */
        int worse = sum[1] / runs[1] < sum[0] / runs[0] ? s->level[a][0] : s->level[a][1];
        for (int f = 0; f < s->n; f++)
            if (s->alive[f] && s->values[f][a] == worse) s->alive[f] = 0;
    }
}

/* The next step of the search once the last round's functions have agreed times: the winner,
 * or the next round to measure. */
static void advance(ac_adcl_search *s)
{
    int n = 0;
    if (s->method == AC_ADCL_RACE) {
        race(s);
        return;
    }
    if (s->method == AC_ADCL_MODEL) {
        ac_adcl_model_advance(s);
        return;
    }
    if (s->method == AC_ADCL_BRUTE_FORCE) {
        for (int f = 0; f < s->n; f++)
            if (s->applicable[f]) s->set[n++] = f;
        if (!ac_adcl_search_start_round(s, s->set, n))
            ac_adcl_search_decide(s, fastest(s, s->set, n));
        return;
    }
    if (s->method == AC_ADCL_FACTORIAL && !s->screened) {
        if (!s->chosen) {
            s->nset = design(s);
            s->chosen = 1;
            if (ac_adcl_search_start_round(s, s->set, s->nset)) return;
        }
        screen(s);
        s->screened = 1;
        s->chosen = 0;
    }
    for (; s->attribute < s->nattrs; s->attribute++) {
        int a = s->attribute;
        if (!s->chosen) { /* this attribute's representatives, around the best so far */
            int base;
            for (int f = 0; f < s->n; f++)
                if (s->alive[f]) s->set[n++] = f;
            base = fastest(s, s->set, n);
            if (base < 0) base = s->set[0];
            s->nset = representatives(s, a, base, s->set);
            n = 0;
            if (s->nset < 2) continue; /* one value left: nothing to decide */
            s->chosen = 1;
            if (ac_adcl_search_start_round(s, s->set, s->nset)) return;
        }
        int value = s->values[fastest(s, s->set, s->nset)][a];
        for (int f = 0; f < s->n; f++)
            if (s->alive[f] && s->values[f][a] != value) s->alive[f] = 0;
        s->chosen = 0;
    }
    for (int f = 0; f < s->n; f++)
        if (s->alive[f]) s->set[n++] = f;
    if (n == 1)
        /* the attributes name one function: no need to measure it */
        ac_adcl_search_decide(s, s->set[0]);
    else if (!ac_adcl_search_start_round(s, s->set, n))
        ac_adcl_search_decide(s, fastest(s, s->set, n));
}

int ac_adcl_search_init(ac_adcl_search *s, ac_adcl_method method, int n, int nattrs,
                        const int *const *values, const int *applicable, int forced, int samples,
                        int rounds, double margin, MPI_Comm comm)
{
    int first = -1, napplicable = 0;
    (void)comm;
    memset(s, 0, sizeof *s);
    s->method = method;
    s->n = n;
    s->nattrs = values ? nattrs : 0;
    s->values = values;
    s->samples = samples * (method == AC_ADCL_RACE ? rounds : 1); /* capacity per function */
    s->target = samples;
    s->race_samples = samples;
    s->race_rounds = rounds;
    s->race_margin = margin;
    s->applicable = malloc((size_t)n * sizeof *s->applicable);
    s->alive = malloc((size_t)n * sizeof *s->alive);
    s->round = malloc((size_t)n * sizeof *s->round);
    s->set = malloc((size_t)n * sizeof *s->set);
    s->level = malloc((size_t)(nattrs > 0 ? nattrs : 1) * sizeof *s->level);
    s->count = calloc((size_t)n, sizeof *s->count);
    s->agreed = malloc((size_t)n * sizeof *s->agreed);
    s->times = malloc((size_t)n * (size_t)s->samples * sizeof *s->times);
    if (!s->applicable || !s->alive || !s->round || !s->set || !s->level || !s->count ||
        !s->agreed || !s->times) {
        ac_adcl_search_free(s);
        return MPI_ERR_NO_MEM;
    }
    for (int f = 0; f < n; f++) {
        s->applicable[f] = s->alive[f] = applicable[f];
        s->agreed[f] = -1;
        if (applicable[f]) {
            napplicable++;
            if (first < 0) first = f;
        }
    }
    if (method == AC_ADCL_FORCED)
        ac_adcl_search_decide(s, forced);
    else if (napplicable <= 1)
        ac_adcl_search_decide(s, first);
    else if (method != AC_ADCL_MODEL) /* the model's first round: ac_adcl_model_start */
        advance(s);
    return MPI_SUCCESS;
}

int ac_adcl_search_warm(ac_adcl_search *s, const double *known)
{
    int best = -1;
    if (s->method == AC_ADCL_FORCED || s->calls > 0) return 0;
    for (int f = 0; f < s->n; f++)
        if (s->applicable[f] && known[f] >= 0 && (best < 0 || known[f] < known[best])) best = f;
    if (best < 0) return 0;
    ac_adcl_search_decide(s, best);
    s->warm = 1;
    return 1;
}

/* Agrees the statistics of the round's functions: the maximum over the ranks. */
static int agree(ac_adcl_search *s, MPI_Comm comm)
{
    double *mine = malloc((size_t)s->nround * sizeof *mine);
    if (!mine) return MPI_ERR_NO_MEM;
    for (int i = 0; i < s->nround; i++) {
        int f = s->round[i];
        mine[i] = ac_adcl_statistic(&s->times[(size_t)f * (size_t)s->samples], s->count[f]);
    }
    int rc = PMPI_Allreduce(MPI_IN_PLACE, mine, s->nround, MPI_DOUBLE, MPI_MAX, comm);
    for (int i = 0; i < s->nround && rc == MPI_SUCCESS; i++) {
        if (s->agreed[s->round[i]] < 0) s->measured++;
        s->agreed[s->round[i]] = mine[i];
    }
    free(mine);
    return rc;
}

int ac_adcl_search_record(ac_adcl_search *s, double seconds, MPI_Comm comm)
{
    s->calls++;
    if (s->decided) return MPI_SUCCESS;
    s->selection_calls++;
    int f = s->current;
    s->times[(size_t)f * (size_t)s->samples + (size_t)s->count[f]++] = seconds;
    if (s->count[f] < s->target) return MPI_SUCCESS;
    if (++s->pos < s->nround) {
        s->current = s->round[s->pos];
        return MPI_SUCCESS;
    }
    int rc = agree(s, comm);
    if (rc != MPI_SUCCESS) return rc;
    advance(s);
    return MPI_SUCCESS;
}

void ac_adcl_search_free(ac_adcl_search *s)
{
    free(s->applicable);
    free(s->alive);
    free(s->round);
    free(s->set);
    free(s->level);
    free(s->count);
    free(s->agreed);
    free(s->times);
    free(s->features);
    memset(s, 0, sizeof *s);
}
