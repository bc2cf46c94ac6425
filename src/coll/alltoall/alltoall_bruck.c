/*
 * alltoall_bruck.c - Bruck's all-to-all in ceil(lg p) steps.
 *
 * Each rank packs its blocks (bytes, independent of the user's types) rotated so that slot i
 * holds the block for rank (r+i) mod p. In step k it sends to (r + 2^k) mod p, combined in one
 * message, every slot whose index has bit k set, and receives the same slots from
 * (r - 2^k) mod p. Afterwards slot i holds the block from rank (r-i) mod p; the inverse rotation
 * puts the blocks in source order and they are unpacked into the receive buffer.
 * Cost: ceil(lg p) alpha + about (p/2) ceil(lg p) n beta for blocks of n bytes, plus local
 * copies: fewer start-ups than any direct algorithm, more volume. A small-message algorithm
 * (STAR-MPI uses it up to 256 B).
 * Requirements: none; any process count (the last step sends fewer slots when p is not a power
 * of two). MPI_IN_PLACE: the receive buffer is packed first.
 * Source: Bruck, Ho, Kipnis, Upfal, Weathersby, IEEE TPDS 8(11), 1997; STAR-MPI section 3.1;
 * Thakur, Rabenseifner, Gropp 2005.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>
#include <string.h>

int ac_alltoall_bruck(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    int rc = MPI_SUCCESS, rank, size;
    MPI_Datatype slot = MPI_DATATYPE_NULL;
    char *rot = NULL, *out = NULL, *sendb = NULL, *recvb = NULL;
    (void)p;
    MPI_Aint bytes =
        ac_alltoall_slots_start(comm, &sbuf, &scount, &stype, rbuf, rcount, rtype, &rank, &size);
    if (bytes == 0) return MPI_SUCCESS;
    rot = malloc((size_t)(size * bytes));
    out = malloc((size_t)(size * bytes));
    sendb = malloc((size_t)((size / 2 + 1) * bytes));
    recvb = malloc((size_t)((size / 2 + 1) * bytes));
    if (!rot || !out || !sendb || !recvb) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    rc = ac_alltoall_slot_type(bytes, &slot);
    if (rc != MPI_SUCCESS) goto out;
    rc = ac_alltoall_pack(sbuf, scount, stype, rank, size - rank, rot, bytes, comm);
    if (rc != MPI_SUCCESS) goto out;
    rc = ac_alltoall_pack(sbuf, scount, stype, 0, rank, rot + (size - rank) * bytes, bytes, comm);
    if (rc != MPI_SUCCESS) goto out;
    for (int dist = 1; dist < size; dist <<= 1) {
        int n = 0;
        for (int i = dist; i < size; i++)
            if (i & dist) memcpy(sendb + (n++) * bytes, rot + i * bytes, (size_t)bytes);
        rc = PMPI_Sendrecv(sendb, n, slot, (rank + dist) % size, AC_TAG_DATA, recvb, n, slot,
                           (rank - dist + size) % size, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) goto out;
        n = 0;
        for (int i = dist; i < size; i++)
            if (i & dist) memcpy(rot + i * bytes, recvb + (n++) * bytes, (size_t)bytes);
    }
    for (int j = 0; j < size; j++)
        memcpy(out + j * bytes, rot + ((rank - j + size) % size) * bytes, (size_t)bytes);
    rc = ac_alltoall_unpack(out, bytes, 0, size, rbuf, rcount, rtype, comm);
out:
    if (slot != MPI_DATATYPE_NULL) PMPI_Type_free(&slot);
    free(recvb);
    free(sendb);
    free(out);
    free(rot);
    return rc;
}
