/*
 * neighbor.c - correctness of every neighbourhood-collective algorithm of the registry, against
 * the MPI standard's rule and against the library's own collective.
 *
 * For every neighbourhood collective and every algorithm in its table (ac_registry_for_size),
 * on Cartesian communicators (1-D, 2-D, 3-D; periodic, open and mixed; dimensions of one and two
 * processes) and distributed graphs (asymmetric, a rank listed twice and itself, ranks without
 * neighbours, no edges at all), with counts of 3, zero counts, and a derived datatype with gaps
 * on both sides (the v and w forms: uneven counts per edge, some zero, blocks out of order; the
 * w form: a different datatype per edge, and MPI_BOTTOM with absolute displacements), it runs
 * each applicable algorithm (ac_applicable) on a duplicate of the topology communicator and
 * compares the whole receive buffer, gaps included, bitwise with a reference built from the
 * standard's rule alone (MPI 4.1 section 8.6: on a Cartesian communicator in-block 2d receives
 * what the neighbour on the negative side sent to its positive side, in-block 2d + 1 what the
 * positive one sent to its negative side; on a distributed graph the k-th edge s -> r pairs
 * with s's k-th such destination). The reference places the data with MPI_Unpack only, not
 * with any exchange.
 *
 * The library's own collective (PMPI_Neighbor_*) is compared with the same reference: where it
 * differs the case is printed ("library disagrees"), and it fails the test unless it is a known
 * disagreement (`known`: MPICH 4.0's alltoall forms on periodic dimensions of one or two
 * processes, its neighbor_alltoall on graphs with a repeated edge, its neighbor_alltoallw on
 * graphs with uneven degrees). The `native` entry is then checked against the library's answer
 * instead. Finally every call goes through MPI_Neighbor_* (the layer's wrapper, whatever AUTOCOLL_*
 * selects) and must give the reference, or the library's answer when the layer ran native; with
 * an MPI-4 library (MPICH) once more through MPI_Neighbor_*_c, which must reach the layer.
 *
 *   neighbor [--collective NAME] [--repeat N] [--verbose] [--self-test] [--no-graphs]
 *
 * --repeat N calls the wrapper N times per case (for the learning strategies).
 * --no-graphs leaves the distributed graphs out (SimGrid 3.32's SMPI cannot make them; it has
 * no neighbourhood collectives either, so there `native` does not apply and the library is not
 * compared).
 * --self-test runs two deliberately broken algorithms instead of the registry's (one that pairs
 * blocks in posting order, as MPICH 4.0 does, and one that corrupts a received byte) and fails
 * unless the test catches both for every collective (a test that cannot fail is a defect).
 * Exit status 0 when every check passed; prints "neighbor: N passed, N failed, N library
 * disagreements (N known)".
 */
#include "coll/common/neighbor.h"
#include "coll/common/sched.h"
#include "coll/coll.h"
#include "select/select.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL (-7)
#define MAXDEG 64

static int rank, size, verbose, self_test, no_graphs, repeat = 1;
static long passed, failed, disagreements, known_disagreements;
static char library_version[MPI_MAX_LIBRARY_VERSION_STRING];

/* ---- topologies --------------------------------------------------------------------------- */

typedef struct topo {
    char name[96];
    MPI_Comm comm;
    int cartesian;
    int erratum;  /* a periodic dimension of one or two processes */
    int repeated; /* a graph with two edges from one process to another (or itself) */
    int uneven;   /* a graph where some process has more in- than out-edges or fewer */
    int indegree, outdegree;
    int sources[MAXDEG], dests[MAXDEG];
    int pair_out[MAXDEG]; /* in-edge j: the index of the sender's out-edge it pairs with */
} topo;

static void cart_case(topo *t, int ndims, const int *dims_in, const int *periods, const char *what)
{
    int dims[3];
    memcpy(dims, dims_in, sizeof(int) * (size_t)ndims);
    if (dims[0] == 0) { /* let MPI choose */
        for (int d = 0; d < ndims; d++)
            dims[d] = 0;
        MPI_Dims_create(size, ndims, dims);
    }
    memset(t, 0, sizeof *t);
    t->cartesian = 1;
    MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &t->comm);
    int n = snprintf(t->name, sizeof t->name, "cart %s [", what);
    for (int d = 0; d < ndims; d++) {
        n += snprintf(t->name + n, sizeof t->name - (size_t)n, "%s%d%s", d ? "x" : "", dims[d],
                      periods[d] ? "p" : "");
        if (periods[d] && dims[d] <= 2) t->erratum = 1;
    }
    snprintf(t->name + n, sizeof t->name - (size_t)n, "]");
    t->indegree = t->outdegree = 2 * ndims;
    for (int d = 0; d < ndims; d++) {
        MPI_Cart_shift(t->comm, d, 1, &t->sources[2 * d], &t->sources[2 * d + 1]);
        t->dests[2 * d] = t->sources[2 * d];
        t->dests[2 * d + 1] = t->sources[2 * d + 1];
    }
    for (int j = 0; j < t->indegree; j++)
        t->pair_out[j] = j ^ 1; /* the standard's rule (the MPI-4.0 erratum) */
}

