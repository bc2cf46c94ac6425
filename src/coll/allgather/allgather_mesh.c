/*
 * allgather_mesh.c - 2D / 3D mesh all-gather (params->dims): all-gather along each mesh
 * dimension in turn, forwarding what was gathered. Cost (d0 + d1 [+ d2] - dims) alpha +
 * (p-1) n beta; any process count (factors of 1 allowed).
 * It runs the allgatherv engine ac_allgatherv_mesh with uniform counts; the algorithm, its
 * cost and requirements are described in src/coll/allgatherv/allgatherv_mesh.c.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1, "Algorithms for MPI_Allgather".
 */
#include "coll/algorithms.h"

AC_ALLGATHER_BY_ALLGATHERV(mesh)
