/*
 * sched.c - schedules of rounds (sched.h): building, the blocking run, the progressed run.
 */
#include "coll/common/sched.h"

#include "coll/common/common.h"

#include <stdlib.h>

enum { STEP_SEND, STEP_RECV, STEP_LIBRARY, STEP_COPY, STEP_REDUCE };

struct ac_sched_step {
    int kind;
    const void *src; /* send: the buffer; copy, reduce: the source */
    void *dst;       /* recv: the buffer; copy, reduce: the target */
    int count;       /* send, recv, reduce; copy: the source's */
    MPI_Datatype type;
    int dcount; /* copy: the target's */
    MPI_Datatype dtype;
    int peer; /* send, recv */
    MPI_Op op;
    ac_sched_start_fn *start; /* library: posts the call of src */
};

int ac_sched_init(ac_sched *s, MPI_Comm comm, int tag)
{
    *s = (ac_sched){.comm = comm, .tag = tag, .rc = MPI_SUCCESS};
    int rc = PMPI_Comm_rank(comm, &s->rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &s->size);
    s->rc = rc;
    return rc;
}

void ac_sched_free(ac_sched *s)
{
    for (int i = 0; i < s->ntmps; i++)
        free(s->tmps[i]);
    free(s->tmps);
    free(s->steps);
    free(s->ends);
    free(s->posted);
    free(s->reqs);
    free(s->stats);
    *s = (ac_sched){.comm = MPI_COMM_NULL};
}

/* Room for one more element in *array (of *cap, *n used); 0 without memory (kept as the error). */
static int grow(ac_sched *s, void **array, int n, int *cap, size_t elem)
{
    if (n < *cap) return 1;
    int ncap = *cap ? 2 * *cap : 16;
    void *p = realloc(*array, (size_t)ncap * elem);
    if (!p) {
        s->rc = MPI_ERR_NO_MEM;
        return 0;
    }
    *array = p;
    *cap = ncap;
    return 1;
}

void *ac_sched_tmp(ac_sched *s, MPI_Aint count, MPI_Datatype type)
{
    ac_tmp t;
    if (s->rc != MPI_SUCCESS) return NULL;
    if (!grow(s, (void **)&s->tmps, s->ntmps, &s->tcap, sizeof *s->tmps)) return NULL;
    if (ac_tmp_alloc(&t, count, type) != MPI_SUCCESS) {
        s->rc = MPI_ERR_NO_MEM;
        return NULL;
    }
    s->tmps[s->ntmps++] = t.base;
    return t.buf;
}

static void add(ac_sched *s, ac_sched_step step)
{
    if (s->rc != MPI_SUCCESS) return;
    if (!grow(s, (void **)&s->steps, s->nsteps, &s->cap, sizeof *s->steps)) return;
    s->steps[s->nsteps++] = step;
}

void ac_sched_send(ac_sched *s, const void *buf, int count, MPI_Datatype type, int to)
{
    add(s, (ac_sched_step){.kind = STEP_SEND, .src = buf, .count = count, .type = type, .peer = to});
}

void ac_sched_recv(ac_sched *s, void *buf, int count, MPI_Datatype type, int from)
{
    add(s,
        (ac_sched_step){.kind = STEP_RECV, .dst = buf, .count = count, .type = type, .peer = from});
}

void ac_sched_library(ac_sched *s, ac_sched_start_fn *start, const void *arg)
{
    add(s, (ac_sched_step){.kind = STEP_LIBRARY, .src = arg, .start = start});
}

void ac_sched_copy(ac_sched *s, const void *src, int scount, MPI_Datatype stype, void *dst,
                   int dcount, MPI_Datatype dtype)
{
    add(s, (ac_sched_step){.kind = STEP_COPY, .src = src, .count = scount, .type = stype,
                           .dst = dst, .dcount = dcount, .dtype = dtype});
}

