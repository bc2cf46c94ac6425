/*
 * reduce_binomial.c - binomial-tree reduce (Thakur, Rabenseifner and Gropp 2005, MPICH).
 *
 * Rank v receives the partial result of the subtree [v + 2^j, v + 2^(j+1)) from v + 2^j for
 * each 2^j below its lowest set bit (smallest subtree first), combines it, and sends its own
 * partial result [v, v + 2^k) to v - 2^k. Every combination is "lower range op higher range",
 * so the operands meet in rank order within the tree's numbering.
 *   Commutative ops: the tree is numbered relative to the root (v = rank - root mod p) and the
 *   result lands at the root directly.
 *   Non-commutative ops: the tree is built on the ranks themselves (v = rank), so each subtree
 *   covers a contiguous rank range and the result, at rank 0, is x0 op x1 op ... op x(p-1);
 *   rank 0 then sends it to the root (one extra message when root != 0).
 *
 * Cost: ceil(log2 p) * (alpha + n*beta + n*gamma) (+ alpha + n*beta for a non-commutative op
 * with root != 0). A small/medium-message algorithm.
 * Requirements: none. Any process count: subtrees past p are simply absent.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_reduce_binomial(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                       int root, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, commutative, tree_root, vrank, mask = 1, next = 0;
    const void *mine, *acc;
    ac_tmp tmp[2] = {{0}, {0}};
    (void)p;

    if (count == 0) return MPI_SUCCESS;
    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc == MPI_SUCCESS) rc = PMPI_Op_commutative(op, &commutative);
    if (rc != MPI_SUCCESS) return rc;
    mine = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    acc = mine;
    tree_root = commutative ? root : 0;
    vrank = (rank - tree_root + size) % size;

    while (mask < size) {
        if (vrank & mask) {
            int parent = (vrank - mask + tree_root) % size;
            rc = PMPI_Send(acc, count, dtype, parent, AC_TAG_DATA, comm);
            if (rc != MPI_SUCCESS) goto out;
            break;
        }
        if (vrank + mask < size) {
            int child = (vrank + mask + tree_root) % size;
            if (!tmp[next].base) {
                rc = ac_tmp_alloc(&tmp[next], count, dtype);
                if (rc != MPI_SUCCESS) goto out;
            }
            rc = PMPI_Recv(tmp[next].buf, count, dtype, child, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS) goto out;
            /* tmp = acc op tmp: the lower rank range is the left operand */
            rc = ac_reduce_local(acc, tmp[next].buf, count, dtype, op);
            if (rc != MPI_SUCCESS) goto out;
            acc = tmp[next].buf;
            next ^= 1;
        }
        mask <<= 1;
    }

    if (vrank == 0) {
        /* The tree root holds the result in acc. */
        if (rank == root)
            rc = acc != rbuf ? ac_copy(acc, count, dtype, rbuf, count, dtype) : MPI_SUCCESS;
        else
            rc = PMPI_Send(acc, count, dtype, root, AC_TAG_DATA, comm);
    } else if (rank == root) {
        rc = PMPI_Recv(rbuf, count, dtype, tree_root, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
    }
out:
    ac_tmp_free(&tmp[0]);
    ac_tmp_free(&tmp[1]);
    return rc;
}
