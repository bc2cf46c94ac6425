/*
 * isendirecv_pair.c - IsendIrecv_pair (and IsendIrecv_pair_pack): one dimension (its pair of
 * neighbours) at a time with nonblocking primitives. ADCL Table 1: MPI_Isend/Irecv/Waitall.
 *
 * For each dimension: post both receives, start both sends, wait for the four. init does every
 * dimension but the last completely and starts the last; wait completes it.
 * Cost: ndims rounds of 2 messages each.
 */
#include "adcl/halo/halo.h"

static int start_dimension(ac_halo *h, int d)
{
    int rc = ac_halo_irecv(h, d, 0);
    if (rc == MPI_SUCCESS) rc = ac_halo_irecv(h, d, 1);
    if (rc == MPI_SUCCESS) rc = ac_halo_isend(h, d, 0);
    if (rc == MPI_SUCCESS) rc = ac_halo_isend(h, d, 1);
    return rc;
}

int ac_halo_isendirecv_pair_init(ac_halo *h)
{
    int rc = MPI_SUCCESS;
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++) {
        rc = start_dimension(h, d);
        if (rc == MPI_SUCCESS && d < h->ndims - 1) rc = ac_halo_complete(h);
    }
    return rc;
}

int ac_halo_isendirecv_pair_wait(ac_halo *h)
{
    return ac_halo_complete(h);
}
