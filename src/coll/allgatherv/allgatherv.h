/* allgatherv.h - the allgatherv algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLGATHERV_H
#define AUTOCOLL_ALLGATHERV_H

#include "coll/coll.h"

/* The engines, which allgather runs too (AC_ALLGATHER_BY_ALLGATHERV), declared for either
 * collective by AC_ALLGATHERV_ENGINES(AC_DECLARE_BLOCKING, AC_DECLARE_SCHEDULED, coll): the
 * ones written as schedules S, the others B. mesh: p->dims = 2 or 3 (NULL or 0: 2); ring, pair
 * and node_ring: p->sync; pair: power-of-two sizes only. The registries' entries: the set of
 * common/allgather_set.h. Besides the registry, other collectives call the allgatherv engines
 * by name as their inner all-gather (temporary buffers, uneven and zero counts, MPI_IN_PLACE). */
#define AC_ALLGATHERV_ENGINES(B, S, coll)                                                      \
    S(coll, simple) S(coll, mesh) S(coll, recursive_doubling) S(coll, bruck) S(coll, ring)     \
    S(coll, pair) S(coll, node_ring)

AC_DECLARE_SCHEDULED(allgatherv, native) /* the library's MPI_Iallgatherv */
AC_DECLARE_SCHEDULED(allgatherv, orthogonal) /* p->dims, p->layout, p->phase (common/mesh.h) */
AC_ALLGATHERV_ENGINES(AC_DECLARE_BLOCKING, AC_DECLARE_SCHEDULED, allgatherv)

/* An allgatherv call's arguments, kept where a schedule is built or started later: the native
 * schedule's library call, a racing request's builds (intercept/iallgatherv.c). The counts and
 * displacements are the caller's: MPI keeps them unchanged while the call or request lives. */
typedef struct ac_allgatherv_args {
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    const int *rcounts, *displs;
    MPI_Datatype rtype;
} ac_allgatherv_args;

/* Helpers of this folder (blocks.c). */

/* The logical ring over `order` (a permutation of the ranks; NULL = 0, 1, ..., p-1): p-1
 * steps, each forwarding to the next rank of the ring the block received in the step before,
 * in place in rbuf with rtype. `sync` runs between the steps. Written as a schedule (appended
 * to s; `order` is read while building only); ac_allgatherv_logical_ring builds and runs it
 * (node_ring's blocking run; ring's is AC_ALLGATHERV_BY_SCHEDULE). */
struct ac_sched;
int ac_allgatherv_logical_ring_schedule(struct ac_sched *s, const void *sbuf, int scount,
                                        MPI_Datatype stype, void *rbuf, const int *rcounts,
                                        const int *displs, MPI_Datatype rtype, const int *order,
                                        ac_sync sync);
int ac_allgatherv_logical_ring(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                               const int *rcounts, const int *displs, MPI_Datatype rtype,
                               MPI_Comm comm, const int *order, ac_sync sync);

/* The blocking run of an engine written as a schedule: built on comm with the blocking
 * algorithms' tag, run to completion, freed. AC_ALLGATHERV_BY_SCHEDULE(name) defines
 * ac_allgatherv_<name> so, from ac_allgatherv_<name>_schedule. */
int ac_allgatherv_by_schedule(ac_allgatherv_sched_fn *build, const void *sbuf, int scount,
                              MPI_Datatype stype, void *rbuf, const int *rcounts,
                              const int *displs, MPI_Datatype rtype, MPI_Comm comm,
                              const ac_params *p);
#define AC_ALLGATHERV_BY_SCHEDULE(name)                                                        \
    int ac_allgatherv_##name(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,     \
                             const int *rcounts, const int *displs, MPI_Datatype rtype,        \
                             MPI_Comm comm, const ac_params *p)                                \
    {                                                                                          \
        return ac_allgatherv_by_schedule(ac_allgatherv_##name##_schedule, sbuf, scount, stype, \
                                         rbuf, rcounts, displs, rtype, comm, p);               \
    }

/* A packed copy of all the blocks, for the algorithms that forward several blocks in one
 * message (mesh, recursive doubling, Bruck). Slot s holds block (s + shift) mod p (shift 0, or
 * the rank where the copy is rotated) in MPI_Pack format (rcounts[block] * size(rtype) bytes),
 * slots back to back, so any run of consecutive slots is one contiguous MPI_PACKED message
 * whatever rtype's layout. */
typedef struct ac_allgatherv_packed {
    char *buf;
    MPI_Aint *off; /* [p + 1] byte offset of every slot; off[p] = total */
    int rank, size; /* this rank's and the communicator's */
    int shift;
    int own_slot;
    int in_place;
} ac_allgatherv_packed;

/* Allocates the packed copy, rotated (slot s: block (rank + s) mod p) or not, and packs the
 * caller's own block (from sbuf, or rbuf in place). */
int ac_allgatherv_pack_init(ac_allgatherv_packed *pk, const void *sbuf, int scount,
                            MPI_Datatype stype, const void *rbuf, const int *rcounts,
                            const int *displs, MPI_Datatype rtype, MPI_Comm comm, int rotated);

/* Address and byte count of slots [first, last); MPI_ERR_COUNT if the run exceeds INT_MAX. */
int ac_allgatherv_pack_run(const ac_allgatherv_packed *pk, int first, int last, char **addr,
                           int *bytes);

/* Unpacks every slot into rbuf at its displacement (the own block too unless in place). */
int ac_allgatherv_pack_finish(const ac_allgatherv_packed *pk, void *rbuf, const int *rcounts,
                              const int *displs, MPI_Datatype rtype, MPI_Comm comm);

void ac_allgatherv_pack_free(ac_allgatherv_packed *pk);

/* The packed copy for an engine written as a schedule: its buffer a temporary of s, the own
 * block's pack a local step of s's current round (read at each start); pk->off allocated, for
 * the caller to free once the schedule is built (pack_free would free the schedule's buffer). */
int ac_allgatherv_pack_schedule(struct ac_sched *s, ac_allgatherv_packed *pk, const void *sbuf,
                                int scount, MPI_Datatype stype, const void *rbuf,
                                const int *rcounts, const int *displs, MPI_Datatype rtype,
                                int rotated);
/* ac_allgatherv_pack_finish as local steps of s's current round. */
int ac_allgatherv_unpack_schedule(struct ac_sched *s, const ac_allgatherv_packed *pk,
                                  void *rbuf, const int *rcounts, const int *displs,
                                  MPI_Datatype rtype);

#endif
