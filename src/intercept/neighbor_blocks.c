/*
 * neighbor_blocks.c - the neighbourhood collectives of one block per edge, allgather and
 * alltoall: MPI_Neighbor_allgather, MPI_Neighbor_alltoall and their large-count forms (where
 * the counts fit an int; else passed through). Their arguments and algorithms have one shape,
 * so one body serves both.
 */
#include "intercept/intercept.h"

typedef int neighbor_library_fn(const void *, int, MPI_Datatype, void *, int, MPI_Datatype,
                                MPI_Comm);

/* The call of `coll` (AC_NEIGHBOR_ALLGATHER or AC_NEIGHBOR_ALLTOALL; `library` its PMPI
 * function): passed to the library where ac_enter_neighbor says so or the arguments are ones
 * MPI must reject, else the algorithm ac_select names runs on the private communicator. */
AC_SHAPE_BODY int neighbor_blocks_at(const void *caller, ac_collective coll,
                                     neighbor_library_fn *library, const void *sbuf, int scount,
                                     MPI_Datatype stype, void *rbuf, int rcount,
                                     MPI_Datatype rtype, MPI_Comm comm)
{
    ac_neighbors *nb;
    ac_call call;
    ac_comm *c = NULL;
    if (scount >= 0 && rcount >= 0 && stype != MPI_DATATYPE_NULL && rtype != MPI_DATATYPE_NULL)
        c = ac_enter_neighbor(comm, coll, sbuf, &nb, &call);
    else
        ac_count_passthrough(comm, coll, AC_PASS_ARGUMENTS);
    if (!c) return library(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    call.bytes = ac_signature_bytes(rcount, rtype);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    ac_neighbor_allgather_fn *fn = coll == AC_NEIGHBOR_ALLGATHER ? alg->fn.neighbor_allgather
                                                                 : alg->fn.neighbor_alltoall;
    double start = ac_now();
    int rc = fn(sbuf, scount, stype, rbuf, rcount, rtype, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

/* ac_neighbor_<coll>_at (the Fortran bindings call it too) and MPI_Neighbor_<coll>. */
#define NEIGHBOR_ENTRY_POINTS(coll, COLL)                                                       \
    int ac_neighbor_##coll##_at(const void *caller, const void *sbuf, int scount,             \
                                MPI_Datatype stype, void *rbuf, int rcount,                    \
                                MPI_Datatype rtype, MPI_Comm comm)                             \
    {                                                                                          \
        return neighbor_blocks_at(caller, AC_NEIGHBOR_##COLL, PMPI_Neighbor_##coll, sbuf,      \
                                  scount, stype, rbuf, rcount, rtype, comm);                   \
    }                                                                                          \
    int MPI_Neighbor_##coll(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,      \
                            int rcount, MPI_Datatype rtype, MPI_Comm comm)                     \
    {                                                                                          \
        return ac_neighbor_##coll##_at(AC_CALLER, sbuf, scount, stype, rbuf, rcount, rtype,    \
                                       comm);                                                  \
    }

/* MPI_Neighbor_<coll>_c: through ac_neighbor_<coll>_at where the counts fit an int. */
#define NEIGHBOR_LARGE_COUNT(coll, COLL)                                                        \
    int MPI_Neighbor_##coll##_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype,        \
                                void *rbuf, MPI_Count rcount, MPI_Datatype rtype,              \
                                MPI_Comm comm)                                                 \
    {                                                                                          \
        int ns, nr;                                                                            \
        if (!ac_count_fits(scount, &ns) || !ac_count_fits(rcount, &nr)) {                      \
            ac_count_passthrough(comm, AC_NEIGHBOR_##COLL, AC_PASS_LARGE_COUNT);               \
            return PMPI_Neighbor_##coll##_c(sbuf, scount, stype, rbuf, rcount, rtype, comm);   \
        }                                                                                      \
        return ac_neighbor_##coll##_at(AC_CALLER, sbuf, ns, stype, rbuf, nr, rtype, comm);     \
    }

NEIGHBOR_ENTRY_POINTS(allgather, ALLGATHER)
NEIGHBOR_ENTRY_POINTS(alltoall, ALLTOALL)
#if MPI_VERSION >= 4
NEIGHBOR_LARGE_COUNT(allgather, ALLGATHER)
NEIGHBOR_LARGE_COUNT(alltoall, ALLTOALL)
#endif
