/*
 * reduce_orthogonal.c - reduce over an orthogonal processor mesh (decomposition paper,
 * seeds/003, section 2: the gather's phases, combining instead of collecting). Every row group
 * reduces at its member in the root's column (the leader group), then the leader group reduces
 * those partial results at the root (in 3D, one more phase in between). Phase d, from the last
 * dimension to the first, runs params->phase (native or one of ours) on the cached line
 * communicators of dimension d (common/mesh.h) among the ranks whose later coordinates are the
 * root's, rooted at the root's coordinate d.
 *
 * Operand order: ranks are laid out row-major, so a phase-d line combines, in coordinate
 * order, partial results over consecutive rank runs, and the result is x_0 op ... op x_(p-1)
 * for any op, provided the phase algorithm keeps rank order (MPI requires it of native; ours
 * are chosen to). Cost: the phase algorithm on n[D-1], then n[D-2], ... ranks with the whole
 * vector; partial results live in up to two temporary vectors at the phase roots.
 * Requirements: the layout factors the size (AC_REQ_MESH_LAYOUT) and the phase algorithm's
 * own (none for native and the trees). MPI_IN_PLACE at the root. The first call with
 * a layout builds its communicators.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its line of the mesh, a phase of
 * the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"
#include "coll/common/phase.h"

AC_REDUCE_BY_SCHEDULE(orthogonal)

int ac_reduce_orthogonal_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                                  MPI_Datatype dtype, MPI_Op op, int root, const ac_params *p)
{
    int rc, rank = s->rank, root_coord[3];
    const ac_mesh *m;
    void *partial[2] = {NULL, NULL};
    rc = ac_mesh_get(s->comm, p, &m);
    if (rc != MPI_SUCCESS) return rc;
    ac_mesh_coords(m, root, root_coord);
    const void *send = rank == root && sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    for (int d = m->ndims - 1; d >= 0 && rc == MPI_SUCCESS; d--) {
        if (!ac_mesh_in_phase(m, root_coord, d)) break;
        int is_root = m->coord[d] == root_coord[d];
        void *recv = NULL;
        if (d == 0) {
            recv = rbuf;
        } else if (is_root) {
            void **t = &partial[d % 2];
            if (!*t && !(*t = ac_sched_tmp(s, count, dtype)) && count > 0)
                return ac_sched_error(s);
            recv = *t;
        }
        rc = ac_phase_reduce(s, p->phase, m->line[d], send, recv, count, dtype, op,
                             root_coord[d]);
        if (!is_root) break;
        send = recv;
    }
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}
