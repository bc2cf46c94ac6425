/*
 * adcl_halo.c - the ADCL neighbourhood exchange against a reference made with plain
 * MPI_Sendrecv, through the public API only (ADCL.h).
 *
 *   adcl_halo forced [NAME]     each of the 21 implementations forced in turn
 *                               (AUTOCOLL_ADCL_FUNCTION, set here between ADCL_Init calls), or
 *                               only NAME
 *   adcl_halo search            selection (AUTOCOLL_ADCL_SEARCH as set by the caller): every
 *                               call's result checked, every rank runs the same function at
 *                               every call, the same winner on all ranks; with and without a
 *                               timer
 *   adcl_halo generic [NAME]    as forced, on ADCL_Topology_create_generic (no Cartesian
 *                               communicator: Send_Recv_pair and Neighbor_alltoallw cannot run)
 *                               and a vector registered from the test's own memory
 *                               (ADCL_Vector_register_generic)
 *   adcl_halo config            forcing by ADCL's config.adcl (ADCL_EMETHOD_SELECTION: name)
 *                               in a folder of its own: the name runs; an unknown name leaves
 *                               selection on; AUTOCOLL_ADCL_FUNCTION takes precedence
 *   adcl_halo user              a user function set (ADCL_Attribute/Attrset/Function/Fnctset):
 *                               three functions, 0, 3 and 6 ms slow; selection (the search as
 *                               set by the caller) must run one function per call on all ranks
 *                               and end on the fast one
 *   adcl_halo user-comm         the same on ADCL_Topology_create_generic(0, 0, NULL, ...,
 *                               comm): a topology of the communicator alone
 *   adcl_halo collectives       ADCL_FNCTSET_ALLREDUCE, _ALLTOALL and _ALLGATHERV on integer
 *                               vectors, in place, every call of the selection checked against
 *                               closed forms, every rank running the same algorithm
 *   adcl_halo self-test         exchanges broken on purpose (none, into the opposite halo, a
 *                               corner written) run through the API must each be caught
 *   adcl_halo errors            invalid arguments give error codes, not crashes
 *   adcl_halo history W CALLS [timed,keep]   one request of halo width W, CALLS calls checked
 *                               (tests/tools/test_adcl_history.py: history warm start)
 *
 * Cases: 2-D and 3-D vectors of doubles, halo widths 1 and 2, no components and 2 components,
 * Cartesian topologies open, periodic and mixed (dimension 0 periodic), on MPI_Dims_create's
 * grid of the ranks. Every rank's cells hold values unique to the rank, the cell and the call;
 * halos start as a sentinel. An exchange that does nothing, writes a face into the wrong halo
 * or writes an edge or corner cell differs from the reference, and every case with a neighbour
 * checks that the reference itself changed halo cells (the comparison is not vacuous).
 * Prints "adcl_halo: ok" on success; exits 1 on the first failure.
 */
#include <ADCL.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXD 4
#define CALLS 3

static const char *const names[] = {
    "IsendIrecv_aao",      "IsendIrecv_pair",     "SendIrecv_aao",    "SendIrecv_pair",
    "IsendIrecv_aao_pack", "IsendIrecv_pair_pack", "SendIrecv_aao_pack", "SendIrecv_pair_pack",
    "Send_Recv_pair",      "Sendrecv_pair",       "Send_Recv_pair_pack", "Sendrecv_pair_pack",
    "WinFencePut_aao",     "WinFenceGet_aao",     "PostStartPut_aao", "PostStartGet_aao",
    "WinFencePut_pair",    "WinFenceGet_pair",    "PostStartPut_pair", "PostStartGet_pair",
    "Neighbor_alltoallw"};
#define NNAMES ((int)(sizeof names / sizeof names[0]))

static int world_rank;
static int generic; /* generic topologies and registered vectors (adcl_halo generic) */

