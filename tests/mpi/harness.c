/*
 * harness.c - correctness of every registered algorithm against the native collective.
 *
 * Generated from the registry at run time: for every collective and every algorithm in its
 * table and every mesh instance of the communicators' sizes (ac_registry_for_size), or the
 * ones named on the command line, on communicators world, reversed, odd/even split and half,
 * it runs each case that the algorithm declares applicable (ac_applicable)
 * and compares the result bitwise with the native collective on the same input: whole receive
 * buffers including the gaps of strided types and guard bytes around them, and the send
 * buffer (must be left untouched). Reduction data are small integers so every reduction order
 * gives the same bits; allreduce is also run on random doubles and must give identical bits on
 * every rank. Segmented instances (the pipelined trees: params->segment > 0) run with counts of
 * several segments and a partial last one (see counts_segmented).
 *
 *   harness [--collective NAME] [--algorithm NAME] [--match TEXT] [--long] [--verbose]
 *           [--composed-blocking-only]
 *
 * --self-test runs deliberately broken algorithms (broken.c) and fails unless the harness
 * catches every one of them.
 * --match runs only algorithms whose name contains TEXT (e.g. "node" for the node-aware ones).
 * An algorithm written as a schedule runs every case twice: by its blocking entry point, then
 * progressed as a nonblocking call's schedule is (two at once on distinct tags);
 * --composed-blocking-only runs the composed ones (ac_is_composed: the hierarchical and
 * orthogonal instances, allreduce's families) by their blocking entry point only (the SimGrid
 * build's 16-rank runs: tests/simgrid/CMakeLists.txt).
 *
 * Exit status 0 when every case passed, 1 otherwise. Prints "harness: N passed, N failed".
 */
#include "broken.h"
#include "coll/coll.h"
#include "coll/common/sched.h"
#include "coll/common/shm.h"
#include "select/select.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GUARD 64
#define GUARD_BYTE 0xA5

/* ---- datatypes -------------------------------------------------------------------------- */

typedef enum basic_kind { BASIC_INT, BASIC_DOUBLE, BASIC_UNSIGNED } basic_kind;

typedef struct ttype {
    const char *name;
    MPI_Datatype type;
    basic_kind basic;
    int nbasic; /* basic elements per element of `type` */
} ttype;

static ttype t_int, t_double, t_contig3, t_vector, t_mat2x2;

static MPI_Datatype basic_type(basic_kind k)
{
    return k == BASIC_INT ? MPI_INT : k == BASIC_DOUBLE ? MPI_DOUBLE : MPI_UNSIGNED;
}

static void types_create(void)
{
    MPI_Datatype vec;
    t_int = (ttype){"int", MPI_INT, BASIC_INT, 1};
    t_double = (ttype){"double", MPI_DOUBLE, BASIC_DOUBLE, 1};
    t_contig3 = (ttype){"contig3", MPI_DATATYPE_NULL, BASIC_INT, 3};
    MPI_Type_contiguous(3, MPI_INT, &t_contig3.type);
    MPI_Type_commit(&t_contig3.type);
    /* Two ints with a one-int hole between them, resized so that consecutive elements leave a
     * further gap: the element is [x . x .], lower bound 0, extent 4 ints. */
    t_vector = (ttype){"vector", MPI_DATATYPE_NULL, BASIC_INT, 2};
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, 4 * (MPI_Aint)sizeof(int), &t_vector.type);
    MPI_Type_commit(&t_vector.type);
    MPI_Type_free(&vec);
    t_mat2x2 = (ttype){"mat2x2", MPI_DATATYPE_NULL, BASIC_UNSIGNED, 4};
    MPI_Type_contiguous(4, MPI_UNSIGNED, &t_mat2x2.type);
    MPI_Type_commit(&t_mat2x2.type);
}

/* ---- user-defined ops ------------------------------------------------------------------- */

static void op_int_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* inout = in x inout, 2x2 matrices of unsigned (wrapping): not commutative. */
static void op_matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    unsigned *a = in, *b = inout;
    for (int i = 0; i < *len; i++, a += 4, b += 4) {
        unsigned c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                         a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}

/* Sum over the strided vector type: ints at 0 and 2 of every 4. */
static void op_vector_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++) {
        ((int *)inout)[4 * i] += ((int *)in)[4 * i];
        ((int *)inout)[4 * i + 2] += ((int *)in)[4 * i + 2];
    }
}

typedef struct top {
    const char *name;
    MPI_Op op;
    ttype *type;
} top;

static top ops[6];
static int nops;

static void types_free(void)
{
    MPI_Type_free(&t_contig3.type);
    MPI_Type_free(&t_vector.type);
    MPI_Type_free(&t_mat2x2.type);
    for (int o = 0; o < nops; o++)
        if (strncmp(ops[o].name, "user", 4) == 0) MPI_Op_free(&ops[o].op);
}

static void ops_create(void)
{
    MPI_Op sum_user, matmul, vsum;
    MPI_Op_create(op_int_sum, 1, &sum_user);
    MPI_Op_create(op_matmul, 0, &matmul);
    MPI_Op_create(op_vector_sum, 1, &vsum);
    ops[nops++] = (top){"sum", MPI_SUM, &t_int};
    ops[nops++] = (top){"sum", MPI_SUM, &t_double};
    ops[nops++] = (top){"max", MPI_MAX, &t_double};
    ops[nops++] = (top){"user_commutative_sum", sum_user, &t_int};
    ops[nops++] = (top){"user_matmul_noncommutative", matmul, &t_mat2x2};
    ops[nops++] = (top){"user_vector_sum", vsum, &t_vector};
}

/* ---- buffers ---------------------------------------------------------------------------- */

typedef struct buf {
    unsigned char *alloc; /* GUARD | data span | GUARD */
    size_t span;
    char *p; /* address to hand to MPI */
} buf;

/* Room for `count` elements of `t` starting at element offset 0. */
static size_t span_of(MPI_Aint count, MPI_Datatype t);

static void buf_make(buf *b, MPI_Aint count, MPI_Datatype t)
{
    b->span = span_of(count, t);
    b->alloc = malloc(b->span + 2 * GUARD);
    memset(b->alloc, GUARD_BYTE, b->span + 2 * GUARD);
    b->p = (char *)b->alloc + GUARD;
}

/* Bytes from the first to the last byte of `count` elements of `t` (lower bound 0). */
static size_t span_of(MPI_Aint count, MPI_Datatype t)
{
    MPI_Aint lb, extent, tlb, textent;
    MPI_Type_get_extent(t, &lb, &extent);
    MPI_Type_get_true_extent(t, &tlb, &textent);
    return count > 0 ? (size_t)(tlb + (count - 1) * extent + textent) : 0;
}

static void buf_free(buf *b)
{
    free(b->alloc);
}

static size_t buf_bytes(const buf *b)
{
    return b->span + 2 * GUARD;
}

/* Write `count` elements of `t` with values given by (seed, index) into b at element offset
 * `at`: small integers, so every reduction order is exact. */
static void fill(char *where, MPI_Aint count, const ttype *t, int seed)
{
    MPI_Aint n = count * t->nbasic;
    if (count == 0) return;
    if (t->basic == BASIC_DOUBLE) {
        double *v = malloc(sizeof(double) * (size_t)n);
        for (MPI_Aint i = 0; i < n; i++)
            v[i] = (double)((seed * 31 + i * 7) % 97);
        MPI_Sendrecv(v, (int)n, MPI_DOUBLE, 0, 0, where, (int)count, t->type, 0, 0, MPI_COMM_SELF,
                     MPI_STATUS_IGNORE);
        free(v);
    } else {
        int *v = malloc(sizeof(int) * (size_t)n);
        for (MPI_Aint i = 0; i < n; i++)
            v[i] = (seed * 31 + (int)i * 7) % 97 + (t->basic == BASIC_UNSIGNED ? 1 : -40);
        MPI_Sendrecv(v, (int)n, basic_type(t->basic), 0, 0, where, (int)count, t->type, 0, 0,
                     MPI_COMM_SELF, MPI_STATUS_IGNORE);
        free(v);
    }
}

