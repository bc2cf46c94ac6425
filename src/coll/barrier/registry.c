/*
 * registry.c - the barrier algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 */
#include "coll/algorithms.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_BARRIER,
     .group = "native",
     .attributes = "library=native",
     .fn.barrier = ac_barrier_native,
     .summary = "the MPI library's own MPI_Barrier"},
    {.name = "dissemination",
     .collective = AC_BARRIER,
     .group = "dissemination",
     .attributes = "partners=ring sync=none primitive=blocking",
     .fn.barrier = ac_barrier_dissemination,
     .summary = "dissemination: tokens to rank + 2^k for ceil(log2 p) rounds"},
    {.name = "recursive_doubling",
     .collective = AC_BARRIER,
     .group = "recursive_doubling",
     .attributes = "partners=pair sync=none primitive=blocking",
     .fn.barrier = ac_barrier_recursive_doubling,
     .summary = "pairwise token exchanges with rank XOR 2^k, extra step for non-power-of-two"},
    {.name = "linear",
     .collective = AC_BARRIER,
     .group = "linear",
     .attributes = "tree=flat partners=all sync=none primitive=nonblocking",
     .fn.barrier = ac_barrier_linear,
     .summary = "tokens gathered at rank 0, then released to every rank"},
};

AC_REGISTRY(barrier, algorithms);
