/*
 * select.h - which algorithm runs a call. Precedence (DESIGN.md): an algorithm forced by
 * AUTOCOLL_<COLL> (when applicable) > in table mode (AUTOCOLL_STRATEGY=table) the table's rule >
 * the strategy of the call's tuning context (AUTOCOLL_STRATEGY) > native. Every input to the
 * choice is equal on all ranks (invariant 1).
 *
 * The life of a run: ac_select_init() reads the settings, ac_select_load() (collective) reads
 * history and the table, ac_select() and ac_observe() around every call, the report reads the
 * contexts through the views below, ac_select_finalize() (collective) stores history.
 */
#ifndef AUTOCOLL_SELECT_H
#define AUTOCOLL_SELECT_H

#include "coll/coll.h"
#include "core/json_writer.h"
#include "core/state.h"
#include "select/strategy.h"

#include <stdint.h>
#include <stdio.h>

/* Read the forced algorithms, AUTOCOLL_STRATEGY and the strategies' settings (local). */
void ac_select_init(void);

/* Collective over MPI_COMM_WORLD, after ac_select_init: history and the configuration table. */
void ac_select_load(void);

/* Collective over MPI_COMM_WORLD, at the end of the run (after the report): store what was
 * learned in history, release the table and every tuning context. */
void ac_select_finalize(void);

/* Make strategy `name` the one new tuning contexts get (contexts keep theirs); 0 if there is
 * no such strategy. The benchmark driver uses it to run several strategies in one process. */
int ac_select_use_strategy(const char *name);

/* The name of the strategy in use ("table" in table mode), and whether it keeps tuning
 * contexts (not native). */
const char *ac_select_strategy_name(void);
int ac_select_uses_contexts(void);

/* Facts of a call: op properties and message size from the type signature. */
void ac_call_set_op(ac_call *call, MPI_Op op);
size_t ac_signature_bytes(MPI_Aint count, MPI_Datatype dtype);

/* The message size that keys a call's tuning context, the same on every rank: the call's bytes,
 * but 0 for alltoallv and the neighbourhood collectives, whose volumes differ between ranks
 * (one context per communicator for them). */
size_t ac_select_key_bytes(const ac_call *call);

/* The algorithm a nonblocking or persistent call runs where the layer runs one: written as a
 * schedule and applicable, the one AUTOCOLL_<COLL> forces, or in table mode the table's rule
 * (where its lookup needs no node layout that is not known yet: learning it is collective, and a
 * start must not block). NULL: the library's own, or a learning strategy's race
 * (ac_select_learning_candidates). Every input is agreed, so every rank gets the same answer. */
const ac_algorithm *ac_select_nonblocking(ac_comm *c, const ac_call *call);
/* The candidates a nonblocking or persistent call races where no forced algorithm or table rule
 * decides it (intercept/requests.c: a persistent request over its first starts, nonblocking calls
 * over their context's first calls): under a learning strategy, the
 * applicable algorithms written as schedules, in the registry's order, less the later of twins
 * that send the same messages for this call (ac_same_messages: a segmented tree whose segment
 * holds the whole message), less those that need a node layout not known yet or a mesh not
 * made yet (learning them is collective), and less the composed ones (ac_is_composed) where
 * AUTOCOLL_RACE_COMPOSED is off; where it is on, the race takes one instance of each composed
 * family first and the winning family's next (intercept/requests.c). At most max, into out; 0
 * otherwise. The same list on every rank. */
int ac_select_learning_candidates(ac_comm *c, const ac_call *call, const ac_algorithm **out,
                                  int max);
/* Whether the configuration could have the layer run a nonblocking or persistent collective: a
 * learning strategy (its races), table mode (its rules) or a forced algorithm written as a
 * schedule. The same on every rank (the settings are checked equal at MPI_Init). */
int ac_select_may_run_nonblocking(void);
/* Where communicator c is made (collective over its ranks: MPI_Init, a constructor): its node
 * layout learned (c->layout) when a nonblocking call could need it, a forced algorithm written as
 * a schedule that reads it (AC_REQ_NODES, AC_REQ_NODE_LAYOUT) or, in table mode, rules keyed by
 * layout; and a forced orthogonal instance's mesh made (its line communicators) where the size
 * factors. A nonblocking call must not block to make them (ac_select_nonblocking). */
void ac_select_comm_made(ac_comm *c);
/* The algorithm of a call; `caller` is the return address of the MPI routine (the call site). */
const ac_algorithm *ac_select(ac_comm *c, const ac_call *call, const void *caller);

/* Account for one call run by `alg`, which started at `start` (ac_now()) and has just ended
 * with `rc` (ac_select_check_memory first). */
void ac_observe(ac_comm *c, const ac_call *call, const ac_algorithm *alg, double start, int rc);

/* A repository algorithm that ran out of memory on this rank (rc MPI_ERR_NO_MEM: its scratch
 * buffers are local, the other ranks went on with it and would wait for this one for ever)
 * ends the run loudly; any other rc, and the library's own collective's errors, return. A
 * blocking call's run (ac_observe) and a nonblocking call's schedule build check it. */
void ac_select_check_memory(const ac_comm *c, const ac_call *call, const ac_algorithm *alg,
                            int rc);

/* The algorithm of the last call the layer ran in the calling thread (NULL: none since the
 * last clear); the benchmark driver reads what a layer chose. Clear before the calls: nothing is
 * kept until a first clear. */
const ac_algorithm *ac_select_last_algorithm(void);
void ac_select_clear_last_algorithm(void);

/* ---- views for the report ---------------------------------------------------------------- */

struct ac_context;
struct ac_bucket;

/* One tuning context. */
typedef struct ac_context_view {
    size_t bytes;
    int count;
    char site[128]; /* the call site, "module+0xoffset" ("*": site-less) */
    uint64_t site_key; /* 0: site-less (select/site.h: ac_site_origin_of) */
    long calls;
    int ncandidates;
    const ac_algorithm *const *candidates; /* native first */
    const long *candidate_calls;           /* [ncandidates] calls run by each */
    double seconds;                        /* local time inside the algorithms */
    double overhead[2];     /* local bookkeeping: [1] while deciding (O_MS^a), [0] after (O_MA) */
    long overhead_calls[2];
    const char *strategy;   /* "table" for a context ruled by the table */
    const char *warm_from;  /* "history" or "table"; NULL: cold */
    ac_strategy_summary summary;
} ac_context_view;

/* The calls of one collective and message size, whatever their call site (site tracking). */
typedef struct ac_bucket_view {
    size_t bytes;
    int count;
    long calls;
    const char *site_mode;
    long site_agreements;
    int site_period; /* 0 unless predicting */
    int site_relearns;
    long site_changed_at;
    const char *siteless_reason;
} ac_bucket_view;

/* The contexts and buckets of `c` for `coll`, newest first: the next after `prev` (NULL: the
 * first), NULL after the last. */
const struct ac_context *ac_select_next_context(const ac_comm *c, ac_collective coll,
                                                const struct ac_context *prev);
const struct ac_bucket *ac_select_next_bucket(const ac_comm *c, ac_collective coll,
                                              const struct ac_bucket *prev);
void ac_select_view_context(const struct ac_context *x, ac_context_view *out);
void ac_select_view_bucket(const struct ac_bucket *b, ac_bucket_view *out);

/* The strategy's own members of a context's report object. */
void ac_select_describe_strategy(const struct ac_context *x, ac_json_writer *w);

#endif
