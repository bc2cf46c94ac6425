/*
 * requests.c - the layer's nonblocking and persistent requests (requests.h) and the wrappers of
 * the calls that complete, start and free requests: MPI_Wait, MPI_Waitall, MPI_Waitany,
 * MPI_Waitsome, MPI_Test, MPI_Testall, MPI_Testany, MPI_Testsome, MPI_Request_get_status,
 * MPI_Start, MPI_Startall, MPI_Request_free.
 *
 * While the layer holds no request, each wrapper is the library's call after one load. Otherwise
 * the wrapper sees the layer's handles among the application's: it passes the library a copy of
 * the array with those entries MPI_REQUEST_NULL and merges the outcomes as MPI defines them.
 * While a schedule is active, a wrapper that must block waits with MPI_Waitany on the messages
 * of every active schedule and on the application's requests of the call at once
 * (block_step), so that no collective waits for a rank that sits in a wait for another one.
 */
#include "intercept/requests.h"

#include "coll/algorithms.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"
#include "coll/common/neighbor.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "select/select.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tags of the layer's schedules: above the blocking algorithms' (common.h), at most 32766
 * (MPI_TAG_UB is at least 32767 everywhere); and that of the handles (requests.h), which no
 * message carries. A nonblocking call's tag is the next of TAGS in turn on its communicator; a
 * persistent request's the next of its own PERSISTENT_TAGS, held while it lives. One counter for
 * both gave the 16384th nonblocking call after a persistent request that request's tag, and
 * their messages matched each other's while both were in flight (tests/mpi/nbc_tags.c). A tag
 * comes back only after TAGS nonblocking (PERSISTENT_TAGS persistent) calls on the
 * communicator. */
enum {
    TAG_BASE = 8192,
    TAGS = 16384,
    PERSISTENT_BASE = TAG_BASE + TAGS,
    PERSISTENT_TAGS = 32767 - PERSISTENT_BASE,
    HANDLE_TAG = TAG_BASE - 1
};

/* A race of candidates over a context's first calls: a persistent request's starts (its own
 * race), or the nonblocking calls of one context (a communicator, a collective and the call's
 * size, count and op's kind, as the blocking contexts are keyed: every rank makes the same calls
 * on a communicator in one order, so the k-th call of a context is the same call everywhere).
 *
 * Calls 0 .. N-1 (N = REPEATS x candidates) run the candidates in turn; each rank times each call
 * from its start to the completion the application sees. The first call from N on carries the
 * agreement, appended to its schedule: a recursive-doubling allreduce (MPI_MAX) of the N times
 * and of a flag, 1 where a rank had not yet seen one of those calls complete (a nonblocking call
 * may be completed after later ones start; a persistent request's never is: MPI requires each
 * start complete before the next). A call started while the agreement is in flight is deferred:
 * its schedule is built when the agreement's schedule ends, so that it runs what every rank
 * decides, without blocking its start. The agreement decides: the candidate whose slower
 * repetition, as the slowest rank saw it, was the fastest (the first on ties) runs every later
 * call (a persistent request's schedule built once); with the flag set, the next call carries the
 * agreement again. */
enum { RACE_MAX = 16, RACE_REPEATS = 2, RACE_SAMPLES = RACE_MAX * RACE_REPEATS };
/* Composed instances (ac_is_composed: the hierarchical, orthogonal, Rabenseifner-like families)
 * join a race where AUTOCOLL_RACE_COMPOSED is on (ac_select_learning_candidates), in two
 * stages, as the blocking race's grouping: the first stage races the other candidates and the
 * first instance of each composed family (registry group) in the registry's order; where that
 * instance wins, the second stage races its family's instances (the first RACE_MAX), from the
 * call after the first stage's agreement, and its agreement decides. A new race (the monitor's)
 * starts at the first stage again. The lists are made from the candidates given when the race
 * is made, the same on every rank. */
enum { CANDIDATES_MAX = 256 };
/* The monitor after a decision, as the blocking race's (docs/race.md): windows of calls, the
 * first MONITOR_FIRST long, doubling to AUTOCOLL_RACE_WINDOW_MAX while the choice holds. The
 * last MONITOR_SAMPLES calls of a window are timed; the first call from the window's end on
 * carries their agreement (MPI_MAX, and the flag of a rank that had not seen one complete),
 * which decides: the median of the slowest rank's times against the runner-up's race time. A
 * window whose median exceeds (1 + AUTOCOLL_RACE_EPSILON) x the runner-up's is degraded: one
 * starts the next window at MONITOR_FIRST calls, two in a row start a new race of every
 * candidate. A context of one candidate (native alone) is not monitored. */
enum { MONITOR_FIRST = 16, MONITOR_SAMPLES = 9 };
typedef struct race race;
struct race {
    const ac_algorithm *candidates[RACE_MAX]; /* the stage's */
    int n, calls, winner;               /* calls: started so far; winner -1 while racing */
    int stage;                          /* 1, or 2: a composed family's instances (above) */
    const ac_algorithm *first[RACE_MAX]; /* the first stage's candidates */
    int nfirst;
    const ac_algorithm *all[CANDIDATES_MAX]; /* every candidate given (the families' members) */
    int nall;
    int base;                           /* the call that began the current race */
    double times[RACE_SAMPLES];         /* call base + k's seconds (k < N) ... */
    unsigned char known[RACE_SAMPLES];  /* ... once its completion was seen */
    double agreed[RACE_SAMPLES + 1];    /* the agreement's buffer: the times, then the flag */
    ac_request *agreeing;               /* the request whose schedule carries it, until it ends */
    int deferred;                       /* calls that waited for an agreement (the log's) */
    /* the monitor (above), once decided */
    double runner_up;                   /* the runner-up's slower repetition, slowest rank */
    int window, window_end;             /* the window's length and its end (a call index) */
    int degraded;                       /* degraded windows in a row */
    const ac_algorithm *first_winner;   /* the first race's (AUTOCOLL_TEST_NBC_SLOW_FROM) */
    double mtimes[MONITOR_SAMPLES];     /* calls window_end - MONITOR_SAMPLES + k ... */
    unsigned char mknown[MONITOR_SAMPLES];
    /* a nonblocking context's key (contexts below; bytes: ac_select_key_bytes) */
    MPI_Comm pcomm;
    ac_collective collective;
    size_t bytes;
    int count, op_builtin, op_commutative;
    char name[MPI_MAX_OBJECT_NAME]; /* the communicator's, for the log */
    /* what the last call that found this context gave ac_select_learning_candidates: a call
     * with the same finds it again without making the list (context_again) */
    ac_call seen_call;
    ac_node_shape seen_layout;
    unsigned long seen_meshes;
    race *next;
};

static race *contexts; /* the nonblocking contexts' races */

struct ac_request {
    MPI_Request handle; /* the application's: a persistent receive never started (requests.h) */
    ac_sched sched;
    MPI_Comm pcomm;
    int persistent;
    int active;   /* started, not yet completed in the application's eyes */
    int done;     /* the schedule has ended (rc its outcome) */
    int freed;    /* MPI_Request_free while active: released when done */
    int deferred; /* started, its schedule not yet: behind an agreement (requests.h, "order") */
    unsigned long order; /* when it was started, among every request's starts */
    int rc;
    ac_seen_kind kind;
    const char *algorithm; /* its registry name (a racing request's: this start's) */
    double bytes, start;
    double waited; /* of this call (start), the time the application spent in MPI calls on it:
                    * its start, and the MPI_Wait*, MPI_Test* and MPI_Request_get_status calls
                    * that named it, progress included */
    race *race;  /* NULL: one algorithm; a persistent request owns its race */
    MPI_Request library; /* a persistent race's: the library's persistent collective, made at
                          * the initialisation where native is a candidate (ac_request_make),
                          * which its native schedule starts; MPI_REQUEST_NULL otherwise */
    int seq;     /* a racing request: this start's index in its race */
    const ac_algorithm *built; /* a racing persistent request: the schedule's algorithm, when it
                                * can run again as it is (no agreement in it) */
    ac_request_build_fn *build; /* a racing request: its builder and a copy of its arguments */
    void *args;
    int (*on_end)(ac_request *r, int rc); /* at the schedule's end, before anything else: its
                                           * outcome from rc (MPI_Comm_idup's, below) */
    MPI_Datatype *held_types; /* the call's derived datatypes and op, held while it lives */
    int nheld_types;          /* (hold); held_types is held_room where two suffice */
    MPI_Datatype held_room[2];
    MPI_Op held_op;
    ac_request *next;
};

