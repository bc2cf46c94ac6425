/*
 * allgatherv_bruck.c - Bruck all-gather (STAR-MPI section 3.1, "Bruck"; Bruck et al. 1997):
 * ceil(lg p) steps; in step k (distance d = 2^k) rank r sends the first min(d, p-d) blocks it
 * holds to r-d and receives as many from r+d, appending them. Rank r keeps its blocks rotated
 * (slot s holds block (r+s) mod p) in a packed copy (blocks.c), so every step is one
 * contiguous MPI_PACKED message; the final unpack into rbuf at each block's displacement
 * undoes the rotation, and rtype's layout never matters.
 *
 * Cost: ceil(lg p) alpha + (p-1) n beta for n-byte blocks, plus packing every block once;
 * fewer extra bytes than recursive doubling on non-powers of two.
 * Requirements: none; any process count (the last step simply carries p - d blocks).
 * Written as a schedule (common/sched.h): a round packing the own block, a round of each step
 * (MPI_Sendrecv in the blocking run, as before), then a round of the unpacks.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1; J. Bruck, C. Ho, S. Kipnis,
 * E. Upfal, D. Weathersby, IEEE TPDS 8(11), 1997; Thakur, Rabenseifner, Gropp 2005.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <stdlib.h>

int ac_allgatherv_bruck_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                                 void *rbuf, const int *rcounts, const int *displs,
                                 MPI_Datatype rtype, const ac_params *p)
{
    ac_allgatherv_packed pk;
    (void)p;
    int rc = ac_allgatherv_pack_schedule(s, &pk, sbuf, scount, stype, rbuf, rcounts, displs,
                                         rtype, 1);
    if (rc != MPI_SUCCESS) return rc;
    int rank = s->rank, size = s->size;
    ac_sched_round(s);
    for (int d = 1; d < size && rc == MPI_SUCCESS; d *= 2) {
        char *addr, *raddr;
        int bytes, rbytes, n = d < size - d ? d : size - d;
        rc = ac_allgatherv_pack_run(&pk, 0, n, &addr, &bytes);
        if (rc == MPI_SUCCESS) rc = ac_allgatherv_pack_run(&pk, d, d + n, &raddr, &rbytes);
        if (rc != MPI_SUCCESS) break;
        ac_sched_send(s, addr, bytes, MPI_PACKED, (rank - d + size) % size);
        ac_sched_recv(s, raddr, rbytes, MPI_PACKED, (rank + d) % size);
        ac_sched_round(s);
        rc = ac_sched_error(s);
    }
    if (rc == MPI_SUCCESS) rc = ac_allgatherv_unpack_schedule(s, &pk, rbuf, rcounts, displs, rtype);
    ac_sched_round(s);
    free(pk.off);
    return rc;
}

AC_ALLGATHERV_BY_SCHEDULE(bruck)
