/*
 * registry.c - the allgatherv algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_ALLGATHERV,
     .group = "native",
     .attributes = "library=native",
     .fn.allgatherv = ac_allgatherv_native,
     .summary = "the MPI library's own MPI_Allgatherv"},
};

AC_REGISTRY(allgatherv, algorithms);
