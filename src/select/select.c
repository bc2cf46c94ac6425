/*
 * select.c - precedence of choices, tuning contexts, agreement, and accounting of every call.
 *
 * Precedence (select.h): forced > in table mode the table's rule > the strategy of the call's
 * tuning context > native. A bucket is (communicator, collective, message size, count, op
 * properties): every part is equal on every rank. Its site tracker (site.h) gives each call a
 * call site agreed by all ranks, or 0 (site-less); a context is (bucket, site), so every rank
 * finds the same context and asks its strategy at the same calls (invariant 1). Its candidates
 * are the algorithms applicable to it, native first, so a strategy never runs an inapplicable
 * one (invariant 4), less the later of twins that send the same messages for this call
 * (ac_same_messages: a pipeline segment that holds the whole message). Limits:
 * AUTOCOLL_MAX_SITES sites per communicator, AUTOCOLL_MAX_SIZES contexts per site and
 * collective; calls beyond them run native and are counted (untuned), except in table mode,
 * which has no sites and looks such calls up in the table.
 *
 * In table mode a context runs the candidate of the table's rule covering it (chosen when the
 * context is made), or, where no rule does, its strategy: native. With AUTOCOLL_TABLE_TRY = k
 * > 1 the rule's first k candidates and native become the context's candidates and the table
 * strategy's `trial` strategy (race) chooses among them: a trial.
 *
 * Strategies are the list of strategies.c, by their ops (strategy.h): this file names none.
 *
 * Accounting per context (the report): calls, runs per candidate, time inside the algorithms,
 * and the layer's own time around them (choosing, site agreements, observing, the strategy's
 * agreements) split by whether the strategy was still deciding: STAR-MPI's O_MS^a and O_MA.
 * Agreements are timed whenever they happen; the rest of the bookkeeping on every call while a
 * context of the communicator is deciding, and once all have settled on one call in
 * OVERHEAD_SAMPLE, weighted (the clock reads would otherwise be most of the settled cost).
 */
#include "select/select.h"
#include "coll/common/common.h"
#include "coll/common/mesh.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "core/spelling.h"
#include "core/tls.h"
#include "select/history.h"
#include "select/site.h"
#include "select/table.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* A bucket: the calls of one (communicator, collective, message size, count, op properties),
 * whatever their site. Its site tracker gives every call an agreed site (site.h); a context is
 * (bucket, site). */
typedef struct ac_bucket {
    size_t bytes;
    int count, op_builtin, op_commutative; /* the rest of the key */
    ac_site_tracker sites;
    struct ac_context *contexts; /* newest first */
    struct ac_bucket *next;
} ac_bucket;

typedef struct ac_context {
    ac_bucket *bucket;
    ac_comm *comm;
    uint64_t site;                   /* 0: site-less */
    const ac_strategy *strategy;     /* the strategy that owns `state` */
    int table_mode;                  /* made in table mode: `rule` decides */
    int rule;                        /* table mode: candidate of the table's rule, -1: none */
    int trial;                       /* table mode: the rule's first candidates race */
    int suggested; /* a learning strategy measured this many of a table's rule first */
    const ac_algorithm **candidates; /* native first */
    int ncandidates;
    void *state;  /* the strategy's */
    int last;     /* candidate of the call in flight */
    int deciding; /* the strategy was deciding when the call in flight was chosen */
    int counted;  /* counted in the communicator's `deciding`: the strategy is deciding */
    int said;     /* the choice AUTOCOLL_VERBOSE=2 last announced (log_decision); -1: none */
    const char *warm_from; /* the strategy started from "history" or "table"; NULL: cold */
    double agree_seconds; /* time in agreements during the call in flight */
    long calls;
    long *candidate_calls; /* [ncandidates] */
    double seconds;        /* local time inside the algorithms */
    double overhead[2];    /* local bookkeeping: [1] while deciding (O_MS^a), [0] after (O_MA) */
    long overhead_calls[2];
    struct ac_context *next; /* in the bucket */
} ac_context;

/* Selection's state of one communicator (ac_comm.select), made at its first call that needs
 * it. */
typedef struct comm_select {
    ac_bucket *buckets[AC_NUM_COLLECTIVES]; /* newest first */
    int nbuckets[AC_NUM_COLLECTIVES];
    uint64_t *sites; /* call sites with a context here (AUTOCOLL_MAX_SITES) */
    int nsites;
    ac_context *pending[AC_NUM_COLLECTIVES];      /* context of the call in flight */
    unsigned char warned[AC_NUM_COLLECTIVES];     /* a forced algorithm was inapplicable here */
    double select_start; /* when the call in flight began choosing */
    int select_weight;   /* calls its bookkeeping time stands for (0: not timed) */
    int deciding;        /* tuning contexts here whose strategy is deciding */
    unsigned long ticks; /* tuned calls, for sampling the bookkeeping time once settled */
} comm_select;

/* The settings of selection (ac_select_init; the strategy also ac_select_use_strategy). */
static struct {
    const ac_algorithm *forced[AC_NUM_COLLECTIVES]; /* AUTOCOLL_<COLL>, NULL = auto */
    const ac_strategy *strategy;                    /* AUTOCOLL_STRATEGY */
    int max_sizes;                                  /* AUTOCOLL_MAX_SIZES */
    int max_sites;                                  /* AUTOCOLL_MAX_SITES */
    int tune_one_rank;                              /* AUTOCOLL_TUNE_ONE_RANK */
    int race_composed;                              /* AUTOCOLL_RACE_COMPOSED */
    int table_try;                                  /* AUTOCOLL_TABLE_TRY */
} sel = {.strategy = &ac_strategy_native, .max_sizes = 1};

/* The algorithm of the last call the layer ran in this thread, for the project's programs that
 * ask (tests, bench/): per thread, as threads on other communicators run calls meanwhile. Kept
 * only once a program has cleared it (`tracked`, never reset), so that the settled call of any
 * other program pays a load and a branch, not an access to thread-local storage. */
static AC_THREAD_LOCAL const ac_algorithm *last_algorithm;
static atomic_int last_tracked;

enum { OVERHEAD_SAMPLE = 16 }; /* settled calls per timed bookkeeping (ac_select) */

int ac_select_use_strategy(const char *name)
{
    const ac_strategy *s = ac_strategy_find(name);
    if (s) sel.strategy = s;
    return s != NULL;
}

