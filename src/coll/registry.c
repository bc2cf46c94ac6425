/*
 * registry.c - access to the per-collective tables, and the one place where requirements are
 * checked (invariant 4: an inapplicable algorithm is never run or timed).
 */
#include "coll/coll.h"
#include "coll/common/mesh.h"
#include "coll/common/shm.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct collective_info {
    const char *name;
    const char *env;
    const ac_registry *registry;
} collective_info;

static const collective_info collectives[AC_NUM_COLLECTIVES] = {
    [AC_ALLGATHER] = {"allgather", "AUTOCOLL_ALLGATHER", &ac_registry_allgather},
    [AC_ALLGATHERV] = {"allgatherv", "AUTOCOLL_ALLGATHERV", &ac_registry_allgatherv},
    [AC_ALLREDUCE] = {"allreduce", "AUTOCOLL_ALLREDUCE", &ac_registry_allreduce},
    [AC_ALLTOALL] = {"alltoall", "AUTOCOLL_ALLTOALL", &ac_registry_alltoall},
    [AC_ALLTOALLV] = {"alltoallv", "AUTOCOLL_ALLTOALLV", &ac_registry_alltoallv},
    [AC_BARRIER] = {"barrier", "AUTOCOLL_BARRIER", &ac_registry_barrier},
    [AC_BCAST] = {"bcast", "AUTOCOLL_BCAST", &ac_registry_bcast},
    [AC_GATHER] = {"gather", "AUTOCOLL_GATHER", &ac_registry_gather},
    [AC_REDUCE] = {"reduce", "AUTOCOLL_REDUCE", &ac_registry_reduce},
    [AC_REDUCE_SCATTER] = {"reduce_scatter", "AUTOCOLL_REDUCE_SCATTER",
                           &ac_registry_reduce_scatter},
    [AC_REDUCE_SCATTER_BLOCK] = {"reduce_scatter_block", "AUTOCOLL_REDUCE_SCATTER_BLOCK",
                                 &ac_registry_reduce_scatter_block},
    [AC_SCATTER] = {"scatter", "AUTOCOLL_SCATTER", &ac_registry_scatter},
    [AC_NEIGHBOR_ALLGATHER] = {"neighbor_allgather", "AUTOCOLL_NEIGHBOR_ALLGATHER",
                               &ac_registry_neighbor_allgather},
    [AC_NEIGHBOR_ALLGATHERV] = {"neighbor_allgatherv", "AUTOCOLL_NEIGHBOR_ALLGATHERV",
                                &ac_registry_neighbor_allgatherv},
    [AC_NEIGHBOR_ALLTOALL] = {"neighbor_alltoall", "AUTOCOLL_NEIGHBOR_ALLTOALL",
                              &ac_registry_neighbor_alltoall},
    [AC_NEIGHBOR_ALLTOALLV] = {"neighbor_alltoallv", "AUTOCOLL_NEIGHBOR_ALLTOALLV",
                               &ac_registry_neighbor_alltoallv},
    [AC_NEIGHBOR_ALLTOALLW] = {"neighbor_alltoallw", "AUTOCOLL_NEIGHBOR_ALLTOALLW",
                               &ac_registry_neighbor_alltoallw},
};

const char *ac_collective_name(ac_collective c)
{
    return collectives[c].name;
}

const char *ac_collective_env(ac_collective c)
{
    return collectives[c].env;
}

int ac_collective_neighborhood(ac_collective c)
{
    return c >= AC_NEIGHBOR_ALLGATHER && c <= AC_NEIGHBOR_ALLTOALLW;
}

int ac_collective_from_name(const char *name)
{
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++)
        if (strcmp(collectives[c].name, name) == 0) return c;
    return -1;
}

ac_registry ac_registry_of(ac_collective c)
{
    return *collectives[c].registry;
}

/* The list of one (collective, size); its entries follow it in the same allocation. */
typedef struct size_list {
    int size;
    ac_algorithm_list list;
    struct size_list *next;
    const ac_algorithm *entries[];
} size_list;

