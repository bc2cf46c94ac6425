/*
 * registry.c - the scatter algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_SCATTER,
     .group = "native",
     .attributes = "library=native",
     .fn.scatter = ac_scatter_native,
     .summary = "the MPI library's own MPI_Scatter"},
};

AC_REGISTRY(scatter, algorithms);
