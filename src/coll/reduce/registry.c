/*
 * registry.c - the reduce algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_REDUCE,
     .group = "native",
     .attributes = "library=native",
     .fn.reduce = ac_reduce_native,
     .summary = "the MPI library's own MPI_Reduce"},
};

AC_REGISTRY(reduce, algorithms);
