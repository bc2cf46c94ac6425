/* allreduce.h - the allreduce algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLREDUCE_H
#define AUTOCOLL_ALLREDUCE_H

#include "coll/coll.h"
#include "coll/common/sched.h"

ac_allreduce_fn ac_allreduce_native;
AC_DECLARE_SCHEDULED(allreduce, orthogonal) /* p->dims, p->layout, p->phase (common/mesh.h) */
ac_allreduce_fn ac_allreduce_recursive_doubling;
ac_allreduce_fn ac_allreduce_ring;

/* The algorithms written as schedules (common/sched.h), and their blocking entry points:
 * AC_ALLREDUCE_BY_SCHEDULE(name) defines ac_allreduce_<name>, which builds
 * ac_allreduce_<name>_schedule and runs it to completion (by_schedule.c). */
ac_allreduce_sched_fn ac_allreduce_native_schedule; /* the library's MPI_Iallreduce */
ac_allreduce_sched_fn ac_allreduce_recursive_doubling_schedule;
ac_allreduce_sched_fn ac_allreduce_ring_schedule;
/* The composed ones (p->allgatherv, p->alltoallv: their inner phases): a schedule too, which
 * runs an inner phase by its schedule (p->allgatherv_schedule, p->alltoallv_schedule) or, in
 * the blocking run only, by its blocking engine as one step (inner.c). Their registry entries
 * name the schedule where every inner phase has one. */
AC_DECLARE_SCHEDULED(allreduce, allgather)
AC_DECLARE_SCHEDULED(allreduce, rabenseifner)
AC_DECLARE_SCHEDULED(allreduce, alltoall_allgather)
/* p->intra, p->phase, p->leaders (hierarchical.c): a schedule of its phases (phase.h),
 * progressed where no phase is the library's own */
AC_DECLARE_SCHEDULED(allreduce, hier)
ac_allreduce_fn ac_allreduce_shm; /* through the node's shared memory (common/shm.h) */
ac_allreduce_fn ac_allreduce_hier_pipelined; /* p->intra, p->segment (hierarchical.c) */
int ac_allreduce_inner_allgatherv(ac_sched *s, const ac_params *p, const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf, const int *counts,
                                  const int *displs, MPI_Datatype rtype);
int ac_allreduce_inner_alltoallv(ac_sched *s, const ac_params *p, const void *sbuf,
                                 const int *scounts, const int *sdispls, MPI_Datatype stype,
                                 void *rbuf, const int *rcounts, const int *rdispls,
                                 MPI_Datatype rtype);

/* An allreduce call's arguments, kept where a schedule is built or started later: the native
 * schedule's library call, a persistent request's race (intercept/iallreduce.c). */
typedef struct ac_allreduce_args {
    const void *sbuf;
    void *rbuf;
    int count;
    MPI_Datatype dtype;
    MPI_Op op;
} ac_allreduce_args;

int ac_allreduce_by_schedule(ac_allreduce_sched_fn *build, const void *sbuf, void *rbuf,
                             int count, MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                             const ac_params *p);
#define AC_ALLREDUCE_BY_SCHEDULE(name)                                                         \
    int ac_allreduce_##name(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,       \
                            MPI_Op op, MPI_Comm comm, const ac_params *p)                      \
    {                                                                                          \
        return ac_allreduce_by_schedule(ac_allreduce_##name##_schedule, sbuf, rbuf, count,     \
                                        dtype, op, comm, p);                                   \
    }

#endif
