/*
 * allreduce.c - MPI_Allreduce and MPI_Reduce_scatter_block (an allreduce whose result is left
 * in blocks of count, block i at rank i: the same arguments, count elements a rank) and their
 * large-count forms (where the count fits an int; else passed through). One body serves both.
 */
#include "intercept/intercept.h"

typedef int reduction_library_fn(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);

/* The call of `coll` (AC_ALLREDUCE, or AC_REDUCE_SCATTER_BLOCK whose reduction is of count x
 * size elements; `library` its PMPI function): arguments MPI must reject go to the library,
 * else the algorithm ac_select names runs on the private communicator and its time goes to
 * ac_observe. Inlined with `coll` a constant. */
AC_SHAPE_BODY int reduction_at(const void *caller, ac_collective coll,
                               reduction_library_fn *library, const void *sbuf, void *rbuf,
                               int count, MPI_Datatype dtype, MPI_Op op, MPI_Comm comm)
{
    ac_comm *c;
    if (count < 0 || dtype == MPI_DATATYPE_NULL || op == MPI_OP_NULL) {
        ac_count_passthrough(comm, coll, AC_PASS_ARGUMENTS);
        return library(sbuf, rbuf, count, dtype, op, comm);
    }
    c = ac_enter(comm, coll);
    if (!c) return library(sbuf, rbuf, count, dtype, op, comm);
    int allreduce = coll == AC_ALLREDUCE;
    ac_call call;
    ac_call_reduction(&call, c, coll, allreduce ? count : (long)count * c->size, dtype, op);
    const ac_algorithm *alg = ac_select(c, &call, caller);
    ac_allreduce_fn *fn = allreduce ? alg->fn.allreduce : alg->fn.reduce_scatter_block;
    double start = ac_now();
    int rc = fn(sbuf, rbuf, count, dtype, op, c->pcomm, alg->params);
    ac_observe(c, &call, alg, start, rc);
    return rc;
}

/* ac_<coll>_at (the Fortran bindings call it too) and MPI_<Coll>. */
#define REDUCTION_ENTRY_POINTS(coll, Coll, COLL)                                                \
    int ac_##coll##_at(const void *caller, const void *sbuf, void *rbuf, int count,            \
                       MPI_Datatype dtype, MPI_Op op, MPI_Comm comm)                           \
    {                                                                                          \
        return reduction_at(caller, AC_##COLL, PMPI_##Coll, sbuf, rbuf, count, dtype, op,      \
                            comm);                                                             \
    }                                                                                          \
    int MPI_##Coll(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,     \
                   MPI_Comm comm)                                                              \
    {                                                                                          \
        return ac_##coll##_at(AC_CALLER, sbuf, rbuf, count, dtype, op, comm);                  \
    }

/* MPI_<Coll>_c: through ac_<coll>_at where the count fits an int. */
#define REDUCTION_LARGE_COUNT(coll, Coll, COLL)                                                 \
    int MPI_##Coll##_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dtype,      \
                       MPI_Op op, MPI_Comm comm)                                               \
    {                                                                                          \
        int n;                                                                                 \
        if (!ac_count_fits(count, &n)) {                                                       \
            ac_count_passthrough(comm, AC_##COLL, AC_PASS_LARGE_COUNT);                        \
            return PMPI_##Coll##_c(sbuf, rbuf, count, dtype, op, comm);                        \
        }                                                                                      \
        return ac_##coll##_at(AC_CALLER, sbuf, rbuf, n, dtype, op, comm);                      \
    }

REDUCTION_ENTRY_POINTS(allreduce, Allreduce, ALLREDUCE)
REDUCTION_ENTRY_POINTS(reduce_scatter_block, Reduce_scatter_block, REDUCE_SCATTER_BLOCK)
#if MPI_VERSION >= 4
REDUCTION_LARGE_COUNT(allreduce, Allreduce, ALLREDUCE)
REDUCTION_LARGE_COUNT(reduce_scatter_block, Reduce_scatter_block, REDUCE_SCATTER_BLOCK)
#endif
