/*
 * neighbor_alltoallw.c - Neighbor_alltoallw: the whole exchange as one MPI-3 neighbourhood
 * collective, MPI_Neighbor_alltoallw on the Cartesian communicator (not in ADCL's Table 1).
 *
 * The neighbours of a Cartesian communicator are, dimension after dimension, the source and the
 * destination of MPI_Cart_shift(d, 1): left then right, the order of the plan's faces. Block
 * 2d + s is the slab sent through side s and the halo filled from side s. A neighbour that is
 * MPI_PROC_NULL gets a block of count 0. The slabs are addressed from MPI_BOTTOM and the halos
 * from the vector, so the send and receive buffer arguments differ (the regions are disjoint).
 *
 * Periodic dimensions of one or two processes (MPI-4.0 erratum, MPI 4.1 section 8.6): the
 * left and right neighbour are then the same process (itself when one), and the standard says
 * the block sent to the destination arrives in that process's source (left) block and the block
 * sent to the source in its destination block, as the shift's direction says. Open MPI 4.1.4 and
 * MPICH 4.0.2 on this machine (checked with this file's exchange against MPI_Sendrecv,
 * tests/mpi/adcl_halo.c) match blocks between the same pair of processes in posting order
 * instead: the right halo receives the left one's data. The entry therefore requires at most
 * one process per side (AC_HALO_NEEDS_ONE_PER_SIDE): such topologies never run it.
 * Requirements: a Cartesian communicator. Everything runs in init (a blocking collective).
 */
#include "adcl/halo/halo.h"

int ac_halo_neighbor_alltoallw(ac_halo *h)
{
    int counts[2 * AC_HALO_MAXDIMS], rcounts[2 * AC_HALO_MAXDIMS];
    MPI_Aint sdispls[2 * AC_HALO_MAXDIMS], rdispls[2 * AC_HALO_MAXDIMS], base;
    MPI_Datatype stypes[2 * AC_HALO_MAXDIMS], rtypes[2 * AC_HALO_MAXDIMS];
    int rc = PMPI_Get_address(h->base, &base);
    if (rc != MPI_SUCCESS) return rc;
    for (int d = 0; d < h->ndims; d++)
        for (int s = 0; s < 2; s++) {
            int i = 2 * d + s, open = h->nbr[d][s] == MPI_PROC_NULL;
            counts[i] = rcounts[i] = open ? 0 : 1;
            stypes[i] = open ? MPI_BYTE : h->send[d][s];
            rtypes[i] = open ? MPI_BYTE : h->recv[d][s];
            sdispls[i] = base;
            rdispls[i] = 0;
        }
    return PMPI_Neighbor_alltoallw(MPI_BOTTOM, counts, sdispls, stypes, h->base, rcounts, rdispls,
                                   rtypes, h->comm);
}
