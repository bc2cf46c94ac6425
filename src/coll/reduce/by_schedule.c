/*
 * by_schedule.c - the blocking run of a reduce algorithm written as a schedule
 * (common/sched.h): built on comm with the blocking algorithms' tag, run to completion.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

int ac_reduce_by_schedule(ac_reduce_sched_fn *build, const void *sbuf, void *rbuf, int count,
                          MPI_Datatype dtype, MPI_Op op, int root, MPI_Comm comm,
                          const ac_params *p)
{
    ac_sched s;
    int rc = ac_sched_init(&s, comm, AC_TAG_DATA);
    s.blocking = 1; /* a hierarchical phase of the library's own: one step (phase.h) */
    if (rc == MPI_SUCCESS) rc = build(&s, sbuf, rbuf, count, dtype, op, root, p);
    if (rc == MPI_SUCCESS) rc = ac_sched_run(&s);
    ac_sched_free(&s);
    return rc;
}