static ac_request *all;     /* every request of the layer */
static int nall;            /* how many */
static unsigned long releases; /* how many were released so far */
static unsigned long starts;   /* how many were started so far */
#define nactive ac_requests_active
static MPI_Comm *orphans;   /* private communicators freed by the application while a request
                             * still used them: freed with their last request */
static int norphans;
static int thread_level = -1;

int ac_requests_allowed(void)
{
    if (thread_level < 0 && PMPI_Query_thread(&thread_level) != MPI_SUCCESS)
        thread_level = MPI_THREAD_MULTIPLE;
    return thread_level != MPI_THREAD_MULTIPLE;
}

static ac_request *find(MPI_Request handle)
{
    if (handle == MPI_REQUEST_NULL) return NULL;
    for (ac_request *r = all; r; r = r->next)
        if (r->handle == handle) return r;
    return NULL;
}

/* The nonblocking contexts of a private communicator that is freed: its handle may come back. */
static void drop_contexts(MPI_Comm pcomm)
{
    for (race **p = &contexts; *p;)
        if ((*p)->pcomm == pcomm) {
            race *x = *p;
            *p = x->next;
            free(x);
        } else {
            p = &(*p)->next;
        }
}

/* The state layer's hook before it frees a private communicator: kept while a request uses it. */
static int adopt(MPI_Comm pcomm)
{
    for (ac_request *r = all; r; r = r->next)
        if (r->pcomm == pcomm) {
            MPI_Comm *o = realloc(orphans, (size_t)(norphans + 1) * sizeof *o);
            if (!o) break; /* freed now: the request's later messages fail loudly */
            orphans = o;
            orphans[norphans++] = pcomm;
            return 1;
        }
    drop_contexts(pcomm);
    return 0;
}

/* Datatypes and user-defined ops that the layer's requests use, with how many requests use
 * each. MPI lets the application free them once a call has started (the operation completes
 * normally: libraries count references), and MPICH's nonblocking2 and nonblocking3 do so before
 * their waits. So MPI_Type_free and MPI_Op_free of a held one only mark it (free_handles.c,
 * ac_requests_keep_type and _op) and the last request that used it frees it (release).
 * Predefined datatypes and ops are not held. */
typedef struct held {
    MPI_Datatype type; /* MPI_DATATYPE_NULL: an op's entry */
    MPI_Op op;         /* MPI_OP_NULL: a datatype's entry */
    int uses, freed;
} held;
static held *helds;
static int nhelds, helds_cap;

static held *held_find(MPI_Datatype type, MPI_Op op)
{
    for (int i = 0; i < nhelds; i++)
        if (helds[i].type == type && helds[i].op == op) return &helds[i];
    return NULL;
}

/* One more use of a datatype (op MPI_OP_NULL) or of an op (type MPI_DATATYPE_NULL): 0 without
 * memory. */
static int hold(MPI_Datatype type, MPI_Op op)
{
    held *h = held_find(type, op);
    if (h) {
        h->uses++;
        return 1;
    }
    if (nhelds == helds_cap) {
        int cap = helds_cap ? 2 * helds_cap : 8;
        held *p = realloc(helds, (size_t)cap * sizeof *p);
        if (!p) return 0;
        helds = p;
        helds_cap = cap;
    }
    helds[nhelds++] = (held){type, op, 1, 0};
    return 1;
}

/* One use less; the last frees what the application freed meanwhile. */
static void unhold(MPI_Datatype type, MPI_Op op)
{
    held *h = held_find(type, op);
    if (!h || --h->uses > 0) return;
    if (h->freed && type != MPI_DATATYPE_NULL) PMPI_Type_free(&type);
    if (h->freed && op != MPI_OP_NULL) PMPI_Op_free(&op);
    *h = helds[--nhelds];
}

static int is_predefined(MPI_Datatype type)
{
    int ni, na, nd, combiner;
    return PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS ||
           combiner == MPI_COMBINER_NAMED;
}

/* Holds the call's derived datatypes (each once) and user-defined op for r; 0 without memory
 * (r holds what it got, released with it). */
static int hold_handles(ac_request *r, const ac_call *call, const MPI_Datatype *types, int ntypes)
{
    r->held_types = ntypes <= 2 ? r->held_room : malloc(sizeof(MPI_Datatype) * (size_t)ntypes);
    if (!r->held_types) return 0;
    for (int i = 0; i < ntypes; i++) {
        int again = 0;
        for (int j = 0; j < r->nheld_types && !again; j++)
            again = r->held_types[j] == types[i];
        if (again || types[i] == MPI_DATATYPE_NULL || is_predefined(types[i])) continue;
        if (!hold(types[i], MPI_OP_NULL)) return 0;
        r->held_types[r->nheld_types++] = types[i];
    }
    if (call->op != MPI_OP_NULL && !call->op_builtin) {
        if (!hold(MPI_DATATYPE_NULL, call->op)) return 0;
        r->held_op = call->op;
    }
    return 1;
}

/* r's datatypes and op, given back. */
static void release_handles(ac_request *r)
{
    for (int i = 0; i < r->nheld_types; i++)
        unhold(r->held_types[i], MPI_OP_NULL);
    if (r->held_types != r->held_room) free(r->held_types);
    if (r->held_op != MPI_OP_NULL) unhold(MPI_DATATYPE_NULL, r->held_op);
    r->held_types = NULL;
    r->nheld_types = 0;
    r->held_op = MPI_OP_NULL;
}

static int keep_freed(MPI_Datatype type, MPI_Op op)
{
    held *h = nhelds ? held_find(type, op) : NULL;
    if (!h) return 0;
    h->freed = 1;
    return 1;
}

int ac_requests_keep_type(MPI_Datatype type)
{
    return type != MPI_DATATYPE_NULL && keep_freed(type, MPI_OP_NULL);
}

int ac_requests_keep_op(MPI_Op op)
{
    return op != MPI_OP_NULL && keep_freed(MPI_DATATYPE_NULL, op);
}

static void release(ac_request *r)
{
    releases++;
    for (ac_request **p = &all; *p; p = &(*p)->next)
        if (*p == r) {
            *p = r->next;
            break;
        }
    nall--;
    if (r->handle != MPI_REQUEST_NULL) PMPI_Request_free(&r->handle);
    if (r->library != MPI_REQUEST_NULL) PMPI_Request_free(&r->library);
    ac_sched_free(&r->sched);
    if (r->persistent) free(r->race);
    free(r->args);
    release_handles(r);
    MPI_Comm pcomm = r->pcomm;
    free(r);
    for (ac_request *o = all; o; o = o->next)
        if (o->pcomm == pcomm) return;
    for (int i = 0; i < norphans; i++)
        if (orphans[i] == pcomm) {
            drop_contexts(pcomm);
            PMPI_Comm_free(&orphans[i]);
            orphans[i] = orphans[--norphans];
            return;
        }
}

ac_comm *ac_request_comm(MPI_Comm comm, MPI_Request *request)
{
    if (!ac_seen_on() || !request || !ac_requests_allowed()) return NULL;
    ac_comm *c = ac_comm_find(comm);
    return c && !c->inter && !c->folded && c->pcomm != MPI_COMM_NULL ? c : NULL;
}

ac_seen_why ac_request_why(int valid, const ac_comm *c)
{
    return !valid                            ? AC_SEEN_WHY_ARGUMENTS
           : !ac_requests_allowed()           ? AC_SEEN_WHY_THREADS
           : !ac_select_may_run_nonblocking() ? AC_SEEN_WHY_SELECTION
           : !c                              ? AC_SEEN_WHY_COMMUNICATOR
                                             : AC_SEEN_WHY_SELECTION;
}

ac_comm *ac_request_neighbor_comm(MPI_Comm comm, const void *sbuf, MPI_Request *request,
                                  ac_topology *topology)
{
    ac_comm *c = sbuf != MPI_IN_PLACE ? ac_request_comm(comm, request) : NULL;
    if (!c || ac_neighbors_topology(comm, topology) != MPI_SUCCESS ||
        *topology == AC_TOPOLOGY_NONE)
        return NULL;
    return c;
}

/* A new request of `alg` on c's private communicator, its schedule initialised with the next tag
 * of c (agreed: every rank starts and initialises its collectives on a communicator in one
 * order); the caller builds the schedule into *sched, then ac_request_begin. NULL without
 * memory. */
