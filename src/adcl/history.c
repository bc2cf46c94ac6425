/*
 * history.c - history warm start for ADCL requests (AUTOCOLL_HISTORY; docs/adcl.md,
 * docs/history.md).
 *
 * What a request learned (per function: the agreed statistic of its search and the number of
 * measurements behind it) is kept in the history file under a key that names the exchange
 * across runs: the function set (the predefined set's name, or a user set's name and a hash
 * of its functions' names), the communicator size, the topology (Cartesian: dims and periods;
 * generic: dimensions and, per dimension and side, how many processes have a neighbour), the
 * vector (dims, components, the datatype's size, its vmap: halo width, counts), and whether a
 * timer judges the request. Rank 0's key is broadcast when the request is created, so the key
 * is equal on every rank (vectors of an uneven decomposition differ; rank 0's stands for them).
 * Whether a timer judges the request is known only once the program has attached one, so the
 * key is completed, and the warm start decided, at the request's first call.
 *
 * A request of a known key starts warm: the best known applicable function runs from the first
 * call (its search is created again from what history knows: select/rounds.h, ac_rounds_warm).
 * Every rank read the same section at MPI_Init (rank 0's broadcast), so every rank makes the
 * same choice. A forced function still wins. Knowledge is
 * written by rank 0 of the request's communicator when the request is freed, or at
 * ADCL_Finalize / MPI_Finalize for requests still live: only what this run measured (a warm
 * request measures nothing and adds nothing).
 *
 * Its record in the file (core/store.h), declared to history at MPI_Init (ac_adcl_history_declare):
 *   adcl <request key> <n> then n times: <function> <seconds> <variance> <samples>
 * matched by the key's text (one token of printable characters, shorter than KEY_MAX), its
 * functions by name, and merged like a context.
 */
#include "adcl/adcl.h"
#include "core/log.h"
#include "select/history.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_MAX 512 /* a request's key, with its NUL */

/* Whether t is a request key: 1 to KEY_MAX - 1 printable characters, no blank. */
static int valid_key(const char *t)
{
    size_t n = strlen(t);
    if (n == 0 || n >= KEY_MAX) return 0;
    for (; *t; t++)
        if (!isgraph((unsigned char)*t)) return 0;
    return 1;
}

/* The kind of a request's record: its key is one token, kept as it is. */
static int adcl_key(char *const *t, char *key, size_t size)
{
    if (!valid_key(t[0]) || strlen(t[0]) >= size) return -1;
    strcpy(key, t[0]);
    return 0;
}

const ac_store_kind ac_adcl_history_kind = {"adcl", 1, adcl_key};

void ac_adcl_history_declare(void)
{
    ac_history_declare(&ac_adcl_history_kind);
}

/* Appends to key[KEY_MAX]; *room is set to 0 when it overflows. */
static void add(char *key, int *room, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *key, int *room, const char *fmt, ...)
{
    size_t used = strlen(key);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(key + used, KEY_MAX - used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= KEY_MAX - used) *room = 0;
}

/* A name as key characters: letters, digits and "_-." kept, anything else '_'. */
static void add_name(char *key, int *room, const char *name)
{
    char clean[128];
    size_t n = 0;
    for (; *name && n + 1 < sizeof clean; name++) {
        char c = *name;
        int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '_' || c == '-' || c == '.';
        clean[n++] = keep ? c : '_';
    }
    clean[n] = '\0';
    add(key, room, "%s", clean);
}

static unsigned long long fnv1a(unsigned long long hash, const char *s)
{
    for (const char *c = s;; c++) { /* the terminating NUL too: "ab","c" differs from "a","bc" */
        hash = (hash ^ (unsigned char)*c) * 1099511628211ull;
        if (!*c) return hash;
    }
}

static void add_set(char *key, int *room, ADCL_Fnctset set)
{
    add(key, room, "set=");
    if (set == ADCL_FNCTSET_NEIGHBORHOOD || set->owned) { /* predefined */
        add_name(key, room, set->name);
        return;
    }
    unsigned long long hash = fnv1a(14695981039346656037ull, set->name);
    for (int f = 0; f < set->n; f++) hash = fnv1a(hash, set->fncts[f]->name);
    add(key, room, "user:");
    add_name(key, room, set->name);
    add(key, room, ":%d:%016llx", set->n, hash);
}

/* Collective over r->comm (the generic topology's shape is a sum over the processes). */
static int add_topology(char *key, int *room, ADCL_Request r)
{
    ADCL_Topology t = r->topo;
    int dims[AC_HALO_MAXDIMS], periods[AC_HALO_MAXDIMS], coords[AC_HALO_MAXDIMS];
    if (t->cartesian) {
        int rc = PMPI_Cart_get(t->comm, t->ndims, dims, periods, coords);
        if (rc != MPI_SUCCESS) return rc;
        add(key, room, ";topo=cart:");
        for (int d = 0; d < t->ndims; d++) add(key, room, "%s%d", d ? "x" : "", dims[d]);
        add(key, room, ":");
        for (int d = 0; d < t->ndims; d++) add(key, room, "%c", periods[d] ? 'p' : 'o');
        return MPI_SUCCESS;
    }
    int links[2 * AC_HALO_MAXDIMS];
    for (int d = 0; d < t->ndims; d++)
        for (int s = 0; s < 2; s++) links[2 * d + s] = t->nbr[d][s] != MPI_PROC_NULL;
    int rc = PMPI_Allreduce(MPI_IN_PLACE, links, 2 * t->ndims, MPI_INT, MPI_SUM, r->comm);
    if (rc != MPI_SUCCESS) return rc;
    add(key, room, ";topo=generic:%d:", t->ndims);
    for (int i = 0; i < 2 * t->ndims; i++) add(key, room, "%s%d", i ? "," : "", links[i]);
    return MPI_SUCCESS;
}

