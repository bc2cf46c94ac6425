/*
 * select.c - precedence of choices, tuning contexts, agreement, and accounting of every call.
 *
 * Precedence: an applicable algorithm forced by AUTOCOLL_<COLL> > the strategy of the call's
 * tuning context > native. A bucket is (communicator, collective, message size, count, op
 * properties): every part is equal on every rank. Its site tracker (site.h) gives each call a
 * call site agreed by all ranks, or 0 (site-less); a context is (bucket, site), so every rank
 * finds the same context and asks its strategy at the same calls (invariant 1). Its candidates
 * are the algorithms applicable to it, native first, so a strategy never runs an inapplicable
 * one (invariant 4), less the later of twins that send the same messages for this call
 * (ac_same_messages: a pipeline segment that holds the whole message). Limits:
 * AUTOCOLL_MAX_SITES sites per communicator, AUTOCOLL_MAX_SIZES
 * contexts per site and collective; calls beyond them run native and are counted (untuned),
 * except under the table strategy, which has no sites and looks such calls up in the table.
 *
 * Accounting per context (the report): calls, runs per candidate, time inside the algorithms,
 * and the layer's own time around them (choosing, site agreements, observing, the strategy's
 * agreements) split by whether the strategy was still deciding: STAR-MPI's O_MS^a and O_MA.
 * Agreements are timed whenever they happen; the rest of the bookkeeping on every call while a
 * context of the communicator is deciding, and once all have settled on one call in
 * OVERHEAD_SAMPLE, weighted (the clock reads would otherwise be most of the settled cost).
 */
#include "select/select.h"
#include "core/config.h"
#include "core/log.h"
#include "intercept/intercept.h"
#include "select/history.h"
#include "select/lottery.h"
#include "select/race.h"
#include "select/site.h"
#include "select/star.h"
#include "select/strategy.h"
#include "select/table.h"

#include <stdlib.h>
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
    const ac_algorithm **candidates; /* native first */
    int ncandidates;
    void *state;  /* the strategy's */
    int last;     /* candidate of the call in flight */
    int deciding; /* the strategy was deciding when the call in flight was chosen */
    int counted;  /* counted in comm->deciding */
    const char *warm_from; /* the strategy started from "history" or "table"; NULL: cold */
    double agree_seconds; /* time in agreements during the call in flight */
    long calls;
    long *candidate_calls; /* [ncandidates] */
    double seconds;        /* local time inside the algorithms */
    double overhead[2];    /* local bookkeeping: [1] while deciding (O_MS^a), [0] after (O_MA) */
    long overhead_calls[2];
    struct ac_context *next; /* in the bucket */
} ac_context;

typedef struct strategy_entry {
    const char *name;
    const ac_strategy *ops; /* NULL: native */
} strategy_entry;

static const strategy_entry strategies[] = {
    {"native", NULL},
    {"star", &ac_strategy_star},
    {"lottery", &ac_strategy_lottery},
    {"race", &ac_strategy_race},
    {"table", &ac_strategy_table},
};

static int max_sites; /* AUTOCOLL_MAX_SITES */

enum { OVERHEAD_SAMPLE = 16 }; /* settled calls per timed bookkeeping (ac_select) */

int ac_select_use_strategy(const char *name)
{
    for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++)
        if (strcmp(strategies[i].name, name) == 0) {
            ac_g.strategy = strategies[i].ops;
            return 1;
        }
    return 0;
}

/* One of `names` (index), or -1. */
static int keyword(const char *value, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(value, names[i]) == 0) return i;
    return -1;
}

