/*
 * rounds.c - selection in measured rounds (rounds.h): the measurements, ADCL's outlier filter,
 * the agreement of a round, the warm start and the operations every rounds strategy shares.
 */
#include "select/rounds.h"

#include <stdlib.h>
#include <string.h>

/* ADCL's outlier filter (Benkert, Gabriel and Resch, "Outlier detection in performance data of
 * parallel applications", the paper's reference [1], as ADCL applies it): a measurement at
 * least OUTLIER_FACTOR times this rank's fastest one is an outlier (a context switch, a late
 * neighbour) and is dropped, unless more than OUTLIER_PERCENT of the measurements are: then
 * they are the candidate's real behaviour and all count. The statistic is the mean. */
#define OUTLIER_FACTOR 3.0
#define OUTLIER_PERCENT 20

double ac_rounds_statistic(const double *times, int n)
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

int ac_rounds_distance(const ac_rounds *r, int f, int g, int skip)
{
    int d = 0;
    for (int a = 0; a < r->nattrs; a++)
        if (a != skip && r->values[f][a] != r->values[g][a]) d++;
    return d;
}

int ac_rounds_fastest(const ac_rounds *r, const int *set, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++) {
        int f = set[i];
        if (r->agreed[f] < 0) continue;
        if (best < 0 || r->agreed[f] < r->agreed[best]) best = f;
    }
    return best;
}

void ac_rounds_decide(ac_rounds *r, int f)
{
    r->current = f;
    r->decided = 1;
    r->nround = 0;
}

int ac_rounds_start_round(ac_rounds *r, const int *set, int n)
{
    r->nround = 0;
    for (int i = 0; i < n; i++)
        if (r->agreed[set[i]] < 0) r->round[r->nround++] = set[i];
    r->pos = 0;
    if (r->nround) r->current = r->round[0];
    return r->nround > 0;
}

void ac_rounds_free(ac_rounds *r)
{
    free(r->applicable);
    free(r->alive);
    free(r->round);
    free(r->set);
    free(r->count);
    free(r->agreed);
    free(r->times);
    memset(r, 0, sizeof *r);
}

static int rounds_init(ac_rounds *r, int n, const ac_context_facts *facts, int capacity,
                       int target, int *decided)
{
    int first = -1, napplicable = 0;
    memset(r, 0, sizeof *r);
    r->n = n;
    r->nattrs = facts->values ? facts->nattrs : 0;
    r->values = facts->values;
    r->samples = capacity;
    r->target = target;
    r->applicable = malloc((size_t)n * sizeof *r->applicable);
    r->alive = malloc((size_t)n * sizeof *r->alive);
    r->round = malloc((size_t)n * sizeof *r->round);
    r->set = malloc((size_t)n * sizeof *r->set);
    r->count = calloc((size_t)n, sizeof *r->count);
    r->agreed = malloc((size_t)n * sizeof *r->agreed);
    r->times = malloc((size_t)n * (size_t)r->samples * sizeof *r->times);
    if (!r->applicable || !r->alive || !r->round || !r->set || !r->count || !r->agreed ||
        !r->times) {
        ac_rounds_free(r);
        return MPI_ERR_NO_MEM;
    }
    for (int f = 0; f < n; f++) {
        r->applicable[f] = r->alive[f] = facts->applicable ? facts->applicable[f] : 1;
        r->agreed[f] = -1;
        if (r->applicable[f]) {
            napplicable++;
            if (first < 0) first = f;
        }
    }
    if (facts->forced >= 0) {
        r->forced = 1;
        ac_rounds_decide(r, facts->forced);
    } else if (napplicable <= 1) {
        ac_rounds_decide(r, first);
    }
    *decided = r->decided;
    return MPI_SUCCESS;
}

