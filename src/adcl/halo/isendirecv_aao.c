/*
 * isendirecv_aao.c - IsendIrecv_aao (and IsendIrecv_aao_pack): all neighbours at once with
 * nonblocking primitives. ADCL Table 1: MPI_Isend/Irecv/Waitall.
 *
 * init posts every receive, then starts every send; wait completes them all (and unpacks). The
 * exchange overlaps whatever the program does between ADCL_Request_init and _wait.
 * Cost: one round of 2*ndims messages in flight together.
 */
#include "adcl/halo/halo.h"

int ac_halo_isendirecv_aao_init(ac_halo *h)
{
    int rc = MPI_SUCCESS;
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++)
        for (int s = 0; s < 2 && rc == MPI_SUCCESS; s++) rc = ac_halo_irecv(h, d, s);
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++)
        for (int s = 0; s < 2 && rc == MPI_SUCCESS; s++) rc = ac_halo_isend(h, d, s);
    return rc;
}

int ac_halo_isendirecv_aao_wait(ac_halo *h)
{
    return ac_halo_complete(h);
}
