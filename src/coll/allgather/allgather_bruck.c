/*
 * allgather_bruck.c - Bruck all-gather: ceil(lg p) steps at distances 2^k. Cost ceil(lg p)
 * alpha + (p-1) n beta; any process count.
 * It runs the allgatherv engine ac_allgatherv_bruck with uniform counts; the algorithm, its
 * cost and requirements are described in src/coll/allgatherv/allgatherv_bruck.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"

AC_ALLGATHER_BY_ALLGATHERV(bruck)
