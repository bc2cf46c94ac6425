/* allgather.h - the allgather algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLGATHER_H
#define AUTOCOLL_ALLGATHER_H

#include "coll/coll.h"

ac_allgather_fn ac_allgather_native;
ac_allgather_sched_fn ac_allgather_native_schedule;
ac_allgather_fn ac_allgather_orthogonal; /* p->dims, p->layout, p->phase (common/mesh.h) */
ac_allgather_fn ac_allgather_simple;
ac_allgather_sched_fn ac_allgather_simple_schedule;
ac_allgather_fn ac_allgather_mesh; /* p->dims = 2 or 3 (NULL or 0: 2) */
ac_allgather_fn ac_allgather_recursive_doubling;
ac_allgather_fn ac_allgather_bruck;
ac_allgather_fn ac_allgather_ring;      /* p->sync */
ac_allgather_sched_fn ac_allgather_ring_schedule;
ac_allgather_fn ac_allgather_pair;      /* power-of-two size only; p->sync */
ac_allgather_sched_fn ac_allgather_pair_schedule;
ac_allgather_fn ac_allgather_node_ring; /* p->sync */
ac_allgather_fn ac_allgather_hier;      /* p->intra, p->phase (hierarchical.c) */


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
