/*
 * allgather_pair.c - pairwise-exchange all-gather with r XOR i, optionally with a light or
 * MPI barrier between steps (params->sync). Cost (p-1) alpha + (p-1) n beta; power-of-two
 * process count only.
 * It runs the allgatherv engine ac_allgatherv_pair with uniform counts; the algorithm, its
 * cost and requirements are described in src/coll/allgatherv/allgatherv_pair.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"

AC_ALLGATHER_BY_ALLGATHERV(pair)
