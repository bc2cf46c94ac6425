/*
 * gather_orthogonal.c - gather over an orthogonal processor mesh (decomposition paper,
 * seeds/003, section 2 and Figure 3 upward): every row group gathers its blocks at the member
 * in the root's column (the leader group); then the leader group gathers those runs at the
 * root (in 3D, one more phase in between). Phase d, from the last dimension to the first,
 * runs params->phase (native or one of ours) on the cached line communicators of dimension d
 * (common/mesh.h) among the ranks whose later coordinates are the root's, rooted at the root's
 * coordinate d.
 *
 * Rank order at the root is preserved: ranks are laid out row-major, so after phase d a phase
 * root holds the blocks of stride[d] * n[d] consecutive ranks, in rank order. Blocks travel
 * packed (MPI_PACKED, b bytes per rank), are packed once at their rank and unpacked once at
 * the root. Cost: the phase algorithm on n[D-1] ranks with b bytes each, then on n[D-2] ranks
 * with b * n[D-1] bytes each, ...; the root receives (p-1) b bytes in all, in D phases.
 * Requirements: the layout factors the size (AC_REQ_MESH_LAYOUT); all blocks together fit in
 * an int. MPI_IN_PLACE at the root. The first call with a layout builds its communicators.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its line of the mesh, a phase of
 * the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"
#include "coll/common/phase.h"

AC_ROOTED_BY_SCHEDULE(gather, orthogonal)

int ac_gather_orthogonal_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                                  void *rbuf, int rcount, MPI_Datatype rtype, int root,
                                  const ac_params *p)
{
    int rc, rank, size, root_coord[3];
    MPI_Aint block;
    const ac_mesh *m;
    rc = ac_rooted_block(s->comm, root, rcount, rtype, scount, stype, &rank, &size, &block);
    if (rc == MPI_SUCCESS) rc = ac_mesh_get(s->comm, p, &m);
    if (rc != MPI_SUCCESS) return rc;
    ac_mesh_coords(m, root, root_coord);
    char *have = ac_sched_tmp(s, block + 1, MPI_BYTE);
    if (!have) return ac_sched_error(s);
    if (rank == root && sbuf == MPI_IN_PLACE)
        ac_sched_pack(s, ac_at(rbuf, (MPI_Aint)rank * rcount * ac_extent(rtype)), rcount, rtype,
                      have, (int)block);
    else
        ac_sched_pack(s, sbuf, scount, stype, have, (int)block);
    /* Phase d: every participant holds the blocks of its stride[d] consecutive ranks. */
    for (int d = m->ndims - 1; d >= 0 && rc == MPI_SUCCESS; d--) {
        if (!ac_mesh_in_phase(m, root_coord, d)) break;
        int is_root = m->coord[d] == root_coord[d], bytes = (int)(block * m->stride[d]);
        char *next = NULL;
        if (is_root && !(next = ac_sched_tmp(s, (MPI_Aint)bytes * m->n[d] + 1, MPI_BYTE)))
            return ac_sched_error(s);
        rc = ac_phase_gather(s, p->phase, m->line[d], have, bytes, MPI_PACKED, next, bytes,
                             MPI_PACKED, root_coord[d]);
        if (!is_root) break;
        have = next;
    }
    if (rc == MPI_SUCCESS && rank == root)
        ac_sched_unpack(s, have, (int)(block * size), rbuf, rcount * size, rtype);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}
