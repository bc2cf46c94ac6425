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
 * Written as a schedule (common/sched.h): the pack the first local step, a posted round a phase
 * (its receives, then its sends, and the copy of the rank's own runs as a local step; the
 * blocking run's MPI_Irecv/MPI_Isend/MPI_Waitall as before), each phase's vector type owned by
 * the schedule, the unpack the last local step.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal, ICS 2006) section 3.1, "2D mesh", "3D mesh".
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <limits.h>

int ac_alltoall_mesh_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                              void *rbuf, int rcount, MPI_Datatype rtype, const ac_params *p)
{
    int rc, rank = s->rank, size = s->size, rsize, dims[3];
    int ndims = p && p->dims == 3 ? 3 : 2;
    MPI_Datatype slot;
    char *cur, *next;

    PMPI_Type_size(rtype, &rsize);
    if (sbuf == MPI_IN_PLACE) sbuf = rbuf, scount = rcount, stype = rtype;
    MPI_Aint bytes = (MPI_Aint)rcount * rsize;
    if (bytes == 0) return ac_sched_error(s);
    if (bytes > INT_MAX) return MPI_ERR_COUNT; /* the copies' counts are ints */
    ac_mesh_dims(size, ndims, dims);
    cur = ac_sched_tmp(s, size * bytes, MPI_BYTE);
    next = ac_sched_tmp(s, size * bytes, MPI_BYTE);
    if (!cur || !next) return ac_sched_error(s);
    rc = ac_alltoall_slot_type(bytes, &slot);
    if (rc != MPI_SUCCESS) return rc;
    ac_sched_own(s, slot);
    rc = ac_alltoall_pack_schedule(s, sbuf, scount, stype, 0, size, cur, bytes);
    for (int k = 0, stride = 1; k < ndims && rc == MPI_SUCCESS; stride *= dims[k], k++) {
        int d = dims[k], span = stride * d, nruns = size / span, mine = (rank / stride) % d;
        MPI_Datatype runs;
        if (d == 1) continue;
        rc = PMPI_Type_vector(nruns, stride, span, slot, &runs);
        if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(&runs);
        if (rc != MPI_SUCCESS) break;
        ac_sched_own(s, runs);
        for (int q = 1; q < d; q++) {
            int c = (mine - q + d) % d;
            ac_sched_recv(s, next + c * stride * bytes, 1, runs, rank + (c - mine) * stride);
        }
        for (int q = 1; q < d; q++) {
            int c = (mine + q) % d;
            ac_sched_send(s, cur + c * stride * bytes, 1, runs, rank + (c - mine) * stride);
        }
        /* the rank's own runs stay: copied while the messages travel (a local step of the
         * round, run before they are posted; they touch other slots) */
        for (int h = 0; h < nruns; h++) {
            MPI_Aint at = ((MPI_Aint)mine * stride + (MPI_Aint)h * span) * bytes;
            ac_sched_copy(s, cur + at, (int)(stride * bytes), MPI_BYTE, next + at,
                          (int)(stride * bytes), MPI_BYTE);
        }
        ac_sched_round_posted(s);
        char *t = cur;
        cur = next;
        next = t;
        rc = ac_sched_error(s);
    }
    if (rc == MPI_SUCCESS)
        rc = ac_alltoall_unpack_schedule(s, cur, bytes, 0, size, rbuf, rcount, rtype);
    ac_sched_round(s);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}

AC_BLOCKS_BY_SCHEDULE(alltoall, mesh)