static ac_request *ac_request_new(ac_comm *c, int persistent, ac_seen_kind kind,
                                  const ac_algorithm *alg, double bytes, ac_sched **sched)
{
    static int hooked;
    if (!hooked) {
        ac_state_on_free_pcomm(adopt);
        hooked = 1;
    }
    ac_request *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    *r = (ac_request){.handle = MPI_REQUEST_NULL, .pcomm = c->pcomm, .persistent = persistent,
                      .kind = kind, .algorithm = alg->name, .bytes = bytes,
                      .library = MPI_REQUEST_NULL,
                      .held_op = MPI_OP_NULL};
    int tag = persistent ? PERSISTENT_BASE + (int)(c->persistent_requests++ % PERSISTENT_TAGS)
                         : TAG_BASE + (int)(c->requests++ % TAGS);
    ac_sched_init(&r->sched, c->pcomm, tag);
    *sched = &r->sched;
    return r;
}

static void race_decide(race *x, int seq, int rc);
static void run_deferred(MPI_Comm pcomm);

/* ac_sched_waiting while the layer has requests in flight (below). */
static ac_sched_wait_fn wait_progressing;

/* The schedule's end seen: a race's agreement decided; counted now for a request freed while
 * active. */
static void ended(ac_request *r, int rc)
{
    if (r->on_end) rc = r->on_end(r, rc);
    r->done = 1;
    r->rc = rc;
    nactive--;
    ac_sched_waiting = nactive ? wait_progressing : NULL;
    if (r->race && r->race->agreeing == r) {
        race_decide(r->race, r->seq, rc);
        run_deferred(r->pcomm);
    }
    if (r->freed) {
        ac_seen_run(r->kind, r->algorithm, r->bytes, ac_now() - r->start, r->waited);
        release(r);
    }
}

/* Starts r's schedule, built with outcome `rc`; an error is the completion's. */
static void run_schedule(ac_request *r, int rc)
{
    int done = 1;
    if (rc == MPI_SUCCESS) rc = ac_sched_start(&r->sched, &done);
    if (done) ended(r, rc);
}

/* 1 when a and b are instances of one composed family (a registry group). */
static int same_family(const ac_algorithm *a, const ac_algorithm *b)
{
    return ac_is_composed(a) && ac_is_composed(b) && a->group && b->group &&
           !strcmp(a->group, b->group);
}

/* The first stage's candidates among candidates[0 .. n-1], into out: every one but the later
 * instances of each composed family, the first RACE_MAX; how many. */
static int first_stage(const ac_algorithm *const *candidates, int n, const ac_algorithm **out)
{
    int m = 0;
    for (int i = 0; i < n && m < RACE_MAX; i++) {
        int later = 0;
        for (int j = 0; j < m && !later; j++)
            later = same_family(out[j], candidates[i]);
        if (!later) out[m++] = candidates[i];
    }
    return m;
}

/* A new race of candidates[0 .. n-1] (the first CANDIDATES_MAX; its first stage the first
 * RACE_MAX of first_stage's), or NULL without memory. */
static race *race_new(const ac_algorithm *const *candidates, int n)
{
    race *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->nall = n < CANDIDATES_MAX ? n : CANDIDATES_MAX;
    memcpy(x->all, candidates, sizeof *candidates * (size_t)x->nall);
    x->nfirst = first_stage(x->all, x->nall, x->first);
    x->n = x->nfirst;
    x->stage = 1;
    x->winner = -1;
    x->pcomm = MPI_COMM_NULL; /* a nonblocking context's is set by context() */
    memcpy(x->candidates, x->first, sizeof *x->first * (size_t)x->n);
    return x;
}

/* A race of every candidate again from call `from`, at the first stage. */
static void race_again(race *x, int from)
{
    x->stage = 1;
    x->n = x->nfirst;
    memcpy(x->candidates, x->first, sizeof *x->first * (size_t)x->n);
    x->winner = -1;
    x->base = from;
    x->degraded = 0;
    memset(x->known, 0, sizeof x->known);
}

/* After the first stage decided on a composed family's first instance: its family's instances
 * race from call `from` (1), or the decision stands (0). */
static int race_family(race *x, int from)
{
    const ac_algorithm *w = x->candidates[x->winner], *members[RACE_MAX];
    int m = 0;
    for (int i = 0; i < x->nall && m < RACE_MAX; i++)
        if (x->all[i] == w || same_family(x->all[i], w)) members[m++] = x->all[i];
    if (x->stage != 1 || !ac_is_composed(w) || m < 2) return 0;
    x->stage = 2;
    x->n = m;
    memcpy(x->candidates, members, sizeof *members * (size_t)m);
    x->winner = -1;
    x->base = from;
    memset(x->known, 0, sizeof x->known);
    return 1;
}

/* A racing request's schedule for its call r->seq of its race (race above). */
static int race_build(ac_request *r)
{
    race *x = r->race;
    int n = x->n * RACE_REPEATS, k = r->seq, tag = r->sched.tag;
    const ac_algorithm *alg = x->candidates[x->winner >= 0 ? x->winner : (k - x->base) % x->n];
    int race_agrees = x->winner < 0 && k - x->base >= n;
    int monitor_agrees = x->winner >= 0 && x->n > 1 && k >= x->window_end;
    r->algorithm = alg->name;
    /* a persistent request's winner, built before without an agreement */
    if (r->built == alg && !monitor_agrees) return MPI_SUCCESS;
    r->built = NULL;
    ac_sched_free(&r->sched);
    int rc = ac_sched_init(&r->sched, r->pcomm, tag);
    r->sched.library = r->library;
    if (rc == MPI_SUCCESS) rc = r->build(&r->sched, alg, r->args);
    if (rc != MPI_SUCCESS) return rc;
    if (race_agrees || monitor_agrees) { /* the agreement rides on this call */
        int m = race_agrees ? n : MONITOR_SAMPLES, lacking = 0;
        const double *times = race_agrees ? x->times : x->mtimes;
        const unsigned char *known = race_agrees ? x->known : x->mknown;
        for (int i = 0; i < m; i++) {
            x->agreed[i] = known[i] ? times[i] : 0.0;
            lacking |= !known[i];
        }
        x->agreed[m] = lacking;
        x->agreeing = r;
        ac_sched_round(&r->sched);
        return ac_allreduce_recursive_doubling_schedule(&r->sched, MPI_IN_PLACE, x->agreed, m + 1,
                                                        MPI_DOUBLE, MPI_MAX, NULL);
    }
    if (r->persistent && x->winner >= 0) r->built = alg;
    return MPI_SUCCESS;
}

/* A racing request's call completed in the application's eyes, `seconds` of the application's
 * time spent in MPI calls on it (its `waited`): kept for the agreement. */
static void race_observe(ac_request *r, double seconds)
{
    race *x = r->race;
    int k = r->seq - x->base, first = x->window_end - MONITOR_SAMPLES;
    /* testing only: from call AUTOCOLL_TEST_NBC_SLOW_FROM on, the first race's winner is seen
     * 1000 s slower (a fault the monitor must find, on any machine: with 1 s, a loaded machine's
     * race times of 4 to 9 ms put the fault under the test's epsilon of 1000, 2026-11-29) */
    static long slow_from = -1;
    if (slow_from < 0) slow_from = ac_config_int("AUTOCOLL_TEST_NBC_SLOW_FROM");
    if (slow_from > 0 && r->seq >= slow_from && x->first_winner &&
        !strcmp(r->algorithm, x->first_winner->name))
        seconds += 1000.0;
    if (x->winner < 0 && k >= 0 && k < x->n * RACE_REPEATS) {
        x->times[k] = seconds;
        x->known[k] = 1;
    } else if (x->winner >= 0 && r->seq >= first && r->seq < x->window_end) {
        x->mtimes[r->seq - first] = seconds;
        x->mknown[r->seq - first] = 1;
    }
}

/* The monitor's next window after the call `seq` that carried an agreement. */
static void monitor_next(race *x, int seq)
{
    int max = (int)ac_config_int("AUTOCOLL_RACE_WINDOW_MAX");
    x->window = x->degraded || x->window <= 0 ? MONITOR_FIRST
                                              : (x->window < max / 2 ? 2 * x->window : max);
    x->window_end = seq + 1 + x->window;
    memset(x->mknown, 0, sizeof x->mknown);
}