/* A distributed graph from a global edge list (every rank knows it), made adjacent. */
static void graph_case(topo *t, const int *from, const int *to, int nedges, const char *what)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "graph %s (%d edges)", what, nedges);
    for (int e = 0; e < nedges; e++)
        for (int f = e + 1; f < nedges; f++)
            t->repeated |= from[e] == from[f] && to[e] == to[f];
    for (int r = 0; r < size; r++) {
        int in = 0, out = 0;
        for (int e = 0; e < nedges; e++)
            in += to[e] == r, out += from[e] == r;
        t->uneven |= in != out;
    }
    for (int e = 0; e < nedges; e++) {
        if (from[e] == rank) t->dests[t->outdegree++] = to[e];
        if (to[e] == rank) {
            int k = 0; /* e's index among its source's out-edges */
            for (int f = 0; f < e; f++)
                k += from[f] == from[e];
            t->pair_out[t->indegree] = k;
            t->sources[t->indegree++] = from[e];
        }
    }
    int weights[MAXDEG]; /* unit weights: Open MPI's MPI_UNWEIGHTED trips gcc's -Wstringop */
    for (int i = 0; i < MAXDEG; i++)
        weights[i] = 1;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, t->indegree, t->sources, weights, t->outdegree,
                                   t->dests, weights, MPI_INFO_NULL, 0, &t->comm);
}

static int make_topologies(topo *t)
{
    int n = 0, from[4 * 64], to[4 * 64], e;
    cart_case(&t[n++], 1, (int[]){size}, (int[]){1}, "1-D periodic");
    cart_case(&t[n++], 1, (int[]){size}, (int[]){0}, "1-D open");
    cart_case(&t[n++], 2, (int[]){0, 0}, (int[]){1, 1}, "2-D periodic");
    cart_case(&t[n++], 2, (int[]){size, 1}, (int[]){0, 1}, "2-D mixed");
    cart_case(&t[n++], 3, (int[]){0, 0, 0}, (int[]){1, 0, 1}, "3-D mixed");
    if (size % 2 == 0)
        cart_case(&t[n++], 3, (int[]){2, size / 2, 1}, (int[]){1, 1, 1}, "3-D periodic");
    else
        cart_case(&t[n++], 3, (int[]){1, size, 1}, (int[]){1, 0, 1}, "3-D mixed");
    for (e = 0; e < size; e++) {
        from[2 * e] = from[2 * e + 1] = e;
        to[2 * e] = (e + 1) % size;
        to[2 * e + 1] = (e + 2) % size;
    }
    if (no_graphs) return n;
    graph_case(&t[n++], from, to, 2 * size, "asymmetric r->r+1,r+2");
    for (e = 0; e < size; e++) {
        from[3 * e] = from[3 * e + 1] = from[3 * e + 2] = e;
        to[3 * e] = to[3 * e + 2] = (e + 1) % size; /* listed twice */
        to[3 * e + 1] = e;                          /* itself */
    }
    graph_case(&t[n++], from, to, 3 * size, "twice and self");
    from[0] = 0;
    to[0] = size - 1;
    from[1] = size - 1;
    to[1] = 0;
    from[2] = 0;
    to[2] = size / 2;
    graph_case(&t[n++], from, to, 3, "most ranks without neighbours");
    graph_case(&t[n++], from, to, 0, "no edges");
    return n;
}

/* ---- data --------------------------------------------------------------------------------- */

/* MODE_BOTTOM: neighbor_alltoallw only, as MODE_PLAIN but with MPI_BOTTOM and absolute
 * displacements (how ADCL's exchange calls it). */
typedef enum mode { MODE_PLAIN, MODE_ZERO, MODE_DERIVED, MODE_BOTTOM, NMODES } mode;
static const char *const mode_names[NMODES] = {"int", "zero counts", "derived", "MPI_BOTTOM"};
static MPI_Datatype t_send_derived, t_recv_derived; /* 2 ints each, with gaps */

/* The value of int i of the block that rank s sends on its out-edge k. */
static int value(int s, int k, int i)
{
    return 1 + s * 1000000 + k * 1000 + i;
}

/* Ints in the block on out-edge k of rank s (a function both ends can compute). */
static int block_ints(ac_collective c, mode m, int s, int k)
{
    if (m == MODE_ZERO) return 0;
    int unit = m == MODE_DERIVED ? 2 : 1;
    switch (c) {
    case AC_NEIGHBOR_ALLGATHER:
    case AC_NEIGHBOR_ALLTOALL:
        return 3 * unit;
    case AC_NEIGHBOR_ALLGATHERV:
        return (s % 3) * unit;
    case AC_NEIGHBOR_ALLTOALLV:
        return ((s + k) % 3) * unit;
    default: /* alltoallw: even, so that either datatype divides it */
        return 2 * ((s + k) % 3);
    }
}

static int is_allgather(ac_collective c)
{
    return c == AC_NEIGHBOR_ALLGATHER || c == AC_NEIGHBOR_ALLGATHERV;
}

/* The datatype of an edge and its ints per element. */
static MPI_Datatype edge_type(ac_collective c, mode m, int edge, int send, int *ints)
{
    int derived =
        c == AC_NEIGHBOR_ALLTOALLW ? (m == MODE_DERIVED || edge % 2 == 1) : m == MODE_DERIVED;
    *ints = derived ? 2 : 1;
    return derived ? (send ? t_send_derived : t_recv_derived) : MPI_INT;
}

/* The arguments of one call at this rank. */
typedef struct call_args {
    char *sbuf, *rbuf;
    size_t sbytes, rbytes;
    int scount, rcount; /* regular forms */
    MPI_Datatype stype, rtype;
    int scounts[MAXDEG], rcounts[MAXDEG], sdispls[MAXDEG], rdispls[MAXDEG];
    MPI_Aint sbdispls[MAXDEG], rbdispls[MAXDEG];
    MPI_Datatype stypes[MAXDEG], rtypes[MAXDEG];
    /* where each block is: byte offset, count, type */
    MPI_Aint s_at[MAXDEG], r_at[MAXDEG];
    /* the w form's buffer arguments: the buffers and relative displacements, or MPI_BOTTOM and
     * absolute ones (MODE_BOTTOM) */
    void *wsbuf, *wrbuf;
    MPI_Aint wsdispls[MAXDEG], wrdispls[MAXDEG];
} call_args;

