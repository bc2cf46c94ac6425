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
    {.name = "binomial",
     .collective = AC_REDUCE,
     .group = "tree",
     .attributes = "tree=binomial partners=tree sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce = ac_reduce_binomial,
     .summary = "binomial tree; rooted at the root (commutative op) or at rank 0 in rank order "
                "then sent to the root (non-commutative op)"},
    {.name = "linear_ordered",
     .collective = AC_REDUCE,
     .group = "linear",
     .attributes = "tree=flat partners=all sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce = ac_reduce_linear_ordered,
     .summary = "the root receives every vector and combines them in rank order"},
};

AC_REGISTRY(reduce, algorithms);
