/*
 * registry.c - the alltoallv algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_ALLTOALLV,
     .group = "native",
     .attributes = "library=native",
     .fn.alltoallv = ac_alltoallv_native,
     .summary = "the MPI library's own MPI_Alltoallv"},
};

AC_REGISTRY(alltoallv, algorithms);
