/*
 * pipeline.c - segmented, nonblocking transfers along tree edges (pipeline.h), written as
 * schedules (common/sched.h) of kept messages: the builders below walk the transfers as the
 * engine ran them, recording each MPI_Isend, MPI_Irecv and MPI_Wait where it made them, so
 * that the blocking run makes the same calls in the same order.
 */
#include "coll/common/pipeline.h"
#include "coll/common/common.h"

#include <limits.h>
#include <stdlib.h>

/* Segment length of a `len`-byte stream: `seg`, or the whole stream; capped. */
static MPI_Aint seg_bytes(MPI_Aint len, MPI_Aint seg)
{
    MPI_Aint s = seg > 0 ? seg : len;
    if (s > AC_PIPE_MAX_MESSAGE) s = AC_PIPE_MAX_MESSAGE;
    return s > 0 ? s : 1;
}

MPI_Aint ac_pipe_segments(MPI_Aint len, MPI_Aint seg)
{
    MPI_Aint s = seg_bytes(len, seg);
    return (len + s - 1) / s;
}

/* Bytes of segment j of a stream. */
static int seg_len(MPI_Aint len, MPI_Aint seg, MPI_Aint j)
{
    MPI_Aint s = seg_bytes(len, seg), rest = len - j * s;
    return (int)(rest < s ? rest : s);
}

/* The kept slots (sched.h) of outstanding sends, oldest first: slots first .. first+cap-1; a
 * send into a full ring waits for the oldest first. The builder tracks them as the blocking
 * engine tracked its requests, so the schedule makes the same calls in the same order. */
typedef struct send_ring {
    int first, cap, head, n;
} send_ring;

static int ring_slot(ac_sched *s, send_ring *r)
{
    if (r->n == r->cap) {
        ac_sched_wait(s, r->first + r->head);
        r->head = (r->head + 1) % r->cap;
        r->n--;
    }
    return r->first + (r->head + r->n++) % r->cap;
}

/* Waits for every send still outstanding, oldest first. */
static void ring_finish(ac_sched *s, send_ring *r)
{
    for (; r->n > 0; r->n--, r->head = (r->head + 1) % r->cap)
        ac_sched_wait(s, r->first + r->head);
}

static void send_segment(ac_sched *s, send_ring *r, const char *data, MPI_Aint len, MPI_Aint seg,
                         MPI_Aint j, int peer)
{
    int slot = ring_slot(s, r);
    ac_sched_send_kept(s, slot, data + j * seg_bytes(len, seg), seg_len(len, seg, j), MPI_PACKED,
                       peer);
}

static void recv_segment(ac_sched *s, int slot, char *data, MPI_Aint len, MPI_Aint seg,
                         MPI_Aint j, int peer)
{
    ac_sched_recv_kept(s, slot, data + j * seg_bytes(len, seg), seg_len(len, seg, j), MPI_PACKED,
                       peer);
}

int ac_pipe_bytes(ac_sched *s, const void *buf, int count, MPI_Datatype dtype, int load,
                  ac_bytes *b)
{
    int tsize, rc = PMPI_Type_size(dtype, &tsize);
    MPI_Aint lb, extent;
    b->data = b->copy = NULL;
    b->size = 0;
    if (rc != MPI_SUCCESS) return rc;
    if ((MPI_Aint)count * tsize > INT_MAX) return MPI_ERR_COUNT;
    b->size = count * tsize;
    if (ac_is_bytes(dtype)) {
        PMPI_Type_get_extent(dtype, &lb, &extent);
        b->data = (char *)buf + lb;
        return ac_sched_error(s);
    }
    b->copy = b->data = ac_sched_tmp(s, b->size + 1, MPI_BYTE);
    if (b->copy && load) ac_sched_pack(s, buf, count, dtype, b->copy, b->size);
    return ac_sched_error(s);
}

void ac_pipe_bytes_store(ac_sched *s, const ac_bytes *b, void *buf, int count, MPI_Datatype dtype)
{
    if (b->copy) ac_sched_unpack(s, b->copy, b->size, buf, count, dtype);
}

