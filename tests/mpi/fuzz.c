/*
 * fuzz.c - a legal MPI program generated from a seed, to look for inputs that make the layer's
 * ranks diverge (a hang) or its results differ from the MPI library's (issue 19).
 *
 *   fuzz SEED [STEPS]   (STEPS: default 200)
 *
 * Every rank draws the program from one generator seeded with SEED, so all ranks make the same
 * calls; what MPI lets ranks do differently is drawn from a second generator seeded with SEED
 * and the rank. A step is one of:
 *   - a communicator operation: MPI_Comm_dup or MPI_Comm_split (a random colouring and a random
 *     key order) of a live communicator, or MPI_Comm_free of one (slots are reused), so that
 *     the layer meets communicators created, freed and reused;
 *   - a collective on a random live communicator: allreduce, reduce, bcast, allgather,
 *     allgatherv, alltoall, alltoallv, gather, scatter, reduce_scatter, reduce_scatter_block or
 *     barrier, with a random root and element count (0 included). Ranks describe the data of a
 *     data-movement collective with their own datatype (n x MPI_INT, or n/k x a contiguous or
 *     resized-vector type of k ints: equal type signatures, not equal types), except for
 *     allgatherv (Open MPI 4.1.4 hangs on it natively, ../shared/FACTS.md) and alltoallv; pass
 *     junk (NULL, -1, MPI_DATATYPE_NULL) where an argument is not significant (non-roots of
 *     scatter and gather, the receive buffer of a non-root in reduce); use MPI_IN_PLACE where
 *     the standard allows it; reduce with MPI_SUM or MPI_MAX on MPI_INT, or with a
 *     non-commutative user-defined op (composition of affine maps modulo a prime); and call
 *     from one of two call sites chosen per rank;
 *   - point-to-point in flight across a collective: each rank sends to its right neighbour on
 *     the communicator and posts a receive from MPI_ANY_SOURCE with MPI_ANY_TAG before the
 *     collective, and completes both after it; the message must arrive intact (the layer's
 *     traffic on its private communicators must never match the program's wildcard receives).
 * Every significant output is folded into a hash per rank. Rank 0 prints one line per rank,
 * "fuzz SEED rank R steps S hash H", and the program exits 0; a wrong point-to-point message
 * exits 1. The driver (tests/tools/test_fuzz.py) runs a seed natively and under the layer and
 * compares the lines: any difference, or a run that does not finish in time, fails with the
 * seed.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COMMS 6
#define MAX_COUNT 48 /* elements of a block */
#define PRIME 1000003L

static uint64_t shared_state, own_state;
static uint64_t hash = 14695981039346656037ull;
static int world_rank, world_size, p2p_errors;
static int trace; /* FUZZ_TRACE set: every step on stderr */

static uint64_t next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int shared(int n) /* the same on every rank */
{
    return (int)(next(&shared_state) % (uint64_t)n);
}

static int own(int n) /* this rank's */
{
    return (int)(next(&own_state) % (uint64_t)n);
}

static void fold(const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ p[i]) * 1099511628211ull;
}

/* ---- datatypes: n ints described three ways ------------------------------------------------- */

typedef struct layout {
    MPI_Datatype type; /* MPI_INT or a committed derived type */
    int count;         /* of `type` */
    int owned;         /* type to free */
} layout;

/* n ints as this rank chooses: n x MPI_INT, n/k x contiguous(k), or n/k x a vector of k ints
 * with stride 1 resized to k ints (a derived type that is contiguous in the end). */
static layout describe(int n)
{
    layout l = {MPI_INT, n, 0};
    int divisors[] = {2, 3, 4}, k = divisors[own(3)];
    if (n == 0 || n % k != 0 || own(3) == 0) return l;
    if (own(2)) {
        MPI_Type_contiguous(k, MPI_INT, &l.type);
    } else {
        MPI_Datatype v;
        MPI_Type_vector(k, 1, 1, MPI_INT, &v);
        MPI_Type_create_resized(v, 0, (MPI_Aint)(k * sizeof(int)), &l.type);
        MPI_Type_free(&v);
    }
    MPI_Type_commit(&l.type);
    l.count = n / k;
    l.owned = 1;
    return l;
}

static void release(layout *l)
{
    if (l->owned) MPI_Type_free(&l->type);
}

/* ---- a non-commutative op: affine maps x -> a x + b mod PRIME, composed in rank order ------- */

/* inout = in op inout, `in` from the lower ranks: f op g is "f, then g", x -> g(f(x)) =
 * (g0 f0) x + (g0 f1 + g1): associative, not commutative. */
