/*
 * intercept.h - helpers of the MPI_* wrappers (one file per collective, or per two collectives of
 * one argument shape, in this folder).
 *
 * A wrapper passes the call to the MPI library untouched when the layer is off, on an
 * intercommunicator, or when the arguments are ones the library must reject (so the user gets
 * the library's own error); otherwise it fills an ac_call, asks ac_select() for one algorithm,
 * runs it on the private communicator and accounts for it.
 */
#ifndef AUTOCOLL_INTERCEPT_H
#define AUTOCOLL_INTERCEPT_H

#include "coll/common/neighbor.h"
#include "core/clock.h"
#include "select/select.h"

#include <limits.h>
#include <mpi.h>

/* The state of `comm` for a call of `coll` (ac_comm_enter), the layer's settings read first if
 * MPI_Init did not run through the layer; NULL: pass the call through. */
ac_comm *ac_enter(MPI_Comm comm, ac_collective coll);

/* The call site of the running MPI routine: its return address (select/site.h). Every entry
 * point (C, large-count, Fortran) passes its own to the ac_<collective>_at function that does
 * the work, so the site is the user's call, not one of ours. */
#define AC_CALLER __builtin_return_address(0)

/* The body that two entry points of one argument shape share (blocks.c, rooted_blocks.c,
 * neighbor_blocks.c, allreduce.c), inlined into each with its collective a constant: a call
 * costs what it cost when each had its own body. */
#define AC_SHAPE_BODY static inline __attribute__((always_inline))

int ac_allgather_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm);
int ac_allgatherv_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype,
                     void *rbuf, const int rcounts[], const int displs[], MPI_Datatype rtype,
                     MPI_Comm comm);
int ac_allreduce_at(const void *caller, const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                    MPI_Op op, MPI_Comm comm);
int ac_alltoall_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   int rcount, MPI_Datatype rtype, MPI_Comm comm);
int ac_alltoallv_at(const void *caller, const void *sbuf, const int scounts[], const int sdispls[],
                    MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                    MPI_Datatype rtype, MPI_Comm comm);
int ac_barrier_at(const void *caller, MPI_Comm comm);
int ac_bcast_at(const void *caller, void *buf, int count, MPI_Datatype dtype, int root,
                MPI_Comm comm);
int ac_gather_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, int root, MPI_Comm comm);
int ac_reduce_at(const void *caller, const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                 MPI_Op op, int root, MPI_Comm comm);
int ac_reduce_scatter_at(const void *caller, const void *sbuf, void *rbuf, const int rcounts[],
                         MPI_Datatype dtype, MPI_Op op, MPI_Comm comm);
int ac_reduce_scatter_block_at(const void *caller, const void *sbuf, void *rbuf, int rcount,
                               MPI_Datatype dtype, MPI_Op op, MPI_Comm comm);
int ac_scatter_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, int root, MPI_Comm comm);

int ac_neighbor_allgather_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype,
                             void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm);
int ac_neighbor_allgatherv_at(const void *caller, const void *sbuf, int scount,
                              MPI_Datatype stype, void *rbuf, const int rcounts[],
                              const int displs[], MPI_Datatype rtype, MPI_Comm comm);
int ac_neighbor_alltoall_at(const void *caller, const void *sbuf, int scount, MPI_Datatype stype,
                            void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm);
int ac_neighbor_alltoallv_at(const void *caller, const void *sbuf, const int scounts[],
                             const int sdispls[], MPI_Datatype stype, void *rbuf,
                             const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                             MPI_Comm comm);
int ac_neighbor_alltoallw_at(const void *caller, const void *sbuf, const int scounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype stypes[], void *rbuf,
                             const int rcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype rtypes[], MPI_Comm comm);

/* A neighbourhood collective's state: that of comm (ac_enter) and its neighbours (cached on the
 * private duplicate, made at the first call), the call's facts in *call. NULL: pass the call
 * through (counted): the layer off, no Cartesian or distributed-graph topology (MPI_GRAPH
 * too), MPI_IN_PLACE (not allowed here: the library reports it). */
ac_comm *ac_enter_neighbor(MPI_Comm comm, ac_collective coll, const void *sbuf, ac_neighbors **nb,
                           ac_call *call);

/* 1 when every count of n is >= 0 and every datatype (types NULL: `type` for all) not null. */
int ac_blocks_ok(const int counts[], const MPI_Datatype types[], MPI_Datatype type, int n);

/* The in- and out-degree of a Cartesian or distributed-graph comm, for the arrays of a
 * neighbourhood v- or w-collective; 0 for any other (pass through). */
int ac_neighbor_degrees(MPI_Comm comm, int *indegree, int *outdegree);

/* A call's facts, with the communicator size filled in. Inline, as the next one: they run on
 * every call, and built in place the facts are not copied on the way back. */
static inline ac_call ac_call_make(const ac_comm *c, ac_collective coll)
{
    ac_call call = {.collective = coll, .size = c->size, .op = MPI_OP_NULL};
    return call;
}

/* A reduction's facts (allreduce, reduce, reduce_scatter) into *call: `count` elements of dtype
 * combined by op (the call's count capped at INT_MAX, its bytes not). Written in place: a copy
 * of the struct, read back in wide loads from the narrow stores just made, stalled the call on
 * store forwarding. */
static inline void ac_call_reduction(ac_call *call, const ac_comm *c, ac_collective coll,
                                     long count, MPI_Datatype dtype, MPI_Op op)
{
    *call = ac_call_make(c, coll);
    call->count = count > INT_MAX ? INT_MAX : (int)count;
    ac_call_set_op(call, op);
    call->bytes = ac_signature_bytes(count, dtype);
}

/* The bytes of a v-collective's call (its ac_call's bytes): n blocks of counts[i] elements of
 * `type`. */
size_t ac_counts_bytes(const int counts[], int n, MPI_Datatype type);

/* Valid root for comm (else the library reports the error). */
int ac_root_ok(MPI_Comm comm, int root);

/* 1 when this rank is `root` of comm, 0 when another rank is, -1 when root is not a rank of
 * comm (the library reports the error). Rooted wrappers check only the arguments significant
 * at this rank: MPI ignores the others, and programs pass junk there. */
int ac_at_root(MPI_Comm comm, int root);

/* Which blocks of a gather or scatter call (coll) are significant at this rank (MPI ignores the
 * others, and programs pass junk there: only significant arguments may decide this rank's
 * path): the root's side at the root, the other side except at an in-place root. Returns
 * ac_at_root() (rooted_blocks.c). */
int ac_rooted_significant(ac_collective coll, MPI_Comm comm, int root, const void *sbuf,
                          const void *rbuf, int *send, int *receive);

#if MPI_VERSION >= 4
/* MPI-4 large-count wrappers: 1 if every value fits in an int (then *out is set). Arrays are
 * converted into freshly allocated int arrays (free them), NULL in gives NULL out. */
int ac_count_fits(MPI_Count count, int *out);
int ac_counts_fit(const MPI_Count *counts, int n, int **out);
int ac_displs_fit(const MPI_Aint *displs, int n, int **out);
/* Size of comm for the arrays of a v-collective; 0 for an intercommunicator (pass through). */
int ac_intra_size(MPI_Comm comm);
#endif

#endif
