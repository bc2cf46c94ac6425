/*
 * sendirecv_aao.c - SendIrecv_aao (and SendIrecv_aao_pack): all neighbours at once, receives
 * posted first, blocking sends. ADCL Table 1: MPI_Send/Irecv/Waitall.
 *
 * init posts every receive and then sends to each neighbour in turn (every process has posted
 * its receives before it sends, so the blocking sends cannot wait on each other); wait
 * completes the receives (and unpacks).
 * Cost: 2*ndims messages, sends serialised on the sender.
 */
#include "adcl/halo/halo.h"

int ac_halo_sendirecv_aao_init(ac_halo *h)
{
    int rc = MPI_SUCCESS;
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++)
        for (int s = 0; s < 2 && rc == MPI_SUCCESS; s++) rc = ac_halo_irecv(h, d, s);
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++)
        for (int s = 0; s < 2 && rc == MPI_SUCCESS; s++) rc = ac_halo_send(h, d, s);
    return rc;
}

int ac_halo_sendirecv_aao_wait(ac_halo *h)
{
    return ac_halo_complete(h);
}
