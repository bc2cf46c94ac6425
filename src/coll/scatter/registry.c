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
    {.name = "binomial",
     .collective = AC_SCATTER,
     .group = "tree",
     .attributes = "tree=binomial partners=tree sync=none primitive=nonblocking data=pack",
     .fn.scatter = ac_scatter_binomial,
     .summary = "binomial tree rooted at the root; subtrees forwarded packed"},
    {.name = "linear",
     .collective = AC_SCATTER,
     .group = "linear",
     .attributes = "tree=flat partners=all sync=none primitive=nonblocking data=ddt",
     .fn.scatter = ac_scatter_linear,
     .summary = "the root sends every block directly"},
};

AC_REGISTRY(scatter, algorithms);
