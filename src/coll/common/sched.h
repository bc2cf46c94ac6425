/*
 * sched.h - an algorithm written once as a schedule of rounds, run to completion by the blocking
 * call or progressed by a nonblocking or persistent one (the model of libnbc and of MPICH's
 * transport schedules).
 *
 * A schedule is a list of rounds. A round holds local steps (a copy, a reduction) and messages
 * (a send, a receive), in the order the builder gave them. Running a round: its local steps run
 * first, in order; then its messages start, in order; the round ends when every one of its
 * messages has completed, and the next round starts. So a local step may use what earlier rounds
 * received and produce what its own round sends, and a round's messages must not touch each
 * other's buffers.
 *
 * Messages kept in flight across rounds (ac_sched_send_kept, ac_sched_recv_kept, ac_sched_wait:
 * the pipelining engine's, common/pipeline.c, whose receives are posted ahead and whose sends
 * complete rounds later) are not part of their round's end: each is posted into a numbered slot
 * of the schedule's kept requests and completed by a wait step of a later round. A round
 * holding such steps runs its messages in the order given, the blocking run waiting for each
 * wait step there (MPI_Wait), the progressed run ending the round when the requests its wait
 * steps name have completed; a wait is therefore a round's last message: any other step
 * appended after one starts the next round.
 *
 * The blocking run (ac_sched_run) makes the same MPI calls as an algorithm written with blocking
 * point-to-point calls: a round of one send is MPI_Send, of one receive MPI_Recv, of one send and
 * one receive MPI_Sendrecv, of one barrier MPI_Barrier; more messages (or a round ended by
 * ac_sched_round_posted) are posted with MPI_Irecv/MPI_Isend in order and completed with
 * MPI_Waitall. A blocking algorithm rewritten as a schedule therefore keeps its
 * simulated times exactly. The progressed run (ac_sched_start, ac_sched_progress) posts every
 * message with MPI_Isend/MPI_Irecv, but those to or from MPI_PROC_NULL, which complete at once
 * (their requests MPI_REQUEST_NULL).
 *
 * Builders record steps; an allocation failure while building is kept (ac_sched_error) and
 * reported by the run. Buffers are referenced, not copied: the caller's buffers must stay valid
 * until the schedule has completed; temporaries come from ac_sched_tmp and live as long as the
 * schedule.
 */
#ifndef AC_COLL_SCHED_H
#define AC_COLL_SCHED_H

#include <mpi.h>

typedef int ac_sched_start_fn(const void *arg, MPI_Comm comm, MPI_Request *req);
typedef int ac_sched_call_fn(const void *arg, MPI_Comm comm); /* ac_sched_call's */
typedef int ac_sched_local_fn(const void *arg);                /* ac_sched_local's */

/* One step (sched.c's to read and write). */
typedef struct ac_sched_step {
    int kind;
    const void *src; /* send: the buffer; copy, reduce: the source; library: its argument */
    void *dst;       /* recv: the buffer; copy, reduce: the target */
    int count;       /* send, recv, reduce; copy: the source's */
    MPI_Datatype type;
    int dcount; /* copy: the target's */
    MPI_Datatype dtype;
    int peer; /* send, recv */
    MPI_Comm comm; /* send, recv, library, barrier, call: the communicator it was built on */
    MPI_Op op;
    ac_sched_start_fn *start; /* library: posts the call */
    ac_sched_call_fn *call;   /* call: the blocking collective */
    ac_sched_local_fn *local; /* local: the computation */
} ac_sched_step;

/* Room kept inside the schedule, so that a small one (a blocking call's, most often) allocates
 * nothing: its steps, rounds, temporaries and a round's requests, beyond which they move to the
 * heap. A schedule is therefore never copied by value once initialised. */
enum { AC_SCHED_STEPS = 24, AC_SCHED_ROUNDS = 16, AC_SCHED_TMPS = 4, AC_SCHED_REQS = 4,
       AC_SCHED_KEPT = 8, AC_SCHED_TYPES = 4 };

