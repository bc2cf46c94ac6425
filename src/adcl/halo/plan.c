/*
 * plan.c - the plan of a neighbourhood exchange: the faces of this process's vector as derived
 * datatypes (subarrays), their packed sizes and pack buffers, and the neighbours' faces toward
 * this process in the neighbours' own vectors (one-sided implementations address them there).
 * The neighbours exchange the shapes of their vectors once, here, so that processes may hold
 * vectors of different extents (the faces they share must agree).
 */
#include "adcl/halo/halo.h"

#include <stdlib.h>
#include <string.h>

/* The subarray of a vector of `total` dimensions `dims` covering, in dimension d, the w cells
 * from `start`, and the interior [w, n - w) of every other spatial dimension. */
static int face_type(int spatial, int total, const int *dims, int hwidth, int d, int start,
                     MPI_Datatype dat, MPI_Datatype *type)
{
    int sub[AC_HALO_MAXDIMS + 1], starts[AC_HALO_MAXDIMS + 1];
    for (int i = 0; i < total; i++) {
        if (i >= spatial) { /* the components */
            sub[i] = dims[i];
            starts[i] = 0;
        } else if (i == d) {
            sub[i] = hwidth;
            starts[i] = start;
        } else {
            sub[i] = dims[i] - 2 * hwidth;
            starts[i] = hwidth;
        }
    }
    int rc = PMPI_Type_create_subarray(total, (int *)dims, sub, starts, MPI_ORDER_C, dat, type);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(type);
    return rc;
}

/* Cells of a face of dimension d (with the component dimension). */
static long face_cells(int spatial, int total, const int *dims, int hwidth, int d)
{
    long cells = 1;
    for (int i = 0; i < total; i++)
        cells *= i >= spatial ? dims[i] : i == d ? hwidth : dims[i] - 2 * hwidth;
    return cells;
}

/* Start of the slab sent through side s and of the halo filled from side s, in dimension d. */
static int slab_start(const int *dims, int hwidth, int d, int s)
{
    return s == 0 ? hwidth : dims[d] - 2 * hwidth;
}

static int halo_start(const int *dims, int hwidth, int d, int s)
{
    return s == 0 ? 0 : dims[d] - hwidth;
}

