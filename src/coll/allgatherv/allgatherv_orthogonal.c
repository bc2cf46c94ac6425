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
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"

#include <stdlib.h>

int ac_allgatherv_orthogonal(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                             const int *rcounts, const int *displs, MPI_Datatype rtype,
                             MPI_Comm comm, const ac_params *p)
{
    int rc, rank, *counts = NULL, *offsets = NULL;
    const ac_mesh *m;
    ac_allgatherv_packed pk;
    rc = ac_mesh_get(comm, p, &m);
    if (rc != MPI_SUCCESS) return rc;
    PMPI_Comm_rank(comm, &rank);
    rc = ac_allgatherv_pack_init(&pk, sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, 0);
    if (rc != MPI_SUCCESS) return rc;
    counts = malloc(sizeof(int) * (size_t)pk.size);
    offsets = malloc(sizeof(int) * (size_t)pk.size);
    if (!counts || !offsets) rc = MPI_ERR_NO_MEM;
    for (int d = m->ndims - 1; d >= 0 && rc == MPI_SUCCESS; d--) {
        int span = m->stride[d], first = rank - rank % (span * m->n[d]), total;
        char *base, *run;
        /* The line's run (it fits an int, so every offset in it does), then member k's part:
         * ranks [first + k span, first + (k+1) span). */
        rc = ac_allgatherv_pack_run(&pk, first, first + span * m->n[d], &base, &total);
        for (int k = 0; k < m->n[d] && rc == MPI_SUCCESS; k++) {
            rc = ac_allgatherv_pack_run(&pk, first + k * span, first + (k + 1) * span, &run,
                                        &counts[k]);
            offsets[k] = (int)(run - base);
        }
        if (rc == MPI_SUCCESS)
            rc = p->phase->fn.allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, base, counts, offsets,
                                         MPI_PACKED, m->line[d], p->phase->params);
    }
    if (rc == MPI_SUCCESS) rc = ac_allgatherv_pack_finish(&pk, rbuf, rcounts, displs, rtype, comm);
    free(counts);
    free(offsets);
    ac_allgatherv_pack_free(&pk);
    return rc;
}
