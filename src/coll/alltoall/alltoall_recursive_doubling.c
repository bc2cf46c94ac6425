/*
 * alltoall_recursive_doubling.c - all-to-all as an all-gather of everything by recursive
 * doubling, after which each rank keeps its own blocks.
 *
 * Every rank packs its p outgoing blocks (bytes, independent of the user's types) into its
 * segment of a p x p table. In step k it exchanges with rank r XOR 2^k all 2^k segments it has
 * so far, so after lg p steps every rank holds the whole table; it then unpacks block r of every
 * segment. This is the lg(p)-dimensional mesh with 2 ranks per dimension, taken to the extreme.
 * Cost: lg(p) alpha + (p-1) p n beta for blocks of n bytes, and p^2 n bytes of memory per rank:
 * a small-message algorithm (STAR-MPI uses it up to 256 B).
 * Requirements: power-of-two process count (AC_REQ_POWER_OF_TWO; other counts return
 * MPI_ERR_COMM). MPI_IN_PLACE: the receive buffer is packed first.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "Recursive doubling";
 * Thakur, Rabenseifner, Gropp 2005 (recursive-doubling all-gather).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>
#include <string.h>

int ac_alltoall_recursive_doubling(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                   int rcount, MPI_Datatype rtype, MPI_Comm comm,
                                   const ac_params *p)
{
    int rc = MPI_SUCCESS, rank, size;
    MPI_Datatype slot = MPI_DATATYPE_NULL, segment = MPI_DATATYPE_NULL;
    char *table = NULL, *mine = NULL;
    (void)p;
    MPI_Aint bytes =
        ac_alltoall_slots_start(comm, &sbuf, &scount, &stype, rbuf, rcount, rtype, &rank, &size);
    MPI_Aint seg = size * bytes;
    if (!ac_is_pow2(size)) return MPI_ERR_COMM;
    if (bytes == 0) return MPI_SUCCESS;
    table = malloc((size_t)(size * seg));
    mine = malloc((size_t)seg);
    if (!table || !mine) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    rc = ac_alltoall_slot_type(bytes, &slot);
    if (rc != MPI_SUCCESS) goto out;
    rc = PMPI_Type_contiguous(size, slot, &segment);
    if (rc != MPI_SUCCESS) goto out;
    rc = PMPI_Type_commit(&segment);
    if (rc != MPI_SUCCESS) goto out;
    rc = ac_alltoall_pack(sbuf, scount, stype, 0, size, table + rank * seg, bytes, comm);
    if (rc != MPI_SUCCESS) goto out;
    for (int mask = 1; mask < size; mask <<= 1) {
        int peer = rank ^ mask, have = rank & ~(mask - 1), get = peer & ~(mask - 1);
        rc = PMPI_Sendrecv(table + have * seg, mask, segment, peer, AC_TAG_DATA,
                           table + get * seg, mask, segment, peer, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) goto out;
    }
    for (int j = 0; j < size; j++)
        memcpy(mine + j * bytes, table + j * seg + rank * bytes, (size_t)bytes);
    rc = ac_alltoall_unpack(mine, bytes, 0, size, rbuf, rcount, rtype, comm);
out:
    if (segment != MPI_DATATYPE_NULL) PMPI_Type_free(&segment);
    if (slot != MPI_DATATYPE_NULL) PMPI_Type_free(&slot);
    free(mine);
    free(table);
    return rc;
}
