/*
 * test_adcl_search.c - ADCL's selection, the rounds strategies of src/select (rounds.h:
 * brute.c, attribute.c, factorial.c, race.c's race in rounds) on one rank with synthetic times:
 * the outlier filter, brute force (every applicable function, never an inapplicable one, the
 * fastest wins), the attribute-based search (the fastest of separable costs with fewer
 * functions measured), forcing, an outlier that must not decide, and the warm start.
 * The agreement is one rank's (the maximum is the value itself).
 */
#include "check.h"
#include "select/rounds.h"

#include <math.h>
#include <mpi.h>

static int agree_self(void *ctx, double *values, int n)
{
    (void)ctx, (void)values, (void)n;
    return MPI_SUCCESS;
}

static const ac_agreement agree = {.max = agree_self, .ctx = NULL, .rank = 0};

/* The state of a rounds strategy over n candidates, as an ADCL request creates it. */
static void *make(const ac_strategy *st, int n, int nattrs, const int *const *values,
                  const int *applicable, int forced, int samples, int rounds, double margin,
                  const ac_knowledge *known)
{
    ac_context_facts facts = {.size = 1,
                              .applicable = applicable,
                              .forced = forced,
                              .samples = samples,
                              .rounds = rounds,
                              .margin = margin,
                              .nattrs = nattrs,
                              .values = values};
    return st->create(NULL, n, known, &facts);
}

/* The knowledge of history from times (< 0: nothing known). */
static void knowledge(const double *times, int n, ac_knowledge *out)
{
    for (int f = 0; f < n; f++)
        out[f] = (ac_knowledge){.seconds = times[f] >= 0 ? times[f] : 0.0,
                                .samples = times[f] >= 0 ? 10 : 0};
}

static void observe(const ac_strategy *st, void *state, double seconds)
{
    int deciding;
    st->observe(state, st->choose(state), seconds, &agree, &deciding);
}

#define SAMPLES 5

/* Runs the search to its decision with cost(f, k) for the k-th measurement of f; returns the
 * calls it took, or -1 when it ran an inapplicable function or did not decide. */
static int run(const ac_strategy *st, void *state, const int *applicable,
               double (*cost)(int, int))
{
    int seen[32] = {0};
    for (int call = 0; call < 1000; call++) {
        int deciding, f = st->choose(state);
        if (ac_rounds_of(state)->decided) return call;
        if (!applicable[f]) return -1;
        if (st->observe(state, f, cost(f, seen[f]++), &agree, &deciding) != MPI_SUCCESS) return -1;
    }
    return -1;
}

static double brute_cost(int f, int k)
{
    static const double c[5] = {5, 3, 4, 1, 2};
    (void)k;
    return c[f];
}

/* Separable costs of 2 x 3 functions: attribute 0 (2 values) + attribute 1 (3 values). */
static const int grid_values[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}};
static double grid_cost(int f, int k)
{
    static const double a[2] = {2, 1}, b[3] = {3, 1, 2};
    (void)k;
    return a[grid_values[f][0]] + b[grid_values[f][1]];
}

/* Function 0 is the fastest but one of its measurements is an outlier. */
static double spike_cost(int f, int k)
{
    if (f == 0) return k == 2 ? 100.0 : 1.0;
    return 1.5;
}

