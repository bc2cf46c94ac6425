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
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1; Thakur, Rabenseifner, Gropp,
 * "Optimization of collective communication operations in MPICH", IJHPCA 2005.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

/* First real rank whose block virtual rank v holds at the start (v = p2 gives p). */
static int first_rank(int v, int rem)
{
    return v < rem ? 2 * v : v + rem;
}

int ac_allgatherv_recursive_doubling(const void *sbuf, int scount, MPI_Datatype stype,
                                     void *rbuf, const int *rcounts, const int *displs,
                                     MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    ac_allgatherv_packed pk;
    char *addr, *raddr;
    (void)p;
    int rc = ac_allgatherv_pack_init(&pk, sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                                     comm, 0);
    if (rc != MPI_SUCCESS) return rc;
    int rank = pk.rank, size = pk.size, bytes, rbytes;
    int p2 = ac_pow2_floor(size), rem = size - p2;
    int folded = rank < 2 * rem && rank % 2 == 0;
    int vrank = rank < 2 * rem ? rank / 2 : rank - rem;

    if (rank < 2 * rem) {
        /* the folded rank's block: sent by 2i, received by 2i+1 */
        int block = folded ? rank : rank - 1;
        rc = ac_allgatherv_pack_run(&pk, block, block + 1, &addr, &bytes);
        if (rc != MPI_SUCCESS) goto out;
        if (folded)
            rc = PMPI_Send(addr, bytes, MPI_PACKED, rank + 1, AC_TAG_DATA, comm);
        else
            rc = PMPI_Recv(addr, bytes, MPI_PACKED, rank - 1, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) goto out;
    }
    if (!folded) {
        for (int mask = 1; mask < p2; mask <<= 1) {
            int vpeer = vrank ^ mask;
            int mine = vrank & ~(mask - 1), theirs = vpeer & ~(mask - 1);
            int peer = vpeer < rem ? 2 * vpeer + 1 : vpeer + rem;
            rc = ac_allgatherv_pack_run(&pk, first_rank(mine, rem),
                                        first_rank(mine + mask, rem), &addr, &bytes);
            if (rc != MPI_SUCCESS) goto out;
            rc = ac_allgatherv_pack_run(&pk, first_rank(theirs, rem),
                                        first_rank(theirs + mask, rem), &raddr, &rbytes);
            if (rc != MPI_SUCCESS) goto out;
            rc = PMPI_Sendrecv(addr, bytes, MPI_PACKED, peer, AC_TAG_DATA, raddr, rbytes,
                               MPI_PACKED, peer, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS) goto out;
        }
    }
    if (rank < 2 * rem) {
        rc = ac_allgatherv_pack_run(&pk, 0, size, &addr, &bytes);
        if (rc != MPI_SUCCESS) goto out;
        if (folded)
            rc = PMPI_Recv(addr, bytes, MPI_PACKED, rank + 1, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
        else
            rc = PMPI_Send(addr, bytes, MPI_PACKED, rank - 1, AC_TAG_DATA, comm);
        if (rc != MPI_SUCCESS) goto out;
    }
    rc = ac_allgatherv_pack_finish(&pk, rbuf, rcounts, displs, rtype, comm);
out:
    ac_allgatherv_pack_free(&pk);
    return rc;
}
