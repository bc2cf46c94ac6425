/*
 * alltoall_ring.c - all-to-all in p-1 ring phases: in phase i rank r sends to (r+i) mod p and
 * receives from (r-i) mod p.
 *
 * params->sync separates the phases: nothing, a light barrier (zero-byte ready tokens) or
 * MPI_Barrier. This is the alltoallv engine ac_alltoallv_ring with uniform counts.
 * Cost: (p-1) alpha + (p-1) n beta for blocks of n bytes, plus p-2 light or full barriers.
 * Requirements: none; any process count. MPI_IN_PLACE: sends from a copy of the receive buffer.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "Ring", "Ring with light
 * barrier", "Ring with MPI barrier".
 */
#include "coll/algorithms.h"

AC_ALLTOALL_BY_ALLTOALLV(ring)
