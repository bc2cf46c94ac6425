/*
 * alltoall_mesh.c - all-to-all on a logical 2D or 3D mesh, one dimension after the other.
 *
 * The p ranks form a d0 x d1 (x d2) mesh (ac_mesh_dims, params->dims = 2 or 3; rank r has
 * coordinate c_k = (r / s_k) mod d_k with strides s_0 = 1, s_{k+1} = s_k d_k). In phase k a rank
 * exchanges with the d_k - 1 ranks that differ from it in coordinate k only, sending each of
 * them, combined in one message, every block it holds whose destination has that peer's
 * coordinate k: p/d_k blocks per peer. After the last phase each rank holds exactly the blocks
 * destined to it. Blocks are kept packed (bytes, independent of the user's types) in p slots;
 * before phase k, slot src_low + s_k * dst_high holds the block from the source whose
 * coordinates below k are src_low and destined to the rank whose coordinates from k on are
 * dst_high. The blocks for peer q and the blocks from peer q then occupy the same slots (runs of
 * s_k slots at s_k q, stride s_{k+1}), described by one vector datatype.
 * Cost: sum_k (d_k - 1) alpha + sum_k (d_k - 1)(p/d_k) n beta for blocks of n bytes, i.e.
 * 2(sqrt(p)-1) alpha + 2(sqrt(p)-1) sqrt(p) n beta in 2D, 3(p^(1/3)-1) alpha + ... in 3D; plus
 * two local copies of the p blocks. A small-message algorithm (STAR-MPI uses it up to 256 B).
 * Requirements: none. Any p: a dimension of size 1 is skipped, so a prime p degenerates to one
 * all-to-all exchange of single blocks. MPI_IN_PLACE: the receive buffer is packed first.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "2D mesh", "3D mesh".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>
#include <string.h>

int ac_alltoall_mesh(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                     MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    int rc = MPI_SUCCESS, rank, size, nreq = 0, dims[3];
    int ndims = p && p->dims == 3 ? 3 : 2;
    MPI_Datatype slot = MPI_DATATYPE_NULL, runs = MPI_DATATYPE_NULL;
    char *cur = NULL, *next = NULL;
    MPI_Request *reqs = NULL;
    MPI_Status *stats = NULL; /* not MPI_STATUSES_IGNORE: gcc 12 -Wstringop-overflow with MPICH */
    MPI_Aint bytes =
        ac_alltoall_slots_start(comm, &sbuf, &scount, &stype, rbuf, rcount, rtype, &rank, &size);
    if (bytes == 0) return MPI_SUCCESS;
    ac_mesh_dims(size, ndims, dims);
    cur = malloc((size_t)(size * bytes));
    next = malloc((size_t)(size * bytes));
    reqs = malloc(sizeof(MPI_Request) * (size_t)(2 * size));
    stats = malloc(sizeof(MPI_Status) * (size_t)(2 * size));
    if (!cur || !next || !reqs || !stats) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    rc = ac_alltoall_slot_type(bytes, &slot);
    if (rc != MPI_SUCCESS) goto out;
    rc = ac_alltoall_pack(sbuf, scount, stype, 0, size, cur, bytes, comm);
    if (rc != MPI_SUCCESS) goto out;
    for (int k = 0, stride = 1; k < ndims; stride *= dims[k], k++) {
        int d = dims[k], span = stride * d, nruns = size / span, mine = (rank / stride) % d;
        if (d == 1) continue;
        rc = PMPI_Type_vector(nruns, stride, span, slot, &runs);
        if (rc != MPI_SUCCESS) goto out;
        rc = PMPI_Type_commit(&runs);
        if (rc != MPI_SUCCESS) goto out;
        for (int q = 1; q < d; q++) {
            int c = (mine - q + d) % d;
            rc = PMPI_Irecv(next + c * stride * bytes, 1, runs, rank + (c - mine) * stride,
                            AC_TAG_DATA, comm, &reqs[nreq]);
            if (rc != MPI_SUCCESS) goto out;
            nreq++;
        }
        for (int q = 1; q < d; q++) {
            int c = (mine + q) % d;
            rc = PMPI_Isend(cur + c * stride * bytes, 1, runs, rank + (c - mine) * stride,
                            AC_TAG_DATA, comm, &reqs[nreq]);
            if (rc != MPI_SUCCESS) goto out;
            nreq++;
        }
        for (int h = 0; h < nruns; h++) {
            MPI_Aint at = ((MPI_Aint)mine * stride + (MPI_Aint)h * span) * bytes;
            memcpy(next + at, cur + at, (size_t)(stride * bytes));
        }
        rc = PMPI_Waitall(nreq, reqs, stats);
        nreq = 0;
        if (rc != MPI_SUCCESS) goto out;
        PMPI_Type_free(&runs);
        char *t = cur;
        cur = next;
        next = t;
    }
    rc = ac_alltoall_unpack(cur, bytes, 0, size, rbuf, rcount, rtype, comm);
out:
    if (nreq > 0) PMPI_Waitall(nreq, reqs, stats);
    if (runs != MPI_DATATYPE_NULL) PMPI_Type_free(&runs);
    if (slot != MPI_DATATYPE_NULL) PMPI_Type_free(&slot);
    free(stats);
    free(reqs);
    free(next);
    free(cur);
    return rc;
}