const char *ac_select_strategy_name(void)
{
    return sel.strategy->name;
}

int ac_select_uses_contexts(void)
{
    return sel.strategy->table_mode || sel.strategy->learns;
}

const ac_algorithm *ac_select_last_algorithm(void)
{
    return last_algorithm;
}

void ac_select_clear_last_algorithm(void)
{
    atomic_store_explicit(&last_tracked, 1, memory_order_relaxed);
    last_algorithm = NULL;
}

/* The static entry of c whose name is closest to `name`, when one is close enough to suggest. */
static const char *closest_algorithm(ac_collective c, const char *name)
{
    ac_registry r = ac_registry_of(c);
    const char *best = NULL;
    int best_distance = 0;
    for (int i = 0; i < r.count; i++) {
        int d = ac_spelling_distance(name, r.algorithms[i].name);
        if (ac_spelling_close(name, r.algorithms[i].name) && (!best || d < best_distance))
            best = r.algorithms[i].name, best_distance = d;
    }
    return best;
}

static void read_forced(int rank)
{
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        const char *env = ac_collective_env((ac_collective)c);
        const char *value = ac_config_get(env);
        sel.forced[c] = NULL;
        if (strcmp(value, "auto") == 0) continue;
        sel.forced[c] = ac_registry_find((ac_collective)c, value);
        if (sel.forced[c] || rank != 0) continue;
        const char *closest = closest_algorithm((ac_collective)c, value);
        if (closest)
            ac_log_warn("%s=%s: no such %s algorithm (did you mean %s?); using native", env,
                        value, ac_collective_name((ac_collective)c), closest);
        else
            ac_log_warn("%s=%s: no such %s algorithm (see autocoll-info); using native", env,
                        value, ac_collective_name((ac_collective)c));
    }
}

static void comm_folded(ac_comm *c); /* below, with the history */
static void predefined_sizes_init(void); /* below, with ac_signature_bytes */

void ac_select_init(void)
{
    ac_strategies_declare(); /* AUTOCOLL_STRATEGY's keywords */
    const ac_setting *strategy = ac_setting_find("AUTOCOLL_STRATEGY");
    const char *name = strategy->keywords[ac_config_keyword(strategy->name)];
    int rank = 0, n;
    const ac_strategy *const *all = ac_strategies(&n);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    read_forced(rank);
    predefined_sizes_init();
    sel.strategy = &ac_strategy_native;
    if (!ac_select_use_strategy(name))
        ac_log_error("AUTOCOLL_STRATEGY=%s is declared (core/config.c) but not a strategy here; "
                     "using native",
                     name);
    sel.max_sizes = (int)ac_config_int("AUTOCOLL_MAX_SIZES");
    sel.max_sites = (int)ac_config_int("AUTOCOLL_MAX_SITES");
    sel.tune_one_rank = ac_config_switch("AUTOCOLL_TUNE_ONE_RANK");
    sel.race_composed = ac_config_switch("AUTOCOLL_RACE_COMPOSED");
    sel.table_try = (int)ac_config_int("AUTOCOLL_TABLE_TRY");
    ac_coll_set_test_nodes((int)ac_config_int("AUTOCOLL_TEST_RANKS_PER_NODE"),
                           ac_config_keyword("AUTOCOLL_TEST_PLACEMENT") == 1 /* cyclic */);
    ac_coll_set_test_shm_refuse((int)ac_config_int("AUTOCOLL_TEST_SHM_REFUSE"));
    ac_coll_set_max_scratch((size_t)ac_config_int("AUTOCOLL_MAX_SCRATCH_MIB") << 20);
    for (int i = 0; i < n; i++) /* every one: the benchmark driver switches them */
        if (all[i]->configure) all[i]->configure();
    ac_state_on_fold(comm_folded);
}

void ac_select_load(void)
{
    int rank = 0, n;
    const ac_strategy *const *all = ac_strategies(&n);
    /* The history file: with a strategy that learns (the table's trials learn), or when a path
     * was given (the benchmark driver switches strategies after MPI_Init). */
    if ((sel.strategy->table_mode ? sel.table_try > 1 : sel.strategy->learns) ||
        strcmp(ac_config_get("AUTOCOLL_HISTORY"), "auto") != 0)
        ac_history_load();
    for (int i = 0; i < n; i++) /* what each strategy keeps beyond its contexts */
        if (all[i]->load_history) all[i]->load_history();
    ac_table_load(); /* nothing without AUTOCOLL_TABLE */
    if (sel.strategy->table_mode && !ac_table_loaded()) {
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            ac_log_warn("AUTOCOLL_STRATEGY=table without a usable AUTOCOLL_TABLE: every call "
                        "runs native");
    }
}

/* The message size that keys a bucket: alltoallv's differs between ranks, so it has one bucket
 * per communicator whatever its sizes. So have the neighbourhood collectives: the v and w forms'
 * volumes differ between ranks, and for the regular forms type matching pairs a send with a
 * receive on one edge, so nothing makes a rank without neighbours, or another component of a
 * graph, pass the others' counts; one bucket per communicator keeps every rank in the same
 * context (invariant 1) without an agreement per call. */
size_t ac_select_key_bytes(const ac_call *call)
{
    return call->collective == AC_ALLTOALLV || call->topology != AC_TOPOLOGY_NONE ? 0
                                                                                  : call->bytes;
}

/* Memory is local: a rank that ran out would diverge from the others. Fail loudly. */
static void out_of_memory(const char *what)
{
    ac_log_error("out of memory for %s", what);
    ac_log_abort(MPI_ERR_NO_MEM);
}

/* An agreement that returned an error (the private communicator inherits the user's error
 * handler: with MPI_ERRORS_RETURN an error comes back) leaves this rank without the agreed
 * values the others may have: going on would let the ranks diverge. Fail loudly. */
static void agreement_failed(const char *what, const ac_comm *c, int rc)
{
    ac_log_error("the %s on %s failed (MPI error %d); ending the run rather than letting the "
                 "ranks diverge",
                 what, c->name, rc);
    ac_log_abort(rc);
}

/* Selection's state of c, made at the first need. */
static comm_select *comm_state(ac_comm *c)
{
    if (!c->select && !(c->select = calloc(1, sizeof(comm_select))))
        out_of_memory("the tuning state of a communicator");
    return c->select;
}

