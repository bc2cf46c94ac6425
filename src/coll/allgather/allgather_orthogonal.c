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
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"

#include <stdlib.h>

int ac_allgather_orthogonal(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                            int rcount, MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    int rc, rank, size, tsize, position = 0;
    const ac_mesh *m;
    rc = ac_mesh_get(comm, p, &m);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_size(rtype, &tsize);
    if (rc != MPI_SUCCESS) return rc;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    MPI_Aint b = (MPI_Aint)rcount * tsize;
    char *all = malloc((size_t)(b * size) + 1);
    if (!all) return MPI_ERR_NO_MEM;
    if (sbuf == MPI_IN_PLACE)
        rc = ac_pack(ac_at(rbuf, (MPI_Aint)rank * rcount * ac_extent(rtype)), rcount, rtype,
                     all + rank * b, (int)b, &position, comm);
    else
        rc = ac_pack(sbuf, scount, stype, all + rank * b, (int)b, &position, comm);
    for (int d = m->ndims - 1; d >= 0 && rc == MPI_SUCCESS; d--) {
        int first = rank - rank % (m->stride[d] * m->n[d]); /* first rank of the line's runs */
        rc = p->phase->fn.allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all + first * b,
                                    (int)(b * m->stride[d]), MPI_PACKED, m->line[d],
                                    p->phase->params);
    }
    position = 0;
    if (rc == MPI_SUCCESS)
        rc = ac_unpack(all, (int)(b * size), &position, rbuf, rcount * size, rtype, comm);
    free(all);
    return rc;
}
