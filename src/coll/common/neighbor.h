/*
 * neighbor.h - the MPI-3 neighbourhood collectives' shared parts: the neighbours of a topology
 * communicator (computed once, cached on it), the blocks of one call, and the exchange engines
 * (one per file: neighbor_isend_irecv.c, neighbor_sendrecv_pair.c, neighbor_win_fence_put.c).
 *
 * Every neighbourhood algorithm of src/coll/neighbor_<coll>/ describes its call as blocks, one
 * per out-edge (what goes to dests[k]) and one per in-edge (where what comes from sources[j]
 * lands), each a (buffer, count, datatype) triple, and hands them to the engine its registry
 * entry names: written as a schedule (ac_params.exchange_schedule: isend_irecv, sendrecv_pair),
 * run to completion by the blocking call (ac_neighbor_exchange) and progressed by the
 * nonblocking and persistent ones (intercept/neighbor_request.c); or blocking only
 * (ac_params.exchange: win_fence_put, whose fences no schedule can progress). The engines know
 * nothing of the collective.
 *
 * Matching (the MPI standard's rule, MPI 4.1 section 8.6, the MPI-4.0 erratum): on a Cartesian
 * communicator, out-edge 2d goes to the source of MPI_Cart_shift(d, 1) (the negative side),
 * out-edge 2d + 1 to its destination, and the block sent to the positive side arrives in the
 * receiver's in-block 2d (from its negative side), the block sent to the negative side in its
 * in-block 2d + 1. Where a periodic dimension has one or two processes both sides are the same
 * process (itself for one). The schedules' messages all carry the schedule's tag (several may
 * be in flight on one communicator), so they pair the two sides by MPI's order of messages
 * between a pair: out-edges are sent in the order 0, 1, 2, ... and a Cartesian rank receives
 * its in-edges in the order 1, 0, 3, 2, ... (in-edge j ^ 1 posted j-th), so that the block sent
 * first to a process that is both neighbours of a dimension (out-edge 2d, to the negative side)
 * lands in its in-block 2d + 1; sendrecv_pair's shifts, one round after the other, pair so
 * as well. Neighbours of different dimensions are different processes (they differ in
 * different coordinates) but where both are the rank itself, and then the same order holds
 * dimension by dimension. The one-sided engine tags each message with the in-edge it is for:
 * out-edge k carries tag k ^ 1 and in-edge j receives tag j (recv_tags, send_tags). On a
 * distributed graph the k-th edge from s to r in s's list of destinations pairs with the k-th
 * edge from s in r's list of sources (MPI's order of messages between a pair): sent and
 * received in list order, tag 0 (win_fence_put) or the schedule's. Replies toward the sender
 * (win_fence_put's addresses) use the mirror image: in-edge j replies with tag j ^ 1
 * (Cartesian) and out-edge k receives tag k.
 */
#ifndef AUTOCOLL_COLL_NEIGHBOR_H
#define AUTOCOLL_COLL_NEIGHBOR_H

#include "coll/coll.h"

#include <mpi.h>

/* One block of a call: `count` elements of `type` at `buf` (MPI_BOTTOM-relative addresses
 * allowed). */
typedef struct ac_neighbor_block {
    void *buf;
    int count;
    MPI_Datatype type;
} ac_neighbor_block;

/* The neighbours of one topology communicator, cached on it (ac_neighbors_get), and the
 * scratch of the call in flight. */
typedef struct ac_neighbors {
    ac_topology topology;
    int indegree, outdegree;
    int *sources, *dests;    /* in the standard's order; MPI_PROC_NULL on open Cartesian edges */
    int *recv_tags;          /* [indegree]: the tag in-edge j receives */
    int *send_tags;          /* [outdegree]: the tag out-edge k sends */
    ac_neighbor_block *send; /* [outdegree]: the call in flight (filled by its algorithm) */
    ac_neighbor_block *recv; /* [indegree] */
    int window;              /* 1: `win` exists on every rank (agreed when made) */
    int window_made;         /* the window has been made and agreed (ac_neighbors_get) */
    MPI_Win win;             /* dynamic window of the one-sided engine (MPI_WIN_NULL: none) */
    char *staging;           /* receive staging, attached to win (neighbor_win_fence_put.c) */
    MPI_Aint staging_bytes;
    char *packed; /* send staging */
    MPI_Aint packed_bytes;
    MPI_Aint *offsets;     /* win_fence_put's scratch: [indegree + 1] in-block offsets in the
                            * staging, [indegree + 1] their addresses, [outdegree + 1]
                            * out-block offsets in the packed sends, [outdegree + 1] the
                            * bytes each out-block packed to */
    MPI_Aint *targets;     /* [outdegree]: where each out-block goes at its receiver */
    MPI_Request *requests; /* [indegree + outdegree] */
    MPI_Status *statuses;  /* [indegree + outdegree] (not MPI_STATUSES_IGNORE: gcc's
                            * stringop-overflow check rejects it with MPICH's mpi.h) */
} ac_neighbors;

/* The topology of comm: AC_TOPOLOGY_CARTESIAN, AC_TOPOLOGY_DIST_GRAPH, or AC_TOPOLOGY_NONE for
 * anything else (no topology, MPI_GRAPH: those calls pass through). */
int ac_neighbors_topology(MPI_Comm comm, ac_topology *out);

/* The neighbours of comm (a private duplicate with a Cartesian or distributed-graph topology),
 * computed at the first call and cached with an attribute: local (MPI_Cart_shift,
 * MPI_Dist_graph_neighbors), so a nonblocking call's schedule may ask. Without the window. */
int ac_neighbors_lists(MPI_Comm comm, ac_neighbors **out);

/* ... and the one-sided engine's window, made and agreed at the first call of this function on
 * comm: collective then (every rank calls it at the same call, a blocking collective's). */
int ac_neighbors_get(MPI_Comm comm, ac_neighbors **out);

/* Moves the blocks nb describes with the engine p names: its schedule run to completion on comm
 * with the blocking algorithms' tag (p->exchange_schedule), or the blocking engine
 * (p->exchange). */
int ac_neighbor_exchange(ac_neighbors *nb, MPI_Comm comm, const ac_params *p);

/* The engines: written as schedules, and the one-sided one (blocking only). */
ac_neighbor_exchange_sched_fn ac_neighbor_isend_irecv_schedule;
ac_neighbor_exchange_sched_fn ac_neighbor_sendrecv_pair_schedule;
ac_neighbor_exchange_fn ac_neighbor_win_fence_put;

/* Fills one side of a call, n blocks of `type` from buf: block i is counts[i] elements at
 * displs[i] extents of type, or where counts is NULL `count` elements at i x count extents
 * (the regular forms' consecutive blocks). An error of MPI_Type_get_extent is returned. */
int ac_neighbor_blocks(ac_neighbor_block *blocks, int n, const void *buf, MPI_Datatype type,
                       int count, const int *counts, const int *displs);

#endif