int ac_pipe_forward_schedule(ac_sched *s, char *in, MPI_Aint len, int from,
                             const ac_pipe_edge *out, int nout, MPI_Aint seg)
{
    int root = from == MPI_PROC_NULL;
    MPI_Aint nin = root ? 0 : ac_pipe_segments(len, seg), have = root ? len : 0;
    MPI_Aint *next = calloc((size_t)(nout > 0 ? nout : 1), sizeof *next);
    /* kept slots: the receives from the parent (a window of AC_PIPE_DEPTH), then the sends */
    send_ring ring = {AC_PIPE_DEPTH, AC_PIPE_DEPTH * (nout > 0 ? nout : 1), 0, 0};

    if (!next) return MPI_ERR_NO_MEM;
    ac_sched_keep(s, ring.first + ring.cap);
    for (MPI_Aint j = 0; j < nin && j < AC_PIPE_DEPTH; j++)
        recv_segment(s, (int)j, in, len, seg, j, from);

    for (MPI_Aint round = 0; ac_sched_error(s) == MPI_SUCCESS; round++) {
        int done = 1;
        if (round < nin) {
            int r = (int)(round % AC_PIPE_DEPTH);
            ac_sched_wait(s, r);
            if (round + AC_PIPE_DEPTH < nin)
                recv_segment(s, r, in, len, seg, round + AC_PIPE_DEPTH, from);
            have = round + 1 < nin ? (round + 1) * seg_bytes(len, seg) : len;
        }
        /* every edge gets the segments whose bytes are here (the root: one per round) */
        for (int e = 0; e < nout; e++) {
            MPI_Aint ns = ac_pipe_segments(out[e].len, seg);
            for (int sent = 0; next[e] < ns; sent++) {
                if (root ? sent == 1
                         : (out[e].data - in) + next[e] * seg_bytes(out[e].len, seg) +
                                   seg_len(out[e].len, seg, next[e]) >
                               have)
                    break;
                send_segment(s, &ring, out[e].data, out[e].len, seg, next[e], out[e].peer);
                next[e]++;
            }
            if (next[e] < ns) done = 0;
        }
        if (round + 1 >= nin && done) break;
    }
    ring_finish(s, &ring);
    free(next);
    return ac_sched_error(s);
}

int ac_pipe_collect_schedule(ac_sched *s, char *out, MPI_Aint len, MPI_Aint ready, int to,
                             const ac_pipe_edge *in, int nin, MPI_Aint seg)
{
    MPI_Aint nout = to == MPI_PROC_NULL ? 0 : ac_pipe_segments(len, seg), next = 0, have = ready;
    /* kept slots: a window of AC_PIPE_DEPTH receives per child, then the sends up */
    send_ring ring = {(nin > 0 ? nin : 1) * AC_PIPE_DEPTH, AC_PIPE_DEPTH, 0, 0};

    ac_sched_keep(s, ring.first + ring.cap);
    /* every child's first segments are posted at once: the children send in parallel */
    for (int e = 0; e < nin; e++) {
        MPI_Aint ns = ac_pipe_segments(in[e].len, seg);
        for (MPI_Aint j = 0; j < ns && j < AC_PIPE_DEPTH; j++)
            recv_segment(s, e * AC_PIPE_DEPTH + (int)j, in[e].data, in[e].len, seg, j,
                         in[e].peer);
    }
    for (int e = 0; e <= nin && ac_sched_error(s) == MPI_SUCCESS; e++) {
        MPI_Aint ns = e < nin ? ac_pipe_segments(in[e].len, seg) : 0;
        for (MPI_Aint j = 0; j <= ns; j++) {
            /* segments up whose bytes are all here */
            while (next < nout && next * seg_bytes(len, seg) + seg_len(len, seg, next) <= have) {
                send_segment(s, &ring, out, len, seg, next, to);
                next++;
            }
            if (j == ns) break;
            int r = e * AC_PIPE_DEPTH + (int)(j % AC_PIPE_DEPTH);
            ac_sched_wait(s, r);
            if (j + AC_PIPE_DEPTH < ns)
                recv_segment(s, r, in[e].data, in[e].len, seg, j + AC_PIPE_DEPTH, in[e].peer);
            if (to != MPI_PROC_NULL)
                have =
                    (in[e].data - out) + j * seg_bytes(in[e].len, seg) + seg_len(in[e].len, seg, j);
        }
    }
    ring_finish(s, &ring);
    return ac_sched_error(s);
}

