/*
 * collective.c - the predefined function sets ADCL_FNCTSET_ALLREDUCE, _ALLTOALL and
 * _ALLGATHERV: the request's vector reduced or exchanged in place by one of autocoll's
 * algorithms for the collective (src/coll/, the registry; the library's own, "native", is one
 * of them), selected like any function set.
 *
 *   allreduce   vmap ADCL_Vmap_allreduce_allocate(op): every element of the vector, combined
 *               with op over the ranks (MPI_Allreduce with MPI_IN_PLACE)
 *   alltoall    vmap ADCL_Vmap_alltoall_allocate(scnt, rcnt), scnt == rcnt: the first
 *               size * rcnt elements, block i to rank i (MPI_Alltoall with MPI_IN_PLACE)
 *   allgatherv  vmap ADCL_Vmap_list_allocate(size, rcnts, displ): rank i's block of rcnts[i]
 *               elements at displ[i] to every rank (MPI_Allgatherv with MPI_IN_PLACE)
 *
 * A request's functions are the algorithms the registry has for the communicator's size that
 * apply to the call (ac_applicable: values equal on every rank), in registry order; their
 * attributes are the registry's "key=value" attributes, a function without a key having the
 * value "none". The function set is the request's own, released with it.
 */
#include "adcl/adcl.h"

#include <stdlib.h>
#include <string.h>

struct ADCL_fnctset_s ADCL_fnctset_allreduce = {.name = "allreduce",
                                                .collective_set = 1,
                                                .collective = AC_ALLREDUCE};
struct ADCL_fnctset_s ADCL_fnctset_alltoall = {.name = "alltoall",
                                               .collective_set = 1,
                                               .collective = AC_ALLTOALL};
struct ADCL_fnctset_s ADCL_fnctset_allgatherv = {.name = "allgatherv",
                                                 .collective_set = 1,
                                                 .collective = AC_ALLGATHERV};

int ac_adcl_collective_set(ADCL_Fnctset set)
{
    return set == ADCL_FNCTSET_ALLREDUCE || set == ADCL_FNCTSET_ALLTOALL ||
           set == ADCL_FNCTSET_ALLGATHERV;
}

/* Elements of the vector (components included). */
static long elements(ADCL_Vector v)
{
    long n = v->nc > 0 ? v->nc : 1;
    for (int i = 0; i < v->ndims; i++) n *= v->dims[i];
    return n;
}

/* The call's facts, or an error message. */
static const char *describe_call(ADCL_Request r, ADCL_Fnctset set, ac_call *call)
{
    ADCL_Vector v = r->vec;
    ADCL_Vmap m = v->vmap;
    int size;
    long cells = elements(v), total = 0;
    PMPI_Type_size(v->dat, &size);
    memset(call, 0, sizeof *call);
    call->collective = set->collective;
    call->size = r->size;
    call->op = MPI_OP_NULL;
    switch (set->collective) {
    case AC_ALLREDUCE:
        if (m->type != ADCL_VECTOR_ALLREDUCE)
            return "ADCL_FNCTSET_ALLREDUCE needs an allreduce vmap";
        if (cells > 2147483647L) return "the vector has more than INT_MAX elements";
        call->count = (int)cells;
        ac_call_set_op(call, m->op);
        call->bytes = (size_t)cells * (size_t)size;
        return NULL;
    case AC_ALLTOALL:
        if (m->type != ADCL_VECTOR_ALLTOALL) return "ADCL_FNCTSET_ALLTOALL needs an alltoall vmap";
        if (m->scnt != m->rcnt) return "in place, the send and receive counts must be equal";
        if ((long)m->rcnt * r->size > cells) return "the vector is smaller than size * rcnt";
        call->bytes = (size_t)m->rcnt * (size_t)size;
        return NULL;
    default: /* AC_ALLGATHERV */
        if (m->type != ADCL_VECTOR_LIST || m->size != r->size)
            return "ADCL_FNCTSET_ALLGATHERV needs a list vmap of one block per rank";
        for (int i = 0; i < m->size; i++) {
            if (m->rcnts[i] < 0 || m->displ[i] < 0 || (long)m->displ[i] + m->rcnts[i] > cells)
                return "a block of the list vmap lies outside the vector";
            total += m->rcnts[i];
        }
        call->bytes = (size_t)total * (size_t)size;
        return NULL;
    }
}

/* The request's own set: functions, attributes (parsed from the registry) and their storage. */
typedef struct owned_set {
    struct ADCL_fnctset_s set;
    struct ADCL_function_s *functions;
    ADCL_Function *handles;
    struct ADCL_attrset_s attrset;
    struct ADCL_attribute_s *attributes;
    ADCL_Attribute *attribute_handles;
    int *attrvals;
} owned_set;

/* The index of `s` (length len) in names[0..n), appending a copy when absent; -1: no memory. */
static int intern(char ***names, int *n, const char *s, size_t len)
{
    for (int i = 0; i < *n; i++)
        if (strlen((*names)[i]) == len && strncmp((*names)[i], s, len) == 0) return i;
    char **grown = realloc(*names, (size_t)(*n + 1) * sizeof *grown);
    if (!grown) return -1;
    *names = grown;
    if (!(grown[*n] = malloc(len + 1))) return -1;
    memcpy(grown[*n], s, len);
    grown[*n][len] = '\0';
    return (*n)++;
}

