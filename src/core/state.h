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
    double bytes;        /* sum of message sizes of the calls we ran */
    double seconds;      /* time inside the algorithms */
    long *alg_calls;     /* [registry count] calls per algorithm, allocated at the first call
                          * (the registry holds thousands of mesh instances); NULL without
                          * memory (the report then lacks the per-algorithm counts) */
    double *alg_seconds; /* [registry count] time per algorithm, allocated with alg_calls */
    ac_size_bin *sizes;  /* [AC_PROFILE_BINS], allocated at the first call; NULL without memory
                          * (the profile then misses those calls: local, changes no choice) */
    int warned;          /* a forced algorithm was inapplicable here (warned once) */
} ac_coll_stats;

struct ac_bucket;  /* the calls of one collective and message size (select.c) */
struct ac_context; /* a tuning context: a bucket's calls from one call site (select.c) */
struct ac_strategy;

typedef struct ac_comm {
    MPI_Comm pcomm; /* private duplicate: all our traffic */
    int rank, size;
    int inter; /* intercommunicator: everything passes through */
    int id;    /* creation order on this rank */
    int freed; /* the application freed it; kept for the report */
    char name[MPI_MAX_OBJECT_NAME];
    ac_coll_stats stats[AC_NUM_COLLECTIVES];
    struct ac_bucket *buckets[AC_NUM_COLLECTIVES]; /* newest first */
    int nbuckets[AC_NUM_COLLECTIVES];
    uint64_t *sites; /* call sites with a context here (AUTOCOLL_MAX_SITES) */
    int nsites;
    long untuned[AC_NUM_COLLECTIVES];               /* calls beyond AUTOCOLL_MAX_SITES or _SIZES */
    struct ac_context *pending[AC_NUM_COLLECTIVES]; /* context of the call in flight */
    double select_start;                            /* when the call in flight began choosing */
    int select_weight;   /* calls its bookkeeping time stands for (0: not timed; select.c) */
    int deciding;        /* tuning contexts here whose strategy is deciding */
    unsigned long ticks; /* tuned calls, for sampling the bookkeeping time once settled */
    struct ac_comm *next;                           /* every ac_comm ever created, newest first */
} ac_comm;

typedef struct ac_global {
    int initialized; /* ac_init ran */
    int enabled;     /* AUTOCOLL != off and every rank configured alike */
    int finalized;   /* ac_finalize ran */
    const ac_algorithm *forced[AC_NUM_COLLECTIVES]; /* AUTOCOLL_<COLL>, NULL = auto */
    const struct ac_strategy *strategy;             /* AUTOCOLL_STRATEGY; NULL = native */
    int max_sizes;                                  /* AUTOCOLL_MAX_SIZES */
    ac_comm *comms;                                 /* list of every ac_comm */
    int next_id;
    long passthrough[AC_NUM_COLLECTIVES]; /* calls passed through with no ac_comm */
    const ac_algorithm *last_algorithm;   /* the algorithm of the last call the layer ran */
} ac_global;

extern ac_global ac_g;

/* Initialisation after PMPI_Init (collective over MPI_COMM_WORLD: checks that every rank was
 * configured alike). ac_init_local() is the fallback when MPI was initialised behind our back:
 * it reads the settings without the check. */
void ac_init(void);
void ac_init_local(void);

/* Report and release everything; called from MPI_Finalize before PMPI_Finalize. */
void ac_finalize(void);

/* The state of `comm` for a call of collective `coll`, created if needed; NULL means pass the
 * call through (layer disabled, intercommunicator, or failure), already counted. */
ac_comm *ac_comm_enter(MPI_Comm comm, ac_collective coll);

/* The state of `comm` if it has one, else NULL (creates nothing). */
ac_comm *ac_comm_find(MPI_Comm comm);

/* Count a call passed through before any state was looked up (e.g. invalid arguments). */
void ac_count_passthrough(MPI_Comm comm, ac_collective coll);

/* The MPI library a table or history file was made with, as they record it: the first line
 * of `version` (a PMPI_Get_library_version string), runs of blanks made one space, no blanks
 * at either end ("MPICH Version:      4.0.2" -> "MPICH Version: 4.0.2"). */
void ac_library_line(const char *version, char *out, size_t len);

/* ac_library_line() of the running MPI library. */
void ac_mpi_library(char *out, size_t len);

/* The profile bin of a message of `bytes` (AC_PROFILE_BINS above). */
static inline int ac_profile_bin(size_t bytes)
{
    int k = bytes ? 64 - __builtin_clzll((unsigned long long)bytes) : 0; /* bit length */
    return k < AC_PROFILE_BINS - 1 ? k : AC_PROFILE_BINS - 1;
}

#endif
