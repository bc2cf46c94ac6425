/*
 * select.c - precedence of choices and accounting of every call.
 */
#include "select/select.h"
#include "core/log.h"

static const MPI_Op builtin_ops[] = {MPI_MAX,    MPI_MIN,    MPI_SUM,     MPI_PROD, MPI_LAND,
                                     MPI_BAND,   MPI_LOR,    MPI_BOR,     MPI_LXOR, MPI_BXOR,
                                     MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};

void ac_call_set_op(ac_call *call, MPI_Op op) {
    call->op = op;
    call->op_builtin = 0;
    for (size_t i = 0; i < sizeof builtin_ops / sizeof builtin_ops[0]; i++)
        if (op == builtin_ops[i]) call->op_builtin = 1;
    call->op_commutative = 0;
    PMPI_Op_commutative(op, &call->op_commutative);
}

size_t ac_signature_bytes(MPI_Aint count, MPI_Datatype dtype) {
    int size = 0;
    PMPI_Type_size(dtype, &size);
    return (size_t)count * (size_t)size;
}

const ac_algorithm *ac_select(ac_comm *c, const ac_call *call) {
    const ac_algorithm *forced = ac_g.forced[call->collective];
    const char *why = NULL;
    if (forced) {
        if (ac_applicable(forced, call, &why)) return forced;
        ac_coll_stats *s = &c->stats[call->collective];
        if (!s->warned && c->rank == 0)
            ac_log_warn("%s=%s does not apply to this call on %s (size %d): it needs %s; "
                        "using native",
                        ac_collective_env(call->collective), forced->name, c->name, c->size, why);
        s->warned = 1;
    }
    return ac_registry_native(call->collective);
}

void ac_observe(ac_comm *c, const ac_call *call, const ac_algorithm *alg, double seconds) {
    ac_coll_stats *s = &c->stats[call->collective];
    ac_registry r = ac_registry_of(call->collective);
    int index = (int)(alg - r.algorithms);
    s->calls++;
    s->bytes += (double)call->bytes;
    s->seconds += seconds;
    s->alg_calls[index]++;
    s->alg_seconds[index] += seconds;
}
