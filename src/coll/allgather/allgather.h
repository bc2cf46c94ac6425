/* allgather.h - the allgather algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLGATHER_H
#define AUTOCOLL_ALLGATHER_H

#include "coll/allgatherv/allgatherv.h"
#include "coll/coll.h"

AC_DECLARE_SCHEDULED(allgather, native) /* the library's MPI_Iallgather */
AC_DECLARE_SCHEDULED(allgather, orthogonal) /* p->dims, p->layout, p->phase (common/mesh.h) */
AC_ALLGATHERV_ENGINES(AC_DECLARE_BLOCKING, AC_DECLARE_SCHEDULED, allgather) /* allgatherv.h */
AC_DECLARE_SCHEDULED(allgather, hier) /* p->intra, p->phase (hierarchical.c, phase.h) */
ac_allgather_fn ac_allgather_shm; /* through the node's shared memory (common/shm.h) */


/* Helper of this folder (uniform.c): runs an allgatherv engine with rcounts[i] = rcount and
 * displs[i] = i * rcount. MPI_ERR_COUNT if (p-1) * rcount does not fit an int. */
int ac_allgather_uniform(ac_allgatherv_fn *engine, const void *sbuf, int scount,
                         MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                         MPI_Comm comm, const ac_params *p);
/* The same for an engine written as a schedule: appends it to s. */
int ac_allgather_uniform_schedule(ac_allgatherv_sched_fn *engine, struct ac_sched *s,
                                  const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                  int rcount, MPI_Datatype rtype, const ac_params *p);
/* ac_allgather_<engine> and ac_allgather_<engine>_schedule: the allgatherv engine written as a
 * schedule, ac_allgatherv_<engine>(_schedule), with uniform counts. */
#define AC_ALLGATHER_BY_ALLGATHERV(engine)                                                     \
    int ac_allgather_##engine(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,    \
                              int rcount, MPI_Datatype rtype, MPI_Comm comm,                   \
                              const ac_params *p)                                              \
    {                                                                                          \
        return ac_allgather_uniform(ac_allgatherv_##engine, sbuf, scount, stype, rbuf, rcount, \
                                    rtype, comm, p);                                           \
    }                                                                                          \
    int ac_allgather_##engine##_schedule(struct ac_sched *s, const void *sbuf, int scount,     \
                                         MPI_Datatype stype, void *rbuf, int rcount,           \
                                         MPI_Datatype rtype, const ac_params *p)               \
    {                                                                                          \
        return ac_allgather_uniform_schedule(ac_allgatherv_##engine##_schedule, s, sbuf,       \
                                             scount, stype, rbuf, rcount, rtype, p);           \
    }

#endif
