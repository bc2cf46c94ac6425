/*
 * poststart_pair.c - PostStartPut_pair and PostStartGet_pair: one-sided, one post/start epoch
 * per dimension with its two neighbours. ADCL Table 1: MPI_Put (MPI_Get) / MPI_Win_post/start.
 *
 * init runs every dimension's epoch but the last one's completion, which wait runs.
 * Cost: ndims handshakes with two neighbours and 2*ndims accesses.
 */
#include "adcl/halo/halo.h"

int ac_halo_poststart_pair_init(ac_halo *h)
{
    int rc = ac_halo_window(h);
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++) {
        rc = ac_halo_post_start(h, ac_halo_dim_group(h, d));
        if (rc == MPI_SUCCESS) rc = ac_halo_access(h, d, 0);
        if (rc == MPI_SUCCESS) rc = ac_halo_access(h, d, 1);
        if (rc == MPI_SUCCESS && d < h->ndims - 1) rc = ac_halo_complete_wait(h);
    }
    return rc;
}

int ac_halo_poststart_pair_wait(ac_halo *h)
{
    return ac_halo_complete_wait(h);
}
