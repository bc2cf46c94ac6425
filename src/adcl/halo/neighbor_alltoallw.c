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
 * Periodic dimensions of one or two processes (the MPI-4.0 erratum, MPI 4.1 section 8.6): the
 * left and the right neighbour are then the same process (itself when the dimension has one),
 * and the standard says the block sent to the destination (right) arrives in that process's
 * source (left) block and the block sent to the source in its destination block, as the
 * shift's direction says. Checked here with ac_halo_neighbor_alltoallw_check on 1 to 4 ranks
 * (tests/mpi/adcl_halo.c): Open MPI 4.1.4 follows the standard; MPICH 4.0.2 does not (it
 * matches the blocks between one pair of processes in posting order, so a right halo receives
 * what belongs in the left one). Rather than trusting a library's version, the request checks
 * the library once on its communicator when a dimension has one process on both sides, and the
 * entry requires the check to pass (AC_HALO_NEEDS_STANDARD_NEIGHBORS).
 * SimGrid 3.32's SMPI aborts in MPI_Neighbor_alltoallw ("Not yet implemented"); the build says
 * whether the library has it (AUTOCOLL_NEIGHBOR_COLLECTIVES, CMakeLists.txt).
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

int ac_halo_neighbor_alltoallw_check(ac_halo *h, int *ok)
{
    int send[2 * AC_HALO_MAXDIMS], recv[2 * AC_HALO_MAXDIMS], counts[2 * AC_HALO_MAXDIMS];
    MPI_Aint displs[2 * AC_HALO_MAXDIMS];
    MPI_Datatype types[2 * AC_HALO_MAXDIMS];
    int mine = 1, rc;
    /* Block 2d + s carries (rank, d, s); the block received from side s must be the one the
     * neighbour there sent through its side 1 - s. */
    for (int d = 0; d < h->ndims; d++)
        for (int s = 0; s < 2; s++) {
            int i = 2 * d + s;
            send[i] = h->rank * 4 * AC_HALO_MAXDIMS + i;
            recv[i] = -1;
            counts[i] = 1;
            displs[i] = i * (MPI_Aint)sizeof(int);
            types[i] = MPI_INT;
        }
    rc = PMPI_Neighbor_alltoallw(send, counts, displs, types, recv, counts, displs, types,
                                 h->comm);
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++)
        for (int s = 0; s < 2; s++) {
            int from = h->nbr[d][s];
            int sent = from * 4 * AC_HALO_MAXDIMS + 2 * d + 1 - s; /* its block toward us */
            if (from != MPI_PROC_NULL && recv[2 * d + s] != sent) mine = 0;
        }
    if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(&mine, ok, 1, MPI_INT, MPI_MIN, h->comm);
    return rc;
}

int ac_halo_neighbor_collectives(void)
{
    return AUTOCOLL_NEIGHBOR_COLLECTIVES;
}