void ac_sched_reduce(ac_sched *s, const void *in, void *inout, int count, MPI_Datatype type,
                     MPI_Op op)
{
    add(s, (ac_sched_step){.kind = STEP_REDUCE, .src = in, .dst = inout, .count = count,
                           .type = type, .op = op});
}

void ac_sched_reduce_ordered(ac_sched *s, char **acc, char **other, MPI_Aint offset,
                             int partner_below, int count, MPI_Datatype type, MPI_Op op)
{
    if (partner_below) {
        ac_sched_reduce(s, *other + offset, *acc + offset, count, type, op);
        return;
    }
    char *t = *acc;
    ac_sched_reduce(s, *acc + offset, *other + offset, count, type, op);
    *acc = *other;
    *other = t;
}

static void end_round(ac_sched *s, int posted)
{
    int begin = s->nrounds ? s->ends[s->nrounds - 1] : 0;
    if (s->rc != MPI_SUCCESS || s->nsteps == begin) return;
    int cap = s->rcap;
    if (!grow(s, (void **)&s->ends, s->nrounds, &s->rcap, sizeof *s->ends)) return;
    if (s->rcap != cap) {
        unsigned char *p = realloc(s->posted, (size_t)s->rcap);
        if (!p) {
            s->rc = MPI_ERR_NO_MEM;
            return;
        }
        s->posted = p;
    }
    s->posted[s->nrounds] = (unsigned char)posted;
    s->ends[s->nrounds++] = s->nsteps;
}

void ac_sched_round(ac_sched *s)
{
    end_round(s, 0);
}

void ac_sched_round_posted(ac_sched *s)
{
    end_round(s, 1);
}

static int is_message(const ac_sched_step *t) { return t->kind <= STEP_LIBRARY; }

static int run_local(const ac_sched_step *t)
{
    if (t->kind == STEP_COPY) return ac_copy(t->src, t->count, t->type, t->dst, t->dcount, t->dtype);
    return ac_reduce_local(t->src, t->dst, t->count, t->type, t->op);
}

/* Round k's bounds. */
static void bounds(const ac_sched *s, int k, int *begin, int *end)
{
    *begin = k ? s->ends[k - 1] : 0;
    *end = s->ends[k];
}

