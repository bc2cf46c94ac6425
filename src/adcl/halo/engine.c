/*
 * engine.c - the steps the neighbourhood-exchange implementations are made of: posting,
 * sending and receiving one face (with its derived datatype, or packed into a contiguous buffer
 * when the running implementation's data attribute is pack), completing what was posted, and
 * the one-sided window with its accesses and post/start epochs. Tags and sides: halo.h.
 */
#include "adcl/halo/halo.h"

static int packs(const ac_halo *h)
{
    return h->impl->data == AC_HALO_PACK;
}

/* Tag of a message leaving through side s of dimension d; a halo of side s is filled by the
 * message its neighbour sent through side 1 - s. */
static int tag_out(int d, int s)
{
    return AC_HALO_TAG + 2 * d + s;
}

static int tag_in(int d, int s)
{
    return AC_HALO_TAG + 2 * d + 1 - s;
}

static int pack(ac_halo *h, int d, int s)
{
    int pos = 0;
    return PMPI_Pack(h->base, 1, h->send[d][s], h->send_buf[d][s], h->send_bytes[d][s], &pos,
                     h->comm);
}

static int unpack(ac_halo *h, int d, int s)
{
    int pos = 0;
    return PMPI_Unpack(h->recv_buf[d][s], h->recv_bytes[d][s], &pos, h->base, 1, h->recv[d][s],
                       h->comm);
}

int ac_halo_irecv(ac_halo *h, int d, int s)
{
    if (h->nbr[d][s] == MPI_PROC_NULL) return MPI_SUCCESS;
    if (packs(h)) {
        h->unpack[d][s] = 1;
        return PMPI_Irecv(h->recv_buf[d][s], h->recv_bytes[d][s], MPI_PACKED, h->nbr[d][s],
                          tag_in(d, s), h->comm, &h->reqs[h->nreqs++]);
    }
    return PMPI_Irecv(h->base, 1, h->recv[d][s], h->nbr[d][s], tag_in(d, s), h->comm,
                      &h->reqs[h->nreqs++]);
}

int ac_halo_isend(ac_halo *h, int d, int s)
{
    if (h->nbr[d][s] == MPI_PROC_NULL) return MPI_SUCCESS;
    if (packs(h)) {
        int rc = pack(h, d, s);
        if (rc != MPI_SUCCESS) return rc;
        return PMPI_Isend(h->send_buf[d][s], h->send_bytes[d][s], MPI_PACKED, h->nbr[d][s],
                          tag_out(d, s), h->comm, &h->reqs[h->nreqs++]);
    }
    return PMPI_Isend(h->base, 1, h->send[d][s], h->nbr[d][s], tag_out(d, s), h->comm,
                      &h->reqs[h->nreqs++]);
}

int ac_halo_send(ac_halo *h, int d, int s)
{
    if (h->nbr[d][s] == MPI_PROC_NULL) return MPI_SUCCESS;
    if (packs(h)) {
        int rc = pack(h, d, s);
        if (rc != MPI_SUCCESS) return rc;
        return PMPI_Send(h->send_buf[d][s], h->send_bytes[d][s], MPI_PACKED, h->nbr[d][s],
                         tag_out(d, s), h->comm);
    }
    return PMPI_Send(h->base, 1, h->send[d][s], h->nbr[d][s], tag_out(d, s), h->comm);
}

int ac_halo_recv(ac_halo *h, int d, int s)
{
    if (h->nbr[d][s] == MPI_PROC_NULL) return MPI_SUCCESS;
    if (packs(h)) {
        int rc = PMPI_Recv(h->recv_buf[d][s], h->recv_bytes[d][s], MPI_PACKED, h->nbr[d][s],
                           tag_in(d, s), h->comm, MPI_STATUS_IGNORE);
        return rc == MPI_SUCCESS ? unpack(h, d, s) : rc;
    }
    return PMPI_Recv(h->base, 1, h->recv[d][s], h->nbr[d][s], tag_in(d, s), h->comm,
                     MPI_STATUS_IGNORE);
}

