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
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1; J. Bruck, C. Ho, S. Kipnis,
 * E. Upfal, D. Weathersby, IEEE TPDS 8(11), 1997; Thakur, Rabenseifner, Gropp 2005.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_allgatherv_bruck(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                        const int *rcounts, const int *displs, MPI_Datatype rtype, MPI_Comm comm,
                        const ac_params *p)
{
    ac_allgatherv_packed pk;
    (void)p;
    int rc = ac_allgatherv_pack_init(&pk, sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                                     comm, 1);
    if (rc != MPI_SUCCESS) return rc;
    int rank = pk.rank, size = pk.size;
    for (int d = 1; d < size; d *= 2) {
        char *addr, *raddr;
        int bytes, rbytes, n = d < size - d ? d : size - d;
        rc = ac_allgatherv_pack_run(&pk, 0, n, &addr, &bytes);
        if (rc != MPI_SUCCESS) goto out;
        rc = ac_allgatherv_pack_run(&pk, d, d + n, &raddr, &rbytes);
        if (rc != MPI_SUCCESS) goto out;
        rc = PMPI_Sendrecv(addr, bytes, MPI_PACKED, (rank - d + size) % size, AC_TAG_DATA, raddr,
                           rbytes, MPI_PACKED, (rank + d) % size, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) goto out;
    }
    rc = ac_allgatherv_pack_finish(&pk, rbuf, rcounts, displs, rtype, comm);
out:
    ac_allgatherv_pack_free(&pk);
    return rc;
}
