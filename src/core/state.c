/*
 * state.c - the layer's own settings, per-communicator state with its private duplicate.
 */
#include "core/state.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "core/tls.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ac_global ac_g;

/* Made at the first call that needs it, by whichever thread comes first: read without the lock
 * (acquire), made and stored under it (release). */
static atomic_int comm_keyval = MPI_KEYVAL_INVALID;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The hot path's shortcut past PMPI_Comm_get_attr (about 140 instructions a call in Open MPI):
 * each thread remembers the last communicator it entered and its attribute value. A
 * communicator's handle can be reused once it is freed, so the entry holds only while no
 * attribute of ours has been deleted since it was made: comm_delete (called by MPI for every
 * communicator that carries ours, when it is freed) advances `deletions`, which invalidates
 * every thread's entry at once. */
static atomic_ulong deletions;
static AC_THREAD_LOCAL struct {
    MPI_Comm comm;
    void *value;
    unsigned long deletions;
    int valid;
} last_comm;

/* The agreement of settings at MPI_Init (below) waits this long before it says why it may never
 * end: ranks without the layer (an MPMD launch that preloads it for one application context
 * only) run the program's first collective on MPI_COMM_WORLD against it, and both hang. */
enum { AGREEMENT_WARN_SECONDS = 30 };

/* The settings' agreement: all[] = the maximum of mine[] over MPI_COMM_WORLD. */
static int agree_settings(int *mine, int *all)
{
#if AUTOCOLL_SIMULATED
    return PMPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
#else
    MPI_Request request;
    int done = 0, warned = 0, rc;
    rc = PMPI_Iallreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &request);
    double start = PMPI_Wtime();
    while (rc == MPI_SUCCESS && !(rc = PMPI_Test(&request, &done, MPI_STATUS_IGNORE)) && !done) {
        if (!warned && PMPI_Wtime() - start > AGREEMENT_WARN_SECONDS) {
            ac_log_error("MPI_Init has waited %d s for the other ranks' autocoll settings: is "
                         "autocoll loaded in every rank? In an MPMD launch (mpirun A : B) every "
                         "application context needs the preload and the same AUTOCOLL_* "
                         "settings; a rank without it hangs with this one. Still waiting.",
                         AGREEMENT_WARN_SECONDS);
            warned = 1;
        }
        sched_yield();
    }
    return rc;
#endif
}

void ac_state_init(int check)
{
    int mine[2], all[2], rank;
    if (ac_g.initialized) return;
    ac_g.initialized = 1;
    ac_log_set_level((int)ac_config_int("AUTOCOLL_VERBOSE"));
    ac_g.enabled = ac_config_switch("AUTOCOLL");
    ac_clock_init();
    ac_config_check_environment();
    if (!check) return;
    /* Invariant 1: a choice may only depend on values equal on every rank, and the settings
     * decide choices. If ranks were configured differently, everything passes through. */
    mine[0] = ac_config_hash();
    mine[1] = -mine[0];
    if (agree_settings(mine, all) != MPI_SUCCESS || all[0] != -all[1]) {
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            ac_log_error("the AUTOCOLL_* settings differ between ranks; the layer is disabled "
                         "for this run (pass the same environment to every rank)");
        ac_g.enabled = 0;
    }
}

/* The attribute of a communicator on which some rank could not make its private state: every
 * rank passes its calls through (agreed in comm_create). */
static ac_comm unusable;

/* ---- freed communicators: the top AC_FREED_KEPT kept, the others folded (state.h) --------- */

static void (*fold_release)(ac_comm *c);
static int freed_kept; /* freed communicators in ac_g.comms, summaries aside */

static int (*keep_pcomm)(MPI_Comm pcomm);

void ac_state_on_free_pcomm(int (*keep)(MPI_Comm pcomm))
{
    keep_pcomm = keep;
}

void ac_state_on_fold(void (*release)(ac_comm *c))
{
    fold_release = release;
}

static double comm_seconds(const ac_comm *c)
{
    double s = 0.0;
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        s += c->stats[k].seconds;
    return s;
}

/* The summary of freed communicators like c (size, inter or intra), made at the first need;
 * NULL without memory (c's statistics are then lost to the report: local, no choice
 * changes). */
static ac_comm *summary_of(const ac_comm *c)
{
    for (ac_comm *s = ac_g.comms; s; s = s->next)
        if (s->folded && s->size == c->size && s->inter == c->inter) return s;
    ac_comm *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->pcomm = MPI_COMM_NULL;
    s->rank = -1; /* speaks for no context in the history file */
    s->size = c->size;
    s->inter = c->inter;
    s->freed = 1;
    s->id = -1;
    s->next = ac_g.comms;
    ac_g.comms = s;
    return s;
}

