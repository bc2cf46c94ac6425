/*
 * reduce_scatter_recursive_halving.c - recursive-halving reduce-scatter (Thakur, Rabenseifner
 * and Gropp 2005: MPICH's algorithm for commutative ops and short/medium messages).
 *
 * With p' the largest power of two <= p and rem = p - p': first the 2*rem lowest ranks pair up,
 * the even rank sending its whole vector to the odd one, which combines it and takes part for
 * both. The p' remaining ranks then halve recursively: in step k each exchanges, with the rank
 * at distance p'/2^(k+1), the half of its current range of blocks that the partner keeps, and
 * combines the half it keeps. After log2 p' steps each rank holds its own block(s) reduced; an
 * odd rank of the first phase finally sends the even rank its block.
 *
 * Cost: ceil(log2 p) * alpha + ((p-1)/p) * n * beta + ((p-1)/p) * n * gamma, plus n*beta +
 * n*gamma for the extra step when p is not a power of two (n = whole vector).
 * Requirements: commutative op (operands meet in tree order, not rank order). Any process
 * count, through the extra step above. MPI_IN_PLACE: the input is the whole vector in rbuf.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <stdlib.h>

int ac_reduce_scatter_recursive_halving_schedule(ac_sched *s, const void *sbuf, void *rbuf,
                                                 const int *rcounts, MPI_Datatype dtype,
                                                 MPI_Op op, const ac_params *p)
{
    int rank = s->rank, size = s->size, pof2 = ac_pow2_floor(size), rem = size - pof2;
    int newrank, total, rc = MPI_SUCCESS;
    MPI_Aint *displs = NULL, *newdispls = NULL, extent = ac_extent(dtype);
    char *result, *incoming;
    (void)p;

    displs = malloc((size_t)(size + 1) * sizeof *displs);
    newdispls = malloc((size_t)(pof2 + 1) * sizeof *newdispls);
    if (!displs || !newdispls) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    displs[0] = 0;
    for (int r = 0; r < size; r++) displs[r + 1] = displs[r] + rcounts[r];
    total = (int)displs[size];
    if (total == 0) goto out;
    /* new rank i < rem stands for ranks 2i and 2i+1, new rank i >= rem for rank i + rem */
    for (int i = 0; i <= pof2; i++) newdispls[i] = displs[i < rem ? 2 * i : i + rem];

    result = ac_sched_tmp(s, total, dtype);
    incoming = ac_sched_tmp(s, total, dtype);
    if (!result || !incoming) goto out;
    ac_sched_copy(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, total, dtype, result, total, dtype);

    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            ac_sched_send(s, result, total, dtype, rank + 1);
            ac_sched_round(s);
            newrank = -1;
        } else {
            ac_sched_recv(s, incoming, total, dtype, rank - 1);
            ac_sched_round(s);
            ac_sched_reduce(s, incoming, result, total, dtype, op);
            newrank = rank / 2;
        }
    } else {
        newrank = rank - rem;
    }

    if (newrank != -1) {
        /* this rank's current blocks: those of new ranks [lo, lo + 2*mask) */
        int lo = 0;
        for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
            int newdst = newrank ^ mask, dst = newdst < rem ? 2 * newdst + 1 : newdst + rem;
            int keep_lo = newrank < newdst ? lo : lo + mask;
            int send_lo = newrank < newdst ? lo + mask : lo;
            MPI_Aint kd = newdispls[keep_lo], sd = newdispls[send_lo];
            int kn = (int)(newdispls[keep_lo + mask] - kd);
            int sn = (int)(newdispls[send_lo + mask] - sd);
            ac_sched_send(s, result + sd * extent, sn, dtype, dst);
            ac_sched_recv(s, incoming + kd * extent, kn, dtype, dst);
            ac_sched_round(s);
            ac_sched_reduce(s, incoming + kd * extent, result + kd * extent, kn, dtype, op);
            lo = keep_lo;
        }
        ac_sched_copy(s, result + displs[rank] * extent, rcounts[rank], dtype, rbuf,
                      rcounts[rank], dtype);
    }

    if (rank < 2 * rem) {
        if (rank % 2 == 1)
            ac_sched_send(s, result + displs[rank - 1] * extent, rcounts[rank - 1], dtype,
                          rank - 1);
        else
            ac_sched_recv(s, rbuf, rcounts[rank], dtype, rank + 1);
        ac_sched_round(s);
    }
out:
    free(displs);
    free(newdispls);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

AC_REDUCE_SCATTER_BY_SCHEDULE(recursive_halving)