int ac_halo_plan(ac_halo *h, MPI_Comm comm, int ndims, const int nbr[][2], const int *coords,
                 int cartesian, void *base, const int *dims, int nc, int hwidth, MPI_Datatype dat)
{
    int rc, size, total = ndims + (nc > 0);
    int full[AC_HALO_MAXDIMS + 2];
    MPI_Aint lb, extent, cells = 1;

    memset(h, 0, sizeof *h);
    h->comm = comm;
    h->ndims = ndims;
    h->cartesian = cartesian;
    h->base = base;
    h->win = MPI_WIN_NULL;
    h->all_group = MPI_GROUP_NULL;
    for (int d = 0; d < AC_HALO_MAXDIMS; d++) {
        for (int s = 0; s < 2; s++) {
            h->send[d][s] = h->recv[d][s] = MPI_DATATYPE_NULL;
            h->remote_send[d][s] = h->remote_recv[d][s] = MPI_DATATYPE_NULL;
            h->nbr[d][s] = MPI_PROC_NULL;
        }
    }
    rc = PMPI_Comm_rank(comm, &h->rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &size);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_get_extent(dat, &lb, &extent);
    if (rc != MPI_SUCCESS) return rc;
    memcpy(full, dims, (size_t)ndims * sizeof *full);
    if (nc > 0) full[ndims] = nc;
    for (int i = 0; i < total; i++) cells *= full[i];
    h->bytes = cells * extent;
    if (coords) {
        memcpy(h->coords, coords, (size_t)ndims * sizeof *coords);
        h->have_coords = 1;
    }
    for (int d = 0; d < ndims; d++) {
        h->nbr[d][0] = nbr[d][0];
        h->nbr[d][1] = nbr[d][1];
        if (nbr[d][0] == h->rank || nbr[d][1] == h->rank) h->self_neighbour = 1;
        if (nbr[d][0] != MPI_PROC_NULL && nbr[d][0] == nbr[d][1]) h->double_neighbour = 1;
    }

    for (int d = 0; d < ndims && rc == MPI_SUCCESS; d++) {
        for (int s = 0; s < 2 && rc == MPI_SUCCESS; s++) {
            if (h->nbr[d][s] == MPI_PROC_NULL) continue;
            rc = face_type(ndims, total, full, hwidth, d, slab_start(full, hwidth, d, s), dat,
                           &h->send[d][s]);
            if (rc == MPI_SUCCESS)
                rc = face_type(ndims, total, full, hwidth, d, halo_start(full, hwidth, d, s), dat,
                               &h->recv[d][s]);
            if (rc == MPI_SUCCESS)
                rc = PMPI_Pack_size(1, h->send[d][s], comm, &h->send_bytes[d][s]);
            if (rc == MPI_SUCCESS)
                rc = PMPI_Pack_size(1, h->recv[d][s], comm, &h->recv_bytes[d][s]);
            if (rc != MPI_SUCCESS) break;
            h->send_buf[d][s] = malloc((size_t)h->send_bytes[d][s] + 1);
            h->recv_buf[d][s] = malloc((size_t)h->recv_bytes[d][s] + 1);
            if (!h->send_buf[d][s] || !h->recv_buf[d][s]) rc = MPI_ERR_NO_MEM;
        }
    }
    if (rc != MPI_SUCCESS) return rc;

    full[total] = hwidth;
    /* Our shape and halo width to every neighbour, theirs from each (all at once: a neighbour
     * on both sides must not wait for the other side's message). The neighbour of side s sent
     * it through its side 1 - s; its slab toward us and its halo we fill are on that side. */
    int theirs[AC_HALO_MAXDIMS][2][AC_HALO_MAXDIMS + 2]; /* shape, then halo width */
    MPI_Request reqs[4 * AC_HALO_MAXDIMS];
    MPI_Status stats[4 * AC_HALO_MAXDIMS];
    int n = 0;
    for (int d = 0; d < ndims; d++)
        for (int s = 0; s < 2; s++) {
            if (h->nbr[d][s] == MPI_PROC_NULL) continue;
            rc = PMPI_Irecv(theirs[d][s], total + 1, MPI_INT, h->nbr[d][s],
                            AC_HALO_TAG + 2 * d + 1 - s, comm, &reqs[n++]);
            if (rc == MPI_SUCCESS)
                rc = PMPI_Isend(full, total + 1, MPI_INT, h->nbr[d][s], AC_HALO_TAG + 2 * d + s,
                                comm, &reqs[n++]);
            if (rc != MPI_SUCCESS) return rc;
        }
    rc = PMPI_Waitall(n, reqs, stats);
    for (int d = 0; d < ndims && rc == MPI_SUCCESS; d++)
        for (int s = 0; s < 2 && rc == MPI_SUCCESS; s++) {
            const int *shape = theirs[d][s];
            int w = shape[total];
            if (h->nbr[d][s] == MPI_PROC_NULL) continue;
            if (face_cells(ndims, total, full, hwidth, d) != face_cells(ndims, total, shape, w, d))
                h->mismatch = 1;
            rc = face_type(ndims, total, shape, w, d, slab_start(shape, w, d, 1 - s), dat,
                           &h->remote_send[d][s]);
            if (rc == MPI_SUCCESS)
                rc = face_type(ndims, total, shape, w, d, halo_start(shape, w, d, 1 - s), dat,
                               &h->remote_recv[d][s]);
        }
    return rc;
}

void ac_halo_release(ac_halo *h)
{
    if (h->win != MPI_WIN_NULL) PMPI_Win_free(&h->win);
    if (h->all_group != MPI_GROUP_NULL) PMPI_Group_free(&h->all_group);
    for (int d = 0; d < AC_HALO_MAXDIMS; d++) {
        for (int s = 0; s < 2; s++) {
            MPI_Datatype *types[] = {&h->send[d][s], &h->recv[d][s], &h->remote_send[d][s],
                                     &h->remote_recv[d][s]};
            for (int i = 0; i < 4; i++)
                if (*types[i] != MPI_DATATYPE_NULL) PMPI_Type_free(types[i]);
            free(h->send_buf[d][s]);
            free(h->recv_buf[d][s]);
            h->send_buf[d][s] = h->recv_buf[d][s] = NULL;
        }
    }
}