static MPI_Aint extent_of(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

/* Lay out the blocks: sends in order, receives in reverse order, a gap between blocks. */
static void layout(call_args *a, ac_collective c, mode m, const topo *t)
{
    int ints;
    memset(a, 0, sizeof *a);
    a->stype = edge_type(c, m, 0, 1, &ints);
    a->scount = block_ints(c, m, rank, 0) / ints;
    a->rtype = edge_type(c, m, 0, 0, &ints);
    a->rcount = block_ints(c, m, 0, 0) / ints; /* regular forms: equal on every rank */
    MPI_Aint at = 0;
    int nsend = is_allgather(c) ? 1 : t->outdegree;
    for (int k = 0; k < nsend; k++) {
        MPI_Datatype ty = edge_type(c, m, k, 1, &ints);
        int count = block_ints(c, m, rank, k) / ints;
        MPI_Aint ext = extent_of(ty);
        at = (at + ext - 1) / ext * ext; /* displacements in whole extents */
        a->s_at[k] = at;
        a->scounts[k] = count;
        a->stypes[k] = ty;
        a->sdispls[k] = (int)(at / ext);
        a->sbdispls[k] = at;
        at += (count + 1) * ext;
    }
    a->sbytes = (size_t)at + 64;
    at = 0;
    for (int j = t->indegree - 1; j >= 0; j--) {
        MPI_Datatype ty = edge_type(c, m, j, 0, &ints);
        int s = t->sources[j];
        int count = s == MPI_PROC_NULL ? 0 : block_ints(c, m, s, t->pair_out[j]) / ints;
        if (c == AC_NEIGHBOR_ALLGATHER || c == AC_NEIGHBOR_ALLTOALL) count = a->rcount;
        MPI_Aint ext = extent_of(ty);
        at = (at + ext - 1) / ext * ext;
        a->r_at[j] = at;
        a->rcounts[j] = count;
        a->rtypes[j] = ty;
        a->rdispls[j] = (int)(at / ext);
        a->rbdispls[j] = at;
        at += (count + 1) * ext;
    }
    if (c == AC_NEIGHBOR_ALLGATHER || c == AC_NEIGHBOR_ALLTOALL) /* regular: j x count */
        for (int j = 0; j < t->indegree; j++)
            a->r_at[j] = (MPI_Aint)j * a->rcount * extent_of(a->rtype);
    if (c == AC_NEIGHBOR_ALLTOALL)
        for (int k = 0; k < t->outdegree; k++)
            a->s_at[k] = (MPI_Aint)k * a->scount * extent_of(a->stype);
    MPI_Aint regular = (MPI_Aint)(t->indegree + 1) * (a->rcount + 1) * extent_of(a->rtype);
    a->rbytes = (size_t)(at > regular ? at : regular) + 64;
    MPI_Aint sregular = (MPI_Aint)(t->outdegree + 1) * (a->scount + 1) * extent_of(a->stype);
    if ((size_t)sregular + 64 > a->sbytes) a->sbytes = (size_t)sregular + 64;
    a->sbuf = malloc(a->sbytes);
    a->rbuf = malloc(a->rbytes);
    MPI_Aint sbase = 0, rbase = 0;
    if (m == MODE_BOTTOM) {
        MPI_Get_address(a->sbuf, &sbase);
        MPI_Get_address(a->rbuf, &rbase);
    }
    a->wsbuf = m == MODE_BOTTOM ? MPI_BOTTOM : a->sbuf;
    a->wrbuf = m == MODE_BOTTOM ? MPI_BOTTOM : a->rbuf;
    for (int i = 0; i < MAXDEG; i++) {
        a->wsdispls[i] = MPI_Aint_add(sbase, a->sbdispls[i]);
        a->wrdispls[i] = MPI_Aint_add(rbase, a->rbdispls[i]);
    }
}

/* Place n ints of `values` as `count` x `type` at buf (MPI's datatype engine, not ours). */
static void place(char *buf, const int *values, int n, int count, MPI_Datatype type)
{
    int position = 0;
    if (n > 0) MPI_Unpack(values, (int)sizeof(int) * n, &position, buf, count, type, MPI_COMM_SELF);
}

static void fill_sentinel(char *buf, size_t bytes)
{
    for (size_t i = 0; i + sizeof(int) <= bytes; i += sizeof(int)) {
        int v = SENTINEL;
        memcpy(buf + i, &v, sizeof v);
    }
}

static void fill_send(call_args *a, ac_collective c, mode m, const topo *t)
{
    int values[256];
    fill_sentinel(a->sbuf, a->sbytes);
    int nsend = is_allgather(c) ? 1 : t->outdegree;
    for (int k = 0; k < nsend; k++) {
        int n = block_ints(c, m, rank, k);
        for (int i = 0; i < n; i++)
            values[i] = value(rank, is_allgather(c) ? 0 : k, i);
        MPI_Datatype ty = c == AC_NEIGHBOR_ALLTOALLW ? a->stypes[k] : a->stype;
        int count = c == AC_NEIGHBOR_ALLTOALLV || c == AC_NEIGHBOR_ALLTOALLW ? a->scounts[k]
                    : c == AC_NEIGHBOR_ALLGATHERV                            ? a->scounts[0]
                                                                             : a->scount;
        place(a->sbuf + a->s_at[k], values, n, count, ty);
    }
}

/* The standard's answer: every in-block from its paired out-block, the rest untouched. */
static void reference(char *expect, const call_args *a, ac_collective c, mode m, const topo *t)
{
    int values[256];
    fill_sentinel(expect, a->rbytes);
    for (int j = 0; j < t->indegree; j++) {
        int s = t->sources[j];
        if (s == MPI_PROC_NULL) continue;
        int k = t->pair_out[j], n = block_ints(c, m, s, k);
        for (int i = 0; i < n; i++)
            values[i] = value(s, is_allgather(c) ? 0 : k, i);
        MPI_Datatype ty = c == AC_NEIGHBOR_ALLTOALLW ? a->rtypes[j] : a->rtype;
        int count =
            c == AC_NEIGHBOR_ALLGATHER || c == AC_NEIGHBOR_ALLTOALL ? a->rcount : a->rcounts[j];
        place(expect + a->r_at[j], values, n, count, ty);
    }
}

/* ---- the calls ---------------------------------------------------------------------------- */

typedef enum entry { VIA_ALGORITHM, VIA_LIBRARY, VIA_WRAPPER } entry;

/* The forms of a call: MPI_Neighbor_*, MPI_Ineighbor_* and MPI_Wait, MPI_Neighbor_*_init
 * (MPI-4) started and waited for. */
enum { FORM_BLOCKING, FORM_NONBLOCKING, FORM_PERSISTENT, NFORMS };
static const char *const form_names[NFORMS] = {"MPI_Neighbor_*", "MPI_Ineighbor_*",
                                               "MPI_Neighbor_*_init"};

static int run(entry via, const ac_algorithm *alg, ac_collective c, call_args *a, MPI_Comm comm)
{
    const ac_params *p = alg ? alg->params : NULL;
    fill_sentinel(a->rbuf, a->rbytes);
    switch (c) {
    case AC_NEIGHBOR_ALLGATHER:
        return via == VIA_ALGORITHM
                   ? alg->fn.neighbor_allgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
                                                a->rtype, comm, p)
               : via == VIA_LIBRARY ? PMPI_Neighbor_allgather(a->sbuf, a->scount, a->stype, a->rbuf,
                                                              a->rcount, a->rtype, comm)
                                    : MPI_Neighbor_allgather(a->sbuf, a->scount, a->stype, a->rbuf,
                                                             a->rcount, a->rtype, comm);
    case AC_NEIGHBOR_ALLGATHERV:
        return via == VIA_ALGORITHM
                   ? alg->fn.neighbor_allgatherv(a->sbuf, a->scounts[0], a->stype, a->rbuf,
                                                 a->rcounts, a->rdispls, a->rtype, comm, p)
               : via == VIA_LIBRARY
                   ? PMPI_Neighbor_allgatherv(a->sbuf, a->scounts[0], a->stype, a->rbuf, a->rcounts,
                                              a->rdispls, a->rtype, comm)
                   : MPI_Neighbor_allgatherv(a->sbuf, a->scounts[0], a->stype, a->rbuf, a->rcounts,
                                             a->rdispls, a->rtype, comm);
    case AC_NEIGHBOR_ALLTOALL:
        return via == VIA_ALGORITHM
                   ? alg->fn.neighbor_alltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
                                               a->rtype, comm, p)
               : via == VIA_LIBRARY ? PMPI_Neighbor_alltoall(a->sbuf, a->scount, a->stype, a->rbuf,
                                                             a->rcount, a->rtype, comm)
                                    : MPI_Neighbor_alltoall(a->sbuf, a->scount, a->stype, a->rbuf,
                                                            a->rcount, a->rtype, comm);
    case AC_NEIGHBOR_ALLTOALLV:
        return via == VIA_ALGORITHM
                   ? alg->fn.neighbor_alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf,
                                                a->rcounts, a->rdispls, a->rtype, comm, p)
               : via == VIA_LIBRARY
                   ? PMPI_Neighbor_alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf,
                                             a->rcounts, a->rdispls, a->rtype, comm)
                   : MPI_Neighbor_alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf,
                                            a->rcounts, a->rdispls, a->rtype, comm);
    default:
        return via == VIA_ALGORITHM ? alg->fn.neighbor_alltoallw(a->wsbuf, a->scounts, a->wsdispls,
                                                                 a->stypes, a->wrbuf, a->rcounts,
                                                                 a->wrdispls, a->rtypes, comm, p)
               : via == VIA_LIBRARY
                   ? PMPI_Neighbor_alltoallw(a->wsbuf, a->scounts, a->wsdispls, a->stypes, a->wrbuf,
                                             a->rcounts, a->wrdispls, a->rtypes, comm)
                   : MPI_Neighbor_alltoallw(a->wsbuf, a->scounts, a->wsdispls, a->stypes, a->wrbuf,
                                            a->rcounts, a->wrdispls, a->rtypes, comm);
    }
}