int main(void)
{
    const ac_strategy *brute = &ac_strategy_brute_force, *attribute = &ac_strategy_attribute,
                      *factorial = &ac_strategy_factorial, *race = &ac_strategy_race_rounds;
    const ac_rounds *s;
    void *st;
    const int all[6] = {1, 1, 1, 1, 1, 1};

    /* The list: AUTOCOLL_ADCL_SEARCH's keywords, in their order. */
    int count;
    const ac_strategy *const *list = ac_rounds_strategies(&count);
    CHECK(count == 5 && list[0] == brute && list[1] == attribute && list[2] == factorial &&
          list[3] == race && list[4] == &ac_strategy_model_rounds);

    /* The filter: one outlier in five (20 %) is dropped, three in five are real. */
    CHECK(ac_rounds_statistic((const double[]){1, 1, 1, 1, 10}, 5) == 1.0);
    CHECK(fabs(ac_rounds_statistic((const double[]){1, 1, 10, 10, 10}, 5) - 6.4) < 1e-12);
    CHECK(ac_rounds_statistic((const double[]){2, 2, 2}, 3) == 2.0);

    /* Brute force: function 3 (the cheapest) is inapplicable; 4 must win after 4 x SAMPLES. */
    const int applicable[5] = {1, 1, 1, 0, 1};
    CHECK((st = make(brute, 5, 0, NULL, applicable, -1, SAMPLES, 1, 0.0, NULL)) != NULL);
    s = ac_rounds_of(st);
    CHECK(run(brute, st, applicable, brute_cost) == 4 * SAMPLES);
    CHECK(s->current == 4 && s->measured == 4 && s->selection_calls == 4 * SAMPLES);
    /* what it saves for history: the agreed value of each measured function */
    ac_knowledge saved[5];
    brute->save(st, saved);
    CHECK(saved[4].seconds == 2 && saved[4].samples == SAMPLES && saved[3].samples == 0);
    ac_strategy_summary sum;
    brute->describe(st, NULL, &sum, NULL);
    CHECK(!sum.deciding && sum.chosen == 4 && sum.decision_calls == 4 * SAMPLES && !sum.warm);
    brute->destroy(st);

    /* Attribute search: the cheapest of separable costs, {1, 1} (index 4), with fewer
     * functions measured than the 6 of brute force. */
    const int *values[6];
    for (int f = 0; f < 6; f++) values[f] = grid_values[f];
    CHECK((st = make(attribute, 6, 2, values, all, -1, SAMPLES, 1, 0.0, NULL)) != NULL);
    s = ac_rounds_of(st);
    CHECK(run(attribute, st, all, grid_cost) > 0);
    CHECK(s->current == 4);
    CHECK(s->measured < 6);
    attribute->destroy(st);

    /* Factorial: the 2 x 2 design of the first two levels (4 runs) keeps level 1 of both
     * attributes, then the attribute search compares what remains of the second: {1, 1} after
     * 5 functions measured. */
    CHECK((st = make(factorial, 6, 2, values, all, -1, SAMPLES, 1, 0.0, NULL)) != NULL);
    s = ac_rounds_of(st);
    CHECK(run(factorial, st, all, grid_cost) == 5 * SAMPLES);
    CHECK(s->current == 4 && s->measured == 5);
    factorial->destroy(st);

    /* Brute force on the same functions measures all six and agrees. */
    CHECK((st = make(brute, 6, 2, values, all, -1, SAMPLES, 1, 0.0, NULL)) != NULL);
    s = ac_rounds_of(st);
    CHECK(run(brute, st, all, grid_cost) == 6 * SAMPLES && s->current == 4 && s->measured == 6);
    brute->destroy(st);

    /* Race: 2 calls a round; round 1 drops what is slower than 1.5 x the best (2), round 2
     * what is slower than 1.25 x: {1, 1} is left after 6 x 2 + 3 x 2 calls. */
    CHECK((st = make(race, 6, 2, values, all, -1, 2, 4, 0.5, NULL)) != NULL);
    s = ac_rounds_of(st);
    CHECK(run(race, st, all, grid_cost) == 18);
    CHECK(s->current == 4 && s->measured == 6);
    race->destroy(st);

    /* Forced: decided from the start, nothing measured. */
    CHECK((st = make(brute, 6, 2, values, all, 2, SAMPLES, 1, 0.0, NULL)) != NULL);
    s = ac_rounds_of(st);
    CHECK(s->decided && s->current == 2 && run(brute, st, all, grid_cost) == 0);
    brute->destroy(st);

    /* One outlier does not make the fastest function lose. */
    CHECK((st = make(brute, 2, 0, NULL, all, -1, SAMPLES, 1, 0.0, NULL)) != NULL);
    s = ac_rounds_of(st);
    CHECK(run(brute, st, all, spike_cost) == 2 * SAMPLES && s->current == 0);
    brute->destroy(st);

    /* Warm start (history): the best known applicable function from the first call, nothing
     * measured; an inapplicable function known as faster is not chosen; nothing known, a
     * forced function or a search already under way: no warm start. */
    ac_knowledge known[5], unknown[6];
    knowledge((const double[]){4, -1, 2, 1, 3}, 5, known); /* 3 is inapplicable */
    knowledge((const double[]){-1, -1, -1, -1, -1, -1}, 6, unknown);
    CHECK((st = make(brute, 5, 0, NULL, applicable, -1, SAMPLES, 1, 0.0, known)) != NULL);
    s = ac_rounds_of(st);
    CHECK(s->warm && s->decided && s->current == 2 && run(brute, st, applicable, brute_cost) == 0);
    CHECK(s->measured == 0 && s->selection_calls == 0);
    brute->describe(st, NULL, &sum, NULL);
    CHECK(sum.warm && sum.chosen == 2);
    brute->destroy(st);
    CHECK((st = make(attribute, 6, 2, values, all, -1, SAMPLES, 1, 0.0, unknown)) != NULL);
    s = ac_rounds_of(st);
    CHECK(!s->warm && !s->decided);
    CHECK(run(attribute, st, all, grid_cost) > 0 && s->current == 4);
    attribute->destroy(st);
    CHECK((st = make(brute, 5, 0, NULL, all, 0, SAMPLES, 1, 0.0, known)) != NULL);
    s = ac_rounds_of(st);
    CHECK(s->current == 0 && !s->warm);
    brute->destroy(st);
    CHECK((st = make(brute, 5, 0, NULL, applicable, -1, SAMPLES, 1, 0.0, NULL)) != NULL);
    observe(brute, st, 1.0);
    CHECK(ac_rounds_warm((ac_rounds *)st, known) == 0 && !ac_rounds_of(st)->decided);
    brute->destroy(st);

    if (failures == 0) printf("test_adcl_search: ok\n");
    return failures != 0;
}
