/*
 * scatter.c - MPI_Scatter and MPI_Scatter_c.
 */
#include "intercept/intercept.h"

/* Which blocks are significant at this rank (MPI ignores the others, and programs pass junk
 * there: only significant arguments may decide this rank's path): the send block at the root,
 * the receive block except at an in-place root. Returns ac_at_root(). */
static int significant(MPI_Comm comm, int root, const void *rbuf, int *send, int *receive)
{
    int at_root = ac_at_root(comm, root);
    *send = at_root == 1;
    *receive = at_root == 0 || (at_root == 1 && rbuf != MPI_IN_PLACE);
    return at_root;
}

int ac_scatter_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    ac_comm *c;
    int send, receive, at_root = significant(comm, root, rbuf, &send, &receive);
    if (at_root < 0 || (send && (scount < 0 || stype == MPI_DATATYPE_NULL)) ||
        (receive && (rcount < 0 || rtype == MPI_DATATYPE_NULL))) {
        ac_count_passthrough(comm, AC_SCATTER, AC_PASS_ARGUMENTS);
        return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    }
    c = ac_enter(comm, AC_SCATTER);
    if (!c) return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    ac_call call = ac_call_make(c, AC_SCATTER);
    call.bytes = at_root ? ac_signature_bytes(scount, stype) : ac_signature_bytes(rcount, rtype);
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
    int ns = 0, nr = 0, send, receive; /* a count that is not significant is not read */
    if (significant(comm, root, rbuf, &send, &receive) < 0 ||
        (send && !ac_count_fits(scount, &ns)) || (receive && !ac_count_fits(rcount, &nr))) {
        ac_count_passthrough(comm, AC_SCATTER, AC_PASS_LARGE_COUNT);
        return PMPI_Scatter_c(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    }
    return ac_scatter_at(AC_CALLER, sbuf, ns, stype, rbuf, nr, rtype, root, comm);
}
#endif