/* Call sites per communicator: AUTOCOLL_MAX_SITES, or none in table mode (no site agreements,
 * one context per size). Asked at each use, as the benchmark driver changes the strategy at
 * run time (ac_select_use_strategy); a bucket keeps the site mode it began with. */
static int sites_allowed(void)
{
    return sel.strategy->table_mode ? 0 : sel.max_sites;
}

/* A new bucket for call, unless the limits leave it no context (NULL). */
static __attribute__((noinline)) ac_bucket *bucket_new(comm_select *cs, const ac_call *call)
{
    ac_collective coll = call->collective;
    /* Each site tunes at most max_sizes sizes, so more buckets could never get a context. */
    int sites = sites_allowed();
    if (cs->nbuckets[coll] >= (sites > 0 ? sites : 1) * sel.max_sizes) return NULL;
    ac_bucket *b = calloc(1, sizeof *b);
    if (!b) {
        out_of_memory("a tuning bucket");
        return NULL;
    }
    b->bytes = ac_select_key_bytes(call);
    b->count = call->count;
    b->op_builtin = call->op_builtin;
    b->op_commutative = call->op_commutative;
    ac_site_init(&b->sites, sites > 0);
    b->next = cs->buckets[coll];
    cs->buckets[coll] = b;
    cs->nbuckets[coll]++;
    return b;
}

static ac_bucket *bucket_get(comm_select *cs, const ac_call *call)
{
    size_t bytes = ac_select_key_bytes(call);
    for (ac_bucket *b = cs->buckets[call->collective]; b; b = b->next)
        if (b->bytes == bytes && b->count == call->count &&
            b->op_builtin == call->op_builtin && b->op_commutative == call->op_commutative)
            return b;
    return bucket_new(cs, call);
}

/* The agreed site of this call in bucket b (site.h): collective while the bucket learns. */
static __attribute__((noinline)) uint64_t site_agreed(ac_comm *c, ac_bucket *b, uint64_t local)
{
    double v[AC_SITE_VALUES];
    ac_site_contribution(local, v);
    int rc = PMPI_Allreduce(MPI_IN_PLACE, v, AC_SITE_VALUES, MPI_DOUBLE, MPI_MAX, c->pcomm);
    if (rc != MPI_SUCCESS) agreement_failed("call-site agreement", c, rc);
    return ac_site_learn(&b->sites, v);
}

static uint64_t bucket_site(ac_comm *c, ac_bucket *b, const void *caller)
{
    if (b->sites.mode == AC_SITE_SITELESS) return ac_site_predict(&b->sites, 0);
    uint64_t local = ac_site_key(caller);
    if (b->sites.mode == AC_SITE_PREDICT) return ac_site_predict(&b->sites, local);
    return site_agreed(c, b, local);
}

/* Whether a new context of `site` is admitted: AUTOCOLL_MAX_SIZES contexts per site and
 * collective, AUTOCOLL_MAX_SITES sites per communicator (site-less not counted). Admitting the
 * first context of a site records the site. */
static int context_admit(comm_select *cs, ac_collective coll, uint64_t site)
{
    int sizes = 0;
    for (const ac_bucket *b = cs->buckets[coll]; b; b = b->next)
        for (const ac_context *x = b->contexts; x; x = x->next)
            sizes += x->site == site;
    if (sizes >= sel.max_sizes) return 0;
    if (site == 0) return 1;
    for (int i = 0; i < cs->nsites; i++)
        if (cs->sites[i] == site) return 1;
    if (cs->nsites >= sel.max_sites) return 0;
    if (!cs->sites && !(cs->sites = calloc((size_t)sel.max_sites, sizeof *cs->sites))) {
        out_of_memory("the call sites of a communicator");
        return 0;
    }
    cs->sites[cs->nsites++] = site;
    return 1;
}

static ac_history_key context_key(const ac_comm *c, const ac_bucket *b, ac_collective coll,
                                  uint64_t site)
{
    ac_history_key key = {(int)coll, c->size, (unsigned long long)b->bytes, b->count,
                          b->op_builtin, b->op_commutative, site};
    return key;
}

/* What earlier runs know of a new context's candidates, into know[]: the history file's
 * (history.h), else (not for a table's trial, whose table chose them) the configuration
 * table's measured cell covering it (table.h); for a strategy that takes a rule's suggestions
 * instead (model), only a cell measured at the communicator's size. The key, the file and the
 * table are the same on every rank, so is the outcome. Returns where it comes from, or NULL
 * when nothing is known. */
static const char *context_knowledge(const ac_context *x, ac_collective coll, ac_knowledge *know)
{
    ac_history_key key = context_key(x->comm, x->bucket, coll, x->site);
    if (ac_history_path() && ac_history_lookup(&key, x->candidates, x->ncandidates, know) > 0)
        return "history";
    if (ac_table_loaded() && !x->trial &&
        (!x->strategy->uses_suggestions ||
         ac_table_cell_ranks(ac_table_loaded(), coll, x->comm->size) == x->comm->size) &&
        ac_table_cell_knowledge(ac_table_loaded(), coll, x->comm->size, x->bucket->bytes,
                                x->candidates, x->ncandidates, know) > 0)
        return "table";
    return NULL;
}

/* The candidates that run the covering rule's algorithms, in the rule's order and at most
 * `max` of them, into pick[] (each the algorithm itself, or the twin kept in its place; the
 * candidates are the algorithms applicable to the call); returns how many, 0 when no rule
 * covers the context. A rule none of whose algorithms is applicable to the call is reported,
 * with what happens `instead`. */
static int rule_candidates(const ac_context *x, const ac_call *call, int *pick, int max,
                           const char *instead)
{
    const ac_table *t = ac_table_loaded();
    int n = 0, found = 0;
    const ac_algorithm *const *rule =
        t ? ac_table_rule(t, call->collective, x->comm->size, ac_select_key_bytes(call),
                          &call->nodes, &n)
          : NULL;
    if (!rule) return 0;
    for (int k = 0; k < n && found < max; k++)
        for (int i = 0; i < x->ncandidates; i++)
            if (x->candidates[i] == rule[k] || ac_same_messages(x->candidates[i], rule[k], call)) {
                int seen = 0;
                for (int j = 0; j < found; j++)
                    seen |= pick[j] == i;
                if (!seen) pick[found++] = i;
                break;
            }
    if (found > 0) return found;
    const char *why = "";
    char more[48] = "";
    ac_applicable(rule[0], call, &why);
    if (n > 1) snprintf(more, sizeof more, " (and the %d after it in its rule)", n - 1);
    if (x->comm->rank == 0)
        ac_log_warn("%s: the table's %s%s for %d ranks and %zu bytes is not applicable here "
                    "(%s); %s",
                    x->comm->name, rule[0]->name, more, x->comm->size, x->bucket->bytes,
                    why && why[0] ? why : "its requirements are not met", instead);
    return 0;
}

