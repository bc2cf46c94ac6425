/* reduce_scatter.h - the reduce_scatter algorithms (one per file in this folder). */
#ifndef AUTOCOLL_REDUCE_SCATTER_H
#define AUTOCOLL_REDUCE_SCATTER_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(reduce_scatter, native) /* the library's MPI_Ireduce_scatter */
AC_DECLARE_SCHEDULED(reduce_scatter, reduce_then_scatter)
AC_DECLARE_SCHEDULED(reduce_scatter, pairwise)
AC_DECLARE_SCHEDULED(reduce_scatter, recursive_halving)

/* A reduce_scatter call's arguments, kept where a schedule is built or started later: the
 * native schedule's library call, a racing request's builds (intercept/ireduce_scatter.c). */
typedef struct ac_reduce_scatter_args {
    const void *sbuf;
    void *rbuf;
    const int *rcounts; /* reduce_scatter's; reduce_scatter_block's: NULL, rcount */
    int rcount;
    MPI_Datatype dtype;
    MPI_Op op;
} ac_reduce_scatter_args;

/* The blocking run of a reduce_scatter schedule (by_schedule.c), and the blocking entry point
 * ac_reduce_scatter_<name> of the algorithm written as ac_reduce_scatter_<name>_schedule. */
int ac_reduce_scatter_by_schedule(ac_reduce_scatter_sched_fn *build, const void *sbuf,
                                  void *rbuf, const int *rcounts, MPI_Datatype dtype, MPI_Op op,
                                  MPI_Comm comm, const ac_params *p);
#define AC_REDUCE_SCATTER_BY_SCHEDULE(name)                                                    \
    int ac_reduce_scatter_##name(const void *sbuf, void *rbuf, const int *rcounts,            \
                                 MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,                \
                                 const ac_params *p)                                          \
    {                                                                                          \
        return ac_reduce_scatter_by_schedule(ac_reduce_scatter_##name##_schedule, sbuf, rbuf, \
                                             rcounts, dtype, op, comm, p);                     \
    }

#endif