int ac_coll_stats_reserve(ac_coll_stats *s, int nalg)
{
    if (s->alg_calls) return 1;
    s->alg_calls = calloc((size_t)nalg, sizeof *s->alg_calls);
    s->alg_seconds = calloc((size_t)nalg, sizeof *s->alg_seconds);
    if (s->alg_calls && s->alg_seconds) return 1;
    free(s->alg_calls);
    free(s->alg_seconds);
    s->alg_calls = NULL;
    s->alg_seconds = NULL;
    return 0;
}

/* Adds src's per-algorithm and per-size counts to dst's (allocated at the first need); the
 * lists of algorithms match, as both communicators have the same size. */
static void stats_add(ac_coll_stats *dst, const ac_coll_stats *src, int nalg)
{
    dst->calls += src->calls;
    dst->passthrough += src->passthrough;
    dst->untuned += src->untuned;
    dst->single += src->single;
    dst->bytes += src->bytes;
    dst->seconds += src->seconds;
    for (int a = 0; a < nalg && src->alg_calls && ac_coll_stats_reserve(dst, nalg); a++) {
        dst->alg_calls[a] += src->alg_calls[a];
        dst->alg_seconds[a] += src->alg_seconds[a];
    }
    if (src->sizes && !dst->sizes) dst->sizes = calloc(AC_PROFILE_BINS, sizeof *dst->sizes);
    for (int b = 0; b < AC_PROFILE_BINS && src->sizes && dst->sizes; b++) {
        dst->sizes[b].calls += src->sizes[b].calls;
        dst->sizes[b].seconds += src->sizes[b].seconds;
    }
}

/* Folds c (already out of ac_g.comms) into its summary and releases it. */
static void fold(ac_comm *c)
{
    if (fold_release) fold_release(c);
    ac_comm *s = summary_of(c);
    if (s) {
        s->folded++;
        snprintf(s->name, sizeof s->name, "(%ld freed%s)", s->folded, c->inter ? " inter" : "");
    }
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
        ac_coll_stats *st = &c->stats[k];
        if (s) stats_add(&s->stats[k], st, ac_registry_for_size((ac_collective)k, c->size).count);
        free(st->alg_calls);
        free(st->alg_seconds);
        free(st->sizes);
    }
    free(c);
}

/* c was just freed: keeps it if it is among the AC_FREED_KEPT freed communicators the layer
 * spent most time on, else folds the one that is not (the newest of equals). */
static void keep_or_fold(void)
{
    if (++freed_kept <= AC_FREED_KEPT) return;
    ac_comm **least = NULL;
    for (ac_comm **p = &ac_g.comms; *p; p = &(*p)->next)
        if ((*p)->freed && !(*p)->folded && (!least || comm_seconds(*p) < comm_seconds(*least)))
            least = p;
    ac_comm *out = *least;
    *least = out->next;
    freed_kept--;
    fold(out);
}

static int comm_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    ac_comm *c = value;
    (void)comm;
    (void)keyval;
    (void)extra;
    atomic_fetch_add(&deletions, 1);
    if (c == &unusable) return MPI_SUCCESS;
    if (c->pcomm != MPI_COMM_NULL && !(keep_pcomm && keep_pcomm(c->pcomm)))
        PMPI_Comm_free(&c->pcomm);
    c->pcomm = MPI_COMM_NULL;
    pthread_mutex_lock(&lock);
    c->freed = 1;
    /* Freed by the application during the run (not the predefined ones at the end, which the
     * report names). */
    if (!ac_g.finalized) keep_or_fold();
    pthread_mutex_unlock(&lock);
    return MPI_SUCCESS;
}

static void name_comm(ac_comm *c, MPI_Comm comm)
{
    int len = 0, result;
    if (PMPI_Comm_compare(comm, MPI_COMM_WORLD, &result) == MPI_SUCCESS && result == MPI_IDENT) {
        strcpy(c->name, "MPI_COMM_WORLD");
        return;
    }
    if (PMPI_Comm_compare(comm, MPI_COMM_SELF, &result) == MPI_SUCCESS && result == MPI_IDENT) {
        strcpy(c->name, "MPI_COMM_SELF");
        return;
    }
    PMPI_Comm_get_name(comm, c->name, &len);
    /* Libraries give unnamed communicators names of their own; ours are by creation order. */
    if (len == 0 || strncmp(c->name, "MPI COMMUNICATOR", 16) == 0 ||
        strncmp(c->name, "MPI_COMM_", 9) == 0)
        snprintf(c->name, sizeof c->name, "%s%d", c->inter ? "intercomm" : "comm", c->id);
}

