/*
 * allreduce_recursive_doubling.c - recursive doubling allreduce (MPICH; Thakur, Rabenseifner and
 * Gropp 2005).
 *
 * In step k (k = 0 .. lg(p')-1) each rank exchanges its whole partial result with the rank whose
 * (renumbered) rank differs in bit k and combines the two. The partial result of the lower rank
 * is always the left operand and both partners compute the same combination, so the op is
 * applied in rank order (non-commutative ops are correct) and every rank gets identical bits.
 *
 * Cost: lg(p)*(alpha + n*beta + n*gamma); non-power of two adds 2*(alpha + n*beta) + n*gamma.
 * Latency-optimal; a small-message algorithm. Requirements: none.
 * Non-power-of-two p (MPICH): with p' the largest power of two <= p and rem = p - p', the first
 * 2*rem ranks pair up before the exchange: each even one sends its vector to the odd one above
 * it, which combines them (even rank left) and takes part in the exchange; afterwards the odd
 * ranks send the result back to their even partners.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_allreduce_recursive_doubling(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                                    MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, pof2, rem, newrank;
    ac_tmp tmp = {0};
    char *acc = rbuf, *other;
    (void)p;

    if (count == 0) return MPI_SUCCESS;
    rc = ac_fold_ranks(comm, &rank, &size, &pof2, &rem);
    if (rc != MPI_SUCCESS) return rc;

    if (rank < 2 * rem && rank % 2 == 0) {
        /* Paired even rank: hand the input to rank+1, get the result back at the end. */
        rc = PMPI_Send(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dtype, rank + 1, AC_TAG_DATA,
                       comm);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Recv(rbuf, count, dtype, rank + 1, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
        return rc;
    }

    rc = ac_tmp_alloc(&tmp, count, dtype);
    if (rc != MPI_SUCCESS) goto out;
    other = tmp.buf;
    if (sbuf != MPI_IN_PLACE) {
        rc = ac_copy(sbuf, count, dtype, rbuf, count, dtype);
        if (rc != MPI_SUCCESS) goto out;
    }
    if (rank < 2 * rem) {
        rc = PMPI_Recv(other, count, dtype, rank - 1, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) rc = ac_reduce_local(other, acc, count, dtype, op);
        if (rc != MPI_SUCCESS) goto out;
        newrank = rank / 2;
    } else {
        newrank = rank - rem;
    }

    /* `acc` holds the partial result, `other` receives the partner's; they swap when the
     * result of a step lands in `other` (the partner is higher: acc op other). */
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int newdst = newrank ^ mask;
        int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
        rc = PMPI_Sendrecv(acc, count, dtype, dst, AC_TAG_DATA, other, count, dtype, dst,
                           AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) goto out;
        rc = ac_reduce_ordered(&acc, &other, 0, dst < rank, count, dtype, op);
        if (rc != MPI_SUCCESS) goto out;
    }
    if (acc != (char *)rbuf) {
        rc = ac_copy(acc, count, dtype, rbuf, count, dtype);
        if (rc != MPI_SUCCESS) goto out;
    }
    if (rank < 2 * rem) rc = PMPI_Send(rbuf, count, dtype, rank - 1, AC_TAG_DATA, comm);
out:
    ac_tmp_free(&tmp);
    return rc;
}
