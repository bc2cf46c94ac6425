/*
 * blocks.c - the blocking collectives of one block from every rank, allgather and alltoall:
 * MPI_Allgather, MPI_Alltoall and their large-count forms (where the counts fit an int; else
 * passed through). Their arguments and algorithms have one shape, so one body serves both.
 */
#include "intercept/intercept.h"

typedef int blocks_library_fn(const void *, int, MPI_Datatype, void *, int, MPI_Datatype,
                              MPI_Comm);

/* The call of `coll` (AC_ALLGATHER or AC_ALLTOALL; `library` its PMPI function): arguments MPI
 * must reject go to the library, else the algorithm ac_select names runs on the private
 * communicator and its time goes to ac_observe. Inlined with `coll` a constant. */
AC_SHAPE_BODY int blocks_at(const void *caller, ac_collective coll, blocks_library_fn *library,
                            const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                            int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    ac_comm *c;
    if (rcount < 0 || rtype == MPI_DATATYPE_NULL ||
        (sbuf != MPI_IN_PLACE && (scount < 0 || stype == MPI_DATATYPE_NULL))) {
        ac_count_passthrough(comm, coll, AC_PASS_ARGUMENTS);
        return library(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    }
    c = ac_enter(comm, coll);
    if (!c) return library(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    ac_call call = ac_call_make(c, coll);
    call.bytes = ac_signature_bytes(rcount, rtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    ac_allgather_fn *fn = coll == AC_ALLGATHER ? alg->fn.allgather : alg->fn.alltoall;
    double start = ac_now();
    int rc = fn(sbuf, scount, stype, rbuf, rcount, rtype, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

/* ac_<coll>_at (the Fortran bindings call it too) and MPI_<Coll>. */
#define BLOCKS_ENTRY_POINTS(coll, Coll, COLL)                                                   \
    int ac_##coll##_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype,   \
                       void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)              \
    {                                                                                          \
        return blocks_at(caller, AC_##COLL, PMPI_##Coll, sbuf, scount, stype, rbuf, rcount,    \
                         rtype, comm);                                                         \
    }                                                                                          \
    int MPI_##Coll(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,   \
                   MPI_Datatype rtype, MPI_Comm comm)                                          \
    {                                                                                          \
        return ac_##coll##_at(AC_CALLER, sbuf, scount, stype, rbuf, rcount, rtype, comm);      \
    }

/* MPI_<Coll>_c: through ac_<coll>_at where the counts fit an int. */
#define BLOCKS_LARGE_COUNT(coll, Coll, COLL)                                                    \
    int MPI_##Coll##_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,     \
                       MPI_Count rcount, MPI_Datatype rtype, MPI_Comm comm)                    \
    {                                                                                          \
        int ns = 0, nr;                                                                        \
        if ((sbuf != MPI_IN_PLACE && !ac_count_fits(scount, &ns)) ||                           \
            !ac_count_fits(rcount, &nr)) {                                                     \
            ac_count_passthrough(comm, AC_##COLL, AC_PASS_LARGE_COUNT);                        \
            return PMPI_##Coll##_c(sbuf, scount, stype, rbuf, rcount, rtype, comm);            \
        }                                                                                      \
        return ac_##coll##_at(AC_CALLER, sbuf, ns, stype, rbuf, nr, rtype, comm);              \
    }

BLOCKS_ENTRY_POINTS(allgather, Allgather, ALLGATHER)
BLOCKS_ENTRY_POINTS(alltoall, Alltoall, ALLTOALL)
#if MPI_VERSION >= 4
BLOCKS_LARGE_COUNT(allgather, Allgather, ALLGATHER)
BLOCKS_LARGE_COUNT(alltoall, Alltoall, ALLTOALL)
#endif
