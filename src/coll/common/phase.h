/*
 * phase.h - the phases of a composed instance appended to its schedule (common/sched.h): each
 * phase a registry entry of its sub-collective run on a communicator of some of the schedule's
 * processes: a hierarchical instance's (hierarchical.c) on a node's, the leaders' or a lane of
 * k-th ranks (common/nodes.c), an orthogonal one's (orthogonal.c) on a line of its mesh
 * (common/mesh.c).
 *
 * A phase written as a schedule appends its rounds on that communicator (ac_sched_phase), the
 * rounds it builds alone, so the blocking run makes the calls its own blocking run makes there.
 * The library's own (native) is one step calling its blocking function (ac_sched_call) where
 * the schedule is built for the blocking run (s->blocking), and its nonblocking function in its
 * turn (ac_sched_library, sched.h) where it is progressed (since 2026-11-29; before, a schedule
 * holding such a phase was built for the blocking run only). An algorithm not written as a
 * schedule is one step calling it, and a schedule holding it is built for the blocking run only
 * (a blocking engine cannot be progressed). ac_phase_progressable says which phases can be
 * progressed. The arguments (buffers, counts, displacements) must live as long as the
 * schedule (the caller's buffers or the schedule's temporaries); a phase leaves s on the
 * communicator it found.
 */
#ifndef AC_COLL_PHASE_H
#define AC_COLL_PHASE_H

#include "coll/coll.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

/* 1 when phase `alg` can be progressed: written as a schedule (the library's own included, but
 * not simulated: SMPI 3.32's nonblocking collectives in phases gave wrong results, crashes and a
 * deadlock there). */
int ac_phase_progressable(const ac_algorithm *alg);

int ac_phase_barrier(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm);
int ac_phase_bcast(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, void *buf,
                        int count, MPI_Datatype dtype, int root);
int ac_phase_reduce(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, const void *sbuf,
                         void *rbuf, int count, MPI_Datatype dtype, MPI_Op op, int root);
int ac_phase_allreduce(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm,
                            const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                            MPI_Op op);
int ac_phase_gather(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, const void *sbuf,
                         int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype, int root);
int ac_phase_scatter(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, const void *sbuf,
                          int scount, MPI_Datatype stype, void *rbuf, int rcount,
                          MPI_Datatype rtype, int root);
int ac_phase_allgather(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, const void *sbuf,
                       int scount, MPI_Datatype stype, void *rbuf, int rcount,
                       MPI_Datatype rtype);
int ac_phase_alltoall(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm, const void *sbuf,
                      int scount, MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype);
int ac_phase_allgatherv(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm,
                             const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                             const int *rcounts, const int *displs, MPI_Datatype rtype);
int ac_phase_alltoallv(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm,
                            const void *sbuf, const int *scounts, const int *sdispls,
                            MPI_Datatype stype, void *rbuf, const int *rcounts,
                            const int *rdispls, MPI_Datatype rtype);
int ac_phase_reduce_scatter(ac_sched *s, const ac_algorithm *alg, MPI_Comm comm,
                                 const void *sbuf, void *rbuf, const int *rcounts,
                                 MPI_Datatype dtype, MPI_Op op);
/* The library's MPI_Gatherv and MPI_Scatterv among the leaders of nodes of different sizes (a
 * gather's or scatter's only inter-node phase there), of every node's run of blocks of `block`
 * bytes (ac_nodes_runs) from `from` into `all` at the leader of node root_node, and back: one
 * step, the blocking run only. */
int ac_phase_leaders_gatherv(ac_sched *s, const ac_nodes *nodes, MPI_Aint block,
                                  const void *from, void *all, int root_node);
int ac_phase_leaders_scatterv(ac_sched *s, const ac_nodes *nodes, MPI_Aint block,
                                   const void *all, void *to, int root_node);

/* The k pieces of a block of `block` bytes that k leaders a node share (a multi-leader
 * allgather's, gather's, scatter's or all-to-all's; a reduce-scatter's block of elements): piece
 * i is [lo[i], lo[i + 1]), as even as can be, for blocks of any size; lo has k + 1 entries. */
void ac_phase_pieces(MPI_Aint block, int k, MPI_Aint lo[]);
/* A rooted multi-leader instance's pieces (gather_hier.c, scatter_hier.c), on nodes of one
 * size: lo (ac_phase_pieces), holder[i] and lane_root[i] (local rank i of the root's node, and
 * its rank in lane i: ac_nodes_lane_roots), holds (this rank is holder[its local rank]); pieces:
 * piece i of every block at pieces + size lo[i], in lane order, at the root and the holders
 * (NULL elsewhere); node_run: this node's run of the piece this rank leads (NULL where it leads
 * none). */
typedef struct ac_phase_rooted_pieces {
    int k, holds;
    MPI_Aint lo[AC_HIER_SHARES + 1];
    int holder[AC_HIER_SHARES], lane_root[AC_HIER_SHARES];
    char *pieces, *node_run;
} ac_phase_rooted_pieces;
/* Fills pc for k leaders, blocks of `block` bytes and `root` (the schedule's temporaries);
 * MPI_ERR_ARG where k > AC_HIER_SHARES. */
int ac_phase_rooted_pieces_begin(ac_sched *s, const ac_nodes *nodes, int k, MPI_Aint block,
                                 int root, ac_phase_rooted_pieces *pc);
/* Appends one round: each holder's pieces to the root (to_root 1) or the root's to each holder
 * (0), one message a piece of some bytes, none where the root holds it. */
void ac_phase_rooted_pieces_hand(ac_sched *s, const ac_phase_rooted_pieces *pc, int root,
                                 int to_root);
/* Appends the copies of piece i (bytes [lo, lo + len) of every block) between `by_node`, the p
 * blocks of `block` bytes node by node, and `by_lane`, the runs of piece i of lane i's members
 * (the ranks of local rank i, in comm's order, which is not always the nodes'), ppn pieces a
 * run, on nodes of ppn ranks each: to_lanes 1 copies from by_node into by_lane, 0 back. One
 * strided copy a node. */
int ac_phase_lane_runs(ac_sched *s, const ac_nodes *nodes, int i, MPI_Aint block, int lo,
                       int len, char *by_node, char *by_lane, int to_lanes);

#endif
