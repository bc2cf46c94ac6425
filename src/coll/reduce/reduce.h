/* reduce.h - the reduce algorithms (one per file in this folder). */
#ifndef AUTOCOLL_REDUCE_H
#define AUTOCOLL_REDUCE_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(reduce, native) /* the library's MPI_Ireduce */
AC_DECLARE_SCHEDULED(reduce, orthogonal) /* p->dims, p->layout, p->phase (common/mesh.h) */
AC_DECLARE_SCHEDULED(reduce, tree) /* p->tree, p->k, p->segment; NULL p: binomial, any op */
AC_DECLARE_SCHEDULED(reduce, rabenseifner)
AC_DECLARE_SCHEDULED(reduce, linear_ordered)
AC_DECLARE_SCHEDULED(reduce, hier) /* p->intra[0], p->phase (hierarchical.c, phase.h) */
ac_reduce_fn ac_reduce_shm; /* through the node's shared memory (common/shm.h) */
ac_reduce_fn ac_reduce_hier_pipelined; /* p->intra[0], p->segment (hierarchical.c) */

/* A reduce call's arguments, kept where a schedule is built or started later: the native
 * schedule's library call, a racing request's builds (intercept/ireduce.c). */
typedef struct ac_reduce_args {
    const void *sbuf;
    void *rbuf;
    int count;
    MPI_Datatype dtype;
    MPI_Op op;
    int root;
} ac_reduce_args;

/* The blocking run of a reduce schedule (by_schedule.c), and the blocking entry point
 * ac_reduce_<name> of the algorithm written as ac_reduce_<name>_schedule. */
int ac_reduce_by_schedule(ac_reduce_sched_fn *build, const void *sbuf, void *rbuf, int count,
                          MPI_Datatype dtype, MPI_Op op, int root, MPI_Comm comm,
                          const ac_params *p);
#define AC_REDUCE_BY_SCHEDULE(name)                                                            \
    int ac_reduce_##name(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,         \
                         MPI_Op op, int root, MPI_Comm comm, const ac_params *p)              \
    {                                                                                          \
        return ac_reduce_by_schedule(ac_reduce_##name##_schedule, sbuf, rbuf, count, dtype,   \
                                     op, root, comm, p);                                       \
    }

#endif