/* The algorithm's schedule progressed as a nonblocking call's is: started, then advanced by
 * ac_sched_progress without blocking (MPI_Testall) until it has ended. */
static int run_schedule(const ac_algorithm *alg, ac_collective c, call_args *a, MPI_Comm comm)
{
    const ac_params *p = alg->params;
    ac_sched s;
    int done = 0, rc = ac_sched_init(&s, comm, 4242);
    fill_sentinel(a->rbuf, a->rbytes);
    if (rc == MPI_SUCCESS) {
        switch (c) {
        case AC_NEIGHBOR_ALLGATHER:
            rc = alg->sched.neighbor_allgather(&s, a->sbuf, a->scount, a->stype, a->rbuf,
                                               a->rcount, a->rtype, p);
            break;
        case AC_NEIGHBOR_ALLGATHERV:
            rc = alg->sched.neighbor_allgatherv(&s, a->sbuf, a->scounts[0], a->stype, a->rbuf,
                                                a->rcounts, a->rdispls, a->rtype, p);
            break;
        case AC_NEIGHBOR_ALLTOALL:
            rc = alg->sched.neighbor_alltoall(&s, a->sbuf, a->scount, a->stype, a->rbuf,
                                              a->rcount, a->rtype, p);
            break;
        case AC_NEIGHBOR_ALLTOALLV:
            rc = alg->sched.neighbor_alltoallv(&s, a->sbuf, a->scounts, a->sdispls, a->stype,
                                               a->rbuf, a->rcounts, a->rdispls, a->rtype, p);
            break;
        default:
            rc = alg->sched.neighbor_alltoallw(&s, a->wsbuf, a->scounts, a->wsdispls, a->stypes,
                                               a->wrbuf, a->rcounts, a->wrdispls, a->rtypes, p);
        }
    }
    if (rc == MPI_SUCCESS) rc = ac_sched_start(&s, &done);
    while (rc == MPI_SUCCESS && !done)
        rc = ac_sched_progress(&s, 0, &done);
    if (rc == MPI_SUCCESS) rc = ac_sched_error(&s);
    ac_sched_free(&s);
    return rc;
}

