/*
 * divergence.c - legal MPI programs that made ranks take different paths through the layer
 * (issue 19): each case is one the layer once hung on, and a run must finish with the right
 * results under every strategy.
 *
 *   junk       MPI_Scatter with junk in the send arguments of the non-roots (NULL, -1,
 *              MPI_DATATYPE_NULL: MPI ignores them there) and MPI_IN_PLACE with a junk
 *              receive count and type at the root; MPI_Gather likewise with junk receive
 *              arguments at the non-roots and an in-place root with a junk send count and type;
 *              MPI_Reduce with a NULL receive buffer at the non-roots. The argument check sent
 *              the non-roots to the native collective on the user's communicator while the
 *              root ran the layer's algorithm on the private one.
 *   typemap    MPI_Bcast of 16 ints that the root describes as 1 x MPI_Type_contiguous(16,
 *              MPI_INT) and the others as 16 x MPI_INT. With the element count in the tuning
 *              key, a history file written by a first run gave the root a warm context and the
 *              others a cold one in a second run.
 *   alltoall   MPI_Alltoall of 1 MiB blocks. Legal and harmless; with a malloc that fails on
 *              one rank (tests/support/fail_malloc.c) a repository algorithm's scratch buffer
 *              is refused there alone: that rank returned MPI_ERR_NO_MEM from the call and the
 *              others waited for it for ever. The run must end, loudly.
 *
 *   divergence CASE [calls]   (calls: default 200); prints "divergence CASE: ok" from rank 0
 *                             and exits 0, or names the first wrong value and exits 1
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 4     /* ints per rank in scatter and gather */
#define BCAST_INTS 16

static int rank, size;

static int fail(const char *what, int call, int index, long got, long want)
{
    fprintf(stderr, "divergence: rank %d: %s, call %d, element %d: %ld, expected %ld\n", rank,
            what, call, index, got, want);
    return 1;
}

static int scatter_junk(int call)
{
    int root = call % size, *all = NULL, mine[BLOCK];
    if (rank == root) {
        all = malloc(sizeof(int) * BLOCK * (size_t)size);
        for (int i = 0; i < BLOCK * size; i++)
            all[i] = call * 1000 + i;
    }
    /* even calls: the root receives its own block; odd calls: in place, junk receive args */
    if (rank == root && call % 2)
        MPI_Scatter(all, BLOCK, MPI_INT, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, root,
                    MPI_COMM_WORLD);
    else if (rank == root)
        MPI_Scatter(all, BLOCK, MPI_INT, mine, BLOCK, MPI_INT, root, MPI_COMM_WORLD);
    else
        MPI_Scatter(NULL, -1, MPI_DATATYPE_NULL, mine, BLOCK, MPI_INT, root, MPI_COMM_WORLD);
    const int *got = rank == root && call % 2 ? all + BLOCK * root : mine;
    int wrong = 0;
    for (int i = 0; i < BLOCK && !wrong; i++)
        if (got[i] != call * 1000 + BLOCK * rank + i)
            wrong = fail("scatter", call, i, got[i], call * 1000 + BLOCK * rank + i);
    free(all);
    return wrong;
}

static int gather_junk(int call)
{
    int root = (call + 1) % size, *all = NULL, mine[BLOCK];
    for (int i = 0; i < BLOCK; i++)
        mine[i] = call * 1000 + BLOCK * rank + i;
    if (rank == root) {
        all = malloc(sizeof(int) * BLOCK * (size_t)size);
        memcpy(all + BLOCK * root, mine, sizeof mine);
    }
    if (rank == root && call % 2)
        MPI_Gather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, all, BLOCK, MPI_INT, root,
                   MPI_COMM_WORLD);
    else if (rank == root)
        MPI_Gather(mine, BLOCK, MPI_INT, all, BLOCK, MPI_INT, root, MPI_COMM_WORLD);
    else
        MPI_Gather(mine, BLOCK, MPI_INT, NULL, -1, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
    int wrong = 0;
    if (rank == root)
        for (int i = 0; i < BLOCK * size && !wrong; i++)
            if (all[i] != call * 1000 + i) wrong = fail("gather", call, i, all[i], call * 1000 + i);
    free(all);
    return wrong;
}