/* A type describing `count` elements of `t` at absolute address `base`, resized so that
 * block j of a collective (count 1 per block) lies at MPI_BOTTOM + j * count * extent(t). */
static MPI_Datatype absolute_blocks(void *base, int count, MPI_Datatype t)
{
    MPI_Aint addr, lb, extent;
    MPI_Datatype h, r;
    MPI_Get_address(base, &addr);
    MPI_Type_get_extent(t, &lb, &extent);
    MPI_Type_create_hindexed_block(1, count, &addr, t, &h);
    MPI_Type_create_resized(h, addr, count * extent, &r);
    MPI_Type_commit(&r);
    MPI_Type_free(&h);
    return r;
}

/* ---- results ---------------------------------------------------------------------------- */

static int verbose, long_mode, composed_blocking_only;

/* The runs of an algorithm's cases beyond the blocking one: 1, progressed, where it is written
 * as a schedule, but a composed one's under --composed-blocking-only. */
static int progressions(const ac_algorithm *alg)
{
    return ac_has_schedule(alg) && !(composed_blocking_only && ac_is_composed(alg));
}
static long passed, failed, not_applicable;

typedef struct tcase {
    const ac_algorithm *alg;
    const char *comm_name;
    MPI_Comm comm;  /* test communicator (native runs here) */
    MPI_Comm pcomm; /* its duplicate (the algorithm runs here) */
    int rank, size;
    const char *type_name;
    const char *op_name;
    int count, in_place, root;
    int progressed; /* the algorithm's schedule run as a nonblocking call's (run_allreduce) */
} tcase;

static int mismatch;
static char mismatch_text[256];

static void compare(const char *what, const buf *expected, const buf *got)
{
    if (mismatch) return;
    for (size_t i = 0; i < buf_bytes(expected); i++) {
        if (expected->alloc[i] != got->alloc[i]) {
            long off = (long)i - GUARD;
            snprintf(mismatch_text, sizeof mismatch_text,
                     "%s differs at byte %ld of %zu (expected 0x%02x, got 0x%02x)%s", what, off,
                     expected->span, expected->alloc[i], got->alloc[i],
                     (off < 0 || off >= (long)expected->span) ? " [guard bytes overwritten]" : "");
            mismatch = 1;
            return;
        }
    }
}

static void finish(const tcase *c, int rc)
{
    int local = mismatch || rc != MPI_SUCCESS, any = 0;
    if (rc != MPI_SUCCESS && !mismatch)
        snprintf(mismatch_text, sizeof mismatch_text, "returned error %d", rc);
    PMPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, c->comm);
    if (any) {
        failed++;
        if (local)
            fprintf(stderr,
                    "FAIL %s %s comm=%s(size %d) type=%s op=%s count=%d in_place=%d root=%d "
                    "progressed=%d rank=%d: %s\n",
                    ac_collective_name(c->alg->collective), c->alg->name, c->comm_name, c->size,
                    c->type_name, c->op_name, c->count, c->in_place, c->root, c->progressed,
                    c->rank, mismatch_text);
    } else {
        passed++;
    }
    mismatch = 0;
}

static int applicable(const tcase *c, MPI_Op op, int count, size_t bytes)
{
    ac_call call = {.collective = c->alg->collective,
                    .size = c->size,
                    .count = count,
                    .bytes = bytes,
                    .op = MPI_OP_NULL};
    if (op != MPI_OP_NULL) ac_call_set_op(&call, op);
    /* the node layout: collective on pcomm the first time, every rank asks at the same case */
    if ((c->alg->requires & (AC_REQ_NODES | AC_REQ_SHARED_MEMORY)) &&
        ac_call_nodes(&call, c->pcomm) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 3);
    if (ac_applicable(c->alg, &call, NULL)) return 1;
    not_applicable++;
    return 0;
}

static size_t type_size(MPI_Datatype t)
{
    int s;
    MPI_Type_size(t, &s);
    return (size_t)s;
}

/* Bugs of the native libraries that a case would hit in the registry's `native` algorithm (the
 * library itself): such cases are not run (they may crash), and are counted and named in the
 * summary. Keep this list to bugs that fail without autocoll (docs/native-libraries.md). Each
 * predicate reads only facts equal on every rank of the case. */
typedef struct known_failure {
    const char *library; /* substring of MPI_Get_library_version */
    ac_collective collective;
    const char *algorithm;
    int (*hits)(const tcase *c, size_t bytes, int commutative);
    const char *what;
} known_failure;

static int ompi_alltoall_bottom(const tcase *c, size_t bytes, int commutative)
{
    (void)bytes;
    (void)commutative;
    return strcmp(c->type_name, "vector@MPI_BOTTOM") == 0 && c->size >= 13;
}

static int mpich_reduce_in_place(const tcase *c, size_t bytes, int commutative)
{
    return c->in_place && c->root != 0 && bytes > 2048 && commutative;
}

static int smpi_alltoallv_in_place_vector(const tcase *c, size_t bytes, int commutative)
{
    (void)bytes;
    (void)commutative;
    return c->in_place && strcmp(c->type_name, "vector") == 0;
}

/* the native schedule's step: the library's MPI_Ireduce, MPI_Ireduce_scatter(_block) */
static int smpi_ireduce_derived(const tcase *c, size_t bytes, int commutative)
{
    (void)bytes;
    (void)commutative;
    return c->progressed &&
           (strcmp(c->type_name, "vector") == 0 || strcmp(c->type_name, "mat2x2") == 0);
}

static const known_failure known_failures[] = {
    {"Open MPI v4.1", AC_ALLTOALL, "native", ompi_alltoall_bottom,
     "Open MPI 4.1's alltoall with MPI_BOTTOM and absolute-address types from 13 ranks (its "
     "Bruck algorithm): wrong results or a crash"},
    {"MPICH Version:\t4.0", AC_REDUCE, "native", mpich_reduce_in_place,
     "MPICH 4.0's reduce with MPI_IN_PLACE at a root other than 0, over 2048 bytes, "
     "commutative op: a crash"},
    {"SMPI Version 3.32", AC_ALLTOALLV, "native", smpi_alltoallv_in_place_vector,
     "SMPI 3.32's alltoallv with MPI_IN_PLACE and a strided vector type: wrong results"},
    {"SMPI Version 3.32", AC_REDUCE, "native", smpi_ireduce_derived,
     "SMPI 3.32's MPI_Ireduce of a derived type with a user op (16 ranks): wrong results at "
     "the root, then a crash"},
    {"SMPI Version 3.32", AC_REDUCE_SCATTER, "native", smpi_ireduce_derived,
     "SMPI 3.32's MPI_Ireduce_scatter of a derived type with a user op (16 ranks): wrong "
     "results, then a crash"},
    {"SMPI Version 3.32", AC_REDUCE_SCATTER_BLOCK, "native", smpi_ireduce_derived,
     "SMPI 3.32's MPI_Ireduce_scatter_block of a derived type with a user op (16 ranks): wrong "
     "results, then a crash"},
};

static char library_version[MPI_MAX_LIBRARY_VERSION_STRING];
static long known_skipped;
static int known_hit[sizeof known_failures / sizeof known_failures[0]];

static int known_failure_case(const tcase *c, size_t bytes, int commutative)
{
    for (size_t i = 0; i < sizeof known_failures / sizeof known_failures[0]; i++) {
        const known_failure *k = &known_failures[i];
        if (strstr(library_version, k->library) && k->collective == c->alg->collective &&
            strcmp(k->algorithm, c->alg->name) == 0 && k->hits(c, bytes, commutative)) {
            known_skipped++;
            known_hit[i] = 1;
            return 1;
        }
    }
    return 0;
}

/* ---- per-collective cases --------------------------------------------------------------- */

/* Blocks (MPI_Waitany) until a message of a schedule not done completes, and marks it completed
 * in its schedule, as intercept/requests.c does where the application waits. rc of MPI_Waitany. */
