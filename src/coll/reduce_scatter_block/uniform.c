/*
 * uniform.c - the reduce_scatter_block algorithms are the reduce_scatter engines
 * (src/coll/reduce_scatter/) with equal blocks: rcounts[i] = rcount for every rank (an array
 * of the schedule's). Requirements, process counts and MPI_IN_PLACE (the input is the whole
 * vector in rbuf) are those of the engine.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

int ac_reduce_scatter_block_uniform(ac_reduce_scatter_sched_fn *engine, ac_sched *s,
                                    const void *sbuf, void *rbuf, int rcount, MPI_Datatype dtype,
                                    MPI_Op op, const ac_params *p)
{
    int *rcounts = ac_sched_tmp(s, s->size, MPI_INT);
    if (!rcounts) return ac_sched_error(s);
    for (int r = 0; r < s->size; r++)
        rcounts[r] = rcount;
    return engine(s, sbuf, rbuf, rcounts, dtype, op, p);
}

int ac_reduce_scatter_block_by_schedule(ac_reduce_scatter_block_sched_fn *build,
                                        const void *sbuf, void *rbuf, int rcount,
                                        MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                                        const ac_params *p)
{
    ac_sched s;
    int rc = ac_sched_init(&s, comm, AC_TAG_DATA);
    s.blocking = 1; /* a hierarchical phase of the library's own: one step (phase.h) */
    if (rc == MPI_SUCCESS) rc = build(&s, sbuf, rbuf, rcount, dtype, op, p);
    if (rc == MPI_SUCCESS) rc = ac_sched_run(&s);
    ac_sched_free(&s);
    return rc;
}
