/*
 * by_schedule.c - the blocking run of a barrier written as a schedule (barrier.h,
 * AC_BARRIER_BY_SCHEDULE): built on the private communicator with the barriers' tag
 * (AC_TAG_SYNC), run to completion, freed.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"

int ac_barrier_by_schedule(ac_barrier_sched_fn *build, MPI_Comm comm, const ac_params *p)
{
    ac_sched s;
    int rc = ac_sched_init(&s, comm, AC_TAG_SYNC);
    s.blocking = 1; /* a hierarchical phase of the library's own: one step (phase.h) */
    if (rc == MPI_SUCCESS) rc = build(&s, p);
    if (rc == MPI_SUCCESS) rc = ac_sched_run(&s);
    ac_sched_free(&s);
    return rc;
}