static int compare_double(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* The monitor's agreement (call seq) has ended: its window kept, shortened, or a new race. */
static void monitor_decide(race *x, int seq, int rc)
{
    if (rc != MPI_SUCCESS || x->agreed[MONITOR_SAMPLES] != 0.0) return; /* again next call */
    double sorted[MONITOR_SAMPLES];
    memcpy(sorted, x->agreed, sizeof sorted);
    qsort(sorted, MONITOR_SAMPLES, sizeof *sorted, compare_double);
    double median = sorted[MONITOR_SAMPLES / 2];
    int degraded = median > (1.0 + ac_config_real("AUTOCOLL_RACE_EPSILON")) * x->runner_up;
    x->degraded = degraded ? x->degraded + 1 : 0;
    if (x->degraded < 2) {
        if (degraded && x->pcomm != MPI_COMM_NULL)
            ac_log_info("%s %s %zu B (nonblocking): monitor: %s degraded at call %d (median "
                        "%.2f us, the runner-up raced %.2f us)",
                        x->name, ac_collective_name(x->collective), x->bytes,
                        x->candidates[x->winner]->name, seq, 1e6 * median, 1e6 * x->runner_up);
        monitor_next(x, seq);
        return;
    }
    if (x->pcomm != MPI_COMM_NULL)
        ac_log_info("%s %s %zu B (nonblocking): monitor: %s degraded twice (median %.2f us, the "
                    "runner-up raced %.2f us): a new race from call %d",
                    x->name, ac_collective_name(x->collective), x->bytes,
                    x->candidates[x->winner]->name, 1e6 * median, 1e6 * x->runner_up, seq + 1);
    race_again(x, seq + 1);
}

/* The deferred request on pcomm started first, or NULL. */
static ac_request *first_deferred(MPI_Comm pcomm)
{
    ac_request *first = NULL;
    for (ac_request *o = all; o; o = o->next)
        if (o->deferred && o->pcomm == pcomm && (!first || o->order < first->order)) first = o;
    return first;
}

/* The deferred requests on pcomm start, in the order they were started, up to the first whose
 * race still waits for its agreement. Their schedules may hold the library's own collectives
 * (the native schedules), which every rank must start on the private communicator in one order:
 * a request started after a deferred one on the same communicator is deferred too (start). */
static void run_deferred(MPI_Comm pcomm)
{
    ac_request *r;
    while ((r = first_deferred(pcomm)) && !(r->race && r->race->agreeing)) {
        r->deferred = 0;
        run_schedule(r, r->race ? race_build(r) : MPI_SUCCESS);
    }
}

/* The agreement's schedule (call seq) has ended with outcome rc: the winner, unless a rank
 * lacked a time (the next call carries the agreement again). */
static void race_decide(race *x, int seq, int rc)
{
    int n = x->n * RACE_REPEATS;
    x->agreeing = NULL;
    if (x->winner >= 0) {
        monitor_decide(x, seq, rc);
        return;
    }
    if (rc == MPI_SUCCESS && x->agreed[n] == 0.0) {
        double best = 0.0;
        x->runner_up = 0.0;
        for (int c = 0; c < x->n; c++) {
            double slow = 0.0;
            for (int j = 0; j < RACE_REPEATS; j++)
                if (x->agreed[c + j * x->n] > slow) slow = x->agreed[c + j * x->n];
            if (x->winner < 0 || slow < best) {
                if (x->winner >= 0) x->runner_up = best;
                x->winner = c, best = slow;
            } else if (x->runner_up == 0.0 || slow < x->runner_up) {
                x->runner_up = slow;
            }
        }
        if (x->n < 2) x->runner_up = best;
        if (!x->first_winner) x->first_winner = x->candidates[x->winner];
        x->window = 0;
        x->degraded = 0;
        monitor_next(x, seq);
    }
    if (x->pcomm != MPI_COMM_NULL && x->winner >= 0) { /* a nonblocking context's */
        char times[RACE_MAX * 48] = "";
        size_t used = 0;
        for (int c = 0; c < x->n && used < sizeof times; c++) {
            double slow = 0.0;
            for (int j = 0; j < RACE_REPEATS; j++)
                if (x->agreed[c + j * x->n] > slow) slow = x->agreed[c + j * x->n];
            int w = snprintf(times + used, sizeof times - used, "%s%s %.2f us", c ? ", " : "",
                             x->candidates[c]->name, 1e6 * slow);
            used += w > 0 ? (size_t)w : 0;
        }
        ac_log_info("%s %s %zu B (nonblocking): race chose %s at call %d (%d calls deferred for "
                    "the agreement; the slower of each candidate's calls, on the slowest rank: %s)",
                    x->name, ac_collective_name(x->collective), x->bytes,
                    x->candidates[x->winner]->name, seq, x->deferred, times);
    }
    else if (x->pcomm != MPI_COMM_NULL)
        ac_log_info("%s %s %zu B (nonblocking): race lacked a rank's time at call %d: the next "
                    "call agrees again", x->name, ac_collective_name(x->collective), x->bytes, seq);
    const char *family = x->winner >= 0 ? x->candidates[x->winner]->group : NULL;
    if (x->winner >= 0 && race_family(x, seq + 1) && x->pcomm != MPI_COMM_NULL)
        ac_log_info("%s %s %zu B (nonblocking): the %s family's %d instances race from call %d",
                    x->name, ac_collective_name(x->collective), x->bytes, family, x->n, seq + 1);
}

static int start(ac_request *r)
{
    race *x = r->race;
    r->active = 1;
    r->done = 0;
    r->waited = 0.0;
    r->start = ac_now();
    r->order = ++starts;
    nactive++;
    ac_sched_waiting = wait_progressing;
    if (x) r->seq = x->calls < INT_MAX ? x->calls++ : INT_MAX;
    if ((x && x->agreeing) || first_deferred(r->pcomm)) {
        r->deferred = 1; /* started by run_deferred, when the agreement before it has ended */
        if (x) x->deferred++;
    } else {
        run_schedule(r, x ? race_build(r) : MPI_SUCCESS);
    }
    r->waited += ac_now() - r->start;
    return MPI_SUCCESS; /* an error is the completion's */
}

/* After the build: a nonblocking request starts; a persistent one waits for MPI_Start. The
 * application's handle in *handle. A build that failed (`build_rc`) releases the request and
 * returns that error. */
static int ac_request_begin(ac_request *r, int build_rc, MPI_Request *handle)
{
    int rc = build_rc;
    if (rc == MPI_SUCCESS) /* from this rank itself, on a tag nothing sends: never started */
        rc = PMPI_Recv_init(NULL, 0, MPI_BYTE, r->sched.rank, HANDLE_TAG, r->pcomm, &r->handle);
    if (rc != MPI_SUCCESS) {
        if (r->library != MPI_REQUEST_NULL) PMPI_Request_free(&r->library);
        ac_sched_free(&r->sched);
        if (r->persistent) free(r->race);
        free(r->args);
        free(r);
        return rc;
    }
    r->next = all;
    all = r;
    nall++;
    *handle = r->handle;
    return r->persistent ? MPI_SUCCESS : start(r);
}

static void progress_one(ac_request *r)
{
    int done;
    if (!r->active || r->done || r->deferred) return;
    int rc = ac_sched_progress(&r->sched, 0, &done);
    if (done) ended(r, rc);
}

int ac_requests_active;


void ac_requests_progress_all(void)
{
    unsigned long turns;
    do { /* again while a library step started in its turn, which a held schedule waited for
          * (coll/common/sched.h) */
        turns = ac_sched_turns_started;
        for (ac_request *r = all; r;) {
            /* progress may release r, and others (deferred requests that end at once): then
             * again from the first (progressing a request again is harmless) */
            unsigned long before = releases;
            ac_request *next = r->next;
            progress_one(r);
            r = releases == before ? next : all;
        }
    } while (ac_sched_held && ac_sched_turns_started != turns);
}

static void empty_status(MPI_Status *st)
{
    if (st == MPI_STATUS_IGNORE) return;
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->MPI_ERROR = MPI_SUCCESS;
    PMPI_Status_set_elements(st, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(st, 0);
}

/* Whether the application would find r complete (a persistent request not started is). */
static int complete_now(const ac_request *r) { return !r->active || r->done; }

/* r complete in the application's eyes: counted, its status empty, its handle in *slot freed
 * (nonblocking) or left inactive (persistent); the schedule's outcome. */
static int complete(ac_request *r, MPI_Request *slot, MPI_Status *st)
{
    int rc = MPI_SUCCESS;
    if (r->active) {
        double seconds = ac_now() - r->start;
        ac_seen_run(r->kind, r->algorithm, r->bytes, seconds, r->waited);
        if (r->race) race_observe(r, r->waited);
        r->active = 0;
        rc = r->rc;
        r->rc = MPI_SUCCESS;
    }
    empty_status(st);
    if (st != MPI_STATUS_IGNORE) st->MPI_ERROR = rc;
    if (!r->persistent) {
        release(r);
        *slot = MPI_REQUEST_NULL;
    }
    return rc;
}

/* Blocks until a message of an active schedule or one of the n requests app[] completes. A
 * schedule's message: the schedule advanced, -1. One of app[]: its handle updated there, its
 * status in *st, its index. Nothing to wait for: -2. An error of the library: -3 (*rc). */
static int block_step(int n, MPI_Request app[], MPI_Status *st, int *rc)
{
    /* a schedule held for its library step's turn (sched.h) whose turn has come has no message
     * in flight to wait for: advanced first */
    if (ac_sched_held) ac_requests_progress_all();
    int total = n;
    for (ac_request *r = all; r; r = r->next)
        if (r->active && !r->done) total += r->sched.nreqs;
    MPI_Request *reqs = malloc(sizeof *reqs * (size_t)(total ? total : 1));
    ac_request **owner = malloc(sizeof *owner * (size_t)(total ? total : 1));
    int *slot = malloc(sizeof *slot * (size_t)(total ? total : 1));
    if (!reqs || !owner || !slot) {
        free(reqs);
        free(owner);
        free(slot);
        *rc = MPI_ERR_NO_MEM;
        return -3;
    }
    int k = 0;
    for (int i = 0; i < n; i++, k++)
        reqs[k] = app[i], owner[k] = NULL, slot[k] = i;
    for (ac_request *r = all; r; r = r->next)
        if (r->active && !r->done)
            for (int i = 0; i < r->sched.nreqs; i++, k++)
                reqs[k] = r->sched.reqs[i], owner[k] = r, slot[k] = i;
    int idx = MPI_UNDEFINED, out;
    MPI_Status status;
    *rc = PMPI_Waitany(total, reqs, &idx, &status);
    if (*rc != MPI_SUCCESS) {
        out = -3;
    } else if (idx == MPI_UNDEFINED) {
        out = -2;
    } else if (!owner[idx]) {
        app[slot[idx]] = reqs[idx];
        if (st != MPI_STATUS_IGNORE) *st = status;
        out = slot[idx];
    } else {
        owner[idx]->sched.reqs[slot[idx]] = MPI_REQUEST_NULL;
        progress_one(owner[idx]); /* a held schedule it let start: at the next block_step */
        out = -1;
    }
    free(reqs);
    free(owner);
    free(slot);
    return out;
}

/* Waits until r's schedule has ended, advancing every active one. */
static void wait_for(ac_request *r)
{
    int rc;
    /* a round still in flight is not tested first: the wait below blocks for its messages. A
     * test costs: SMPI 3.32 charges its simulated test time (smpi/test) for every message of a
     * library's nonblocking collective, 3 us of an alltoall's 30 on 16 ranks at 0.1 us */
    if (ac_sched_round_completed(&r->sched)) progress_one(r);
    while (r->active && !r->done)
        if (block_step(0, NULL, MPI_STATUS_IGNORE, &rc) < -1) {
            /* the library failed us: the schedule ends with its error */
            ac_sched_drain(&r->sched);
            ended(r, rc != MPI_SUCCESS ? rc : MPI_ERR_INTERN);
        }
}

/* Waits for the n requests reqs (a blocking collective's messages or library request,
 * coll/common/sched.h) while every active schedule advances (block_step). */
static int wait_progressing(int n, MPI_Request reqs[])
{
    int rc = MPI_SUCCESS, pending = 0;
    for (int i = 0; i < n; i++)
        pending += reqs[i] != MPI_REQUEST_NULL;
    while (pending > 0) {
        int out = block_step(n, reqs, MPI_STATUS_IGNORE, &rc);
        if (out >= 0) pending--;
        if (out == -3) return rc;
        if (out == -2) break; /* nothing left to wait for */
    }
    return MPI_SUCCESS;
}

void ac_requests_settle(MPI_Comm pcomm)
{
    int rc;
    while (first_deferred(pcomm) || ac_sched_turns_pending(pcomm))
        if (block_step(0, NULL, MPI_STATUS_IGNORE, &rc) < -1) break;
}

/* An array of n requests as the library must see it: the layer's entries MPI_REQUEST_NULL in a
 * copy, which[i] the layer's request at i or NULL (also once completed and released); the call
 * began at t0, its time charged to each of the layer's entries (their `waited`). */
typedef struct {
    MPI_Request *copy;
    ac_request **which;
    int layer;
    double t0;
} view;

static int view_make(int n, const MPI_Request reqs[], view *v, double t0)
{
    v->layer = 0;
    v->t0 = t0;
    v->copy = malloc(sizeof *v->copy * (size_t)(n ? n : 1));
    v->which = malloc(sizeof *v->which * (size_t)(n ? n : 1));
    if (!v->copy || !v->which) {
        free(v->copy);
        free(v->which);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        v->which[i] = find(reqs[i]);
        v->copy[i] = v->which[i] ? MPI_REQUEST_NULL : reqs[i];
        v->layer += v->which[i] != NULL;
    }
    return 1;
}

/* The layer's entry i complete in the application's eyes (complete), the call's time charged to
 * it first; a released one leaves which[i] NULL (reqs[i] is then MPI_REQUEST_NULL, as the copy's
 * entry). */
static int complete_entry(view *v, int i, MPI_Request reqs[], MPI_Status *st)
{
    ac_request *r = v->which[i];
    int persistent = r->persistent;
    if (r->active) r->waited += ac_now() - v->t0;
    int rc = complete(r, &reqs[i], st);
    if (!persistent) v->which[i] = NULL;
    return rc;
}

/* The application's entries back from the copy; the call's time charged to the layer's entries
 * still active. */
static void view_done(int n, MPI_Request reqs[], view *v)
{
    double now = ac_now();
    for (int i = 0; i < n; i++)
        if (!v->which[i])
            reqs[i] = v->copy[i];
        else if (v->which[i]->active)
            v->which[i]->waited += now - v->t0;
    free(v->copy);
    free(v->which);
}

static MPI_Status *status_at(MPI_Status statuses[], int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

/* Completes the application's n requests, n <= 2 (statuses[i] for the i-th), advancing the
 * layer's active schedules meanwhile: the blocking calls below, while a schedule is active. An
 * entry completed by block_step is not asked of the library again: a persistent request stays
 * in reqs, inactive, and MPICH 4.0.2 hangs in a wait for an inactive persistent collective
 * (docs/native-libraries.md). */
static int wait_app(int n, MPI_Request reqs[], MPI_Status *statuses[])
{
    int rc = MPI_SUCCESS;
    MPI_Request work[2] = {reqs[0], n > 1 ? reqs[1] : MPI_REQUEST_NULL};
    for (;;) {
        int left = 0;
        for (int i = 0; i < n; i++)
            left += work[i] != MPI_REQUEST_NULL;
        if (!left || !nactive) break;
        MPI_Status st;
        int got = block_step(n, work, &st, &rc);
        if (got >= 0) {
            reqs[got] = work[got];
            work[got] = MPI_REQUEST_NULL;
            if (statuses[got] != MPI_STATUS_IGNORE) *statuses[got] = st;
        }
        if (got < -1) break;
    }
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        if (work[i] != MPI_REQUEST_NULL) {
            rc = PMPI_Wait(&work[i], statuses[i]);
            reqs[i] = work[i];
        }
    return rc;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    if (!nall || !request) return PMPI_Wait(request, status);
    double t0 = ac_now();
    ac_request *r = find(*request);
    if (r) {
        wait_for(r);
        if (r->active) r->waited += ac_now() - t0;
        return complete(r, request, status);
    }
    /* the application's own request, while schedules are active: advance them meanwhile,
     * unless it is complete or inactive already (a wait for it would not wake) */
    int flag = 1;
    if (nactive && PMPI_Request_get_status(*request, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
        !flag)
        return wait_app(1, request, &status);
    return PMPI_Wait(request, status);
}

/* The blocking point-to-point calls: while one of the layer's schedules is active they are
 * made nonblocking and waited for by wait_app, so that the schedules advance while this rank
 * waits for a message that another rank may send only once such a collective has completed
 * (MPI libraries advance their own nonblocking collectives there). MPI_Rsend too, though its
 * receive is posted already (its completion needs only the library's progress at the
 * receiver, which any call gives there): the schedules advance meanwhile. The probes, which no
 * wait can join, poll the library's nonblocking probe and advance the schedules between polls.
 * Otherwise the library's call, after one load. Not covered: MPI_Bsend (local), RMA and I/O
 * (docs/nonblocking.md). */
typedef int isend_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

/* A send started by `isend` (PMPI_Isend, PMPI_Issend, PMPI_Irsend) and waited for by wait_app. */
static int send_waited(isend_fn *isend, const void *buf, int count, MPI_Datatype type, int dest,
                       int tag, MPI_Comm comm)
{
    MPI_Request r;
    MPI_Status *st = MPI_STATUS_IGNORE;
    int rc = isend(buf, count, type, dest, tag, comm, &r);
    return rc != MPI_SUCCESS ? rc : wait_app(1, &r, &st);
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    if (!nactive) return PMPI_Send(buf, count, type, dest, tag, comm);
    return send_waited(PMPI_Isend, buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    if (!nactive) return PMPI_Ssend(buf, count, type, dest, tag, comm);
    return send_waited(PMPI_Issend, buf, count, type, dest, tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    if (!nactive) return PMPI_Rsend(buf, count, type, dest, tag, comm);
    return send_waited(PMPI_Irsend, buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    if (!nactive) return PMPI_Recv(buf, count, type, source, tag, comm, status);
    MPI_Request r;
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, &r);
    return rc != MPI_SUCCESS ? rc : wait_app(1, &r, &status);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                 int recvtag, MPI_Comm comm, MPI_Status *status)
{
    if (!nactive)
        return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status *st[2] = {status, MPI_STATUS_IGNORE};
    int rc = PMPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, &r[0]);
    if (rc == MPI_SUCCESS) rc = PMPI_Isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, &r[1]);
    if (rc != MPI_SUCCESS) {
        if (r[0] != MPI_REQUEST_NULL) { /* the receive posted: cancelled */
            PMPI_Cancel(&r[0]);
            PMPI_Wait(&r[0], MPI_STATUS_IGNORE);
        }
        return rc;
    }
    return wait_app(2, r, st);
}

/* The receive lands in a temporary, then replaces buf: MPI_Sendrecv_replace sends buf and
 * receives into it, so the two buffers of a nonblocking pair must differ. */
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    if (!nactive)
        return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm,
                                     status);
    ac_tmp in = {0};
    MPI_Status got;
    MPI_Status *st[2] = {&got, MPI_STATUS_IGNORE};
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int rc = ac_tmp_alloc(&in, count, type), n;
    if (rc == MPI_SUCCESS) rc = PMPI_Irecv(in.buf, count, type, source, recvtag, comm, &r[0]);
    if (rc == MPI_SUCCESS) rc = PMPI_Isend(buf, count, type, dest, sendtag, comm, &r[1]);
    if (rc != MPI_SUCCESS) {
        if (r[0] != MPI_REQUEST_NULL) { /* the receive posted: cancelled */
            PMPI_Cancel(&r[0]);
            PMPI_Wait(&r[0], MPI_STATUS_IGNORE);
        }
        ac_tmp_free(&in);
        return rc;
    }
    rc = wait_app(2, r, st);
    /* as many whole elements as arrived (a shorter message replaces the front of buf only) */
    if (rc == MPI_SUCCESS) rc = PMPI_Get_count(&got, type, &n);
    if (rc == MPI_SUCCESS && n != MPI_UNDEFINED && n > 0)
        rc = ac_copy(in.buf, n, type, buf, n, type);
    if (status != MPI_STATUS_IGNORE) *status = got;
    ac_tmp_free(&in);
    return rc;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int flag = 0, rc = MPI_SUCCESS;
    while (nactive && rc == MPI_SUCCESS && !flag) {
        rc = PMPI_Iprobe(source, tag, comm, &flag, status);
        if (rc == MPI_SUCCESS && !flag) ac_requests_progress_all();
    }
    return rc != MPI_SUCCESS || flag ? rc : PMPI_Probe(source, tag, comm, status);
}

#if !AUTOCOLL_SIMULATED /* SMPI 3.32 has no matched probe */
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    int flag = 0, rc = MPI_SUCCESS;
    while (nactive && rc == MPI_SUCCESS && !flag) {
        rc = PMPI_Improbe(source, tag, comm, &flag, message, status);
        if (rc == MPI_SUCCESS && !flag) ac_requests_progress_all();
    }
    return rc != MPI_SUCCESS || flag ? rc : PMPI_Mprobe(source, tag, comm, message, status);
}
#endif

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (!nall || !request || !flag) return PMPI_Test(request, flag, status);
    double t0 = ac_now();
    ac_requests_progress_all();
    ac_request *r = find(*request);
    if (!r) return PMPI_Test(request, flag, status);
    if (r->active) r->waited += ac_now() - t0;
    *flag = complete_now(r);
    return *flag ? complete(r, request, status) : MPI_SUCCESS;
}

