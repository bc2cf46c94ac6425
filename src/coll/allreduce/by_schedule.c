/*
 * by_schedule.c - the blocking run of an allreduce written as a schedule (allreduce.h,
 * AC_ALLREDUCE_BY_SCHEDULE): built on the private communicator with the blocking algorithms'
 * tag, run to completion, freed.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_allreduce_by_schedule(ac_allreduce_sched_fn *build, const void *sbuf, void *rbuf,
                             int count, MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                             const ac_params *p)
{
    ac_sched s;
    int rc = ac_sched_init(&s, comm, AC_TAG_DATA);
    /* the blocking run: an inner phase's synchronisation between steps is MPI_Barrier, and an
     * inner engine not written as a schedule runs as one step (inner.c) */
    s.blocking = 1;
    if (rc == MPI_SUCCESS) rc = build(&s, sbuf, rbuf, count, dtype, op, p);
    if (rc == MPI_SUCCESS) rc = ac_sched_run(&s);
    ac_sched_free(&s);
    return rc;
}
