/*
 * registry.c - the reduce_scatter_block algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_REDUCE_SCATTER_BLOCK,
     .group = "native",
     .attributes = "library=native",
     .fn.reduce_scatter_block = ac_reduce_scatter_block_native,
     .summary = "the MPI library's own MPI_Reduce_scatter_block"},
};

AC_REGISTRY(reduce_scatter_block, algorithms);