int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    if (!nall || !flag) return PMPI_Request_get_status(request, flag, status);
    double t0 = ac_now();
    ac_requests_progress_all();
    ac_request *r = find(request);
    if (!r) return PMPI_Request_get_status(request, flag, status);
    if (r->active) r->waited += ac_now() - t0;
    *flag = complete_now(r);
    if (*flag) {
        empty_status(status);
        if (status != MPI_STATUS_IGNORE && r->active) status->MPI_ERROR = r->rc;
    }
    return MPI_SUCCESS;
}

/* The statuses of the layer's entries that are complete, and their completion; MPI_SUCCESS or
 * the first schedule's error (then *any_error). */
static int complete_layer(int n, MPI_Request reqs[], view *v, MPI_Status statuses[],
                          int *any_error)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n; i++)
        if (v->which[i] && complete_now(v->which[i])) {
            int e = complete_entry(v, i, reqs, status_at(statuses, i));
            if (e != MPI_SUCCESS && rc == MPI_SUCCESS) rc = e, *any_error = 1;
        }
    return rc;
}

/* MPI_Waitall of the application's requests (the copy); while schedules are active, they
 * advance meanwhile: block_step completes the application's requests one at a time. The
 * library is asked about the entries still pending only (`work`): one completed by block_step
 * leaves it, and a persistent one stays in the copy, inactive (MPICH 4.0.2 hangs in a wait for
 * an inactive persistent collective, as wait_app says). No MPI_Testall: MPICH 4.0.2's returns
 * MPI_ERR_IN_STATUS, with MPI_SUCCESS in every status, when it completes a persistent
 * collective (docs/native-libraries.md). */