/* The call through the layer's MPI_Ineighbor_* and MPI_Wait; or (persistent, an MPI-4 library)
 * through MPI_Neighbor_*_init, started and waited for twice (the receive buffer filled anew
 * before each start), then freed. */
static int run_request(ac_collective c, call_args *a, MPI_Comm comm, int persistent, int library)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int rc;
#if MPI_VERSION >= 4
#define NEIGHBOR_REQUEST(coll, ...)                                                             \
    (persistent ? (library ? PMPI_Neighbor_##coll##_init : MPI_Neighbor_##coll##_init)(        \
                      __VA_ARGS__, comm, MPI_INFO_NULL, &req)                                  \
                : (library ? PMPI_Ineighbor_##coll : MPI_Ineighbor_##coll)(__VA_ARGS__, comm,  \
                                                                             &req))
#else
#define NEIGHBOR_REQUEST(coll, ...)                                                             \
    (library ? PMPI_Ineighbor_##coll : MPI_Ineighbor_##coll)(__VA_ARGS__, comm, &req)
#endif
    fill_sentinel(a->rbuf, a->rbytes);
    switch (c) {
    case AC_NEIGHBOR_ALLGATHER:
        rc = NEIGHBOR_REQUEST(allgather, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
                              a->rtype);
        break;
    case AC_NEIGHBOR_ALLGATHERV:
        rc = NEIGHBOR_REQUEST(allgatherv, a->sbuf, a->scounts[0], a->stype, a->rbuf, a->rcounts,
                              a->rdispls, a->rtype);
        break;
    case AC_NEIGHBOR_ALLTOALL:
        rc = NEIGHBOR_REQUEST(alltoall, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
                              a->rtype);
        break;
    case AC_NEIGHBOR_ALLTOALLV:
        rc = NEIGHBOR_REQUEST(alltoallv, a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf,
                              a->rcounts, a->rdispls, a->rtype);
        break;
    default:
        rc = NEIGHBOR_REQUEST(alltoallw, a->wsbuf, a->scounts, a->wsdispls, a->stypes, a->wrbuf,
                              a->rcounts, a->wrdispls, a->rtypes);
    }
#undef NEIGHBOR_REQUEST
    if (rc != MPI_SUCCESS) return rc;
    if (!persistent) return (library ? PMPI_Wait : MPI_Wait)(&req, MPI_STATUS_IGNORE);
    for (int start = 0; start < 2 && rc == MPI_SUCCESS; start++) {
        fill_sentinel(a->rbuf, a->rbytes);
        rc = (library ? PMPI_Start : MPI_Start)(&req);
        if (rc == MPI_SUCCESS) rc = (library ? PMPI_Wait : MPI_Wait)(&req, MPI_STATUS_IGNORE);
    }
    int frc = (library ? PMPI_Request_free : MPI_Request_free)(&req);
    return rc != MPI_SUCCESS ? rc : frc;
}

#if MPI_VERSION >= 4
/* The MPI-4 large-count entry points (MPICH 4; Open MPI 4.1 has none): the same call with
 * MPI_Count counts and MPI_Aint displacements. */
static int run_large(ac_collective c, call_args *a, MPI_Comm comm)
{
    MPI_Count sc[MAXDEG], rc[MAXDEG];
    MPI_Aint sd[MAXDEG], rd[MAXDEG];
    for (int i = 0; i < MAXDEG; i++) {
        sc[i] = a->scounts[i];
        rc[i] = a->rcounts[i];
        sd[i] = a->sdispls[i];
        rd[i] = a->rdispls[i];
    }
    fill_sentinel(a->rbuf, a->rbytes);
    switch (c) {
    case AC_NEIGHBOR_ALLGATHER:
        return MPI_Neighbor_allgather_c(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                        comm);
    case AC_NEIGHBOR_ALLGATHERV:
        return MPI_Neighbor_allgatherv_c(a->sbuf, sc[0], a->stype, a->rbuf, rc, rd, a->rtype, comm);
    case AC_NEIGHBOR_ALLTOALL:
        return MPI_Neighbor_alltoall_c(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                                       comm);
    case AC_NEIGHBOR_ALLTOALLV:
        return MPI_Neighbor_alltoallv_c(a->sbuf, sc, sd, a->stype, a->rbuf, rc, rd, a->rtype, comm);
    default:
        return MPI_Neighbor_alltoallw_c(a->wsbuf, sc, a->wsdispls, a->stypes, a->wrbuf, rc,
                                        a->wrdispls, a->rtypes, comm);
    }
}
#endif

