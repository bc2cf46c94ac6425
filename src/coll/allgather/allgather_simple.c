/*
 * allgather_simple.c - simple all-gather: all sends and receives posted at once. Cost (p-1) alpha +
 * (p-1) n beta for n-byte blocks; any process count.
 * It runs the allgatherv engine ac_allgatherv_simple with uniform counts; the algorithm, its
 * cost and requirements are described in src/coll/allgatherv/allgatherv_simple.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_allgather_simple(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    return ac_allgather_uniform(ac_allgatherv_simple, sbuf, scount, stype, rbuf, rcount, rtype,
                                comm, p);
}

int ac_allgather_simple_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                           void *rbuf, int rcount, MPI_Datatype rtype, const ac_params *p)
{
    return ac_allgather_uniform_schedule(ac_allgatherv_simple_schedule, s, sbuf, scount, stype,
                                         rbuf, rcount, rtype, p);
}
