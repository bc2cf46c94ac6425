/*
 * barrier_recursive_doubling.c - recursive-doubling barrier (Thakur, Rabenseifner and Gropp
 * 2005). With p' the largest power of two <= p, ranks r >= p' first send a zero-byte token to
 * r - p'. The ranks below p' then exchange tokens with r XOR 2^k for k = 0 .. log2 p' - 1, and
 * finally release the extra ranks with a token to r + p'.
 *
 * Cost: log2 p' * alpha, plus 2 * alpha when p is not a power of two.
 * Requirements: none; any process count through the extra pre/post step.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_barrier_recursive_doubling(MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, pof2;
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    pof2 = ac_pow2_floor(size);
    if (rank >= pof2) {
        rc = PMPI_Send(NULL, 0, MPI_BYTE, rank - pof2, AC_TAG_SYNC, comm);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Recv(NULL, 0, MPI_BYTE, rank - pof2, AC_TAG_SYNC, comm,
                           MPI_STATUS_IGNORE);
        return rc;
    }
    if (rank + pof2 < size)
        rc = PMPI_Recv(NULL, 0, MPI_BYTE, rank + pof2, AC_TAG_SYNC, comm, MPI_STATUS_IGNORE);
    for (int mask = 1; rc == MPI_SUCCESS && mask < pof2; mask <<= 1)
        rc = PMPI_Sendrecv(NULL, 0, MPI_BYTE, rank ^ mask, AC_TAG_SYNC, NULL, 0, MPI_BYTE,
                           rank ^ mask, AC_TAG_SYNC, comm, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && rank + pof2 < size)
        rc = PMPI_Send(NULL, 0, MPI_BYTE, rank + pof2, AC_TAG_SYNC, comm);
    return rc;
}