static void fail(const char *what)
{
    fprintf(stderr, "adcl_halo[%d]: FAIL: %s\n", world_rank, what);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

typedef struct test_case {
    int ndims, hwidth, nc, periodic; /* periodic: 0 none, 1 all, 2 dimension 0 only */
} test_case;

/* The shape of a case's vector: spatial dims (halos included), then nc components. */
typedef struct shape {
    int total, full[MAXD + 1];
    long cells;
} shape;

static shape shape_of(const test_case *c)
{
    shape sh = {.total = c->ndims + (c->nc > 0), .cells = 1};
    for (int d = 0; d < c->ndims; d++) sh.full[d] = 3 * c->hwidth + d + 1;
    if (c->nc > 0) sh.full[c->ndims] = c->nc;
    for (int i = 0; i < sh.total; i++) sh.cells *= sh.full[i];
    return sh;
}

static long linear(const shape *sh, const int *idx)
{
    long l = 0;
    for (int i = 0; i < sh->total; i++) l = l * sh->full[i] + idx[i];
    return l;
}

/* Calls f on every index of the box [lo, hi) (odometer order). */
static void each(const shape *sh, const int *lo, const int *hi, void (*f)(long, void *),
                 void *arg)
{
    int idx[MAXD + 1];
    for (int i = 0; i < sh->total; i++) {
        if (lo[i] >= hi[i]) return;
        idx[i] = lo[i];
    }
    for (;;) {
        f(linear(sh, idx), arg);
        int i = sh->total - 1;
        while (i >= 0 && ++idx[i] == hi[i]) {
            idx[i] = lo[i];
            i--;
        }
        if (i < 0) return;
    }
}

/* The face of dimension d: w cells from `start` in d, the interior elsewhere, components whole. */
static void face(const test_case *c, const shape *sh, int d, int start, int *lo, int *hi)
{
    for (int i = 0; i < sh->total; i++) {
        if (i >= c->ndims) {
            lo[i] = 0;
            hi[i] = sh->full[i];
        } else if (i == d) {
            lo[i] = start;
            hi[i] = start + c->hwidth;
        } else {
            lo[i] = c->hwidth;
            hi[i] = sh->full[i] - c->hwidth;
        }
    }
}

typedef struct cursor {
    double *a, *buf;
    long n;
} cursor;

static void gather_cell(long l, void *arg)
{
    cursor *k = arg;
    k->buf[k->n++] = k->a[l];
}

static void scatter_cell(long l, void *arg)
{
    cursor *k = arg;
    k->a[l] = k->buf[k->n++];
}

/* Initial values: interior cells unique to (rank, cell, call), halo cells a sentinel. */
static void fill(const test_case *c, const shape *sh, double *a, int rank, int call)
{
    int idx[MAXD + 1];
    for (long l = 0; l < sh->cells; l++) {
        long r = l;
        for (int i = sh->total - 1; i >= 0; i--) {
            idx[i] = (int)(r % sh->full[i]);
            r /= sh->full[i];
        }
        int interior = 1;
        for (int d = 0; d < c->ndims; d++)
            if (idx[d] < c->hwidth || idx[d] >= sh->full[d] - c->hwidth) interior = 0;
        a[l] = interior ? rank * 1e6 + l + call * 0.25 : -1.0 - rank;
    }
}

/* The reference exchange: per dimension, two shifts with MPI_Sendrecv of hand-packed faces
 * (swap: into the opposite halo, for the self-test). */
static void reference(const test_case *c, const shape *sh, double *a, MPI_Comm cart, int swap)
{
    long most = sh->cells;
    double *sbuf = malloc((size_t)most * sizeof *sbuf), *rbuf = malloc((size_t)most * sizeof *rbuf);
    for (int d = 0; d < c->ndims; d++) {
        int nbr[2];
        MPI_Cart_shift(cart, d, 1, &nbr[0], &nbr[1]);
        for (int s = 0; s < 2; s++) { /* send through side s, receive the halo of side 1 - s */
            int lo[MAXD + 1], hi[MAXD + 1];
            cursor k = {a, sbuf, 0};
            face(c, sh, d, s == 0 ? c->hwidth : sh->full[d] - 2 * c->hwidth, lo, hi);
            each(sh, lo, hi, gather_cell, &k);
            MPI_Sendrecv(sbuf, (int)k.n, MPI_DOUBLE, nbr[s], 7, rbuf, (int)k.n, MPI_DOUBLE,
                         nbr[1 - s], 7, cart, MPI_STATUS_IGNORE);
            if (nbr[1 - s] == MPI_PROC_NULL) continue;
            k = (cursor){a, rbuf, 0};
            int side = swap ? s : 1 - s; /* swap: the self-test's wrong halo */
            face(c, sh, d, side == 0 ? 0 : sh->full[d] - c->hwidth, lo, hi);
            each(sh, lo, hi, scatter_cell, &k);
        }
    }
    free(sbuf);
    free(rbuf);
}

/* A case's topology and vector, and the reference's copy. */
typedef struct fixture {
    test_case c;
    shape sh;
    MPI_Comm cart;
    int rank, has_neighbour, self_neighbour, double_neighbour;
    int window_ok, neighbor_ok; /* what this MPI library can do on the topology (probed) */
    ADCL_Vmap vmap;
    ADCL_Vector vec;
    ADCL_Topology topo;
    void *data;    /* the pointer-of-pointers array */
    void *storage; /* generic: the test's own elements under it */
    double *flat, *ref;
} fixture;

/* A pointer-of-pointers array over new contiguous storage of sh (the test's own, for
 * ADCL_Vector_register_generic): levels of pointers in one block, as ADCL programs build them. */
static void *pointer_levels(const shape *sh, void **storage)
{
    size_t total = 0, level = 1;
    double *cells = calloc((size_t)sh->cells, sizeof *cells);
    for (int k = 0; k < sh->total - 1; k++) total += level *= (size_t)sh->full[k];
    void **block = malloc((total ? total : 1) * sizeof *block), **lev = block;
    if (!cells || !block) fail("out of memory");
    *storage = cells;
    if (sh->total == 1) {
        free(block);
        return cells;
    }
    level = 1;
    for (int k = 0; k < sh->total - 1; k++) {
        level *= (size_t)sh->full[k];
        void **next = lev + level;
        for (size_t i = 0; i < level; i++)
            lev[i] = k == sh->total - 2 ? (void *)(cells + i * (size_t)sh->full[k + 1])
                                        : (void *)(next + i * (size_t)sh->full[k + 1]);
        lev = next;
    }
    return block;
}

/* What the library underneath can do on the case's topology, found independently of the layer:
 * whether MPI_Win_create works (Open MPI 4.1.4 fails on one process), and, when a dimension has
 * one process on both sides, whether MPI_Neighbor_alltoallw delivers the block sent to the
 * right neighbour into its left block as MPI 4.1 says (MPICH 4.0.2 does not). The layer must
 * run the one-sided implementations and Neighbor_alltoallw exactly when these hold. */
static void probe(fixture *fx)
{
    double cell;
    MPI_Win win;
    int ok, nd, send[2 * MAXD], recv[2 * MAXD], counts[2 * MAXD];
    MPI_Aint displs[2 * MAXD];
    MPI_Datatype types[2 * MAXD];
    MPI_Comm_set_errhandler(fx->cart, MPI_ERRORS_RETURN);
    ok = MPI_Win_create(&cell, sizeof cell, 1, MPI_INFO_NULL, fx->cart, &win) == MPI_SUCCESS;
    MPI_Comm_set_errhandler(fx->cart, MPI_ERRORS_ARE_FATAL);
    MPI_Allreduce(&ok, &fx->window_ok, 1, MPI_INT, MPI_MIN, fx->cart);
    if (fx->window_ok) MPI_Win_free(&win);
    fx->neighbor_ok = 1;
    if (!fx->double_neighbour) return;
    MPI_Cartdim_get(fx->cart, &nd);
    for (int i = 0; i < 2 * nd; i++) {
        send[i] = 100 * fx->rank + i;
        counts[i] = 1;
        displs[i] = i * (MPI_Aint)sizeof(int);
        types[i] = MPI_INT;
    }
    MPI_Neighbor_alltoallw(send, counts, displs, types, recv, counts, displs, types, fx->cart);
    ok = 1;
    for (int d = 0; d < nd; d++) {
        int nbr[2];
        MPI_Cart_shift(fx->cart, d, 1, &nbr[0], &nbr[1]);
        for (int s = 0; s < 2; s++)
            if (nbr[s] != MPI_PROC_NULL && recv[2 * d + s] != 100 * nbr[s] + 2 * d + 1 - s) ok = 0;
    }
    MPI_Allreduce(&ok, &fx->neighbor_ok, 1, MPI_INT, MPI_MIN, fx->cart);
}

static void setup(fixture *fx, const test_case *c)
{
    int size, dims[MAXD] = {0}, periods[MAXD] = {0};
    memset(fx, 0, sizeof *fx);
    fx->c = *c;
    fx->sh = shape_of(c);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, c->ndims, dims);
    for (int d = 0; d < c->ndims; d++)
        periods[d] = c->periodic == 1 || (c->periodic == 2 && d == 0);
    MPI_Cart_create(MPI_COMM_WORLD, c->ndims, dims, periods, 0, &fx->cart);
    MPI_Comm_rank(fx->cart, &fx->rank);
    for (int d = 0; d < c->ndims; d++) {
        int l, r;
        MPI_Cart_shift(fx->cart, d, 1, &l, &r);
        if (l != MPI_PROC_NULL || r != MPI_PROC_NULL) fx->has_neighbour = 1;
        if (periods[d] && dims[d] == 1) fx->self_neighbour = 1;
        if (periods[d] && dims[d] <= 2) fx->double_neighbour = 1;
    }
    probe(fx);
    if (ADCL_Vmap_halo_allocate(c->hwidth, &fx->vmap) != ADCL_SUCCESS) fail("Vmap_halo_allocate");
    if (generic) {
        int l[MAXD], r[MAXD], coords[MAXD];
        fx->data = pointer_levels(&fx->sh, &fx->storage);
        if (ADCL_Vector_register_generic(c->ndims, fx->sh.full, c->nc, fx->vmap, MPI_DOUBLE,
                                         &fx->data, &fx->vec) != ADCL_SUCCESS)
            fail("Vector_register_generic");
        for (int d = 0; d < c->ndims; d++) MPI_Cart_shift(fx->cart, d, 1, &l[d], &r[d]);
        MPI_Cart_coords(fx->cart, fx->rank, c->ndims, coords);
        if (ADCL_Topology_create_generic(c->ndims, c->ndims, l, NULL, r, coords,
                                         ADCL_DIRECTION_BOTH, fx->cart,
                                         &fx->topo) != ADCL_SUCCESS)
            fail("Topology_create_generic");
    } else {
        if (ADCL_Vector_allocate_generic(c->ndims, fx->sh.full, c->nc, fx->vmap, MPI_DOUBLE,
                                         &fx->data, &fx->vec) != ADCL_SUCCESS)
            fail("Vector_allocate_generic");
        if (ADCL_Topology_create(fx->cart, &fx->topo) != ADCL_SUCCESS) fail("Topology_create");
    }
    /* The elements lie contiguously under the pointer levels, in C order. */
    void *p = fx->data;
    for (int k = 0; k < fx->sh.total - 1; k++) p = ((void **)p)[0];
    fx->flat = p;
    fx->ref = malloc((size_t)fx->sh.cells * sizeof *fx->ref);
    /* Every cell reached through the pointers is the C-order element. */
    for (long l = 0; l < fx->sh.cells; l++) {
        long r = l;
        int idx[MAXD + 1];
        for (int i = fx->sh.total - 1; i >= 0; i--) {
            idx[i] = (int)(r % fx->sh.full[i]);
            r /= fx->sh.full[i];
        }
        void *q = fx->data;
        for (int k = 0; k < fx->sh.total - 1; k++) q = ((void **)q)[idx[k]];
        if ((double *)q + idx[fx->sh.total - 1] != fx->flat + l) fail("pointer levels");
    }
}

