/*
 * phase_sync.c - STAR-MPI's synchronisation between the phases of its phased algorithms (ring,
 * pair: the all-gathers and all-to-alls), as a round of a schedule.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

void ac_sched_sync_phase(ac_sched *s, ac_sync sync, int to, int from)
{
    switch (sync) {
    case AC_SYNC_LIGHT:
        ac_sched_send(s, NULL, 0, MPI_BYTE, to);
        ac_sched_recv(s, NULL, 0, MPI_BYTE, from);
        break;
    case AC_SYNC_BARRIER:
        if (s->blocking)
            ac_sched_barrier(s);
        else
            ac_barrier_dissemination_schedule(s, NULL);
        break;
    case AC_SYNC_NONE:
        break;
    }
    ac_sched_round(s);
}
