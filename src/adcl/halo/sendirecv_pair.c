/*
 * sendirecv_pair.c - SendIrecv_pair (and SendIrecv_pair_pack): one dimension at a time,
 * receives posted first, blocking sends. ADCL Table 1: MPI_Send/Irecv/Wait.
 *
 * For each dimension: post both receives, send to both neighbours, wait. A process sends in
 * dimension d only to neighbours that finished dimension d - 1 or will without it (they need
 * nothing from it there), so the blocking sends find their receives posted. init does all but
 * the last dimension's wait.
 * Cost: ndims rounds of 2 messages each.
 */
#include "adcl/halo/halo.h"

int ac_halo_sendirecv_pair_init(ac_halo *h)
{
    int rc = MPI_SUCCESS;
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++) {
        rc = ac_halo_irecv(h, d, 0);
        if (rc == MPI_SUCCESS) rc = ac_halo_irecv(h, d, 1);
        if (rc == MPI_SUCCESS) rc = ac_halo_send(h, d, 0);
        if (rc == MPI_SUCCESS) rc = ac_halo_send(h, d, 1);
        if (rc == MPI_SUCCESS && d < h->ndims - 1) rc = ac_halo_complete(h);
    }
    return rc;
}

int ac_halo_sendirecv_pair_wait(ac_halo *h)
{
    return ac_halo_complete(h);
}