/* Table mode: what the rule decides for a new context. AUTOCOLL_TABLE_TRY = 1: the context runs
 * the rule's first candidate (x->rule; -1 where none: native). More: the rule's first
 * table_try candidates and native become the context's candidates (in candidate order, native
 * first) and race among them (x->trial, the race strategy); the best median runs. A trial of
 * native alone is no trial: the rule runs it. */
/* Table mode's contexts on this rank, and those a rule covered: a table that covers none of a
 * run's calls is said so at the end (table_coverage), not left silent. */
static atomic_long table_contexts, table_covered;

static void table_context(ac_context *x, const ac_call *call)
{
    int pick[AC_TABLE_MAX_ALGORITHMS];
    int found = rule_candidates(x, call, pick, sel.table_try, "running native");
    atomic_fetch_add(&table_contexts, 1);
    if (found > 0) atomic_fetch_add(&table_covered, 1);
    x->rule = found > 0 ? pick[0] : -1;
    if (found == 0 || sel.table_try < 2) return;
    int m = 0;
    for (int i = 0; i < x->ncandidates; i++) {
        int keep = i == 0;
        for (int j = 0; j < found; j++)
            keep |= pick[j] == i;
        if (keep) x->candidates[m++] = x->candidates[i]; /* m <= i: in place */
    }
    if (m < 2) return;
    x->ncandidates = m;
    x->rule = -1;
    x->trial = 1;
    x->strategy = x->strategy->trial;
}

/* The summary of a context's choice: the strategy's, or in table mode the rule's. With w, the
 * strategy's own report members too. */
static void context_summary(const ac_context *x, ac_strategy_summary *out, ac_json_writer *w)
{
    if (x->table_mode && x->rule >= 0) {
        *out = (ac_strategy_summary){.stage = "rule", .chosen = x->rule, .o_ms_c = -1.0,
                                     .native_seconds = -1.0};
        return;
    }
    if ((x->trial || x->suggested) && w) ac_json_integer_value(w, "table_try", sel.table_try);
    if (x->suggested && w) ac_json_integer_value(w, "table_suggested", x->suggested);
    x->strategy->describe(x->state, x->candidates, out, w);
    if (x->table_mode && !x->trial) out->stage = "no_rule";
}

/* What every rank knows alike of a new context. With `nodes`, the communicator's nodes
 * (ac_nodes_get: made collectively on the private communicator at its first use, then
 * cached; every rank creates the context at the same call); when they cannot be found, every
 * rank is taken for a node of its own. */
static ac_context_facts context_facts(ac_comm *c, const ac_bucket *b, const ac_call *call,
                                      int nodes)
{
    ac_context_facts f = {.collective = call->collective, .size = c->size, .bytes = b->bytes};
    const ac_nodes *n;
    if (!nodes) return f;
    f.nodes = c->size;
    f.ppn = 1;
    if (ac_nodes_get(c->pcomm, &n) == MPI_SUCCESS) {
        f.nodes = n->nnodes;
        f.ppn = 0;
        for (int i = 0; i < n->nnodes; i++)
            if (n->node_size[i] > f.ppn) f.ppn = n->node_size[i];
    }
    return f;
}

/* The call with its communicator's node layout where a candidate or the loaded table's rules
 * need it (AC_REQ_NODES, AC_REQ_SHARED_MEMORY, a rule's "nodes" or "ppn": collective over the
 * private communicator the first time, which every rank reaches at the same call); without it
 * those candidates do not apply and those rules do not cover the call. */
static ac_call call_with_nodes(ac_comm *c, const ac_call *call)
{
    ac_call full = *call;
    const ac_table *t = ac_table_loaded();
    if (call->nodes.nodes == 0 && (ac_registry_reads_nodes(call->collective, call->size) ||
                                   (t && ac_table_uses_nodes(t, call->collective))) &&
        ac_call_nodes(&full, c->pcomm) == MPI_SUCCESS)
        c->layout = full.nodes; /* for the report */
    return full;
}

static ac_context *context_create(ac_comm *c, ac_bucket *b, const ac_call *given, uint64_t site)
{
    ac_call full = call_with_nodes(c, given);
    const ac_call *call = &full;
    ac_algorithm_list r = ac_registry_for_size(call->collective, call->size);
    ac_context *x = r.count > 0 ? calloc(1, sizeof *x) : NULL; /* no list: no memory */
    ac_knowledge *know = NULL;
    if (!x) return NULL;
    x->candidates = malloc(sizeof(ac_algorithm *) * (size_t)r.count);
    x->candidate_calls = calloc((size_t)r.count, sizeof(long));
    if (!x->candidates || !x->candidate_calls) goto fail;
    for (int i = 0; i < r.count; i++) {
        const ac_algorithm *a = r.algorithms[i];
        int twin = 0;
        for (int j = 0; j < x->ncandidates && !twin; j++)
            twin = ac_same_messages(x->candidates[j], a, call);
        if (!twin && ac_applicable(a, call, NULL)) x->candidates[x->ncandidates++] = a;
    }
    x->bucket = b;
    x->comm = c;
    x->site = site;
    x->strategy = sel.strategy;
    x->table_mode = sel.strategy->table_mode;
    x->rule = -1;
    if (x->table_mode) table_context(x, call);
    const char *source = NULL;
    if ((!x->table_mode || x->trial) && (ac_history_path() || ac_table_loaded())) {
        if (!(know = calloc((size_t)x->ncandidates, sizeof *know))) goto fail;
        source = context_knowledge(x, call->collective, know);
    }
    ac_context_facts facts = context_facts(c, b, call, x->strategy->uses_nodes);
    int suggest[AC_TABLE_MAX_ALGORITHMS];
    if (!x->table_mode && !source && x->strategy->uses_suggestions && ac_table_loaded()) {
        facts.nsuggested = rule_candidates(x, call, suggest, sel.table_try,
                                           "the strategy decides without it");
        facts.suggested = suggest;
        x->suggested = facts.nsuggested;
    }
    x->state = x->strategy->create(x->candidates, x->ncandidates, source ? know : NULL, &facts);
    free(know);
    if (!x->state) goto fail;
    ac_strategy_summary sum;
    context_summary(x, &sum, NULL);
    if (sum.warm) x->warm_from = source;
    x->counted = sum.deciding != 0;
    x->said = -1;
    comm_state(c)->deciding += x->counted;
    return x;
fail:
    free(x->candidates);
    free(x->candidate_calls);
    free(x);
    return NULL;
}

