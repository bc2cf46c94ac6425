/*
 * scatter_orthogonal.c - scatter over an orthogonal processor mesh (decomposition paper,
 * seeds/003, section 2 and Figure 3 downward: the gather's phases reversed). The root scatters
 * along its line of dimension 0 (the leader group) the runs of consecutive ranks that each
 * member's row group needs; then every member scatters its run along its line of dimension 1
 * (and in 3D on along dimension 2). Phase d runs params->phase (native or one of ours) on the
 * cached line communicators of dimension d (common/mesh.h) among the ranks whose later
 * coordinates are the root's, rooted at the root's coordinate d.
 *
 * Rank order is the root's send order: ranks are laid out row-major, so the member at
 * coordinate k of a phase-d line receives the contiguous run of stride[d] ranks' blocks it
 * passes on. Blocks travel packed (MPI_PACKED, b bytes per rank), packed once at the root and
 * unpacked once at their rank. Cost: the phase algorithm on n[0] ranks with b * p / n[0] bytes
 * each, then on n[1] ranks with b * stride[1] bytes each, ...
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

AC_ROOTED_BY_SCHEDULE(scatter, orthogonal)

int ac_scatter_orthogonal_schedule(ac_sched *s, const void *sbuf, int scount, MPI_Datatype stype,
                                   void *rbuf, int rcount, MPI_Datatype rtype, int root,
                                   const ac_params *p)
{
    int rc, rank, size, root_coord[3];
    MPI_Aint block;
    const ac_mesh *m;
    char *have = NULL;
    rc = ac_rooted_block(s->comm, root, scount, stype, rcount, rtype, &rank, &size, &block);
    if (rc == MPI_SUCCESS) rc = ac_mesh_get(s->comm, p, &m);
    if (rc != MPI_SUCCESS) return rc;
    ac_mesh_coords(m, root, root_coord);
    if (rank == root) {
        if (!(have = ac_sched_tmp(s, block * size + 1, MPI_BYTE))) return ac_sched_error(s);
        ac_sched_pack(s, sbuf, scount * size, stype, have, (int)(block * size));
    }
    /* Phase d: the line's root holds its n[d] members' runs of stride[d] ranks each. */
    for (int d = 0; d < m->ndims && rc == MPI_SUCCESS; d++) {
        if (!ac_mesh_in_phase(m, root_coord, d)) continue;
        int bytes = (int)(block * m->stride[d]);
        char *next = ac_sched_tmp(s, (MPI_Aint)bytes + 1, MPI_BYTE);
        if (!next) return ac_sched_error(s);
        rc = ac_phase_scatter(s, p->phase, m->line[d], have, bytes, MPI_PACKED, next, bytes,
                              MPI_PACKED, root_coord[d]);
        have = next;
    }
    if (rc == MPI_SUCCESS && !(rank == root && rbuf == MPI_IN_PLACE))
        ac_sched_unpack(s, have, (int)block, rbuf, rcount, rtype);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}