void *ac_rounds_new(size_t size, int n, const ac_context_facts *facts, int capacity, int target,
                    void (*advance)(void *state), int *decided)
{
    ac_rounds *r = calloc(1, size);
    if (r && rounds_init(r, n, facts, capacity, target, decided) != MPI_SUCCESS) {
        free(r);
        return NULL;
    }
    if (r) r->advance = advance;
    return r;
}

void ac_rounds_destroy(void *state)
{
    if (!state) return;
    ac_rounds_free(state);
    free(state);
}

int ac_rounds_warm(ac_rounds *r, const ac_knowledge *known)
{
    int best = -1;
    if (!known || r->forced || r->calls > 0) return 0;
    for (int f = 0; f < r->n; f++)
        if (r->applicable[f] && known[f].samples > 0 &&
            (best < 0 || known[f].seconds < known[best].seconds))
            best = f;
    if (best < 0) return 0;
    ac_rounds_decide(r, best);
    r->warm = 1;
    return 1;
}

/* Agrees the statistics of the round's candidates: the maximum over the ranks. */
static int agree_round(ac_rounds *r, const ac_agreement *agree)
{
    double *mine = malloc((size_t)r->nround * sizeof *mine);
    if (!mine) return MPI_ERR_NO_MEM;
    for (int i = 0; i < r->nround; i++) {
        int f = r->round[i];
        mine[i] = ac_rounds_statistic(&r->times[(size_t)f * (size_t)r->samples], r->count[f]);
    }
    int rc = agree->max(agree->ctx, mine, r->nround);
    for (int i = 0; i < r->nround && rc == MPI_SUCCESS; i++) {
        if (r->agreed[r->round[i]] < 0) r->measured++;
        r->agreed[r->round[i]] = mine[i];
    }
    free(mine);
    return rc;
}

static int record(ac_rounds *r, double seconds, const ac_agreement *agree)
{
    r->calls++;
    if (r->decided) return MPI_SUCCESS;
    r->selection_calls++;
    int f = r->current;
    r->times[(size_t)f * (size_t)r->samples + (size_t)r->count[f]++] = seconds;
    if (r->count[f] < r->target) return MPI_SUCCESS;
    if (++r->pos < r->nround) {
        r->current = r->round[r->pos];
        return MPI_SUCCESS;
    }
    int rc = agree_round(r, agree);
    if (rc != MPI_SUCCESS) return rc;
    r->advance(r); /* the strategy's state: its ac_rounds is its first member */
    return MPI_SUCCESS;
}

int ac_rounds_observe(void *state, int index, double seconds, const ac_agreement *agree,
                      int *deciding)
{
    ac_rounds *r = state;
    int rc = index == r->current ? record(r, seconds, agree) : MPI_ERR_ARG;
    *deciding = !r->decided;
    return rc;
}

int ac_rounds_choose(void *state)
{
    return ac_rounds_of(state)->current;
}

void ac_rounds_save(const void *state, ac_knowledge *out)
{
    const ac_rounds *r = ac_rounds_of(state);
    for (int f = 0; f < r->n; f++) {
        int known = r->agreed[f] >= 0 && r->count[f] > 0;
        out[f].seconds = known ? r->agreed[f] : 0.0;
        out[f].var = 0.0;
        out[f].samples = known ? r->count[f] : 0;
    }
}

void ac_rounds_describe(const void *state, const ac_algorithm *const *candidates,
                        ac_strategy_summary *out, ac_json_writer *w)
{
    const ac_rounds *r = ac_rounds_of(state);
    (void)candidates;
    *out = (ac_strategy_summary){
        .stage = r->decided ? "decided" : "measuring",
        .deciding = !r->decided,
        .chosen = r->decided ? r->current : -1,
        .decision_calls = r->decided ? r->selection_calls : -1,
        .warm = r->warm,
        .o_ms_c = -1.0,
        .native_seconds = -1.0,
    };
    if (!w) return;
    ac_json_integer_value(w, "calls", r->calls);
    ac_json_integer_value(w, "selection_calls", r->selection_calls);
    ac_json_integer_value(w, "measured", r->measured);
}
