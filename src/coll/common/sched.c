/*
 * sched.c - schedules of rounds (sched.h): building, the blocking run, the progressed run.
 */
#include "coll/common/sched.h"

#include "coll/common/common.h"

#include <stdlib.h>
#include <string.h>

/* messages first (is_message), the kept ones after the round's own (is_kept) */
enum { STEP_SEND, STEP_RECV, STEP_LIBRARY, STEP_BARRIER, STEP_SEND_KEPT, STEP_RECV_KEPT,
       STEP_WAIT, STEP_COPY, STEP_REDUCE, STEP_PACK, STEP_UNPACK, STEP_CALL, STEP_LOCAL };

int ac_sched_init(ac_sched *s, MPI_Comm comm, int tag)
{
    s->comm = s->own = comm;
    s->tag = tag;
    s->nsteps = s->nrounds = s->ntmps = s->round = s->nreqs = s->blocking = 0;
    s->next = s->ticketed = s->held = 0;
    s->nkept = s->waited = 0;
    s->kept = s->kept_room, s->kept_recv = s->kept_recv_room;
    s->library = MPI_REQUEST_NULL;
    s->types = s->type_room, s->ntypes = 0, s->typecap = AC_SCHED_TYPES;
    s->steps = s->step_room, s->cap = AC_SCHED_STEPS;
    s->ends = s->end_room, s->posted = s->posted_room, s->rcap = AC_SCHED_ROUNDS;
    s->tmps = s->tmp_room, s->tcap = AC_SCHED_TMPS;
    s->reqs = s->req_room, s->stats = s->stat_room, s->qcap = AC_SCHED_REQS;
    int rc = PMPI_Comm_rank(comm, &s->rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &s->size);
    s->rc = rc;
    return rc;
}

/* Frees *p unless it is the room inside the schedule. */
static void release(void *p, const void *room)
{
    if (p != room) free(p);
}

static void turns_drop(ac_sched *s);

void ac_sched_free(ac_sched *s)
{
    turns_drop(s);
    for (int i = 0; i < s->ntmps; i++)
        free(s->tmps[i]);
    release(s->tmps, s->tmp_room);
    release(s->steps, s->step_room);
    release(s->ends, s->end_room);
    release(s->posted, s->posted_room);
    release(s->reqs, s->req_room);
    release(s->stats, s->stat_room);
    release(s->kept, s->kept_room);
    release(s->kept_recv, s->kept_recv_room);
    for (int i = 0; i < s->ntypes; i++)
        PMPI_Type_free(&s->types[i]);
    release(s->types, s->type_room);
    s->types = s->type_room, s->ntypes = 0, s->typecap = AC_SCHED_TYPES;
    s->ntmps = s->nsteps = s->nrounds = s->nreqs = s->nkept = 0;
    s->kept = s->kept_room, s->kept_recv = s->kept_recv_room;
    s->tmps = s->tmp_room, s->steps = s->step_room, s->ends = s->end_room;
    s->posted = s->posted_room, s->reqs = s->req_room, s->stats = s->stat_room;
    s->comm = s->own = MPI_COMM_NULL;
}

/* *array (n of elem bytes used, room the space inside the schedule) with room for `want`
 * elements; 0 without memory. */
static int resize(void **array, int n, int want, size_t elem, const void *room)
{
    void *p = *array == room ? malloc((size_t)want * elem) : realloc(*array, (size_t)want * elem);
    if (!p) return 0;
    if (*array == room) memcpy(p, room, (size_t)n * elem);
    *array = p;
    return 1;
}

/* Room for one more element in *array (of *cap, n used); 0 without memory (kept as the error). */
static int grow(ac_sched *s, void **array, int n, int *cap, size_t elem, const void *room)
{
    if (n < *cap) return 1;
    if (!resize(array, n, 2 * *cap, elem, room)) {
        s->rc = MPI_ERR_NO_MEM;
        return 0;
    }
    *cap *= 2;
    return 1;
}

