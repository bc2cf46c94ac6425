/*
 * pipeline.h - the pipelining engine of the tree collectives (Berkeley report section 3.2): a
 * message is cut into segments, and every tree node posts nonblocking receives and sends so
 * that it forwards segment i while segment i+1 is still arriving. One engine for three
 * patterns, used by the algorithms of src/coll/{bcast,reduce,scatter,gather}/:
 *
 *   ac_pipe_forward  bcast, scatter: a byte stream arrives from the parent; each child gets a
 *                    range of it (bcast: all of it; scatter: its subtree's blocks), segment by
 *                    segment, as soon as those bytes have arrived.
 *   ac_pipe_collect  gather: the stream to the parent is this rank's own bytes followed by
 *                    each child's stream; a segment goes up as soon as its bytes are here.
 *   ac_pipe_reduce   reduce: segment j of the result is own(j) op child0(j) op child1(j) ...
 *                    (left to right: operand order kept), sent up or stored at the root.
 *
 * Each is written as a schedule (common/sched.h; ac_pipe_*_schedule append it to one): its
 * receives and sends are kept messages and its waits wait steps, recorded in the order the
 * engine makes them, so that the blocking run (ac_sched_run) makes the engine's MPI_Irecv,
 * MPI_Isend and MPI_Wait calls in the engine's order, and a nonblocking or persistent call
 * progresses the same transfers.
 *
 * Streams of bytes travel as MPI_PACKED at both ends, so a segment may end inside a datatype
 * element without any typed operation ever seeing part of an element (callers pack and unpack
 * whole blocks, or use the user buffer itself when its type is plain bytes: ac_is_bytes), and
 * send and receive types may differ as MPI allows. Reductions travel in the caller's datatype,
 * whose count and type MPI requires equal on every rank, in segments of whole elements.
 *
 * Segment size: `seg` bytes (forward, collect) or `segcount` elements (reduce); 0 means one
 * segment per stream (unsegmented). A segment never exceeds AC_PIPE_MAX_MESSAGE bytes, so
 * unsegmented streams longer than that are cut there. At most AC_PIPE_DEPTH segments per
 * stream are in flight (receives posted ahead, sends not yet complete); a reduce holds between
 * 2 and AC_PIPE_SLOTS receive buffers of one segment, beyond two only within
 * AC_PIPE_SLOT_BYTES (an unsegmented reduce of a large vector holds two, as MPICH's does). Every
 * function completes all its own traffic before returning. Tag AC_TAG_DATA; segments of one stream
 * are matched in order (MPI's non-overtaking rule).
 *
 * Deadlock freedom: data flow one way along tree edges, every node posts its receives in the
 * order it consumes them and waits on a send only when its own window is full, so the tree
 * root, which never waits on a send up, always makes progress and with it, by induction down
 * the tree, every node.
 */
#ifndef AUTOCOLL_PIPELINE_H
#define AUTOCOLL_PIPELINE_H

#include "coll/coll.h"
#include "coll/common/common.h"
#include "coll/common/sched.h"

enum {
    AC_PIPE_DEPTH = 4,            /* segments in flight per stream */
    AC_PIPE_SLOTS = 16,           /* most segment buffers a reduce allocates */
    AC_PIPE_SLOT_BYTES = 8 << 20, /* ... and beyond two, at most this many bytes of them */
    AC_PIPE_MAX_MESSAGE = 1 << 30 /* largest segment in bytes */
};

/* One tree edge of a byte stream: the peer and its `len` bytes at `data`. */
typedef struct ac_pipe_edge {
    int peer;
    char *data;
    MPI_Aint len;
} ac_pipe_edge;

/* Number of segments of a `len`-byte stream with `seg`-byte segments (0 when len is 0). */
MPI_Aint ac_pipe_segments(MPI_Aint len, MPI_Aint seg);

/* The builders append the transfers to `s` (its communicator, its tag), starting in its current
 * round and ending with a round of waits; the edges are read while building only, the buffers
 * when the schedule runs. Their error: the schedule's (ac_sched_error) or MPI_ERR_NO_MEM. */

/* Forward: `len` bytes at `in` arrive from `from` (MPI_PROC_NULL: they are all here, this is
 * the root); each edge of `out` (in the order given) gets its `len` bytes, which must lie
 * inside [in, in + len) unless `from` is MPI_PROC_NULL. At the root the edges are served in
 * turn, one segment each. */
int ac_pipe_forward_schedule(ac_sched *s, char *in, MPI_Aint len, int from,
                             const ac_pipe_edge *out, int nout, MPI_Aint seg);

/* Collect: `len` bytes at `out` go to `to` (MPI_PROC_NULL: nowhere, this is the root). Bytes
 * [0, ready) are here at the start; each edge of `in` arrives from its peer. Unless `to` is
 * MPI_PROC_NULL the edges must tile [out + ready, out + len) in the order given. */
int ac_pipe_collect_schedule(ac_sched *s, char *out, MPI_Aint len, MPI_Aint ready, int to,
                             const ac_pipe_edge *in, int nin, MPI_Aint seg);

/* Reduce: result = own op v[0] op v[1] ... op v[nfrom-1], where v[i] is the vector of rank
 * from[i] (it sends the same kind of result: this is one tree level), combined segment by
 * segment from the left. With `result` non-NULL the result is stored there (may equal own),
 * otherwise it is sent to `to`. `count` elements of `dtype`, `segcount` elements a segment;
 * the receive slots are the schedule's temporaries. */
int ac_pipe_reduce_schedule(ac_sched *s, const void *own, void *result, int count,
                            MPI_Datatype dtype, MPI_Op op, int to, const int *from, int nfrom,
                            int segcount);

/* A byte view of `count` elements of `dtype` at `buf` for a schedule, as ac_bytes_get: the
 * buffer itself when the type is plain bytes, otherwise a temporary of the schedule (b->copy),
 * packed from buf by a local step of the current round when `load` is set. Nothing to free;
 * ac_pipe_bytes_store appends the unpack of the temporary into buf (a local step), if any. */
int ac_pipe_bytes(ac_sched *s, const void *buf, int count, MPI_Datatype dtype, int load,
                  ac_bytes *b);
void ac_pipe_bytes_store(ac_sched *s, const ac_bytes *b, void *buf, int count, MPI_Datatype dtype);

#endif
