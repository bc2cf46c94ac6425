/*
 * allreduce_rabenseifner.c - Rabenseifner's allreduce: a reduce-scatter by recursive halving
 * followed by an all-gather of the reduced blocks with a pluggable all-gather (STAR-MPI section
 * 3.1, second type, "Rab1-x"; Rabenseifner 1997; Thakur, Rabenseifner and Gropp 2005).
 *
 * With p' the largest power of two <= p, the vector is cut into p' blocks (sizes differ by at
 * most one element; blocks are empty when count < p'). Recursive halving: in step k
 * (k = 0 .. lg(p')-1) each rank exchanges half of the blocks it still holds with the rank whose
 * renumbered rank differs in bit lg(p')-1-k, keeps the half its bit selects and combines the
 * partner's copy of that half into its own. Rank r' then holds block r' fully reduced. The
 * all-gather params->allgatherv (parameters params->inner) distributes the blocks in place.
 * Each block is reduced in exactly one place, so every rank gets identical bits.
 *
 * Cost: lg(p')*alpha + ((p'-1)/p')*n*(beta + gamma) for the reduce-scatter, plus the inner
 * all-gather of n bytes in total (ring: (p-1)*alpha + ((p'-1)/p')*n*beta). Non-power of two
 * adds alpha + n*(beta + gamma). A large-message algorithm.
 * Requirements: commutative op (halving combines ranks r and r + p'/2 first).
 * Non-power-of-two p (MPICH): with rem = p - p', the first 2*rem ranks pair up and each even one
 * sends its vector to the odd one above it and drops out of the reduce-scatter. The all-gather
 * then runs on the whole communicator with zero counts for the dropped ranks, so they receive
 * the result directly (no sub-communicator, no extra send back).
 * Defaults (params NULL or without an inner all-gather): the library's MPI_Allgatherv.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

/* Real rank of renumbered rank `newrank` (MPICH's non-power-of-two renumbering). */
static int real_rank(int newrank, int rem)
{
    return newrank < rem ? newrank * 2 + 1 : newrank + rem;
}

int ac_allreduce_rabenseifner(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                              MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, pof2, rem, newrank, lo, hi;
    int *bdispl = NULL, *counts = NULL, *displs = NULL;
    ac_tmp tmp = {0};
    char *res = rbuf;
    MPI_Aint extent = ac_extent(dtype);
    ac_allgatherv_fn *allgatherv = p && p->allgatherv ? p->allgatherv : ac_allgatherv_native;
    const ac_params *inner = p && p->allgatherv ? p->inner : NULL;

    if (count == 0) return MPI_SUCCESS;
    rc = ac_fold_ranks(comm, &rank, &size, &pof2, &rem);
    if (rc != MPI_SUCCESS) return rc;

    bdispl = malloc((size_t)(pof2 + 1) * sizeof *bdispl);
    counts = malloc((size_t)size * sizeof *counts);
    displs = malloc((size_t)size * sizeof *displs);
    if (!bdispl || !counts || !displs) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    /* Block b is [bdispl[b], bdispl[b+1]): count split among the p' survivors. */
    ac_even_blocks(count, pof2, NULL, bdispl);
    for (int r = 0; r < size; r++) {
        int dropped = r < 2 * rem && r % 2 == 0;
        int nr = r < 2 * rem ? r / 2 : r - rem;
        counts[r] = dropped ? 0 : bdispl[nr + 1] - bdispl[nr];
        displs[r] = dropped ? 0 : bdispl[nr];
    }

    if (rank < 2 * rem && rank % 2 == 0) {
        rc = PMPI_Send(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dtype, rank + 1, AC_TAG_DATA,
                       comm);
        if (rc != MPI_SUCCESS) goto out;
    } else {
        rc = ac_tmp_alloc(&tmp, count, dtype);
        if (rc != MPI_SUCCESS) goto out;
        if (sbuf != MPI_IN_PLACE) {
            rc = ac_copy(sbuf, count, dtype, rbuf, count, dtype);
            if (rc != MPI_SUCCESS) goto out;
        }
        if (rank < 2 * rem) {
            rc = PMPI_Recv(tmp.buf, count, dtype, rank - 1, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS) rc = ac_reduce_local(tmp.buf, res, count, dtype, op);
            if (rc != MPI_SUCCESS) goto out;
            newrank = rank / 2;
        } else {
            newrank = rank - rem;
        }
        /* Recursive halving over the block range [lo, hi) still held. */
        lo = 0;
        hi = pof2;
        for (int mask = pof2 / 2; mask >= 1; mask >>= 1) {
            int dst = real_rank(newrank ^ mask, rem);
            int mid = lo + mask;
            int keep_lo = newrank & mask ? mid : lo, keep_hi = newrank & mask ? hi : mid;
            int send_lo = newrank & mask ? lo : mid, send_hi = newrank & mask ? mid : hi;
            MPI_Aint keep_off = bdispl[keep_lo] * extent;
            int keep_count = bdispl[keep_hi] - bdispl[keep_lo];
            rc = PMPI_Sendrecv(res + bdispl[send_lo] * extent, bdispl[send_hi] - bdispl[send_lo],
                               dtype, dst, AC_TAG_DATA, tmp.buf + keep_off, keep_count, dtype,
                               dst, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = ac_reduce_local(tmp.buf + keep_off, res + keep_off, keep_count, dtype, op);
            if (rc != MPI_SUCCESS) goto out;
            lo = keep_lo;
            hi = keep_hi;
        }
    }
    rc = allgatherv(MPI_IN_PLACE, 0, dtype, rbuf, counts, displs, dtype, comm, inner);
out:
    ac_tmp_free(&tmp);
    free(bdispl);
    free(counts);
    free(displs);
    return rc;
}