static void teardown(fixture *fx)
{
    if (ADCL_Topology_free(&fx->topo) != ADCL_SUCCESS) fail("Topology_free");
    if (generic) {
        if (ADCL_Vector_deregister(&fx->vec) != ADCL_SUCCESS) fail("Vector_deregister");
        free(fx->storage);
        if (fx->data != fx->storage) free(fx->data);
    } else if (ADCL_Vector_free(&fx->vec) != ADCL_SUCCESS) {
        fail("Vector_free");
    }
    if (ADCL_Vmap_free(&fx->vmap) != ADCL_SUCCESS) fail("Vmap_free");
    MPI_Comm_free(&fx->cart);
    free(fx->ref);
}

static void describe(const fixture *fx, const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s: %d-D, halo %d, nc %d, periodic %s", name, fx->c.ndims, fx->c.hwidth,
             fx->c.nc, fx->c.periodic == 0 ? "none" : fx->c.periodic == 1 ? "all" : "dim 0");
}

/* The first cell where the vector and the reference differ, or -1. */
static long first_difference(const fixture *fx)
{
    for (long l = 0; l < fx->sh.cells; l++)
        if (fx->ref[l] != fx->flat[l]) return l;
    return -1;
}

/* One call of the request, checked against the reference. */
static void exchange_and_check(fixture *fx, ADCL_Request req, int call, int split)
{
    char what[256], *name = NULL;
    fill(&fx->c, &fx->sh, fx->flat, fx->rank, call);
    memcpy(fx->ref, fx->flat, (size_t)fx->sh.cells * sizeof *fx->ref);
    if (ADCL_Request_get_curr_function(req, &name, NULL, NULL, NULL, NULL) != ADCL_SUCCESS)
        fail("get_curr_function");
    describe(fx, name, what, sizeof what);
    int rc = split ? ADCL_Request_init(req) : ADCL_Request_start(req);
    if (rc == ADCL_SUCCESS && split) rc = ADCL_Request_wait(req);
    if (rc != ADCL_SUCCESS) fail(what);
    reference(&fx->c, &fx->sh, fx->ref, fx->cart, 0);
    long changed = 0, wrong = first_difference(fx);
    /* The reference must have moved data wherever there is a neighbour. */
    double *init = malloc((size_t)fx->sh.cells * sizeof *init);
    fill(&fx->c, &fx->sh, init, fx->rank, call);
    for (long l = 0; l < fx->sh.cells; l++) changed += init[l] != fx->ref[l];
    free(init);
    if (wrong >= 0) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s: cell %ld is %g, the reference %g", what, wrong,
                 fx->flat[wrong], fx->ref[wrong]);
        fail(msg);
    }
    if (fx->has_neighbour && changed == 0) fail("the reference exchange changed nothing");
    /* Every rank runs the same function at every call. */
    int size;
    MPI_Comm_size(fx->cart, &size);
    char mine[64] = {0}, *all = malloc((size_t)size * 64);
    snprintf(mine, sizeof mine, "%s", name);
    MPI_Allgather(mine, 64, MPI_CHAR, all, 64, MPI_CHAR, fx->cart);
    for (int r = 0; r < size; r++)
        if (strcmp(all + 64 * r, mine) != 0) fail("ranks run different functions");
    free(all);
    free(name);
}