/* The lottery's settings; an invalid one gets a warning from rank 0 and its default. */
static void lottery_init(int rank)
{
    static const char *const spreads[] = {"uniform", "inverse"}, *const draws[] = {"seed",
                                                                                   "broadcast"};
    static const struct {
        unsigned bit;
        const char *name, *accepts;
    } checks[] = {
        {AC_LOTTERY_BAD_ALPHA, "AUTOCOLL_LOTTERY_ALPHA", "0 < x < 1"},
        {AC_LOTTERY_BAD_SPREAD, "AUTOCOLL_LOTTERY_SPREAD", "uniform or inverse"},
        {AC_LOTTERY_BAD_EXPLORE_SIGMAS, "AUTOCOLL_LOTTERY_EXPLORE_SIGMAS", "x >= 0 or inf"},
        {AC_LOTTERY_BAD_EMA, "AUTOCOLL_LOTTERY_EMA", "0 < x <= 1"},
        {AC_LOTTERY_BAD_TTL, "AUTOCOLL_LOTTERY_TTL", "1 to 1000000"},
        {AC_LOTTERY_BAD_WINDOW, "AUTOCOLL_LOTTERY_WINDOW", "1 to 100000"},
        {AC_LOTTERY_BAD_INIT, "AUTOCOLL_LOTTERY_INIT", "0 to 1000"},
        {AC_LOTTERY_BAD_RECHECK, "AUTOCOLL_LOTTERY_RECHECK", "0 to 100000000"},
        {AC_LOTTERY_BAD_DRAW, "AUTOCOLL_LOTTERY_DRAW", "seed or broadcast"},
    };
    ac_lottery_params p = {
        .alpha = ac_config_double("AUTOCOLL_LOTTERY_ALPHA"),
        .spread = keyword(ac_config_get("AUTOCOLL_LOTTERY_SPREAD"), spreads, 2),
        .explore_sigmas = ac_config_double("AUTOCOLL_LOTTERY_EXPLORE_SIGMAS"),
        .ema = ac_config_double("AUTOCOLL_LOTTERY_EMA"),
        .ttl = (int)ac_config_long("AUTOCOLL_LOTTERY_TTL"),
        .window = (int)ac_config_long("AUTOCOLL_LOTTERY_WINDOW"),
        .init = (int)ac_config_long("AUTOCOLL_LOTTERY_INIT"),
        .recheck = (int)ac_config_long("AUTOCOLL_LOTTERY_RECHECK"),
        .draw = keyword(ac_config_get("AUTOCOLL_LOTTERY_DRAW"), draws, 2),
        .seed = (uint64_t)ac_config_long("AUTOCOLL_LOTTERY_SEED"),
    };
    unsigned bad = ac_lottery_set_params(&p);
    if (rank != 0) return;
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (bad & checks[i].bit)
            ac_log_warn("%s=%s is invalid (it takes %s); using the default %s", checks[i].name,
                        ac_config_get(checks[i].name), checks[i].accepts,
                        ac_setting_find(checks[i].name)->default_value);
}

/* race's settings; rank 0 reports a value out of range with the one used instead. */
static void race_init(int rank)
{
    ac_race_params race = {
        .samples = (int)ac_config_long("AUTOCOLL_RACE_SAMPLES"),
        .rounds = (int)ac_config_long("AUTOCOLL_RACE_ROUNDS"),
        .margin = ac_config_double("AUTOCOLL_RACE_MARGIN"),
        .epsilon = ac_config_double("AUTOCOLL_RACE_EPSILON"),
        .window_max = (int)ac_config_long("AUTOCOLL_RACE_WINDOW_MAX"),
        .refresh = ac_config_long("AUTOCOLL_RACE_REFRESH"),
        .grouping = strcmp(ac_config_get("AUTOCOLL_RACE_GROUPING"), "off") != 0,
        .final = (int)ac_config_long("AUTOCOLL_RACE_FINAL"),
    };
    ac_race_set_params(&race);
    ac_race_params used;
    ac_race_get_params(&used);
    const struct {
        const char *name;
        int replaced;
        double value; /* what is used instead */
    } race_checks[] = {
        {"AUTOCOLL_RACE_SAMPLES", used.samples != race.samples, used.samples},
        {"AUTOCOLL_RACE_ROUNDS", used.rounds != race.rounds, used.rounds},
        {"AUTOCOLL_RACE_MARGIN", used.margin != race.margin, used.margin},
        {"AUTOCOLL_RACE_EPSILON", used.epsilon != race.epsilon, used.epsilon},
        {"AUTOCOLL_RACE_WINDOW_MAX", used.window_max != race.window_max, used.window_max},
        {"AUTOCOLL_RACE_REFRESH", used.refresh != race.refresh, (double)used.refresh},
        {"AUTOCOLL_RACE_FINAL", used.final != race.final, used.final},
    };
    if (rank != 0) return;
    for (size_t i = 0; i < sizeof race_checks / sizeof race_checks[0]; i++)
        if (race_checks[i].replaced)
            ac_log_warn("%s=%s is out of range (it takes %s); using %g", race_checks[i].name,
                        ac_config_get(race_checks[i].name),
                        ac_setting_find(race_checks[i].name)->values, race_checks[i].value);
}

