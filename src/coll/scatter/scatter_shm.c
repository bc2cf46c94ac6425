/*
 * scatter_shm.c - scatter through the node's shared memory (common/shm.h): chunk by chunk the
 * root copies its part of every other rank's block, packed, into that rank's slot of the
 * window, and after the barrier that publishes them every rank copies its slot out; the root
 * writes the next chunk into the other half while the others read this one. No message
 * carries data.
 *
 * Requirements: every rank on one node and a window the MPI library provides (SMPI: the
 * platform prices a copy), AC_REQ_SHARED_MEMORY; all blocks together fit an int (packed).
 * MPI_IN_PLACE at the root. Where the window cannot be made, the library's MPI_Scatter.
 * Blocking only (its barriers are the library's).
 *
 * Cost (p ranks, blocks of n bytes, c chunks): (p - 1) n copy at the root (the others' copies
 * out overlap it chunk by chunk) + one chunk's copy + c barriers of ceil(log2 p) intra-node
 * steps.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/shm.h"

#include <string.h>

int ac_scatter_shm(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                   MPI_Datatype rtype, int root, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    int rank, size, tsize, rc;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int is_root = rank == root, in_place = is_root && rbuf == MPI_IN_PLACE;
    PMPI_Type_size(is_root ? stype : rtype, &tsize);
    size_t block = (size_t)(is_root ? scount : rcount) * (size_t)tsize;
    if (block == 0) return MPI_SUCCESS;
    if (size == 1) return in_place ? MPI_SUCCESS : ac_copy(sbuf, scount, stype, rbuf, rcount, rtype);
    size_t slot = ac_shm_slot(block);
    ac_shm *shm;
    if ((rc = ac_shm_get(comm, slot * (size_t)size, &shm)) != MPI_SUCCESS) return rc;
    if (!shm) return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    ac_bytes b; /* the root: every block; the others: their own */
    if (is_root)
        rc = ac_bytes_get(&b, sbuf, scount * size, stype, 1, comm);
    else
        rc = ac_bytes_get(&b, rbuf, rcount, rtype, 0, comm);
    if (rc != MPI_SUCCESS) return rc;
    if (is_root && !in_place) {
        int at = 0;
        rc = ac_unpack(b.data + (size_t)root * block, (int)block, &at, rbuf, rcount, rtype, comm);
    }
    for (size_t first = 0; first < block && rc == MPI_SUCCESS; first += slot) {
        size_t n = block - first < slot ? block - first : slot;
        char *half = ac_shm_next(shm);
        for (int i = 0; is_root && i < size; i++) {
            if (i == root) continue;
            memcpy(half + (size_t)i * slot, b.data + (size_t)i * block + first, n);
            ac_shm_copied(n);
        }
        rc = ac_shm_publish(shm, comm);
        if (rc == MPI_SUCCESS && !is_root) {
            memcpy(b.data + first, half + (size_t)rank * slot, n);
            ac_shm_copied(n);
        }
    }
    if (is_root) return ac_bytes_release(&b, (void *)sbuf, scount * size, stype, 0, comm, rc);
    return ac_bytes_release(&b, rbuf, rcount, rtype, 1, comm, rc);
}