static const test_case *cases(int *n)
{
    static test_case list[24];
    int k = 0;
    for (int ndims = 2; ndims <= 3; ndims++)
        for (int hwidth = 1; hwidth <= 2; hwidth++)
            for (int nc = 0; nc <= 2; nc += 2)
                for (int periodic = 0; periodic <= 2; periodic++)
                    list[k++] = (test_case){ndims, hwidth, nc, periodic};
    *n = k;
    return list;
}

static void forced(const char *only)
{
    int ncases;
    const test_case *list = cases(&ncases);
    for (int i = 0; i < NNAMES; i++) {
        if (only && strcmp(only, names[i]) != 0) continue;
        setenv("AUTOCOLL_ADCL_FUNCTION", names[i], 1);
        if (ADCL_Init() != ADCL_SUCCESS) fail("ADCL_Init");
        for (int k = 0; k < ncases; k++) {
            fixture fx;
            ADCL_Request req;
            char *name = NULL;
            setup(&fx, &list[k]);
            if (ADCL_Request_create(fx.vec, fx.topo, ADCL_FNCTSET_NEIGHBORHOOD, &req) !=
                ADCL_SUCCESS)
                fail("Request_create");
            ADCL_Request_get_curr_function(req, &name, NULL, NULL, NULL, NULL);
            /* Send_Recv_pair cannot run when a process is its own neighbour, the one-sided
             * implementations not without a window, Neighbor_alltoallw not where the library
             * breaks the standard (probe): selection runs instead, after one warning.
             * Everything else runs as forced. */
            int one_sided = strncmp(names[i], "Win", 3) == 0 || strncmp(names[i], "Post", 4) == 0;
            int runs = !(strncmp(names[i], "Send_Recv_pair", 14) == 0 &&
                         (fx.self_neighbour || generic)) &&
                       !(strcmp(names[i], "Neighbor_alltoallw") == 0 && generic) &&
                       !(one_sided && !fx.window_ok) &&
                       !(strcmp(names[i], "Neighbor_alltoallw") == 0 && !fx.neighbor_ok);
            if (runs != (strcmp(name, names[i]) == 0)) {
                char what[256];
                describe(&fx, names[i], what, sizeof what);
                strncat(what, runs ? ": not run as forced" : ": forced though inapplicable",
                        sizeof what - strlen(what) - 1);
                fail(what);
            }
            free(name);
            for (int call = 0; call < CALLS; call++) exchange_and_check(&fx, req, call, call % 2);
            if (ADCL_Request_free(&req) != ADCL_SUCCESS) fail("Request_free");
            teardown(&fx);
        }
        if (ADCL_Finalize() != ADCL_SUCCESS) fail("ADCL_Finalize");
    }
    unsetenv("AUTOCOLL_ADCL_FUNCTION");
}

/* Selection: runs calls until past the longest search (every function, SAMPLES calls each; the
 * race's rounds x calls a round; the model's samples), every call checked, then the winner must be the same on all
 * ranks and stay. */
static void search(void)
{
    int ncases, samples = 30;
    const char *env = getenv("AUTOCOLL_ADCL_SAMPLES"), *search = getenv("AUTOCOLL_ADCL_SEARCH");
    if (env) samples = atoi(env);
    if (search && strcmp(search, "race") == 0) { /* rounds x calls a round, at most */
        const char *per = getenv("AUTOCOLL_RACE_SAMPLES"), *rounds = getenv("AUTOCOLL_RACE_ROUNDS");
        samples = (per ? atoi(per) : 3) * (rounds ? atoi(rounds) : 4);
    }
    if (search && strcmp(search, "model") == 0) { /* at most every function, once */
        const char *per = getenv("AUTOCOLL_ADCL_MODEL_SAMPLES");
        samples = per ? atoi(per) : 3;
    }
    const test_case *list = cases(&ncases);
    if (ADCL_Init() != ADCL_SUCCESS) fail("ADCL_Init");
    for (int k = 0; k < ncases; k += 5) { /* a spread of the cases: selection is slow */
        for (int timed = 0; timed <= 1; timed++) {
            fixture fx;
            ADCL_Request req;
            ADCL_Timer timer = ADCL_TIMER_NULL;
            char *before = NULL, *after = NULL;
            setup(&fx, &list[k]);
            if (ADCL_Request_create(fx.vec, fx.topo, ADCL_FNCTSET_NEIGHBORHOOD, &req) !=
                ADCL_SUCCESS)
                fail("Request_create");
            if (timed && ADCL_Timer_create(1, &req, &timer) != ADCL_SUCCESS) fail("Timer_create");
            int calls = NNAMES * samples + 2;
            for (int call = 0; call < calls; call++) {
                if (timed) ADCL_Timer_start(timer);
                exchange_and_check(&fx, req, call, call % 2);
                if (timed && ADCL_Timer_stop(timer) != ADCL_SUCCESS) fail("Timer_stop");
                if (call == calls - 2)
                    ADCL_Request_get_curr_function(req, &before, NULL, NULL, NULL, NULL);
            }
            char **attr_names = NULL, **value_names = NULL;
            int nattrs = 0, *values = NULL;
            ADCL_Request_get_curr_function(req, &after, &attr_names, &nattrs, &value_names,
                                           &values);
            if (strcmp(before, after) != 0) fail("the winner changed after selection");
            if (nattrs != 4 || strcmp(attr_names[0], "partners") != 0) fail("attribute names");
            if (fx.rank == 0)
                printf("adcl_halo: case %d%s: winner %s (%s=%s %s=%s %s=%s %s=%s)\n", k,
                       timed ? " timed" : "", after, attr_names[0], value_names[0], attr_names[1],
                       value_names[1], attr_names[2], value_names[2], attr_names[3],
                       value_names[3]);
            free(attr_names);
            free(value_names);
            free(values);
            free(before);
            free(after);
            if (timed) ADCL_Timer_free(&timer);
            if (ADCL_Request_free(&req) != ADCL_SUCCESS) fail("Request_free");
            teardown(&fx);
        }
    }
    if (ADCL_Finalize() != ADCL_SUCCESS) fail("ADCL_Finalize");
}