static void compose(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    long *f = in, *g = inout;
    for (int i = 0; i < *len; i++, f += 2, g += 2) {
        long a = f[0] * g[0] % PRIME, b = (f[1] * g[0] + g[1]) % PRIME;
        g[0] = a;
        g[1] = b;
    }
}

static MPI_Op affine_op;
static MPI_Datatype affine_type; /* two longs */

/* ---- call sites: two of each collective, chosen per rank -------------------------------------- */

__attribute__((noipa)) static void bcast_a(void *b, int n, MPI_Datatype t, int r, MPI_Comm c)
{
    MPI_Bcast(b, n, t, r, c);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noipa)) static void bcast_b(void *b, int n, MPI_Datatype t, int r, MPI_Comm c)
{
    MPI_Bcast(b, n, t, r, c);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noipa)) static void allreduce_a(const void *s, void *r, int n, MPI_Datatype t,
                                               MPI_Op op, MPI_Comm c)
{
    MPI_Allreduce(s, r, n, t, op, c);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noipa)) static void allreduce_b(const void *s, void *r, int n, MPI_Datatype t,
                                               MPI_Op op, MPI_Comm c)
{
    MPI_Allreduce(s, r, n, t, op, c);
    __asm__ volatile("" ::: "memory");
}

/* ---- the steps ---------------------------------------------------------------------------- */

static MPI_Comm comms[MAX_COMMS];

/* world_size shared draws below n (a communicator's ranks use the first ones): the number of
 * draws must not depend on the communicator, whose size differs between the ranks of a split */
static int *draws(int n)
{
    int *v = malloc(sizeof(int) * (size_t)world_size);
    for (int i = 0; i < world_size; i++)
        v[i] = shared(n);
    return v;
}

static void fill(int *x, int n, int salt)
{
    for (int i = 0; i < n; i++)
        x[i] = (int)(next(&own_state) % 1000) + salt;
}

/* A reduction's operands and op: MPI_INT with SUM or MAX, or affine maps with the user op. */
static void reduction(int n, MPI_Datatype *type, MPI_Op *op, size_t *elem)
{
    switch (shared(3)) {
    case 0: *type = MPI_INT, *op = MPI_SUM, *elem = sizeof(int); break;
    case 1: *type = MPI_INT, *op = MPI_MAX, *elem = sizeof(int); break;
    default: *type = affine_type, *op = affine_op, *elem = 2 * sizeof(long); break;
    }
    (void)n;
}

static void operands(void *x, int n, MPI_Datatype type)
{
    if (type == MPI_INT) {
        fill(x, n, 0);
        return;
    }
    long *f = x;
    for (int i = 0; i < n; i++) {
        f[2 * i] = 1 + (long)(next(&own_state) % (PRIME - 1));
        f[2 * i + 1] = (long)(next(&own_state) % PRIME);
    }
}

