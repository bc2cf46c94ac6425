/*
 * registry.c - the barrier algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_BARRIER,
     .group = "native",
     .attributes = "library=native",
     .fn.barrier = ac_barrier_native,
     .summary = "the MPI library's own MPI_Barrier"},
};

AC_REGISTRY(barrier, algorithms);
