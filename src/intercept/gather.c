/*
 * gather.c - MPI_Gather and MPI_Gather_c.
 */
#include "intercept/intercept.h"

int ac_gather_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    ac_comm *c;
    if (scount < 0 || rcount < 0 || !ac_root_ok(comm, root)) {
        ac_count_passthrough(comm, AC_GATHER);
        return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    }
    c = ac_comm_enter(comm, AC_GATHER);
    if (!c) return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    ac_call call = ac_call_make(c, AC_GATHER);
    int rank_is_root = c->rank == root;
    call.bytes = rank_is_root && sbuf == MPI_IN_PLACE ? ac_signature_bytes(rcount, rtype)
                                                      : ac_signature_bytes(scount, stype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.gather(sbuf, scount, stype, rbuf, rcount, rtype, root, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start);
    return rc;
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm)
{
    return ac_gather_at(AC_CALLER, sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

#if MPI_VERSION >= 4
int MPI_Gather_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                 MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    int ns, nr;
    if (!ac_count_fits(scount, &ns) || !ac_count_fits(rcount, &nr)) {
        ac_count_passthrough(comm, AC_GATHER);
        return PMPI_Gather_c(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    }
    return ac_gather_at(AC_CALLER, sbuf, ns, stype, rbuf, nr, rtype, root, comm);
}
#endif
