/*
 * registry.c - the allgather algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_ALLGATHER,
     .group = "native",
     .attributes = "library=native",
     .fn.allgather = ac_allgather_native,
     .summary = "the MPI library's own MPI_Allgather"},
};

AC_REGISTRY(allgather, algorithms);
