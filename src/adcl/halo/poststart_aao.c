/*
 * poststart_aao.c - PostStartPut_aao and PostStartGet_aao: one-sided, all neighbours in one
 * post/start epoch (general active-target synchronisation). ADCL Table 1: MPI_Put (MPI_Get) /
 * MPI_Win_post/start.
 *
 * Each process exposes its window to its neighbours (post) and accesses theirs (start); only
 * neighbours synchronise, unlike a fence. init posts, starts and issues the accesses; wait
 * completes and waits.
 * Cost: one handshake with each neighbour and 2*ndims accesses.
 */
#include "adcl/halo/halo.h"

int ac_halo_poststart_aao_init(ac_halo *h)
{
    int rc = ac_halo_post_start(h, h->all_group);
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++)
        for (int s = 0; s < 2 && rc == MPI_SUCCESS; s++) rc = ac_halo_access(h, d, s);
    return rc;
}

int ac_halo_poststart_aao_wait(ac_halo *h)
{
    return ac_halo_complete_wait(h);
}
