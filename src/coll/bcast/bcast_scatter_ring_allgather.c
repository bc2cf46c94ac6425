/*
 * bcast_scatter_ring_allgather.c - van de Geijn broadcast: a binomial-tree scatter followed by
 * a ring all-gather (Barnett, Shuler, van de Geijn et al. 1994; Thakur, Rabenseifner and Gropp
 * 2005, MPICH's bcast_scatter_ring_allgather).
 *
 * The algorithm works on the packed byte representation of the message (n = count * type size
 * bytes, equal on every rank), so any datatype and any count work, whatever the type layout on
 * each rank. The bytes are cut into p chunks of ceil(n/p) bytes; trailing chunks are shorter
 * or empty (n < p is fine). Chunk j belongs to the rank at distance j from the root. Scatter:
 * the root sends each binomial subtree its contiguous range of chunks. All-gather: p-1 ring
 * steps, each rank forwarding the chunk it received last. Types that are contiguous bytes
 * (predefined, or contiguous of such) are used in place; others are packed at the root and
 * unpacked at the other ranks. Transfers use MPI_PACKED, which matches any type signature.
 *
 * Cost: (log2 p + p - 1) * alpha + 2 ((p-1)/p) * n * beta. A large-message algorithm.
 * Requirements: none. Any process count: the scatter tree is a binomial tree clipped at p, the
 * ring needs no power of two. Assumes the homogeneous packed format (n bytes for n bytes of
 * signature), true of Open MPI and MPICH on one architecture.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>

/* 1 if `count` elements of `dtype` are their own packed bytes: a predefined type without gaps,
 * or a contiguous type built from one. */
static int is_bytes(MPI_Datatype dtype)
{
    int ni, na, nd, combiner, size, ok = 0;
    MPI_Aint lb, extent;
    PMPI_Type_get_envelope(dtype, &ni, &na, &nd, &combiner);
    if (combiner == MPI_COMBINER_NAMED) {
        PMPI_Type_size(dtype, &size);
        PMPI_Type_get_extent(dtype, &lb, &extent);
        return lb == 0 && extent == (MPI_Aint)size;
    }
    if (combiner == MPI_COMBINER_CONTIGUOUS && ni == 1 && na == 0 && nd == 1) {
        int n, inner_combiner;
        MPI_Datatype inner;
        PMPI_Type_get_contents(dtype, 1, 0, 1, &n, NULL, &inner);
        ok = is_bytes(inner);
        PMPI_Type_get_envelope(inner, &ni, &na, &nd, &inner_combiner);
        if (inner_combiner != MPI_COMBINER_NAMED) PMPI_Type_free(&inner);
    }
    return ok;
}

/* Offset of chunk j in the packed message. */
static MPI_Aint chunk_start(int j, MPI_Aint chunk, MPI_Aint nbytes)
{
    MPI_Aint at = (MPI_Aint)j * chunk;
    return at < nbytes ? at : nbytes;
}

int ac_bcast_scatter_ring_allgather(void *buf, int count, MPI_Datatype dtype, int root,
                                    MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, type_size, vrank, mask = 1, bytes_inplace, pack_size, position = 0;
    MPI_Aint nbytes, chunk;
    char *packed = NULL, *scratch = NULL;
    (void)p;

    rc = PMPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_size(dtype, &type_size);
    if (rc != MPI_SUCCESS) return rc;
    nbytes = (MPI_Aint)count * type_size;
    if (nbytes == 0 || size == 1) return MPI_SUCCESS;
    vrank = (rank - root + size) % size;
    chunk = (nbytes + size - 1) / size;

    bytes_inplace = is_bytes(dtype);
    if (bytes_inplace) {
        MPI_Aint lb, extent;
        PMPI_Type_get_extent(dtype, &lb, &extent);
        packed = (char *)buf + lb;
    } else {
        rc = PMPI_Pack_size(count, dtype, comm, &pack_size);
        if (rc != MPI_SUCCESS) goto out;
        scratch = malloc((size_t)(pack_size > nbytes ? pack_size : nbytes));
        if (!scratch) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        packed = scratch;
        if (rank == root) {
            rc = ac_pack(buf, count, dtype, packed, pack_size, &position, comm);
            if (rc != MPI_SUCCESS) goto out;
        }
    }

    /* Scatter: receive the chunks of this rank's subtree [vrank, vrank + mask). */
    while (mask < size) {
        if (vrank & mask) {
            int parent = (vrank - mask + root) % size;
            int end = vrank + mask < size ? vrank + mask : size;
            MPI_Aint lo = chunk_start(vrank, chunk, nbytes), hi = chunk_start(end, chunk, nbytes);
            rc = PMPI_Recv(packed + lo, (int)(hi - lo), MPI_PACKED, parent, AC_TAG_DATA, comm,
                           MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS) goto out;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vrank + mask < size) {
            int child = (vrank + mask + root) % size;
            int end = vrank + 2 * mask < size ? vrank + 2 * mask : size;
            MPI_Aint lo = chunk_start(vrank + mask, chunk, nbytes);
            MPI_Aint hi = chunk_start(end, chunk, nbytes);
            rc = PMPI_Send(packed + lo, (int)(hi - lo), MPI_PACKED, child, AC_TAG_DATA, comm);
            if (rc != MPI_SUCCESS) goto out;
        }
    }

    /* Ring all-gather of the chunks, in relative rank order. */
    {
        int left = (rank - 1 + size) % size, right = (rank + 1) % size;
        int send_chunk = vrank, recv_chunk = (vrank - 1 + size) % size;
        for (int step = 1; step < size; step++) {
            MPI_Aint slo = chunk_start(send_chunk, chunk, nbytes);
            MPI_Aint shi = chunk_start(send_chunk + 1, chunk, nbytes);
            MPI_Aint rlo = chunk_start(recv_chunk, chunk, nbytes);
            MPI_Aint rhi = chunk_start(recv_chunk + 1, chunk, nbytes);
            rc = PMPI_Sendrecv(packed + slo, (int)(shi - slo), MPI_PACKED, right, AC_TAG_DATA,
                               packed + rlo, (int)(rhi - rlo), MPI_PACKED, left, AC_TAG_DATA, comm,
                               MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS) goto out;
            send_chunk = recv_chunk;
            recv_chunk = (recv_chunk - 1 + size) % size;
        }
    }

    if (!bytes_inplace && rank != root) {
        position = 0;
        rc = ac_unpack(packed, (int)nbytes, &position, buf, count, dtype, comm);
    }
out:
    free(scratch);
    return rc;
}