/* A new context of (b, site), unless the limits refuse it (NULL). */
static __attribute__((noinline)) ac_context *context_new(ac_comm *c, ac_bucket *b,
                                                         const ac_call *call, uint64_t site)
{
    if (!context_admit(c->select, call->collective, site)) return NULL;
    ac_context *x = context_create(c, b, call, site);
    if (!x) {
        out_of_memory("a tuning context");
        return NULL;
    }
    x->next = b->contexts;
    b->contexts = x;
    return x;
}

static ac_context *context_get(ac_comm *c, ac_bucket *b, const ac_call *call, uint64_t site)
{
    for (ac_context *x = b->contexts; x; x = x->next)
        if (x->site == site) return x;
    return context_new(c, b, call, site);
}

/* The knowledge of c's tuning contexts, if this rank speaks for them (it is rank 0 of c), as
 * history file lines (history.h); after each context, its strategy's own record where it keeps
 * one (the model's platform: the file merges them all). Table mode's contexts keep what their
 * trials measured, the others nothing. */
static void write_comm_history(FILE *f, const ac_comm *c)
{
    const comm_select *cs = c->select;
    if (c->rank != 0 || c->inter || !cs) return;
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        for (const ac_bucket *b = cs->buckets[k]; b; b = b->next)
            for (const ac_context *x = b->contexts; x; x = x->next) {
                if (x->table_mode && !x->trial) continue;
                ac_knowledge *know = calloc((size_t)x->ncandidates, sizeof *know);
                if (!know) continue; /* rank 0 only: no divergence */
                x->strategy->save(x->state, know);
                ac_history_key key = context_key(c, b, (ac_collective)k, x->site);
                ac_history_write_context(f, &key, x->candidates, x->ncandidates, know);
                free(know);
                if (x->strategy->write_history) x->strategy->write_history(x->state, f);
            }
}

/* Release selection's state of c: its contexts (their strategies' states), buckets and
 * sites. */
static void comm_state_free(ac_comm *c)
{
    comm_select *cs = c->select;
    if (!cs) return;
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        for (ac_bucket *b = cs->buckets[k], *next_b; b; b = next_b) {
            next_b = b->next;
            for (ac_context *x = b->contexts, *next_x; x; x = next_x) {
                next_x = x->next;
                x->strategy->destroy(x->state);
                free(x->candidates);
                free(x->candidate_calls);
                free(x);
            }
            free(b);
        }
    free(cs->sites);
    free(cs);
    c->select = NULL;
}

/* A freed communicator folded into the report's summary (core/state.h): what it learned goes
 * to the history file's lines kept for the end, which merge records of one key, so that memory
 * stays bounded by the keys, not the communicators. */
static void comm_folded(ac_comm *c)
{
    char *lines = NULL;
    size_t len = 0;
    if (c->select && c->rank == 0 && ac_history_path()) {
        FILE *m = open_memstream(&lines, &len);
        if (m) {
            write_comm_history(m, c);
            fclose(m);
        }
        if (lines) ac_history_keep(lines);
        free(lines);
    }
    comm_state_free(c);
}

/* World rank 0 says how much of its run the table covered: a warning when no rule covered any
 * of its contexts (every call ran native: a table made for other process counts or
 * collectives), else, at AUTOCOLL_VERBOSE=2, how many. */
static void table_coverage(void)
{
    int rank = 0;
    long n = atomic_load(&table_contexts), covered = atomic_load(&table_covered);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0 || !ac_table_loaded() || n == 0) return;
    if (covered == 0)
        ac_log_warn("AUTOCOLL_TABLE=%s: no rule ran in any of rank 0's %ld tuning contexts "
                    "(collective, communicator size, message size): none covered them or none "
                    "applied, so every call ran native. Was the table made for other process "
                    "counts or collectives?",
                    ac_config_get("AUTOCOLL_TABLE"), n);
    else
        ac_log_info("AUTOCOLL_TABLE=%s: rules ran in %ld of rank 0's %ld tuning contexts",
                    ac_config_get("AUTOCOLL_TABLE"), covered, n);
}

static void log_decision(const ac_comm *c, ac_collective coll, ac_context *x, int deciding);

/* A choice changed at a context's last call is said at the end (log_decision, below). */
static void log_last_decisions(void)
{
    for (ac_comm *c = ac_g.comms; c; c = c->next) {
        comm_select *cs = c->select;
        for (int k = 0; cs && c->rank == 0 && k < AC_NUM_COLLECTIVES; k++)
            for (ac_bucket *b = cs->buckets[k]; b; b = b->next)
                for (ac_context *x = b->contexts; x; x = x->next)
                    if (!x->counted && x->calls > 0) log_decision(c, (ac_collective)k, x, 0);
    }
}

void ac_select_finalize(void)
{
    table_coverage();
    log_last_decisions();
    char *lines = NULL;
    size_t len = 0;
    if (ac_history_path()) {
        FILE *m = open_memstream(&lines, &len);
        if (m) {
            for (const ac_comm *c = ac_g.comms; c; c = c->next)
                write_comm_history(m, c);
            fclose(m);
        }
    }
    ac_history_store(lines, lines ? len : 0); /* collective; nothing when history is off */
    free(lines);
    ac_table_unload();
    for (ac_comm *c = ac_g.comms; c; c = c->next)
        comm_state_free(c);
}

/* ---- views for the report ---------------------------------------------------------------- */

