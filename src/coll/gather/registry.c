/*
 * registry.c - the gather algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_GATHER,
     .group = "native",
     .attributes = "library=native",
     .fn.gather = ac_gather_native,
     .summary = "the MPI library's own MPI_Gather"},
};

AC_REGISTRY(gather, algorithms);
