/*
 * registry.c - the allgather algorithms: the all-gather set of common/allgather_set.h, each
 * the allgatherv engine of the same name with uniform counts. Tests, autocoll-info, selection
 * and reports read this table; nobody keeps a second list.
 */
#include "coll/algorithms.h"
#include "coll/common/allgather_set.h"
#include "coll/common/cost_models.h"

#define ENTRY(nm, engine, prm, req, max, cst, grp, attrs, help)                                  \
    {.name = nm, .collective = AC_ALLGATHER, .group = grp, .attributes = attrs, .requires = req,  \
     .max_bytes = max, .fn.allgather = ac_allgather_##engine, .params = prm, .cost = cst,         \
     .sched.allgather = AC_ALLGATHER_SCHEDULE(engine, allgather), .summary = help},

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(allgather, ALLGATHER, Allgather),
     .sched.allgather = ac_allgather_native_schedule},
    AC_ALLGATHER_SET(ENTRY)
    {.name = "shm",
     .collective = AC_ALLGATHER,
     .group = "shared_memory",
     .requires = AC_REQ_SHARED_MEMORY | AC_REQ_BLOCKS_FIT_INT,
     .attributes = "partners=node sync=barrier primitive=shared_memory data=pack",
     .fn.allgather = ac_allgather_shm,
     .cost = &ac_shm_blocks_cost,
     .summary = "through the node's shared memory: every rank copies its block in and "
                "the others' out (blocking only)"},
};

AC_REGISTRY(allgather, algorithms);
