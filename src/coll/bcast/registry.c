/*
 * registry.c - the bcast algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_BCAST,
     .group = "native",
     .attributes = "library=native",
     .fn.bcast = ac_bcast_native,
     .summary = "the MPI library's own MPI_Bcast"},
};

AC_REGISTRY(bcast, algorithms);