static void collective(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int kind = shared(12), n = shared(MAX_COUNT + 1), root = shared(size);
    int in_place = shared(4) == 0, site = own(2);
    if (trace) fprintf(stderr, "fuzz: rank %d: collective %d, %d elements, root %d, in place %d, "
                       "%d ranks\n", world_rank, kind, n, root, in_place, size);
    size_t big = (size_t)MAX_COUNT * (size_t)size + 1;
    int *s = calloc(big, 2 * sizeof(long)), *r = calloc(big, 2 * sizeof(long));
    MPI_Datatype type;
    MPI_Op op;
    size_t elem;
    layout ls, lr;
    switch (kind) {
    case 0: /* allreduce */
        reduction(n, &type, &op, &elem);
        operands(r, n, type);
        memcpy(s, r, (size_t)n * elem);
        (site ? allreduce_a : allreduce_b)(in_place ? MPI_IN_PLACE : s, r, n, type, op, comm);
        fold(r, (size_t)n * elem);
        break;
    case 1: /* reduce; the receive buffer is not significant at a non-root */
        reduction(n, &type, &op, &elem);
        operands(s, n, type);
        if (rank == root && in_place) {
            memcpy(r, s, (size_t)n * elem);
            MPI_Reduce(MPI_IN_PLACE, r, n, type, op, root, comm);
        } else {
            MPI_Reduce(s, rank == root ? r : NULL, n, type, op, root, comm);
        }
        if (rank == root) fold(r, (size_t)n * elem);
        break;
    case 2: /* bcast */
        if (rank == root) fill(s, n, 1);
        ls = describe(n);
        (site ? bcast_a : bcast_b)(s, ls.count, ls.type, root, comm);
        release(&ls);
        fold(s, (size_t)n * sizeof(int));
        break;
    case 3: /* allgather */
        fill(s, n, 2);
        ls = describe(n), lr = describe(n);
        if (in_place) {
            memcpy(r + (size_t)rank * n, s, (size_t)n * sizeof(int));
            MPI_Allgather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, r, lr.count, lr.type, comm);
        } else {
            MPI_Allgather(s, ls.count, ls.type, r, lr.count, lr.type, comm);
        }
        release(&ls), release(&lr);
        fold(r, (size_t)n * size * sizeof(int));
        break;
    case 4: /* alltoall */
        fill(s, n * size, 3);
        ls = describe(n), lr = describe(n);
        if (in_place) {
            memcpy(r, s, (size_t)n * size * sizeof(int));
            MPI_Alltoall(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, r, lr.count, lr.type, comm);
        } else {
            MPI_Alltoall(s, ls.count, ls.type, r, lr.count, lr.type, comm);
        }
        release(&ls), release(&lr);
        fold(r, (size_t)n * size * sizeof(int));
        break;
    case 5: /* gather: receive arguments significant at the root only */
        fill(s, n, 4);
        ls = describe(n), lr = describe(n);
        if (rank == root && in_place) {
            memcpy(r + (size_t)root * n, s, (size_t)n * sizeof(int));
            MPI_Gather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, r, lr.count, lr.type, root, comm);
        } else if (rank == root) {
            MPI_Gather(s, ls.count, ls.type, r, lr.count, lr.type, root, comm);
        } else {
            MPI_Gather(s, ls.count, ls.type, NULL, -1, MPI_DATATYPE_NULL, root, comm);
        }
        release(&ls), release(&lr);
        if (rank == root) fold(r, (size_t)n * size * sizeof(int));
        break;
    case 6: /* scatter: send arguments significant at the root only */
        if (rank == root) fill(s, n * size, 5);
        ls = describe(n), lr = describe(n);
        if (rank == root && in_place) {
            MPI_Scatter(s, ls.count, ls.type, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, root, comm);
            memcpy(r, s + (size_t)root * n, (size_t)n * sizeof(int));
        } else if (rank == root) {
            MPI_Scatter(s, ls.count, ls.type, r, lr.count, lr.type, root, comm);
        } else {
            MPI_Scatter(NULL, -1, MPI_DATATYPE_NULL, r, lr.count, lr.type, root, comm);
        }
        release(&ls), release(&lr);
        fold(r, (size_t)n * sizeof(int));
        break;
    case 7: { /* allgatherv: per-rank counts, one datatype (FACTS.md) */
        int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
        int *drawn = draws(MAX_COUNT + 1);
        for (int i = 0, at = 0; i < size; i++) {
            counts[i] = drawn[i];
            displs[i] = at;
            at += counts[i];
        }
        free(drawn);
        fill(s, counts[rank], 6);
        if (in_place) {
            memcpy(r + displs[rank], s, (size_t)counts[rank] * sizeof(int));
            MPI_Allgatherv(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, r, counts, displs, MPI_INT, comm);
        } else {
            MPI_Allgatherv(s, counts[rank], MPI_INT, r, counts, displs, MPI_INT, comm);
        }
        fold(r, (size_t)(displs[size - 1] + counts[size - 1]) * sizeof(int));
        free(counts), free(displs);
        break;
    }
    case 8: { /* alltoallv: block (i, j) has (i + j + n) % 5 ints */
        int *sc = malloc(sizeof(int) * 4 * (size_t)size), *sd = sc + size, *rc = sd + size,
            *rd = rc + size;
        int st = 0, rt = 0;
        for (int j = 0; j < size; j++) {
            sc[j] = (rank + j + n) % 5, sd[j] = st, st += sc[j];
            rc[j] = (j + rank + n) % 5, rd[j] = rt, rt += rc[j];
        }
        fill(s, st, 7);
        MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, comm);
        fold(r, (size_t)rt * sizeof(int));
        free(sc);
        break;
    }
    case 9: { /* reduce_scatter: per-rank counts */
        int *counts = draws(MAX_COUNT / 4 + 1), total = 0;
        for (int i = 0; i < size; i++)
            total += counts[i];
        reduction(total, &type, &op, &elem);
        operands(s, total, type);
        MPI_Reduce_scatter(s, r, counts, type, op, comm);
        fold(r, (size_t)counts[rank] * elem);
        free(counts);
        break;
    }
    case 10: { /* reduce_scatter_block */
        int m = n / 4;
        reduction(m * size, &type, &op, &elem);
        operands(s, m * size, type);
        if (in_place) {
            memcpy(r, s, (size_t)m * size * elem);
            MPI_Reduce_scatter_block(MPI_IN_PLACE, r, m, type, op, comm);
        } else {
            MPI_Reduce_scatter_block(s, r, m, type, op, comm);
        }
        fold(r, (size_t)m * elem);
        break;
    }
    default:
        MPI_Barrier(comm);
        break;
    }
    free(s);
    free(r);
}

