/*
 * reduce_shm.c - reduce through the node's shared memory (common/shm.h, ac_shm_reduce): chunk
 * by chunk, every rank copies its part of the vector into its slot of the window, reduces its
 * 1/p share of the chunk's elements over all p slots in rank order, and the root copies the
 * reduced chunk out; two barriers a chunk. No message carries data. Any op (rank order kept);
 * derived datatypes keep their layout in the slots.
 *
 * Requirements: every rank on one node and a window the MPI library provides (SMPI: the
 * platform prices a copy), AC_REQ_SHARED_MEMORY. Where the window cannot be made, the
 * library's MPI_Reduce. Blocking only (its barriers are the library's).
 *
 * Cost (p ranks, n bytes, c chunks of AC_SHM_CHUNK a rank): n copy in + (p - 1) / p n read
 * from the other slots and reduced + n copy out at the root + 2 c barriers of ceil(log2 p)
 * intra-node steps.
 */
#include "coll/algorithms.h"
#include "coll/common/shm.h"

int ac_reduce_shm(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                  int root, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return ac_shm_reduce(sbuf, rbuf, count, dtype, op, root, comm);
}
