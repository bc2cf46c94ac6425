/*
 * winfence_pair.c - WinFencePut_pair and WinFenceGet_pair: one-sided, one dimension per fence
 * epoch. ADCL Table 1: MPI_Put (MPI_Get) / MPI_Win_fence.
 *
 * For each dimension a fence epoch with the accesses to (from) its two neighbours. init runs
 * every dimension but the last epoch's closing fence, which wait runs.
 * Cost: ndims + 1 fences (collective over the communicator) and 2*ndims accesses.
 */
#include "adcl/halo/halo.h"

int ac_halo_winfence_pair_init(ac_halo *h)
{
    int rc = PMPI_Win_fence(MPI_MODE_NOPRECEDE, h->win);
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++) {
        rc = ac_halo_access(h, d, 0);
        if (rc == MPI_SUCCESS) rc = ac_halo_access(h, d, 1);
        if (rc == MPI_SUCCESS && d < h->ndims - 1) rc = PMPI_Win_fence(0, h->win);
    }
    return rc;
}

int ac_halo_winfence_pair_wait(ac_halo *h)
{
    return PMPI_Win_fence(MPI_MODE_NOSUCCEED, h->win);
}
