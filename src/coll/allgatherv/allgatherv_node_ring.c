/*
 * allgatherv_node_ring.c - node-ordered logical ring all-gather, our stand-in for STAR-MPI's
 * topology-specific logical ring (TSLR). TSLR picks a permutation n'0 -> n'1 -> ... -> n'(p-1)
 * -> n'0 whose ring edges do not contend in the network and runs the ring all-gather on it.
 * Without a switch topology we use the node layout (ac_nodes_get()->order: ranks node by node),
 * so only one ring edge leaves each node and intra-node edges use shared memory. The ring
 * steps are those of allgatherv_ring.c on that permutation; params->sync as there.
 *
 * Cost: (p-1) alpha + (p-1) n beta for n-byte blocks; each node's network link carries each
 * block once in each direction. First use on a communicator also builds its node layout
 * (a split and an allgather, cached).
 * Requirements: none; any process count and any rank-to-node placement. Written as a schedule
 * (the ring's, on the node order); a nonblocking call runs it where the layout is known
 * (AC_REQ_NODE_LAYOUT: learning it is collective).
 * Source: STAR-MPI (Faraj, Yuan, Lowenthal 2006) section 3.1; TSLR: Faraj and Yuan,
 * "Bandwidth efficient all-to-all broadcast on switched clusters", Cluster 2005.
 */
#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

AC_ALLGATHERV_BY_SCHEDULE(node_ring)

/* The first call on a communicator (blocking: a progressed one runs where the layout is known,
 * AC_REQ_NODE_LAYOUT) as one step: it learns the layout where the step stands, then runs the
 * ring, as the engine did before it was a schedule (the split inside a composed allreduce stays
 * after its reduce-scatter: the same simulated times). */
typedef struct first_call {
    ac_allgatherv_args a;
    ac_sync sync;
} first_call;

static int learn_and_run(const void *arg, MPI_Comm comm)
{
    const first_call *f = arg;
    const ac_nodes *nodes;
    int rc = ac_nodes_get(comm, &nodes);
    if (rc != MPI_SUCCESS) return rc;
    return ac_allgatherv_logical_ring(f->a.sbuf, f->a.scount, f->a.stype, f->a.rbuf,
                                      f->a.rcounts, f->a.displs, f->a.rtype, comm, nodes->order,
                                      f->sync);
}

int ac_allgatherv_node_ring_schedule(ac_sched *s, const void *sbuf, int scount,
                                     MPI_Datatype stype, void *rbuf, const int *rcounts,
                                     const int *displs, MPI_Datatype rtype, const ac_params *p)
{
    const ac_nodes *nodes;
    ac_sync sync = p ? p->sync : AC_SYNC_NONE;
    if (!ac_nodes_known(s->comm)) {
        first_call *f = ac_sched_tmp(s, sizeof *f, MPI_BYTE);
        if (!f) return ac_sched_error(s);
        *f = (first_call){{sbuf, scount, stype, rbuf, rcounts, displs, rtype}, sync};
        ac_sched_call(s, learn_and_run, f); /* MPI_ERR_INTERN where progressed */
        return ac_sched_error(s);
    }
    int rc = ac_nodes_get(s->comm, &nodes);
    if (rc != MPI_SUCCESS) return rc;
    return ac_allgatherv_logical_ring_schedule(s, sbuf, scount, stype, rbuf, rcounts, displs,
                                               rtype, nodes->order, sync);
}
