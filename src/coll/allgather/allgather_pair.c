/*
 * allgather_pair.c - pairwise-exchange all-gather with r XOR i, optionally with a light or
 * MPI barrier between steps (params->sync). Cost (p-1) alpha + (p-1) n beta; power-of-two
 * process count only.
 * It runs the allgatherv engine ac_allgatherv_pair with uniform counts; the algorithm, its
 * cost and requirements are described in src/coll/allgatherv/allgatherv_pair.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"
#include "coll/common/sched.h"

int ac_allgather_pair(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    return ac_allgather_uniform(ac_allgatherv_pair, sbuf, scount, stype, rbuf, rcount, rtype, comm,
                                p);
}

int ac_allgather_pair_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                           void *rbuf, int rcount, MPI_Datatype rtype, const ac_params *p)
{
    return ac_allgather_uniform_schedule(ac_allgatherv_pair_schedule, s, sbuf, scount, stype,
                                         rbuf, rcount, rtype, p);
}
