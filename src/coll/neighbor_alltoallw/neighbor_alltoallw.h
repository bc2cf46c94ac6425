/* neighbor_alltoallw.h - the neighbor_alltoallw algorithms (one per file in this folder). */
#ifndef AUTOCOLL_NEIGHBOR_ALLTOALLW_H
#define AUTOCOLL_NEIGHBOR_ALLTOALLW_H

#include "coll/coll.h"

/* The call's arguments, kept for the native schedule's library call and a racing request's
 * builds (intercept/neighbor_request.c). */
typedef struct ac_neighbor_alltoallw_args {
    const void *sbuf;
    const int *scounts;
    const MPI_Aint *sdispls;
    const MPI_Datatype *stypes;
    void *rbuf;
    const int *rcounts;
    const MPI_Aint *rdispls;
    const MPI_Datatype *rtypes;
} ac_neighbor_alltoallw_args;

AC_DECLARE_SCHEDULED(neighbor_alltoallw, native)
AC_DECLARE_SCHEDULED(neighbor_alltoallw, blocks)

#endif