/* c, made for comm with its private duplicate (or none), counted among the layer's
 * communicators and named. */
static ac_comm *comm_register(ac_comm *c, MPI_Comm comm)
{
    if (c->pcomm != MPI_COMM_NULL) PMPI_Comm_set_name(c->pcomm, "autocoll private");
    PMPI_Comm_rank(comm, &c->rank);
    PMPI_Comm_size(comm, &c->size);
    pthread_mutex_lock(&lock);
    c->id = ac_g.next_id++;
    c->next = ac_g.comms;
    ac_g.comms = c;
    pthread_mutex_unlock(&lock);
    name_comm(c, comm);
    return c;
}

/* The private state of comm, or &unusable. Collective on an intracommunicator: every rank
 * reaches its first handled collective on comm together (its path depends only on values equal
 * on every rank), duplicates comm and agrees, on comm itself, whether every rank could; a rank
 * that failed alone would pass its calls through while the others ran the layer's algorithms on
 * the duplicate. */
static ac_comm *comm_create(MPI_Comm comm)
{
    int inter = 0, ok, all = 0, rc;
    PMPI_Comm_test_inter(comm, &inter);
    ac_comm *c = calloc(1, sizeof *c);
    if (inter) {
        if (!c) return &unusable; /* no collective on an intercommunicator: it passes through */
        c->inter = 1;
        c->pcomm = MPI_COMM_NULL;
    } else {
        MPI_Comm dup = MPI_COMM_NULL;
        ok = PMPI_Comm_dup(comm, &dup) == MPI_SUCCESS && c;
        rc = PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
        if (rc != MPI_SUCCESS) {
            ac_log_error("the agreement on a communicator's private state failed (MPI error "
                         "%d); ending the run rather than letting the ranks diverge",
                         rc);
            ac_log_abort(rc);
        }
        if (!all) {
            ac_log_error("cannot create the private state of a communicator on %s; every rank "
                         "passes its collectives on it through",
                         ok ? "another rank" : "this rank");
            if (dup != MPI_COMM_NULL) PMPI_Comm_free(&dup);
            free(c);
            return &unusable;
        }
        c->pcomm = dup;
    }
    return comm_register(c, comm);
}

/* The keyval of the state's attribute, made at the first use; MPI_KEYVAL_INVALID if MPI
 * refuses. */
static int state_keyval(void)
{
    int keyval = atomic_load_explicit(&comm_keyval, memory_order_acquire);
    if (keyval == MPI_KEYVAL_INVALID) {
        pthread_mutex_lock(&lock);
        keyval = atomic_load_explicit(&comm_keyval, memory_order_relaxed);
        if (keyval == MPI_KEYVAL_INVALID &&
            PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete, &keyval, NULL) ==
                MPI_SUCCESS)
            atomic_store_explicit(&comm_keyval, keyval, memory_order_release);
        pthread_mutex_unlock(&lock);
    }
    return keyval;
}

int ac_comm_adopt(MPI_Comm comm, MPI_Comm pcomm)
{
    int found = 0, keyval = state_keyval(), rc = MPI_ERR_INTERN;
    void *value = NULL;
    ac_comm *c = NULL;
    if (keyval != MPI_KEYVAL_INVALID)
        rc = PMPI_Comm_get_attr(comm, keyval, &value, &found);
    if (rc == MPI_SUCCESS && !found && !(c = calloc(1, sizeof *c))) rc = MPI_ERR_NO_MEM;
    if (!c) { /* a state already (its own private duplicate), or an error */
        PMPI_Comm_free(&pcomm);
        return rc;
    }
    c->pcomm = pcomm;
    return PMPI_Comm_set_attr(comm, keyval, comm_register(c, comm));
}

/* The state of comm, by its attribute (made at its first call), when the thread's last entry
 * does not hold it; NULL if MPI refuses. Kept out of line: a settled call finds the entry. */
static __attribute__((noinline)) void *comm_lookup(MPI_Comm comm, unsigned long now)
{
    int found = 0;
    void *value = NULL;
    int keyval = state_keyval();
    if (keyval == MPI_KEYVAL_INVALID) return NULL;
    if (PMPI_Comm_get_attr(comm, keyval, &value, &found) != MPI_SUCCESS) return NULL;
    if (!found) {
        value = comm_create(comm);
        PMPI_Comm_set_attr(comm, keyval, value);
    }
    last_comm.comm = comm;
    last_comm.value = value;
    last_comm.deletions = now;
    last_comm.valid = 1;
    return value;
}