/* Known departures of libraries from the standard, seen with this test (each a predicate on
 * the case; a known one that does not show is not an error). */
typedef struct known_disagreement {
    const char *library;
    int forms; /* the forms of the call it shows in: 1 << FORM_* */
    int (*hits)(ac_collective c, const topo *t);
    const char *why;
} known_disagreement;

static int erratum_case(ac_collective c, const topo *t)
{
    return t->cartesian && t->erratum && !is_allgather(c);
}

static int repeated_edge_alltoall(ac_collective c, const topo *t)
{
    return !t->cartesian && t->repeated && c == AC_NEIGHBOR_ALLTOALL;
}

static int uneven_alltoallw(ac_collective c, const topo *t)
{
    return !t->cartesian && t->uneven && c == AC_NEIGHBOR_ALLTOALLW;
}

#define ALL_FORMS ((1 << FORM_BLOCKING) | (1 << FORM_NONBLOCKING) | (1 << FORM_PERSISTENT))
#define REQUEST_FORMS ((1 << FORM_NONBLOCKING) | (1 << FORM_PERSISTENT))
static const known_disagreement known[] = {
    {"MPICH Version:\t4.0", ALL_FORMS, erratum_case,
     "the alltoall forms on a periodic dimension of one or two processes (the MPI-4.0 erratum): "
     "alltoallv and alltoallw pair the two blocks between one pair of processes in posting "
     "order; alltoall receives in reverse neighbour order, right with one such dimension only"},
    {"MPICH Version:\t4.0", ALL_FORMS, repeated_edge_alltoall,
     "neighbor_alltoall on a distributed graph with a repeated edge: the repeated edges' blocks "
     "arrive in reverse order (neighbor_alltoallv is right)"},
    {"MPICH Version:\t4.0", ALL_FORMS, uneven_alltoallw,
     "neighbor_alltoallw on a distributed graph where a process has more out- than in-edges: "
     "a receiver gets more than its block (seen at 3 ranks: 0->2, 2->0, 0->1)"},
    {"Open MPI v4.1", REQUEST_FORMS, erratum_case,
     "MPI_Ineighbor_alltoall, _alltoallv and _alltoallw (libnbc) on a periodic dimension of one "
     "or two processes (the MPI-4.0 erratum): the two blocks between one pair of processes "
     "paired in posting order, alltoallv and alltoallw failing with MPI_ERR_TRUNCATE where "
     "their sizes differ (the blocking forms are right)"},
};

static long known_hits[sizeof known / sizeof known[0]];

/* 1 when a known departure covers the case in that form (counted for the summary). */
static int known_case(ac_collective c, const topo *t, int form)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strstr(library_version, known[i].library) && (known[i].forms >> form & 1) &&
            known[i].hits(c, t)) {
            known_hits[i]++;
            return 1;
        }
    return 0;
}

/* ---- the self-test's broken algorithms ---------------------------------------------------- */

/* isend_irecv with a Cartesian rank's in-edges posted in list order: blocks between one pair
 * paired in posting order (a schedule, run blocking and progressed). */
static int broken_in_order(ac_sched *s, const ac_neighbors *nb)
{
    for (int j = 0; j < nb->indegree; j++)
        ac_sched_recv(s, nb->recv[j].buf, nb->recv[j].count, nb->recv[j].type, nb->sources[j]);
    for (int k = 0; k < nb->outdegree; k++)
        ac_sched_send(s, nb->send[k].buf, nb->send[k].count, nb->send[k].type, nb->dests[k]);
    ac_sched_round_posted(s);
    return ac_sched_error(s);
}

/* isend_irecv, then the first byte of the first non-empty in-block flipped (blocking only). */
static int broken_flip(ac_neighbors *nb, MPI_Comm comm)
{
    static const ac_params isend_irecv = {.exchange_schedule = ac_neighbor_isend_irecv_schedule};
    int rc = ac_neighbor_exchange(nb, comm, &isend_irecv);
    for (int j = 0; j < nb->indegree; j++) {
        MPI_Aint lb, extent;
        MPI_Type_get_extent(nb->recv[j].type, &lb, &extent);
        if (nb->recv[j].count > 0 && nb->sources[j] != MPI_PROC_NULL) {
            ((char *)nb->recv[j].buf)[lb] ^= 1;
            break;
        }
    }
    return rc;
}

static const ac_params broken_params[2] = {{.exchange_schedule = broken_in_order},
                                           {.exchange = broken_flip}};
static const char *const broken_names[2] = {"broken_in_order", "broken_flip"};
static long broken_caught[AC_NUM_COLLECTIVES][2];

/* The broken instance k of collective c: the layer's function of c with a broken engine. */
static ac_algorithm broken_algorithm(ac_collective c, int k)
{
    ac_algorithm a = *ac_registry_find(c, "isend_irecv");
    a.name = broken_names[k];
    a.params = &broken_params[k];
    if (k == 1) a.sched.neighbor_allgather = NULL; /* blocking only: the union's one pointer */
    return a;
}

/* 1 on every rank when the buffers are equal on every rank. */
static int all_equal(const char *x, const char *y, size_t bytes, MPI_Comm comm)
{
    int mine = memcmp(x, y, bytes) == 0, all;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
    return all;
}

