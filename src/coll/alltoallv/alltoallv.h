/* alltoallv.h - the alltoallv algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLTOALLV_H
#define AUTOCOLL_ALLTOALLV_H

#include "coll/coll.h"

ac_alltoallv_fn ac_alltoallv_native;
ac_alltoallv_fn ac_alltoallv_simple;
ac_alltoallv_fn ac_alltoallv_ring;
ac_alltoallv_fn ac_alltoallv_pair;

/* Helper of this folder (inplace.c). For MPI_IN_PLACE: a private copy of the outgoing blocks
 * of `rbuf` (every block but `self`'s), addressed like `rbuf`, so that block i is found at
 * *sbuf + rdispls[i] * extent(rtype). Free *base with free() (it may be NULL on success). */
int ac_alltoallv_inplace_copy(const void *rbuf, const int *rcounts, const int *rdispls,
                              MPI_Datatype rtype, int size, int self, void **base,
                              const void **sbuf);

/* Helper of this folder (inplace.c): the start of every engine. Copies the rank's own block
 * into rbuf; with MPI_IN_PLACE instead redirects the send arguments (*sbuf, *scounts, *sdispls,
 * *stype) to a private copy of rbuf's outgoing blocks, returned in *copy (free it; NULL
 * otherwise). */
int ac_alltoallv_start(const void **sbuf, const int **scounts, const int **sdispls,
                       MPI_Datatype *stype, void *rbuf, const int *rcounts, const int *rdispls,
                       MPI_Datatype rtype, int size, int rank, void **copy);

#endif