/* Per collective, the lists made so far, newest first: read without a lock (a list is complete
 * before it is published, and never changes or goes), added to under size_lists_lock. */
static _Atomic(size_list *) size_lists[AC_NUM_COLLECTIVES];
static pthread_mutex_t size_lists_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int out_of_memory; /* a list could not be made: sizes without one get none */

static const size_list *size_list_find(ac_collective c, int size)
{
    const size_list *l = atomic_load_explicit(&size_lists[c], memory_order_acquire);
    while (l && l->size != size)
        l = l->next;
    return l;
}

/* The static entries, then the family instances of `size`; NULL without memory. */
static size_list *size_list_make(ac_collective c, int size)
{
    ac_registry r = ac_registry_of(c);
    int ninstances = ac_orthogonal_instances(c, size, NULL);
    int nhier = ac_hier_instances(c, size, NULL);
    if (ninstances < 0 || nhier < 0) return NULL;
    size_t n = (size_t)(r.count + ninstances + nhier);
    size_list *l = malloc(sizeof *l + sizeof l->entries[0] * n);
    if (!l) return NULL;
    for (int i = 0; i < r.count; i++)
        l->entries[i] = &r.algorithms[i];
    if (ac_orthogonal_instances(c, size, l->entries + r.count) != ninstances ||
        ac_hier_instances(c, size, l->entries + r.count + ninstances) != nhier) {
        free(l);
        return NULL;
    }
    l->size = size;
    l->list = (ac_algorithm_list){l->entries, (int)n};
    return l;
}

ac_algorithm_list ac_registry_for_size(ac_collective c, int size)
{
    const size_list *found = size_list_find(c, size);
    if (found) return found->list;
    if (atomic_load(&out_of_memory)) return (ac_algorithm_list){NULL, 0};
    pthread_mutex_lock(&size_lists_lock);
    size_list *made = NULL;
    if (!(found = size_list_find(c, size)) && !atomic_load(&out_of_memory)) {
        if ((made = size_list_make(c, size))) {
            made->next = atomic_load_explicit(&size_lists[c], memory_order_relaxed);
            atomic_store_explicit(&size_lists[c], made, memory_order_release);
            found = made;
        } else {
            atomic_store(&out_of_memory, 1);
        }
    }
    pthread_mutex_unlock(&size_lists_lock);
    return found ? found->list : (ac_algorithm_list){NULL, 0};
}

int ac_algorithm_list_index(ac_algorithm_list list, const ac_algorithm *alg)
{
    /* a static entry is at its place in its table: every list starts with the table */
    ac_registry r = ac_registry_of(alg->collective);
    uintptr_t at = (uintptr_t)alg, first = (uintptr_t)r.algorithms;
    if (at >= first && at < (uintptr_t)(r.algorithms + r.count)) {
        int i = (int)(alg - r.algorithms);
        return i < list.count ? i : -1;
    }
    for (int i = r.count; i < list.count; i++)
        if (list.algorithms[i] == alg) return i;
    return -1;
}

const char *ac_attribute_value(const char *attributes, const char *key, size_t *len)
{
    size_t klen = strlen(key);
    for (const char *p = attributes; p && *p;) {
        size_t word = strcspn(p, " ");
        if (word > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            *len = word - klen - 1;
            return p + klen + 1;
        }
        p += word;
        while (*p == ' ') p++;
    }
    *len = 0;
    return NULL;
}

const ac_algorithm *ac_registry_find(ac_collective c, const char *name)
{
    ac_registry r = ac_registry_of(c);
    for (int i = 0; i < r.count; i++)
        if (strcmp(r.algorithms[i].name, name) == 0) return &r.algorithms[i];
    const ac_algorithm *a = ac_orthogonal_find(c, name);
    return a ? a : ac_hier_find(c, name);
}

