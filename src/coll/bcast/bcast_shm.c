/*
 * bcast_shm.c - bcast through the node's shared memory (common/shm.h): the root copies the
 * message, packed, into the window chunk by chunk (AC_SHM_CHUNK bytes), and every other rank
 * copies each chunk out after the barrier that publishes it; the root writes the next chunk
 * into the other half while the others read this one. No message carries data.
 *
 * Requirements: every rank on one node and a window the MPI library provides (SMPI: the
 * platform prices a copy), AC_REQ_SHARED_MEMORY; the message fits an int (packed). Where the
 * window cannot be made, the library's MPI_Bcast. Blocking only (its barriers are the
 * library's): a hierarchical instance with it inside its nodes runs for blocking calls only.
 *
 * Cost (p ranks, n bytes, c chunks): n copy (the root's copies and the others' overlap chunk by
 * chunk) + one chunk's copy + c barriers of ceil(log2 p) intra-node steps.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/shm.h"

#include <string.h>

int ac_bcast_shm(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                 const ac_params *p)
{
    (void)p;
    int rank, size, tsize, rc;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    PMPI_Type_size(dtype, &tsize);
    size_t bytes = (size_t)count * (size_t)tsize;
    if (size == 1 || bytes == 0) return MPI_SUCCESS;
    ac_shm *shm;
    if ((rc = ac_shm_get(comm, AC_SHM_CHUNK, &shm)) != MPI_SUCCESS) return rc;
    if (!shm) return PMPI_Bcast(buf, count, dtype, root, comm);
    ac_bytes b;
    if ((rc = ac_bytes_get(&b, buf, count, dtype, rank == root, comm)) != MPI_SUCCESS) return rc;
    for (size_t first = 0; first < bytes && rc == MPI_SUCCESS; first += AC_SHM_CHUNK) {
        size_t n = bytes - first < AC_SHM_CHUNK ? bytes - first : AC_SHM_CHUNK;
        char *half = ac_shm_next(shm);
        if (rank == root) {
            memcpy(half, b.data + first, n);
            ac_shm_copied(n);
        }
        rc = ac_shm_publish(shm, comm);
        if (rc == MPI_SUCCESS && rank != root) {
            memcpy(b.data + first, half, n);
            ac_shm_copied(n);
        }
    }
    return ac_bytes_release(&b, buf, count, dtype, rank != root, comm, rc);
}
