/*
 * registry.c - the reduce_scatter algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_REDUCE_SCATTER,
     .group = "native",
     .attributes = "library=native",
     .fn.reduce_scatter = ac_reduce_scatter_native,
     .summary = "the MPI library's own MPI_Reduce_scatter"},
};

AC_REGISTRY(reduce_scatter, algorithms);