void ac_adcl_collective_release(ADCL_Fnctset set)
{
    owned_set *o = (owned_set *)set;
    if (!o) return;
    for (int a = 0; a < o->attrset.n; a++) {
        struct ADCL_attribute_s *attr = &o->attributes[a];
        for (int i = 0; i < attr->n; i++) free(attr->value_names[i]);
        free(attr->value_names);
        free(attr->values);
        free(attr->name);
    }
    free(o->attributes);
    free(o->attribute_handles);
    free(o->attrvals);
    free(o->functions);
    free(o->handles);
    free(o);
}

/* Builds the attributes of the n algorithms into o; 0 when memory runs out. */
static int build_attributes(owned_set *o, const ac_algorithm *const *algs, int n)
{
    char **keys = NULL;
    int nkeys = 0;
    for (int f = 0; f < n; f++) /* every key, in order of appearance */
        for (const char *p = algs[f]->attributes; p && *p;) {
            size_t word = strcspn(p, " "), key = strcspn(p, "=");
            if (key < word && intern(&keys, &nkeys, p, key) < 0) return 0;
            p += word;
            while (*p == ' ') p++;
        }
    o->attributes = calloc((size_t)(nkeys ? nkeys : 1), sizeof *o->attributes);
    o->attribute_handles = calloc((size_t)(nkeys ? nkeys : 1), sizeof *o->attribute_handles);
    o->attrvals = calloc((size_t)(n * (nkeys ? nkeys : 1)), sizeof *o->attrvals);
    if (!o->attributes || !o->attribute_handles || !o->attrvals) return 0;
    o->attrset.n = nkeys;
    o->attrset.attrs = o->attribute_handles;
    for (int a = 0; a < nkeys; a++) {
        struct ADCL_attribute_s *attr = &o->attributes[a];
        attr->name = keys[a];
        o->attribute_handles[a] = attr;
        for (int f = 0; f < n; f++) {
            size_t len;
            const char *v = ac_attribute_value(algs[f]->attributes, keys[a], &len);
            int i = v ? intern(&attr->value_names, &attr->n, v, len)
                      : intern(&attr->value_names, &attr->n, "none", 4);
            if (i < 0) return 0;
            o->attrvals[f * nkeys + a] = i;
        }
        attr->values = malloc((size_t)attr->n * sizeof *attr->values);
        if (!attr->values) return 0;
        for (int i = 0; i < attr->n; i++) attr->values[i] = i;
    }
    free(keys); /* the names now belong to the attributes */
    return 1;
}

int ac_adcl_collective_prepare(ADCL_Request r, ADCL_Fnctset set, const char **why)
{
    ac_call call;
    *why = describe_call(r, set, &call);
    if (*why) return ADCL_INVALID_VECTOR;
    ac_algorithm_list list = ac_registry_for_size(set->collective, r->size);
    const ac_algorithm **algs = malloc((size_t)(list.count ? list.count : 1) * sizeof *algs);
    owned_set *o = calloc(1, sizeof *o);
    int n = 0;
    if (!algs || !o) {
        free(algs);
        free(o);
        *why = "out of memory";
        return ADCL_NO_MEMORY;
    }
    for (int i = 0; i < list.count; i++)
        if (ac_applicable(list.algorithms[i], &call, NULL)) algs[n++] = list.algorithms[i];
    o->functions = calloc((size_t)(n ? n : 1), sizeof *o->functions);
    o->handles = calloc((size_t)(n ? n : 1), sizeof *o->handles);
    if (n == 0 || !o->functions || !o->handles ||
        !build_attributes(o, (const ac_algorithm *const *)algs, n)) {
        free(algs);
        ac_adcl_collective_release(&o->set);
        *why = n == 0 ? "no algorithm applies" : "out of memory";
        return n == 0 ? ADCL_NOT_SUPPORTED : ADCL_NO_MEMORY;
    }
    for (int f = 0; f < n; f++) {
        ADCL_Function fn = &o->functions[f];
        fn->name = (char *)algs[f]->name;
        fn->coll = algs[f];
        fn->attrset = &o->attrset;
        fn->attrvals = &o->attrvals[f * o->attrset.n];
        o->handles[f] = fn;
    }
    free(algs);
    o->set.name = set->name;
    o->set.n = n;
    o->set.fncts = o->handles;
    o->set.owned = 1;
    r->fnctset = &o->set;
    return ADCL_SUCCESS;
}

int ac_adcl_collective_run(ADCL_Request r, const ac_algorithm *alg)
{
    ADCL_Vector v = r->vec;
    ADCL_Vmap m = v->vmap;
    switch (alg->collective) {
    case AC_ALLREDUCE:
        return alg->fn.allreduce(MPI_IN_PLACE, v->base, (int)elements(v), v->dat, m->op, r->comm,
                                 alg->params);
    case AC_ALLTOALL:
        return alg->fn.alltoall(MPI_IN_PLACE, m->scnt, v->dat, v->base, m->rcnt, v->dat, r->comm,
                                alg->params);
    default: /* AC_ALLGATHERV */
        return alg->fn.allgatherv(MPI_IN_PLACE, 0, v->dat, v->base, m->rcnts, m->displ, v->dat,
                                  r->comm, alg->params);
    }
}