void *ac_sched_tmp(ac_sched *s, MPI_Aint count, MPI_Datatype type)
{
    ac_tmp t;
    if (s->rc != MPI_SUCCESS) return NULL;
    if (!grow(s, (void **)&s->tmps, s->ntmps, &s->tcap, sizeof *s->tmps, s->tmp_room))
        return NULL;
    if (ac_tmp_alloc(&t, count, type) != MPI_SUCCESS) {
        s->rc = MPI_ERR_NO_MEM;
        return NULL;
    }
    s->tmps[s->ntmps++] = t.base;
    return t.buf;
}

void ac_sched_own(ac_sched *s, MPI_Datatype type)
{
    if (s->ntypes == s->typecap) {
        if (!resize((void **)&s->types, s->ntypes, 2 * s->typecap, sizeof *s->types,
                    s->type_room)) {
            PMPI_Type_free(&type);
            if (s->rc == MPI_SUCCESS) s->rc = MPI_ERR_NO_MEM;
            return;
        }
        s->typecap *= 2;
    }
    s->types[s->ntypes++] = type;
}

static void end_round(ac_sched *s, int posted);

static void add(ac_sched *s, ac_sched_step step)
{
    if (s->rc != MPI_SUCCESS) return;
    /* a wait is its round's last message */
    if (s->waited && step.kind != STEP_WAIT) end_round(s, 0);
    s->waited = step.kind == STEP_WAIT;
    step.comm = s->comm;
    if (!grow(s, (void **)&s->steps, s->nsteps, &s->cap, sizeof *s->steps, s->step_room))
        return;
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

void ac_sched_keep(ac_sched *s, int nslots)
{
    if (s->rc != MPI_SUCCESS || nslots <= s->nkept) return;
    if (nslots > AC_SCHED_KEPT &&
        (!resize((void **)&s->kept, s->nkept, nslots, sizeof *s->kept, s->kept_room) ||
         !resize((void **)&s->kept_recv, s->nkept, nslots, 1, s->kept_recv_room))) {
        s->rc = MPI_ERR_NO_MEM;
        return;
    }
    for (int i = s->nkept; i < nslots; i++)
        s->kept[i] = MPI_REQUEST_NULL, s->kept_recv[i] = 0;
    s->nkept = nslots;
}

/* Slot numbers outside ac_sched_keep's are the builder's error. */
static int kept_slot(ac_sched *s, int slot)
{
    if (slot >= 0 && slot < s->nkept) return 1;
    if (s->rc == MPI_SUCCESS) s->rc = MPI_ERR_INTERN;
    return 0;
}

void ac_sched_send_kept(ac_sched *s, int slot, const void *buf, int count, MPI_Datatype type,
                        int to)
{
    if (kept_slot(s, slot))
        add(s, (ac_sched_step){.kind = STEP_SEND_KEPT, .src = buf, .count = count, .type = type,
                               .peer = to, .dcount = slot});
}

void ac_sched_recv_kept(ac_sched *s, int slot, void *buf, int count, MPI_Datatype type, int from)
{
    if (kept_slot(s, slot))
        add(s, (ac_sched_step){.kind = STEP_RECV_KEPT, .dst = buf, .count = count, .type = type,
                               .peer = from, .dcount = slot});
}

void ac_sched_wait(ac_sched *s, int slot)
{
    if (kept_slot(s, slot)) add(s, (ac_sched_step){.kind = STEP_WAIT, .dcount = slot});
}

void ac_sched_library(ac_sched *s, ac_sched_start_fn *start, const void *arg)
{
    add(s, (ac_sched_step){.kind = STEP_LIBRARY, .src = arg, .start = start});
}

void ac_sched_barrier(ac_sched *s)
{
    add(s, (ac_sched_step){.kind = STEP_BARRIER});
}

void ac_sched_call(ac_sched *s, ac_sched_call_fn *call, const void *arg)
{
    if (!s->blocking && s->rc == MPI_SUCCESS) s->rc = MPI_ERR_INTERN;
    add(s, (ac_sched_step){.kind = STEP_CALL, .src = arg, .call = call});
}

void ac_sched_local(ac_sched *s, ac_sched_local_fn *fn, const void *arg)
{
    add(s, (ac_sched_step){.kind = STEP_LOCAL, .src = arg, .local = fn});
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

void ac_sched_pack(ac_sched *s, const void *src, int count, MPI_Datatype type, void *dst,
                   int bytes)
{
    add(s, (ac_sched_step){.kind = STEP_PACK, .src = src, .count = count, .type = type,
                           .dst = dst, .dcount = bytes});
}

void ac_sched_unpack(ac_sched *s, const void *src, int bytes, void *dst, int count,
                     MPI_Datatype type)
{
    add(s, (ac_sched_step){.kind = STEP_UNPACK, .src = src, .count = bytes, .dst = dst,
                           .dcount = count, .dtype = type});
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
    if (s->nrounds == s->rcap) {
        if (!resize((void **)&s->ends, s->nrounds, 2 * s->rcap, sizeof *s->ends, s->end_room) ||
            !resize((void **)&s->posted, s->nrounds, 2 * s->rcap, 1, s->posted_room)) {
            s->rc = MPI_ERR_NO_MEM;
            return;
        }
        s->rcap *= 2;
    }
    s->posted[s->nrounds] = (unsigned char)posted;
    s->ends[s->nrounds++] = s->nsteps;
    s->waited = 0;
}

void ac_sched_phase(ac_sched *s, MPI_Comm comm)
{
    end_round(s, 0);
    s->comm = comm;
    if (s->rc != MPI_SUCCESS) return;
    int rc = PMPI_Comm_rank(comm, &s->rank);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_size(comm, &s->size);
    s->rc = rc;
}

void ac_sched_round(ac_sched *s)
{
    end_round(s, 0);
}

void ac_sched_round_posted(ac_sched *s)
{
    end_round(s, 1);
}

static int is_message(const ac_sched_step *t) { return t->kind <= STEP_WAIT; }
static int is_kept(const ac_sched_step *t) { return t->kind >= STEP_SEND_KEPT && is_message(t); }

static int run_local(const ac_sched_step *t)
{
    int position = 0;
    if (t->kind == STEP_CALL) return t->call(t->src, t->comm);
    if (t->kind == STEP_LOCAL) return t->local(t->src);
    if (t->kind == STEP_COPY) return ac_copy(t->src, t->count, t->type, t->dst, t->dcount, t->dtype);
    if (t->kind == STEP_PACK)
        return ac_pack(t->src, t->count, t->type, t->dst, t->dcount, &position, MPI_COMM_SELF);
    if (t->kind == STEP_UNPACK)
        return ac_unpack(t->src, t->count, &position, t->dst, t->dcount, t->dtype, MPI_COMM_SELF);
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

/* Posts a kept message into its slot (sched.h), which must hold none in flight. */
static int post_kept(ac_sched *s, const ac_sched_step *t)
{
    MPI_Request *r = &s->kept[t->dcount];
    if (*r != MPI_REQUEST_NULL) return MPI_ERR_INTERN;
    s->kept_recv[t->dcount] = t->kind == STEP_RECV_KEPT;
    if (t->peer == MPI_PROC_NULL) return MPI_SUCCESS; /* as post's, below */
    int rc = t->kind == STEP_SEND_KEPT
                 ? PMPI_Isend(t->src, t->count, t->type, t->peer, s->tag, t->comm, r)
                 : PMPI_Irecv(t->dst, t->count, t->type, t->peer, s->tag, t->comm, r);
    if (rc != MPI_SUCCESS) *r = MPI_REQUEST_NULL;
    return rc;
}

/* The turns of progressed schedules' library steps not started yet (sched.h, ac_sched_start),
 * in the order their schedules started. */
typedef struct turn {
    const ac_sched *s;
    int step;
    MPI_Comm comm; /* the step's */
    struct turn *next;
} turn;
static turn *turns;
int ac_sched_held;
unsigned long ac_sched_turns_started;

static void hold(ac_sched *s, int held)
{
    if (s->held != held) ac_sched_held += held ? 1 : -1;
    s->held = held;
}

/* Removes s's turns (every one at its end; those left after an error or a free). */
static void turns_drop(ac_sched *s)
{
    for (turn **t = &turns; *t;) {
        turn *dead = *t;
        if (dead->s != s) {
            t = &dead->next;
            continue;
        }
        *t = dead->next;
        free(dead);
    }
    s->ticketed = 0;
    hold(s, 0);
}

/* Appends a turn for each library step of s, in order. */
static int turns_take(ac_sched *s)
{
    turn **tail = &turns;
    while (*tail)
        tail = &(*tail)->next;
    for (int i = 0; i < s->nsteps; i++) {
        if (s->steps[i].kind != STEP_LIBRARY) continue;
        turn *t = malloc(sizeof *t);
        if (!t) {
            turns_drop(s); /* none of its turns left to hold others back */
            return MPI_ERR_NO_MEM;
        }
        *t = (turn){.s = s, .step = i, .comm = s->steps[i].comm};
        *tail = t;
        tail = &t->next;
    }
    s->ticketed = 1;
    return MPI_SUCCESS;
}

/* Whether library step i of s may start: the first turn on its communicator is its own (then
 * taken off), or s takes no turns. */
static int my_turn(ac_sched *s, int i)
{
    if (!s->ticketed) return 1;
    for (turn **t = &turns; *t; t = &(*t)->next) {
        if ((*t)->comm != s->steps[i].comm) continue;
        if ((*t)->s != s || (*t)->step != i) return 0;
        turn *mine = *t;
        *t = mine->next;
        free(mine);
        ac_sched_turns_started++;
        return 1;
    }
    return 1; /* none: its turn was dropped (not reached: turns are dropped at the end) */
}

int ac_sched_turns_pending(MPI_Comm own)
{
    for (const turn *t = turns; t; t = t->next)
        if (t->s->own == own) return 1;
    return 0;
}

/* Posts the current round's messages from step s->next up to its end e into s->reqs, in order;
 * a kept one into its slot. A wait step moves its slot's request into s->reqs (the progressed
 * run: the round ends when it completes) or, with `wait_now` (the blocking run), waits for it
 * there. A library step whose turn has not come stops it there (s->next, s->held). */
static int post_from(ac_sched *s, int e, int wait_now)
{
    int rc = MPI_SUCCESS;
    for (; s->next < e && rc == MPI_SUCCESS; s->next++) {
        const ac_sched_step *t = &s->steps[s->next];
        if (t->kind == STEP_LIBRARY && !my_turn(s, s->next)) {
            hold(s, 1);
            return MPI_SUCCESS;
        }
        if (t->kind == STEP_WAIT && wait_now) {
            rc = PMPI_Wait(&s->kept[t->dcount], MPI_STATUS_IGNORE);
        } else if (t->kind == STEP_WAIT) {
            s->reqs[s->nreqs++] = s->kept[t->dcount];
            s->kept[t->dcount] = MPI_REQUEST_NULL;
        } else if (is_kept(t)) {
            rc = post_kept(s, t);
        }
        /* a message from or to MPI_PROC_NULL completes at once with nothing moved: not posted
         * (SMPI 3.32's MPI_Waitany crashes in Request::unref on the request such an MPI_Isend
         * gives) */
        else if ((t->kind == STEP_SEND || t->kind == STEP_RECV) && t->peer == MPI_PROC_NULL)
            s->reqs[s->nreqs++] = MPI_REQUEST_NULL;
        else if (t->kind == STEP_SEND)
            rc = PMPI_Isend(t->src, t->count, t->type, t->peer, s->tag, t->comm,
                            &s->reqs[s->nreqs++]);
        else if (t->kind == STEP_RECV)
            rc = PMPI_Irecv(t->dst, t->count, t->type, t->peer, s->tag, t->comm,
                            &s->reqs[s->nreqs++]);
        else if (t->kind == STEP_LIBRARY && s->library != MPI_REQUEST_NULL && t->comm == s->own) {
            /* the library's persistent collective (the native algorithm's one step): a copy,
             * MPI_Start leaves it active, a wait inactive, never MPI_REQUEST_NULL */
            s->reqs[s->nreqs] = s->library;
            rc = PMPI_Start(&s->reqs[s->nreqs++]);
        } else if (t->kind == STEP_LIBRARY)
            rc = t->start(t->src, t->comm, &s->reqs[s->nreqs++]);
        else if (t->kind == STEP_BARRIER)
            rc = PMPI_Ibarrier(t->comm, &s->reqs[s->nreqs++]);
    }
    hold(s, 0);
    return rc;
}

/* Posts round k's messages (post_from), from its first. */
static int post(ac_sched *s, int k, int nmsg, int wait_now)
{
    int b, e;
    bounds(s, k, &b, &e);
    if (nmsg > s->qcap) {
        if (!resize((void **)&s->reqs, 0, nmsg, sizeof *s->reqs, s->req_room) ||
            !resize((void **)&s->stats, 0, nmsg, sizeof *s->stats, s->stat_room))
            return MPI_ERR_NO_MEM;
        s->qcap = nmsg;
    }
    s->nreqs = 0;
    s->next = b;
    return post_from(s, e, wait_now);
}

/* Whether the current round's messages have all been posted (none held for its turn). */
static int round_posted(const ac_sched *s)
{
    return s->round >= s->nrounds || s->next >= s->ends[s->round];
}

ac_sched_wait_fn *ac_sched_waiting;

/* The messages of round k with blocking calls (sched.h: the calls a blocking algorithm makes);
 * while the layer's requests are in flight, a round of point-to-point messages only is posted
 * and waited for with them (ac_sched_waiting). */
static int messages_blocking(ac_sched *s, int k, int nmsg)
{
    int b, e;
    bounds(s, k, &b, &e);
    const ac_sched_step *m[2];
    int n = 0, library = 0, barrier = 0, kept = 0;
    for (int i = b; i < e; i++) {
        if (is_message(&s->steps[i]) && n < 2) m[n++] = &s->steps[i];
        library |= s->steps[i].kind == STEP_LIBRARY;
        barrier |= s->steps[i].kind == STEP_BARRIER;
        kept |= is_kept(&s->steps[i]);
    }
    if (ac_sched_waiting && !library && !barrier) {
        int rc = post(s, k, nmsg, 0);
        int wrc = s->nreqs ? ac_sched_waiting(s->nreqs, s->reqs) : MPI_SUCCESS;
        s->nreqs = 0;
        return rc != MPI_SUCCESS ? rc : wrc;
    }
    /* a posted round's messages, a library call's and a round of kept messages and waits are
     * posted (and waited for where a wait step stands) in order, the rest waited for below */
    int plain = !s->posted[k] && !library && !kept;
    if (plain && nmsg == 1 && m[0]->kind == STEP_BARRIER) return PMPI_Barrier(m[0]->comm);
    if (plain && nmsg == 1 && m[0]->kind == STEP_SEND)
        return PMPI_Send(m[0]->src, m[0]->count, m[0]->type, m[0]->peer, s->tag, m[0]->comm);
    if (plain && nmsg == 1)
        return PMPI_Recv(m[0]->dst, m[0]->count, m[0]->type, m[0]->peer, s->tag, m[0]->comm,
                         MPI_STATUS_IGNORE);
    if (plain && nmsg == 2 && m[0]->kind != m[1]->kind && m[0]->comm == m[1]->comm) {
        const ac_sched_step *snd = m[0]->kind == STEP_SEND ? m[0] : m[1];
        const ac_sched_step *rcv = m[0]->kind == STEP_SEND ? m[1] : m[0];
        return PMPI_Sendrecv(snd->src, snd->count, snd->type, snd->peer, s->tag, rcv->dst,
                             rcv->count, rcv->type, rcv->peer, s->tag, snd->comm,
                             MPI_STATUS_IGNORE);
    }
    int rc = post(s, k, nmsg, 1);
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
    if (s->rc != MPI_SUCCESS) ac_sched_drain(s); /* kept messages still in flight */
    return s->rc;
}

/* From round s->round on: runs rounds until one has messages in flight or all have ended. */
static int advance(ac_sched *s, int *done)
{
    while (s->round < s->nrounds) {
        int nmsg;
        s->rc = round_local(s, s->round, &nmsg);
        if (s->rc == MPI_SUCCESS && nmsg) s->rc = post(s, s->round, nmsg, 0);
        if (s->rc != MPI_SUCCESS) {
            ac_sched_drain(s);
            break;
        }
        /* a round whose messages all completed as they were posted (all from or to
         * MPI_PROC_NULL) has ended: a round left in flight with no request pending would never
         * be advanced by a wait on the layer's messages (requests.c, block_step), and its
         * peers would wait for its next round. One held for a turn has not. */
        if (nmsg && (!round_posted(s) || !ac_sched_round_completed(s))) {
            *done = 0;
            return MPI_SUCCESS;
        }
        s->nreqs = 0;
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
    for (int i = 0; i < s->nkept; i++) /* every one waited for by the last start's end */
        if (s->kept[i] != MPI_REQUEST_NULL && s->rc == MPI_SUCCESS) s->rc = MPI_ERR_INTERN;
    turns_drop(s); /* none left by the last start's end: every step started */
    if (s->rc == MPI_SUCCESS) s->rc = turns_take(s);
    if (s->rc != MPI_SUCCESS) {
        *done = 1;
        return s->rc;
    }
    return advance(s, done);
}

int ac_sched_round_completed(const ac_sched *s)
{
    for (int i = 0; i < s->nreqs; i++)
        if (s->reqs[i] != MPI_REQUEST_NULL) return 0;
    return 1;
}

/* MPI_Testall of the round's messages as MPI_Test of each, a completed one MPI_REQUEST_NULL:
 * for a schedule that may start the library's persistent collective (s->library), whose
 * completion MPICH 4.0.2's MPI_Testall reports as MPI_ERR_IN_STATUS with MPI_SUCCESS in every
 * status (docs/native-libraries.md). */
static int test_each(ac_sched *s, int *flag)
{
    *flag = 1;
    for (int i = 0; i < s->nreqs; i++) {
        int one = 1;
        if (s->reqs[i] == MPI_REQUEST_NULL) continue;
        int rc = PMPI_Test(&s->reqs[i], &one, &s->stats[i]);
        if (rc != MPI_SUCCESS) return rc;
        if (one)
            s->reqs[i] = MPI_REQUEST_NULL;
        else
            *flag = 0;
    }
    return MPI_SUCCESS;
}

int ac_sched_progress(ac_sched *s, int block, int *done)
{
    *done = s->round >= s->nrounds;
    while (!*done) {
        int flag = 1, pending = !ac_sched_round_completed(s);
        /* none pending (completed where the layer waited on them, requests.c): no library call;
         * SMPI charges a simulated sleep for every MPI_Testall, even of null requests */
        if (pending && block)
            s->rc = PMPI_Waitall(s->nreqs, s->reqs, s->stats);
        else if (pending && s->library != MPI_REQUEST_NULL)
            s->rc = test_each(s, &flag);
        else if (pending)
            s->rc = PMPI_Testall(s->nreqs, s->reqs, &flag, s->stats);
        if (s->rc == MPI_SUCCESS && flag && !round_posted(s)) { /* held: its turn yet? */
            s->rc = post_from(s, s->ends[s->round], 0);
            if (s->rc == MPI_SUCCESS && (s->held || !ac_sched_round_completed(s))) flag = 0;
        }
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
    turns_drop(s); /* the steps not started never start */
    if (s->nreqs) PMPI_Waitall(s->nreqs, s->reqs, s->stats);
    s->nreqs = 0;
    for (int i = 0; i < s->nkept; i++) {
        if (s->kept[i] == MPI_REQUEST_NULL) continue;
        if (s->kept_recv[i]) PMPI_Cancel(&s->kept[i]);
        PMPI_Wait(&s->kept[i], MPI_STATUS_IGNORE);
    }
}
