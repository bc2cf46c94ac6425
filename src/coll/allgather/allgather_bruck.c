/*
 * allgather_bruck.c - Bruck all-gather: ceil(lg p) steps at distances 2^k. Cost ceil(lg p)
 * alpha + (p-1) n beta; any process count.
 * It runs the allgatherv engine ac_allgatherv_bruck with uniform counts; the algorithm, its
 * cost and requirements are described in src/coll/allgatherv/allgatherv_bruck.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"

int ac_allgather_bruck(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    return ac_allgather_uniform(ac_allgatherv_bruck, sbuf, scount, stype, rbuf, rcount, rtype, comm,
                                p);
}