static int add_vector(char *key, int *room, ADCL_Vector v)
{
    int size, rc;
    if (!v) {
        add(key, room, ";vec=none");
        return MPI_SUCCESS;
    }
    if ((rc = PMPI_Type_size(v->dat, &size)) != MPI_SUCCESS) return rc;
    add(key, room, ";vec=");
    for (int d = 0; d < v->ndims; d++) add(key, room, "%s%d", d ? "x" : "", v->dims[d]);
    add(key, room, ";nc=%d;type=%d", v->nc, size);
    /* the vmap: its kind by name, then the numbers its kind sets (the others are 0) */
    static const char *const vmap_names[] = {
        [ADCL_VECTOR_HALO] = "halo",           [ADCL_VECTOR_ALL] = "all",
        [ADCL_VECTOR_LIST] = "list",           [ADCL_VECTOR_ALLREDUCE] = "allreduce",
        [ADCL_VECTOR_ALLTOALL] = "alltoall"};
    const struct ADCL_vmap_s *m = v->vmap;
    add(key, room, ";vmap=%s", vmap_names[m->type]);
    if (m->hwidth) add(key, room, ";halo=%d", m->hwidth);
    if (m->size) add(key, room, ";list=%d", m->size);
    if (m->scnt || m->rcnt) add(key, room, ";counts=%d:%d", m->scnt, m->rcnt);
    return MPI_SUCCESS;
}

int ac_adcl_history_prepare(ADCL_Request r)
{
    char key[KEY_MAX] = "";
    int room = 1, rc;
    r->history_key = NULL;
    if (!ac_history_path()) return MPI_SUCCESS; /* off: the same on every rank */
    add_set(key, &room, r->fnctset);
    add(key, &room, ";np=%d", r->size);
    if ((rc = add_topology(key, &room, r)) != MPI_SUCCESS) return rc;
    if ((rc = add_vector(key, &room, r->vec)) != MPI_SUCCESS) return rc;
    if (!room) key[0] = '\0'; /* too long for the file: rank 0's decides for every rank */
    if ((rc = PMPI_Bcast(key, KEY_MAX, MPI_CHAR, 0, r->comm)) != MPI_SUCCESS)
        return rc;
    /* ";timer=N" is added at the first call: room for it */
    if (!key[0] || strlen(key) + 16 >= KEY_MAX) return MPI_SUCCESS;
    if (!(r->history_key = malloc(sizeof key))) return MPI_ERR_NO_MEM;
    memcpy(r->history_key, key, sizeof key);
    return MPI_SUCCESS;
}

/* The names of the request's functions (an array the caller frees), or NULL. */
static const char **function_names(ADCL_Request r)
{
    const char **names = malloc((size_t)r->fnctset->n * sizeof *names);
    for (int f = 0; names && f < r->fnctset->n; f++) names[f] = r->fnctset->fncts[f]->name;
    return names;
}

void ac_adcl_history_start(ADCL_Request r)
{
    if (!r->history_key || ac_rounds_of(r->search)->calls > 0 || r->history_started) return;
    r->history_started = 1;
    strcat(r->history_key, r->timer ? ";timer=1" : ";timer=0");
    int n = r->fnctset->n;
    const char **names = function_names(r);
    ac_knowledge *know = calloc((size_t)n, sizeof *know);
    void *warm = NULL;
    int known = 0;
    /* Out of memory on some rank: its search would diverge from the others'. Fail loudly. */
    if (!names || !know) {
        ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory for the history of a request");
        ac_log_abort(MPI_ERR_NO_MEM);
    }
    ac_history_lookup_record(&ac_adcl_history_kind, r->history_key, names, n, know);
    for (int f = 0; f < n; f++) known += know[f].samples > 0;
    if (known) { /* the search again, from what history knows (no call ran yet) */
        if (!(warm = r->strategy->create(NULL, n, know, &r->facts))) {
            ac_adcl_fail(ADCL_NO_MEMORY, __func__, "out of memory for the history of a request");
            ac_log_abort(MPI_ERR_NO_MEM);
        }
        r->strategy->destroy(r->search);
        r->search = warm;
    }
    free(names);
    free(know);
}

void ac_adcl_history_save(ADCL_Request r)
{
    if (!r->history_key || !r->history_started || r->history_saved || r->rank != 0) return;
    r->history_saved = 1;
    int n = r->fnctset->n;
    const char **names = function_names(r);
    ac_knowledge *know = calloc((size_t)n, sizeof *know);
    char *lines = NULL;
    size_t len = 0;
    FILE *m = names && know ? open_memstream(&lines, &len) : NULL;
    if (m) { /* what this run measured: the agreed value and the measurements behind it */
        r->strategy->save(r->search, know);
        ac_history_write_record(m, &ac_adcl_history_kind, r->history_key, names, n, know);
        fclose(m);
        ac_history_keep(lines);
    }
    free(lines);
    free(names);
    free(know);
}
