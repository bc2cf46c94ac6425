/*
 * neighbor.h - the MPI-3 neighbourhood collectives' shared parts: the neighbours of a topology
 * communicator (computed once, cached on it), the blocks of one call, and the exchange engines
 * (one per file: neighbor_isend_irecv.c, neighbor_sendrecv_pair.c, neighbor_win_fence_put.c).
 *
 * Every neighbourhood algorithm of src/coll/neighbor_<coll>/ describes its call as blocks, one
 * per out-edge (what goes to dests[k]) and one per in-edge (where what comes from sources[j]
 * lands), each a (buffer, count, datatype) triple, and hands them to the engine its registry
 * entry names (ac_params.exchange). The engines know nothing of the collective.
 *
 * Matching (the MPI standard's rule, MPI 4.1 section 8.6, the MPI-4.0 erratum): on a Cartesian
 * communicator, out-edge 2d goes to the source of MPI_Cart_shift(d, 1) (the negative side),
 * out-edge 2d + 1 to its destination, and the block sent to the positive side arrives in the
 * receiver's in-block 2d (from its negative side), the block sent to the negative side in its
 * in-block 2d + 1. Where a periodic dimension has one or two processes both sides are the same
 * process (itself for one), so the engines tag each message with the in-edge it is for:
 * out-edge k carries tag k ^ 1 and in-edge j receives tag j. On a distributed graph the k-th
 * edge from s to r in s's list of destinations pairs with the k-th edge from s in r's list of
 * sources (MPI's order of messages between a pair): every message carries tag 0, sent and
 * received in list order. Replies toward the sender (win_fence_put's addresses) use the mirror
 * image: in-edge j replies with tag j ^ 1 (Cartesian) and out-edge k receives tag k.
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
 * computed at the first call and cached with an attribute. Collective at the first call (the
 * window is made and agreed then): every rank calls it at the same call. */
int ac_neighbors_get(MPI_Comm comm, ac_neighbors **out);

/* The engines. */
ac_neighbor_exchange_fn ac_neighbor_isend_irecv;
ac_neighbor_exchange_fn ac_neighbor_sendrecv_pair;
ac_neighbor_exchange_fn ac_neighbor_win_fence_put;

/* Fills one side of a call, n blocks of `type` from buf: block i is counts[i] elements at
 * displs[i] extents of type, or where counts is NULL `count` elements at i x count extents
 * (the regular forms' consecutive blocks). An error of MPI_Type_get_extent is returned. */
int ac_neighbor_blocks(ac_neighbor_block *blocks, int n, const void *buf, MPI_Datatype type,
                       int count, const int *counts, const int *displs);

#endif
