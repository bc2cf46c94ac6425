/*
 * by_schedule.c - the blocking run of a bcast, a gather or scatter, an allgather or alltoall
 * written as a schedule (coll.h, AC_BCAST_BY_SCHEDULE and its kin): built on the communicator
 * with the blocking algorithms' tag, for the blocking run (a phase of the library's own or an
 * engine not written as a schedule: one step), run to completion, freed.
 */
#include "coll/coll.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

/* The schedule of the blocking run on comm, or its error. */
static int begin(ac_sched *s, MPI_Comm comm)
{
    int rc = ac_sched_init(s, comm, AC_TAG_DATA);
    s->blocking = 1;
    return rc;
}

/* Runs s, built with outcome rc, and frees it. */
static int finish(ac_sched *s, int rc)
{
    if (rc == MPI_SUCCESS) rc = ac_sched_run(s);
    ac_sched_free(s);
    return rc;
}

int ac_bcast_by_schedule(ac_bcast_sched_fn *build, void *buf, int count, MPI_Datatype dtype,
                         int root, MPI_Comm comm, const ac_params *p)
{
    ac_sched s;
    int rc = begin(&s, comm);
    if (rc == MPI_SUCCESS) rc = build(&s, buf, count, dtype, root, p);
    return finish(&s, rc);
}

int ac_rooted_by_schedule(ac_gather_sched_fn *build, const void *sbuf, int scount,
                          MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                          int root, MPI_Comm comm, const ac_params *p)
{
    ac_sched s;
    int rc = begin(&s, comm);
    if (rc == MPI_SUCCESS) rc = build(&s, sbuf, scount, stype, rbuf, rcount, rtype, root, p);
    return finish(&s, rc);
}

int ac_blocks_by_schedule(ac_allgather_sched_fn *build, const void *sbuf, int scount,
                          MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                          MPI_Comm comm, const ac_params *p)
{
    ac_sched s;
    int rc = begin(&s, comm);
    if (rc == MPI_SUCCESS) rc = build(&s, sbuf, scount, stype, rbuf, rcount, rtype, p);
    return finish(&s, rc);
}
