/*
 * allgather_ring.c - ring all-gather, optionally with a light or MPI barrier between steps
 * (params->sync). Cost (p-1) alpha + (p-1) n beta; any process count.
 * It runs the allgatherv engine ac_allgatherv_ring with uniform counts; the algorithm, its
 * cost and requirements are described in src/coll/allgatherv/allgatherv_ring.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"

AC_ALLGATHER_BY_ALLGATHERV(ring)
