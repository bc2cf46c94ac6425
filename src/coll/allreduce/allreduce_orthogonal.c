/*
 * allreduce_orthogonal.c - all-reduce over an orthogonal processor mesh (decomposition paper,
 * seeds/003, section 2, multi-accumulation): an all-reduce in every row group, then in every
 * column group (in 3D, along the third dimension in between), each phase running
 * params->phase (native or one of ours) on the cached line communicators (common/mesh.h), in
 * place in rbuf after the first.
 *
 * Operand order: ranks are laid out row-major, so the row phase combines consecutive ranks and
 * the column phase combines the row results in row order: x_0 op ... op x_(p-1) for any op,
 * provided the phase algorithm keeps rank order. Every rank gets the same bits when the phase
 * algorithm gives the same bits on every rank of a line, since all lines of a phase combine
 * equal inputs of equal size. Cost: the phase algorithm on n[D-1], then n[D-2], ... ranks with
 * the whole vector, no temporary buffer of its own.
 * Requirements: the layout factors the size (AC_REQ_MESH_LAYOUT) and the phase algorithm's own
 * (none for native and recursive doubling; a commutative op for ring and Rabenseifner).
 * MPI_IN_PLACE. The first call with a layout builds its communicators.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its line of the mesh, a phase of
 * the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/mesh.h"
#include "coll/common/phase.h"

AC_ALLREDUCE_BY_SCHEDULE(orthogonal)

int ac_allreduce_orthogonal_schedule(ac_sched *s, const void *sbuf, void *rbuf, int count,
                                     MPI_Datatype dtype, MPI_Op op, const ac_params *p)
{
    const ac_mesh *m;
    int rc = ac_mesh_get(s->comm, p, &m);
    if (rc != MPI_SUCCESS) return rc;
    for (int d = m->ndims - 1; d >= 0 && rc == MPI_SUCCESS; d--) {
        rc = ac_phase_allreduce(s, p->phase, m->line[d], sbuf, rbuf, count, dtype, op);
        sbuf = MPI_IN_PLACE;
    }
    return rc;
}
