/* bcast.h - the bcast algorithms (one per file in this folder). */
#ifndef AUTOCOLL_BCAST_H
#define AUTOCOLL_BCAST_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(bcast, native) /* the library's MPI_Ibcast */
ac_bcast_fn ac_bcast_orthogonal; /* p->dims, p->layout, p->phase (common/mesh.h) */
ac_bcast_fn ac_bcast_tree;              /* p->tree, p->k, p->segment */
/* the tree bcast unsegmented (p->segment 0), the schedule the blocking run of those instances
 * runs too; the segmented ones are the pipeline engine's (common/pipeline.h), blocking only */
ac_bcast_sched_fn ac_bcast_tree_schedule;
ac_bcast_fn ac_bcast_scatter_allgather; /* p->allgatherv (default ring), p->tree of the scatter */
ac_bcast_fn ac_bcast_hier; /* p->intra[1], p->phase (hierarchical.c) */
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
