/*
 * sendrecv_pair.c - Sendrecv_pair (and Sendrecv_pair_pack): one dimension at a time with
 * MPI_Sendrecv. ADCL Table 1: MPI_Sendrecv.
 *
 * Each dimension in two shifts: to the right (send the right slab, receive the left halo), then
 * to the left. Everything runs in init.
 * Cost: 2*ndims rounds of one message each way.
 */
#include "adcl/halo/halo.h"

int ac_halo_sendrecv_pair(ac_halo *h)
{
    int rc = MPI_SUCCESS;
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++) {
        rc = ac_halo_sendrecv(h, d, 1);
        if (rc == MPI_SUCCESS) rc = ac_halo_sendrecv(h, d, 0);
    }
    return rc;
}
