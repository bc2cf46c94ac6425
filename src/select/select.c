/*
 * select.c - precedence of choices, tuning contexts, agreement, and accounting of every call.
 *
 * Precedence: an applicable algorithm forced by AUTOCOLL_<COLL> > the strategy of the call's
 * tuning context > native. A context is (communicator, collective, message size, count, op
 * properties): every part of the key is equal on every rank, so every rank finds the same
 * context and asks its strategy at the same calls (invariant 1). Its candidates are the
 * algorithms applicable to it, native first, so a strategy never runs an inapplicable one
 * (invariant 4). A communicator tunes at most AUTOCOLL_MAX_SIZES contexts per collective;
 * further calls run native and are counted.
 */
#include "select/select.h"
#include "core/config.h"
#include "core/log.h"
#include "select/star.h"
#include "select/strategy.h"

#include <stdlib.h>
#include <string.h>

typedef struct ac_context {
    size_t bytes;
    int count, op_builtin, op_commutative; /* the rest of the key */
    const ac_algorithm **candidates;       /* native first */
    int ncandidates;
    void *state; /* the strategy's */
    int last;    /* candidate of the call in flight */
    long calls;
    struct ac_context *next;
} ac_context;

typedef struct strategy_entry {
    const char *name;
    const ac_strategy *ops; /* NULL: native */
} strategy_entry;

static const strategy_entry strategies[] = {
    {"native", NULL},
    {"star", &ac_strategy_star},
};

void ac_select_init(void)
{
    const char *name = ac_config_get("AUTOCOLL_STRATEGY");
    int rank = 0, found = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ac_g.strategy = NULL;
    for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++)
        if (strcmp(strategies[i].name, name) == 0) {
            ac_g.strategy = strategies[i].ops;
            found = 1;
        }
    if (!found && rank == 0)
        ac_log_warn("AUTOCOLL_STRATEGY=%s: no such strategy (native, star); using native", name);
    ac_g.max_sizes = (int)ac_config_long("AUTOCOLL_MAX_SIZES");
    if (ac_g.max_sizes < 1) ac_g.max_sizes = 1;
    ac_star_params star = {
        .iter = (int)ac_config_long("AUTOCOLL_STAR_ITER"),
        .epsilon = ac_config_double("AUTOCOLL_STAR_EPSILON"),
        .delta_init = 2,
        .delta_max = (int)ac_config_long("AUTOCOLL_STAR_DELTA_MAX"),
        .grouping = strcmp(ac_config_get("AUTOCOLL_STAR_GROUPING"), "off") != 0,
    };
    ac_star_set_params(&star);
}

/* The message size that keys a context: alltoallv's differs between ranks, so it has one
 * context per communicator whatever its sizes. */
static size_t key_bytes(const ac_call *call)
{
    return call->collective == AC_ALLTOALLV ? 0 : call->bytes;
}

static ac_context *context_create(const ac_call *call)
{
    ac_registry r = ac_registry_of(call->collective);
    ac_context *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->candidates = malloc(sizeof(ac_algorithm *) * (size_t)r.count);
    if (!x->candidates) goto fail;
    for (int i = 0; i < r.count; i++)
        if (ac_applicable(&r.algorithms[i], call, NULL))
            x->candidates[x->ncandidates++] = &r.algorithms[i];
    x->bytes = key_bytes(call);
    x->count = call->count;
    x->op_builtin = call->op_builtin;
    x->op_commutative = call->op_commutative;
    x->state = ac_g.strategy->create(x->candidates, x->ncandidates);
    if (!x->state) goto fail;
    return x;
fail:
    free(x->candidates);
    free(x);
    return NULL;
}

static ac_context *context_get(ac_comm *c, const ac_call *call)
{
    ac_collective coll = call->collective;
    for (ac_context *x = c->contexts[coll]; x; x = x->next)
        if (x->bytes == key_bytes(call) && x->count == call->count &&
            x->op_builtin == call->op_builtin && x->op_commutative == call->op_commutative)
            return x;
    if (c->ncontexts[coll] >= ac_g.max_sizes) return NULL;
    ac_context *x = context_create(call);
    if (!x) {
        /* Memory is local: a rank that fails would diverge from the others. Fail loudly. */
        ac_log_error("out of memory for a tuning context");
        PMPI_Abort(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
        return NULL;
    }
    x->next = c->contexts[coll];
    c->contexts[coll] = x;
    c->ncontexts[coll]++;
    return x;
}

void ac_select_report_contexts(FILE *f, const ac_comm *c, ac_collective coll)
{
    fputc('[', f);
    for (const ac_context *x = c->contexts[coll]; x; x = x->next) {
        fprintf(f, "%s{\"bytes\": %zu, \"count\": %d, \"calls\": %ld, \"candidates\": %d",
                x == c->contexts[coll] ? "" : ", ", x->bytes, x->count, x->calls,
                x->ncandidates);
        if (ac_g.strategy == &ac_strategy_star) {
            ac_star_stats st;
            ac_star_get_stats(x->state, &st);
            fprintf(f,
                    ", \"strategy\": \"star\", \"stage\": \"%s\", \"chosen\": \"%s\", "
                    "\"measure_select_calls\": %ld, \"monitor_adapt_calls\": %ld, "
                    "\"switches\": %d, \"delta\": %d",
                    st.stage ? "monitor_adapt" : "measure_select",
                    st.chosen >= 0 ? x->candidates[st.chosen]->name : "", st.measure_calls,
                    st.monitor_calls, st.switches, st.delta);
        }
        fputc('}', f);
    }
    fputc(']', f);
}

static int agree_max(void *ctx, double *values, int n)
{
    const ac_comm *c = ctx;
    return PMPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, MPI_MAX, c->pcomm);
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

const ac_algorithm *ac_select(ac_comm *c, const ac_call *call)
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
    ac_context *x = context_get(c, call);
    if (!x) {
        c->untuned[call->collective]++;
        return ac_registry_native(call->collective);
    }
    x->last = ac_g.strategy->choose(x->state);
    c->pending[call->collective] = x;
    return x->candidates[x->last];
}

void ac_observe(ac_comm *c, const ac_call *call, const ac_algorithm *alg, double seconds)
{
    ac_coll_stats *s = &c->stats[call->collective];
    ac_registry r = ac_registry_of(call->collective);
    int index = (int)(alg - r.algorithms);
    s->calls++;
    s->bytes += (double)call->bytes;
    s->seconds += seconds;
    s->alg_calls[index]++;
    s->alg_seconds[index] += seconds;
    ac_context *x = c->pending[call->collective];
    if (x) {
        ac_agreement agree = {agree_max, c};
        c->pending[call->collective] = NULL;
        x->calls++;
        if (ac_g.strategy->observe(x->state, x->last, seconds, &agree) != MPI_SUCCESS)
            ac_log_error("the %s strategy's agreement failed on %s", ac_g.strategy->name, c->name);
    }
}
