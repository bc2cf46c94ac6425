/*
 * rooted_blocks.c - the rooted collectives of one block per rank, gather and scatter:
 * MPI_Gather, MPI_Scatter and their large-count forms (where the significant counts fit an
 * int; else passed through). Scatter is gather's mirror image: the root's side is gather's
 * receive side and scatter's send side, and the other ranks' block is the other one (absent at
 * an in-place root), so one body serves both.
 */
#include "intercept/intercept.h"

typedef int rooted_library_fn(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int,
                              MPI_Comm);

int ac_rooted_significant(ac_collective coll, MPI_Comm comm, int root, const void *sbuf,
                          const void *rbuf, int *send, int *receive)
{
    int at_root = ac_at_root(comm, root), gather = coll == AC_GATHER;
    const void *other = gather ? sbuf : rbuf; /* the block every rank has: MPI_IN_PLACE at root */
    int root_side = at_root == 1, other_side = at_root == 0 || (root_side && other != MPI_IN_PLACE);
    *receive = gather ? root_side : other_side;
    *send = gather ? other_side : root_side;
    return at_root;
}

/* The call of `coll` (AC_GATHER or AC_SCATTER; `library` its PMPI function): arguments MPI
 * must reject go to the library, else the algorithm ac_select names runs on the private
 * communicator. The call's bytes: the receive block at gather's in-place root and at every
 * rank but scatter's root, else the send block. */
AC_SHAPE_BODY int rooted_blocks_at(const void *caller, ac_collective coll,
                                   rooted_library_fn *library, const void *sbuf, int scount,
                                   MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                                   int root, MPI_Comm comm)
{
    ac_comm *c;
    int send, receive, at_root = ac_rooted_significant(coll, comm, root, sbuf, rbuf, &send, &receive);
    if (at_root < 0 || (send && (scount < 0 || stype == MPI_DATATYPE_NULL)) ||
        (receive && (rcount < 0 || rtype == MPI_DATATYPE_NULL))) {
        ac_count_passthrough(comm, coll, AC_PASS_ARGUMENTS);
        return library(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    }
    c = ac_enter(comm, coll);
    if (!c) return library(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    int gather = coll == AC_GATHER;
    int receive_side = gather ? at_root && sbuf == MPI_IN_PLACE : !at_root;
    ac_call call = ac_call_make(c, coll);
    call.bytes = receive_side ? ac_signature_bytes(rcount, rtype)
                              : ac_signature_bytes(scount, stype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    ac_gather_fn *fn = gather ? alg->fn.gather : alg->fn.scatter;
    double start = ac_now();
    int rc = fn(sbuf, scount, stype, rbuf, rcount, rtype, root, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

/* ac_<coll>_at (the Fortran bindings call it too) and MPI_<Coll>. */
#define ROOTED_ENTRY_POINTS(coll, Coll, COLL)                                                   \
    int ac_##coll##_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype,   \
                       void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)    \
    {                                                                                          \
        return rooted_blocks_at(caller, AC_##COLL, PMPI_##Coll, sbuf, scount, stype, rbuf,     \
                                rcount, rtype, root, comm);                                    \
    }                                                                                          \
    int MPI_##Coll(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,   \
                   MPI_Datatype rtype, int root, MPI_Comm comm)                                \
    {                                                                                          \
        return ac_##coll##_at(AC_CALLER, sbuf, scount, stype, rbuf, rcount, rtype, root,       \
                              comm);                                                           \
    }

/* MPI_<Coll>_c: through ac_<coll>_at where the significant counts fit an int (a count that
 * is not significant is not read). */
#define ROOTED_LARGE_COUNT(coll, Coll, COLL)                                                    \
    int MPI_##Coll##_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,     \
                       MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm)          \
    {                                                                                          \
        int ns = 0, nr = 0, send, receive;                                                     \
        if (ac_rooted_significant(AC_##COLL, comm, root, sbuf, rbuf, &send, &receive) < 0 ||   \
            (send && !ac_count_fits(scount, &ns)) ||                                           \
            (receive && !ac_count_fits(rcount, &nr))) {                                        \
            ac_count_passthrough(comm, AC_##COLL, AC_PASS_LARGE_COUNT);                        \
            return PMPI_##Coll##_c(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);      \
        }                                                                                      \
        return ac_##coll##_at(AC_CALLER, sbuf, ns, stype, rbuf, nr, rtype, root, comm);        \
    }

ROOTED_ENTRY_POINTS(gather, Gather, GATHER)
ROOTED_ENTRY_POINTS(scatter, Scatter, SCATTER)
#if MPI_VERSION >= 4
ROOTED_LARGE_COUNT(gather, Gather, GATHER)
ROOTED_LARGE_COUNT(scatter, Scatter, SCATTER)
#endif