const ac_context *ac_select_next_context(const ac_comm *c, ac_collective coll,
                                         const ac_context *prev)
{
    const comm_select *cs = c->select;
    if (prev && prev->next) return prev->next;
    const ac_bucket *b = prev ? prev->bucket->next : cs ? cs->buckets[coll] : NULL;
    while (b && !b->contexts)
        b = b->next;
    return b ? b->contexts : NULL;
}

const ac_bucket *ac_select_next_bucket(const ac_comm *c, ac_collective coll, const ac_bucket *prev)
{
    const comm_select *cs = c->select;
    return prev ? prev->next : cs ? cs->buckets[coll] : NULL;
}

void ac_select_view_context(const ac_context *x, ac_context_view *out)
{
    memset(out, 0, sizeof *out);
    out->bytes = x->bucket->bytes;
    out->count = x->bucket->count;
    ac_site_describe(x->site, out->site, sizeof out->site);
    out->site_key = x->site;
    out->calls = x->calls;
    out->ncandidates = x->ncandidates;
    out->candidates = x->candidates;
    out->candidate_calls = x->candidate_calls;
    out->seconds = x->seconds;
    for (int i = 0; i < 2; i++) {
        out->overhead[i] = x->overhead[i];
        out->overhead_calls[i] = x->overhead_calls[i];
    }
    out->strategy = x->table_mode ? "table" : x->strategy->name;
    out->warm_from = x->warm_from;
    context_summary(x, &out->summary, NULL);
}

void ac_select_describe_strategy(const ac_context *x, ac_json_writer *w)
{
    ac_strategy_summary sum;
    context_summary(x, &sum, w);
}

void ac_select_view_bucket(const ac_bucket *b, ac_bucket_view *out)
{
    const ac_site_tracker *t = &b->sites;
    *out = (ac_bucket_view){
        .bytes = b->bytes,
        .count = b->count,
        .calls = t->calls,
        .site_mode = ac_site_mode_name(t->mode),
        .site_agreements = t->learn_calls,
        .site_period = t->mode == AC_SITE_PREDICT ? t->period : 0,
        .site_relearns = t->relearns,
        .site_changed_at = t->changed_at,
        .siteless_reason = ac_site_why_name(t->why),
    };
}


/* ---- every call -------------------------------------------------------------------------- */

/* A context's agreement; one more value carries the bucket's site-prediction flag (site.h). */
static int agree_max(void *ctx, double *values, int n)
{
    ac_context *x = ctx;
    double small[80], *v = (size_t)n + 1 <= sizeof small / sizeof small[0]
                               ? small
                               : malloc(sizeof(double) * ((size_t)n + 1));
    if (!v) {
        out_of_memory("an agreement");
        return MPI_ERR_NO_MEM;
    }
    memcpy(v, values, sizeof(double) * (size_t)n);
    v[n] = ac_site_flag(&x->bucket->sites);
    double start = ac_now();
    int rc = PMPI_Allreduce(MPI_IN_PLACE, v, n + 1, MPI_DOUBLE, MPI_MAX, x->comm->pcomm);
    x->agree_seconds += ac_now() - start;
    if (rc == MPI_SUCCESS) {
        memcpy(values, v, sizeof(double) * (size_t)n);
        ac_site_verify(&x->bucket->sites, v[n]);
    }
    if (v != small) free(v);
    return rc;
}

/* The predefined reduction operations, commutative by definition (MPI 4.1, section 6.9.2): the
 * common case is told without asking the library. Most used first. */
static const MPI_Op builtin_reductions[] = {MPI_SUM,  MPI_MAX, MPI_MIN,  MPI_PROD,
                                            MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR,
                                            MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC};
/* The other predefined operations (one-sided's): their commutativity is the library's word. */
static const MPI_Op builtin_others[] = {MPI_REPLACE, MPI_NO_OP};

void ac_call_set_op(ac_call *call, MPI_Op op)
{
    call->op = op;
    for (size_t i = 0; i < sizeof builtin_reductions / sizeof builtin_reductions[0]; i++)
        if (op == builtin_reductions[i]) {
            call->op_builtin = 1;
            call->op_commutative = 1;
            return;
        }
    call->op_builtin = 0;
    for (size_t i = 0; i < sizeof builtin_others / sizeof builtin_others[0]; i++)
        if (op == builtin_others[i]) call->op_builtin = 1;
    call->op_commutative = 0;
    PMPI_Op_commutative(op, &call->op_commutative);
}

/* The sizes of the predefined datatypes, asked of the library once (ac_select_init), so that a
 * call on one needs no PMPI_Type_size: a direct-mapped table by handle, a slot kept by the first
 * type listed that falls in it (the most used first); other types are asked on every call (a
 * derived type's handle can be freed and reused). */
enum { PREDEFINED_SLOTS = 64 };
static struct {
    MPI_Datatype type;
    int size;
} predefined[PREDEFINED_SLOTS];

static size_t predefined_slot(MPI_Datatype type)
{
    uint64_t h = (uint64_t)(uintptr_t)type * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 58); /* the top 6 bits: PREDEFINED_SLOTS */
}

static void predefined_sizes_init(void)
{
    const MPI_Datatype types[] = {
        MPI_DOUBLE, MPI_INT, MPI_FLOAT, MPI_CHAR, MPI_BYTE, MPI_LONG, MPI_LONG_LONG,
        MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT,
        MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T,
        MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T, MPI_LONG_DOUBLE, MPI_C_BOOL,
        MPI_WCHAR, MPI_C_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_AINT, MPI_OFFSET, MPI_COUNT,
        MPI_DOUBLE_INT, MPI_FLOAT_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT,
        MPI_LONG_DOUBLE_INT, MPI_PACKED};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        size_t slot = predefined_slot(types[i]);
        int size = 0;
        if (types[i] == MPI_DATATYPE_NULL || predefined[slot].size > 0 ||
            PMPI_Type_size(types[i], &size) != MPI_SUCCESS || size <= 0)
            continue;
        predefined[slot].type = types[i];
        predefined[slot].size = size;
    }
}

size_t ac_signature_bytes(MPI_Aint count, MPI_Datatype dtype)
{
    size_t slot = predefined_slot(dtype);
    int size = 0;
    if (predefined[slot].type == dtype && predefined[slot].size > 0) /* an unfilled slot: 0 */
        size = predefined[slot].size;
    else
        PMPI_Type_size(dtype, &size);
    return (size_t)count * (size_t)size;
}