static int wait_library(int count, MPI_Request copy[], MPI_Status statuses[])
{
    if (!nactive) return PMPI_Waitall(count, copy, statuses);
    MPI_Status *saved = malloc(sizeof *saved * (size_t)count);
    int *have = calloc((size_t)count, sizeof *have), rc = MPI_SUCCESS;
    MPI_Request *work = malloc(sizeof *work * (size_t)count);
    if (!saved || !have || !work) { /* the library's wait alone, as without a schedule */
        free(saved);
        free(have);
        free(work);
        return PMPI_Waitall(count, copy, statuses);
    }
    memcpy(work, copy, sizeof *work * (size_t)count);
    for (;;) {
        /* the entries not yet complete (an inactive persistent request is) */
        int pending = 0, flag;
        for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
            if (work[i] != MPI_REQUEST_NULL) {
                rc = PMPI_Request_get_status(work[i], &flag, MPI_STATUS_IGNORE);
                pending += !flag;
            }
        if (!pending || !nactive || rc != MPI_SUCCESS) break;
        MPI_Status st;
        int got = block_step(count, work, &st, &rc);
        if (got >= 0) {
            saved[got] = st, have[got] = 1;
            copy[got] = work[got];
            work[got] = MPI_REQUEST_NULL;
        }
        if (got < -1) break;
    }
    /* what is left, and the empty statuses of the null entries */
    if (rc == MPI_SUCCESS) rc = PMPI_Waitall(count, work, statuses);
    for (int i = 0; i < count; i++)
        if (!have[i])
            copy[i] = work[i];
        else if (statuses != MPI_STATUSES_IGNORE)
            statuses[i] = saved[i];
    free(saved);
    free(have);
    free(work);
    return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    view v;
    if (!nall || count <= 0 || !requests) return PMPI_Waitall(count, requests, statuses);
    if (!view_make(count, requests, &v, ac_now())) return MPI_ERR_NO_MEM;
    for (int i = 0; i < count; i++)
        if (v.which[i]) wait_for(v.which[i]);
    int rc = wait_library(count, v.copy, statuses), layer_error = 0;
    int lrc = complete_layer(count, requests, &v, statuses, &layer_error);
    view_done(count, requests, &v);
    if (rc == MPI_SUCCESS && layer_error)
        rc = statuses != MPI_STATUSES_IGNORE ? MPI_ERR_IN_STATUS : lrc;
    return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    view v;
    if (!nall || count <= 0 || !requests || !flag)
        return PMPI_Testall(count, requests, flag, statuses);
    if (!view_make(count, requests, &v, ac_now())) return MPI_ERR_NO_MEM;
    ac_requests_progress_all();
    int ready = 1, rc = MPI_SUCCESS;
    for (int i = 0; i < count; i++)
        if (v.which[i] && !complete_now(v.which[i])) ready = 0;
    *flag = 0;
    /* MPI: with flag false no request is modified; the library is asked only when the layer's
     * entries are all complete */
    if (ready) rc = PMPI_Testall(count, v.copy, flag, statuses);
    int layer_error = 0;
    if (rc == MPI_SUCCESS && *flag) rc = complete_layer(count, requests, &v, statuses, &layer_error);
    view_done(count, requests, &v);
    return layer_error && statuses != MPI_STATUSES_IGNORE ? MPI_ERR_IN_STATUS : rc;
}

