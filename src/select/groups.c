/*
 * groups.c - helpers shared by the strategies (strategy.h): registry groups of a candidate
 * list (the two-level searches of star's enhanced AEOS and race), medians, and what a warm
 * start from history needs.
 */
#include "select/strategy.h"

#include <stdlib.h>
#include <string.h>

/* Whether attribute `key` has one value in attribute strings a and b, or is absent from both. */
static int same_attribute(const char *a, const char *b, const char *key)
{
    size_t la, lb;
    const char *va = ac_attribute_value(a, key, &la), *vb = ac_attribute_value(b, key, &lb);
    if (!va || !vb) return va == vb;
    return la == lb && !strncmp(va, vb, la);
}

int ac_candidate_families(const ac_algorithm *const *candidates, int n, const char *const *split,
                          int nsplit, int *group)
{
    int ngroups = 0;
    for (int i = 0; i < n; i++) {
        const char *name = candidates[i]->group;
        int j = 0;
        for (; j < i; j++) {
            if (!name || !candidates[j]->group || strcmp(name, candidates[j]->group)) continue;
            int same = 1;
            for (int a = 0; a < nsplit && same; a++)
                same = same_attribute(candidates[i]->attributes, candidates[j]->attributes,
                                      split[a]);
            if (same) break;
        }
        group[i] = j < i ? group[j] : ngroups++;
    }
    return ngroups;
}

int ac_candidate_groups(const ac_algorithm *const *candidates, int n, int *group)
{
    return ac_candidate_families(candidates, n, NULL, 0, group);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double ac_median(const double *v, int n, double *scratch)
{
    memcpy(scratch, v, (size_t)n * sizeof *scratch);
    qsort(scratch, (size_t)n, sizeof *scratch, cmp_double);
    return n % 2 ? scratch[n / 2] : 0.5 * (scratch[n / 2 - 1] + scratch[n / 2]);
}

int ac_knowledge_best(const ac_knowledge *know, int n, const int *group, int *unknown)
{
    int best = -1, known = 0;
    *unknown = 0;
    for (int i = 0; i < n; i++)
        if (know[i].samples > 0) {
            known++;
            if (best < 0 || know[i].seconds < know[best].seconds) best = i;
        }
    if (known < 2) return -1;
    for (int i = 0; i < n; i++) {
        if (know[i].samples > 0) continue;
        if (!group) return -1; /* a candidate never measured */
        int seen = 0;          /* some member of i's group is known */
        for (int j = 0; j < n && !seen; j++)
            seen = group[j] == group[i] && know[j].samples > 0;
        if (!seen) return -1;
        *unknown += group[i] == group[best];
    }
    return best;
}
