/* alltoallv.h - the alltoallv algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLTOALLV_H
#define AUTOCOLL_ALLTOALLV_H

#include "coll/coll.h"

/* The engines, each written once as a schedule (common/sched.h; its blocking entry point,
 * AC_ALLTOALLV_BY_SCHEDULE, builds and runs it), which alltoall runs too
 * (AC_ALLTOALL_BY_ALLTOALLV), declared for either collective by
 * AC_ALLTOALLV_ENGINES(AC_DECLARE_SCHEDULED, coll). ring and pair: p->sync. Besides the
 * registry, the allreduce "reduce-scatter by all-to-all" family calls the blocking ones by
 * name. */
#define AC_ALLTOALLV_ENGINES(S, coll) S(coll, simple) S(coll, ring) S(coll, pair)

AC_DECLARE_SCHEDULED(alltoallv, native) /* the library's MPI_Ialltoallv */
AC_ALLTOALLV_ENGINES(AC_DECLARE_SCHEDULED, alltoallv)

/* An alltoallv call's arguments, kept where a schedule is built or started later: the native
 * schedule's library call, a racing request's builds (intercept/ialltoallv.c). The counts and
 * displacements are the caller's: MPI keeps them unchanged while the call or request lives. */
typedef struct ac_alltoallv_args {
    const void *sbuf;
    const int *scounts, *sdispls;
    MPI_Datatype stype;
    void *rbuf;
    const int *rcounts, *rdispls;
    MPI_Datatype rtype;
} ac_alltoallv_args;

/* What an engine works with once its schedule has begun (its frame: frame.c): the call's
 * arguments, the send ones redirected to the schedule's copy of rbuf's outgoing blocks for
 * MPI_IN_PLACE, the rank, the size, and the extents and sizes of both types. */
typedef struct ac_alltoallv_frame {
    ac_alltoallv_args call;
    int rank, size;
    MPI_Aint sext, rext; /* extents of stype and rtype */
    int ssize, rsize;    /* sizes of stype and rtype */
} ac_alltoallv_frame;

/* Helpers of this folder (frame.c). */
struct ac_sched;

/* One phase of the phased engines (ring, pair) as a round: the block for `to` sent and the
 * block from `from` received, an empty block (zero count or type size) to or from
 * MPI_PROC_NULL (type signatures match, so both sides agree; the blocking run is one
 * MPI_Sendrecv, as the engines made before they were schedules). */
void ac_alltoallv_sched_exchange(struct ac_sched *s, const ac_alltoallv_frame *f, int to,
                                 int from);

/* An engine's rounds: what it appends to s after the frame (ac_alltoallv_sched_engine). */
typedef void ac_alltoallv_rounds_fn(struct ac_sched *s, const ac_alltoallv_frame *f,
                                    const ac_params *p);

/* An engine's schedule: the frame, then `rounds`; the frame's error or the first a step met.
 * The frame fills the ac_alltoallv_frame and appends to the first round the copy of the rank's
 * own block into rbuf; with MPI_IN_PLACE instead the copy of rbuf's outgoing blocks (every block
 * but the rank's own, one byte range) into a temporary of the schedule, from which the engine
 * sends (each start of a persistent request copies them again). */
int ac_alltoallv_sched_engine(ac_alltoallv_rounds_fn *rounds, struct ac_sched *s,
                              const void *sbuf, const int *scounts, const int *sdispls,
                              MPI_Datatype stype, void *rbuf, const int *rcounts,
                              const int *rdispls, MPI_Datatype rtype, const ac_params *p);

/* The blocking run of an engine written as a schedule: built on comm with the blocking
 * algorithms' tag, run to completion, freed. */
int ac_alltoallv_by_schedule(ac_alltoallv_sched_fn *build, const void *sbuf, const int *scounts,
                             const int *sdispls, MPI_Datatype stype, void *rbuf,
                             const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                             MPI_Comm comm, const ac_params *p);
#define AC_ALLTOALLV_BY_SCHEDULE(name)                                                         \
    int ac_alltoallv_##name(const void *sbuf, const int *scounts, const int *sdispls,          \
                            MPI_Datatype stype, void *rbuf, const int *rcounts,                \
                            const int *rdispls, MPI_Datatype rtype, MPI_Comm comm,             \
                            const ac_params *p)                                                \
    {                                                                                          \
        return ac_alltoallv_by_schedule(ac_alltoallv_##name##_schedule, sbuf, scounts,         \
                                        sdispls, stype, rbuf, rcounts, rdispls, rtype, comm,   \
                                        p);                                                    \
    }

/* The engine `name` of this folder from its rounds, `static void name##_rounds(...)`: its
 * schedule, ac_alltoallv_<name>_schedule, and its blocking run, ac_alltoallv_<name>. */
#define AC_ALLTOALLV_ENGINE(name)                                                              \
    int ac_alltoallv_##name##_schedule(struct ac_sched *s, const void *sbuf,                   \
                                       const int *scounts, const int *sdispls,                 \
                                       MPI_Datatype stype, void *rbuf, const int *rcounts,     \
                                       const int *rdispls, MPI_Datatype rtype,                 \
                                       const ac_params *p)                                     \
    {                                                                                          \
        return ac_alltoallv_sched_engine(name##_rounds, s, sbuf, scounts, sdispls, stype, rbuf, \
                                         rcounts, rdispls, rtype, p);                          \
    }                                                                                          \
    AC_ALLTOALLV_BY_SCHEDULE(name)

#endif
