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
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"

#include <stdlib.h>
#include <string.h>

/* Position of mixed index i in the chunk-grouped order of phase d. */
static int grouped(const ac_mesh *m, int d, int i)
{
    int st = m->stride[d], nd = m->n[d], per = m->stride[0] * m->n[0] / nd;
    return (i / st % nd) * per + i / (st * nd) * st + i % st;
}

int ac_alltoall_orthogonal(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    int rc, size, tsize;
    const ac_mesh *m;
    char *blocks = NULL, *out = NULL, *in = NULL;
    rc = ac_mesh_get(comm, p, &m);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_size(rtype, &tsize);
    if (rc != MPI_SUCCESS) return rc;
    PMPI_Comm_size(comm, &size);
    MPI_Aint b = (MPI_Aint)rcount * tsize, all = b * size;
    blocks = malloc((size_t)all + 1);
    out = malloc((size_t)all + 1);
    in = malloc((size_t)all + 1);
    if (!blocks || !out || !in) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    if (sbuf == MPI_IN_PLACE)
        rc = ac_alltoall_pack(rbuf, rcount, rtype, 0, size, blocks, b, comm);
    else
        rc = ac_alltoall_pack(sbuf, scount, stype, 0, size, blocks, b, comm);
    for (int d = m->ndims - 1; d >= 0 && rc == MPI_SUCCESS; d--) {
        for (int i = 0; i < size; i++)
            memcpy(out + grouped(m, d, i) * b, blocks + i * b, (size_t)b);
        int chunk = (int)(all / m->n[d]);
        rc = p->phase->fn.alltoall(out, chunk, MPI_PACKED, in, chunk, MPI_PACKED, m->line[d],
                                   p->phase->params);
        for (int i = 0; i < size; i++)
            memcpy(blocks + i * b, in + grouped(m, d, i) * b, (size_t)b);
    }
    if (rc == MPI_SUCCESS) rc = ac_alltoall_unpack(blocks, b, 0, size, rbuf, rcount, rtype, comm);
out:
    free(blocks);
    free(out);
    free(in);
    return rc;
}