int ac_halo_sendrecv(ac_halo *h, int d, int s)
{
    int to = h->nbr[d][s], from = h->nbr[d][1 - s];
    if (packs(h)) {
        int rc = MPI_SUCCESS;
        if (to != MPI_PROC_NULL) rc = pack(h, d, s);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Sendrecv(h->send_buf[d][s], to == MPI_PROC_NULL ? 0 : h->send_bytes[d][s],
                               MPI_PACKED, to, tag_out(d, s), h->recv_buf[d][1 - s],
                               from == MPI_PROC_NULL ? 0 : h->recv_bytes[d][1 - s], MPI_PACKED,
                               from, tag_in(d, 1 - s), h->comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && from != MPI_PROC_NULL) rc = unpack(h, d, 1 - s);
        return rc;
    }
    /* A face toward MPI_PROC_NULL has no datatype: send or receive nothing there. */
    return PMPI_Sendrecv(h->base, to == MPI_PROC_NULL ? 0 : 1,
                         to == MPI_PROC_NULL ? MPI_BYTE : h->send[d][s], to, tag_out(d, s),
                         h->base, from == MPI_PROC_NULL ? 0 : 1,
                         from == MPI_PROC_NULL ? MPI_BYTE : h->recv[d][1 - s], from,
                         tag_in(d, 1 - s), h->comm, MPI_STATUS_IGNORE);
}

int ac_halo_complete(ac_halo *h)
{
    MPI_Status stats[4 * AC_HALO_MAXDIMS]; /* not MPI_STATUSES_IGNORE: gcc's stringop-overflow
                                             * check rejects it with MPICH's mpi.h */
    int rc = PMPI_Waitall(h->nreqs, h->reqs, stats);
    h->nreqs = 0;
    for (int d = 0; d < h->ndims; d++)
        for (int s = 0; s < 2; s++) {
            if (!h->unpack[d][s]) continue;
            h->unpack[d][s] = 0;
            if (rc == MPI_SUCCESS) rc = unpack(h, d, s);
        }
    return rc;
}

/* The group of the distinct processes among ranks[0..n) (MPI_PROC_NULL left out). */
static int neighbour_group(const ac_halo *h, const int *ranks, int n, MPI_Group *group)
{
    int distinct[4 * AC_HALO_MAXDIMS], k = 0;
    MPI_Group all;
    for (int i = 0; i < n; i++) {
        int seen = ranks[i] == MPI_PROC_NULL;
        for (int j = 0; j < k && !seen; j++) seen = distinct[j] == ranks[i];
        if (!seen) distinct[k++] = ranks[i];
    }
    int rc = PMPI_Comm_group(h->comm, &all);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Group_incl(all, k, distinct, group);
    PMPI_Group_free(&all);
    return rc;
}

int ac_halo_window(ac_halo *h)
{
    int rc, ok;
    MPI_Errhandler previous;
    /* Open MPI 4.1.4 on this machine cannot make a window over a communicator of one process
     * (MPI_Win_create fails with MPI_ERR_WIN: its osc/rdma component is chosen and fails;
     * --mca osc ^rdma works). A failure anywhere makes the one-sided implementations
     * inapplicable for the request instead of aborting the run. */
    rc = PMPI_Comm_get_errhandler(h->comm, &previous);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_errhandler(h->comm, MPI_ERRORS_RETURN);
    if (rc != MPI_SUCCESS) return rc;
    ok = PMPI_Win_create(h->base, h->bytes, 1, MPI_INFO_NULL, h->comm, &h->win) == MPI_SUCCESS;
    if (!ok) h->win = MPI_WIN_NULL;
    PMPI_Comm_set_errhandler(h->comm, previous);
    PMPI_Errhandler_free(&previous);
    rc = PMPI_Allreduce(&ok, &h->window_ok, 1, MPI_INT, MPI_MIN, h->comm);
    /* A window made on some ranks only cannot be freed (MPI_Win_free is collective): it is
     * left to MPI_Finalize. */
    if (rc == MPI_SUCCESS && !h->window_ok) h->win = MPI_WIN_NULL;
    if (rc == MPI_SUCCESS) rc = neighbour_group(h, &h->nbr[0][0], 2 * h->ndims, &h->all_group);
    return rc;
}

int ac_halo_access(ac_halo *h, int d, int s)
{
    int to = h->nbr[d][s];
    if (to == MPI_PROC_NULL) return MPI_SUCCESS;
    if (h->impl->primitive == AC_HALO_PUT)
        return PMPI_Put(h->base, 1, h->send[d][s], to, 0, 1, h->remote_recv[d][s], h->win);
    return PMPI_Get(h->base, 1, h->recv[d][s], to, 0, 1, h->remote_send[d][s], h->win);
}

int ac_halo_post_start(ac_halo *h, MPI_Group group)
{
    int rc = PMPI_Win_post(group, 0, h->win);
    return rc == MPI_SUCCESS ? PMPI_Win_start(group, 0, h->win) : rc;
}

int ac_halo_complete_wait(ac_halo *h)
{
    int rc = PMPI_Win_complete(h->win);
    return rc == MPI_SUCCESS ? PMPI_Win_wait(h->win) : rc;
}
