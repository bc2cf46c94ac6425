/*
 * reduce_linear_ordered.c - flat-tree reduce in rank order: every rank sends its vector to the
 * root, which receives them one at a time from rank p-1 down to rank 0 and folds each into the
 * result as its left operand, giving x0 op (x1 op (... op x(p-1))) for any op (MPICH's linear
 * reduce and Open MPI's basic_linear do the same).
 *
 * Cost: (p-1) * (alpha + n*beta + n*gamma), all at the root. A reference and a small-p choice.
 * Requirements: none; correct for non-commutative ops and any process count.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_reduce_linear_ordered(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                             MPI_Op op, int root, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size;
    const void *mine;
    ac_tmp incoming = {0}, saved = {0};
    (void)p;

    if (count == 0) return MPI_SUCCESS;
    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    if (rank != root) return PMPI_Send(sbuf, count, dtype, root, AC_TAG_DATA, comm);

    mine = sbuf;
    if (sbuf == MPI_IN_PLACE) {
        /* rbuf accumulates the result: keep the root's own operand aside */
        if (root != size - 1) {
            rc = ac_tmp_alloc(&saved, count, dtype);
            if (rc == MPI_SUCCESS) rc = ac_copy(rbuf, count, dtype, saved.buf, count, dtype);
            if (rc != MPI_SUCCESS) goto out;
        }
        mine = saved.buf;
    }
    if (size > 1) {
        rc = ac_tmp_alloc(&incoming, count, dtype);
        if (rc != MPI_SUCCESS) goto out;
    }

    for (int r = size - 1; r >= 0; r--) {
        const void *operand = mine;
        if (r != root) {
            void *into = r == size - 1 ? rbuf : incoming.buf;
            rc = PMPI_Recv(into, count, dtype, r, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS) goto out;
            operand = into;
        }
        if (r == size - 1) {
            /* the first operand starts the result (in place at root p-1 it is there already) */
            if (operand != rbuf && sbuf != MPI_IN_PLACE)
                rc = ac_copy(operand, count, dtype, rbuf, count, dtype);
        } else {
            rc = ac_reduce_local(operand, rbuf, count, dtype, op);
        }
        if (rc != MPI_SUCCESS) goto out;
    }
out:
    ac_tmp_free(&incoming);
    ac_tmp_free(&saved);
    return rc;
}