/* A call of a collective forced by AUTOCOLL_<COLL>: the forced algorithm where it applies, else
 * the library's (warned once per communicator and collective). Out of line, as is every path
 * but a tuning context's. */
static __attribute__((noinline)) const ac_algorithm *
forced_choice(ac_comm *c, const ac_call *call, const ac_algorithm *forced)
{
    const char *why = NULL;
    if (forced->requires & (AC_REQ_NODES | AC_REQ_SHARED_MEMORY)) {
        ac_call full = call_with_nodes(c, call);
        if (ac_applicable(forced, &full, &why)) return forced;
    } else if (ac_applicable(forced, call, &why)) {
        return forced;
    }
    comm_select *cs = comm_state(c);
    const ac_algorithm *fallback = ac_registry_fallback(call);
    if (!cs->warned[call->collective] && c->rank == 0)
        ac_log_warn("%s=%s does not apply to this call on %s (size %d): it needs %s; "
                    "using %s",
                    ac_collective_env(call->collective), forced->name, c->name, c->size, why,
                    fallback->name);
    cs->warned[call->collective] = 1;
    return fallback;
}

/* A call beyond the contexts' limits: a table still rules (its lookup needs no context), else
 * the library's, counted as untuned. */
static __attribute__((noinline)) const ac_algorithm *beyond_limits(ac_comm *c,
                                                                   const ac_call *call)
{
    const ac_table *t = sel.strategy->table_mode ? ac_table_loaded() : NULL;
    ac_call full = t ? call_with_nodes(c, call) : *call;
    const ac_algorithm *rule = t ? ac_table_choice(t, &full, ac_select_key_bytes(call)) : NULL;
    if (rule) return rule;
    c->stats[call->collective].untuned++;
    return ac_registry_fallback(call);
}

/* One rank: nothing moves, nothing to learn (counted); a table's rule still applies. */
static __attribute__((noinline)) const ac_algorithm *one_rank(ac_comm *c, const ac_call *call)
{
    c->stats[call->collective].single++;
    return ac_registry_fallback(call);
}

const ac_algorithm *ac_select_nonblocking(ac_comm *c, const ac_call *call)
{
    ac_call full = *call;
    if (c->layout.nodes > 0) full.nodes = c->layout; /* known: nothing collective to learn it */
    const ac_algorithm *alg = sel.forced[call->collective];
    if (!alg && sel.strategy->table_mode) {
        const ac_table *t = ac_table_loaded();
        if (t && (full.nodes.nodes > 0 || !ac_table_uses_nodes(t, call->collective)))
            alg = ac_table_choice(t, &full, ac_select_key_bytes(call));
    }
    /* a library without the collective (SMPI 3.32's neighbourhood ones) cannot be passed the
     * call: what a blocking call falls back to runs (ac_registry_fallback), unless a learning
     * strategy races the call (requests.c) */
    const ac_algorithm *native = ac_registry_native(call->collective);
    if ((!alg || alg == native) && !ac_applicable(native, &full, NULL) &&
        !(sel.strategy->learns && !sel.forced[call->collective]))
        alg = ac_registry_fallback(&full);
    /* native: the library's own call, passed on (the layer's request would only wrap it) */
    if (!alg || !ac_has_schedule(alg) || alg == native) return NULL;
    if ((alg->requires & (AC_REQ_NODES | AC_REQ_NODE_LAYOUT)) && full.nodes.nodes == 0)
        return NULL;
    /* an orthogonal instance's line communicators: made collectively, so made already */
    if ((alg->requires & AC_REQ_MESH_LAYOUT) && !ac_mesh_known(c->pcomm, alg->params))
        return NULL;
    return ac_applicable(alg, &full, NULL) ? alg : NULL;
}

int ac_select_learning_candidates(ac_comm *c, const ac_call *call, const ac_algorithm **out,
                                  int max)
{
    if (!sel.strategy->learns || sel.forced[call->collective]) return 0;
    ac_call full = *call;
    if (c->layout.nodes > 0) full.nodes = c->layout;
    ac_algorithm_list r = ac_registry_for_size(call->collective, call->size);
    int n = 0;
    for (int i = 0; i < r.count && n < max; i++) {
        const ac_algorithm *a = r.algorithms[i];
        int twin = 0; /* the later of twins is left out, as in a blocking context's candidates */
        if (!ac_has_schedule(a) || (ac_is_composed(a) && !sel.race_composed) ||
            (a->requires & AC_REQ_NODE_LAYOUT) ||
            ((a->requires & AC_REQ_NODES) && full.nodes.nodes == 0) ||
            ((a->requires & AC_REQ_MESH_LAYOUT) && !ac_mesh_known(c->pcomm, a->params)))
            continue;
        for (int j = 0; j < n && !twin; j++)
            twin = ac_same_messages(out[j], a, &full);
        if (!twin && ac_applicable(a, &full, NULL)) out[n++] = a;
    }
    return n;
}

int ac_select_may_run_nonblocking(void)
{
    if (sel.strategy->learns || sel.strategy->table_mode) return 1;
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        if (sel.forced[k] && ac_has_schedule(sel.forced[k])) return 1;
    return 0;
}

void ac_select_comm_made(ac_comm *c)
{
    const ac_table *t = sel.strategy->table_mode ? ac_table_loaded() : NULL;
    int needed = 0;
    if (!c) return;
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
        const ac_algorithm *forced = sel.forced[k];
        needed |= forced && ac_has_schedule(forced) &&
                  (forced->requires & (AC_REQ_NODES | AC_REQ_NODE_LAYOUT));
        needed |= t && ac_table_uses_nodes(t, (ac_collective)k);
    }
    ac_call full = {.size = c->size};
    if (needed && c->layout.nodes == 0 && ac_call_nodes(&full, c->pcomm) == MPI_SUCCESS)
        c->layout = full.nodes;
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++) { /* a forced orthogonal instance's mesh */
        const ac_algorithm *forced = sel.forced[k];
        const ac_mesh *m;
        int n[3];
        if (forced && ac_has_schedule(forced) && (forced->requires & AC_REQ_MESH_LAYOUT) &&
            ac_mesh_layout(c->size, forced->params, n))
            ac_mesh_get(c->pcomm, forced->params, &m);
    }
}