typedef struct ac_sched {
    MPI_Comm comm;         /* the communicator steps are built on: the schedule's own, or a
                            * phase's (ac_sched_phase) while it is built */
    MPI_Comm own;          /* the schedule's own (ac_sched_init's) */
    int tag;
    int rank, size;        /* this rank and the size of comm */
    int blocking;          /* built for the blocking run only (ac_sched_barrier) */
    MPI_Request library;   /* a persistent request's: the library's own persistent collective,
                            * made at its initialisation, which a library step (ac_sched_library)
                            * starts with MPI_Start instead of calling its start function
                            * (intercept/requests.c); MPI_REQUEST_NULL otherwise (set after
                            * ac_sched_init, not freed with the schedule) */
    MPI_Datatype *types;   /* the datatypes made for its messages, freed with it (ac_sched_own) */
    int ntypes, typecap;
    int rc;                /* the first error, building or running */
    ac_sched_step *steps;  /* every round's steps, in order */
    int nsteps, cap;
    int *ends;             /* round k is steps [ends[k-1], ends[k]) (ends[-1] = 0) */
    unsigned char *posted; /* round k ended by ac_sched_round_posted */
    int nrounds, rcap;
    void **tmps;           /* temporaries' allocations, freed with the schedule */
    int ntmps, tcap;
    /* progress (ac_sched_start, ac_sched_progress) */
    int round;             /* the round whose messages are in flight; nrounds when done */
    int next;              /* its step posted next: its end once every message is posted (a
                            * library step waits for its turn: ac_sched_start) */
    int ticketed;          /* its library steps hold turns (ac_sched_start) */
    int held;              /* stopped at a library step whose turn has not come */
    MPI_Request *reqs;     /* its messages' requests (MPI_REQUEST_NULL once completed) */
    MPI_Status *stats;     /* their statuses (not MPI_STATUSES_IGNORE: gcc's stringop-overflow
                            * check rejects it with MPICH's mpi.h) */
    int nreqs, qcap;
    MPI_Request *kept;        /* the kept messages' slots (ac_sched_keep), MPI_REQUEST_NULL when
                               * none is in flight there */
    unsigned char *kept_recv; /* slot i's message is a receive (cancelled by ac_sched_drain) */
    int nkept;
    int waited;               /* the current round (building) holds a wait step */
    /* the room inside (above) */
    ac_sched_step step_room[AC_SCHED_STEPS];
    int end_room[AC_SCHED_ROUNDS];
    unsigned char posted_room[AC_SCHED_ROUNDS];
    void *tmp_room[AC_SCHED_TMPS];
    MPI_Request req_room[AC_SCHED_REQS];
    MPI_Status stat_room[AC_SCHED_REQS];
    MPI_Request kept_room[AC_SCHED_KEPT];
    unsigned char kept_recv_room[AC_SCHED_KEPT];
    MPI_Datatype type_room[AC_SCHED_TYPES];
} ac_sched;

/* An empty schedule on comm (whose rank and size it asks) with messages tagged `tag`. */
int ac_sched_init(ac_sched *s, MPI_Comm comm, int tag);
void ac_sched_free(ac_sched *s);

/* A temporary of `count` elements of `type` (lower bound accounted for, as ac_tmp_alloc), or
 * NULL (count 0 or out of memory: the latter kept as the schedule's error). */
void *ac_sched_tmp(ac_sched *s, MPI_Aint count, MPI_Datatype type);

/* Makes the schedule free `type` (committed, made for its messages) with it (without memory to
 * note it: MPI_ERR_NO_MEM, kept as its error, and the type freed at once). */
void ac_sched_own(ac_sched *s, MPI_Datatype type);

