/*
 * requests.h - the nonblocking and persistent collectives the layer runs with a repository
 * algorithm written as a schedule (coll/common/sched.h): their requests, and their progress.
 *
 * The application holds a real MPI request: an inactive persistent receive on the private
 * communicator (from the rank itself, on a tag no message carries), which is never started, so
 * the library would call it complete at any time. (Not from MPI_PROC_NULL: MPICH 4.0.2 hangs in
 * a later persistent collective once such a request has been freed, docs/native-libraries.md.) The layer's MPI_Wait*, MPI_Test*, MPI_Request_get_status, MPI_Start*,
 * MPI_Request_free (requests.c) know these handles: they advance the schedule, hide the handle
 * from the library until the schedule has ended, then give the empty status MPI gives a
 * collective, and free the handle (nonblocking) or leave it inactive (persistent).
 *
 * Progress is the layer's: a schedule's next round starts when the application is in one of
 * those calls or in a collective the layer intercepts; a blocking one of them waits on the
 * messages of every active schedule at once, so that outstanding collectives complete in any
 * order of waits. So do the blocking point-to-point calls and probes while a schedule is active
 * (requests.c); a rank blocked in MPI_Bsend, MPI_Rsend, RMA or I/O does not advance them
 * (docs/nonblocking.md).
 */
#ifndef AUTOCOLL_REQUESTS_H
#define AUTOCOLL_REQUESTS_H

#include "coll/coll.h"
#include "coll/common/sched.h"
#include "core/seen.h"
#include "core/state.h"

#include <mpi.h>

typedef struct ac_request ac_request;

/* Whether the layer may run a nonblocking or persistent collective: not under
 * MPI_THREAD_MULTIPLE (its requests and their progress are not shared between threads). */
int ac_requests_allowed(void);

/* After a communicator constructor that returned rc and the new communicator comm (collective
 * over comm's members; comm_create.c, fortran_comm_create.c): comm's state made now where the
 * layer may run nonblocking collectives on it (ac_request_comm). Nothing where it is made
 * already. Returns rc. */
int ac_comm_constructed(int rc, MPI_Comm comm);

/* MPI_Comm_idup(comm, &newcomm, request) and MPI_Comm_idup_with_info (comm_create.c,
 * fortran_comm_create.c), after the library's call started the duplicate as `user` and gave
 * its handle, newcomm (Open MPI and MPICH give it at the call): where the layer may run
 * nonblocking collectives on comm's duplicates (as ac_comm_constructed; comm an
 * intracommunicator with a state), *request is the layer's request, which completes when both
 * the library's duplicate and the new communicator's private duplicate (MPI_Comm_idup of comm's
 * private communicator) have, and gives the new communicator its state then (ac_comm_adopt:
 * nothing blocks); else (newcomm MPI_COMM_NULL too: a library that gives it later) *request is
 * `user`. MPI_SUCCESS (a failure to make the state ends the run, loudly: the ranks would
 * diverge). */
int ac_request_idup(MPI_Comm comm, MPI_Comm newcomm, MPI_Request user, MPI_Request *request);

/* The state of comm where the layer may run a nonblocking or persistent collective on it: the
 * layer is on, not under MPI_THREAD_MULTIPLE, and keeps state for comm already (MPI_COMM_WORLD's
 * made at MPI_Init, a new one's in its constructor (comm_create.c) or another's by an earlier
 * blocking collective, collectively: a start must not block to make it), an intracommunicator.
 * NULL: pass the call on. The same answer on every rank. */
ac_comm *ac_request_comm(MPI_Comm comm, MPI_Request *request);

/* ... for a neighbourhood collective: also a Cartesian or distributed-graph communicator (its
 * topology in *topology) and a send buffer not MPI_IN_PLACE (MPI has none for them). */
ac_comm *ac_request_neighbor_comm(MPI_Comm comm, const void *sbuf, MPI_Request *request,
                                  ac_topology *topology);

/* Why a call the layer could run passed to the library (the report's "why", core/seen.h): its
 * arguments (not `valid`), MPI_THREAD_MULTIPLE, the selection where the configuration runs no
 * nonblocking collective by the layer (ac_select_may_run_nonblocking: no communicator's state
 * is made for them then), its communicator (no state c: ac_request_comm's NULL), or else the
 * selection (ac_request_make ran none). */
