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
 * Written as a schedule (common/sched.h): a round of each step (MPI_Sendrecv of n slots in the
 * blocking run, as before) whose local steps store the previous step's slots and gather this
 * step's (copies), the packs in the first round's, the rotation and the unpacks in the last.
 * Source: Bruck, Ho, Kipnis, Upfal, Weathersby, IEEE TPDS 8(11), 1997; STAR-MPI section 3.1;
 * Thakur, Rabenseifner, Gropp 2005.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <limits.h>

/* bytes at `from` copied to `to`, as a local step */
static void copy_bytes(ac_sched *s, const char *from, char *to, MPI_Aint bytes)
{
    ac_sched_copy(s, from, (int)bytes, MPI_BYTE, to, (int)bytes, MPI_BYTE);
}

int ac_alltoall_bruck_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                               void *rbuf, int rcount, MPI_Datatype rtype, const ac_params *p)
{
    int rank = s->rank, size = s->size, rsize;
    MPI_Datatype slot;
    (void)p;
    PMPI_Type_size(rtype, &rsize);
    if (sbuf == MPI_IN_PLACE) sbuf = rbuf, scount = rcount, stype = rtype;
    MPI_Aint bytes = (MPI_Aint)rcount * rsize;
    if (bytes == 0) return ac_sched_error(s);
    if (bytes > INT_MAX) return MPI_ERR_COUNT; /* the copies' counts are ints */
    char *rot = ac_sched_tmp(s, size * bytes, MPI_BYTE);
    char *out = ac_sched_tmp(s, size * bytes, MPI_BYTE);
    char *sendb = ac_sched_tmp(s, (size / 2 + 1) * bytes, MPI_BYTE);
    char *recvb = ac_sched_tmp(s, (size / 2 + 1) * bytes, MPI_BYTE);
    int rc = rot && out && sendb && recvb ? ac_alltoall_slot_type(bytes, &slot) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) return rc;
    ac_sched_own(s, slot);
    rc = ac_alltoall_pack_schedule(s, sbuf, scount, stype, rank, size - rank, rot, bytes);
    if (rc == MPI_SUCCESS)
        rc = ac_alltoall_pack_schedule(s, sbuf, scount, stype, 0, rank,
                                       rot + (size - rank) * bytes, bytes);
    for (int dist = 1, last = 0; dist < size && rc == MPI_SUCCESS; last = dist, dist <<= 1) {
        int n = 0;
        for (int i = last; last && i < size; i++) /* the previous step's slots, received */
            if (i & last) copy_bytes(s, recvb + (n++) * bytes, rot + i * bytes, bytes);
        n = 0;
        for (int i = dist; i < size; i++)
            if (i & dist) copy_bytes(s, rot + i * bytes, sendb + (n++) * bytes, bytes);
        ac_sched_send(s, sendb, n, slot, (rank + dist) % size);
        ac_sched_recv(s, recvb, n, slot, (rank - dist + size) % size);
        ac_sched_round(s);
        rc = ac_sched_error(s);
    }
    int last = 1;
    while (last * 2 < size)
        last *= 2;
    for (int i = last, n = 0; size > 1 && i < size && rc == MPI_SUCCESS; i++)
        if (i & last) copy_bytes(s, recvb + (n++) * bytes, rot + i * bytes, bytes);
    for (int j = 0; j < size && rc == MPI_SUCCESS; j++)
        copy_bytes(s, rot + ((rank - j + size) % size) * bytes, out + j * bytes, bytes);
    if (rc == MPI_SUCCESS)
        rc = ac_alltoall_unpack_schedule(s, out, bytes, 0, size, rbuf, rcount, rtype);
    ac_sched_round(s);
    return rc;
}

AC_BLOCKS_BY_SCHEDULE(alltoall, bruck)
