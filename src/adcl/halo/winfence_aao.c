/*
 * winfence_aao.c - WinFencePut_aao and WinFenceGet_aao: one-sided, all neighbours in one fence
 * epoch. ADCL Table 1: MPI_Put (MPI_Get) / MPI_Win_fence.
 *
 * The window covers the vector (made with the plan). Put: each process writes
 * its slabs into its neighbours' halos; Get: each reads its neighbours' slabs into its halos.
 * Slabs and halos are disjoint (halo.h), so the accesses of one epoch never conflict.
 * init opens the epoch (fence) and issues the accesses; wait closes it (fence).
 * Cost: two fences (collective over the communicator) and 2*ndims accesses.
 */
#include "adcl/halo/halo.h"

int ac_halo_winfence_aao_init(ac_halo *h)
{
    int rc = PMPI_Win_fence(MPI_MODE_NOPRECEDE, h->win);
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++)
        for (int s = 0; s < 2 && rc == MPI_SUCCESS; s++) rc = ac_halo_access(h, d, s);
    return rc;
}

int ac_halo_winfence_aao_wait(ac_halo *h)
{
    return PMPI_Win_fence(MPI_MODE_NOSUCCEED, h->win);
}
