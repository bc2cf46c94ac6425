/*
 * barrier_hier.c - hierarchical barrier (hierarchical.c's family): a barrier on every node, a
 * barrier among the node leaders, a barrier on every node again.
 *
 * Order of operations, one leader per node (its lowest rank, local rank 0): the node's barrier
 * with params->intra[0] tells its leader that every rank of the node has arrived; the leaders'
 * barrier with params->phase on the leaders' communicator, that every node has; the node's
 * second barrier with params->intra[1] holds the node's other ranks until their leader is
 * through the leaders' barrier, so that no rank leaves before every rank has arrived.
 *
 * Cost (nodes N of L ranks): barrier(L) on every node at once on intra-node links, twice, +
 * barrier(N) among the leaders on inter-node links.
 *
 * Written as a schedule (common/phase.h): each phase's rounds on its communicator, a phase
 * of the library's own a step of the blocking run.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/phase.h"

AC_BARRIER_BY_SCHEDULE(hier)

int ac_barrier_hier_schedule(ac_sched *s, const ac_params *p)
{
    const ac_nodes *nodes;
    int rc = ac_nodes_get(s->comm, &nodes);
    if (rc != MPI_SUCCESS) return rc;
    rc = ac_phase_barrier(s, p->intra[0], nodes->local);
    if (rc == MPI_SUCCESS && nodes->leaders != MPI_COMM_NULL)
        rc = ac_phase_barrier(s, p->phase, nodes->leaders);
    if (rc == MPI_SUCCESS) rc = ac_phase_barrier(s, p->intra[1], nodes->local);
    return rc;
}
