/*
 * topology.c - ADCL_Topology: who a process's neighbours are, in each dimension the left and
 * the right one (MPI_PROC_NULL on an open edge), from a Cartesian communicator or given.
 */
#include "adcl/adcl.h"

#include <stdlib.h>
#include <string.h>

static int make(ADCL_Topology *topo, MPI_Comm comm, int ndims, int cartesian, ADCL_Topology *made)
{
    ADCL_Topology t = calloc(1, sizeof *t);
    if (!t || ac_adcl_live_add(AC_ADCL_KIND_TOPOLOGY, t) != ADCL_SUCCESS) {
        free(t);
        return ADCL_NO_MEMORY;
    }
    t->comm = comm;
    t->ndims = ndims;
    t->cartesian = cartesian;
    *topo = *made = t;
    return ADCL_SUCCESS;
}

/* Whether comm carries a Cartesian topology, and its dimensions. MPI_Cartdim_get with errors
 * returned (the communicator's handler restored after), not MPI_Topo_test: SimGrid 3.32's SMPI
 * aborts in MPI_Topo_test ("Not yet implemented"). */
static int cartesian_dims(MPI_Comm comm, int *ndims)
{
    MPI_Errhandler previous;
    int ok;
    if (comm == MPI_COMM_NULL || PMPI_Comm_get_errhandler(comm, &previous) != MPI_SUCCESS)
        return 0;
    PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    ok = PMPI_Cartdim_get(comm, ndims) == MPI_SUCCESS;
    PMPI_Comm_set_errhandler(comm, previous);
    PMPI_Errhandler_free(&previous);
    return ok;
}

int ADCL_Topology_create(MPI_Comm cart_comm, ADCL_Topology *topo)
{
    int ndims, rank;
    ADCL_Topology t;
    if (!topo) return ac_adcl_fail(ADCL_INVALID_ARG, __func__, "the topology output is NULL");
    if (!cartesian_dims(cart_comm, &ndims))
        return ac_adcl_fail(ADCL_INVALID_COMM, __func__,
                            "not a communicator with a Cartesian topology");
    if (ndims < 1 || ndims > AC_HALO_MAXDIMS)
        return ac_adcl_fail(ADCL_INVALID_NDIMS, __func__, "%d dimensions (it takes 1 to %d)",
                            ndims, AC_HALO_MAXDIMS);
    if (make(topo, cart_comm, ndims, 1, &t) != ADCL_SUCCESS)
        return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    PMPI_Comm_rank(cart_comm, &rank);
    PMPI_Cart_coords(cart_comm, rank, ndims, t->coords);
    t->have_coords = 1;
    for (int d = 0; d < ndims; d++) PMPI_Cart_shift(cart_comm, d, 1, &t->nbr[d][0], &t->nbr[d][1]);
    return ADCL_SUCCESS;
}

int ADCL_Topology_create_generic(int ndims, int nneigh, int *lneighbors, int *flip,
                                 int *rneighbors, int *coords, int direction, MPI_Comm comm,
                                 ADCL_Topology *topo)
{
    int size;
    ADCL_Topology t;
    if (!topo) return ac_adcl_fail(ADCL_INVALID_ARG, __func__, "the topology output is NULL");
    if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return ac_adcl_fail(ADCL_INVALID_COMM, __func__, "not a valid communicator");
    if (ndims == 0 && nneigh == 0) {
        /* ADCL's topology of a communicator alone, for user function sets, whose functions
         * get the communicator (ADCL_Request_get_comm); a halo exchange refuses it (its
         * vector has dimensions). */
        if (make(topo, comm, 0, 0, &t) != ADCL_SUCCESS)
            return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
        return ADCL_SUCCESS;
    }
    if (ndims < 1 || ndims > AC_HALO_MAXDIMS || nneigh != ndims)
        return ac_adcl_fail(ADCL_INVALID_NDIMS, __func__,
                            "ndims %d, nneigh %d (it takes 0 dimensions and no neighbours, or "
                            "1 to %d dimensions, one pair of neighbours each)", ndims, nneigh,
                            AC_HALO_MAXDIMS);
    if (direction != ADCL_DIRECTION_BOTH)
        return ac_adcl_fail(ADCL_INVALID_DIRECTION, __func__,
                            "direction %d (ADCL_DIRECTION_BOTH only)", direction);
    if (!lneighbors || !rneighbors)
        return ac_adcl_fail(ADCL_INVALID_ARG, __func__, "NULL neighbour arrays");
    for (int i = 0; i < nneigh; i++) {
        int l = lneighbors[i], r = rneighbors[i];
        if ((l != MPI_PROC_NULL && (l < 0 || l >= size)) ||
            (r != MPI_PROC_NULL && (r < 0 || r >= size)))
            return ac_adcl_fail(ADCL_INVALID_ARG, __func__,
                                "neighbours %d and %d of dimension %d (ranks of the "
                                "communicator or MPI_PROC_NULL)", l, r, i);
        if (flip && flip[i])
            return ac_adcl_fail(ADCL_NOT_SUPPORTED, __func__,
                                "flip[%d] = %d (flipped neighbours are not supported)", i,
                                flip[i]);
    }
    if (make(topo, comm, ndims, 0, &t) != ADCL_SUCCESS)
        return ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory");
    for (int d = 0; d < ndims; d++) {
        t->nbr[d][0] = lneighbors[d];
        t->nbr[d][1] = rneighbors[d];
    }
    if (coords) {
        memcpy(t->coords, coords, (size_t)ndims * sizeof *coords);
        t->have_coords = 1;
    }
    return ADCL_SUCCESS;
}

int ADCL_Topology_free(ADCL_Topology *topo)
{
    if (!topo || !ac_adcl_live(AC_ADCL_KIND_TOPOLOGY, *topo))
        return ac_adcl_fail(ADCL_INVALID_TOPOLOGY, __func__, "not a live topology");
    ac_adcl_live_remove(AC_ADCL_KIND_TOPOLOGY, *topo);
    free(*topo);
    *topo = ADCL_TOPOLOGY_NULL;
    return ADCL_SUCCESS;
}
