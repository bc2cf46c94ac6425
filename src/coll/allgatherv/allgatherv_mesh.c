/*
 * allgatherv_mesh.c - 2D / 3D mesh all-gather (STAR-MPI section 3.1, "2D mesh", "3D mesh"):
 * the ranks form a logical d0 x d1 (x d2) mesh from ac_mesh_dims() (factors as close to
 * p^(1/dims) as possible), rank r = x0 + d0 * (x1 + d1 * x2). Phase k is a simple all-gather
 * among the d_k ranks that differ only in coordinate k, each forwarding every block it has
 * gathered so far; after phase k a rank holds the d0 * ... * dk consecutive ranks' blocks of
 * its sub-mesh. Runs of consecutive ranks' blocks travel as one message from a packed copy
 * (blocks.c), unpacked into rbuf at the end, so rtype's layout never matters.
 *
 * Cost: (d0 + d1 [+ d2] - dims) alpha + (p-1) n beta for n-byte blocks, plus packing every
 * block once. params->dims = 2 or 3 (NULL params or dims 0: 2; others: MPI_ERR_ARG).
 * Requirements: none; any process count. Factors of 1 (a prime p gives 1 x p) make a phase
 * empty, and the algorithm degenerates to "simple" along the remaining dimension.
 * Written as a schedule (common/sched.h): the own block's pack, then one round a phase whose
 * receives and sends the blocking run posts at once and waits for (as before), then the unpacks.
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

#include <stdlib.h>

int ac_allgatherv_mesh_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                                void *rbuf, const int *rcounts, const int *displs,
                                MPI_Datatype rtype, const ac_params *p)
{
    int rank = s->rank, size = s->size, ndims = p && p->dims ? p->dims : 2, dims[3];
    ac_allgatherv_packed pk;
    if (ndims != 2 && ndims != 3) return MPI_ERR_ARG;
    ac_mesh_dims(size, ndims, dims);
    int rc = ac_allgatherv_pack_schedule(s, &pk, sbuf, scount, stype, rbuf, rcounts, displs,
                                         rtype, 0);
    if (rc != MPI_SUCCESS) return rc;
    ac_sched_round(s);
    for (int k = 0, span = 1; k < ndims && rc == MPI_SUCCESS; span *= dims[k], k++) {
        int d = dims[k];
        int me = (rank / span) % d;                  /* my coordinate k */
        int base = rank / (span * d) * (span * d);   /* first rank of my phase-k sub-mesh */
        int mine = base + me * span;                 /* first rank of the run I hold */
        int bytes;
        char *addr;
        for (int i = 1; i < d && rc == MPI_SUCCESS; i++) {
            int t = (me - i + d) % d;
            rc = ac_allgatherv_pack_run(&pk, base + t * span, base + (t + 1) * span, &addr,
                                        &bytes);
            if (rc == MPI_SUCCESS)
                ac_sched_recv(s, addr, bytes, MPI_PACKED, rank + (t - me) * span);
        }
        if (rc == MPI_SUCCESS) rc = ac_allgatherv_pack_run(&pk, mine, mine + span, &addr, &bytes);
        for (int i = 1; i < d && rc == MPI_SUCCESS; i++) {
            int t = (me + i) % d;
            ac_sched_send(s, addr, bytes, MPI_PACKED, rank + (t - me) * span);
        }
        ac_sched_round_posted(s);
        if (rc == MPI_SUCCESS) rc = ac_sched_error(s);
    }
    if (rc == MPI_SUCCESS) rc = ac_allgatherv_unpack_schedule(s, &pk, rbuf, rcounts, displs, rtype);
    ac_sched_round(s);
    free(pk.off);
    return rc;
}

AC_ALLGATHERV_BY_SCHEDULE(mesh)