static void check(int ok, const char *what, ac_collective c, const topo *t, mode m)
{
    if (ok) {
        passed++;
        if (verbose && rank == 0)
            printf("ok   %-20s %-14s %-44s %s\n", ac_collective_name(c), what, t->name,
                   mode_names[m]);
        return;
    }
    failed++;
    if (rank == 0)
        printf("FAIL %-20s %-14s %-44s %s\n", ac_collective_name(c), what, t->name, mode_names[m]);
}

/* 1 when AUTOCOLL_<COLL> forces one of the layer's algorithms written as a schedule for c: its
 * nonblocking and persistent calls are then the layer's wherever it applies. */
static int layer_forced(ac_collective c)
{
    char name[64];
    snprintf(name, sizeof name, "AUTOCOLL_%s", ac_collective_name(c));
    for (char *x = name; *x; x++)
        *x = (char)(*x >= 'a' && *x <= 'z' ? *x - 'a' + 'A' : *x);
    const char *forced = getenv(name);
    const ac_algorithm *alg = forced ? ac_registry_find(c, forced) : NULL;
    return alg && ac_has_schedule(alg) && strcmp(alg->name, "native") != 0;
}

static void run_case(ac_collective c, const topo *t, mode m)
{
    if (m == MODE_BOTTOM && c != AC_NEIGHBOR_ALLTOALLW) return;
    call_args a;
    layout(&a, c, m, t);
    char *expect = malloc(a.rbytes);
    fill_send(&a, c, m, t);
    reference(expect, &a, c, m, t);

    /* the library against the standard, where it has the collective (not SMPI 3.32) */
    MPI_Comm dup;
    ac_neighbors *nb;
    MPI_Comm_dup(t->comm, &dup);
    if (self_test) MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN); /* truncation is caught */
    ac_neighbors_get(dup, &nb);
    ac_call call = {.collective = c,
                    .size = size,
                    .op = MPI_OP_NULL,
                    .topology = nb->topology,
                    .window = nb->window};
    int right[NFORMS] = {1, 1, 1}, library_failed[NFORMS] = {0, 0, 0};
    char *library[NFORMS];
    for (int f = 0; f < NFORMS; f++)
        library[f] = malloc(a.rbytes);
    for (int f = 0; f < NFORMS && ac_applicable(ac_registry_native(c), &call, NULL); f++) {
        if (f == FORM_PERSISTENT && MPI_VERSION < 4) break;
        if (f == FORM_BLOCKING) {
            run(VIA_LIBRARY, NULL, c, &a, t->comm);
        } else { /* on a duplicate whose errors return: Open MPI 4.1's may fail (known) */
            MPI_Comm errors_return;
            MPI_Errhandler world;
            MPI_Comm_dup(t->comm, &errors_return);
            MPI_Comm_set_errhandler(errors_return, MPI_ERRORS_RETURN);
            MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world); /* libnbc reports on the world */
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            int rc = run_request(c, &a, errors_return, f == FORM_PERSISTENT, 1);
            MPI_Allreduce(&rc, &library_failed[f], 1, MPI_INT, MPI_MAX, t->comm);
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, world);
            MPI_Errhandler_free(&world);
            MPI_Comm_free(&errors_return);
        }
        memcpy(library[f], a.rbuf, a.rbytes);
        right[f] = !library_failed[f] && all_equal(library[f], expect, a.rbytes, t->comm);
        if (right[f]) continue;
        disagreements++;
        int is_known = known_case(c, t, f);
        known_disagreements += is_known;
        if (rank == 0)
            printf("library disagrees with the standard: %-20s %-19s %-44s %s%s%s\n",
                   ac_collective_name(c), form_names[f], t->name, mode_names[m],
                   library_failed[f] ? " (an error)" : "",
                   is_known ? " (known)" : " (NOT KNOWN: a failure)");
        if (!is_known) failed++;
    }
    int library_right = right[FORM_BLOCKING];

    /* every algorithm, on the duplicate (it keeps the topology) */
    ac_algorithm_list list = ac_registry_for_size(c, size);
    for (int i = 0; i < (self_test ? 2 : list.count); i++) {
        ac_algorithm broken = broken_algorithm(c, i % 2);
        const ac_algorithm *alg = self_test ? &broken : list.algorithms[i];
        if (!ac_applicable(alg, &call, NULL)) continue;
        int rc = run(VIA_ALGORITHM, alg, c, &a, dup);
        int native = strcmp(alg->name, "native") == 0;
        int ok = all_equal(a.rbuf, native && !library_right ? library[FORM_BLOCKING] : expect,
                           a.rbytes, dup);
        if (self_test)
            broken_caught[c][i] +=
                !all_equal(a.rbuf, expect, a.rbytes, dup) ||
                !all_equal((char *)&rc, (char *)&(int){MPI_SUCCESS}, sizeof rc, dup);
        else
            check(ok && rc == MPI_SUCCESS, alg->name, c, t, m);
        /* its schedule, progressed as a nonblocking call's (native's: the library's
         * MPI_Ineighbor_*, not where it fails) */
        if (!ac_has_schedule(alg) || (native && library_failed[FORM_NONBLOCKING])) continue;
        rc = run_schedule(alg, c, &a, dup);
        ok = all_equal(a.rbuf, native && !right[FORM_NONBLOCKING] ? library[FORM_NONBLOCKING] : expect,
                       a.rbytes, dup);
        if (self_test)
            broken_caught[c][i] += !ok;
        else
            check(ok && rc == MPI_SUCCESS, alg->name, c, t, m);
    }
    MPI_Comm_free(&dup);
    if (self_test) {
        free(a.sbuf);
        free(a.rbuf);
        free(expect);
        for (int f = 0; f < NFORMS; f++)
            free(library[f]);
        return;
    }

    /* through the layer's wrapper, as the program calls it */
    for (int r = 0; r < repeat; r++) {
        ac_select_clear_last_algorithm();
        int rc = run(VIA_WRAPPER, NULL, c, &a, t->comm);
        const ac_algorithm *ran = ac_select_last_algorithm();
        int native = !ran || strcmp(ran->name, "native") == 0;
        int ok = all_equal(a.rbuf, native && !library_right ? library[FORM_BLOCKING] : expect,
                           a.rbytes, t->comm);
        /* a library without the collective (SMPI): the layer must run one of its own */
        int runnable = !native || ac_applicable(ac_registry_native(c), &call, NULL);
        check(ok && runnable && rc == MPI_SUCCESS, "MPI_ wrapper", c, t, m);
        if (r == 0 && ran && verbose && rank == 0) printf("     wrapper ran %s\n", ran->name);
        /* nonblocking, and persistent (once): the layer's schedule or the library's call,
         * whose answer where it departs from the standard is the library's (not called where
         * the library's fails, unless one of the layer's algorithms is forced) */
        for (int f = FORM_NONBLOCKING; f <= (MPI_VERSION >= 4 && r == 0 ? FORM_PERSISTENT
                                                                        : FORM_NONBLOCKING);
             f++) {
            if (library_failed[f] && !layer_forced(c)) continue;
            rc = run_request(c, &a, t->comm, f == FORM_PERSISTENT, 0);
            int standard = all_equal(a.rbuf, expect, a.rbytes, t->comm);
            int library_answer = !right[f] && all_equal(a.rbuf, library[f], a.rbytes, t->comm);
            check((standard || library_answer) && rc == MPI_SUCCESS, form_names[f], c, t, m);
        }
    }
