/*
 * scatter.c - MPI_Scatter and MPI_Scatter_c.
 */
#include "intercept/intercept.h"

int ac_scatter_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    ac_comm *c;
    if (scount < 0 || rcount < 0 || !ac_root_ok(comm, root)) {
        ac_count_passthrough(comm, AC_SCATTER);
        return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    }
    c = ac_comm_enter(comm, AC_SCATTER);
    if (!c) return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    ac_call call = ac_call_make(c, AC_SCATTER);
    int rank_is_root = c->rank == root;
    call.bytes =
        rank_is_root ? ac_signature_bytes(scount, stype) : ac_signature_bytes(rcount, rtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    double start = ac_now();
    int rc = alg->fn.scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start);
    return rc;
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    return ac_scatter_at(AC_CALLER, sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

#if MPI_VERSION >= 4
int MPI_Scatter_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                  MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    int ns, nr;
    if (!ac_count_fits(scount, &ns) || !ac_count_fits(rcount, &nr)) {
        ac_count_passthrough(comm, AC_SCATTER);
        return PMPI_Scatter_c(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    }
    return ac_scatter_at(AC_CALLER, sbuf, ns, stype, rbuf, nr, rtype, root, comm);
}
#endif