/* One more pass-through in a counter that threads may bump at once (read when the run ends). */
static void count_one(long *counter)
{
    __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* A call on a communicator the layer does not run: counted by its reason. */
static __attribute__((noinline)) ac_comm *comm_refused(ac_comm *c, ac_collective coll)
{
    if (c == &unusable) {
        count_one(&ac_g.passthrough[coll]);
        count_one(&ac_g.passthrough_why[AC_PASS_NO_STATE]);
    } else {
        count_one(&c->stats[coll].passthrough);
        count_one(&ac_g.passthrough_why[AC_PASS_INTERCOMM]);
    }
    return NULL;
}

ac_comm *ac_comm_enter(MPI_Comm comm, ac_collective coll)
{
    if (!ac_g.initialized || !ac_g.enabled || ac_g.finalized || comm == MPI_COMM_NULL) return NULL;
    unsigned long now = atomic_load(&deletions);
    void *value = last_comm.valid && last_comm.comm == comm && last_comm.deletions == now
                      ? last_comm.value
                      : comm_lookup(comm, now);
    ac_comm *c = value;
    if (!c) return NULL;
    if (c == &unusable || c->inter) return comm_refused(c, coll);
    return c;
}

void ac_comm_make(MPI_Comm comm)
{
    if (ac_g.initialized && ac_g.enabled && !ac_g.finalized && comm != MPI_COMM_NULL)
        comm_lookup(comm, atomic_load(&deletions));
}

ac_comm *ac_comm_find(MPI_Comm comm)
{
    int found = 0;
    void *value = NULL;
    if (comm == MPI_COMM_NULL || comm_keyval == MPI_KEYVAL_INVALID ||
        PMPI_Comm_get_attr(comm, comm_keyval, &value, &found) != MPI_SUCCESS || !found ||
        value == &unusable)
        return NULL;
    return value;
}

void ac_count_passthrough(MPI_Comm comm, ac_collective coll, ac_pass_reason why)
{
    int found = 0;
    void *value = NULL;
    if (!ac_g.enabled) return;
    count_one(&ac_g.passthrough_why[why]);
    if (comm != MPI_COMM_NULL && comm_keyval != MPI_KEYVAL_INVALID &&
        PMPI_Comm_get_attr(comm, comm_keyval, &value, &found) == MPI_SUCCESS && found &&
        value != &unusable) {
        count_one(&((ac_comm *)value)->stats[coll].passthrough);
        return;
    }
    count_one(&ac_g.passthrough[coll]);
}

const char *ac_pass_reason_name(ac_pass_reason why)
{
    static const char *const names[AC_PASS_REASONS] = {
        [AC_PASS_ARGUMENTS] = "arguments",     [AC_PASS_LARGE_COUNT] = "large_count",
        [AC_PASS_NO_TOPOLOGY] = "no_topology", [AC_PASS_INTERCOMM] = "intercommunicator",
        [AC_PASS_NO_STATE] = "no_state"};
    return why >= 0 && why < AC_PASS_REASONS ? names[why] : "?";
}

void ac_state_finalize(void)
{
    if (!ac_g.initialized || ac_g.finalized) return;
    ac_g.finalized = 1;
    /* Free the private duplicates of the predefined communicators now: their attributes are
     * deleted inside PMPI_Finalize, where freeing communicators is not guaranteed to work. */
    if (comm_keyval != MPI_KEYVAL_INVALID) {
        MPI_Comm predefined[2] = {MPI_COMM_SELF, MPI_COMM_WORLD};
        for (int i = 0; i < 2; i++) {
            int found = 0;
            void *value;
            PMPI_Comm_get_attr(predefined[i], comm_keyval, &value, &found);
            if (found) PMPI_Comm_delete_attr(predefined[i], comm_keyval);
        }
    }
}

void ac_library_line(const char *version, char *out, size_t len)
{
    size_t n = 0;
    int blank = 0;
    if (len == 0) return;
    for (const char *p = version; *p && *p != '\n' && *p != '\r'; p++) {
        if (*p == ' ' || *p == '\t') {
            blank = n > 0;
            continue;
        }
        if (blank && n + 1 < len) out[n++] = ' ';
        blank = 0;
        if (n + 1 < len) out[n++] = *p;
    }
    out[n] = '\0';
}

void ac_mpi_library(char *out, size_t len)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int n = 0;
    PMPI_Get_library_version(version, &n);
    version[n >= 0 && n < (int)sizeof version ? n : (int)sizeof version - 1] = '\0';
    ac_library_line(version, out, len);
}
