/*
 * groups.c - registry groups of a strategy's candidate list (strategy.h), for the two-level
 * searches of star (enhanced AEOS) and race.
 */
#include "select/strategy.h"

#include <string.h>

int ac_candidate_groups(const ac_algorithm *const *candidates, int n, int *group)
{
    int ngroups = 0;
    for (int i = 0; i < n; i++) {
        const char *name = candidates[i]->group;
        int j = 0;
        while (j < i && !(name && candidates[j]->group && !strcmp(name, candidates[j]->group)))
            j++;
        group[i] = j < i ? group[j] : ngroups++;
    }
    return ngroups;
}