int ac_registry_reads_nodes(ac_collective c, int size)
{
    if (ac_hier_instances(c, size, NULL) > 0) return 1;
    ac_registry r = ac_registry_of(c);
    for (int i = 0; i < r.count; i++)
        if (r.algorithms[i].requires & AC_REQ_SHARED_MEMORY) return 1;
    return 0;
}

const ac_algorithm *ac_registry_native(ac_collective c)
{
    return ac_registry_find(c, "native");
}

const ac_algorithm *ac_registry_fallback(const ac_call *call)
{
    ac_registry r = ac_registry_of(call->collective);
    for (int i = 0; i < r.count; i++)
        if (ac_applicable(&r.algorithms[i], call, NULL)) return &r.algorithms[i];
    return ac_registry_native(call->collective);
}

/* The layout factors the size, and the phase algorithm applies on every line of the mesh. */
static int mesh_layout_met(const ac_algorithm *alg, const ac_call *call)
{
    int n[3], ndims = ac_mesh_layout(call->size, alg->params, n);
    if (ndims == 0 || !alg->params->phase) return 0;
    for (int d = 0; d < ndims; d++) {
        ac_call line = *call;
        line.size = n[d];
        if (!ac_applicable(alg->params->phase, &line, NULL)) return 0;
    }
    return 1;
}

/* A hierarchical instance's sub-call of phase `ph` (0, 1, 2: intra before, inter, intra after)
 * on `size` ranks. */
static ac_call hier_phase_call(const ac_hier_family *f, const ac_algorithm *phase, int ph,
                               const ac_call *call, int size, int k)
{
    double scale = ac_hier_scale(f->bytes[ph], call->size, call->nodes.ppn_max, k);
    ac_call sub = *call;
    sub.collective = phase->collective;
    sub.size = size;
    sub.count = (int)(call->count * scale);
    sub.bytes = (size_t)((double)call->bytes * scale);
    /* inside a node: one node of all its ranks (the phase's communicator is the node's) */
    sub.nodes = ph == 1 ? (ac_node_shape){0} : (ac_node_shape){1, size, size, 1};
    return sub;
}

/* The requirements that depend on the communicator's size. */
enum { SIZE_REQUIREMENTS = AC_REQ_POWER_OF_TWO | AC_REQ_MESH_LAYOUT | AC_REQ_COUNT_GE_SIZE };

/* The node layout is known and has two levels; k leaders fit every node; a non-commutative
 * reduction keeps its order; runs of a node's blocks (equal_nodes) are of one size, or the
 * inter-node phase is native (the library's v-collective) and one leader a node; every phase
 * applies where it runs (hierarchical.c). */
static int nodes_met(const ac_algorithm *alg, const ac_call *call)
{
    const ac_node_shape *n = &call->nodes;
    const ac_params *p = alg->params;
    const ac_hier_family *f = ac_hier_family_of(alg->collective);
    int k = p && p->leaders > 1 ? p->leaders : 1;
    if (!f || !p || !p->phase || n->nodes < 2 || n->ppn_max < 2 || n->ppn_min < k) return 0;
    if (f->ordered && call->op != MPI_OP_NULL && !call->op_commutative && !n->blocks) return 0;
    if (f->equal_nodes && n->ppn_min != n->ppn_max &&
        (k > 1 || p->phase != ac_registry_native(f->inter)))
        return 0;
    ac_call inter = hier_phase_call(f, p->phase, 1, call, n->nodes, k);
    if (!ac_applicable(p->phase, &inter, NULL)) return 0;
    for (int i = 0; i < 2; i++) {
        const ac_algorithm *a = p->intra[i];
        if (!a) continue;
        if (n->ppn_min != n->ppn_max && (a->requires & SIZE_REQUIREMENTS)) return 0;
        ac_call low = hier_phase_call(f, a, i == 0 ? 0 : 2, call, n->ppn_min, k);
        ac_call high = hier_phase_call(f, a, i == 0 ? 0 : 2, call, n->ppn_max, k);
        if (!ac_applicable(a, &low, NULL) || !ac_applicable(a, &high, NULL)) return 0;
    }
    return 1;
}

