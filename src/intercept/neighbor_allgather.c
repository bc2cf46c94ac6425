/*
 * neighbor_allgather.c - MPI_Neighbor_allgather and MPI_Neighbor_allgather_c.
 */
#include "intercept/intercept.h"

int ac_neighbor_allgather_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype,
                             void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    ac_neighbors *nb;
    ac_call call;
    ac_comm *c = NULL;
    if (scount >= 0 && rcount >= 0 && stype != MPI_DATATYPE_NULL && rtype != MPI_DATATYPE_NULL)
        c = ac_enter_neighbor(comm, AC_NEIGHBOR_ALLGATHER, sbuf, &nb, &call);
    else
        ac_count_passthrough(comm, AC_NEIGHBOR_ALLGATHER, AC_PASS_ARGUMENTS);
    if (!c) return PMPI_Neighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    call.bytes = ac_signature_bytes(rcount, rtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc =
        alg->fn.neighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start);
    return rc;
}

int MPI_Neighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm)
{
    return ac_neighbor_allgather_at(AC_CALLER, sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

#if MPI_VERSION >= 4
int MPI_Neighbor_allgather_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                             MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    int ns, nr;
    if (!ac_count_fits(scount, &ns) || !ac_count_fits(rcount, &nr)) {
        ac_count_passthrough(comm, AC_NEIGHBOR_ALLGATHER, AC_PASS_LARGE_COUNT);
        return PMPI_Neighbor_allgather_c(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    }
    return ac_neighbor_allgather_at(AC_CALLER, sbuf, ns, stype, rbuf, nr, rtype, comm);
}
#endif
