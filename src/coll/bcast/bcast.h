/* bcast.h - the bcast algorithms (one per file in this folder). */
#ifndef AUTOCOLL_BCAST_H
#define AUTOCOLL_BCAST_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(bcast, native) /* the library's MPI_Ibcast */
AC_DECLARE_SCHEDULED(bcast, orthogonal) /* p->dims, p->layout, p->phase (common/mesh.h) */
AC_DECLARE_SCHEDULED(bcast, tree) /* p->tree, p->k, p->segment */
AC_DECLARE_SCHEDULED(bcast, scatter_allgather) /* p->allgatherv (default ring), p->tree */
AC_DECLARE_SCHEDULED(bcast, hier) /* p->intra[1], p->phase (hierarchical.c, phase.h) */
ac_bcast_fn ac_bcast_shm; /* through the node's shared memory (common/shm.h) */
ac_bcast_fn ac_bcast_hier_pipelined; /* p->intra[1], p->phase, p->segment (hierarchical.c) */

/* A bcast call's arguments, kept where a schedule is built or started later: the native
 * schedule's library call, a racing request's builds (intercept/ibcast.c). */
typedef struct ac_bcast_args {
    void *buf;
    int count;
    MPI_Datatype dtype;
    int root;
} ac_bcast_args;

#endif
