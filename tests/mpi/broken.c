/*
 * broken.c - deliberately wrong algorithms for `harness --self-test`: each must make the
 * harness report failures, or the harness is not testing what it claims.
 */
#include "broken.h"
#include "coll/algorithms.h"
#include "coll/common/sched.h"

#include <stdlib.h>
#include <string.h>

/* Reduces in reverse rank order: wrong for non-commutative ops. */
static int allreduce_reverse_order(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype,
                                   MPI_Op op, MPI_Comm comm, const ac_params *p)
{
    int size, tsize;
    MPI_Aint lb, extent;
    (void)p;
    PMPI_Comm_size(comm, &size);
    PMPI_Type_size(dtype, &tsize);
    PMPI_Type_get_extent(dtype, &lb, &extent);
    if (sbuf == MPI_IN_PLACE) return PMPI_Allreduce(MPI_IN_PLACE, rbuf, count, dtype, op, comm);
    char *all = malloc((size_t)(extent * count * size) + 1);
    PMPI_Allgather(sbuf, count, dtype, all, count, dtype, comm);
    /* rbuf = x[p-1] op ... op x[1] op x[0] */
    PMPI_Sendrecv(all, count, dtype, 0, 0, rbuf, count, dtype, 0, 0, MPI_COMM_SELF,
                  MPI_STATUS_IGNORE);
    for (int r = 1; r < size; r++)
        PMPI_Reduce_local(all + r * extent * count, rbuf, count, dtype, op);
    free(all);
    return MPI_SUCCESS;
}

/* Correct result, then one byte written past the end of the receive buffer. */
static int allreduce_overrun(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                             MPI_Comm comm, const ac_params *p)
{
    MPI_Aint lb, extent, tlb, textent;
    (void)p;
    int rc = PMPI_Allreduce(sbuf, rbuf, count, dtype, op, comm);
    PMPI_Type_get_extent(dtype, &lb, &extent);
    PMPI_Type_get_true_extent(dtype, &tlb, &textent);
    if (count > 0) ((char *)rbuf)[tlb + (count - 1) * extent + textent] ^= 1;
    return rc;
}

/* Loses the last rank's block. */
static int allgather_lose_block(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                int rcount, MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    int size, tsize;
    MPI_Aint lb, extent;
    (void)p;
    int rc = PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    PMPI_Comm_size(comm, &size);
    PMPI_Type_size(rtype, &tsize);
    PMPI_Type_get_extent(rtype, &lb, &extent);
    if (size > 1 && rcount > 0 && rbuf != MPI_BOTTOM)
        memset((char *)rbuf + (size - 1) * rcount * extent, 0, (size_t)tsize);
    return rc;
}

/* Correct result, but scribbles on the send buffer. */
static int alltoall_touch_send(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                               int rcount, MPI_Datatype rtype, MPI_Comm comm, const ac_params *p)
{
    MPI_Aint tlb, textent;
    (void)p;
    int rc = PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    PMPI_Type_get_true_extent(stype, &tlb, &textent);
    if (sbuf != MPI_IN_PLACE && sbuf != MPI_BOTTOM && scount > 0) ((char *)sbuf)[tlb] ^= 1;
    return rc;
}

/* Combines the operands in rank order relative to the root, x_root op ... op x_(root-1): right
 * for commutative ops, wrong for non-commutative ones at a root other than 0. */
static int reduce_from_root(const void *sbuf, void *rbuf, int count, MPI_Datatype dtype, MPI_Op op,
                            int root, MPI_Comm comm, const ac_params *p)
{
    int rank, size, rc;
    MPI_Aint lb, extent;
    (void)p;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    PMPI_Type_get_extent(dtype, &lb, &extent);
    char *all = malloc((size_t)(extent * count * size) + 1);
    rc = PMPI_Gather(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dtype, all, count, dtype, root,
                     comm);
    if (rank == root && count > 0) {
        int last = (root + size - 1) % size;
        PMPI_Sendrecv(all + last * extent * count, count, dtype, 0, 0, rbuf, count, dtype, 0, 0,
                      MPI_COMM_SELF, MPI_STATUS_IGNORE);
        for (int i = size - 2; i >= 0; i--)
            PMPI_Reduce_local(all + ((root + i) % size) * extent * count, rbuf, count, dtype, op);
    }
    free(all);
    return rc;
}

