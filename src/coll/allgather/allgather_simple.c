/*
 * allgather_simple.c - simple all-gather: all sends and receives posted at once. Cost (p-1) alpha +
 * (p-1) n beta for n-byte blocks; any process count.
 * It runs the allgatherv engine ac_allgatherv_simple with uniform counts; the algorithm, its
 * cost and requirements are described in src/coll/allgatherv/allgatherv_simple.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"

AC_ALLGATHER_BY_ALLGATHERV(simple)
