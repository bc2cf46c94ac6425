/*
 * allgather_recursive_doubling.c - recursive-doubling all-gather: lg p exchanges with
 * r XOR 2^k. Cost lg p alpha + (p-1) n beta; non-powers of two fold pairs of ranks (two extra
 * steps).
 * It runs the allgatherv engine ac_allgatherv_recursive_doubling with uniform counts; the
 * algorithm, its cost and requirements are described in
 * src/coll/allgatherv/allgatherv_recursive_doubling.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"

AC_ALLGATHER_BY_ALLGATHERV(recursive_doubling)
