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
    {.name = "binomial",
     .collective = AC_GATHER,
     .group = "tree",
     .attributes = "tree=binomial partners=tree sync=none primitive=nonblocking data=pack",
     .fn.gather = ac_gather_binomial,
     .summary = "binomial tree rooted at the root; subtrees forwarded packed"},
    {.name = "linear",
     .collective = AC_GATHER,
     .group = "linear",
     .attributes = "tree=flat partners=all sync=none primitive=nonblocking data=ddt",
     .fn.gather = ac_gather_linear,
     .summary = "the root receives every block directly"},
};

AC_REGISTRY(gather, algorithms);