/* The first complete layer entry of the array (complete_now), or -1. */
static int first_complete(int n, const view *v)
{
    for (int i = 0; i < n; i++)
        if (v->which[i] && complete_now(v->which[i]) && v->which[i]->active) return i;
    return -1;
}

/* Whether the array holds an active layer entry still running. */
static int layer_running(int n, const view *v)
{
    for (int i = 0; i < n; i++)
        if (v->which[i] && v->which[i]->active && !v->which[i]->done) return 1;
    return 0;
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    view v;
    if (!nall || count <= 0 || !requests || !index || !flag)
        return PMPI_Testany(count, requests, index, flag, status);
    if (!view_make(count, requests, &v, ac_now())) return MPI_ERR_NO_MEM;
    ac_requests_progress_all();
    int rc = MPI_SUCCESS, i = first_complete(count, &v);
    if (i >= 0) {
        *index = i;
        *flag = 1;
        rc = complete_entry(&v, i, requests, status);
    } else {
        rc = PMPI_Testany(count, v.copy, index, flag, status);
        /* none active for the library, but a layer entry still runs: not complete */
        if (rc == MPI_SUCCESS && *flag && *index == MPI_UNDEFINED && layer_running(count, &v))
            *flag = 0;
    }
    view_done(count, requests, &v);
    return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    view v;
    if (!nall || count <= 0 || !requests || !index)
        return PMPI_Waitany(count, requests, index, status);
    if (!view_make(count, requests, &v, ac_now())) return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (;;) {
        ac_requests_progress_all();
        int i = first_complete(count, &v), flag = 0;
        if (i >= 0) {
            *index = i;
            rc = complete_entry(&v, i, requests, status);
            break;
        }
        rc = PMPI_Testany(count, v.copy, index, &flag, status);
        if (rc != MPI_SUCCESS || (flag && *index != MPI_UNDEFINED)) break;
        if (!layer_running(count, &v) && !nactive) {
            rc = PMPI_Waitany(count, v.copy, index, status);
            break;
        }
        int got = block_step(count, v.copy, status, &rc);
        if (got >= 0) {
            *index = got;
            break;
        }
        if (got == -3) break;
        if (got == -2) { /* nothing left anywhere */
            *index = MPI_UNDEFINED;
            empty_status(status);
            break;
        }
    }
    view_done(count, requests, &v);
    return rc;
}

/* Testsome and Waitsome: the complete layer entries, then the library's; *outcount
 * MPI_UNDEFINED only when nothing in the array is active. */
static int some(int count, MPI_Request requests[], int *outcount, int indices[],
                MPI_Status statuses[], int block)
{
    view v;
    if (!view_make(count, requests, &v, ac_now())) return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (;;) {
        ac_requests_progress_all();
        int n = 0, lib = 0, running = layer_running(count, &v);
        for (int i = 0; i < count; i++)
            if (v.which[i] && v.which[i]->active && v.which[i]->done) {
                indices[n] = i;
                int e = complete_entry(&v, i, requests, status_at(statuses, n));
                if (e != MPI_SUCCESS && rc == MPI_SUCCESS) rc = e;
                n++;
            }
        /* the library's part, after the layer's entries (its statuses after theirs) */
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : statuses + n;
        int lrc = PMPI_Testsome(count, v.copy, &lib, indices + n, st);
        if (rc == MPI_SUCCESS) rc = lrc;
        int lib_none = lib == MPI_UNDEFINED; /* nothing active for the library */
        if (lib_none) lib = 0;
        if (n + lib > 0 || rc != MPI_SUCCESS) {
            *outcount = n + lib;
            break;
        }
        int nothing_active = lrc == MPI_SUCCESS && !running;
        if (!block || (nothing_active && !nactive)) {
            if (block && nothing_active) {
                rc = PMPI_Waitsome(count, v.copy, outcount, indices, statuses);
            } else {
                /* Testsome: nothing yet, or nothing active at all (MPI_UNDEFINED), as the
                 * library answered above (asked again, it could complete a request that
                 * arrived meanwhile and that no index would report) */
                *outcount = lib_none && !running ? MPI_UNDEFINED : 0;
            }
            break;
        }
        MPI_Status one;
        int got = block_step(count, v.copy, &one, &rc);
        if (got >= 0) {
            indices[0] = got;
            if (statuses != MPI_STATUSES_IGNORE) statuses[0] = one;
            *outcount = 1;
            break;
        }
        if (got < -1) {
            *outcount = got == -2 ? MPI_UNDEFINED : 0;
            break;
        }
    }
    view_done(count, requests, &v);
    return rc;
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    if (!nall || incount <= 0 || !requests || !outcount || !indices)
        return PMPI_Testsome(incount, requests, outcount, indices, statuses);
    return some(incount, requests, outcount, indices, statuses, 0);
}

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    if (!nall || incount <= 0 || !requests || !outcount || !indices)
        return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
    return some(incount, requests, outcount, indices, statuses, 1);
}

int MPI_Start(MPI_Request *request)
{
    ac_request *r = nall && request ? find(*request) : NULL;
    if (!r) return PMPI_Start(request);
    if (r->active) return MPI_ERR_REQUEST; /* started twice: erroneous */
    return start(r);
}

int MPI_Startall(int count, MPI_Request requests[])
{
    if (!nall || count <= 0 || !requests) return PMPI_Startall(count, requests);
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = MPI_Start(&requests[i]);
    return rc;
}

int MPI_Request_free(MPI_Request *request)
{
    ac_request *r = nall && request ? find(*request) : NULL;
    if (!r) return PMPI_Request_free(request);
    *request = MPI_REQUEST_NULL;
    if (r->active && !r->done) {
        r->freed = 1; /* released when its schedule ends (MPI: freed once complete) */
        return MPI_SUCCESS;
    }
    if (r->active) ac_seen_run(r->kind, r->algorithm, r->bytes, ac_now() - r->start, r->waited);
    release(r);
    return MPI_SUCCESS;
}

/* The race of the nonblocking calls of c like `call` among `candidates`: found, or new; NULL
 * with *full set where c has AUTOCOLL_MAX_SIZES contexts of the collective already (as a call
 * site's blocking contexts are bounded: the call passes through), or without memory. Every
 * rank makes the same calls on c in one order with agreed keys, so every rank finds the same
 * contexts and the same bound. */
static race *context(ac_comm *c, const ac_call *call, const ac_algorithm *const *candidates,
                     int n, int *full)
{
    size_t bytes = ac_select_key_bytes(call); /* agreed: alltoallv's differ between ranks */
    long long same_collective = 0;
    const ac_algorithm *first[RACE_MAX];
    int nfirst = first_stage(candidates, n, first);
    *full = 0;
    for (race *x = contexts; x; x = x->next) {
        if (x->pcomm != c->pcomm || x->collective != call->collective) continue;
        if (x->bytes == bytes && x->count == call->count && x->op_builtin == call->op_builtin &&
            x->op_commutative == call->op_commutative && x->nfirst == nfirst &&
            !memcmp(x->first, first, sizeof *first * (size_t)nfirst))
            return x;
        same_collective++;
    }
    if (same_collective >= ac_config_int("AUTOCOLL_MAX_SIZES")) {
        *full = 1;
        return NULL;
    }
    race *x = race_new(candidates, n);
    if (!x) return NULL;
    x->pcomm = c->pcomm;
    x->collective = call->collective;
    x->bytes = bytes;
    x->count = call->count;
    x->op_builtin = call->op_builtin;
    x->op_commutative = call->op_commutative;
    memcpy(x->name, c->name, sizeof x->name);
    x->next = contexts;
    contexts = x;
    return x;
}

/* candidates[0 .. n-1] without alg, in order; how many are left. */
static int without(const ac_algorithm **candidates, int n, const ac_algorithm *alg)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (candidates[i] != alg) candidates[k++] = candidates[i];
    return k;
}

static int same_shape(const ac_node_shape *a, const ac_node_shape *b)
{
    return a->nodes == b->nodes && a->ppn_min == b->ppn_min && a->ppn_max == b->ppn_max &&
           a->blocks == b->blocks;
}