/* Round k's local steps, in order; its number of messages in *nmsg. */
static int round_local(ac_sched *s, int k, int *nmsg)
{
    int b, e;
    bounds(s, k, &b, &e);
    *nmsg = 0;
    for (int i = b; i < e; i++) {
        if (is_message(&s->steps[i])) {
            (*nmsg)++;
            continue;
        }
        int rc = run_local(&s->steps[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

/* Posts round k's messages into s->reqs. */
static int post(ac_sched *s, int k, int nmsg)
{
    int b, e, rc = MPI_SUCCESS;
    bounds(s, k, &b, &e);
    if (nmsg > s->qcap) {
        MPI_Request *r = realloc(s->reqs, (size_t)nmsg * sizeof *r);
        if (r) s->reqs = r;
        MPI_Status *st = r ? realloc(s->stats, (size_t)nmsg * sizeof *st) : NULL;
        if (!st) return MPI_ERR_NO_MEM;
        s->stats = st;
        s->qcap = nmsg;
    }
    s->nreqs = 0;
    for (int i = b; i < e && rc == MPI_SUCCESS; i++) {
        const ac_sched_step *t = &s->steps[i];
        if (t->kind == STEP_SEND)
            rc = PMPI_Isend(t->src, t->count, t->type, t->peer, s->tag, s->comm,
                            &s->reqs[s->nreqs++]);
        else if (t->kind == STEP_RECV)
            rc = PMPI_Irecv(t->dst, t->count, t->type, t->peer, s->tag, s->comm,
                            &s->reqs[s->nreqs++]);
        else if (t->kind == STEP_LIBRARY)
            rc = t->start(t->src, s->comm, &s->reqs[s->nreqs++]);
    }
    return rc;
}

/* The messages of round k with blocking calls (sched.h: the calls a blocking algorithm makes). */
static int messages_blocking(ac_sched *s, int k, int nmsg)
{
    int b, e;
    bounds(s, k, &b, &e);
    const ac_sched_step *m[2];
    int n = 0, library = 0;
    for (int i = b; i < e; i++) {
        if (is_message(&s->steps[i]) && n < 2) m[n++] = &s->steps[i];
        library |= s->steps[i].kind == STEP_LIBRARY;
    }
    /* a posted round's messages, and a library call's, are posted and waited for (below) */
    int plain = !s->posted[k] && !library;
    if (plain && nmsg == 1 && m[0]->kind == STEP_SEND)
        return PMPI_Send(m[0]->src, m[0]->count, m[0]->type, m[0]->peer, s->tag, s->comm);
    if (plain && nmsg == 1)
        return PMPI_Recv(m[0]->dst, m[0]->count, m[0]->type, m[0]->peer, s->tag, s->comm,
                         MPI_STATUS_IGNORE);
    if (plain && nmsg == 2 && m[0]->kind != m[1]->kind) {
        const ac_sched_step *snd = m[0]->kind == STEP_SEND ? m[0] : m[1];
        const ac_sched_step *rcv = m[0]->kind == STEP_SEND ? m[1] : m[0];
        return PMPI_Sendrecv(snd->src, snd->count, snd->type, snd->peer, s->tag, rcv->dst,
                             rcv->count, rcv->type, rcv->peer, s->tag, s->comm, MPI_STATUS_IGNORE);
    }
    int rc = post(s, k, nmsg);
    int wrc = s->nreqs ? PMPI_Waitall(s->nreqs, s->reqs, s->stats) : MPI_SUCCESS;
    s->nreqs = 0;
    return rc != MPI_SUCCESS ? rc : wrc;
}

int ac_sched_run(ac_sched *s)
{
    ac_sched_round(s);
    for (int k = 0; k < s->nrounds && s->rc == MPI_SUCCESS; k++) {
        int nmsg;
        s->rc = round_local(s, k, &nmsg);
        if (s->rc == MPI_SUCCESS && nmsg) s->rc = messages_blocking(s, k, nmsg);
    }
    return s->rc;
}

/* From round s->round on: runs rounds until one has messages in flight or all have ended. */
static int advance(ac_sched *s, int *done)
{
    while (s->round < s->nrounds) {
        int nmsg;
        s->rc = round_local(s, s->round, &nmsg);
        if (s->rc == MPI_SUCCESS && nmsg) s->rc = post(s, s->round, nmsg);
        if (s->rc != MPI_SUCCESS) {
            ac_sched_drain(s);
            break;
        }
        if (nmsg) {
            *done = 0;
            return MPI_SUCCESS;
        }
        s->round++;
    }
    s->round = s->nrounds;
    *done = 1;
    return s->rc;
}

int ac_sched_start(ac_sched *s, int *done)
{
    ac_sched_round(s);
    s->nreqs = 0;
    s->round = 0;
    if (s->rc != MPI_SUCCESS) {
        *done = 1;
        return s->rc;
    }
    return advance(s, done);
}

int ac_sched_progress(ac_sched *s, int block, int *done)
{
    *done = s->round >= s->nrounds;
    while (!*done) {
        int flag = 1;
        if (block)
            s->rc = PMPI_Waitall(s->nreqs, s->reqs, s->stats);
        else
            s->rc = PMPI_Testall(s->nreqs, s->reqs, &flag, s->stats);
        if (s->rc != MPI_SUCCESS) {
            ac_sched_drain(s);
            s->round = s->nrounds;
            *done = 1;
            return s->rc;
        }
        if (!flag) return MPI_SUCCESS;
        s->nreqs = 0;
        s->round++;
        int rc = advance(s, done);
        if (rc != MPI_SUCCESS) return rc;
    }
    return s->rc;
}

void ac_sched_drain(ac_sched *s)
{
    if (s->nreqs) PMPI_Waitall(s->nreqs, s->reqs, s->stats);
    s->nreqs = 0;
}