/* History warm start (tests/tools/test_adcl_history.py runs it twice on one AUTOCOLL_HISTORY
 * file): one request on a 3-D periodic vector of halo width `hwidth`, judged by a timer when
 * `timed`, `calls` calls each checked against the reference with every rank on the same
 * function; rank 0 prints the function of the first and of the last call. The request is freed
 * (its knowledge goes to the file then) unless `keep`: then ADCL_Finalize saves it. */
static void history(int hwidth, int calls, int timed, int keep)
{
    const test_case c = {3, hwidth, 0, 1};
    fixture fx;
    ADCL_Request req;
    ADCL_Timer timer = ADCL_TIMER_NULL;
    char *first = NULL, *last = NULL;
    if (ADCL_Init() != ADCL_SUCCESS) fail("ADCL_Init");
    setup(&fx, &c);
    if (ADCL_Request_create(fx.vec, fx.topo, ADCL_FNCTSET_NEIGHBORHOOD, &req) != ADCL_SUCCESS)
        fail("Request_create");
    if (timed && ADCL_Timer_create(1, &req, &timer) != ADCL_SUCCESS) fail("Timer_create");
    for (int call = 0; call < calls; call++) {
        if (timed) ADCL_Timer_start(timer);
        if (call == 0) ADCL_Request_get_curr_function(req, &first, NULL, NULL, NULL, NULL);
        exchange_and_check(&fx, req, call, call % 2);
        if (timed && ADCL_Timer_stop(timer) != ADCL_SUCCESS) fail("Timer_stop");
    }
    ADCL_Request_get_curr_function(req, &last, NULL, NULL, NULL, NULL);
    if (fx.rank == 0) printf("adcl_halo: history first %s last %s\n", first, last);
    free(first);
    free(last);
    if (timed) ADCL_Timer_free(&timer);
    if (!keep && ADCL_Request_free(&req) != ADCL_SUCCESS) fail("Request_free");
    if (ADCL_Finalize() != ADCL_SUCCESS) fail("ADCL_Finalize");
    if (keep && ADCL_Request_free(&req) != ADCL_SUCCESS) fail("Request_free");
    teardown(&fx);
}

/* One request on the first case with config.adcl naming `file_name` (NULL: no file) and
 * AUTOCOLL_ADCL_FUNCTION `env_name` (NULL: unset); the function it runs first must be `want`. */
static void config_case(const char *file_name, const char *env_name, const char *want)
{
    int ncases;
    fixture fx;
    ADCL_Request req;
    char *name = NULL;
    if (world_rank == 0) {
        FILE *f = fopen("config.adcl", "w");
        if (!f) fail("cannot write config.adcl");
        fprintf(f, "# written by adcl_halo\nADCL_EMETHOD_SELECTION: %s\n", file_name);
        fclose(f);
    }
    if (env_name)
        setenv("AUTOCOLL_ADCL_FUNCTION", env_name, 1);
    else
        unsetenv("AUTOCOLL_ADCL_FUNCTION");
    MPI_Barrier(MPI_COMM_WORLD);
    if (ADCL_Init() != ADCL_SUCCESS) fail("ADCL_Init");
    setup(&fx, &cases(&ncases)[0]);
    if (ADCL_Request_create(fx.vec, fx.topo, ADCL_FNCTSET_NEIGHBORHOOD, &req) != ADCL_SUCCESS)
        fail("Request_create");
    ADCL_Request_get_curr_function(req, &name, NULL, NULL, NULL, NULL);
    if (strcmp(name, want) != 0) {
        char msg[300];
        snprintf(msg, sizeof msg, "config.adcl %s, AUTOCOLL_ADCL_FUNCTION %s: runs %s, not %s",
                 file_name, env_name ? env_name : "unset", name, want);
        fail(msg);
    }
    free(name);
    for (int call = 0; call < CALLS; call++) exchange_and_check(&fx, req, call, 0);
    ADCL_Request_free(&req);
    teardown(&fx);
    if (ADCL_Finalize() != ADCL_SUCCESS) fail("ADCL_Finalize");
}

static void config(void)
{
    /* A folder of its own: other tests in the build folder must not see the file. */
    if (world_rank == 0) mkdir("adcl_halo_config", 0755);
    MPI_Barrier(MPI_COMM_WORLD);
    if (chdir("adcl_halo_config") != 0) fail("cannot enter adcl_halo_config");
    config_case("Sendrecv_pair_pack", NULL, "Sendrecv_pair_pack");
    /* Unknown: one warning, then selection, which measures the set in order from its first. */
    config_case("NoSuchFunction", NULL, "IsendIrecv_aao");
    config_case("Sendrecv_pair_pack", "SendIrecv_pair", "SendIrecv_pair");
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank == 0) remove("config.adcl");
}

static void expect(int rc, int want, const char *what);

static int user_ran; /* which user function ran last */

/* The user set's functions: an allreduce, after 0, 20 or 40 ms asleep. The gaps are wide
 * because with 3 ms the fast function lost the selection once under `ctest -j2` (8 ranks on
 * 2 cores: an allreduce then takes milliseconds). */
static void user_work(ADCL_Request req, int id, int micros)
{
    MPI_Comm comm;
    int rank, size, sum = id, total;
    if (ADCL_Request_get_comm(req, &comm, &rank, &size) != ADCL_SUCCESS) fail("Request_get_comm");
    if (micros) usleep((useconds_t)micros);
    MPI_Allreduce(&sum, &total, 1, MPI_INT, MPI_SUM, comm);
    if (total != id * size) fail("ranks ran different user functions");
    user_ran = id;
}

static void user_fast(ADCL_Request req)
{
    user_work(req, 0, 0);
}

