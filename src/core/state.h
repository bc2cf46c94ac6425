/*
 * state.h - global and per-communicator state.
 *
 * Each application communicator we handle gets an ac_comm, created lazily on its first
 * intercepted collective and cached with an attribute keyval. It owns the private duplicate on
 * which all our traffic runs (invariant 3) and the statistics of the end-of-run report. When
 * the application frees the communicator the keyval's delete callback frees the duplicate and
 * keeps the statistics for the report.
 */
#ifndef AUTOCOLL_STATE_H
#define AUTOCOLL_STATE_H

#include "coll/coll.h"

#include <mpi.h>
#include <stdint.h>

/* The message-size histogram of a collective on a communicator (the report's "profile", like
 * IPM's): bin 0 holds 0-byte calls, bin k >= 1 calls of 2^(k-1) to 2^k - 1 bytes, the last bin
 * everything larger. */
enum { AC_PROFILE_BINS = 42 }; /* up to 2 TiB */
typedef struct ac_size_bin {
    long calls;
    double seconds;
} ac_size_bin;

typedef struct ac_coll_stats {
    long calls;          /* calls run by one of our algorithms (native included) */
    long passthrough;    /* calls passed to the MPI library untouched */
    long untuned;        /* calls run native beyond the tuning contexts' limits (select.c) */
    long single;         /* calls run native untuned on a communicator of one rank (select.c:
                          * every algorithm moves nothing there) */
    double bytes;        /* sum of message sizes of the calls we ran */
    double seconds;      /* time inside the algorithms */
    long *alg_calls;     /* calls per algorithm, indexed as ac_registry_for_size(collective,
                          * size) lists them, allocated at the first call; NULL without memory
                          * (the report then lacks the per-algorithm counts) */
    double *alg_seconds; /* time per algorithm, allocated with alg_calls */
    const void *indexed; /* the algorithm of the last call, whose index in that list is */
    int index;           /* `index` (-1: not listed): the next call of it skips the lookup */
    ac_size_bin *sizes;  /* [AC_PROFILE_BINS], allocated at the first call; NULL without memory
                          * (the profile then misses those calls: local, changes no choice) */
} ac_coll_stats;

typedef struct ac_comm {
    MPI_Comm pcomm; /* private duplicate: all our traffic */
    int rank, size;
    int inter; /* intercommunicator: everything passes through */
    int id;    /* creation order on this rank */
    int freed; /* the application freed it; kept for the report */
    long folded; /* > 0: not a communicator but the summary of this many freed ones of this
                  * size (state.c: beyond AC_FREED_KEPT); its name says so, it has no
                  * selection state and rank -1 */
    char name[MPI_MAX_OBJECT_NAME];
    ac_coll_stats stats[AC_NUM_COLLECTIVES];
    void *select; /* selection's own state of this communicator (select.c), NULL until then */
    unsigned long requests; /* nonblocking collectives the layer ran on it, and persistent */
    unsigned long persistent_requests; /* ones it made: their tags (intercept/requests.c) */
    ac_node_shape layout; /* its node layout, once selection needed it (ac_call_nodes: a
                           * hierarchical candidate, a table rule keyed by layout); nodes 0:
                           * not known */
    struct ac_comm *next; /* every ac_comm ever created, newest first */
} ac_comm;

/* Freed communicators kept whole for the report, their tuning contexts included: those the
 * layer spent most time on. Each one freed beyond them is folded into the summary of its size
 * (statistics summed, ac_comm.folded) and its state released, so a run that makes and frees a
 * communicator per solve keeps bounded memory and a bounded report. */
enum { AC_FREED_KEPT = 16 };

/* Why a call passed through to the MPI library untouched (the report counts each). */
typedef enum ac_pass_reason {
    AC_PASS_ARGUMENTS,   /* arguments the layer does not take (a negative count, a null type or
                          * op, ...): the library reports its own error */
    AC_PASS_LARGE_COUNT, /* an MPI-4 large-count call whose counts do not fit an int */
    AC_PASS_NO_TOPOLOGY, /* a neighbourhood collective without a topology (or in place) */
    AC_PASS_INTERCOMM,   /* an intercommunicator */
    AC_PASS_NO_STATE,    /* a communicator the layer could not keep state for */
    AC_PASS_REASONS
} ac_pass_reason;

