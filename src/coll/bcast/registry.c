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
    {.name = "binomial",
     .collective = AC_BCAST,
     .group = "tree",
     .attributes = "tree=binomial partners=tree sync=none primitive=blocking data=ddt",
     .max_bytes = 12288,
     .fn.bcast = ac_bcast_binomial,
     .summary = "binomial tree rooted at the root, whole message per edge"},
    {.name = "scatter_ring_allgather",
     .collective = AC_BCAST,
     .group = "scatter_allgather",
     .attributes = "tree=binomial partners=tree,ring sync=none primitive=blocking data=pack",
     .min_bytes = 12288,
     .fn.bcast = ac_bcast_scatter_ring_allgather,
     .summary = "van de Geijn: binomial scatter of p chunks, then ring all-gather"},
    {.name = "linear",
     .collective = AC_BCAST,
     .group = "linear",
     .attributes = "tree=flat partners=all sync=none primitive=nonblocking data=ddt",
     .fn.bcast = ac_bcast_linear,
     .summary = "the root sends the whole message to every rank"},
};

AC_REGISTRY(bcast, algorithms);