static int power_of_two_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return call->size > 0 && (call->size & (call->size - 1)) == 0;
}

static int commutative_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return call->op_commutative;
}

static int builtin_op_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return call->op_builtin;
}

static int count_ge_size_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return call->count >= call->size;
}

static int message_fits_int_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return call->bytes <= INT_MAX;
}

static int blocks_fit_int_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return (unsigned long long)call->size * call->bytes <= INT_MAX;
}

static int cartesian_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return call->topology == AC_TOPOLOGY_CARTESIAN;
}

static int window_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return call->window;
}

/* The build says (CMakeLists.txt): 0 under SimGrid 3.32, whose SMPI aborts in them. */
static int library_neighbor_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    (void)call;
    return AUTOCOLL_NEIGHBOR_COLLECTIVES;
}

/* Met by every call: the layout is learned where a blocking call needs it; nonblocking calls
 * check that it is known (select.c). */
static int node_layout_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    (void)call;
    return 1;
}

/* Every rank on one node, and the node's shared memory usable (common/shm.h). */
static int shared_memory_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return call->nodes.nodes == 1 && ac_shm_available();
}

static size_t max_scratch = (size_t)64 << 20; /* AUTOCOLL_MAX_SCRATCH_MIB's default */

void ac_coll_set_max_scratch(size_t bytes)
{
    max_scratch = bytes;
}

/* size^2 x bytes within the bound, in double: no overflow at any size. */
static int table_fits_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return (double)call->size * call->size * (double)call->bytes <= (double)max_scratch;
}

static int gathered_fits_int_met(const ac_algorithm *alg, const ac_call *call)
{
    (void)alg;
    return (long long)call->size * call->count <= INT_MAX &&
           (unsigned long long)call->size * call->bytes <= INT_MAX;
}

/* Every requirement: its flag, its text for humans, its check. Checked in this order, so the
 * first unmet one is the reason given. */
typedef struct requirement {
    unsigned flag;
    const char *text;
    int (*met)(const ac_algorithm *alg, const ac_call *call);
} requirement;

static const requirement requirements[] = {
    {AC_REQ_POWER_OF_TWO, "power-of-two communicator size", power_of_two_met},
    {AC_REQ_COMMUTATIVE, "commutative op", commutative_met},
    {AC_REQ_BUILTIN_OP, "predefined op", builtin_op_met},
    {AC_REQ_COUNT_GE_SIZE, "count >= communicator size", count_ge_size_met},
    {AC_REQ_MESH_LAYOUT, "a communicator size the mesh layout factors", mesh_layout_met},
    {AC_REQ_MESSAGE_FITS_INT, "message fits in an int", message_fits_int_met},
    {AC_REQ_BLOCKS_FIT_INT, "all blocks together fit in an int", blocks_fit_int_met},
    {AC_REQ_GATHERED_FITS_INT, "size * message fits in an int", gathered_fits_int_met},
    {AC_REQ_CARTESIAN, "a Cartesian communicator", cartesian_met},
    {AC_REQ_WINDOW, "a one-sided window over the communicator", window_met},
    {AC_REQ_LIBRARY_NEIGHBOR, "the MPI library's own neighbourhood collectives",
     library_neighbor_met},
    {AC_REQ_NODES,
     "ranks on two nodes or more with a node of several (as many as its leaders), nodes in rank "
     "order for a non-commutative op, nodes of one size for a non-native phase among the leaders "
     "of a gather or scatter, and every phase applicable",
     nodes_met},
    {AC_REQ_NODE_LAYOUT, "the node layout known (a nonblocking call's)", node_layout_met},
    {AC_REQ_SHARED_MEMORY,
     "every rank on one node, with a shared-memory window (under SimGrid, a platform that "
     "prices a copy: autocoll/shm-copy-bw)",
     shared_memory_met},
    {AC_REQ_TABLE_FITS,
     "size x size x message (its table of every block) within AUTOCOLL_MAX_SCRATCH_MIB",
     table_fits_met},
};

