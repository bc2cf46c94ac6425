/*
 * bcast_orthogonal.c - broadcast over an orthogonal processor mesh (decomposition paper,
 * seeds/003, section 2 and Figure 2): the root broadcasts along its line of dimension 0 (its
 * column group, the leader group); then every rank reached broadcasts along its line of
 * dimension 1 (its row group, concurrently in all groups), and in 3D along dimension 2. Each
 * phase runs params->phase (native or one of ours) on the mesh's cached line communicators
 * (common/mesh.h), rooted at the root's coordinate.
 *
 * The message travels as its packed bytes (MPI_PACKED), so every phase moves the same n bytes
 * whatever the type layout. Cost: the phase algorithm's cost on n[0], then n[1] (then n[2])
 * ranks with n bytes, e.g. with binomial trees sum_d ceil(log2 n[d]) (alpha + n beta) -
 * ceil(log2 p) when the sizes are powers of two; the gain is in running the phases of
 * different lines at the same time and in the phase library's choice for smaller groups.
 * Requirements: the layout factors the size (AC_REQ_MESH_LAYOUT); the message fits in an int.
 * The first call with a layout builds its line communicators (one MPI_Comm_create_group per
 * dimension), later calls reuse them.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its line of the mesh, a phase of
 * the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"
#include "coll/common/phase.h"
#include "coll/common/pipeline.h"

AC_BCAST_BY_SCHEDULE(orthogonal)

int ac_bcast_orthogonal_schedule(ac_sched *s, void *buf, int count, MPI_Datatype dtype, int root,
                                 const ac_params *p)
{
    int rc, rank = s->rank, root_coord[3];
    const ac_mesh *m;
    ac_bytes bytes;
    rc = ac_mesh_get(s->comm, p, &m);
    if (rc != MPI_SUCCESS) return rc;
    ac_mesh_coords(m, root, root_coord);
    rc = ac_pipe_bytes(s, buf, count, dtype, rank == root, &bytes);
    if (rc != MPI_SUCCESS) return rc;
    for (int d = 0; d < m->ndims && rc == MPI_SUCCESS; d++)
        if (ac_mesh_in_phase(m, root_coord, d))
            rc = ac_phase_bcast(s, p->phase, m->line[d], bytes.data, bytes.size, MPI_PACKED,
                                root_coord[d]);
    if (rc == MPI_SUCCESS && rank != root) ac_pipe_bytes_store(s, &bytes, buf, count, dtype);
    return rc != MPI_SUCCESS ? rc : ac_sched_error(s);
}
