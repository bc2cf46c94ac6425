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

/* What an engine works with once started (ac_alltoallv_start): the call's arguments, the send
 * ones redirected to a private copy of rbuf's outgoing blocks for MPI_IN_PLACE (`copy`: free
 * it; NULL otherwise), the rank, the size, and the extents and sizes of both types. */
typedef struct ac_alltoallv_frame {
    const void *sbuf;
    const int *scounts, *sdispls;
    MPI_Datatype stype;
    void *rbuf;
    const int *rcounts, *rdispls;
    MPI_Datatype rtype;
    int rank, size;
    MPI_Aint sext, rext; /* extents of stype and rtype */
    int ssize, rsize;    /* sizes of stype and rtype */
    void *copy;
} ac_alltoallv_frame;

/* Helper of this folder (inplace.c): the start of every engine. Fills *f: copies the rank's own
 * block into rbuf; with MPI_IN_PLACE instead redirects the send arguments to a private copy of
 * rbuf's outgoing blocks (f->copy). f->copy, rank and size are set whatever it returns; the
 * extents and sizes on success. */
int ac_alltoallv_start(ac_alltoallv_frame *f, const void *sbuf, const int *scounts,
                       const int *sdispls, MPI_Datatype stype, void *rbuf, const int *rcounts,
                       const int *rdispls, MPI_Datatype rtype, MPI_Comm comm);

/* Helper of this folder (inplace.c): one phase of the phased engines (ring, pair), a single
 * sendrecv of the block for `to` and the block from `from`; an empty block (zero count or
 * type size) is neither sent nor received (type signatures match, so both sides agree). */
int ac_alltoallv_exchange(const ac_alltoallv_frame *f, int to, int from, MPI_Comm comm);

#endif
