/*
 * registry.c - the alltoallv algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 *
 * Groups follow STAR-MPI's grouping of its all-to-all algorithms (section 4.2): the phased
 * algorithms (ring, pair) are grouped by their phase synchronisation.
 */
#include "coll/algorithms.h"
#include "coll/common/cost_models.h"

static const ac_params sync_none = {.sync = AC_SYNC_NONE};
static const ac_params sync_light = {.sync = AC_SYNC_LIGHT};
static const ac_params sync_barrier = {.sync = AC_SYNC_BARRIER};

/* The cost models of the algorithms below (each entry's .cost) are shared with alltoall and the
 * all-gathers, in common/cost_models.c. */

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(alltoallv, ALLTOALLV, Alltoallv),
     .sched.alltoallv = ac_alltoallv_native_schedule},
    {.name = "simple",
     .collective = AC_ALLTOALLV,
     .group = "simple",
     .attributes = "partners=all sync=none primitive=nonblocking data=ddt",
     .fn.alltoallv = ac_alltoallv_simple,
     .sched.alltoallv = ac_alltoallv_simple_schedule,
     .cost = &ac_simple_cost,
     .summary = "post every receive and send at once (i->i+1, i->i+2, ...), then wait"},
    {.name = "ring",
     .collective = AC_ALLTOALLV,
     .group = "phased",
     .attributes = "partners=ring sync=none primitive=blocking data=ddt",
     .fn.alltoallv = ac_alltoallv_ring,
     .sched.alltoallv = ac_alltoallv_ring_schedule,
     .params = &sync_none,
     .cost = &ac_pairwise_cost,
     .summary = "p-1 phases, phase i sends to r+i and receives from r-i"},
    {.name = "ring_light_barrier",
     .collective = AC_ALLTOALLV,
     .group = "phased_light_barrier",
     .attributes = "partners=ring sync=light primitive=blocking data=ddt",
     .fn.alltoallv = ac_alltoallv_ring,
     .sched.alltoallv = ac_alltoallv_ring_schedule,
     .params = &sync_light,
     .cost = &ac_pairwise_cost,
     .summary = "ring phases separated by zero-byte ready tokens"},
    {.name = "ring_mpi_barrier",
     .collective = AC_ALLTOALLV,
     .group = "phased_mpi_barrier",
     .attributes = "partners=ring sync=barrier primitive=blocking data=ddt",
     .fn.alltoallv = ac_alltoallv_ring,
     .sched.alltoallv = ac_alltoallv_ring_schedule,
     .params = &sync_barrier,
     .cost = &ac_pairwise_cost,
     .summary = "ring phases separated by MPI_Barrier (lock-step)"},
    {.name = "pair",
     .collective = AC_ALLTOALLV,
     .group = "phased",
     .attributes = "partners=pair sync=none primitive=blocking data=ddt",
     .fn.alltoallv = ac_alltoallv_pair,
     .sched.alltoallv = ac_alltoallv_pair_schedule,
     .params = &sync_none,
     .cost = &ac_pairwise_cost,
     .summary = "pairwise exchange, phase i with r XOR i (idle phases if p is not 2^k)"},
    {.name = "pair_light_barrier",
     .collective = AC_ALLTOALLV,
     .group = "phased_light_barrier",
     .attributes = "partners=pair sync=light primitive=blocking data=ddt",
     .fn.alltoallv = ac_alltoallv_pair,
     .sched.alltoallv = ac_alltoallv_pair_schedule,
     .params = &sync_light,
     .cost = &ac_pairwise_cost,
     .summary = "pairwise exchange with a zero-byte token between phases"},
    {.name = "pair_mpi_barrier",
     .collective = AC_ALLTOALLV,
     .group = "phased_mpi_barrier",
     .attributes = "partners=pair sync=barrier primitive=blocking data=ddt",
     .fn.alltoallv = ac_alltoallv_pair,
     .sched.alltoallv = ac_alltoallv_pair_schedule,
     .params = &sync_barrier,
     .cost = &ac_pairwise_cost,
     .summary = "pairwise exchange with MPI_Barrier between phases (lock-step)"},
};

AC_REGISTRY(alltoallv, algorithms);