ac_seen_why ac_request_why(int valid, const ac_comm *c);

/* Builds the schedule of `alg` for a call whose arguments are `args` (the caller's). */
typedef int ac_request_build_fn(ac_sched *s, const ac_algorithm *alg, const void *args);

/* Makes the library's own persistent collective for a call whose arguments are `args`, on comm
 * (MPI_Allreduce_init ...; `native` its registry entry). */
typedef int ac_request_library_fn(const ac_algorithm *native, const void *args, MPI_Comm comm,
                                  MPI_Request *request);

/* The layer's request for a nonblocking (persistent 0) or persistent call of `call` on c, its
 * schedule built by `build` from `args` (argsize bytes, copied where the request races and builds
 * at its start): the algorithm ac_select_nonblocking names, or under a learning strategy a race
 * over ac_select_learning_candidates, a persistent request's own over its first starts or the
 * context's over its first nonblocking calls (requests.c, "race"; docs/nonblocking.md). For a
 * persistent call, `library` makes the library's own persistent collective here, at the
 * initialisation, which every rank makes in one order, where native is among the race's
 * candidates: native's schedule starts it (the library's nonblocking collective, started at each
 * start, would start in the order of the starts, which MPI lets the ranks choose). NULL (always
 * for a nonblocking call): a persistent race leaves native out. 1 with the handle in *handle and
 * the outcome in *rc (a request that cannot be
 * allocated: MPI_ERR_NO_MEM, loud, rather than passing the call on alone; the library's own
 * error making its request); 0: the layer runs none (pass the call on). */
int ac_request_make(ac_comm *c, const ac_call *call, ac_seen_kind kind, int persistent,
                    ac_request_build_fn *build, ac_request_library_fn *library, const void *args,
                    size_t argsize, const MPI_Datatype *types, int ntypes, MPI_Request *handle,
                    int *rc);

/* `types` above (ntypes of them; MPI_DATATYPE_NULL ones ignored) are the call's datatypes:
 * the request holds them, and call->op where it is user-defined, while it lives, for MPI lets
 * the application free them once the call has started. MPI_Type_free and MPI_Op_free
 * (free_handles.c) ask these first: 1 when a request holds the handle (its free is then left
 * to the last request that uses it), 0 when the library may free it now. */
int ac_requests_keep_type(MPI_Datatype type);
int ac_requests_keep_op(MPI_Op op);

/* ac_request_make for a call of `coll`, AC_ALLGATHER, AC_ALLTOALL or their neighbourhood forms:
 * one block of rcount x rtype from every rank or in-neighbour (blocks_request.c, which defines
 * their MPI functions); 0 for arguments the layer leaves to the library (counts that do not fit
 * an int included) and where ac_request_make runs none: the call is then counted as seen (the
 * send bytes; none in place). */
int ac_request_blocks(ac_collective coll, ac_seen_kind kind, int persistent, const void *sbuf,
                      long long scount, MPI_Datatype stype, void *rbuf, long long rcount,
                      MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request, int *rc);

/* Advances every active schedule as far as completed messages allow. The layer's blocking
 * collectives call it first (ac_enter), through the inline test of how many are active. */
extern int ac_requests_active;
void ac_requests_progress_all(void);
static inline void ac_requests_progress(void)
{
    if (ac_requests_active) ac_requests_progress_all();
}

/* Before a blocking collective on the private communicator pcomm: waits, advancing every active
 * schedule, until no request on it is deferred (behind a race's agreement, requests.c) and no
 * library step of its schedules waits for its turn (coll/common/sched.h), so that the library's
 * collectives on pcomm and on its phases' communicators (a blocking native call or phase, the
 * schedules' nonblocking ones) start in one order on every rank. */
void ac_requests_settle(MPI_Comm pcomm);

/* At MPI_Finalize: releases the requests left (persistent ones never freed; a nonblocking one
 * never completed is erroneous and waited for first, as MPI_Finalize would). */
void ac_requests_finalize(void);

#endif
