/*
 * scatter_binomial.c - binomial-tree scatter (Thakur, Rabenseifner and Gropp 2005, MPICH).
 *
 * Ranks are renumbered relative to the root (v = rank - root mod p). The root sends each child
 * v = 2^j the blocks of its subtree [2^j, 2^(j+1)) (clipped at p), largest subtree first:
 * straight from the send buffer when those ranks are contiguous there, packed into a temporary
 * buffer for the one subtree that wraps past rank p-1. An inner rank receives its subtree's
 * blocks packed, forwards its children's ranges, and unpacks its own block; a leaf receives
 * its block straight into the receive buffer. Packed data travel as MPI_PACKED, which matches
 * any type signature, so the send and receive types may differ.
 *
 * Cost: ceil(log2 p) * alpha + ((p-1)/p) * n * beta (n = total bytes scattered).
 * Requirements: none. Any process count: subtrees past p are simply absent. MPI_IN_PLACE at
 * the root. Assumes the homogeneous packed format (a block packs to its signature's bytes).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

enum { MAX_CHILDREN = 32 };

/* The root: send every child its subtree's blocks, keep its own. */
static int scatter_root(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, int size, MPI_Aint block, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, nreq = 0, mask = 1;
    MPI_Aint stride = ac_extent(stype) * scount;
    MPI_Request reqs[MAX_CHILDREN];
    MPI_Status stats[MAX_CHILDREN];
    char *tmp = NULL;

    while (mask < size)
        mask <<= 1;
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int first = (root + mask) % size, n = mask < size - mask ? mask : size - mask;
        if (first + n <= size) {
            rc = PMPI_Isend((const char *)sbuf + first * stride, n * scount, stype, first,
                            AC_TAG_DATA, comm, &reqs[nreq]);
        } else {
            /* the wrapping subtree: ranks first..p-1, then 0.. */
            int position = 0, head = size - first, outsize = (int)(n * block);
            tmp = malloc((size_t)(n * block));
            if (!tmp) {
                rc = MPI_ERR_NO_MEM;
                goto out;
            }
            rc = ac_pack((const char *)sbuf + first * stride, head * scount, stype, tmp, outsize,
                         &position, comm);
            if (rc == MPI_SUCCESS)
                rc = ac_pack(sbuf, (n - head) * scount, stype, tmp, outsize, &position, comm);
            if (rc == MPI_SUCCESS)
                rc = PMPI_Isend(tmp, outsize, MPI_PACKED, first, AC_TAG_DATA, comm, &reqs[nreq]);
        }
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
    if (rbuf != MPI_IN_PLACE)
        rc = ac_copy((const char *)sbuf + root * stride, scount, stype, rbuf, rcount, rtype);
out:
    if (nreq > 0) {
        int wrc = PMPI_Waitall(nreq, reqs, stats);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    free(tmp);
    return rc;
}

/* Any other rank: receive its subtree's blocks, forward its children's, keep its own. */
static int scatter_nonroot(void *rbuf, int rcount, MPI_Datatype rtype, int root, int vrank,
                           int size, MPI_Aint block, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, nreq = 0, position = 0, mask = 1;
    int lowbit = vrank & -vrank, parent = (vrank - lowbit + root) % size;
    int subtree = lowbit < size - vrank ? lowbit : size - vrank;
    MPI_Request reqs[MAX_CHILDREN];
    MPI_Status stats[MAX_CHILDREN];
    char *tmp = NULL;

    if (subtree == 1)
        return PMPI_Recv(rbuf, rcount, rtype, parent, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
    tmp = malloc((size_t)(subtree * block));
    if (!tmp) return MPI_ERR_NO_MEM;
    rc = PMPI_Recv(tmp, (int)(subtree * block), MPI_PACKED, parent, AC_TAG_DATA, comm,
                   MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) goto out;
    while (mask * 2 < subtree)
        mask <<= 1;
    for (; mask > 0; mask >>= 1) {
        int child = (vrank + mask + root) % size;
        int n = mask < subtree - mask ? mask : subtree - mask;
        rc = PMPI_Isend(tmp + mask * block, (int)(n * block), MPI_PACKED, child, AC_TAG_DATA, comm,
                        &reqs[nreq]);
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
    rc = ac_unpack(tmp, (int)block, &position, rbuf, rcount, rtype, comm);
out:
    if (nreq > 0) {
        int wrc = PMPI_Waitall(nreq, reqs, stats);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    free(tmp);
    return rc;
}

int ac_scatter_binomial(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int root, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, tsize;
    MPI_Aint block;
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    /* block bytes from the significant arguments: the send side at the root */
    rc = rank == root ? PMPI_Type_size(stype, &tsize) : PMPI_Type_size(rtype, &tsize);
    block = (MPI_Aint)(rank == root ? scount : rcount) * tsize;
    if (rc != MPI_SUCCESS || block == 0) return rc;
    if (rank == root)
        return scatter_root(sbuf, scount, stype, rbuf, rcount, rtype, root, size, block, comm);
    return scatter_nonroot(rbuf, rcount, rtype, root, (rank - root + size) % size, size, block,
                           comm);
}
