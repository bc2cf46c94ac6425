/*
 * allgather_shm.c - allgather through the node's shared memory (common/shm.h): chunk by chunk
 * every rank copies its part of its block, packed, into its slot of the window, and after the
 * barrier that publishes them copies every other rank's slot out into its place in the receive
 * buffer; a rank writes the next chunk into the other half while the others read this one. No
 * message carries data.
 *
 * Requirements: every rank on one node and a window the MPI library provides (SMPI: the
 * platform prices a copy), AC_REQ_SHARED_MEMORY; all blocks together fit an int (packed).
 * MPI_IN_PLACE. Where the window cannot be made, the library's MPI_Allgather. Blocking only
 * (its barriers are the library's).
 *
 * Cost (p ranks, blocks of n bytes, c chunks): (p - 1) n copy on every rank, at once + one
 * chunk's copy + c barriers of ceil(log2 p) intra-node steps.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/shm.h"

#include <string.h>

int ac_allgather_shm(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                     MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    (void)p;
    int rank, size, tsize, rc;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int in_place = sbuf == MPI_IN_PLACE;
    PMPI_Type_size(rtype, &tsize);
    size_t block = (size_t)rcount * (size_t)tsize;
    if (block == 0) return MPI_SUCCESS;
    if (size == 1) return in_place ? MPI_SUCCESS : ac_copy(sbuf, scount, stype, rbuf, rcount, rtype);
    size_t slot = ac_shm_slot(block);
    ac_shm *shm;
    if ((rc = ac_shm_get(comm, slot * (size_t)size, &shm)) != MPI_SUCCESS) return rc;
    if (!shm) return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    ac_bytes b; /* every block, this rank's own loaded where it is in place */
    if ((rc = ac_bytes_get(&b, rbuf, rcount * size, rtype, in_place, comm)) != MPI_SUCCESS)
        return rc;
    char *mine = b.data + (size_t)rank * block;
    if (!in_place) {
        int at = 0;
        rc = ac_pack(sbuf, scount, stype, mine, (int)block, &at, comm);
    }
    for (size_t first = 0; first < block && rc == MPI_SUCCESS; first += slot) {
        size_t n = block - first < slot ? block - first : slot;
        char *half = ac_shm_next(shm);
        memcpy(half + (size_t)rank * slot, mine + first, n);
        ac_shm_copied(n);
        rc = ac_shm_publish(shm, comm);
        for (int i = 0; rc == MPI_SUCCESS && i < size; i++) {
            if (i == rank) continue;
            memcpy(b.data + (size_t)i * block + first, half + (size_t)i * slot, n);
            ac_shm_copied(n);
        }
    }
    return ac_bytes_release(&b, rbuf, rcount * size, rtype, 1, comm, rc);
}
