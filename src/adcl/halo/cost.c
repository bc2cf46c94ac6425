/*
 * cost.c - the cost model of the neighbourhood exchange (cost.h): one rule per attribute value.
 *
 * An exchange runs in epochs: partners=aao is one epoch over every dimension, partners=pair one
 * epoch per dimension, one after another. Inside an epoch the primitive says how the faces'
 * messages share time (with M faces of this process that have a neighbour, S and R the bytes it
 * sends and receives in the epoch):
 *   overlapped (isend_irecv, send_irecv, put, get, neighbor_collective): every message is in
 *       flight at once: one access latency, and max(S, R) bytes through the process's link
 *       (full duplex: sending and receiving overlap, the faces of one direction queue). A
 *       blocking MPI_Send before the posted receives counts as overlapped: a face below the
 *       library's eager limit leaves at once. A get is a request and its reply: 2 latencies.
 *   serial (send_recv): Send then Recv ordered by coordinate parity: one message at a time,
 *       2M latencies and S + R bytes.
 *   shift (sendrecv): one MPI_Sendrecv per side of each dimension: a latency per side with a
 *       message in either direction, and the larger of its send and receive.
 * Every message costs the process an overhead: a send and a receive for each face of the
 * point-to-point primitives, one access for the one-sided ones. Data: pack copies every face
 * out and in (its bytes once each way), ddt costs the same per byte for the faces that are not
 * contiguous in memory. Synchronisation: sync=fence is a fence before the first epoch and after
 * each (a barrier: ceil(log2 p) rounds each); sync=post_start is a handshake per epoch (post to
 * start, complete to wait: 2 rounds and 4 messages per neighbour).
 */
#include "adcl/halo/cost.h"

#include <math.h>

enum { OVERLAPPED, SERIAL, SHIFT };

/* The rule of each primitive (AC_HALO_ISEND_IRECV ... order). */
static const struct {
    int kind;     /* how the messages of an epoch share time */
    int latency;  /* latencies of one access */
    int overhead; /* messages this process handles per face */
} primitives[] = {
    {OVERLAPPED, 1, 2}, /* isend_irecv */
    {OVERLAPPED, 1, 2}, /* send_irecv */
    {SERIAL, 1, 2},     /* send_recv */
    {SHIFT, 1, 2},      /* sendrecv */
    {OVERLAPPED, 1, 1}, /* put */
    {OVERLAPPED, 2, 1}, /* get */
    {OVERLAPPED, 1, 2}, /* neighbor_collective */
};

static const char *const param_names[AC_HALO_COST_PARAMS] = {
    [AC_HALO_COST_LATENCY] = "latency", [AC_HALO_COST_BYTE] = "byte",
    [AC_HALO_COST_OVERHEAD] = "overhead", [AC_HALO_COST_COPY] = "copy",
    [AC_HALO_COST_FENCE] = "fence", [AC_HALO_COST_HANDSHAKE] = "handshake",
};

const char *ac_halo_cost_param_name(int param)
{
    return param_names[param];
}

static double max2(double a, double b)
{
    return a > b ? a : b;
}

/* The features of one epoch over dimensions [d0, d1) into f. */
static void epoch(const ac_halo_impl *impl, const ac_halo_shape *x, int d0, int d1, double *f)
{
    int kind = primitives[impl->primitive].kind, faces = 0;
    double sent = 0, received = 0, latency = primitives[impl->primitive].latency;
    for (int d = d0; d < d1; d++)
        for (int s = 0; s < 2; s++) {
            if (!x->exists[d][s]) continue;
            faces++;
            sent += x->send[d][s];
            received += x->recv[d][s];
            f[AC_HALO_COST_COPY] += impl->data == AC_HALO_PACK || !x->contiguous[d][s]
                                        ? x->send[d][s] + x->recv[d][s]
                                        : 0.0;
        }
    f[AC_HALO_COST_OVERHEAD] += primitives[impl->primitive].overhead * faces;
    if (kind == OVERLAPPED) {
        f[AC_HALO_COST_LATENCY] += faces ? latency : 0.0;
        f[AC_HALO_COST_BYTE] += max2(sent, received);
    } else if (kind == SERIAL) {
        f[AC_HALO_COST_LATENCY] += 2 * faces * latency;
        f[AC_HALO_COST_BYTE] += sent + received;
    } else {
        for (int d = d0; d < d1; d++)
            for (int s = 0; s < 2; s++) {
                double out = x->exists[d][s] ? x->send[d][s] : 0.0;
                double in = x->exists[d][1 - s] ? x->recv[d][1 - s] : 0.0;
                if (!x->exists[d][s] && !x->exists[d][1 - s]) continue;
                f[AC_HALO_COST_LATENCY] += latency;
                f[AC_HALO_COST_BYTE] += max2(out, in);
            }
    }
    if (impl->sync == AC_HALO_SYNC_POST_START) {
        f[AC_HALO_COST_HANDSHAKE] += 2;
        f[AC_HALO_COST_OVERHEAD] += 4 * x->neighbours;
    }
}

void ac_halo_cost_features(const ac_halo_impl *impl, const ac_halo_shape *shape, double *f)
{
    int epochs = impl->partners == AC_HALO_AAO ? 1 : shape->ndims;
    for (int j = 0; j < AC_HALO_COST_PARAMS; j++) f[j] = 0.0;
    for (int e = 0; e < epochs; e++)
        epoch(impl, shape, epochs == 1 ? 0 : e, epochs == 1 ? shape->ndims : e + 1, f);
    if (impl->sync == AC_HALO_SYNC_FENCE) {
        double rounds = shape->size > 1 ? ceil(log2((double)shape->size)) : 1.0;
        f[AC_HALO_COST_FENCE] = (epochs + 1) * rounds;
    }
}

double ac_halo_cost_time(const double *f, const double *params)
{
    double t = 0.0;
    for (int j = 0; j < AC_HALO_COST_PARAMS; j++) t += f[j] * params[j];
    return t;
}

/* Whether a committed datatype's data is one block: its size equals its true extent. */
static int contiguous(MPI_Datatype type, int *result)
{
    int size;
    MPI_Aint lb, extent;
    int rc = PMPI_Type_size(type, &size);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_get_true_extent(type, &lb, &extent);
    *result = rc == MPI_SUCCESS && (MPI_Aint)size == extent;
    return rc;
}

int ac_halo_cost_shape(const ac_halo *h, ac_halo_shape *shape)
{
    int rc = PMPI_Comm_size(h->comm, &shape->size);
    shape->ndims = h->ndims;
    shape->neighbours = 0;
    for (int d = 0; d < h->ndims && rc == MPI_SUCCESS; d++)
        for (int s = 0; s < 2 && rc == MPI_SUCCESS; s++) {
            int out = 1, in = 1;
            shape->exists[d][s] = h->nbr[d][s] != MPI_PROC_NULL;
            shape->send[d][s] = h->send_bytes[d][s];
            shape->recv[d][s] = h->recv_bytes[d][s];
            if (shape->exists[d][s]) rc = contiguous(h->send[d][s], &out);
            if (shape->exists[d][s] && rc == MPI_SUCCESS) rc = contiguous(h->recv[d][s], &in);
            shape->contiguous[d][s] = out && in;
            int first = shape->exists[d][s]; /* a neighbour not met on an earlier side */
            for (int e = 0; e < 2 * d + s && first; e++)
                first = h->nbr[e / 2][e % 2] != h->nbr[d][s];
            shape->neighbours += first;
        }
    return rc;
}
