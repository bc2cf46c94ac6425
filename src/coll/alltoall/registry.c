/*
 * registry.c - the alltoall algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_ALLTOALL,
     .group = "native",
     .attributes = "library=native",
     .fn.alltoall = ac_alltoall_native,
     .summary = "the MPI library's own MPI_Alltoall"},
};

AC_REGISTRY(alltoall, algorithms);