static int reduce_null_receive(int call)
{
    int root = (call + 2) % size;
    long x[BLOCK], y[BLOCK];
    for (int i = 0; i < BLOCK; i++)
        x[i] = (long)call * rank + i;
    MPI_Reduce(x, rank == root ? y : NULL, BLOCK, MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD);
    if (rank == root)
        for (int i = 0; i < BLOCK; i++) {
            long want = (long)call * size * (size - 1) / 2 + (long)size * i;
            if (y[i] != want) return fail("reduce", call, i, y[i], want);
        }
    return 0;
}

static int bcast_typemap(int call, MPI_Datatype sixteen)
{
    int buf[BCAST_INTS];
    for (int i = 0; i < BCAST_INTS; i++)
        buf[i] = rank == 0 ? call * 100 + i : -1;
    if (rank == 0)
        MPI_Bcast(buf, 1, sixteen, 0, MPI_COMM_WORLD);
    else
        MPI_Bcast(buf, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; i < BCAST_INTS; i++)
        if (buf[i] != call * 100 + i) return fail("bcast", call, i, buf[i], call * 100 + i);
    return 0;
}

#define A2A_BLOCK (1 << 20) /* bytes per rank pair in the alltoall case */

static int alltoall_blocks(int call, unsigned char *sbuf, unsigned char *rbuf)
{
    for (int j = 0; j < size; j++)
        memset(sbuf + (size_t)j * A2A_BLOCK, (rank * 31 + j * 7 + call) & 0xff, A2A_BLOCK);
    int rc = MPI_Alltoall(sbuf, A2A_BLOCK, MPI_BYTE, rbuf, A2A_BLOCK, MPI_BYTE, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) return fail("alltoall's return", call, 0, rc, MPI_SUCCESS);
    for (int j = 0; j < size; j++) {
        int want = (j * 31 + rank * 7 + call) & 0xff;
        const unsigned char *b = rbuf + (size_t)j * A2A_BLOCK;
        if (b[0] != want || b[A2A_BLOCK - 1] != want)
            return fail("alltoall", call, j, b[0], want);
    }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *which = argc > 1 ? argv[1] : "";
    int calls = argc > 2 ? atoi(argv[2]) : 200, errors = 0;
    MPI_Datatype sixteen;
    MPI_Type_contiguous(BCAST_INTS, MPI_INT, &sixteen);
    MPI_Type_commit(&sixteen);
    /* every rank makes every call, whatever it found wrong: a rank that stopped would hang
     * the others */
    if (strcmp(which, "junk") == 0) {
        for (int call = 0; call < calls; call++)
            errors += scatter_junk(call) + gather_junk(call) + reduce_null_receive(call);
    } else if (strcmp(which, "typemap") == 0) {
        for (int call = 0; call < calls; call++)
            errors += bcast_typemap(call, sixteen);
    } else if (strcmp(which, "alltoall") == 0) {
        unsigned char *sbuf = malloc((size_t)size * A2A_BLOCK);
        unsigned char *rbuf = malloc((size_t)size * A2A_BLOCK);
        if (!sbuf || !rbuf) {
            fprintf(stderr, "divergence: rank %d: no memory for the buffers\n", rank);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        for (int call = 0; call < calls; call++)
            errors += alltoall_blocks(call, sbuf, rbuf);
        free(sbuf);
        free(rbuf);
    } else {
        if (rank == 0) fprintf(stderr, "usage: divergence junk|typemap|alltoall [calls]\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Type_free(&sixteen);
    int any = 0;
    MPI_Allreduce(&errors, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !any) printf("divergence %s: ok\n", which);
    MPI_Finalize();
    return any ? 1 : 0;
}
