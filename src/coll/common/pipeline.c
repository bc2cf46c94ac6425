/*
 * pipeline.c - segmented, nonblocking transfers along tree edges (pipeline.h).
 */
#include "coll/common/pipeline.h"
#include "coll/common/common.h"

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

/* Outstanding nonblocking sends, oldest first; pushing into a full ring waits for the oldest. */
typedef struct send_ring {
    MPI_Request *req;
    int cap, head, n;
} send_ring;

static int ring_init(send_ring *r, int cap)
{
    r->cap = cap;
    r->head = r->n = 0;
    r->req = malloc((size_t)cap * sizeof *r->req);
    return r->req ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* A slot for one more request (waits for the oldest when the ring is full). */
static int ring_slot(send_ring *r, MPI_Request **slot)
{
    if (r->n == r->cap) {
        int rc = PMPI_Wait(&r->req[r->head], MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return rc;
        r->head = (r->head + 1) % r->cap;
        r->n--;
    }
    *slot = &r->req[(r->head + r->n) % r->cap];
    r->n++;
    return MPI_SUCCESS;
}

/* Waits for everything still outstanding and frees the ring; returns the first error. */
static int ring_finish(send_ring *r, int rc)
{
    for (; r->n > 0; r->n--, r->head = (r->head + 1) % r->cap) {
        int wrc = PMPI_Wait(&r->req[r->head], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    free(r->req);
    r->req = NULL;
    return rc;
}

static int send_segment(send_ring *r, const char *data, MPI_Aint len, MPI_Aint seg, MPI_Aint j,
                        int peer, MPI_Comm comm)
{
    MPI_Request *slot;
    int rc = ring_slot(r, &slot);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Isend(data + j * seg_bytes(len, seg), seg_len(len, seg, j), MPI_PACKED, peer,
                    AC_TAG_DATA, comm, slot);
    if (rc != MPI_SUCCESS) *slot = MPI_REQUEST_NULL;
    return rc;
}

static int recv_segment(char *data, MPI_Aint len, MPI_Aint seg, MPI_Aint j, int peer, MPI_Comm comm,
                        MPI_Request *req)
{
    int rc = PMPI_Irecv(data + j * seg_bytes(len, seg), seg_len(len, seg, j), MPI_PACKED, peer,
                        AC_TAG_DATA, comm, req);
    if (rc != MPI_SUCCESS) *req = MPI_REQUEST_NULL;
    return rc;
}

/* After an error: cancels and completes the receives still posted, so that none leaks (on
 * success every one has completed already). */
static void cancel_receives(MPI_Request *req, int n)
{
    for (int i = 0; i < n; i++)
        if (req[i] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&req[i]);
            PMPI_Wait(&req[i], MPI_STATUS_IGNORE);
        }
}

/* Completes the sends still outstanding; returns rc, or the first send error. */
static int wait_sends(MPI_Request *req, int n, int rc)
{
    for (int i = 0; i < n; i++)
        if (req[i] != MPI_REQUEST_NULL) {
            int wrc = PMPI_Wait(&req[i], MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS) rc = wrc;
        }
    return rc;
}

int ac_pipe_forward(char *in, MPI_Aint len, int from, const ac_pipe_edge *out, int nout,
                    MPI_Aint seg, MPI_Comm comm)
{
    int rc, root = from == MPI_PROC_NULL;
    MPI_Aint nin = root ? 0 : ac_pipe_segments(len, seg), have = root ? len : 0;
    MPI_Aint *next = NULL;
    MPI_Request rreq[AC_PIPE_DEPTH];
    send_ring ring = {0};

    for (int i = 0; i < AC_PIPE_DEPTH; i++)
        rreq[i] = MPI_REQUEST_NULL;
    next = calloc((size_t)(nout > 0 ? nout : 1), sizeof *next);
    if (!next) return MPI_ERR_NO_MEM;
    rc = ring_init(&ring, AC_PIPE_DEPTH * (nout > 0 ? nout : 1));
    for (MPI_Aint j = 0; rc == MPI_SUCCESS && j < nin && j < AC_PIPE_DEPTH; j++)
        rc = recv_segment(in, len, seg, j, from, comm, &rreq[j]);

    for (MPI_Aint round = 0; rc == MPI_SUCCESS; round++) {
        int done = 1;
        if (round < nin) {
            MPI_Request *r = &rreq[round % AC_PIPE_DEPTH];
            rc = PMPI_Wait(r, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS && round + AC_PIPE_DEPTH < nin)
                rc = recv_segment(in, len, seg, round + AC_PIPE_DEPTH, from, comm, r);
            if (rc != MPI_SUCCESS) break;
            have = round + 1 < nin ? (round + 1) * seg_bytes(len, seg) : len;
        }
        /* every edge gets the segments whose bytes are here (the root: one per round) */
        for (int e = 0; e < nout && rc == MPI_SUCCESS; e++) {
            MPI_Aint ns = ac_pipe_segments(out[e].len, seg);
            for (int sent = 0; next[e] < ns && rc == MPI_SUCCESS; sent++) {
                if (root ? sent == 1
                         : (out[e].data - in) + next[e] * seg_bytes(out[e].len, seg) +
                                   seg_len(out[e].len, seg, next[e]) >
                               have)
                    break;
                rc = send_segment(&ring, out[e].data, out[e].len, seg, next[e], out[e].peer, comm);
                next[e]++;
            }
            if (next[e] < ns) done = 0;
        }
        if (round + 1 >= nin && done) break;
    }
    cancel_receives(rreq, AC_PIPE_DEPTH);
    rc = ring_finish(&ring, rc);
    free(next);
    return rc;
}

int ac_pipe_collect(char *out, MPI_Aint len, MPI_Aint ready, int to, const ac_pipe_edge *in,
                    int nin, MPI_Aint seg, MPI_Comm comm)
{
    int rc, nreq = (nin > 0 ? nin : 1) * AC_PIPE_DEPTH;
    MPI_Aint nout = to == MPI_PROC_NULL ? 0 : ac_pipe_segments(len, seg), next = 0, have = ready;
    MPI_Request *rreq = malloc((size_t)nreq * sizeof *rreq);
    send_ring ring = {0};

    if (!rreq) return MPI_ERR_NO_MEM;
    for (int i = 0; i < nreq; i++)
        rreq[i] = MPI_REQUEST_NULL;
    rc = ring_init(&ring, AC_PIPE_DEPTH);
    /* every child's first segments are posted at once: the children send in parallel */
    for (int e = 0; e < nin && rc == MPI_SUCCESS; e++) {
        MPI_Aint ns = ac_pipe_segments(in[e].len, seg);
        for (MPI_Aint j = 0; j < ns && j < AC_PIPE_DEPTH && rc == MPI_SUCCESS; j++)
            rc = recv_segment(in[e].data, in[e].len, seg, j, in[e].peer, comm,
                              &rreq[e * AC_PIPE_DEPTH + j]);
    }
    for (int e = 0; e <= nin && rc == MPI_SUCCESS; e++) {
        MPI_Aint ns = e < nin ? ac_pipe_segments(in[e].len, seg) : 0;
        for (MPI_Aint j = 0; j <= ns && rc == MPI_SUCCESS; j++) {
            /* segments up whose bytes are all here */
            while (next < nout && rc == MPI_SUCCESS &&
                   next * seg_bytes(len, seg) + seg_len(len, seg, next) <= have) {
                rc = send_segment(&ring, out, len, seg, next, to, comm);
                next++;
            }
            if (j == ns || rc != MPI_SUCCESS) break;
            MPI_Request *r = &rreq[e * AC_PIPE_DEPTH + j % AC_PIPE_DEPTH];
            rc = PMPI_Wait(r, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS && j + AC_PIPE_DEPTH < ns)
                rc = recv_segment(in[e].data, in[e].len, seg, j + AC_PIPE_DEPTH, in[e].peer, comm,
                                  r);
            if (to != MPI_PROC_NULL)
                have =
                    (in[e].data - out) + j * seg_bytes(in[e].len, seg) + seg_len(in[e].len, seg, j);
        }
    }
    cancel_receives(rreq, nreq);
    rc = ring_finish(&ring, rc);
    free(rreq);
    return rc;
}

int ac_pipe_reduce(const void *own, void *result, int count, MPI_Datatype dtype, MPI_Op op, int to,
                   const int *from, int nfrom, int segcount, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, sc, nseg, npairs, nslots, posted = 0;
    MPI_Aint extent = ac_extent(dtype);
    ac_tmp *slot = NULL;
    MPI_Request *rreq = NULL, *sreq = NULL;
    send_ring ring = {0};

    if (count == 0) return MPI_SUCCESS;
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
    if (nslots > 0) {
        slot = calloc((size_t)nslots, sizeof *slot);
        rreq = malloc((size_t)nslots * sizeof *rreq);
        sreq = malloc((size_t)nslots * sizeof *sreq);
        if (!slot || !rreq || !sreq) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        for (int s = 0; s < nslots; s++)
            rreq[s] = sreq[s] = MPI_REQUEST_NULL;
        for (int s = 0; s < nslots && rc == MPI_SUCCESS; s++)
            rc = ac_tmp_alloc(&slot[s], sc, dtype);
        if (rc != MPI_SUCCESS) goto out;
    }
    rc = ring_init(&ring, AC_PIPE_DEPTH);
    if (rc != MPI_SUCCESS) goto out;

    for (int j = 0; j < nseg; j++) {
        int n = j + 1 < nseg ? sc : count - j * sc, acc_slot = -1;
        MPI_Aint off = (MPI_Aint)j * sc * extent;
        const char *acc = (const char *)own + off;
        for (int i = 0; i < nfrom; i++) {
            int q = j * nfrom + i, s = q % nslots;
            /* post the receives of pairs up to q + nslots - 2: their slots' earlier users (up
             * to pair q - 2) are combined, and pair q - 1's slot, which may hold the running
             * result, is left alone (a slot still sending a result is waited for first) */
            while (posted < npairs && posted < q + (nslots > 1 ? nslots - 1 : 1)) {
                int ps = posted % nslots, pj = posted / nfrom;
                int pn = pj + 1 < nseg ? sc : count - pj * sc;
                if (sreq[ps] != MPI_REQUEST_NULL) rc = PMPI_Wait(&sreq[ps], MPI_STATUS_IGNORE);
                if (rc == MPI_SUCCESS)
                    rc = PMPI_Irecv(slot[ps].buf, pn, dtype, from[posted % nfrom], AC_TAG_DATA,
                                    comm, &rreq[ps]);
                if (rc != MPI_SUCCESS) {
                    rreq[ps] = MPI_REQUEST_NULL;
                    goto out;
                }
                posted++;
            }
            rc = PMPI_Wait(&rreq[s], MPI_STATUS_IGNORE);
            /* slot = acc op slot: the operands to the left come first */
            if (rc == MPI_SUCCESS) rc = ac_reduce_local(acc, slot[s].buf, n, dtype, op);
            if (rc != MPI_SUCCESS) goto out;
            acc = slot[s].buf;
            acc_slot = s;
        }
        if (result) {
            char *dst = (char *)result + off;
            if (acc != dst) rc = ac_copy(acc, n, dtype, dst, n, dtype);
        } else if (acc_slot >= 0) {
            rc = PMPI_Isend(acc, n, dtype, to, AC_TAG_DATA, comm, &sreq[acc_slot]);
            if (rc != MPI_SUCCESS) sreq[acc_slot] = MPI_REQUEST_NULL;
        } else {
            MPI_Request *r;
            rc = ring_slot(&ring, &r);
            if (rc == MPI_SUCCESS) {
                rc = PMPI_Isend(acc, n, dtype, to, AC_TAG_DATA, comm, r);
                if (rc != MPI_SUCCESS) *r = MPI_REQUEST_NULL;
            }
        }
        if (rc != MPI_SUCCESS) goto out;
    }
out:
    if (rreq) cancel_receives(rreq, nslots);
    if (sreq) rc = wait_sends(sreq, nslots, rc);
    if (ring.req) rc = ring_finish(&ring, rc);
    for (int s = 0; slot && s < nslots; s++)
        ac_tmp_free(&slot[s]);
    free(slot);
    free(rreq);
    free(sreq);
    return rc;
}