/* The steps, appended to the current round. */
void ac_sched_send(ac_sched *s, const void *buf, int count, MPI_Datatype type, int to);
void ac_sched_recv(ac_sched *s, void *buf, int count, MPI_Datatype type, int from);
void ac_sched_copy(ac_sched *s, const void *src, int scount, MPI_Datatype stype, void *dst,
                   int dcount, MPI_Datatype dtype);
/* count elements of type at src packed into the `bytes` bytes at dst (ac_pack, MPI_Pack's
 * format: a packed message's), and back (ac_unpack) */
void ac_sched_pack(ac_sched *s, const void *src, int count, MPI_Datatype type, void *dst,
                   int bytes);
void ac_sched_unpack(ac_sched *s, const void *src, int bytes, void *dst, int count,
                     MPI_Datatype type);
/* A computation of this rank alone as a local step: `fn(arg)`, which makes no MPI call that
 * communicates (a rearrangement of blocks between the schedule's temporaries); its error is the
 * run's. */
void ac_sched_local(ac_sched *s, ac_sched_local_fn *fn, const void *arg);
/* inout = in op inout (ac_reduce_local) */
void ac_sched_reduce(ac_sched *s, const void *in, void *inout, int count, MPI_Datatype type,
                     MPI_Op op);
/* As ac_reduce_ordered, in the schedule: the operands combined in rank order, *acc and *other
 * swapped where the result lands in *other. */
void ac_sched_reduce_ordered(ac_sched *s, char **acc, char **other, MPI_Aint offset,
                             int partner_below, int count, MPI_Datatype type, MPI_Op op);
/* The library's own nonblocking collective as one message of the round: `start` posts it with
 * `arg` on the communicator the step is built on and gives its request (the native algorithm as
 * a schedule, which nonblocking and persistent calls race like the others; a composed
 * instance's phase of the library's own, phase.h). A progressed schedule starts it in its
 * turn (ac_sched_start). */
void ac_sched_library(ac_sched *s, ac_sched_start_fn *start, const void *arg);
/* The library's barrier as one message of the round, for a schedule built for the blocking run
 * (s->blocking): MPI_Barrier where it is the round's only message (an algorithm's
 * synchronisation between its steps, params->sync = AC_SYNC_BARRIER). */
void ac_sched_barrier(ac_sched *s);
/* Messages kept in flight across rounds (above): `nslots` slots for them, numbered from 0 (a
 * second call with more slots adds slots). A kept message is posted into a slot that holds none
 * in flight (the builder's to ensure: MPI_ERR_INTERN when running otherwise) and completed by
 * ac_sched_wait on that slot, in the same round after it or in a later one; every one is waited
 * for before the schedule ends. */
void ac_sched_keep(ac_sched *s, int nslots);
void ac_sched_send_kept(ac_sched *s, int slot, const void *buf, int count, MPI_Datatype type,
                        int to);
void ac_sched_recv_kept(ac_sched *s, int slot, void *buf, int count, MPI_Datatype type,
                        int from);
void ac_sched_wait(ac_sched *s, int slot);
/* A blocking collective as a local step of a schedule built for the blocking run only
 * (s->blocking): `call(arg, comm)` runs where the step stands, on the schedule's communicator
 * (the inner phase of a composed algorithm whose engine is not written as a schedule: the
 * node-aware ring all-gather). Built into a schedule meant to be progressed: MPI_ERR_INTERN. */
void ac_sched_call(ac_sched *s, ac_sched_call_fn *call, const void *arg);
/* Ends the current round and builds the steps that follow on `comm` (a phase of a composed
 * algorithm on a communicator of some of the schedule's processes: a node's, the node leaders',
 * coll/common/nodes.c), s->comm, s->rank and s->size being comm's and this rank's in it until
 * the next call (ac_sched_phase(s, the schedule's own communicator) comes back). The phase's
 * messages carry the schedule's tag on comm; comm must outlive the schedule. A builder of
 * comm's ranks appended next builds the rounds it builds alone, so a blocking run makes the
 * calls that its blocking run on comm makes. */