const ac_algorithm *ac_select(ac_comm *c, const ac_call *call, const void *caller)
{
    const ac_algorithm *forced = sel.forced[call->collective];
    comm_select *cs = c->select;
    if (cs) cs->pending[call->collective] = NULL;
    if (forced) return forced_choice(c, call, forced);
    if (!ac_select_uses_contexts()) return ac_registry_fallback(call);
    if (c->size == 1 && !sel.tune_one_rank && !sel.strategy->table_mode) return one_rank(c, call);
    cs = comm_state(c);
    /* The layer's bookkeeping is timed on every call while a context of this communicator is
     * deciding, and on one call in OVERHEAD_SAMPLE once they all have settled (weighted; two
     * clock reads fewer on the others). Agreements are always timed (agree_max). */
    cs->select_weight = cs->deciding > 0                     ? 1
                        : ++cs->ticks % OVERHEAD_SAMPLE == 0 ? OVERHEAD_SAMPLE
                                                             : 0;
    double start = cs->select_weight ? ac_now() : 0.0;
    ac_bucket *b = bucket_get(cs, call);
    ac_context *x = b ? context_get(c, b, call, bucket_site(c, b, caller)) : NULL;
    if (!x) return beyond_limits(c, call);
    x->deciding = x->counted;
    x->last = x->rule >= 0 ? x->rule : x->strategy->choose(x->state);
    cs->pending[call->collective] = x;
    cs->select_start = start;
    return x->candidates[x->last];
}

/* AUTOCOLL_VERBOSE=2: a context's strategy has decided (settled on a candidate, or changed
 * its choice while settled, as star's Monitor_Adapt does) or begun to decide again (a
 * degradation, a refresh), said by the communicator's rank 0. Called when the deciding state
 * changes, or when a settled context runs another candidate than the one announced (then only
 * a changed choice is said: a probe or a challenge of another candidate is not one, and costs
 * one look at the strategy's summary a call while it lasts). */
static void log_decision(const ac_comm *c, ac_collective coll, ac_context *x, int deciding)
{
    char site[64];
    ac_strategy_summary sum;
    ac_site_describe(x->site, site, sizeof site);
    if (deciding) {
        ac_log_info("%s %s %zu B (site %s): %s decides again after %ld calls", c->name,
                    ac_collective_name(coll), x->bucket->bytes, site, x->strategy->name,
                    x->calls);
        x->said = -1;
        return;
    }
    context_summary(x, &sum, NULL);
    if (sum.chosen < 0) x->said = x->last; /* settled on nothing: not looked at again */
    if (sum.chosen < 0 || sum.chosen == x->said) return;
    ac_log_info("%s %s %zu B (site %s): %s chose %s at call %ld", c->name,
                ac_collective_name(coll), x->bucket->bytes, site, x->strategy->name,
                sum.chosen >= 0 ? x->candidates[sum.chosen]->name : "nothing", x->calls);
    x->said = sum.chosen;
}

/* The report's per-algorithm index of alg (kept for the algorithm of the last call) and the
 * collective's tables, made at the first need. */
static __attribute__((noinline)) void stats_index(ac_comm *c, const ac_call *call,
                                                  const ac_algorithm *alg)
{
    ac_coll_stats *s = &c->stats[call->collective];
    if (alg != s->indexed || !s->alg_calls) {
        ac_algorithm_list r = ac_registry_for_size(call->collective, c->size);
        s->index = ac_algorithm_list_index(r, alg);
        s->indexed = alg;
        ac_coll_stats_reserve(s, r.count);
    }
    if (!s->sizes) s->sizes = calloc(AC_PROFILE_BINS, sizeof *s->sizes);
}

void ac_select_check_memory(const ac_comm *c, const ac_call *call, const ac_algorithm *alg,
                            int rc)
{
    if (rc != MPI_ERR_NO_MEM || alg == ac_registry_native(call->collective)) return;
    ac_log_error("%s on %s: %s ran out of memory on this rank (its scratch buffers; "
                 "AUTOCOLL_MAX_SCRATCH_MIB bounds the largest); ending the run rather than "
                 "leaving the other ranks waiting",
                 ac_collective_name(call->collective), c->name, alg->name);
    ac_log_abort(rc);
}

void ac_observe(ac_comm *c, const ac_call *call, const ac_algorithm *alg, double start, int rc)
{
    double end = ac_now(), seconds = end - start;
    ac_select_check_memory(c, call, alg, rc);
    ac_coll_stats *s = &c->stats[call->collective];
    if (alg != s->indexed || !s->alg_calls || !s->sizes) stats_index(c, call, alg);
    int index = s->index;
    s->calls++;
    s->bytes += (double)(int64_t)call->bytes; /* below 2^63: one conversion */
    s->seconds += seconds;
    if (s->alg_calls && index >= 0) {
        s->alg_calls[index]++;
        s->alg_seconds[index] += seconds;
    }
    if (s->sizes) {
        ac_size_bin *bin = &s->sizes[ac_profile_bin(call->bytes)];
        bin->calls++;
        bin->seconds += seconds;
    }
    if (atomic_load_explicit(&last_tracked, memory_order_relaxed)) last_algorithm = alg;
    comm_select *cs = c->select;
    ac_context *x = cs ? cs->pending[call->collective] : NULL;
    if (!x) return;
    ac_agreement agree = {agree_max, x, c->rank};
    cs->pending[call->collective] = NULL;
    x->calls++;
    x->candidate_calls[x->last]++;
    x->seconds += seconds;
    x->agree_seconds = 0.0;
    int deciding = 0;
    if (x->rule < 0) {
        int rc = x->strategy->observe(x->state, x->last, seconds, &agree, &deciding);
        if (rc != MPI_SUCCESS) agreement_failed("strategy's agreement", c, rc);
    }
    /* the layer's own time: choosing (select_start to start), this bookkeeping, and the
     * agreements in it (exact; the rest weighted when sampled, see ac_select) */
    double own = x->agree_seconds;
    if (cs->select_weight)
        own += cs->select_weight *
               ((start - cs->select_start) + (ac_now() - end) - x->agree_seconds);
    x->overhead[x->deciding] += own;
    x->overhead_calls[x->deciding]++;
    if (c->rank == 0 && (deciding != x->counted || (!deciding && x->last != x->said)))
        log_decision(c, call->collective, x, deciding);
    cs->deciding += deciding - x->counted;
    x->counted = deciding;
}
