/*
 * allgather_ring.c - ring all-gather, optionally with a light or MPI barrier between steps
 * (params->sync). Cost (p-1) alpha + (p-1) n beta; any process count.
 * It runs the allgatherv engine ac_allgatherv_ring with uniform counts; the algorithm, its
 * cost and requirements are described in src/coll/allgatherv/allgatherv_ring.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_allgather_ring(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    return ac_allgather_uniform(ac_allgatherv_ring, sbuf, scount, stype, rbuf, rcount, rtype, comm,
                                p);
}

int ac_allgather_ring_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                               void *rbuf, int rcount, MPI_Datatype rtype, const ac_params *p)
{
    return ac_allgather_uniform_schedule(ac_allgatherv_ring_schedule, s, sbuf, scount, stype,
                                         rbuf, rcount, rtype, p);
}
