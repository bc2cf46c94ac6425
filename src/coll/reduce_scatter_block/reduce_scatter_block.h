/* reduce_scatter_block.h - the reduce_scatter_block algorithms (one per file in this folder). */
#ifndef AUTOCOLL_REDUCE_SCATTER_BLOCK_H
#define AUTOCOLL_REDUCE_SCATTER_BLOCK_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(reduce_scatter_block, native) /* the library's MPI_Ireduce_scatter_block */
AC_DECLARE_SCHEDULED(reduce_scatter_block, reduce_then_scatter)
AC_DECLARE_SCHEDULED(reduce_scatter_block, pairwise)
AC_DECLARE_SCHEDULED(reduce_scatter_block, recursive_halving)
AC_DECLARE_SCHEDULED(reduce_scatter_block, hier) /* p->intra, p->phase (hierarchical.c) */

struct ac_sched;
/* Helpers of this folder (uniform.c): a reduce_scatter engine's schedule with equal blocks;
 * the blocking run of a schedule, and the blocking entry point ac_reduce_scatter_block_<name>
 * of the algorithm written as ac_reduce_scatter_block_<name>_schedule. */
int ac_reduce_scatter_block_uniform(ac_reduce_scatter_sched_fn *engine, struct ac_sched *s,
                                    const void *sbuf, void *rbuf, int rcount, MPI_Datatype dtype,
                                    MPI_Op op, const ac_params *p);
int ac_reduce_scatter_block_by_schedule(ac_reduce_scatter_block_sched_fn *build,
                                        const void *sbuf, void *rbuf, int rcount,
                                        MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                                        const ac_params *p);
#define AC_REDUCE_SCATTER_BLOCK_BY_SCHEDULE(name)                                              \
    int ac_reduce_scatter_block_##name(const void *sbuf, void *rbuf, int rcount,              \
                                       MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,          \
                                       const ac_params *p)                                    \
    {                                                                                          \
        return ac_reduce_scatter_block_by_schedule(ac_reduce_scatter_block_##name##_schedule,  \
                                                   sbuf, rbuf, rcount, dtype, op, comm, p);    \
    }

#endif
