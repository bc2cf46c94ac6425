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
 * Written as a schedule (common/sched.h): the pack in the first round's local steps, a round of
 * each exchange (MPI_Sendrecv of the segments in the blocking run, as before), then the gather
 * of the own blocks and the unpack.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "Recursive doubling";
 * Thakur, Rabenseifner, Gropp 2005 (recursive-doubling all-gather).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <limits.h>

int ac_alltoall_recursive_doubling_schedule(ac_sched *s, const void *sbuf, int scount,
                                            MPI_Datatype stype, void *rbuf, int rcount,
                                            MPI_Datatype rtype, const ac_params *p)
{
    int rank = s->rank, size = s->size, rsize;
    MPI_Datatype slot, segment;
    (void)p;
    if (!ac_is_pow2(size)) return MPI_ERR_COMM;
    PMPI_Type_size(rtype, &rsize);
    if (sbuf == MPI_IN_PLACE) sbuf = rbuf, scount = rcount, stype = rtype;
    MPI_Aint bytes = (MPI_Aint)rcount * rsize, seg = size * bytes;
    if (bytes == 0) return ac_sched_error(s);
    if (bytes > INT_MAX) return MPI_ERR_COUNT; /* the copies' counts are ints */
    char *table = ac_sched_tmp(s, size * seg, MPI_BYTE), *mine = ac_sched_tmp(s, seg, MPI_BYTE);
    int rc = table && mine ? ac_alltoall_slot_type(bytes, &slot) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Type_contiguous(size, slot, &segment);
    PMPI_Type_free(&slot); /* segment keeps what it needs */
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(&segment);
    if (rc != MPI_SUCCESS) return rc;
    ac_sched_own(s, segment);
    rc = ac_alltoall_pack_schedule(s, sbuf, scount, stype, 0, size, table + rank * seg, bytes);
    for (int mask = 1; mask < size && rc == MPI_SUCCESS; mask <<= 1) {
        int peer = rank ^ mask, have = rank & ~(mask - 1), get = peer & ~(mask - 1);
        ac_sched_send(s, table + have * seg, mask, segment, peer);
        ac_sched_recv(s, table + get * seg, mask, segment, peer);
        ac_sched_round(s);
        rc = ac_sched_error(s);
    }
    for (int j = 0; j < size && rc == MPI_SUCCESS; j++)
        ac_sched_copy(s, table + j * seg + rank * bytes, (int)bytes, MPI_BYTE, mine + j * bytes,
                      (int)bytes, MPI_BYTE);
    if (rc == MPI_SUCCESS)
        rc = ac_alltoall_unpack_schedule(s, mine, bytes, 0, size, rbuf, rcount, rtype);
    ac_sched_round(s);
    return rc;
}

AC_BLOCKS_BY_SCHEDULE(alltoall, recursive_doubling)