static void user_slow(ADCL_Request req)
{
    user_work(req, 1, 20000);
}

static void user_slowest(ADCL_Request req)
{
    user_work(req, 2, 40000);
}

/* The user set on a Cartesian topology, or (comm_only) on ADCL_Topology_create_generic's
 * topology of a communicator alone (no dimensions), as ADCL's own test programs make it. */
static void user(int comm_only)
{
    int values[3] = {10, 20, 30}, vals[3][2] = {{10, 1}, {20, 1}, {30, 0}};
    char *value_names[3] = {"none", "short", "long"}, *flag_names[2] = {"no", "yes"};
    int flags[2] = {0, 1};
    ADCL_Attribute attrs[2];
    ADCL_Attrset attrset;
    ADCL_Function fn[3];
    ADCL_Fnctset set;
    ADCL_Topology topo;
    ADCL_Request req;
    ADCL_work_fnct_ptr *work[3] = {user_fast, user_slow, user_slowest};
    char *names3[3] = {"fast", "slow", "slowest"}, *name = NULL;
    int dims[1] = {0}, periods[1] = {0}, size, samples = 30;
    MPI_Comm cart;
    if (getenv("AUTOCOLL_ADCL_SAMPLES")) samples = atoi(getenv("AUTOCOLL_ADCL_SAMPLES"));
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 1, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
    if (ADCL_Init() != ADCL_SUCCESS ||
        ADCL_Attribute_create(3, values, value_names, "delay", &attrs[0]) != ADCL_SUCCESS ||
        ADCL_Attribute_create(2, flags, flag_names, "sleeps", &attrs[1]) != ADCL_SUCCESS ||
        ADCL_Attrset_create(2, attrs, &attrset) != ADCL_SUCCESS)
        fail("attributes");
    for (int i = 0; i < 3; i++)
        if (ADCL_Function_create(work[i], attrset, vals[i], names3[i], &fn[i]) != ADCL_SUCCESS)
            fail("Function_create");
    int bad[2] = {10, 7};
    ADCL_Function stray;
    expect(ADCL_Function_create(user_fast, attrset, bad, "stray", &stray), ADCL_INVALID_VALUE,
           "a function with a value its attribute lacks");
    if (ADCL_Fnctset_create(3, fn, "user set", &set) != ADCL_SUCCESS ||
        (comm_only ? ADCL_Topology_create_generic(0, 0, NULL, NULL, NULL, NULL,
                                                  ADCL_DIRECTION_BOTH, cart, &topo)
                   : ADCL_Topology_create(cart, &topo)) != ADCL_SUCCESS ||
        ADCL_Request_create(ADCL_VECTOR_NULL, topo, set, &req) != ADCL_SUCCESS)
        fail("user request");
    int ran_each[3] = {0, 0, 0};
    for (int call = 0; call < 3 * samples + 3; call++) {
        int first, ran;
        if (ADCL_Request_start(req) != ADCL_SUCCESS) fail("Request_start");
        ran = user_ran;
        ran_each[ran]++;
        MPI_Allreduce(&ran, &first, 1, MPI_INT, MPI_MAX, cart);
        if (first != ran) fail("ranks ran different user functions");
    }
    ADCL_Request_get_curr_function(req, &name, NULL, NULL, NULL, NULL);
    /* On the communicator-only topology what is tested is that the functions run, not which
     * wins (a verdict of this machine's timings): brute force measures every one of them. */
    if (comm_only && !(ran_each[0] && ran_each[1] && ran_each[2]))
        fail("a user function never ran on the communicator-only topology");
    if (!comm_only && strcmp(name, "fast") != 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "selection ended on %s, not fast", name);
        fail(msg);
    }
    free(name);
    ADCL_Request_free(&req);
    ADCL_Topology_free(&topo);
    ADCL_Fnctset_free(&set);
    for (int i = 0; i < 3; i++) ADCL_Function_free(&fn[i]);
    ADCL_Attrset_free(&attrset);
    ADCL_Attribute_free(&attrs[0]);
    ADCL_Attribute_free(&attrs[1]);
    if (ADCL_Finalize() != ADCL_SUCCESS) fail("ADCL_Finalize");
    MPI_Comm_free(&cart);
}

/* One predefined collective set on an int vector of `n` elements: `calls` calls, each checked
 * by `check` after `fill`. */
static void collective_run(const char *what, ADCL_Fnctset set, ADCL_Vmap vmap, int n,
                           void (*fill_fn)(int *, int, int, int),
                           long (*expected)(int, int, int, int, int), int calls)
{
    int size, rank, dims[1] = {0}, periods[1] = {0}, vdims[1] = {n};
    MPI_Comm cart;
    ADCL_Topology topo;
    ADCL_Vector vec;
    ADCL_Request req;
    int *data;
    char *name = NULL;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 1, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    if (ADCL_Topology_create(cart, &topo) != ADCL_SUCCESS ||
        ADCL_Vector_allocate_generic(1, vdims, 0, vmap, MPI_INT, &data, &vec) != ADCL_SUCCESS ||
        ADCL_Request_create(vec, topo, set, &req) != ADCL_SUCCESS)
        fail(what);
    for (int call = 0; call < calls; call++) {
        char mine[64] = {0}, *all = malloc((size_t)size * 64), msg[300];
        fill_fn(data, n, rank, call);
        ADCL_Request_get_curr_function(req, &name, NULL, NULL, NULL, NULL);
        if (ADCL_Request_start(req) != ADCL_SUCCESS) fail(what);
        for (int i = 0; i < n; i++)
            if (data[i] != expected(i, n, rank, size, call)) {
                snprintf(msg, sizeof msg, "%s by %s, call %d: element %d is %d, not %ld", what,
                         name, call, i, data[i], expected(i, n, rank, size, call));
                fail(msg);
            }
        snprintf(mine, sizeof mine, "%s", name);
        MPI_Allgather(mine, 64, MPI_CHAR, all, 64, MPI_CHAR, cart);
        for (int r = 0; r < size; r++)
            if (strcmp(all + 64 * r, mine) != 0) fail("ranks run different algorithms");
        free(all);
        free(name);
    }
    ADCL_Request_get_curr_function(req, &name, NULL, NULL, NULL, NULL);
    if (rank == 0) printf("adcl_halo: %s: %s after %d calls\n", what, name, calls);
    free(name);
    ADCL_Request_free(&req);
    ADCL_Vector_free(&vec);
    ADCL_Topology_free(&topo);
    MPI_Comm_free(&cart);
}

