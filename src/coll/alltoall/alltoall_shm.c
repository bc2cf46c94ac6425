/*
 * alltoall_shm.c - alltoall through the node's shared memory (common/shm.h): chunk by chunk
 * every rank copies its part of each block it sends, packed, into the slot of the window that
 * is its row and the receiver's column, and after the barrier that publishes them copies its
 * column out into its receive buffer; a rank writes the next chunk into the other half while
 * the others read this one. A chunk's slot is 64 KiB / p bytes (ac_shm_alltoall_slot), so a
 * half holds p x 64 KiB. No message carries data.
 *
 * Requirements: every rank on one node and a window the MPI library provides (SMPI: the
 * platform prices a copy), AC_REQ_SHARED_MEMORY; all blocks together fit an int (packed).
 * MPI_IN_PLACE (a chunk's parts are all copied into the window before any is copied back
 * over them). Where the window cannot be made, the library's MPI_Alltoall. Blocking only (its
 * barriers are the library's).
 *
 * Cost (p ranks, blocks of n bytes, c chunks of n / slot): 2 (p - 1) n copy on every rank, at
 * once + c barriers of ceil(log2 p) intra-node steps.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/shm.h"

#include <string.h>

int ac_alltoall_shm(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                    MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    int rank, size, tsize, rc;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int in_place = sbuf == MPI_IN_PLACE;
    PMPI_Type_size(rtype, &tsize);
    size_t block = (size_t)rcount * (size_t)tsize, p2 = (size_t)size * (size_t)size;
    if (block == 0) return MPI_SUCCESS;
    if (size == 1) return in_place ? MPI_SUCCESS : ac_copy(sbuf, scount, stype, rbuf, rcount, rtype);
    size_t slot = ac_shm_alltoall_slot(block, size);
    ac_shm *shm;
    if ((rc = ac_shm_get(comm, slot * p2, &shm)) != MPI_SUCCESS) return rc;
    if (!shm) return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    ac_bytes r, s; /* every block received; every block sent (in place: the same bytes) */
    if ((rc = ac_bytes_get(&r, rbuf, rcount * size, rtype, in_place, comm)) != MPI_SUCCESS)
        return rc;
    if (in_place) {
        s = r;
    } else if ((rc = ac_bytes_get(&s, sbuf, scount * size, stype, 1, comm)) == MPI_SUCCESS) {
        memcpy(r.data + (size_t)rank * block, s.data + (size_t)rank * block, block);
    } else {
        return ac_bytes_release(&r, rbuf, rcount * size, rtype, 0, comm, rc);
    }
    for (size_t first = 0; first < block && rc == MPI_SUCCESS; first += slot) {
        size_t n = block - first < slot ? block - first : slot;
        char *half = ac_shm_next(shm);
        for (int j = 0; j < size; j++) {
            if (j == rank) continue;
            memcpy(half + ((size_t)rank * size + j) * slot, s.data + (size_t)j * block + first, n);
            ac_shm_copied(n);
        }
        rc = ac_shm_publish(shm, comm);
        for (int i = 0; rc == MPI_SUCCESS && i < size; i++) {
            if (i == rank) continue;
            memcpy(r.data + (size_t)i * block + first, half + ((size_t)i * size + rank) * slot, n);
            ac_shm_copied(n);
        }
    }
    if (!in_place) rc = ac_bytes_release(&s, (void *)sbuf, scount * size, stype, 0, comm, rc);
    return ac_bytes_release(&r, rbuf, rcount * size, rtype, 1, comm, rc);
}