/* A "pipelined" broadcast that loses the partial last segment (params->segment bytes): caught
 * only by counts of several segments with a partial last one. */
static int bcast_lose_last_segment(void *buf, int count, MPI_Datatype dtype, int root,
                                   MPI_Comm comm, const ac_params *p)
{
    int rank, tsize;
    MPI_Aint tlb, textent, lb, extent;
    int rc = PMPI_Bcast(buf, count, dtype, root, comm);
    long bytes;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Type_size(dtype, &tsize);
    PMPI_Type_get_extent(dtype, &lb, &extent);
    PMPI_Type_get_true_extent(dtype, &tlb, &textent);
    bytes = (long)count * tsize;
    if (rank != root && buf != MPI_BOTTOM && bytes > p->segment && bytes % p->segment != 0)
        ((char *)buf)[tlb + (count - 1) * extent] ^= 1;
    return rc;
}

static const ac_params segment_1k = {.segment = 1024};

/* Does not wait for anybody. */
static int barrier_no_wait(MPI_Comm comm, const ac_params *p)
{
    (void)comm;
    (void)p;
    return MPI_SUCCESS;
}

/* An allreduce as a schedule (commutative ops): the vectors travel around the ring, and each
 * rank combines every one that arrives, but in the round that receives it rather than the next:
 * a round's local steps run before its messages, so it combines a stale buffer. Its blocking
 * entry point is a right one, so only the progressed run (harness: progressed=1) can catch it. */
static int allreduce_schedule_same_round(ac_sched *s, const void *sbuf, void *rbuf, int count,
                                         MPI_Datatype dtype, MPI_Op op, const ac_params *p)
{
    int next = (s->rank + 1) % s->size, prev = (s->rank + s->size - 1) % s->size;
    (void)p;
    if (count == 0) return MPI_SUCCESS;
    char *v[2] = {ac_sched_tmp(s, count, dtype), ac_sched_tmp(s, count, dtype)};
    if (!v[0] || !v[1]) return ac_sched_error(s);
    const void *own = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    ac_sched_copy(s, own, count, dtype, v[0], count, dtype);
    if (sbuf != MPI_IN_PLACE) ac_sched_copy(s, sbuf, count, dtype, rbuf, count, dtype);
    for (int st = 0; st < s->size - 1; st++) {
        ac_sched_send(s, v[st % 2], count, dtype, next);
        ac_sched_recv(s, v[(st + 1) % 2], count, dtype, prev);
        ac_sched_reduce(s, v[(st + 1) % 2], rbuf, count, dtype, op); /* the bug: same round */
        ac_sched_round(s);
    }
    return ac_sched_error(s);
}

/* A dissemination barrier as a schedule that sends every token before it waits for any: a rank
 * leaves as soon as the tokens sent to it have arrived, before the others entered. Its blocking
 * entry point is a right one: only the progressed run catches it. */
static int barrier_schedule_no_receive(ac_sched *s, const ac_params *p)
{
    (void)p;
    for (int dist = 1; dist < s->size; dist <<= 1) {
        ac_sched_send(s, NULL, 0, MPI_BYTE, (s->rank + dist) % s->size);
        ac_sched_round(s);
    }
    for (int dist = 1; dist < s->size; dist <<= 1) {
        ac_sched_recv(s, NULL, 0, MPI_BYTE, (s->rank - dist + s->size) % s->size);
        ac_sched_round(s);
    }
    return ac_sched_error(s);
}