int ac_pipe_reduce_schedule(ac_sched *s, const void *own, void *result, int count,
                            MPI_Datatype dtype, MPI_Op op, int to, const int *from, int nfrom,
                            int segcount)
{
    int sc, nseg, npairs, nslots, posted = 0;
    MPI_Aint extent = ac_extent(dtype);
    char **slot = NULL;
    unsigned char *sending = NULL;

    if (count == 0) return ac_sched_error(s);
    sc = segcount > 0 && segcount < count ? segcount : count;
    nseg = (count - 1) / sc + 1;
    npairs = nseg * nfrom;
    /* receive slots, used round robin by the (segment, child) pairs in the order they are
     * combined; two suffice (the running result and the next operand), more overlap */
    nslots = 2 * nfrom < AC_PIPE_SLOTS ? 2 * nfrom : AC_PIPE_SLOTS;
    if ((MPI_Aint)nslots * sc * extent > AC_PIPE_SLOT_BYTES)
        nslots = (int)(AC_PIPE_SLOT_BYTES / ((MPI_Aint)sc * (extent > 0 ? extent : 1)));
    if (nslots < 2) nslots = 2;
    if (nslots > npairs) nslots = npairs;
    /* kept slots: receive slot i's receive is slot i, the send of the result it holds
     * nslots + i; then the sends of results that hold no receive slot (a leaf's) */
    send_ring ring = {2 * nslots, AC_PIPE_DEPTH, 0, 0};
    ac_sched_keep(s, ring.first + ring.cap);
    if (nslots > 0) {
        slot = calloc((size_t)nslots, sizeof *slot);
        sending = calloc((size_t)nslots, 1);
        if (!slot || !sending) {
            free(slot);
            free(sending);
            return MPI_ERR_NO_MEM;
        }
        for (int i = 0; i < nslots; i++)
            slot[i] = ac_sched_tmp(s, sc, dtype);
    }

    for (int j = 0; j < nseg && ac_sched_error(s) == MPI_SUCCESS; j++) {
        int n = j + 1 < nseg ? sc : count - j * sc, acc_slot = -1;
        MPI_Aint off = (MPI_Aint)j * sc * extent;
        const char *acc = (const char *)own + off;
        for (int i = 0; i < nfrom; i++) {
            int q = j * nfrom + i, r = q % nslots;
            /* post the receives of pairs up to q + nslots - 2: their slots' earlier users (up
             * to pair q - 2) are combined, and pair q - 1's slot, which may hold the running
             * result, is left alone (a slot still sending a result is waited for first) */
            while (posted < npairs && posted < q + (nslots > 1 ? nslots - 1 : 1)) {
                int ps = posted % nslots, pj = posted / nfrom;
                int pn = pj + 1 < nseg ? sc : count - pj * sc;
                if (sending[ps]) ac_sched_wait(s, nslots + ps);
                sending[ps] = 0;
                ac_sched_recv_kept(s, ps, slot[ps], pn, dtype, from[posted % nfrom]);
                posted++;
            }
            ac_sched_wait(s, r);
            /* slot = acc op slot: the operands to the left come first */
            ac_sched_reduce(s, acc, slot[r], n, dtype, op);
            acc = slot[r];
            acc_slot = r;
        }
        if (result) {
            char *dst = (char *)result + off;
            if (acc != dst) ac_sched_copy(s, acc, n, dtype, dst, n, dtype);
        } else if (acc_slot >= 0) {
            ac_sched_send_kept(s, nslots + acc_slot, acc, n, dtype, to);
            sending[acc_slot] = 1;
        } else {
            ac_sched_send_kept(s, ring_slot(s, &ring), acc, n, dtype, to);
        }
    }
    for (int i = 0; i < nslots; i++)
        if (sending[i]) ac_sched_wait(s, nslots + i);
    ring_finish(s, &ring);
    free(slot);
    free(sending);
    return ac_sched_error(s);
}
