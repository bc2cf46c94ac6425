/*
 * registry.c - the allreduce algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_ALLREDUCE,
     .group = "native",
     .attributes = "library=native",
     .fn.allreduce = ac_allreduce_native,
     .summary = "the MPI library's own MPI_Allreduce"},
};

AC_REGISTRY(allreduce, algorithms);
