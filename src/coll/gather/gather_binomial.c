/*
 * gather_binomial.c - binomial-tree gather (Thakur, Rabenseifner and Gropp 2005, MPICH).
 *
 * Ranks are renumbered relative to the root (v = rank - root mod p). Rank v collects the
 * blocks of its subtree [v, v + 2^k) (2^k its lowest set bit, clipped at p) in a packed
 * temporary buffer in relative order - its own block first, then each child's subtree - and
 * sends the lot to v - 2^k. Leaves send straight from the send buffer. The root receives each
 * child's subtree straight into the receive buffer when its ranks are contiguous there, and
 * otherwise (the one subtree that wraps past rank p-1) into a temporary buffer that it unpacks
 * into rank order. Packed data travel as MPI_PACKED, which matches any type signature, so the
 * send and receive types may differ.
 *
 * Cost: ceil(log2 p) * alpha + ((p-1)/p) * n * beta (n = total bytes gathered).
 * Requirements: none. Any process count: subtrees past p are simply absent. MPI_IN_PLACE at
 * the root. Assumes the homogeneous packed format (a block packs to its signature's bytes).
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

enum { MAX_CHILDREN = 32 };

/* The root: receive every child's subtree, in rank order, into rbuf. */
static int gather_root(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, int size, MPI_Aint block, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, nreq = 0, wrap_first = 0, wrap_n = 0;
    MPI_Aint stride = ac_extent(rtype) * rcount;
    MPI_Request reqs[MAX_CHILDREN];
    MPI_Status stats[MAX_CHILDREN];
    char *tmp = NULL;

    if (sbuf != MPI_IN_PLACE) {
        rc = ac_copy(sbuf, scount, stype, (char *)rbuf + root * stride, rcount, rtype);
        if (rc != MPI_SUCCESS) goto out;
    }
    for (int mask = 1; mask < size; mask <<= 1) {
        int first = (root + mask) % size, n = mask < size - mask ? mask : size - mask;
        if (first + n <= size) {
            rc = PMPI_Irecv((char *)rbuf + first * stride, n * rcount, rtype, first, AC_TAG_DATA,
                            comm, &reqs[nreq]);
        } else {
            wrap_first = first;
            wrap_n = n;
            tmp = malloc((size_t)(n * block));
            if (!tmp) {
                rc = MPI_ERR_NO_MEM;
                goto out;
            }
            rc = PMPI_Irecv(tmp, (int)(n * block), MPI_PACKED, first, AC_TAG_DATA, comm,
                            &reqs[nreq]);
        }
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
    rc = PMPI_Waitall(nreq, reqs, stats);
    nreq = 0;
    if (rc == MPI_SUCCESS && tmp) {
        /* the wrapping subtree holds ranks wrap_first..p-1, then 0.. */
        int position = 0, head = size - wrap_first, insize = (int)(wrap_n * block);
        rc = ac_unpack(tmp, insize, &position, (char *)rbuf + wrap_first * stride, head * rcount,
                       rtype, comm);
        if (rc == MPI_SUCCESS)
            rc = ac_unpack(tmp, insize, &position, rbuf, (wrap_n - head) * rcount, rtype, comm);
    }
out:
    if (nreq > 0) PMPI_Waitall(nreq, reqs, stats);
    free(tmp);
    return rc;
}

/* Any other rank: pack its own block and its children's subtrees, send them to the parent. */
static int gather_nonroot(const void *sbuf, int scount, MPI_Datatype stype, int root, int vrank,
                          int size, MPI_Aint block, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, nreq = 0, position = 0;
    int lowbit = vrank & -vrank, parent = (vrank - lowbit + root) % size;
    int subtree = lowbit < size - vrank ? lowbit : size - vrank;
    MPI_Request reqs[MAX_CHILDREN];
    MPI_Status stats[MAX_CHILDREN];
    char *tmp = NULL;

    if (subtree == 1) return PMPI_Send(sbuf, scount, stype, parent, AC_TAG_DATA, comm);
    tmp = malloc((size_t)(subtree * block));
    if (!tmp) return MPI_ERR_NO_MEM;
    for (int mask = 1; mask < subtree; mask <<= 1) {
        int child = (vrank + mask + root) % size;
        int n = mask < subtree - mask ? mask : subtree - mask;
        rc = PMPI_Irecv(tmp + mask * block, (int)(n * block), MPI_PACKED, child, AC_TAG_DATA, comm,
                        &reqs[nreq]);
        if (rc != MPI_SUCCESS) goto out;
        nreq++;
    }
    rc = ac_pack(sbuf, scount, stype, tmp, (int)block, &position, comm);
    if (rc != MPI_SUCCESS) goto out;
    rc = PMPI_Waitall(nreq, reqs, stats);
    nreq = 0;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Send(tmp, (int)(subtree * block), MPI_PACKED, parent, AC_TAG_DATA, comm);
out:
    if (nreq > 0) PMPI_Waitall(nreq, reqs, stats);
    free(tmp);
    return rc;
}

int ac_gather_binomial(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int root, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, tsize;
    MPI_Aint block;
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return rc;
    /* block bytes from the significant arguments: the receive side at the root */
    rc = rank == root ? PMPI_Type_size(rtype, &tsize) : PMPI_Type_size(stype, &tsize);
    block = (MPI_Aint)(rank == root ? rcount : scount) * tsize;
    if (rc != MPI_SUCCESS || block == 0) return rc;
    if (rank == root)
        return gather_root(sbuf, scount, stype, rbuf, rcount, rtype, root, size, block, comm);
    return gather_nonroot(sbuf, scount, stype, root, (rank - root + size) % size, size, block,
                          comm);
}
