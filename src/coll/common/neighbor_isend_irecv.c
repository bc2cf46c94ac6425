/*
 * neighbor_isend_irecv.c - isend_irecv: every receive of a neighbourhood collective posted at
 * once (MPI_Irecv), then every send (MPI_Isend), then one MPI_Waitall: a schedule of one round
 * (ac_sched_round_posted), which the blocking call runs with exactly those calls. Each block
 * travels with its own datatype (no packing). A Cartesian rank posts its in-edges in the order
 * 1, 0, 3, 2, ..., so that a periodic dimension of one or two processes, whose two neighbours
 * are one process, gets its blocks as the standard says (neighbor.h).
 * Cost: one message per edge, all in flight together: alpha + (degree x block) / bandwidth at
 * the busiest rank. Requirements: none (Cartesian and distributed-graph communicators).
 * ADCL's IsendIrecv_aao (Gabriel et al.), on the MPI-3 neighbourhood.
 */
#include "coll/common/neighbor.h"
#include "coll/common/sched.h"

int ac_neighbor_isend_irecv_schedule(ac_sched *s, const ac_neighbors *nb)
{
    int cartesian = nb->topology == AC_TOPOLOGY_CARTESIAN;
    for (int i = 0; i < nb->indegree; i++) {
        int j = cartesian ? i ^ 1 : i; /* indegree is even on a Cartesian communicator */
        ac_sched_recv(s, nb->recv[j].buf, nb->recv[j].count, nb->recv[j].type, nb->sources[j]);
    }
    for (int k = 0; k < nb->outdegree; k++)
        ac_sched_send(s, nb->send[k].buf, nb->send[k].count, nb->send[k].type, nb->dests[k]);
    ac_sched_round_posted(s);
    return ac_sched_error(s);
}
