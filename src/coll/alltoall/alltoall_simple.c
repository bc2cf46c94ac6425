/*
 * alltoall_simple.c - all-to-all by posting every receive and every send at once.
 *
 * Rank i receives from i-1, i-2, ... and sends to i+1, i+2, ..., i+p-1 (mod p), all requests in
 * flight together; this is the alltoallv engine ac_alltoallv_simple with uniform counts.
 * Cost: (p-1) alpha + (p-1) n beta for blocks of n bytes, no control over contention.
 * Requirements: none; any process count. MPI_IN_PLACE: sends from a copy of the receive buffer.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "Simple".
 */
#include "coll/algorithms.h"

AC_ALLTOALL_BY_ALLTOALLV(simple)
