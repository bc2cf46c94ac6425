/*
 * registry.c - the allgatherv algorithms: the all-gather set of common/allgather_set.h.
 * Tests, autocoll-info, selection and reports read this table; nobody keeps a second list.
 */
#include "coll/algorithms.h"
#include "coll/common/allgather_set.h"
#include "coll/common/cost_models.h"

#define ENTRY(nm, engine, prm, req, max, cst, grp, attrs, help)                                  \
    {.name = nm, .collective = AC_ALLGATHERV, .group = grp, .attributes = attrs, .requires = req, \
     .fn.allgatherv = ac_allgatherv_##engine, .params = prm, .cost = cst,                         \
     .sched.allgatherv = AC_ALLGATHER_SCHEDULE(engine, allgatherv), .summary = help},

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(allgatherv, ALLGATHERV, Allgatherv),
     .sched.allgatherv = ac_allgatherv_native_schedule},
    AC_ALLGATHER_SET(ENTRY)
};

AC_REGISTRY(allgatherv, algorithms);
