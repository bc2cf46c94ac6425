/*
 * neighbor_win_fence_put.c - win_fence_put: one-sided. Each process packs its outgoing blocks
 * (MPI_Pack, so any datatype travels as bytes), learns from each receiver where in the
 * receiver's staging area its block goes (one address per edge, point to point), and writes
 * them there with MPI_Put in one MPI_Win_fence epoch; after the closing fence each process
 * unpacks its in-blocks with its own datatypes (MPI_Unpack).
 *
 * The window is a dynamic window made once per communicator (neighbor_topology.c, at the first
 * neighbourhood collective on it) and cached with the neighbours; the staging area is attached
 * to it and grows when a call needs more (attaching is local, so it needs no agreement). A
 * window over the receive buffer itself would have to be made per call (MPI_Win_create is
 * collective and the buffer changes), and the receiver's datatypes and displacements are
 * known only to it, hence the staging and the addresses sent each call.
 * Cost: two fences (synchronising over the communicator), a zero-payload round of one
 * address per edge, a pack and an unpack of every block, one put per edge.
 * Requirements: the window exists on every rank (AC_REQ_WINDOW). ADCL's WinFencePut_aao.
 */
#include "coll/common/neighbor.h"

#include <stdlib.h>

/* The tags of the address replies, receiver to sender: the mirror image of the data tags. */
static int reply_send_tag(const ac_neighbors *nb, int j)
{
    return nb->topology == AC_TOPOLOGY_CARTESIAN ? j ^ 1 : 0;
}

static int reply_recv_tag(const ac_neighbors *nb, int k)
{
    return nb->topology == AC_TOPOLOGY_CARTESIAN ? k : 0;
}

/* *buf holds at least `bytes` (reallocated, at least doubled, when it did not); attached to the
 * window when `attach`. */
static int ensure(ac_neighbors *nb, char **buf, MPI_Aint *have, MPI_Aint bytes, int attach)
{
    if (bytes <= *have) return MPI_SUCCESS;
    MPI_Aint want = bytes > 2 * *have ? bytes : 2 * *have;
    char *grown = malloc((size_t)want);
    if (!grown) return MPI_ERR_NO_MEM;
    int rc = attach && *buf ? PMPI_Win_detach(nb->win, *buf) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS && attach) rc = PMPI_Win_attach(nb->win, grown, want);
    if (rc != MPI_SUCCESS) {
        free(grown);
        return rc;
    }
    free(*buf);
    *buf = grown;
    *have = want;
    return MPI_SUCCESS;
}

/* offsets[0..n]: the packed blocks one after the other. */
static int layout(const ac_neighbor_block *blocks, int n, MPI_Comm comm, MPI_Aint *offsets)
{
    int rc = MPI_SUCCESS;
    offsets[0] = 0;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int size = 0;
        rc = PMPI_Pack_size(blocks[i].count, blocks[i].type, comm, &size);
        offsets[i + 1] = offsets[i] + size;
    }
    return rc;
}

/* Every receiver tells each sender the address of its block; the sends are packed meanwhile. */
static int exchange_addresses(ac_neighbors *nb, MPI_Aint *in, MPI_Aint *out, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, n = 0;
    MPI_Aint base;
    MPI_Aint *addresses = in + nb->indegree + 1; /* after the offsets (neighbor.h) */
    rc = PMPI_Get_address(nb->staging, &base);
    for (int k = 0; k < nb->outdegree && rc == MPI_SUCCESS; k++, n++)
        rc = PMPI_Irecv(&nb->targets[k], 1, MPI_AINT, nb->dests[k], reply_recv_tag(nb, k), comm,
                        &nb->requests[n]);
    for (int j = 0; j < nb->indegree && rc == MPI_SUCCESS; j++, n++) {
        addresses[j] = base + in[j];
        rc = PMPI_Isend(&addresses[j], 1, MPI_AINT, nb->sources[j], reply_send_tag(nb, j), comm,
                        &nb->requests[n]);
    }
    if (rc != MPI_SUCCESS) n--;
    MPI_Aint *lengths = out + nb->outdegree + 1; /* the bytes each block packed to */
    for (int k = 0; k < nb->outdegree && rc == MPI_SUCCESS; k++) {
        int position = 0;
        rc = PMPI_Pack(nb->send[k].buf, nb->send[k].count, nb->send[k].type, nb->packed + out[k],
                       (int)(out[k + 1] - out[k]), &position, comm);
        lengths[k] = position;
    }
    int wrc = PMPI_Waitall(n, nb->requests, nb->statuses);
    return rc != MPI_SUCCESS ? rc : wrc;
}

int ac_neighbor_win_fence_put(ac_neighbors *nb, MPI_Comm comm)
{
    MPI_Aint *in = nb->offsets, *out = nb->offsets + 2 * (nb->indegree + 1); /* neighbor.h */
    int rc = layout(nb->recv, nb->indegree, comm, in);
    if (rc == MPI_SUCCESS) rc = layout(nb->send, nb->outdegree, comm, out);
    if (rc == MPI_SUCCESS)
        rc = ensure(nb, &nb->staging, &nb->staging_bytes, in[nb->indegree] + 1, 1);
    if (rc == MPI_SUCCESS)
        rc = ensure(nb, &nb->packed, &nb->packed_bytes, out[nb->outdegree] + 1, 0);
    if (rc == MPI_SUCCESS) rc = exchange_addresses(nb, in, out, comm);
    if (rc == MPI_SUCCESS) rc = PMPI_Win_fence(MPI_MODE_NOPRECEDE, nb->win);
    for (int k = 0; k < nb->outdegree && rc == MPI_SUCCESS; k++) {
        /* what MPI_Pack wrote, not MPI_Pack_size's bound (SMPI's exceeds it, and the slot at
         * the receiver holds the block's bytes only) */
        int bytes = (int)out[nb->outdegree + 1 + k]; /* exchange_addresses' lengths */
        if (bytes > 0 && nb->dests[k] != MPI_PROC_NULL)
            rc = PMPI_Put(nb->packed + out[k], bytes, MPI_BYTE, nb->dests[k], nb->targets[k], bytes,
                          MPI_BYTE, nb->win);
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Win_fence(MPI_MODE_NOSUCCEED, nb->win);
    for (int j = 0; j < nb->indegree && rc == MPI_SUCCESS; j++) {
        int position = 0;
        if (nb->sources[j] != MPI_PROC_NULL)
            rc = PMPI_Unpack(nb->staging + in[j], (int)(in[j + 1] - in[j]), &position,
                             nb->recv[j].buf, nb->recv[j].count, nb->recv[j].type, comm);
    }
    return rc;
}