static void sum_fill(int *d, int n, int rank, int call)
{
    for (int i = 0; i < n; i++) d[i] = rank * 100 + i + call;
}

static long sum_expected(int i, int n, int rank, int size, int call)
{
    (void)n, (void)rank;
    return 100L * size * (size - 1) / 2 + (long)size * (i + call);
}

/* Alltoall of blocks of 2: element k of block j of rank r is r * 1000 + j * 10 + k + call; the
 * last element of the vector is outside the blocks and stays. */
static void a2a_fill(int *d, int n, int rank, int call)
{
    for (int i = 0; i < n - 1; i++) d[i] = rank * 1000 + (i / 2) * 10 + i % 2 + call;
    d[n - 1] = -7;
}

static long a2a_expected(int i, int n, int rank, int size, int call)
{
    (void)size;
    if (i == n - 1) return -7;
    return (i / 2) * 1000L + rank * 10 + i % 2 + call;
}

/* Allgatherv: rank i's block has i + 1 elements at 1 + i (i + 1) / 2 (element 0 is a gap). */
static void agv_fill(int *d, int n, int rank, int call)
{
    for (int i = 0; i < n; i++) d[i] = -1;
    for (int k = 0; k <= rank; k++) d[1 + rank * (rank + 1) / 2 + k] = rank * 1000 + k + call;
}

static long agv_expected(int i, int n, int rank, int size, int call)
{
    (void)n, (void)rank, (void)size;
    if (i == 0) return -1;
    int owner = 0;
    while (1 + (owner + 1) * (owner + 2) / 2 <= i) owner++;
    return owner * 1000L + (i - 1 - owner * (owner + 1) / 2) + call;
}

static void collectives(void)
{
    int size, calls = 200;
    ADCL_Vmap vmap;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *rcnts = malloc((size_t)size * sizeof *rcnts);
    int *displ = malloc((size_t)size * sizeof *displ);
    for (int i = 0; i < size; i++) {
        rcnts[i] = i + 1;
        displ[i] = 1 + i * (i + 1) / 2;
    }
    if (ADCL_Init() != ADCL_SUCCESS) fail("ADCL_Init");
    ADCL_Vmap_allreduce_allocate(MPI_SUM, &vmap);
    collective_run("allreduce", ADCL_FNCTSET_ALLREDUCE, vmap, 21, sum_fill, sum_expected, calls);
    ADCL_Vmap_free(&vmap);
    ADCL_Vmap_alltoall_allocate(2, 2, &vmap);
    collective_run("alltoall", ADCL_FNCTSET_ALLTOALL, vmap, 2 * size + 1, a2a_fill, a2a_expected,
                   calls);
    ADCL_Vmap_free(&vmap);
    ADCL_Vmap_list_allocate(size, rcnts, displ, &vmap);
    collective_run("allgatherv", ADCL_FNCTSET_ALLGATHERV, vmap, 1 + size * (size + 1) / 2,
                   agv_fill, agv_expected, calls);
    ADCL_Vmap_free(&vmap);
    free(rcnts);
    free(displ);
    if (ADCL_Finalize() != ADCL_SUCCESS) fail("ADCL_Finalize");
}

/* The self-test: exchanges broken on purpose, run as a user function set through the API,
 * must each be caught by the check of exchange_and_check on some rank. */
static fixture *broken;

static void broken_nothing(ADCL_Request req)
{
    (void)req;
}

static void broken_swapped(ADCL_Request req)
{
    (void)req;
    reference(&broken->c, &broken->sh, broken->flat, broken->cart, 1);
}

static void broken_corner(ADCL_Request req)
{
    (void)req;
    reference(&broken->c, &broken->sh, broken->flat, broken->cart, 0);
    broken->flat[0] = 42.0; /* a corner of the halo, which no exchange may write */
}

static void self_test(void)
{
    ADCL_work_fnct_ptr *work[3] = {broken_nothing, broken_swapped, broken_corner};
    char *fnames[3] = {"nothing", "swapped", "corner"};
    ADCL_Function fn[3];
    ADCL_Fnctset set;
    int ncases, caught = 0;
    fixture fx;
    if (ADCL_Init() != ADCL_SUCCESS) fail("ADCL_Init");
    setup(&fx, &cases(&ncases)[1]); /* 2-D, every dimension periodic: neighbours everywhere */
    broken = &fx;
    for (int i = 0; i < 3; i++)
        if (ADCL_Function_create(work[i], ADCL_ATTRSET_NULL, NULL, fnames[i], &fn[i]) !=
            ADCL_SUCCESS)
            fail("Function_create");
    if (ADCL_Fnctset_create(3, fn, "broken", &set) != ADCL_SUCCESS) fail("Fnctset_create");
    for (int i = 0; i < 3; i++) {
        ADCL_Request req;
        int mine, any;
        setenv("AUTOCOLL_ADCL_FUNCTION", fnames[i], 1);
        ADCL_Finalize();
        ADCL_Init();
        if (ADCL_Request_create(ADCL_VECTOR_NULL, fx.topo, set, &req) != ADCL_SUCCESS)
            fail("Request_create");
        fill(&fx.c, &fx.sh, fx.flat, fx.rank, 0);
        memcpy(fx.ref, fx.flat, (size_t)fx.sh.cells * sizeof *fx.ref);
        if (ADCL_Request_start(req) != ADCL_SUCCESS) fail("Request_start");
        reference(&fx.c, &fx.sh, fx.ref, fx.cart, 0);
        mine = first_difference(&fx) >= 0;
        MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (!any) {
            char msg[100];
            snprintf(msg, sizeof msg, "self-test: the broken exchange '%s' was not caught",
                     fnames[i]);
            fail(msg);
        }
        caught++;
        ADCL_Request_free(&req);
    }
    unsetenv("AUTOCOLL_ADCL_FUNCTION");
    ADCL_Fnctset_free(&set);
    for (int i = 0; i < 3; i++) ADCL_Function_free(&fn[i]);
    teardown(&fx);
    ADCL_Finalize();
    if (world_rank == 0) printf("adcl_halo: self-test caught %d of 3 broken exchanges\n", caught);
}

