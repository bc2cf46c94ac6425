/*
 * send_recv_pair.c - Send_Recv_pair (and Send_Recv_pair_pack): one dimension at a time with
 * blocking MPI_Send and MPI_Recv. ADCL Table 1: MPI_Send/Recv.
 *
 * Each dimension in two shifts, to the right then to the left. In each shift a process with an
 * even coordinate sends first and receives second, an odd one the other way round: along a line
 * or a ring every chain of waiting processes ends at an odd one (a ring of two or more holds
 * one), so no cycle of blocking sends forms, whatever the MPI library buffers.
 * Requirements: the coordinates of a Cartesian topology, and no process its own neighbour (a
 * periodic dimension of one process would send to itself, blocking). Everything runs in init.
 * Cost: 2*ndims rounds of one message.
 */
#include "adcl/halo/halo.h"

int ac_halo_send_recv_pair(ac_halo *h)
{
    int rc = MPI_SUCCESS;
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++) {
        int even = h->coords[d] % 2 == 0;
        /* Shift toward side s: send through s, receive the halo of side 1 - s. */
        for (int s = 1; s >= 0 && rc == MPI_SUCCESS; s--) {
            if (even) {
                rc = ac_halo_send(h, d, s);
                if (rc == MPI_SUCCESS) rc = ac_halo_recv(h, d, 1 - s);
            } else {
                rc = ac_halo_recv(h, d, 1 - s);
                if (rc == MPI_SUCCESS) rc = ac_halo_send(h, d, s);
            }
        }
    }
    return rc;
}
