/*
 * allgatherv_orthogonal.c - multi-broadcast of uneven blocks over an orthogonal processor mesh
 * (decomposition paper, seeds/003, section 2 and Figure 4): an all-gather in every row group,
 * then an all-gather of the rows' runs in every column group (in 3D, one phase per dimension,
 * from the last to the first), each phase running params->phase (native or one of ours) in
 * place on the cached line communicators (common/mesh.h) with the runs' byte counts.
 *
 * Ranks are laid out row-major, so after the phase of dimension d a rank holds the blocks of
 * stride[d] * n[d] consecutive ranks, one contiguous run of the packed copy of all blocks
 * (blocks.c: MPI_PACKED slots in rank order); its own block is packed once and every block
 * unpacked at its displacement once at the end. Cost: the phase algorithm on n[D-1] ranks
 * with the blocks' bytes, then on n[D-2] ranks with the rows' bytes, ...
 * Requirements: the layout factors the size (AC_REQ_MESH_LAYOUT); all blocks together fit in
 * an int. Uneven and zero counts, MPI_IN_PLACE. The first call with a layout builds its
 * communicators.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its line of the mesh, a phase of
 * the library's own a step of the blocking run; each phase's counts and offsets the schedule's.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"
#include "coll/common/phase.h"

#include <stdlib.h>

AC_ALLGATHERV_BY_SCHEDULE(orthogonal)

int ac_allgatherv_orthogonal_schedule(ac_sched *s, const void *sbuf, int scount,
                                      MPI_Datatype stype, void *rbuf, const int *rcounts,
                                      const int *displs, MPI_Datatype rtype, const ac_params *p)
{
    int rc, rank = s->rank;
    const ac_mesh *m;
    ac_allgatherv_packed pk;
    rc = ac_mesh_get(s->comm, p, &m);
    if (rc != MPI_SUCCESS) return rc;
    rc = ac_allgatherv_pack_schedule(s, &pk, sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                                     0);
    if (rc != MPI_SUCCESS) return rc;
    for (int d = m->ndims - 1; d >= 0 && rc == MPI_SUCCESS; d--) {
        int span = m->stride[d], first = rank - rank % (span * m->n[d]), total;
        int *counts = ac_sched_tmp(s, 2 * (MPI_Aint)m->n[d], MPI_INT), *offsets;
        char *base, *run;
        if (!counts) {
            rc = ac_sched_error(s);
            break;
        }
        offsets = counts + m->n[d];
        /* The line's run (it fits an int, so every offset in it does), then member k's part:
         * ranks [first + k span, first + (k+1) span). */
        rc = ac_allgatherv_pack_run(&pk, first, first + span * m->n[d], &base, &total);
        for (int k = 0; k < m->n[d] && rc == MPI_SUCCESS; k++) {
            rc = ac_allgatherv_pack_run(&pk, first + k * span, first + (k + 1) * span, &run,
                                        &counts[k]);
            offsets[k] = (int)(run - base);
        }
        if (rc == MPI_SUCCESS)
            rc = ac_phase_allgatherv(s, p->phase, m->line[d], MPI_IN_PLACE, 0, MPI_DATATYPE_NULL,
                                     base, counts, offsets, MPI_PACKED);
    }
    if (rc == MPI_SUCCESS) rc = ac_allgatherv_unpack_schedule(s, &pk, rbuf, rcounts, displs, rtype);
    free(pk.off);
    return rc;
}
