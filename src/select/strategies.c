/*
 * strategies.c - the list of strategies (strategy.h): AUTOCOLL_STRATEGY's keywords are their
 * names, in this order, and their settings are declared from here. Adding a strategy is its
 * file and one line here. The rounds strategies
 * (rounds.h), which the ADCL requests run, are a list of their own: AUTOCOLL_ADCL_SEARCH's
 * keywords, in that order (forced, its last keyword, is no search).
 */
#include "core/config.h"
#include "select/lottery.h"
#include "select/model.h"
#include "select/race.h"
#include "select/rounds.h"
#include "select/star.h"
#include "select/table.h"

#include <pthread.h>
#include <string.h>

static const ac_strategy *const strategies[] = {
    &ac_strategy_native, &ac_strategy_star,  &ac_strategy_lottery,
    &ac_strategy_race,   &ac_strategy_model, &ac_strategy_table,
};

enum { STRATEGIES = sizeof strategies / sizeof strategies[0] };

static const ac_strategy *const rounds_strategies[] = {
    &ac_strategy_brute_force, &ac_strategy_attribute,    &ac_strategy_factorial,
    &ac_strategy_race_rounds, &ac_strategy_model_rounds,
};

const ac_strategy *const *ac_rounds_strategies(int *count)
{
    *count = sizeof rounds_strategies / sizeof rounds_strategies[0];
    return rounds_strategies;
}

const ac_strategy *const *ac_strategies(int *count)
{
    *count = STRATEGIES;
    return strategies;
}

const ac_strategy *ac_strategy_find(const char *name)
{
    for (int i = 0; i < STRATEGIES; i++)
        if (strcmp(strategies[i]->name, name) == 0) return strategies[i];
    return NULL;
}

/* The declarations, once: each strategy's settings, then AUTOCOLL_STRATEGY's keywords (the
 * strategies' names) and AUTOCOLL_ADCL_SEARCH's (the rounds strategies' names). */
static void declare(void)
{
    static const char *names[STRATEGIES + 1];
    static const char *searches[sizeof rounds_strategies / sizeof rounds_strategies[0] + 1];
    for (int i = 0; i < STRATEGIES; i++)
        if (strategies[i]->settings)
            ac_config_declare(strategies[i]->settings, strategies[i]->nsettings);
    for (int i = 0; i < STRATEGIES; i++)
        names[i] = strategies[i]->name;
    for (size_t i = 0; i < sizeof rounds_strategies / sizeof rounds_strategies[0]; i++)
        searches[i] = rounds_strategies[i]->name;
    ac_config_set_keywords("AUTOCOLL_STRATEGY", names);
    ac_config_set_keywords("AUTOCOLL_ADCL_SEARCH", searches);
}

void ac_strategies_declare(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, declare);
}