static int wait_any_message(ac_sched s[2], const int done[2])
{
    int n = 0, total = (done[0] ? 0 : s[0].nreqs) + (done[1] ? 0 : s[1].nreqs), idx;
    MPI_Request *reqs = malloc(sizeof *reqs * (size_t)(total + 1));
    int *owner = malloc(sizeof *owner * (size_t)(total + 1));
    int *slot = malloc(sizeof *slot * (size_t)(total + 1));
    if (!reqs || !owner || !slot) {
        fprintf(stderr, "harness: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int k = 0; k < 2; k++)
        for (int i = 0; !done[k] && i < s[k].nreqs; i++)
            if (s[k].reqs[i] != MPI_REQUEST_NULL)
                reqs[n] = s[k].reqs[i], owner[n] = k, slot[n++] = i;
    /* none in flight (a schedule held for its library step's turn, sched.h, the other's
     * started and completed): nothing to wait for; SMPI 3.32's MPI_Waitany crashes on it */
    int rc = n ? PMPI_Waitany(n, reqs, &idx, MPI_STATUS_IGNORE) : MPI_SUCCESS;
    if (!n) idx = MPI_UNDEFINED;
    if (rc == MPI_SUCCESS && idx != MPI_UNDEFINED) s[owner[idx]].reqs[slot[idx]] = MPI_REQUEST_NULL;
    free(reqs);
    free(owner);
    free(slot);
    return rc;
}

/* Two schedules started back to back and advanced in turn (the second first) by
 * ac_sched_progress until both have ended, then freed; rc or their first error. Between turns
 * the rank blocks in MPI_Waitany for a message of either, and a schedule advances once its
 * round's messages have all completed there: the library completes most messages in a wait.
 * Under SMPI 3.32, polling with MPI_Test* made the run slow down as it went (every message
 * completed by a test, and every test's simulated sleep, left work that each later completion
 * pays: tests/simgrid/CMakeLists.txt); the 16-rank allgatherv run took more than 10 minutes. */
static int progress_two(ac_sched s[2], int done[2], int rc)
{
    while (!done[0] || !done[1]) {
        int wrc = wait_any_message(s, done);
        if (wrc != MPI_SUCCESS) {
            if (rc == MPI_SUCCESS) rc = wrc; /* then complete what is in flight */
            for (int k = 0; k < 2; k++)
                if (!done[k]) ac_sched_drain(&s[k]), done[k] = 1;
            break;
        }
        for (int k = 1; k >= 0; k--) {
            int krc = done[k] || !ac_sched_round_completed(&s[k])
                          ? MPI_SUCCESS
                          : ac_sched_progress(&s[k], 0, &done[k]);
            if (rc == MPI_SUCCESS) rc = krc;
        }
    }
    ac_sched_free(&s[0]);
    ac_sched_free(&s[1]);
    return rc;
}

/* The algorithm's allreduce into rbuf: its blocking entry point; or (c->progressed) its
 * schedule run as a nonblocking call's is, twice at once: two schedules on distinct tags, the
 * second into rbuf2 (which holds what rbuf holds), started back to back and advanced in turn by
 * MPI_Testall (ac_sched_progress) until both have ended. */
static int run_allreduce(const tcase *c, const void *sbuf, void *rbuf, void *rbuf2, int count,
                         MPI_Datatype t, MPI_Op op)
{
    if (!c->progressed)
        return c->alg->fn.allreduce(sbuf, rbuf, count, t, op, c->pcomm, c->alg->params);
    ac_sched s[2];
    void *out[2] = {rbuf, rbuf2};
    int done[2] = {1, 1}, rc = MPI_SUCCESS;
    for (int k = 0; k < 2; k++) {
        int krc = ac_sched_init(&s[k], c->pcomm, 8101 + k);
        if (krc == MPI_SUCCESS)
            krc = c->alg->sched.allreduce(&s[k], sbuf, out[k], count, t, op, c->alg->params);
        if (krc == MPI_SUCCESS) krc = ac_sched_start(&s[k], &done[k]);
        if (rc == MPI_SUCCESS) rc = krc;
    }
    return progress_two(s, done, rc);
}

static void case_allreduce(tcase *c, const top *o)
{
    const ttype *t = o->type;
    buf send, exp, got, got2;
    if (!applicable(c, o->op, c->count, (size_t)c->count * type_size(t->type))) return;
    buf_make(&send, c->count, t->type);
    buf_make(&exp, c->count, t->type);
    buf_make(&got, c->count, t->type);
    buf_make(&got2, c->count, t->type);
    fill(send.p, c->count, t, c->rank);
    unsigned char *send_before = malloc(buf_bytes(&send));
    memcpy(send_before, send.alloc, buf_bytes(&send));
    int rc;
    if (c->in_place) {
        fill(exp.p, c->count, t, c->rank);
        fill(got.p, c->count, t, c->rank);
        fill(got2.p, c->count, t, c->rank);
        PMPI_Allreduce(MPI_IN_PLACE, exp.p, c->count, t->type, o->op, c->comm);
        rc = run_allreduce(c, MPI_IN_PLACE, got.p, got2.p, c->count, t->type, o->op);
    } else {
        PMPI_Allreduce(send.p, exp.p, c->count, t->type, o->op, c->comm);
        rc = run_allreduce(c, send.p, got.p, got2.p, c->count, t->type, o->op);
        if (memcmp(send_before, send.alloc, buf_bytes(&send)) != 0) {
            mismatch = 1;
            snprintf(mismatch_text, sizeof mismatch_text, "send buffer modified");
        }
    }
    compare("recvbuf", &exp, &got);
    if (c->progressed) compare("recvbuf of the second schedule", &exp, &got2);
    finish(c, rc);
    free(send_before);
    buf_free(&send);
    buf_free(&exp);
    buf_free(&got);
    buf_free(&got2);
}

/* Allreduce of random doubles: every rank must hold identical bits. */
static void case_allreduce_identical(tcase *c)
{
    int n = c->count;
    if (!applicable(c, MPI_SUM, n, (size_t)n * sizeof(double))) return;
    double *in = malloc(sizeof(double) * (size_t)(n + 1)),
           *out = malloc(sizeof(double) * (size_t)(n + 1)),
           *out2 = malloc(sizeof(double) * (size_t)(n + 1));
    srand(1234 + c->rank);
    for (int i = 0; i < n; i++)
        in[i] = (double)rand() / RAND_MAX * 1e3 + 1e-7 * c->rank;
    int rc = run_allreduce(c, in, out, out2, n, MPI_DOUBLE, MPI_SUM);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < (size_t)n * sizeof(double); i++)
        h = (h ^ ((unsigned char *)out)[i]) * 1099511628211ull;
    uint64_t hmin = h, hmax = h;
    PMPI_Allreduce(MPI_IN_PLACE, &hmin, 1, MPI_UINT64_T, MPI_MIN, c->comm);
    PMPI_Allreduce(MPI_IN_PLACE, &hmax, 1, MPI_UINT64_T, MPI_MAX, c->comm);
    if (hmin != hmax) {
        mismatch = 1;
        snprintf(mismatch_text, sizeof mismatch_text, "random-double results differ between ranks");
    }
    if (c->progressed && memcmp(out, out2, sizeof(double) * (size_t)n) != 0) {
        mismatch = 1;
        snprintf(mismatch_text, sizeof mismatch_text, "the two schedules' results differ");
    }
    finish(c, rc);
    free(in);
    free(out);
    free(out2);
}

typedef int build_fn(ac_sched *s, int k, const void *arg);
static int run_progressed(const tcase *c, int n, build_fn *build, const void *arg);

/* A reduce's arguments for its schedules: the second one's receive buffer rbuf2. */
typedef struct {
    const tcase *c;
    const void *sbuf;
    void *rbuf[2];
    int count;
    MPI_Datatype type;
    MPI_Op op;
} reduce_args;

static int build_reduce(ac_sched *s, int k, const void *arg)
{
    const reduce_args *a = arg;
    const ac_algorithm *alg = a->c->alg;
    return alg->sched.reduce(s, a->sbuf, a->rbuf[k], a->count, a->type, a->op, a->c->root,
                             alg->params);
}

/* The algorithm's reduce into rbuf: its blocking entry point, or (c->progressed) its schedule
 * run as a nonblocking call's is, twice at once, the second into rbuf2 (which holds what rbuf
 * holds). */
static int run_reduce(const tcase *c, const void *sbuf, void *rbuf, void *rbuf2, int count,
                      MPI_Datatype type, MPI_Op op)
{
    if (!c->progressed)
        return c->alg->fn.reduce(sbuf, rbuf, count, type, op, c->root, c->pcomm, c->alg->params);
    reduce_args a = {c, sbuf, {rbuf, rbuf2}, count, type, op};
    return run_progressed(c, 2, build_reduce, &a);
}

static void case_reduce(tcase *c, const top *o)
{
    const ttype *t = o->type;
    buf send, exp, got, got2;
    int root = c->rank == c->root;
    size_t bytes = (size_t)c->count * type_size(t->type);
    int commutative = 0;
    MPI_Op_commutative(o->op, &commutative);
    if (!applicable(c, o->op, c->count, bytes) || known_failure_case(c, bytes, commutative)) return;
    buf_make(&send, c->count, t->type);
    buf_make(&exp, c->count, t->type);
    buf_make(&got, c->count, t->type);
    buf_make(&got2, c->count, t->type);
    fill(send.p, c->count, t, c->rank);
    int rc;
    if (c->in_place && root) {
        /* The reference is the same reduction without MPI_IN_PLACE (MPI defines them equal). */
        fill(got.p, c->count, t, c->rank);
        fill(got2.p, c->count, t, c->rank);
        PMPI_Reduce(send.p, exp.p, c->count, t->type, o->op, c->root, c->comm);
        rc = run_reduce(c, MPI_IN_PLACE, got.p, got2.p, c->count, t->type, o->op);
    } else {
        PMPI_Reduce(send.p, exp.p, c->count, t->type, o->op, c->root, c->comm);
        rc = run_reduce(c, send.p, got.p, got2.p, c->count, t->type, o->op);
    }
    if (root) compare("recvbuf at root", &exp, &got);
    if (root && c->progressed) compare("recvbuf of the second schedule at root", &exp, &got2);
    finish(c, rc);
    buf_free(&send);
    buf_free(&exp);
    buf_free(&got);
    buf_free(&got2);
}

/* Receive counts of the v-collectives: uneven, some zero. */
static int vcount(int count, int i)
{
    return (count == 0 || i % 3 == 1) ? 0 : count + i % 4;
}

/* A reduce_scatter's or reduce_scatter_block's arguments (by c->alg->collective) for its
 * schedules: the second one's receive buffer rbuf[1] (holding what rbuf[0] holds). */
typedef struct {
    const tcase *c;
    const void *sbuf;
    void *rbuf[2];
    const int *rcounts;
    int rcount;
    MPI_Datatype type;
    MPI_Op op;
} reduce_scatter_args;

static int build_reduce_scatter(ac_sched *s, int k, const void *arg)
{
    const reduce_scatter_args *a = arg;
    const ac_algorithm *alg = a->c->alg;
    if (alg->collective == AC_REDUCE_SCATTER_BLOCK)
        return alg->sched.reduce_scatter_block(s, a->sbuf, a->rbuf[k], a->rcount, a->type, a->op,
                                               alg->params);
    return alg->sched.reduce_scatter(s, a->sbuf, a->rbuf[k], a->rcounts, a->type, a->op,
                                     alg->params);
}

/* The algorithm's reduce_scatter(_block): its blocking entry point, or (c->progressed) its
 * schedule run as a nonblocking call's is, twice at once. */
static int run_reduce_scatter(const reduce_scatter_args *a, int block)
{
    const tcase *c = a->c;
    const ac_algorithm *alg = c->alg;
    if (c->progressed) return run_progressed(c, 2, build_reduce_scatter, a);
    if (block)
        return alg->fn.reduce_scatter_block(a->sbuf, a->rbuf[0], a->rcount, a->type, a->op,
                                            c->pcomm, alg->params);
    return alg->fn.reduce_scatter(a->sbuf, a->rbuf[0], a->rcounts, a->type, a->op, c->pcomm,
                                  alg->params);
}

static void case_reduce_scatter(tcase *c, const top *o, int block)
{
    const ttype *t = o->type;
    int *rcounts = malloc(sizeof(int) * (size_t)c->size), total = 0;
    for (int i = 0; i < c->size; i++) {
        rcounts[i] = block ? c->count : vcount(c->count, i);
        total += rcounts[i];
    }
    size_t bytes = (size_t)total * type_size(t->type);
    if (!applicable(c, o->op, total, bytes) || known_failure_case(c, bytes, 0)) {
        free(rcounts);
        return;
    }
    buf send, exp, got, got2;
    int mine = rcounts[c->rank];
    buf_make(&send, total, t->type);
    fill(send.p, total, t, c->rank);
    int rc;
    if (c->in_place) {
        buf_make(&exp, total, t->type);
        buf_make(&got, total, t->type);
        buf_make(&got2, total, t->type);
        fill(exp.p, total, t, c->rank);
        fill(got.p, total, t, c->rank);
        fill(got2.p, total, t, c->rank);
    } else {
        buf_make(&exp, mine, t->type);
        buf_make(&got, mine, t->type);
        buf_make(&got2, mine, t->type);
    }
    const void *sb = c->in_place ? MPI_IN_PLACE : send.p;
    if (block)
        PMPI_Reduce_scatter_block(sb, exp.p, c->count, t->type, o->op, c->comm);
    else
        PMPI_Reduce_scatter(sb, exp.p, rcounts, t->type, o->op, c->comm);
    reduce_scatter_args a = {c, sb, {got.p, got2.p}, rcounts, c->count, t->type, o->op};
    rc = run_reduce_scatter(&a, block);
    for (int k = 0; k <= c->progressed; k++) {
        const buf *g = k ? &got2 : &got;
        if (c->in_place) {
            /* Only the first block of recvbuf is defined by MPI after an in-place call. */
            size_t defined = span_of(mine, t->type);
            if (memcmp(exp.p, g->p, defined) != 0 && !mismatch) {
                mismatch = 1;
                snprintf(mismatch_text, sizeof mismatch_text, "in-place result differs%s",
                         k ? " (second schedule)" : "");
            }
        } else {
            compare(k ? "recvbuf of the second schedule" : "recvbuf", &exp, g);
        }
    }
    finish(c, rc);
    free(rcounts);
    buf_free(&send);
    buf_free(&exp);
    buf_free(&got);
    buf_free(&got2);
}

/* run_progressed (declared above case_reduce): starts the schedules s[0 .. n-1] built by
 * build(s[k], k), on distinct tags, back to back, then advances them in turn until all have
 * ended (progress_two); rc or their first error. */

/* A bcast's arguments for its schedules: the second one's buffer buf[1] (one schedule where
 * it is NULL, as with MPI_BOTTOM, whose absolute type names the first buffer). */
typedef struct {
    const tcase *c;
    void *buf[2];
    int count;
    MPI_Datatype type;
} bcast_args;

static int build_bcast(ac_sched *s, int k, const void *arg)
{
    const bcast_args *a = arg;
    const ac_algorithm *alg = a->c->alg;
    return alg->sched.bcast(s, a->buf[k], a->count, a->type, a->c->root, alg->params);
}

/* The algorithm's bcast of buf: its blocking entry point, or (c->progressed) its schedule run
 * as a nonblocking call's is, twice at once where buf2 (the same data at the root). */
static int run_bcast(const tcase *c, void *buf, void *buf2, int count, MPI_Datatype type)
{
    if (!c->progressed)
        return c->alg->fn.bcast(buf, count, type, c->root, c->pcomm, c->alg->params);
    bcast_args a = {c, {buf, buf2}, count, type};
    return run_progressed(c, buf2 ? 2 : 1, build_bcast, &a);
}

static void case_bcast(tcase *c, const ttype *t, int bottom)
{
    buf exp, got, got2 = {0};
    if (!applicable(c, MPI_OP_NULL, c->count, (size_t)c->count * type_size(t->type))) return;
    int second = c->progressed && !bottom;
    buf_make(&exp, c->count, t->type);
    buf_make(&got, c->count, t->type);
    if (second) buf_make(&got2, c->count, t->type);
    if (c->rank == c->root) {
        fill(exp.p, c->count, t, 1000 + c->rank);
        fill(got.p, c->count, t, 1000 + c->rank);
        if (second) fill(got2.p, c->count, t, 1000 + c->rank);
    }
    int rc;
    PMPI_Bcast(exp.p, c->count, t->type, c->root, c->comm);
    if (bottom) { /* the reference above addresses the same data relatively */
        MPI_Datatype tg = absolute_blocks(got.p, c->count, t->type);
        rc = run_bcast(c, MPI_BOTTOM, NULL, 1, tg);
        MPI_Type_free(&tg);
    } else {
        rc = run_bcast(c, got.p, second ? got2.p : NULL, c->count, t->type);
    }
    compare("buffer", &exp, &got);
    if (second) compare("buffer of the second schedule", &exp, &got2);
    finish(c, rc);
    buf_free(&exp);
    buf_free(&got);
    buf_free(&got2);
}

/* Send/receive type pairs for data movement: the same type both sides, or contig3 sent and
 * three ints per element received (same type signature, different types). */
typedef struct tpair {
    const char *name;
    const ttype *send, *recv;
    int ratio;  /* recv count = ratio * send count */
    int bottom; /* buffers passed as MPI_BOTTOM with absolute-address block types */
} tpair;

static const tpair *pairs;
static int npairs;

static void pairs_create(void)
{
    static tpair p[6];
    p[0] = (tpair){"int", &t_int, &t_int, 1, 0};
    p[1] = (tpair){"double", &t_double, &t_double, 1, 0};
    p[2] = (tpair){"contig3", &t_contig3, &t_contig3, 1, 0};
    p[3] = (tpair){"vector", &t_vector, &t_vector, 1, 0};
    p[4] = (tpair){"contig3->int", &t_contig3, &t_int, 3, 0};
    p[5] = (tpair){"vector@MPI_BOTTOM", &t_vector, &t_vector, 1, 1};
    pairs = p;
    npairs = 6;
}

static int run_progressed(const tcase *c, int n, build_fn *build, const void *arg)
{
    ac_sched s[2];
    int done[2] = {1, 1}, rc = MPI_SUCCESS;
    for (int k = 0; k < 2; k++) {
        int krc = ac_sched_init(&s[k], c->pcomm, 8101 + k);
        if (krc == MPI_SUCCESS && k < n) krc = build(&s[k], k, arg);
        if (krc == MPI_SUCCESS && k < n) krc = ac_sched_start(&s[k], &done[k]);
        if (rc == MPI_SUCCESS) rc = krc;
    }
    return progress_two(s, done, rc);
}

/* An allgather's, allgatherv's, alltoall's or alltoallv's arguments (by c->alg->collective),
 * the second schedule's receive buffer rb2 (NULL: one schedule, as with MPI_BOTTOM, whose
 * absolute types name the first buffer). */
typedef struct {
    const tcase *c;
    const void *sb;
    int scount;
    const int *scounts, *sdispls; /* alltoallv */
    MPI_Datatype stype;
    void *rb, *rb2;
    int rcount;
    const int *rcounts, *displs; /* allgatherv, alltoallv */
    MPI_Datatype rtype;
} block_args;

static int build_blocks(ac_sched *s, int k, const void *arg)
{
    const block_args *a = arg;
    const ac_algorithm *alg = a->c->alg;
    void *rb = k ? a->rb2 : a->rb;
    switch (alg->collective) {
    case AC_ALLGATHER:
        return alg->sched.allgather(s, a->sb, a->scount, a->stype, rb, a->rcount, a->rtype,
                                    alg->params);
    case AC_ALLGATHERV:
        return alg->sched.allgatherv(s, a->sb, a->scount, a->stype, rb, a->rcounts, a->displs,
                                     a->rtype, alg->params);
    case AC_ALLTOALL:
        return alg->sched.alltoall(s, a->sb, a->scount, a->stype, rb, a->rcount, a->rtype,
                                   alg->params);
    case AC_GATHER:
        return alg->sched.gather(s, a->sb, a->scount, a->stype, rb, a->rcount, a->rtype,
                                 a->c->root, alg->params);
    case AC_SCATTER:
        return alg->sched.scatter(s, a->sb, a->scount, a->stype, rb, a->rcount, a->rtype,
                                  a->c->root, alg->params);
    default:
        return alg->sched.alltoallv(s, a->sb, a->scounts, a->sdispls, a->stype, rb, a->rcounts,
                                    a->displs, a->rtype, alg->params);
    }
}

/* The algorithm's collective: its blocking entry point, or (c->progressed) its schedule run as
 * a nonblocking call's is, twice at once where a->rb2. */
static int run_blocks(const block_args *a)
{
    const tcase *c = a->c;
    const ac_algorithm *alg = c->alg;
    if (c->progressed) return run_progressed(c, a->rb2 ? 2 : 1, build_blocks, a);
    switch (alg->collective) {
    case AC_ALLGATHER:
        return alg->fn.allgather(a->sb, a->scount, a->stype, a->rb, a->rcount, a->rtype,
                                 c->pcomm, alg->params);
    case AC_ALLGATHERV:
        return alg->fn.allgatherv(a->sb, a->scount, a->stype, a->rb, a->rcounts, a->displs,
                                  a->rtype, c->pcomm, alg->params);
    case AC_ALLTOALL:
        return alg->fn.alltoall(a->sb, a->scount, a->stype, a->rb, a->rcount, a->rtype, c->pcomm,
                                alg->params);
    case AC_GATHER:
        return alg->fn.gather(a->sb, a->scount, a->stype, a->rb, a->rcount, a->rtype, c->root,
                              c->pcomm, alg->params);
    case AC_SCATTER:
        return alg->fn.scatter(a->sb, a->scount, a->stype, a->rb, a->rcount, a->rtype, c->root,
                               c->pcomm, alg->params);
    default:
        return alg->fn.alltoallv(a->sb, a->scounts, a->sdispls, a->stype, a->rb, a->rcounts,
                                 a->displs, a->rtype, c->pcomm, alg->params);
    }
}

static void case_blocks(tcase *c, const tpair *tp)
{
    ac_collective coll = c->alg->collective;
    int p = c->size, sc = c->count, rc_ = c->count * tp->ratio, root = c->rank == c->root;
    const ttype *st = tp->send, *rt = tp->recv;
    if (c->in_place && (tp->ratio != 1 || tp->bottom)) return; /* in-place: receive type only */
    if (!applicable(c, MPI_OP_NULL, 0, (size_t)sc * type_size(st->type))) return;
    if (known_failure_case(c, (size_t)sc * type_size(st->type), 0)) return;
    /* Sizes: alltoall sends p blocks and receives p; allgather sends 1, receives p; gather sends
     * 1 and the root receives p; scatter: the root sends p, every rank receives 1. */
    int send_blocks = (coll == AC_ALLTOALL || coll == AC_SCATTER) ? p : 1;
    int recv_blocks = (coll == AC_SCATTER) ? 1 : p;
    buf send, exp, got, got2;
    buf_make(&send, (MPI_Aint)sc * send_blocks, st->type);
    buf_make(&exp, (MPI_Aint)rc_ * recv_blocks, rt->type);
    buf_make(&got, (MPI_Aint)rc_ * recv_blocks, rt->type);
    buf_make(&got2, (MPI_Aint)rc_ * recv_blocks, rt->type);
    fill(send.p, (MPI_Aint)sc * send_blocks, st, c->rank);
    const void *sb = send.p;
    void *rb_exp = exp.p, *rb_got = got.p;
    if (c->in_place) {
        MPI_Aint lb, ext;
        MPI_Type_get_extent(rt->type, &lb, &ext);
        switch (coll) {
        case AC_ALLGATHER:
            fill(exp.p, (MPI_Aint)rc_ * recv_blocks, rt, 77);
            fill(exp.p + ext * rc_ * c->rank, rc_, rt, c->rank);
            memcpy(got.alloc, exp.alloc, buf_bytes(&exp));
            sb = MPI_IN_PLACE;
            break;
        case AC_ALLTOALL:
            fill(exp.p, (MPI_Aint)rc_ * recv_blocks, rt, c->rank);
            memcpy(got.alloc, exp.alloc, buf_bytes(&exp));
            sb = MPI_IN_PLACE;
            break;
        case AC_GATHER:
            if (root) {
                fill(exp.p + ext * rc_ * c->rank, rc_, rt, c->rank);
                memcpy(got.alloc, exp.alloc, buf_bytes(&exp));
                sb = MPI_IN_PLACE;
            }
            break;
        case AC_SCATTER:
            if (root) rb_exp = rb_got = MPI_IN_PLACE;
            break;
        default:
            break;
        }
    }
    unsigned char *send_before = malloc(buf_bytes(&send));
    memcpy(send_before, send.alloc, buf_bytes(&send));
    /* MPI_BOTTOM: the algorithm gets one absolute block type per buffer, count 1 per block;
     * the reference is the native collective on the same data addressed relatively. */
    MPI_Datatype stype = st->type, rtype_got = rt->type;
    int scount = sc, rcount = rc_;
    const void *sb_got = sb;
    if (tp->bottom) {
        stype = absolute_blocks(send.p, sc, st->type);
        rtype_got = absolute_blocks(got.p, rc_, rt->type);
        scount = rcount = 1;
        sb_got = MPI_BOTTOM;
        rb_got = MPI_BOTTOM;
    }
    if (coll == AC_ALLGATHER)
        PMPI_Allgather(sb, sc, st->type, rb_exp, rc_, rt->type, c->comm);
    else if (coll == AC_ALLTOALL)
        PMPI_Alltoall(sb, sc, st->type, rb_exp, rc_, rt->type, c->comm);
    else if (coll == AC_GATHER)
        PMPI_Gather(sb, sc, st->type, rb_exp, rc_, rt->type, c->root, c->comm);
    else
        PMPI_Scatter(sb, sc, st->type, rb_exp, rc_, rt->type, c->root, c->comm);
    memcpy(got2.alloc, got.alloc, buf_bytes(&got));
    /* the second schedule's receive buffer: none with MPI_BOTTOM, MPI_IN_PLACE as the first */
    void *rb2 = tp->bottom ? NULL : rb_got == MPI_IN_PLACE ? MPI_IN_PLACE : got2.p;
    block_args a = {c, sb_got, scount, NULL, NULL, stype, rb_got, rb2, rcount, NULL, NULL,
                    rtype_got};
    int rc = run_blocks(&a);
    if (tp->bottom) {
        MPI_Type_free(&stype);
        MPI_Type_free(&rtype_got);
    }
    if (coll != AC_GATHER || root) compare("recvbuf", &exp, &got);
    if (c->progressed && !tp->bottom) compare("recvbuf of the second schedule", &exp, &got2);
    if (sb != MPI_IN_PLACE && memcmp(send_before, send.alloc, buf_bytes(&send)) != 0 && !mismatch) {
        mismatch = 1;
        snprintf(mismatch_text, sizeof mismatch_text, "send buffer modified");
    }
    finish(c, rc);
    free(send_before);
    buf_free(&send);
    buf_free(&exp);
    buf_free(&got);
    buf_free(&got2);
}

/* allgatherv and alltoallv: uneven counts with zeros, displacements with holes and in
 * reverse block order. */
static void case_vector(tcase *c, const tpair *tp)
{
    ac_collective coll = c->alg->collective;
    int p = c->size, me = c->rank, ratio = tp->ratio;
    const ttype *st = tp->send, *rt = tp->recv;
    if ((c->in_place && ratio != 1) || tp->bottom) return;
    int *sc = calloc((size_t)p, sizeof(int)), *sd = calloc((size_t)p, sizeof(int));
    int *rcn = calloc((size_t)p, sizeof(int)), *rd = calloc((size_t)p, sizeof(int));
    int stotal = 0, rtotal = 0;
    long total_all = 0;
    if (coll == AC_ALLGATHERV) {
        for (int i = 0; i < p; i++)
            rcn[i] = vcount(c->count, i) * ratio;
        sc[0] = vcount(c->count, me);
        /* blocks in reverse rank order, one element of hole after each */
        for (int i = p - 1; i >= 0; i--) {
            rd[i] = rtotal;
            rtotal += rcn[i] + 1;
        }
        stotal = sc[0];
        for (int i = 0; i < p; i++)
            total_all += rcn[i];
    } else {
        /* rank i sends vcount(count, i + 2j) elements to rank j */
        for (int j = 0; j < p; j++) {
            sc[j] = vcount(c->count, me + 2 * j);
            rcn[j] = vcount(c->count, j + 2 * me) * ratio;
        }
        for (int j = p - 1; j >= 0; j--) {
            sd[j] = stotal;
            stotal += sc[j] + 1;
            rd[j] = rtotal;
            rtotal += rcn[j] + 1;
        }
        for (int j = 0; j < p; j++)
            total_all += rcn[j];
        if (c->in_place) {
            /* In-place alltoallv sends what it receives: counts must be symmetric. */
            rtotal = 0;
            for (int j = p - 1; j >= 0; j--) {
                rcn[j] = sc[j] = vcount(c->count, me + j);
                rd[j] = rtotal;
                rtotal += rcn[j] + 1;
            }
        }
    }
    if (!applicable(c, MPI_OP_NULL, 0, (size_t)total_all * type_size(rt->type)) ||
        known_failure_case(c, (size_t)total_all * type_size(rt->type), 0))
        goto out;
    buf send, exp, got, got2;
    buf_make(&send, stotal, st->type);
    buf_make(&exp, rtotal, rt->type);
    buf_make(&got, rtotal, rt->type);
    buf_make(&got2, rtotal, rt->type);
    fill(send.p, stotal, st, me);
    const void *sb = send.p;
    MPI_Aint lb, ext;
    MPI_Type_get_extent(rt->type, &lb, &ext);
    if (c->in_place) {
        sb = MPI_IN_PLACE;
        if (coll == AC_ALLGATHERV) {
            fill(exp.p, rtotal, rt, 55);
            fill(exp.p + ext * rd[me], rcn[me], rt, me);
        } else {
            fill(exp.p, rtotal, rt, me);
        }
        memcpy(got.alloc, exp.alloc, buf_bytes(&exp));
    }
    if (coll == AC_ALLGATHERV) {
        PMPI_Allgatherv(sb, sc[0], st->type, exp.p, rcn, rd, rt->type, c->comm);
    } else if (c->in_place) {
        /* the reference sends from a copy of the input (MPI defines the two equal): SMPI 3.32's
         * own in-place alltoallv is wrong with a strided type (known_failures) */
        buf in;
        buf_make(&in, rtotal, rt->type);
        memcpy(in.alloc, exp.alloc, buf_bytes(&exp));
        PMPI_Alltoallv(in.p, rcn, rd, rt->type, exp.p, rcn, rd, rt->type, c->comm);
        buf_free(&in);
    } else {
        PMPI_Alltoallv(sb, sc, sd, st->type, exp.p, rcn, rd, rt->type, c->comm);
    }
    memcpy(got2.alloc, got.alloc, buf_bytes(&got));
    block_args a = {c, sb, sc[0], sc, sd, st->type, got.p, got2.p, 0, rcn, rd, rt->type};
    int rc = run_blocks(&a);
    compare("recvbuf", &exp, &got);
    if (c->progressed) compare("recvbuf of the second schedule", &exp, &got2);
    finish(c, rc);
    buf_free(&send);
    buf_free(&exp);
    buf_free(&got);
    buf_free(&got2);
out:
    free(sc);
    free(sd);
    free(rcn);
    free(rd);
}

/* CLOCK_MONOTONIC is one clock for all processes of a machine; Open MPI's MPI_Wtime counts
 * from each process's own start. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The algorithm's barrier: its blocking entry point, or (c->progressed) its schedule run as a
 * nonblocking call's is, twice at once (as run_allreduce). */
static int run_barrier(const tcase *c)
{
    if (!c->progressed) return c->alg->fn.barrier(c->pcomm, c->alg->params);
    ac_sched s[2];
    int done[2] = {1, 1}, rc = MPI_SUCCESS;
    for (int k = 0; k < 2; k++) {
        int krc = ac_sched_init(&s[k], c->pcomm, 8101 + k);
        if (krc == MPI_SUCCESS) krc = c->alg->sched.barrier(&s[k], c->alg->params);
        if (krc == MPI_SUCCESS) krc = ac_sched_start(&s[k], &done[k]);
        if (rc == MPI_SUCCESS) rc = krc;
    }
    return progress_two(s, done, rc);
}

static void case_barrier(tcase *c)
{
    /* The last rank enters late; nobody may leave before it entered. */
    if (!applicable(c, MPI_OP_NULL, 0, 0)) return;
    PMPI_Barrier(c->comm);
    double t0 = now(), entered = 0, left;
    if (c->rank == c->size - 1) {
        while (now() - t0 < 0.02) {
        }
        entered = now();
    }
    int rc = run_barrier(c);
    left = now();
    PMPI_Bcast(&entered, 1, MPI_DOUBLE, c->size - 1, c->comm);
    if (left < entered) {
        mismatch = 1;
        snprintf(mismatch_text, sizeof mismatch_text, "left %.6f s before the last rank entered",
                 entered - left);
    }
    finish(c, rc);
}

/* ---- driver ----------------------------------------------------------------------------- */

static const int counts_short[] = {0, 1, 5, 37};
static const int counts_long[] = {0, 1, 5, 37, 1000, 4099};

/* Segmented instances (params->segment > 0, the pipelined trees) run a plan of their own, on
 * communicator world only (their unsegmented counterparts run the full matrix; ctest runs
 * every rank count 1-8):
 *   counts 0 and 5 (one segment: the paths of the unsegmented instance of their shape), with
 *   every root of roots[];
 *   SEGMENTS_COUNT, a count of about 2.5 segments of the case's type: several segments and a
 *   partial last one, whatever the type's size (a 12-byte contig3 never divides a power-of-two
 *   segment; a scatter or gather block of that count, and so every stream of the tree, spans
 *   several segments), with the non-zero roots of roots[] (size - 1 and size / 2).
 * Each with every type (derived, strided, MPI_BOTTOM, differing send and receive types), every
 * op (non-commutative included), in place and not. --long runs the full matrix as well. */
enum { SEGMENTS_COUNT = -1 };
static const int counts_segmented[] = {0, 5, SEGMENTS_COUNT};

static int segment_of(const ac_algorithm *alg)
{
    return alg->params ? alg->params->segment : 0;
}

/* The bytes of which a SEGMENTS_COUNT case spans about 2.5: a segmented instance's segment,
 * or the chunk of an algorithm through shared memory (common/shm.h), which runs the short
 * counts on every communicator and this one as well, so that its chunks' halves take turns. */
static int spread_of(const ac_algorithm *alg)
{
    if (segment_of(alg) > 0) return segment_of(alg);
    return alg->requires & AC_REQ_SHARED_MEMORY ? AC_SHM_CHUNK : 0;
}

/* The count a case runs with: `spec`, or about 2.5 spans of `t` (see counts_segmented). */
static int case_count(int spec, const ac_algorithm *alg, MPI_Datatype t)
{
    int tsize;
    if (spec != SEGMENTS_COUNT) return spec;
    MPI_Type_size(t, &tsize);
    return (5 * spread_of(alg)) / (2 * tsize) + 1;
}

/* 1 if the algorithm runs on this communicator (segmented instances: world). */
static int runs_on(const ac_algorithm *alg, const char *comm_name)
{
    return segment_of(alg) == 0 || long_mode || strcmp(comm_name, "world") == 0;
}

static void run_algorithm(const ac_algorithm *alg, const char *comm_name, MPI_Comm comm)
{
    tcase c = {.alg = alg, .comm_name = comm_name, .comm = comm};
    if (!runs_on(alg, comm_name)) return;
    MPI_Comm_rank(comm, &c.rank);
    MPI_Comm_size(comm, &c.size);
    MPI_Comm_dup(comm, &c.pcomm);
    int segmented = segment_of(alg) > 0;
    const int *counts = long_mode ? counts_long : segmented ? counts_segmented : counts_short;
    int ncounts = long_mode ? 6 : segmented ? 3 : 4;
    int roots[3] = {0, c.size - 1, c.size / 2}, nroots = c.size > 2 ? 3 : c.size;
    ac_collective coll = alg->collective;
    if (coll == AC_BARRIER) {
        c.type_name = c.op_name = "-";
        for (c.progressed = 0; c.progressed <= progressions(alg); c.progressed++)
            case_barrier(&c);
        c.progressed = 0;
        MPI_Comm_free(&c.pcomm);
        return;
    }
    /* --long: the segment counts after the long ones; shared memory: after the short ones */
    int chunked = !segmented && spread_of(alg) > 0;
    for (int k = 0; k < ncounts + ((long_mode && segmented) || chunked); k++) {
        int spec = k < ncounts ? counts[k] : SEGMENTS_COUNT;
        /* the segment counts: non-zero roots (see counts_segmented) */
        int r0 = spec == SEGMENTS_COUNT && !long_mode && nroots > 1;
        for (int in_place = 0; in_place <= 1; in_place++) {
            c.in_place = in_place;
            switch (coll) {
            case AC_ALLREDUCE:
            case AC_REDUCE_SCATTER:
            case AC_REDUCE_SCATTER_BLOCK:
                /* an algorithm written as a schedule: blocking, then progressed */
                for (c.progressed = 0; c.progressed <= progressions(alg); c.progressed++) {
                    for (int o = 0; o < nops; o++) {
                        c.type_name = ops[o].type->name;
                        c.op_name = ops[o].name;
                        c.root = -1;
                        c.count = case_count(spec, alg, ops[o].type->type);
                        if (coll == AC_ALLREDUCE)
                            case_allreduce(&c, &ops[o]);
                        else
                            case_reduce_scatter(&c, &ops[o], coll == AC_REDUCE_SCATTER_BLOCK);
                    }
                    if (coll == AC_ALLREDUCE && !in_place) {
                        c.type_name = "random_double";
                        c.op_name = "sum_identical_on_all_ranks";
                        c.count = case_count(spec, alg, MPI_DOUBLE);
                        case_allreduce_identical(&c);
                    }
                }
                c.progressed = 0;
                break;
            case AC_REDUCE:
                /* an algorithm written as a schedule: blocking, then progressed */
                for (c.progressed = 0; c.progressed <= progressions(alg); c.progressed++)
                    for (int r = r0; r < nroots; r++)
                        for (int o = 0; o < nops; o++) {
                            c.type_name = ops[o].type->name;
                            c.op_name = ops[o].name;
                            c.root = roots[r];
                            c.count = case_count(spec, alg, ops[o].type->type);
                            case_reduce(&c, &ops[o]);
                        }
                c.progressed = 0;
                break;
            case AC_BCAST:
                if (in_place) break;
                /* an algorithm written as a schedule: blocking, then progressed */
                for (c.progressed = 0; c.progressed <= progressions(alg); c.progressed++)
                    for (int r = r0; r < nroots; r++)
                        for (int t = 0; t < npairs; t++) {
                            if (pairs[t].ratio != 1) continue;
                            c.type_name = pairs[t].name;
                            c.op_name = "-";
                            c.root = roots[r];
                            c.count = case_count(spec, alg, pairs[t].send->type);
                            case_bcast(&c, pairs[t].send, pairs[t].bottom);
                        }
                c.progressed = 0;
                break;
            case AC_ALLGATHER:
            case AC_ALLTOALL:
            case AC_GATHER:
            case AC_SCATTER:
                /* an algorithm written as a schedule: blocking, then progressed */
                for (c.progressed = 0; c.progressed <= progressions(alg); c.progressed++)
                    for (int r = coll == AC_GATHER || coll == AC_SCATTER ? r0 : 0;
                         r < ((coll == AC_GATHER || coll == AC_SCATTER) ? nroots : 1); r++)
                        for (int t = 0; t < npairs; t++) {
                            c.type_name = pairs[t].name;
                            c.op_name = "-";
                            c.root = roots[r];
                            c.count = case_count(spec, alg, pairs[t].send->type);
                            case_blocks(&c, &pairs[t]);
                        }
                c.progressed = 0;
                break;
            case AC_ALLGATHERV:
            case AC_ALLTOALLV:
                for (c.progressed = 0; c.progressed <= progressions(alg); c.progressed++)
                    for (int t = 0; t < npairs; t++) {
                        c.type_name = pairs[t].name;
                        c.op_name = "-";
                        c.root = -1;
                        c.count = case_count(spec, alg, pairs[t].send->type);
                        case_vector(&c, &pairs[t]);
                    }
                c.progressed = 0;
                break;
            default:
                break;
            }
        }
    }
    MPI_Comm_free(&c.pcomm);
}

/* The algorithms of `coll` for communicators of sizes[0..nsizes-1] ranks, the same list on
 * every rank: the static table, then each size's mesh instances not listed yet. Their number,
 * in *out (malloc'd; NULL and -1 without memory). */
static int algorithms_for_sizes(ac_collective coll, const int *sizes, int nsizes,
                                const ac_algorithm ***out)
{
    int capacity = 0, n = 0;
    for (int k = 0; k < nsizes; k++)
        capacity += ac_registry_for_size(coll, sizes[k]).count;
    if (!(*out = malloc(sizeof **out * (size_t)(capacity > 0 ? capacity : 1)))) return -1;
    for (int k = 0; k < nsizes; k++) {
        ac_algorithm_list r = ac_registry_for_size(coll, sizes[k]);
        for (int i = 0; i < r.count; i++) {
            int listed = 0;
            for (int j = 0; j < n && !listed; j++)
                listed = (*out)[j] == r.algorithms[i];
            if (!listed) (*out)[n++] = r.algorithms[i];
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *only_coll = NULL, *only_alg = NULL, *match = NULL;
    int self_test = 0;
    int rank, size;
    MPI_Init(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--collective") == 0 && i + 1 < argc)
            only_coll = argv[++i];
        else if (strcmp(argv[i], "--algorithm") == 0 && i + 1 < argc)
            only_alg = argv[++i];
        else if (strcmp(argv[i], "--match") == 0 && i + 1 < argc)
            match = argv[++i];
        else if (strcmp(argv[i], "--long") == 0)
            long_mode = 1;
        else if (strcmp(argv[i], "--self-test") == 0)
            self_test = 1;
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = 1;
        else if (strcmp(argv[i], "--composed-blocking-only") == 0)
            composed_blocking_only = 1;
        else {
            fprintf(stderr, "usage: harness [--collective NAME] [--algorithm NAME] [--match TEXT] "
                            "[--long] [--verbose] [--self-test] [--composed-blocking-only]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (only_coll && ac_collective_from_name(only_coll) < 0) {
        if (rank == 0) fprintf(stderr, "harness: unknown collective %s\n", only_coll);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int coll_only = only_coll ? ac_collective_from_name(only_coll) : -1;
    if (coll_only >= 0 && ac_collective_neighborhood((ac_collective)coll_only)) {
        if (rank == 0)
            fprintf(stderr, "harness: %s needs a topology communicator (tests/mpi/neighbor.c)\n",
                    only_coll);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int vlen;
    MPI_Get_library_version(library_version, &vlen);
    types_create();
    ops_create();
    pairs_create();

    /* The communicators: world, world reversed, odd/even ranks, the first half. */
    MPI_Comm reversed, oddeven, half;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &reversed);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &oddeven);
    MPI_Comm_split(MPI_COMM_WORLD, rank < (size + 1) / 2 ? 0 : MPI_UNDEFINED, rank, &half);
    struct {
        const char *name;
        MPI_Comm comm;
    } comms[4] = {
        {"world", MPI_COMM_WORLD}, {"reversed", reversed}, {"oddeven", oddeven}, {"half", half}};

    if (self_test) {
        /* Every broken algorithm must be caught on at least one communicator. */
        ac_registry b = broken_algorithms();
        int missed = 0;
        for (int a = 0; a < b.count; a++) {
            long failed_before = failed;
            for (int k = 0; k < 4; k++)
                if (comms[k].comm != MPI_COMM_NULL)
                    run_algorithm(&b.algorithms[a], comms[k].name, comms[k].comm);
            long caught = failed - failed_before;
            PMPI_Allreduce(MPI_IN_PLACE, &caught, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
            if (rank == 0)
                printf("self-test: %-22s %s (%ld failing cases)\n", b.algorithms[a].name,
                       caught ? "caught" : "NOT CAUGHT", caught);
            if (!caught) missed++;
        }
        if (rank == 0)
            printf("harness self-test: %d passed, %d failed\n", b.count - missed, missed);
        MPI_Finalize();
        return missed ? 1 : 0;
    }

    long found = 0;
    for (int coll = 0; coll < AC_NUM_COLLECTIVES; coll++) {
        if (only_coll && strcmp(only_coll, ac_collective_name((ac_collective)coll)) != 0) continue;
        if (ac_collective_neighborhood((ac_collective)coll)) continue; /* tests/mpi/neighbor.c */
        /* world and reversed, odd/even (both halves), half */
        int sizes[3] = {size, (size + 1) / 2, size / 2};
        const ac_algorithm **algs;
        int nalgs = algorithms_for_sizes((ac_collective)coll, sizes, 3, &algs);
        if (nalgs < 0) {
            fprintf(stderr, "harness: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        for (int a = 0; a < nalgs; a++) {
            const ac_algorithm *alg = algs[a];
            if (only_alg && strcmp(only_alg, alg->name) != 0) continue;
            if (match && !strstr(alg->name, match)) continue;
            found++;
            long failed_before = failed;
            for (int k = 0; k < 4; k++)
                if (comms[k].comm != MPI_COMM_NULL)
                    run_algorithm(alg, comms[k].name, comms[k].comm);
            if (verbose && rank == 0)
                printf("%-22s %-48s %s\n", ac_collective_name((ac_collective)coll), alg->name,
                       failed == failed_before ? "ok" : "FAILED");
        }
        free(algs);
    }
    if (found == 0) {
        if (rank == 0) fprintf(stderr, "harness: no algorithm matches\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long totals[4] = {passed, failed, not_applicable, known_skipped};
    PMPI_Allreduce(MPI_IN_PLACE, totals, 4, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
        for (size_t i = 0; i < sizeof known_failures / sizeof known_failures[0]; i++)
            if (known_hit[i])
                printf("harness: not run: %s %s: known bug of the library: %s\n",
                       ac_collective_name(known_failures[i].collective),
                       known_failures[i].algorithm, known_failures[i].what);
        printf("harness (%d ranks): %ld passed, %ld failed (%ld cases not applicable, skipped "
               "by their declared requirements; %ld cases of known native-library bugs not run)\n",
               size, totals[0], totals[1], totals[2], totals[3]);
    }
    if (half != MPI_COMM_NULL) MPI_Comm_free(&half);
    MPI_Comm_free(&oddeven);
    MPI_Comm_free(&reversed);
    types_free();
    MPI_Finalize();
    return totals[1] ? 1 : 0;
}
