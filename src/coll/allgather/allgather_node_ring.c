/*
 * allgather_node_ring.c - node-ordered logical ring all-gather (STAR-MPI's TSLR idea: one ring
 * edge per node boundary), optionally synchronised (params->sync). Cost (p-1) alpha +
 * (p-1) n beta; any process count and placement.
 * It runs the allgatherv engine ac_allgatherv_node_ring with uniform counts; the algorithm, its
 * cost and requirements are described in src/coll/allgatherv/allgatherv_node_ring.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"

AC_ALLGATHER_BY_ALLGATHERV(node_ring)