#if MPI_VERSION >= 4
    {
        ac_select_clear_last_algorithm();
        int rc = run_large(c, &a, t->comm);
        const ac_algorithm *ran = ac_select_last_algorithm();
        int native = !ran || strcmp(ran->name, "native") == 0;
        int ok = all_equal(a.rbuf, native && !library_right ? library[FORM_BLOCKING] : expect,
                           a.rbytes, t->comm);
        check(ok && rc == MPI_SUCCESS && ran, "MPI_*_c wrapper", c, t, m);
    }
#endif
    free(a.sbuf);
    free(a.rbuf);
    free(expect);
    for (int f = 0; f < NFORMS; f++)
        free(library[f]);
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    int len;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_library_version(library_version, &len);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--collective") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = 1;
        else if (strcmp(argv[i], "--self-test") == 0)
            self_test = 1;
        else if (strcmp(argv[i], "--no-graphs") == 0)
            no_graphs = 1;
        else {
            if (rank == 0)
                fprintf(stderr, "usage: neighbor [--collective NAME] [--repeat N] [--verbose] "
                                "[--self-test] [--no-graphs]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (self_test) { /* a truncation counts as caught (MPICH raises Waitall's on the world) */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    }
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &t_send_derived); /* ints 0 and 3: extent 4 ints */
    MPI_Type_commit(&t_send_derived);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec); /* ints 0 and 2, resized to 5 ints */
    MPI_Type_create_resized(vec, 0, 5 * (MPI_Aint)sizeof(int), &t_recv_derived);
    MPI_Type_commit(&t_recv_derived);
    MPI_Type_free(&vec);

    topo topos[16];
    int ntopos = make_topologies(topos);
    int collectives = 0;
    for (int c = AC_NEIGHBOR_ALLGATHER; c <= AC_NEIGHBOR_ALLTOALLW; c++) {
        if (only && strcmp(only, ac_collective_name((ac_collective)c)) != 0) continue;
        collectives++;
        for (int i = 0; i < ntopos; i++)
            for (int m = 0; m < NMODES; m++)
                run_case((ac_collective)c, &topos[i], (mode)m);
    }
    for (int i = 0; i < ntopos; i++)
        MPI_Comm_free(&topos[i].comm);
    MPI_Type_free(&t_send_derived);
    MPI_Type_free(&t_recv_derived);
    if (collectives == 0) failed++; /* nothing ran: a test that checks nothing fails */
    for (int c = AC_NEIGHBOR_ALLGATHER; self_test && c <= AC_NEIGHBOR_ALLTOALLW; c++)
        for (int k = 0; k < 2; k++) {
            if (only && strcmp(only, ac_collective_name((ac_collective)c)) != 0) continue;
            /* the untagged pairing changes nothing where every out-block is the same */
            int expected = !(k == 0 && is_allgather((ac_collective)c));
            int caught = broken_caught[c][k] > 0;
            if (caught == expected)
                passed++;
            else
                failed++;
            if (rank == 0)
                printf("self-test: %-20s %-16s caught in %ld cases%s\n",
                       ac_collective_name((ac_collective)c), broken_names[k], broken_caught[c][k],
                       caught == expected ? "" : " (WRONG)");
        }
    for (size_t i = 0; i < sizeof known / sizeof known[0] && rank == 0; i++)
        if (known_hits[i])
            printf("known library departure, %ld cases: %s\n", known_hits[i], known[i].why);
    if (rank == 0)
        printf("neighbor: %ld passed, %ld failed, %ld library disagreements (%ld known)\n", passed,
               failed, disagreements, known_disagreements);
    MPI_Finalize();
    return failed ? 1 : 0;
}
