/*
 * allgatherv_recursive_doubling.c - recursive-doubling all-gather (STAR-MPI section 3.1, "rd";
 * Thakur, Rabenseifner, Gropp 2005): lg p steps; in step k rank r exchanges everything it has
 * gathered (the blocks of its 2^k-rank sub-cube) with rank r XOR 2^k. The sub-cubes are runs of
 * consecutive ranks, so each step is one message from a packed copy of the blocks (blocks.c),
 * unpacked into rbuf at the end: rtype's layout never matters.
 *
 * Non-powers of two (p = p2 + rem, p2 the largest power of two below p) fold pairs of ranks,
 * as Rabenseifner / MPICH allreduce does: for i < rem, even rank 2i first sends its block to
 * 2i+1 and sits out; the p2 remaining ranks run recursive doubling as virtual ranks (2i+1 ->
 * i, r >= 2 rem -> r - rem), whose sub-cubes are still runs of consecutive real ranks; at the
 * end 2i+1 sends the whole result to 2i. With folding: (lg p2 + 2) alpha and up to
 * (2p - 1) n beta on the folded ranks.
 *
 * Cost: lg p alpha + (p-1) n beta for n-byte blocks and power-of-two p, plus packing every
 * block once.
 * Requirements: none; any process count.
 * Written as a schedule (common/sched.h): a round packing the own block (and the fold's
 * message), a round of each exchange (MPI_Sendrecv in the blocking run, as before), the
 * unfold's round, then a round of the unpacks: nonblocking and persistent calls progress it.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1; Thakur, Rabenseifner, Gropp,
 * "Optimization of collective communication operations in MPICH", IJHPCA 2005.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <stdlib.h>

/* First real rank whose block virtual rank v holds at the start (v = p2 gives p). */
static int first_rank(int v, int rem)
{
    return v < rem ? 2 * v : v + rem;
}

/* The message of slots [first, last) to or from `peer`, appended to the current round. */
static int packed_message(ac_sched *s, const ac_allgatherv_packed *pk, int first, int last,
                          int peer, int sending)
{
    char *addr;
    int bytes, rc = ac_allgatherv_pack_run(pk, first, last, &addr, &bytes);
    if (rc != MPI_SUCCESS) return rc;
    if (sending)
        ac_sched_send(s, addr, bytes, MPI_PACKED, peer);
    else
        ac_sched_recv(s, addr, bytes, MPI_PACKED, peer);
    return ac_sched_error(s);
}

int ac_allgatherv_recursive_doubling_schedule(ac_sched *s, const void *sbuf, int scount,
                                              MPI_Datatype stype, void *rbuf, const int *rcounts,
                                              const int *displs, MPI_Datatype rtype,
                                              const ac_params *p)
{
    ac_allgatherv_packed pk;
    (void)p;
    int rc = ac_allgatherv_pack_schedule(s, &pk, sbuf, scount, stype, rbuf, rcounts, displs,
                                         rtype, 0);
    if (rc != MPI_SUCCESS) return rc;
    int rank = s->rank, size = s->size;
    int p2 = ac_pow2_floor(size), rem = size - p2;
    int folded = rank < 2 * rem && rank % 2 == 0;
    int vrank = rank < 2 * rem ? rank / 2 : rank - rem;

    if (rank < 2 * rem) { /* the folded rank's block: sent by 2i, received by 2i+1 */
        int block = folded ? rank : rank - 1;
        rc = packed_message(s, &pk, block, block + 1, folded ? rank + 1 : rank - 1, folded);
    }
    ac_sched_round(s);
    for (int mask = 1; !folded && mask < p2 && rc == MPI_SUCCESS; mask <<= 1) {
        int vpeer = vrank ^ mask;
        int mine = vrank & ~(mask - 1), theirs = vpeer & ~(mask - 1);
        int peer = vpeer < rem ? 2 * vpeer + 1 : vpeer + rem;
        rc = packed_message(s, &pk, first_rank(mine, rem), first_rank(mine + mask, rem), peer, 1);
        if (rc == MPI_SUCCESS)
            rc = packed_message(s, &pk, first_rank(theirs, rem), first_rank(theirs + mask, rem),
                                peer, 0);
        ac_sched_round(s);
    }
    if (rc == MPI_SUCCESS && rank < 2 * rem) {
        rc = packed_message(s, &pk, 0, size, folded ? rank + 1 : rank - 1, !folded);
        ac_sched_round(s);
    }
    if (rc == MPI_SUCCESS) rc = ac_allgatherv_unpack_schedule(s, &pk, rbuf, rcounts, displs, rtype);
    ac_sched_round(s);
    free(pk.off);
    return rc;
}

AC_ALLGATHERV_BY_SCHEDULE(recursive_doubling)
