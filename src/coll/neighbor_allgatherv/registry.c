/*
 * registry.c - the neighbor_allgatherv algorithms (MPI_Neighbor_allgatherv). Tests, autocoll-info,
 * selection and reports read this table; nobody keeps a second list.
 *
 * The layer's entries are one function (neighbor_allgatherv_blocks.c) with the exchange engine as
 * parameter (src/coll/common/neighbor.h), grouped by primitive.
 */
#include "coll/algorithms.h"
#include "coll/common/neighbor.h"

static const ac_params isend_irecv = {.exchange_schedule = ac_neighbor_isend_irecv_schedule};
static const ac_params sendrecv_pair = {.exchange_schedule = ac_neighbor_sendrecv_pair_schedule};
static const ac_params win_fence_put = {.exchange = ac_neighbor_win_fence_put};

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(neighbor_allgatherv, NEIGHBOR_ALLGATHERV, Neighbor_allgatherv),
     .requires = AC_REQ_LIBRARY_NEIGHBOR,
     .sched.neighbor_allgatherv = ac_neighbor_allgatherv_native_schedule},
    {.name = "isend_irecv",
     .collective = AC_NEIGHBOR_ALLGATHERV,
     .group = "nonblocking",
     .attributes = "partners=all primitive=nonblocking data=ddt sync=none",
     .fn.neighbor_allgatherv = ac_neighbor_allgatherv_blocks,
     .sched.neighbor_allgatherv = ac_neighbor_allgatherv_blocks_schedule,
     .params = &isend_irecv,
     .summary = "post every receive and send at once, paired by their order, then wait"},
    {.name = "sendrecv_pair",
     .collective = AC_NEIGHBOR_ALLGATHERV,
     .group = "pair",
     .attributes = "partners=pair primitive=blocking data=ddt sync=none",
     .requires = AC_REQ_CARTESIAN,
     .fn.neighbor_allgatherv = ac_neighbor_allgatherv_blocks,
     .sched.neighbor_allgatherv = ac_neighbor_allgatherv_blocks_schedule,
     .params = &sendrecv_pair,
     .summary = "per dimension a positive then a negative MPI_Sendrecv shift"},
    {.name = "win_fence_put",
     .collective = AC_NEIGHBOR_ALLGATHERV,
     .group = "onesided",
     .attributes = "partners=all primitive=onesided data=pack sync=fence",
     .requires = AC_REQ_WINDOW,
     .fn.neighbor_allgatherv = ac_neighbor_allgatherv_blocks,
     .params = &win_fence_put,
     .summary = "packed blocks put into the receivers' staging in one fence epoch (cached "
                "dynamic window)"},
};

AC_REGISTRY(neighbor_allgatherv, algorithms);