void ac_sched_phase(ac_sched *s, MPI_Comm comm);
/* Ends the current round (nothing when it is empty). */
void ac_sched_round(ac_sched *s);
/* Ends it as a round whose messages the blocking run posts with MPI_Irecv/MPI_Isend and
 * completes with MPI_Waitall whatever their number: an algorithm written with nonblocking calls
 * keeps its calls (and its simulated times) where a round has one message. */
void ac_sched_round_posted(ac_sched *s);

/* The error kept while building (MPI_SUCCESS, MPI_ERR_NO_MEM). */
static inline int ac_sched_error(const ac_sched *s) { return s->rc; }

/* Runs the schedule to completion with blocking calls; its first error. */
int ac_sched_run(ac_sched *s);

/* While the layer has nonblocking or persistent collectives in flight (intercept/requests.c
 * sets it; NULL otherwise): waits for the n requests reqs (each completed, or MPI_REQUEST_NULL)
 * while it advances those collectives, as MPI's progress rule asks of a blocking call. The
 * blocking run then posts a round of point-to-point messages nonblocking and waits for them
 * with it (the calls differ, the messages and their matching do not): a rank blocked in a
 * blocking collective the layer runs as a schedule still advances its part of a nonblocking
 * one that the others wait for before they join the blocking one (tests/mpi/nbc_rules.c case
 * 7). Not the library's collectives: a round's MPI_Barrier (STEP_BARRIER), the library's own
 * algorithm (native) and a blocking-only step (ac_sched_call) stay blocking calls, for MPI
 * matches a blocking collective only with a blocking one, and a rank with nothing in flight
 * makes the blocking call; there the rule still fails (docs/nonblocking.md). */
typedef int ac_sched_wait_fn(int n, MPI_Request reqs[]);
extern ac_sched_wait_fn *ac_sched_waiting;

/* Starts the first round; then ac_sched_progress advances it: without `block`, as far as the
 * completed messages allow (MPI_Testall); with it, until the schedule ends or is held (below).
 * *done is set to 1 when every round has ended (also after an error, which is ac_sched_error's
 * then).
 *
 * Turns: every rank must start the library's collectives on a communicator in one order, and
 * ranks reach a progressed schedule's rounds at different times. So ac_sched_start gives each
 * library step of the schedule (ac_sched_library) a turn on the communicator it was built on,
 * behind those of the schedules started before it (callers start schedules in one order on
 * every rank: intercept/requests.c in call order on each communicator, and a phase's
 * communicator belongs to one communicator's private duplicate); a library step starts when
 * every earlier turn on its communicator has started, and the schedule is held there until then
 * (its earlier messages still posted and completed; s->held, ac_sched_held counts such
 * schedules): whoever progresses schedules progresses every one again when one held is
 * counted, and a blocking collective of the layer on that communicator waits until no turn of
 * its own communicator's schedules is pending (ac_sched_turns_pending). The blocking run
 * (ac_sched_run) takes no turn. */
int ac_sched_start(ac_sched *s, int *done);
int ac_sched_progress(ac_sched *s, int block, int *done);
/* Schedules held at a library step (above), and how many library steps have started in their
 * turns so far (a caller that advanced schedules advances the held ones again while it grows). */
extern int ac_sched_held;
extern unsigned long ac_sched_turns_started;
/* Whether a library step of a progressed schedule whose own communicator (ac_sched_init's) is
 * `own` has not started yet. */
int ac_sched_turns_pending(MPI_Comm own);
/* Whether every message in flight of the current round has completed: its requests are
 * MPI_REQUEST_NULL (set so by a caller that completed one in its own wait, requests.c). */
int ac_sched_round_completed(const ac_sched *s);
/* Completes the messages still in flight after an error, as the blocking algorithms do
 * (ac_wait_pending; kept receives are cancelled first, as the pipelining engine did): the
 * buffers are then free. */
void ac_sched_drain(ac_sched *s);

#endif