/* A reduce as a schedule (commutative ops) whose root combines each kept receive before it
 * waits for it: a local step runs at the start of its round, before the round's messages are
 * even posted, so the root combines what its temporaries held (its own operand, copied there
 * first: a defined value, which UBSan's build can add without overflow). Its blocking entry
 * point is the right binomial tree: only the progressed run shows the bug. */
static int reduce_schedule_before_wait(ac_sched *s, const void *sbuf, void *rbuf, int count,
                                       MPI_Datatype dtype, MPI_Op op, int root,
                                       const ac_params *p)
{
    (void)p;
    if (s->rank != root) {
        ac_sched_send(s, sbuf, count, dtype, root);
        return ac_sched_error(s);
    }
    if (sbuf != MPI_IN_PLACE) ac_sched_copy(s, sbuf, count, dtype, rbuf, count, dtype);
    ac_sched_keep(s, s->size);
    for (int r = 0; r < s->size; r++) {
        char *t = r == root ? NULL : ac_sched_tmp(s, count, dtype);
        if (!t) continue;
        ac_sched_copy(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dtype, t, count, dtype);
        ac_sched_recv_kept(s, r, t, count, dtype, r);
        ac_sched_reduce(s, t, rbuf, count, dtype, op); /* the bug: before its wait */
    }
    for (int r = 0; r < s->size; r++)
        if (r != root) ac_sched_wait(s, r);
    return ac_sched_error(s);
}

static const ac_algorithm broken[] = {
    {.name = "broken_schedule_kept",
     .collective = AC_REDUCE,
     .group = "broken",
     .requires = AC_REQ_COMMUTATIVE,
     .fn.reduce = ac_reduce_tree,
     .sched.reduce = reduce_schedule_before_wait,
     .summary = "its schedule combines kept receives before it waits for them"},
    {.name = "broken_schedule_barrier",
     .collective = AC_BARRIER,
     .group = "broken",
     .fn.barrier = ac_barrier_dissemination,
     .sched.barrier = barrier_schedule_no_receive,
     .summary = "its schedule sends every token before it waits for any"},
    {.name = "broken_schedule_round",
     .collective = AC_ALLREDUCE,
     .group = "broken",
     .requires = AC_REQ_COMMUTATIVE,
     .fn.allreduce = ac_allreduce_recursive_doubling,
     .sched.allreduce = allreduce_schedule_same_round,
     .summary = "its schedule combines what a round receives in that round"},
    {.name = "broken_reverse_order",
     .collective = AC_ALLREDUCE,
     .group = "broken",
     .fn.allreduce = allreduce_reverse_order,
     .summary = "reduces in reverse rank order"},
    {.name = "broken_overrun",
     .collective = AC_ALLREDUCE,
     .group = "broken",
     .fn.allreduce = allreduce_overrun,
     .summary = "writes past the receive buffer"},
    {.name = "broken_lose_block",
     .collective = AC_ALLGATHER,
     .group = "broken",
     .fn.allgather = allgather_lose_block,
     .summary = "loses a block"},
    {.name = "broken_touch_send",
     .collective = AC_ALLTOALL,
     .group = "broken",
     .fn.alltoall = alltoall_touch_send,
     .summary = "modifies the send buffer"},
    {.name = "broken_reduce_from_root",
     .collective = AC_REDUCE,
     .group = "broken",
     .fn.reduce = reduce_from_root,
     .summary = "combines in rank order from the root"},
    {.name = "broken_lose_last_segment",
     .collective = AC_BCAST,
     .group = "broken",
     .fn.bcast = bcast_lose_last_segment,
     .params = &segment_1k,
     .summary = "loses the partial last segment"},
    {.name = "broken_no_wait",
     .collective = AC_BARRIER,
     .group = "broken",
     .fn.barrier = barrier_no_wait,
     .summary = "a barrier that does not wait"},
};

ac_registry broken_algorithms(void)
{
    ac_registry r = {broken, (int)(sizeof broken / sizeof broken[0])};
    return r;
}
