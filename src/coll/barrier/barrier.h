/* barrier.h - the barrier algorithms (one per file in this folder). */
#ifndef AUTOCOLL_BARRIER_H
#define AUTOCOLL_BARRIER_H

#include "coll/coll.h"
#include "coll/common/sched.h"

ac_barrier_fn ac_barrier_native;
ac_barrier_fn ac_barrier_dissemination;
ac_barrier_fn ac_barrier_recursive_doubling;
ac_barrier_fn ac_barrier_linear;
AC_DECLARE_SCHEDULED(barrier, hier) /* p->intra, p->phase (hierarchical.c, phase.h) */

/* The algorithms written as schedules (common/sched.h), and their blocking entry points:
 * AC_BARRIER_BY_SCHEDULE(name) defines ac_barrier_<name>, which builds
 * ac_barrier_<name>_schedule and runs it to completion (by_schedule.c). */
ac_barrier_sched_fn ac_barrier_native_schedule; /* the library's MPI_Ibarrier */
ac_barrier_sched_fn ac_barrier_dissemination_schedule;
ac_barrier_sched_fn ac_barrier_recursive_doubling_schedule;
ac_barrier_sched_fn ac_barrier_linear_schedule;

int ac_barrier_by_schedule(ac_barrier_sched_fn *build, MPI_Comm comm, const ac_params *p);
#define AC_BARRIER_BY_SCHEDULE(name)                                                           \
    int ac_barrier_##name(MPI_Comm comm, const ac_params *p)                                   \
    {                                                                                          \
        return ac_barrier_by_schedule(ac_barrier_##name##_schedule, comm, p);                  \
    }

#endif
