/*
 * test_native.c - the `native` strategy (src/select/native.c) without MPI: candidate 0 for
 * every call, never deciding, nothing learned, and a refused observation of another candidate.
 */
#include "check.h"
#include "select/strategy.h"

#include <string.h>

/* create()'s facts: the strategy under test measures, it predicts nothing */
static const ac_context_facts no_facts;

static const ac_algorithm algs[3] = {{.name = "native"}, {.name = "ring"}, {.name = "pair"}};
static const ac_algorithm *const candidates[3] = {&algs[0], &algs[1], &algs[2]};

int main(void)
{
    const ac_strategy *s = &ac_strategy_native;
    ac_knowledge known[3] = {{2.0, 0.0, 5}, {1.0, 0.0, 5}, {3.0, 0.0, 5}};
    void *state = s->create(candidates, 3, known, &no_facts);
    ac_agreement none = {NULL, NULL, 0};
    int deciding = -1;
    CHECK(state != NULL && s->learns == 0);
    for (int i = 0; i < 100; i++) {
        CHECK(s->choose(state) == 0);
        CHECK(s->observe(state, 0, 1e-3 * i, &none, &deciding) == MPI_SUCCESS && deciding == 0);
    }
    CHECK(s->observe(state, 1, 1e-3, &none, &deciding) == MPI_ERR_ARG);
    ac_knowledge saved[3];
    memset(saved, 0xff, sizeof saved);
    s->save(state, saved);
    for (int i = 0; i < 3; i++)
        CHECK(saved[i].samples == 0);
    ac_strategy_summary sum;
    s->describe(state, candidates, &sum, NULL);
    CHECK(!strcmp(sum.stage, "native") && sum.chosen == 0 && !sum.deciding && !sum.warm &&
          sum.decision_calls == 0 && sum.native_seconds < 0.0);
    s->destroy(state);
    if (failures) {
        fprintf(stderr, "test_native: %d checks failed\n", failures);
        return 1;
    }
    printf("test_native: all checks passed\n");
    return 0;
}