static void expect(int rc, int want, const char *what)
{
    if (rc != want) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s returned %d, expected %d", what, rc, want);
        fail(msg);
    }
}

static void errors(void)
{
    ADCL_Vmap vmap;
    ADCL_Vector vec;
    ADCL_Request req = ADCL_REQUEST_NULL;
    double **data;
    int dims[2] = {2, 8};
    expect(ADCL_Request_create(ADCL_VECTOR_NULL, ADCL_TOPOLOGY_NULL, ADCL_FNCTSET_NEIGHBORHOOD,
                               &req),
           ADCL_NOT_INITIALIZED, "Request_create before ADCL_Init");
    expect(ADCL_Init(), ADCL_SUCCESS, "ADCL_Init");
    expect(ADCL_Vmap_halo_allocate(0, &vmap), ADCL_INVALID_HWIDTH, "Vmap_halo_allocate(0)");
    expect(ADCL_Vmap_halo_allocate(1, &vmap), ADCL_SUCCESS, "Vmap_halo_allocate(1)");
    expect(ADCL_Vector_allocate_generic(2, dims, 0, vmap, MPI_DOUBLE, &data, &vec),
           ADCL_INVALID_DIMS, "a vector narrower than its halos");
    dims[0] = 5;
    expect(ADCL_Vector_allocate_generic(2, dims, -1, vmap, MPI_DOUBLE, &data, &vec),
           ADCL_INVALID_NC, "nc -1");
    expect(ADCL_Vector_allocate_generic(2, dims, 0, vmap, MPI_DATATYPE_NULL, &data, &vec),
           ADCL_INVALID_DAT, "MPI_DATATYPE_NULL");
    expect(ADCL_Vector_allocate_generic(2, dims, 0, vmap, MPI_DOUBLE, &data, &vec), ADCL_SUCCESS,
           "Vector_allocate_generic");
    expect(ADCL_Request_start(ADCL_REQUEST_NULL), ADCL_INVALID_REQUEST, "start of a NULL request");
    expect(ADCL_Request_wait(ADCL_REQUEST_NULL), ADCL_INVALID_REQUEST, "wait of a NULL request");
    ADCL_Topology topo;
    expect(ADCL_Topology_create(MPI_COMM_WORLD, &topo), ADCL_INVALID_COMM,
           "a topology from a communicator without one");
    expect(ADCL_Request_create(vec, ADCL_TOPOLOGY_NULL, ADCL_FNCTSET_NEIGHBORHOOD, &req),
           ADCL_INVALID_TOPOLOGY, "Request_create without a topology");
    /* Neighbours whose faces differ in size: refused on every rank, nothing exchanged. */
    {
        int size, cdims[2] = {0, 1}, periods[2] = {1, 0}, vdims[2] = {5, 5 + world_rank};
        MPI_Comm cart;
        ADCL_Vector mixed;
        double **mdata;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        cdims[0] = size;
        MPI_Cart_create(MPI_COMM_WORLD, 2, cdims, periods, 0, &cart);
        expect(ADCL_Topology_create(cart, &topo), ADCL_SUCCESS, "Topology_create");
        expect(ADCL_Vector_allocate_generic(2, vdims, 0, vmap, MPI_DOUBLE, &mdata, &mixed),
               ADCL_SUCCESS, "a vector of this rank's own shape");
        expect(ADCL_Request_create(mixed, topo, ADCL_FNCTSET_NEIGHBORHOOD, &req),
               size > 1 ? ADCL_INVALID_VECTOR : ADCL_SUCCESS, "faces of different sizes");
        if (size == 1) ADCL_Request_free(&req);
        ADCL_Vector_free(&mixed);
        ADCL_Topology_free(&topo);
        MPI_Comm_free(&cart);
    }
    expect(ADCL_Fnctset_free(&(ADCL_Fnctset){ADCL_FNCTSET_NEIGHBORHOOD}), ADCL_INVALID_FNCTSET,
           "freeing the predefined set");
    expect(ADCL_Vector_deregister(&vec), ADCL_INVALID_VECTOR, "deregistering an allocated vector");
    ADCL_Vector stale = vec;
    expect(ADCL_Vector_free(&vec), ADCL_SUCCESS, "Vector_free");
    expect(ADCL_Vector_free(&stale), ADCL_INVALID_VECTOR, "freeing a vector twice");
    expect(ADCL_Vmap_free(&vmap), ADCL_SUCCESS, "Vmap_free");
    expect(ADCL_Timer_start(ADCL_TIMER_NULL), ADCL_INVALID_TIMER, "start of a NULL timer");
    expect(ADCL_Finalize(), ADCL_SUCCESS, "ADCL_Finalize");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    const char *mode = argc > 1 ? argv[1] : "forced";
    if (strcmp(mode, "forced") == 0)
        forced(argc > 2 ? argv[2] : NULL);
    else if (strcmp(mode, "search") == 0)
        search();
    else if (strcmp(mode, "generic") == 0) {
        generic = 1;
        forced(argc > 2 ? argv[2] : NULL);
    } else if (strcmp(mode, "config") == 0)
        config();
    else if (strcmp(mode, "collectives") == 0)
        collectives();
    else if (strcmp(mode, "self-test") == 0)
        self_test();
    else if (strcmp(mode, "user") == 0)
        user(0);
    else if (strcmp(mode, "user-comm") == 0)
        user(1);
    else if (strcmp(mode, "errors") == 0)
        errors();
    else if (strcmp(mode, "history") == 0 && argc > 3)
        history(atoi(argv[2]), atoi(argv[3]), argc > 4 && strstr(argv[4], "timed") != NULL,
                argc > 4 && strstr(argv[4], "keep") != NULL);
    else
        fail("usage: adcl_halo forced|generic [NAME] | search | config | user | collectives | "
             "self-test | errors | history HWIDTH CALLS [timed,keep]");
    if (world_rank == 0) printf("adcl_halo: ok\n");
    MPI_Finalize();
    return 0;
}