typedef struct ac_global {
    int initialized; /* ac_state_init ran */
    int enabled;     /* AUTOCOLL != off and every rank configured alike */
    int finalized;   /* ac_state_finalize ran */
    ac_comm *comms;  /* list of every ac_comm */
    int next_id;
    long passthrough[AC_NUM_COLLECTIVES]; /* calls passed through with no ac_comm */
    long passthrough_why[AC_PASS_REASONS]; /* every call passed through, by reason */
} ac_global;

extern ac_global ac_g;

/* The layer's own settings (AUTOCOLL, AUTOCOLL_VERBOSE), at initialisation. With `check` (after
 * PMPI_Init, collective over MPI_COMM_WORLD) every rank must have been configured alike, else
 * the layer is disabled; without (MPI was initialised behind the layer's back) the settings
 * are read alone. Sets ac_g.initialized and ac_g.enabled. */
void ac_state_init(int check);

/* Release the private duplicates of the predefined communicators, before PMPI_Finalize. */
void ac_state_finalize(void);

/* The state of `comm` for a call of collective `coll`, created if needed; NULL means pass the
 * call through (layer disabled or not initialised, intercommunicator, or failure), already
 * counted. */
ac_comm *ac_comm_enter(MPI_Comm comm, ac_collective coll);

/* Makes the state of `comm` now where it has none: collective over comm, as at its first
 * collective (MPI_Init makes MPI_COMM_WORLD's, so that its first nonblocking collectives find it:
 * a start must not block to make one). */
void ac_comm_make(MPI_Comm comm);

/* Makes the state of `comm`, an intracommunicator, with `pcomm` as its private duplicate (a
 * duplicate of a congruent communicator, made by the caller on every rank of comm), without
 * communicating: MPI_Comm_idup's, at the completion of its request (intercept/requests.c).
 * Where comm has a state already, pcomm is freed (MPI_SUCCESS); so it is after an error
 * (MPI_ERR_NO_MEM without memory, the attribute's). */
int ac_comm_adopt(MPI_Comm comm, MPI_Comm pcomm);

/* The state of `comm` if it has one, else NULL (creates nothing). */
ac_comm *ac_comm_find(MPI_Comm comm);

/* Called, under the state's lock, for each freed communicator about to be folded (above):
 * selection saves what the history file needs of it and releases its state. Set once at
 * initialisation. */
void ac_state_on_fold(void (*release)(ac_comm *c));

/* Called before the private duplicate of a communicator the application frees is freed: 1 when
 * the hook keeps it (a request still uses it, and frees it after) (intercept/requests.c). */
void ac_state_on_free_pcomm(int (*keep)(MPI_Comm pcomm));

/* Count a call passed through before any state was looked up (e.g. invalid arguments). */
void ac_count_passthrough(MPI_Comm comm, ac_collective coll, ac_pass_reason why);

/* The reasons' names as the report prints them ("arguments", "large_count", ...). */
const char *ac_pass_reason_name(ac_pass_reason why);

/* The MPI library a table or history file was made with, as they record it: the first line
 * of `version` (a PMPI_Get_library_version string), runs of blanks made one space, no blanks
 * at either end ("MPICH Version:      4.0.2" -> "MPICH Version: 4.0.2"). */
void ac_library_line(const char *version, char *out, size_t len);

/* ac_library_line() of the running MPI library. */
void ac_mpi_library(char *out, size_t len);

/* The per-algorithm counts of s for a list of nalg algorithms, allocated at the first need
 * (both arrays or neither); returns whether s has them (no memory: the report lacks them). */
int ac_coll_stats_reserve(ac_coll_stats *s, int nalg);

/* The profile bin of a message of `bytes` (AC_PROFILE_BINS above). */
static inline int ac_profile_bin(size_t bytes)
{
    int k = bytes ? 64 - __builtin_clzll((unsigned long long)bytes) : 0; /* bit length */
    return k < AC_PROFILE_BINS - 1 ? k : AC_PROFILE_BINS - 1;
}

#endif