/* Every field of the call that ac_select_learning_candidates reads. */
static int same_call(const ac_call *a, const ac_call *b)
{
    return a->collective == b->collective && a->size == b->size && a->count == b->count &&
           a->op == b->op && a->op_builtin == b->op_builtin &&
           a->op_commutative == b->op_commutative && a->bytes == b->bytes &&
           a->topology == b->topology && a->window == b->window &&
           same_shape(&a->nodes, &b->nodes);
}

/* The nonblocking context a call on c finds without making its candidate list: the one the
 * last call with the same inputs of ac_select_learning_candidates found (the call, c's node
 * layout, and c's meshes, unchanged while no mesh was made: ac_mesh_made). Those inputs make
 * the same list, so context() would find the same race; NULL: make the list (context()). Local:
 * it changes no decision, only what it costs (every rank would find the same either way). */
static race *context_again(const ac_comm *c, const ac_call *call)
{
    unsigned long meshes = ac_mesh_made();
    for (race *x = contexts; x; x = x->next)
        if (x->pcomm == c->pcomm && x->seen_meshes == meshes && same_call(&x->seen_call, call) &&
            same_shape(&x->seen_layout, &c->layout))
            return x;
    return NULL;
}

/* x found for `call` on c by context(): what context_again compares. */
static void context_seen(race *x, const ac_comm *c, const ac_call *call)
{
    x->seen_call = *call;
    x->seen_layout = c->layout;
    x->seen_meshes = ac_mesh_made();
}

int ac_request_make(ac_comm *c, const ac_call *call, ac_seen_kind kind, int persistent,
                    ac_request_build_fn *build, ac_request_library_fn *library, const void *args,
                    size_t argsize, const MPI_Datatype *types, int ntypes, MPI_Request *handle,
                    int *rc)
{
    const ac_algorithm *alg = ac_select_nonblocking(c, call);
    race *x = NULL;
    if (!alg && !persistent && (x = context_again(c, call)) != NULL) {
        alg = x->candidates[0];
    } else if (!alg) { /* under a learning strategy: a race, the request's own or its context's */
        const ac_algorithm *candidates[CANDIDATES_MAX];
        int n = ac_select_learning_candidates(c, call, candidates, CANDIDATES_MAX), full = 0;
        if (persistent && !library) /* the library's own persistent collective not usable */
            n = without(candidates, n, ac_registry_native(call->collective));
        if (n == 1 && candidates[0] != ac_registry_native(call->collective)) {
            alg = candidates[0]; /* one of the layer's alone (the library has not the
                                  * collective: SMPI's neighbourhood ones): nothing to race */
        } else {
            if (n < 2) return 0;
            x = persistent ? race_new(candidates, n) : context(c, call, candidates, n, &full);
            if (full) return 0; /* beyond the bound: the library's */
            if (!x) {
                *rc = MPI_ERR_NO_MEM; /* loud: passing it on alone would leave the others
                                       * waiting */
                return 1;
            }
            if (!persistent) context_seen(x, c, call);
            alg = x->candidates[0];
        }
    }
    ac_sched *s;
    ac_request *r = ac_request_new(c, persistent, kind, alg, (double)call->bytes, &s);
    void *a = r && x ? malloc(argsize ? argsize : 1) : NULL;
    if (!r || (x && !a) || !hold_handles(r, call, types, ntypes)) {
        if (r) {
            ac_sched_free(&r->sched);
            release_handles(r);
        }
        if (persistent) free(x);
        free(a);
        free(r);
        *rc = MPI_ERR_NO_MEM;
        return 1;
    }
    if (x) { /* built at each start (race_build) */
        if (argsize) memcpy(a, args, argsize);
        r->race = x;
        r->build = build;
        r->args = a;
    }
    int made = MPI_SUCCESS; /* a persistent race's library request, where native races */
    const ac_algorithm *native = ac_registry_native(call->collective);
    for (int i = 0; persistent && x && i < x->n; i++)
        if (x->candidates[i] == native)
            made = library(native, args, c->pcomm, &r->library);
    int built = x ? made : build(s, alg, args);
    if (!x) ac_select_check_memory(c, call, alg, built); /* as a blocking call's: ac_observe */
    *rc = ac_request_begin(r, built, handle);
    return 1;
}

/* MPI_Comm_idup (ac_request_idup): the library's duplicate of the application's communicator,
 * started by the call, and the private duplicate of the new one, a duplicate of the parent's
 * private communicator (congruent with the new communicator), started by the request's schedule
 * in the order of the requests on that private communicator. */
typedef struct idup_args {
    MPI_Request user; /* the application's MPI_Comm_idup, until the schedule holds it */
    MPI_Comm newcomm; /* the new communicator (its handle, given at the call) */
    MPI_Comm pcomm;   /* the private duplicate, once its MPI_Comm_idup has started */
} idup_args;

static int idup_user(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    idup_args *a = (idup_args *)arg; /* the request's own copy (r->args) */
    (void)comm;
    *req = a->user;
    a->user = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

static int idup_private(const void *arg, MPI_Comm comm, MPI_Request *req)
{
    idup_args *a = (idup_args *)arg;
    return PMPI_Comm_idup(comm, &a->pcomm, req);
}

/* Both duplicates made: the new communicator's state, its private communicator the second.
 * Every rank gets here with the same outcomes (the duplicates are collective) but for a lack of
 * memory or an error on one rank alone, after which the ranks would run different algorithms on
 * the new communicator: the run ends there, loudly (as core/state.c's agreement does). */
static int idup_ended(ac_request *r, int rc)
{
    idup_args *a = r->args;
    if (rc != MPI_SUCCESS) { /* the application's duplicate failed: its error */
        if (a->pcomm != MPI_COMM_NULL) PMPI_Comm_free(&a->pcomm);
        return rc;
    }
    int made = ac_comm_adopt(a->newcomm, a->pcomm);
    a->pcomm = MPI_COMM_NULL;
    if (made != MPI_SUCCESS) {
        ac_log_error("cannot make the private state of a communicator made by MPI_Comm_idup "
                     "(MPI error %d); ending the run rather than letting the ranks diverge",
                     made);
        ac_log_abort(made);
    }
    return MPI_SUCCESS;
}

int ac_request_idup(MPI_Comm comm, MPI_Comm newcomm, MPI_Request user, MPI_Request *request)
{
    static const ac_algorithm idup = {.name = "comm_idup"};
    ac_comm *c = ac_g.initialized && ac_g.enabled && newcomm != MPI_COMM_NULL &&
                         ac_select_may_run_nonblocking()
                     ? ac_request_comm(comm, request)
                     : NULL;
    ac_sched *s;
    /* kind AC_SEEN_KINDS: no collective's, not counted in the report */
    ac_request *r = c ? ac_request_new(c, 0, AC_SEEN_KINDS, &idup, 0.0, &s) : NULL;
    idup_args *a = r ? malloc(sizeof *a) : NULL;
    if (c && !a) {
        ac_log_error("no memory for the state of a communicator made by MPI_Comm_idup; ending "
                     "the run rather than letting the ranks diverge");
        ac_log_abort(MPI_ERR_NO_MEM);
    }
    if (!a) { /* the layer keeps no state for comm's duplicates now: the library's request */
        *request = user;
        return MPI_SUCCESS;
    }
    *a = (idup_args){.user = user, .newcomm = newcomm, .pcomm = MPI_COMM_NULL};
    r->args = a;
    r->on_end = idup_ended;
    ac_sched_library(s, idup_user, a);
    ac_sched_library(s, idup_private, a);
    int rc = ac_request_begin(r, ac_sched_error(s), request);
    if (rc != MPI_SUCCESS) { /* no handle: the application's duplicate goes on alone */
        *request = user;
        ac_log_error("cannot make the private state of a communicator made by MPI_Comm_idup "
                     "(MPI error %d); ending the run rather than letting the ranks diverge",
                     rc);
        ac_log_abort(rc);
    }
    return MPI_SUCCESS;
}

void ac_requests_finalize(void)
{
    while (all) {
        ac_request *r = all;
        if (r->active && !r->done) {
            int freed = r->freed; /* then released when its schedule ends */
            wait_for(r);
            if (freed) continue;
        }
        if (r->active) ac_seen_run(r->kind, r->algorithm, r->bytes, ac_now() - r->start, r->waited);
        release(r);
    }
    free(orphans);
    orphans = NULL;
    norphans = 0;
    while (contexts) {
        race *x = contexts;
        contexts = x->next;
        free(x);
    }
}
