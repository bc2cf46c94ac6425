/*
 * alltoall_orthogonal.c - all-to-all over an orthogonal processor mesh (decomposition paper,
 * seeds/003, section 2: one all-to-all phase per mesh dimension). In phase d, every rank sends
 * to the member at coordinate k of its line of dimension d all the blocks whose destination
 * has coordinate k there, as one all-to-all of params->phase (native or one of ours) on the
 * cached line communicators (common/mesh.h). After the last phase each rank holds exactly the
 * blocks addressed to it.
 *
 * Bookkeeping: a rank's p packed blocks are indexed row-major by a mixed coordinate whose
 * component e is the source's coordinate once dimension e has had its phase and the
 * destination's before; phase d sends the blocks with component d = k to member k (grouped
 * into one chunk of p / n[d] blocks, order kept) and files what member k sends at component d
 * = k. Phases run from the last dimension (the row groups) to the first.
 * Cost: D phases of the phase algorithm on n[d] ranks with p / n[d] blocks per pair: every
 * block travels D times (D p b bytes per rank instead of p b) for sum_d (n[d] - 1) messages
 * instead of p - 1; plus two local copies of all blocks per phase and three buffers of p b
 * bytes. Small-message decomposition.
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

#include <string.h>

/* Position of mixed index i in the chunk-grouped order of phase d. */
static int grouped(const ac_mesh *m, int d, int i)
{
    int st = m->stride[d], nd = m->n[d], per = m->stride[0] * m->n[0] / nd;
    return (i / st % nd) * per + i / (st * nd) * st + i % st;
}

/* Phase d's rearrangements of the blocks, local steps: into the grouped order before it, back
 * after it. */
typedef struct regroup {
    const ac_mesh *m;
    int d, size;
    MPI_Aint b;
    char *blocks, *out, *in;
} regroup;

static int to_grouped(const void *arg)
{
    const regroup *g = arg;
    for (int i = 0; i < g->size; i++)
        memcpy(g->out + grouped(g->m, g->d, i) * g->b, g->blocks + i * g->b, (size_t)g->b);
    return MPI_SUCCESS;
}

static int from_grouped(const void *arg)
{
    const regroup *g = arg;
    for (int i = 0; i < g->size; i++)
        memcpy(g->blocks + i * g->b, g->in + grouped(g->m, g->d, i) * g->b, (size_t)g->b);
    return MPI_SUCCESS;
}

AC_BLOCKS_BY_SCHEDULE(alltoall, orthogonal)

int ac_alltoall_orthogonal_schedule(ac_sched *s, const void *sbuf, int scount,
                                    MPI_Datatype stype, void *rbuf, int rcount,
                                    MPI_Datatype rtype, const ac_params *p)
{
    int rc, size = s->size, tsize;
    const ac_mesh *m;
    rc = ac_mesh_get(s->comm, p, &m);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_size(rtype, &tsize);
    if (rc != MPI_SUCCESS) return rc;
    MPI_Aint b = (MPI_Aint)rcount * tsize, all = b * size;
    char *blocks = ac_sched_tmp(s, all + 1, MPI_BYTE), *out = ac_sched_tmp(s, all + 1, MPI_BYTE);
    char *in = ac_sched_tmp(s, all + 1, MPI_BYTE);
    regroup *g = ac_sched_tmp(s, (MPI_Aint)sizeof *g * m->ndims, MPI_BYTE);
    if (!blocks || !out || !in || !g) return ac_sched_error(s);
    if (sbuf == MPI_IN_PLACE)
        rc = ac_alltoall_pack_schedule(s, rbuf, rcount, rtype, 0, size, blocks, b);
    else
        rc = ac_alltoall_pack_schedule(s, sbuf, scount, stype, 0, size, blocks, b);
    for (int d = m->ndims - 1; d >= 0 && rc == MPI_SUCCESS; d--) {
        g[d] = (regroup){m, d, size, b, blocks, out, in};
        ac_sched_local(s, to_grouped, &g[d]);
        int chunk = (int)(all / m->n[d]);
        rc = ac_phase_alltoall(s, p->phase, m->line[d], out, chunk, MPI_PACKED, in, chunk,
                               MPI_PACKED);
        ac_sched_local(s, from_grouped, &g[d]);
    }
    if (rc == MPI_SUCCESS)
        rc = ac_alltoall_unpack_schedule(s, blocks, b, 0, size, rbuf, rcount, rtype);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}
