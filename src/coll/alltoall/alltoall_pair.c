/*
 * alltoall_pair.c - all-to-all by pairwise exchange: in phase i rank r exchanges with r XOR i.
 *
 * params->sync separates the phases: nothing, a light barrier (zero-byte token with the next
 * partner) or MPI_Barrier. This is the alltoallv engine ac_alltoallv_pair with uniform counts.
 * Cost (p a power of two): (p-1) alpha + (p-1) n beta for blocks of n bytes, plus p-2 barriers.
 * Non-power-of-two p: the P-1 phases of the next power of two P run, and a rank whose partner
 * is >= p idles in that phase (a generalisation; STAR-MPI defines pair for powers of two only).
 * MPI_IN_PLACE: sends from a copy of the receive buffer.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "Pair", "Pair with light
 * barrier", "Pair with MPI barrier".
 */
#include "coll/algorithms.h"

AC_ALLTOALL_BY_ALLTOALLV(pair)
