/*
 * allreduce_shm.c - all-reduce through the node's shared memory (common/shm.h,
 * ac_shm_reduce): reduce_shm.c's reduction, after which every rank copies the reduced chunk
 * out (the same bits on every rank: one copy of the result, read by all). No message carries
 * data. Any op (rank order kept).
 *
 * Requirements: every rank on one node and a window the MPI library provides (SMPI: the
 * platform prices a copy), AC_REQ_SHARED_MEMORY. Where the window cannot be made, the
 * library's MPI_Allreduce. Blocking only (its barriers are the library's).
 *
 * Cost (p ranks, n bytes, c chunks): n copy in + (p - 1) / p n read and reduced + n copy out,
 * every rank at once + 2 c barriers of ceil(log2 p) intra-node steps.
 */
#include "coll/algorithms.h"
#include "coll/common/shm.h"

int ac_allreduce_shm(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                     MPI_Comm comm, const ac_params *p)
{
    (void)p;
    return ac_shm_reduce(sbuf, rbuf, count, dtype, op, -1, comm);
}
