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
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"

#include <stdlib.h>

int ac_scatter_orthogonal(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, position = 0, root_coord[3];
    MPI_Aint block;
    const ac_mesh *m;
    char *have = NULL, *next = NULL;
    rc = ac_rooted_block(comm, root, scount, stype, rcount, rtype, &rank, &size, &block);
    if (rc == MPI_SUCCESS) rc = ac_mesh_get(comm, p, &m);
    if (rc != MPI_SUCCESS) return rc;
    ac_mesh_coords(m, root, root_coord);
    if (rank == root) {
        if (!(have = malloc((size_t)(block * size) + 1))) return MPI_ERR_NO_MEM;
        rc = ac_pack(sbuf, scount * size, stype, have, (int)(block * size), &position, comm);
    }
    /* Phase d: the line's root holds its n[d] members' runs of stride[d] ranks each. */
    for (int d = 0; d < m->ndims && rc == MPI_SUCCESS; d++) {
        if (!ac_mesh_in_phase(m, root_coord, d)) continue;
        int bytes = (int)(block * m->stride[d]);
        if (!(next = malloc((size_t)bytes + 1))) {
            rc = MPI_ERR_NO_MEM;
            break;
        }
        rc = p->phase->fn.scatter(have, bytes, MPI_PACKED, next, bytes, MPI_PACKED, root_coord[d],
                                  m->line[d], p->phase->params);
        free(have);
        have = next;
        next = NULL;
    }
    position = 0;
    if (rc == MPI_SUCCESS && !(rank == root && rbuf == MPI_IN_PLACE))
        rc = ac_unpack(have, (int)block, &position, rbuf, rcount, rtype, comm);
    free(have);
    return rc;
}