/* Point-to-point around a collective: a wildcard receive and a send in flight across it. */
static void with_p2p(MPI_Comm comm, int tag)
{
    int rank, size, got[2] = {-1, -1}, sent[2];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Request req[2];
    sent[0] = rank, sent[1] = tag;
    MPI_Irecv(got, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &req[0]);
    MPI_Isend(sent, 2, MPI_INT, (rank + 1) % size, tag, comm, &req[1]);
    collective(comm);
    MPI_Status st[2];
    MPI_Waitall(2, req, st);
    int left = (rank + size - 1) % size;
    if (got[0] != left || got[1] != tag || st[0].MPI_SOURCE != left || st[0].MPI_TAG != tag) {
        fprintf(stderr, "fuzz: rank %d: a wildcard receive got (%d, %d) from %d tag %d, expected "
                "(%d, %d)\n", world_rank, got[0], got[1], st[0].MPI_SOURCE, st[0].MPI_TAG, left,
                tag);
        p2p_errors++;
    }
}

static int live(void) /* a random live slot (slot 0, world, is always live) */
{
    int slot;
    do slot = shared(MAX_COMMS);
    while (comms[slot] == MPI_COMM_NULL);
    return slot;
}

static void comm_step(void)
{
    int from = live(), to = shared(MAX_COMMS);
    if (to == 0) return;
    if (comms[to] != MPI_COMM_NULL) {
        MPI_Comm_free(&comms[to]);
        return;
    }
    if (shared(2)) {
        MPI_Comm_dup(comms[from], &comms[to]);
    } else {
        int rank, colours = 1 + shared(3), key_salt = shared(1000);
        MPI_Comm_rank(comms[from], &rank);
        /* the key reverses or shuffles the order (SMPI's split_type ignores keys; split keeps them) */
        MPI_Comm_split(comms[from], rank % colours, (rank * 7919 + key_salt) % 1009, &comms[to]);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (argc < 2) {
        if (world_rank == 0) fprintf(stderr, "usage: fuzz SEED [STEPS]\n");
        MPI_Finalize();
        return 2;
    }
    uint64_t seed = strtoull(argv[1], NULL, 10);
    int steps = argc > 2 ? atoi(argv[2]) : 200;
    shared_state = seed;
    own_state = seed * 1000003ull + (uint64_t)world_rank + 1;
    MPI_Type_contiguous(2, MPI_LONG, &affine_type);
    MPI_Type_commit(&affine_type);
    MPI_Op_create(compose, 0, &affine_op);
    comms[0] = MPI_COMM_WORLD;
    for (int i = 1; i < MAX_COMMS; i++)
        comms[i] = MPI_COMM_NULL;
    trace = getenv("FUZZ_TRACE") != NULL;
    for (int step = 0; step < steps; step++) {
        int what = shared(10);
        if (trace) fprintf(stderr, "fuzz: rank %d: step %d: %d\n", world_rank, step, what);
        if (what == 0) {
            comm_step();
        } else {
            MPI_Comm comm = comms[live()];
            int size, tag = shared(100); /* drawn by every rank, whatever its communicator */
            MPI_Comm_size(comm, &size);
            if (what == 1 && size > 1) with_p2p(comm, tag);
            else collective(comm);
        }
    }
    for (int i = 1; i < MAX_COMMS; i++)
        if (comms[i] != MPI_COMM_NULL) MPI_Comm_free(&comms[i]);
    unsigned long long all[64] = {0}, mine = hash;
    int errors = 0;
    MPI_Gather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&p2p_errors, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (world_rank == 0)
        for (int r = 0; r < world_size && r < 64; r++)
            printf("fuzz %llu rank %d steps %d hash %016llx\n", (unsigned long long)seed, r,
                   steps, all[r]);
    MPI_Op_free(&affine_op);
    MPI_Type_free(&affine_type);
    MPI_Finalize();
    return errors ? 1 : 0;
}
