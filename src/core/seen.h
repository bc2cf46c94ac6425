/*
 * seen.h - the collectives the layer counts without running them (the nonblocking and
 * persistent ones, gatherv, scatterv, alltoallw, scan, exscan, and their large-count forms):
 * src/intercept/seen.c's wrappers count each call here and pass it to the library; the report
 * lists them ("seen"). The list is core/seen_list.h (scripts/gen_seen writes both).
 */
#ifndef AUTOCOLL_SEEN_H
#define AUTOCOLL_SEEN_H

#include "core/seen_list.h"

#include <mpi.h>

typedef enum ac_seen_kind {
#define AC_SEEN_ENUM(e, name) AC_SEEN_##e,
    AC_SEEN_MPI3(AC_SEEN_ENUM)
#if MPI_VERSION >= 4
    AC_SEEN_MPI4(AC_SEEN_ENUM)
#endif
#undef AC_SEEN_ENUM
    AC_SEEN_KINDS
} ac_seen_kind;

/* Whether the layer counts (it is enabled): the wrappers ask first, so that AUTOCOLL=off (or a
 * call before MPI_Init) computes nothing, not even the bytes. */
int ac_seen_on(void);

/* Why a call was passed to the library instead of run by the layer (the report's "why"). */
typedef enum ac_seen_why {
    AC_SEEN_WHY_NOT_RUN,      /* the layer runs no algorithm of this collective or form (scan,
                               * exscan, gatherv, ..., the v forms' large-count variants) */
    AC_SEEN_WHY_ARGUMENTS,    /* arguments the layer leaves to the library: invalid ones (the
                               * library reports them), counts beyond an int, in place where
                               * MPI allows none */
    AC_SEEN_WHY_COMMUNICATOR, /* a communicator the layer keeps no state for yet (made by
                               * MPI-4's MPI_Comm_create_from_group, before a blocking
                               * collective on it), an intercommunicator, or a neighbourhood
                               * collective's without a topology */
    AC_SEEN_WHY_THREADS,      /* MPI_THREAD_MULTIPLE: the layer runs no request then */
    AC_SEEN_WHY_SELECTION,    /* selection named the library's own: the native strategy (no
                               * communicator's state is then made for nonblocking calls), a
                               * forced or table algorithm that is native or not written as a
                               * schedule, or not applicable (a node layout or mesh not known
                               * yet), a race of fewer than two candidates or beyond its bound */
    AC_SEEN_WHYS
} ac_seen_why;

/* One call of `kind` on `comm` moving `bytes` (negative: not counted, the v and w forms), passed
 * to the library for `why`; ac_seen: for AC_SEEN_WHY_NOT_RUN (src/intercept/seen.c). */
void ac_seen_passed(ac_seen_kind kind, MPI_Comm comm, double bytes, ac_seen_why why);
void ac_seen(ac_seen_kind kind, MPI_Comm comm, double bytes);

/* The report's name of `why` ("no_algorithm", "arguments", ...) and kind's calls passed for it. */
const char *ac_seen_why_name(ac_seen_why why);
long ac_seen_why_calls(ac_seen_kind kind, ac_seen_why why);

/* count x the datatype's size; -1 for arguments the library will refuse (it says why). */
double ac_seen_bytes(long long count, MPI_Datatype type);

/* The MPI name of `kind`, its calls so far (this rank), and its bytes (negative: not counted). */
const char *ac_seen_name(ac_seen_kind kind);
long ac_seen_calls(ac_seen_kind kind);
double ac_seen_total_bytes(ac_seen_kind kind);

/* The nonblocking and persistent calls the layer ran with a repository algorithm
 * (intercept/requests.c), counted at completion: one call (a start, for a persistent request) of
 * `kind` by `algorithm` (a registry name, kept as given) moving `bytes`, `seconds` from its
 * start to the completion the application saw, of which `waited` inside the completion calls.
 * Not among ac_seen_calls. */
void ac_seen_run(ac_seen_kind kind, const char *algorithm, double bytes, double seconds,
                 double waited);
/* The algorithms of kind's calls run, their names and calls in names[i], calls[i]; how many.
 * At most AC_SEEN_RUN_ALGORITHMS - 1 by name (a race has at most 16 candidates, and no
 * collective more than 12 written as schedules); beyond them, the rest under "others" (before
 * 2026-11-27: under the eighth name, so allgather's ninth and tenth candidates' calls were
 * reported as its eighth's). */
enum { AC_SEEN_RUN_ALGORITHMS = 17 };
int ac_seen_run_algorithms(ac_seen_kind kind, const char *names[], long calls[]);
long ac_seen_run_calls(ac_seen_kind kind);
double ac_seen_run_bytes(ac_seen_kind kind);
double ac_seen_run_seconds(ac_seen_kind kind);
double ac_seen_run_waited(ac_seen_kind kind);

#endif