void ac_select_init(void)
{
    const char *name = ac_config_get("AUTOCOLL_STRATEGY");
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ac_g.strategy = NULL;
    if (!ac_select_use_strategy(name) && rank == 0)
        ac_log_warn("AUTOCOLL_STRATEGY=%s: no such strategy (native, star, lottery, race, "
                    "table); using native",
                    name);
    ac_g.max_sizes = (int)ac_config_long("AUTOCOLL_MAX_SIZES");
    if (ac_g.max_sizes < 1) ac_g.max_sizes = 1;
    max_sites = (int)ac_config_long("AUTOCOLL_MAX_SITES");
    if (max_sites < 0) max_sites = 0;
    ac_star_params star = {
        .iter = (int)ac_config_long("AUTOCOLL_STAR_ITER"),
        .epsilon = ac_config_double("AUTOCOLL_STAR_EPSILON"),
        .delta_init = 2,
        .delta_max = (int)ac_config_long("AUTOCOLL_STAR_DELTA_MAX"),
        .grouping = strcmp(ac_config_get("AUTOCOLL_STAR_GROUPING"), "off") != 0,
        .recheck = (int)ac_config_long("AUTOCOLL_STAR_RECHECK"),
    };
    ac_star_set_params(&star);
    lottery_init(rank);
    race_init(rank);
}

/* The message size that keys a bucket: alltoallv's differs between ranks, so it has one bucket
 * per communicator whatever its sizes. */
static size_t key_bytes(const ac_call *call)
{
    return call->collective == AC_ALLTOALLV ? 0 : call->bytes;
}

