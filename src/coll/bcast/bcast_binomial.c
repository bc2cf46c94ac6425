/*
 * bcast_binomial.c - binomial-tree broadcast (Thakur, Rabenseifner and Gropp 2005, MPICH).
 *
 * Ranks are renumbered relative to the root (v = (rank - root) mod p). Rank v receives the
 * whole buffer from v - 2^k, where 2^k is its lowest set bit, then forwards it to v + 2^j for
 * every 2^j < 2^k with v + 2^j < p, largest subtree first. Data move in the caller's datatype.
 *
 * Cost: ceil(log2 p) * (alpha + n*beta). A latency-optimal, small-message algorithm.
 * Requirements: none. Any process count: subtrees past p are simply absent.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_bcast_binomial(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm,
                      const ac_params *p)
{
    int rc, rank, size, vrank, mask = 1;
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    vrank = (rank - root + size) % size;

    while (mask < size) {
        if (vrank & mask) {
            int parent = (vrank - mask + root) % size;
            rc = PMPI_Recv(buf, count, dtype, parent, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS) return rc;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vrank + mask < size) {
            int child = (vrank + mask + root) % size;
            rc = PMPI_Send(buf, count, dtype, child, AC_TAG_DATA, comm);
            if (rc != MPI_SUCCESS) return rc;
        }
    }
    return MPI_SUCCESS;
}
