/*
 * inplace.c - the start shared by the alltoallv engines of this folder: the rank's own block,
 * and MPI_IN_PLACE support; and the phased engines' exchange of one phase.
 *
 * With MPI_IN_PLACE the outgoing data lives in the receive buffer and is overwritten by the
 * incoming data, so the engines send from a copy. The copy is one memcpy of the byte range that
 * spans every outgoing block (true lower bound and true extent honoured, negative extents
 * included); the copy keeps rbuf's layout, so the engines address it with rdispls and rtype.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

#include <stdlib.h>
#include <string.h>

int ac_alltoallv_inplace_copy(const void *rbuf, const int *rcounts, const int *rdispls,
                              MPI_Datatype rtype, int size, int self, void **base,
                              const void **sbuf)
{
    MPI_Aint lb, extent, true_lb, true_extent, lo = 0, hi = 0;
    int any = 0;
    PMPI_Type_get_extent(rtype, &lb, &extent);
    PMPI_Type_get_true_extent(rtype, &true_lb, &true_extent);
    *base = NULL;
    *sbuf = NULL;
    for (int i = 0; i < size; i++) {
        if (i == self || rcounts[i] == 0) continue;
        MPI_Aint start = (MPI_Aint)rdispls[i] * extent + true_lb;
        MPI_Aint last = (MPI_Aint)(rcounts[i] - 1) * extent;
        MPI_Aint b_lo = start + (last < 0 ? last : 0);
        MPI_Aint b_hi = start + true_extent + (last > 0 ? last : 0);
        if (!any || b_lo < lo) lo = b_lo;
        if (!any || b_hi > hi) hi = b_hi;
        any = 1;
    }
    if (!any) { /* nothing goes out: any valid address will do */
        *sbuf = rbuf;
        return MPI_SUCCESS;
    }
    *base = malloc((size_t)(hi - lo) + 1);
    if (!*base) return MPI_ERR_NO_MEM;
    memcpy(*base, (const char *)rbuf + lo, (size_t)(hi - lo));
    *sbuf = (const char *)*base - lo;
    return MPI_SUCCESS;
}

int ac_alltoallv_start(ac_alltoallv_frame *f, const void *sbuf, const int *scounts,
                       const int *sdispls, MPI_Datatype stype, void *rbuf, const int *rcounts,
                       const int *rdispls, MPI_Datatype rtype, MPI_Comm comm)
{
    int rc;
    *f = (ac_alltoallv_frame){.sbuf = sbuf, .scounts = scounts, .sdispls = sdispls,
                              .stype = stype, .rbuf = rbuf, .rcounts = rcounts,
                              .rdispls = rdispls, .rtype = rtype};
    PMPI_Comm_rank(comm, &f->rank);
    PMPI_Comm_size(comm, &f->size);
    if (sbuf != MPI_IN_PLACE) {
        rc = ac_copy((const char *)sbuf + sdispls[f->rank] * ac_extent(stype), scounts[f->rank],
                     stype, (char *)rbuf + rdispls[f->rank] * ac_extent(rtype), rcounts[f->rank],
                     rtype);
    } else {
        /* In place: the own block is already where it belongs; send from a copy of the rest. */
        f->scounts = rcounts;
        f->sdispls = rdispls;
        f->stype = rtype;
        rc = ac_alltoallv_inplace_copy(rbuf, rcounts, rdispls, rtype, f->size, f->rank, &f->copy,
                                       &f->sbuf);
    }
    if (rc != MPI_SUCCESS) return rc;
    f->sext = ac_extent(f->stype);
    f->rext = ac_extent(rtype);
    PMPI_Type_size(f->stype, &f->ssize);
    PMPI_Type_size(rtype, &f->rsize);
    return MPI_SUCCESS;
}

int ac_alltoallv_exchange(const ac_alltoallv_frame *f, int to, int from, MPI_Comm comm)
{
    int sendto = f->scounts[to] == 0 || f->ssize == 0 ? MPI_PROC_NULL : to;
    int recvfrom = f->rcounts[from] == 0 || f->rsize == 0 ? MPI_PROC_NULL : from;
    return PMPI_Sendrecv((const char *)f->sbuf + f->sdispls[to] * f->sext, f->scounts[to],
                         f->stype, sendto, AC_TAG_DATA,
                         (char *)f->rbuf + f->rdispls[from] * f->rext, f->rcounts[from],
                         f->rtype, recvfrom, AC_TAG_DATA, comm, MPI_STATUS_IGNORE);
}