int ac_applicable(const ac_algorithm *alg, const ac_call *call, const char **why)
{
    if (!alg->requires) return 1; /* most entries: nothing to check (table lookups, mesh lines) */
    for (size_t i = 0; i < sizeof requirements / sizeof requirements[0]; i++) {
        if ((alg->requires & requirements[i].flag) && !requirements[i].met(alg, call)) {
            if (why) *why = requirements[i].text;
            return 0;
        }
    }
    return 1;
}

void ac_requirements_text(const ac_algorithm *alg, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof requirements / sizeof requirements[0]; i++) {
        if (alg->requires & requirements[i].flag)
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
                                     used ? ", " : "", requirements[i].text);
    }
}

/* The longest byte stream one tree edge carries: the whole message for bcast and reduce, at
 * most every rank's block for scatter and gather (the root's edges carry whole subtrees). */
static size_t longest_stream(const ac_call *call)
{
    if (call->collective == AC_SCATTER || call->collective == AC_GATHER)
        return call->bytes * (size_t)(call->size > 0 ? call->size : 1);
    return call->bytes;
}

/* A segment of at least the longest stream is no segmentation at all. */
static int effective_segment(const ac_params *p, const ac_call *call)
{
    return p->segment > 0 && (size_t)p->segment < longest_stream(call) ? p->segment : 0;
}

int ac_same_messages(const ac_algorithm *a, const ac_algorithm *b, const ac_call *call)
{
    if (a == b) return 1;
    /* the union's members are all function pointers: compare one as the others */
    if (a->collective != b->collective || a->fn.bcast != b->fn.bcast || !a->params || !b->params)
        return 0;
    const ac_params *p = a->params, *q = b->params;
    return p->sync == q->sync && p->dims == q->dims && p->tree == q->tree && p->k == q->k &&
           p->allgatherv == q->allgatherv && p->alltoallv == q->alltoallv && p->inner == q->inner &&
           p->inner2 == q->inner2 && p->layout[0] == q->layout[0] && p->layout[1] == q->layout[1] &&
           p->phase == q->phase && p->exchange == q->exchange &&
           p->exchange_schedule == q->exchange_schedule && p->intra[0] == q->intra[0] &&
           p->intra[1] == q->intra[1] && p->leaders == q->leaders &&
           effective_segment(p, call) == effective_segment(q, call);
}

static unsigned long fnv1a(unsigned long h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ul;
    return h;
}

unsigned long ac_registry_fingerprint(void)
{
    unsigned long h = 14695981039346656037ul;
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        ac_registry r = ac_registry_of((ac_collective)c);
        for (int i = 0; i < r.count; i++)
            h = (fnv1a(h, r.algorithms[i].name) ^ (unsigned long)c) * 1099511628211ul;
        const ac_hier_family *hf = ac_hier_family_of((ac_collective)c);
        for (int i = 0; hf && i < AC_HIER_PHASES; i++) {
            h = fnv1a(fnv1a(h, " hier-intra "), hf->intra_phases[i] ? hf->intra_phases[i] : "");
            h = fnv1a(fnv1a(h, " hier-inter "), hf->inter_phases[i] ? hf->inter_phases[i] : "");
        }
        for (int i = 0; hf && i < AC_HIER_LEADERS; i++)
            h = (h ^ (unsigned long)hf->leaders[i]) * 1099511628211ul;
        const ac_family *f = ac_orthogonal_family((ac_collective)c);
        if (!f) continue;
        h = fnv1a(fnv1a(h, f->name), f->names);
        for (int ph = 0; ph < AC_FAMILY_PHASES; ph++)
            h = fnv1a(fnv1a(h, " "), f->phases[ph]);
        h = (h ^ (unsigned long)c) * 1099511628211ul;
    }
    return h;
}