/* Memory is local: a rank that ran out would diverge from the others. Fail loudly. */
static void out_of_memory(const char *what)
{
    ac_log_error("out of memory for %s", what);
    PMPI_Abort(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
}

/* An agreement that returned an error (the private communicator inherits the user's error
 * handler: with MPI_ERRORS_RETURN an error comes back) leaves this rank without the agreed
 * values the others may have: going on would let the ranks diverge. Fail loudly. */
static void agreement_failed(const char *what, const ac_comm *c, int rc)
{
    ac_log_error("the %s on %s failed (MPI error %d); ending the run rather than letting the "
                 "ranks diverge",
                 what, c->name, rc);
    PMPI_Abort(MPI_COMM_WORLD, rc);
}

/* Call sites per communicator: AUTOCOLL_MAX_SITES, or none under a site-less strategy (no site
 * agreements, one context per size). Asked at each use, as the benchmark driver changes the
 * strategy at run time (ac_select_use_strategy); a bucket keeps the site mode it began with. */
static int sites_allowed(void)
{
    return ac_g.strategy && ac_g.strategy->site_less ? 0 : max_sites;
}

static ac_bucket *bucket_get(ac_comm *c, const ac_call *call)
{
    ac_collective coll = call->collective;
    for (ac_bucket *b = c->buckets[coll]; b; b = b->next)
        if (b->bytes == key_bytes(call) && b->count == call->count &&
            b->op_builtin == call->op_builtin && b->op_commutative == call->op_commutative)
            return b;
    /* Each site tunes at most max_sizes sizes, so more buckets could never get a context. */
    int sites = sites_allowed();
    if (c->nbuckets[coll] >= (sites > 0 ? sites : 1) * ac_g.max_sizes) return NULL;
    ac_bucket *b = calloc(1, sizeof *b);
    if (!b) {
        out_of_memory("a tuning bucket");
        return NULL;
    }
    b->bytes = key_bytes(call);
    b->count = call->count;
    b->op_builtin = call->op_builtin;
    b->op_commutative = call->op_commutative;
    ac_site_init(&b->sites, sites > 0);
    b->next = c->buckets[coll];
    c->buckets[coll] = b;
    c->nbuckets[coll]++;
    return b;
}

/* The agreed site of this call in bucket b (site.h): collective while the bucket learns. */
static uint64_t bucket_site(ac_comm *c, ac_bucket *b, const void *caller)
{
    if (b->sites.mode == AC_SITE_SITELESS) return ac_site_predict(&b->sites, 0);
    uint64_t local = ac_site_key(caller);
    if (b->sites.mode == AC_SITE_PREDICT) return ac_site_predict(&b->sites, local);
    double v[AC_SITE_VALUES];
    ac_site_contribution(local, v);
    int rc = PMPI_Allreduce(MPI_IN_PLACE, v, AC_SITE_VALUES, MPI_DOUBLE, MPI_MAX, c->pcomm);
    if (rc != MPI_SUCCESS) agreement_failed("call-site agreement", c, rc);
    return ac_site_learn(&b->sites, v);
}

/* Whether a new context of `site` is admitted: AUTOCOLL_MAX_SIZES contexts per site and
 * collective, AUTOCOLL_MAX_SITES sites per communicator (site-less not counted). Admitting the
 * first context of a site records the site. */
static int context_admit(ac_comm *c, ac_collective coll, uint64_t site)
{
    int sizes = 0;
    for (const ac_bucket *b = c->buckets[coll]; b; b = b->next)
        for (const ac_context *x = b->contexts; x; x = x->next)
            sizes += x->site == site;
    if (sizes >= ac_g.max_sizes) return 0;
    if (site == 0) return 1;
    for (int i = 0; i < c->nsites; i++)
        if (c->sites[i] == site) return 1;
    if (c->nsites >= max_sites) return 0;
    if (!c->sites && !(c->sites = calloc((size_t)max_sites, sizeof *c->sites))) {
        out_of_memory("the call sites of a communicator");
        return 0;
    }
    c->sites[c->nsites++] = site;
    return 1;
}

static ac_history_key context_key(const ac_comm *c, const ac_bucket *b, ac_collective coll,
                                  uint64_t site)
{
    ac_history_key key = {(int)coll, c->size, (unsigned long long)b->bytes, b->count,
                          b->op_builtin, b->op_commutative, site};
    return key;
}

/* A new context's strategy starts from what the history file knows of it (history.h), else
 * from the configuration table's measured cell covering it (table.h): the key, the file and the
 * table are the same on every rank, so is the outcome. */
static void context_warm(ac_context *x, ac_collective coll)
{
    ac_knowledge *know = calloc((size_t)x->ncandidates, sizeof *know);
    if (!know) {
        out_of_memory("the history of a tuning context");
        return;
    }
    ac_history_key key = context_key(x->comm, x->bucket, coll, x->site);
    if (ac_history_path() && ac_history_lookup(&key, x->candidates, x->ncandidates, know) > 0) {
        if (x->strategy->warm(x->state, know)) x->warm_from = "history";
    } else if (ac_table_loaded() &&
               ac_table_cell_knowledge(ac_table_loaded(), coll, x->comm->size, x->bucket->bytes,
                                       x->candidates, x->ncandidates, know) > 0) {
        if (x->strategy->warm(x->state, know)) x->warm_from = "table";
    }
    free(know);
}

/* The loaded table's rule for this call on c (NULL: no table, or no rule covers it). */
static const ac_algorithm *table_rule_of(const ac_comm *c, const ac_call *call)
{
    const ac_table *t = ac_table_loaded();
    return t ? ac_table_rule(t, call->collective, c->size, key_bytes(call)) : NULL;
}

/* The `table` strategy's context: the candidate that runs the rule's algorithm (itself, or the
 * twin kept in its place), given to the strategy as the one known candidate. A rule naming an
 * algorithm not applicable to the call is reported (the context runs native). */
static void context_rule(ac_context *x, const ac_call *call)
{
    const ac_algorithm *a = table_rule_of(x->comm, call);
    if (!a) return;
    int pick = -1;
    for (int i = 0; i < x->ncandidates && pick < 0; i++)
        if (x->candidates[i] == a || ac_same_messages(x->candidates[i], a, call)) pick = i;
    if (pick < 0) {
        const char *why = "";
        ac_applicable(a, call, &why);
        if (x->comm->rank == 0)
            ac_log_warn("%s: the table's %s for %d ranks and %zu bytes is not applicable here "
                        "(%s); running native",
                        x->comm->name, a->name, x->comm->size, x->bucket->bytes,
                        why && why[0] ? why : "its requirements are not met");
        return;
    }
    ac_knowledge *know = calloc((size_t)x->ncandidates, sizeof *know);
    if (!know) {
        out_of_memory("the table rule of a tuning context");
        return;
    }
    know[pick] = (ac_knowledge){1.0, 0.0, 1};
    x->strategy->warm(x->state, know);
    free(know);
}

void ac_select_write_history(FILE *f)
{
    for (const ac_comm *c = ac_g.comms; c; c = c->next) {
        if (c->rank != 0 || c->inter) continue;
        for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
            for (const ac_bucket *b = c->buckets[k]; b; b = b->next)
                for (const ac_context *x = b->contexts; x; x = x->next) {
                    ac_knowledge *know = calloc((size_t)x->ncandidates, sizeof *know);
                    if (!know) continue; /* rank 0 only: no divergence */
                    x->strategy->save(x->state, know);
                    ac_history_key key = context_key(c, b, (ac_collective)k, x->site);
                    ac_history_write_context(f, &key, x->candidates, x->ncandidates, know);
                    free(know);
                }
    }
}

static ac_context *context_create(ac_comm *c, ac_bucket *b, const ac_call *call, uint64_t site)
{
    ac_algorithm_list r = ac_registry_for_size(call->collective, call->size);
    ac_context *x = calloc(1, sizeof *x);
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
    x->strategy = ac_g.strategy;
    x->state = x->strategy->create(x->candidates, x->ncandidates);
    if (!x->state) goto fail;
    if (x->strategy == &ac_strategy_table)
        context_rule(x, call);
    else if (ac_history_path() || ac_table_loaded())
        context_warm(x, call->collective);
    x->counted = x->strategy->deciding(x->state) != 0;
    c->deciding += x->counted;
    return x;
fail:
    free(x->candidates);
    free(x->candidate_calls);
    free(x);
    return NULL;
}

static ac_context *context_get(ac_comm *c, ac_bucket *b, const ac_call *call, uint64_t site)
{
    for (ac_context *x = b->contexts; x; x = x->next)
        if (x->site == site) return x;
    if (!context_admit(c, call->collective, site)) return NULL;
    ac_context *x = context_create(c, b, call, site);
    if (!x) {
        out_of_memory("a tuning context");
        return NULL;
    }
    x->next = b->contexts;
    b->contexts = x;
    return x;
}

/* The estimate of time saved against native (the report's "saved"): native's agreed mean time
 * per call x calls, minus the time in the algorithms and the overheads. 0 while native's time
 * is unknown. */
static int context_saved(const ac_context *x, double *native, double *saved)
{
    *native = x->strategy->native_seconds(x->state);
    *saved = *native * (double)x->calls - x->seconds - x->overhead[0] - x->overhead[1];
    return *native >= 0.0;
}

static void report_context(FILE *f, const ac_context *x)
{
    char site[128];
    ac_site_describe(x->site, site, sizeof site);
    fprintf(f,
            "{\"bytes\": %zu, \"count\": %d, \"site\": \"%s\", \"calls\": %ld, "
            "\"candidates\": %d, \"seconds\": %.9g, "
            "\"overhead\": {\"deciding_seconds\": %.9g, \"deciding_calls\": %ld, "
            "\"settled_seconds\": %.9g, \"settled_calls\": %ld}",
            x->bucket->bytes, x->bucket->count, site, x->calls, x->ncandidates, x->seconds,
            x->overhead[1], x->overhead_calls[1], x->overhead[0], x->overhead_calls[0]);
    double native, saved;
    if (context_saved(x, &native, &saved))
        fprintf(f, ", \"native_mean_seconds\": %.9g, \"saved_seconds\": %.9g", native, saved);
    fputs(", \"runs\": {", f);
    for (int i = 0, first = 1; i < x->ncandidates; i++)
        if (x->candidate_calls[i]) {
            fprintf(f, "%s\"%s\": %ld", first ? "" : ", ", x->candidates[i]->name,
                    x->candidate_calls[i]);
            first = 0;
        }
    fputc('}', f);
    ac_strategy_summary sum;
    x->strategy->summarize(x->state, &sum);
    fprintf(f,
            ", \"strategy\": \"%s\", \"stage\": \"%s\", \"chosen\": \"%s\", \"switches\": %d, "
            "\"warm\": %s",
            x->strategy->name, sum.stage, sum.chosen >= 0 ? x->candidates[sum.chosen]->name : "",
            sum.switches, x->warm_from ? "true" : "false");
    if (x->warm_from) fprintf(f, ", \"warm_from\": \"%s\"", x->warm_from);
    if (sum.decision_calls >= 0) fprintf(f, ", \"decision_calls\": %ld", sum.decision_calls);
    x->strategy->report_json(x->state, x->candidates, f);
    fputc('}', f);
}

void ac_select_report_contexts(FILE *f, const ac_comm *c, ac_collective coll)
{
    int first = 1;
    fputc('[', f);
    for (const ac_bucket *b = c->buckets[coll]; b; b = b->next)
        for (const ac_context *x = b->contexts; x; x = x->next) {
            if (!first) fputs(", ", f);
            report_context(f, x);
            first = 0;
        }
    fputc(']', f);
}

void ac_select_report_text(FILE *f, const ac_comm *c, ac_collective coll)
{
    for (const ac_bucket *b = c->buckets[coll]; b; b = b->next)
        for (const ac_context *x = b->contexts; x; x = x->next) {
            char site[128], chosen[64] = "-", decided[32] = "-", switches[16] = "-",
                            o_ms_c[32] = "-", saved[32] = "-";
            ac_site_describe(x->site, site, sizeof site);
            ac_strategy_summary sum;
            x->strategy->summarize(x->state, &sum);
            if (sum.chosen >= 0)
                snprintf(chosen, sizeof chosen, "%s", x->candidates[sum.chosen]->name);
            if (sum.decision_calls >= 0)
                snprintf(decided, sizeof decided, "%ld", sum.decision_calls);
            if (sum.o_ms_c >= 0.0) snprintf(o_ms_c, sizeof o_ms_c, "%.6f", sum.o_ms_c);
            snprintf(switches, sizeof switches, "%d", sum.switches);
            double native, estimate;
            if (context_saved(x, &native, &estimate))
                snprintf(saved, sizeof saved, "%+.6f", estimate);
            fprintf(f, "  %-14s %-14s %9zu %-26.26s %7ld %-28.28s %7s %4s %9.6f %9s %9.6f %10s\n",
                    c->name, ac_collective_name(coll), b->bytes, site, x->calls, chosen, decided,
                    switches, x->overhead[1], o_ms_c, x->overhead[0], saved);
        }
}

void ac_select_report_buckets(FILE *f, const ac_comm *c, ac_collective coll)
{
    int first = 1;
    fputc('[', f);
    for (const ac_bucket *b = c->buckets[coll]; b; b = b->next) {
        const ac_site_tracker *t = &b->sites;
        fprintf(f,
                "%s{\"bytes\": %zu, \"count\": %d, \"calls\": %ld, \"site_mode\": \"%s\", "
                "\"site_agreements\": %ld, \"site_period\": %d, \"site_relearns\": %d, "
                "\"site_changed_at\": %ld, \"siteless_reason\": \"%s\"}",
                first ? "" : ", ", b->bytes, b->count, t->calls, ac_site_mode_name(t->mode),
                t->learn_calls, t->mode == AC_SITE_PREDICT ? t->period : 0, t->relearns,
                t->changed_at, ac_site_why_name(t->why));
        first = 0;
    }
    fputc(']', f);
}

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

static const MPI_Op builtin_ops[] = {MPI_MAX,    MPI_MIN,    MPI_SUM,     MPI_PROD, MPI_LAND,
                                     MPI_BAND,   MPI_LOR,    MPI_BOR,     MPI_LXOR, MPI_BXOR,
                                     MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};

void ac_call_set_op(ac_call *call, MPI_Op op)
{
    call->op = op;
    call->op_builtin = 0;
    for (size_t i = 0; i < sizeof builtin_ops / sizeof builtin_ops[0]; i++)
        if (op == builtin_ops[i]) call->op_builtin = 1;
    call->op_commutative = 0;
    PMPI_Op_commutative(op, &call->op_commutative);
}

size_t ac_signature_bytes(MPI_Aint count, MPI_Datatype dtype)
{
    int size = 0;
    PMPI_Type_size(dtype, &size);
    return (size_t)count * (size_t)size;
}

const ac_algorithm *ac_select(ac_comm *c, const ac_call *call, const void *caller)
{
    const ac_algorithm *forced = ac_g.forced[call->collective];
    const char *why = NULL;
    c->pending[call->collective] = NULL;
    if (forced) {
        if (ac_applicable(forced, call, &why)) return forced;
        ac_coll_stats *s = &c->stats[call->collective];
        if (!s->warned && c->rank == 0)
            ac_log_warn("%s=%s does not apply to this call on %s (size %d): it needs %s; "
                        "using native",
                        ac_collective_env(call->collective), forced->name, c->name, c->size, why);
        s->warned = 1;
        return ac_registry_native(call->collective);
    }
    if (!ac_g.strategy) return ac_registry_native(call->collective);
    /* The layer's bookkeeping is timed on every call while a context of this communicator is
     * deciding, and on one call in OVERHEAD_SAMPLE once they all have settled (weighted; two
     * clock reads fewer on the others). Agreements are always timed (agree_max). */
    c->select_weight = c->deciding > 0                     ? 1
                       : ++c->ticks % OVERHEAD_SAMPLE == 0 ? OVERHEAD_SAMPLE
                                                           : 0;
    double start = c->select_weight ? ac_now() : 0.0;
    ac_bucket *b = bucket_get(c, call);
    ac_context *x = b ? context_get(c, b, call, bucket_site(c, b, caller)) : NULL;
    if (!x) {
        /* Beyond the contexts' limits a table still rules: its lookup needs no context. */
        const ac_algorithm *rule =
            ac_g.strategy == &ac_strategy_table ? table_rule_of(c, call) : NULL;
        if (rule && ac_applicable(rule, call, NULL)) return rule;
        c->untuned[call->collective]++;
        return ac_registry_native(call->collective);
    }
    x->deciding = x->strategy->deciding(x->state) != 0;
    x->last = x->strategy->choose(x->state);
    c->pending[call->collective] = x;
    c->select_start = start;
    return x->candidates[x->last];
}

void ac_observe(ac_comm *c, const ac_call *call, const ac_algorithm *alg, double start)
{
    double end = ac_now(), seconds = end - start;
    ac_coll_stats *s = &c->stats[call->collective];
    ac_algorithm_list r = ac_registry_for_size(call->collective, c->size);
    int index = ac_algorithm_list_index(r, alg);
    s->calls++;
    s->bytes += (double)call->bytes;
    s->seconds += seconds;
    if (!s->alg_calls) {
        s->alg_calls = calloc((size_t)r.count, sizeof *s->alg_calls);
        s->alg_seconds = calloc((size_t)r.count, sizeof *s->alg_seconds);
        if (!s->alg_calls || !s->alg_seconds) {
            free(s->alg_calls);
            free(s->alg_seconds);
            s->alg_calls = NULL;
            s->alg_seconds = NULL;
        }
    }
    if (s->alg_calls && index >= 0) {
        s->alg_calls[index]++;
        s->alg_seconds[index] += seconds;
    }
    if (s->sizes || (s->sizes = calloc(AC_PROFILE_BINS, sizeof *s->sizes))) {
        ac_size_bin *bin = &s->sizes[ac_profile_bin(call->bytes)];
        bin->calls++;
        bin->seconds += seconds;
    }
    ac_g.last_algorithm = alg;
    ac_context *x = c->pending[call->collective];
    if (x) {
        ac_agreement agree = {agree_max, x, c->rank};
        c->pending[call->collective] = NULL;
        x->calls++;
        x->candidate_calls[x->last]++;
        x->seconds += seconds;
        x->agree_seconds = 0.0;
        int rc = x->strategy->observe(x->state, x->last, seconds, &agree);
        if (rc != MPI_SUCCESS) agreement_failed("strategy's agreement", c, rc);
        /* the layer's own time: choosing (select_start to start), this bookkeeping, and the
         * agreements in it (exact; the rest weighted when sampled, see ac_select) */
        double own = x->agree_seconds;
        if (c->select_weight)
            own += c->select_weight *
                   ((start - c->select_start) + (ac_now() - end) - x->agree_seconds);
        x->overhead[x->deciding] += own;
        x->overhead_calls[x->deciding]++;
        int deciding = x->strategy->deciding(x->state) != 0;
        c->deciding += deciding - x->counted;
        x->counted = deciding;
    }
}
