/*
 * allgather_orthogonal.c - multi-broadcast over an orthogonal processor mesh (decomposition
 * paper, seeds/003, section 2 and Figure 4): an all-gather in every row group, then an
 * all-gather of the rows' runs in every column group (in 3D, one phase per dimension, from the
 * last to the first), each phase running params->phase (native or one of ours) in place on the
 * cached line communicators (common/mesh.h).
 *
 * Ranks are laid out row-major, so after the phase of dimension d a rank holds the blocks of
 * stride[d] * n[d] consecutive ranks in rank order, one contiguous run of a packed copy of all
 * blocks (b bytes per rank, MPI_PACKED); its own block is packed once and every block
 * unpacked into rbuf once at the end. Cost: the phase algorithm on n[D-1] ranks with b bytes
 * each, then on n[D-2] ranks with b * n[D-1] bytes each, ...; (p - 1) b bytes received in all.
 * Requirements: the layout factors the size (AC_REQ_MESH_LAYOUT); all blocks together fit in
 * an int. MPI_IN_PLACE. The first call with a layout builds its communicators.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its line of the mesh, a phase of
 * the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"
#include "coll/common/phase.h"

AC_BLOCKS_BY_SCHEDULE(allgather, orthogonal)

int ac_allgather_orthogonal_schedule(ac_sched *s, const void *sbuf, int scount,
                                     MPI_Datatype stype, void *rbuf, int rcount,
                                     MPI_Datatype rtype, const ac_params *p)
{
    int rc, rank = s->rank, size = s->size, tsize;
    const ac_mesh *m;
    rc = ac_mesh_get(s->comm, p, &m);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_size(rtype, &tsize);
    if (rc != MPI_SUCCESS) return rc;
    MPI_Aint b = (MPI_Aint)rcount * tsize;
    char *all = ac_sched_tmp(s, b * size + 1, MPI_BYTE);
    if (!all) return ac_sched_error(s);
    if (sbuf == MPI_IN_PLACE)
        ac_sched_pack(s, ac_at(rbuf, (MPI_Aint)rank * rcount * ac_extent(rtype)), rcount, rtype,
                      all + rank * b, (int)b);
    else
        ac_sched_pack(s, sbuf, scount, stype, all + rank * b, (int)b);
    for (int d = m->ndims - 1; d >= 0 && rc == MPI_SUCCESS; d--) {
        int first = rank - rank % (m->stride[d] * m->n[d]); /* first rank of the line's runs */
        rc = ac_phase_allgather(s, p->phase, m->line[d], MPI_IN_PLACE, 0, MPI_DATATYPE_NULL,
                                all + first * b, (int)(b * m->stride[d]), MPI_PACKED);
    }
    if (rc == MPI_SUCCESS) ac_sched_unpack(s, all, (int)(b * size), rbuf, rcount * size, rtype);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}
