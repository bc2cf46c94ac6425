/*
 * slow_sends.c - test-only preload: an emulated network latency, and one rank whose sends turn
 * slow while a test says so (a node on a tree's path gets busy: the Berkeley report's section
 * 6.1.2 example). For the transient test of the run-time strategies (tests/mpi/slow_rank.c).
 *
 * It defines the point-to-point sends the layer's algorithms use (PMPI_Send, PMPI_Isend,
 * PMPI_Sendrecv; src/coll/ uses no other) and forwards each to the MPI library's own through
 * dlsym(RTLD_NEXT, ...), after waiting:
 *   - AUTOCOLL_TEST_LATENCY_SECONDS before every send of every rank (0 by default), so that the
 *     algorithms' costs follow their critical paths (a binomial tree over 4 ranks: 2 latencies;
 *     a flat tree: 3 at the root) instead of scheduling noise on an oversubscribed machine;
 *   - AUTOCOLL_TEST_SLOW_SECONDS more before every send of world rank AUTOCOLL_TEST_SLOW_RANK,
 *     only while enabled: the program calls autocoll_test_slow_sends(1) and (0), which it finds
 *     with dlsym(RTLD_DEFAULT, ...).
 * The library's own broadcast (the layer's `native`, PMPI_Bcast) sends inside the MPI library,
 * where a preload cannot see it. Both MPIs broadcast small messages over a binomial tree (Open
 * MPI's tuned component and MPICH below their thresholds), so PMPI_Bcast is charged as one:
 * each rank waits, before entering it, as many latencies as it has children in the binomial
 * tree of the call's root, plus the slow delay on the slow rank if it has any child. The
 * library's barrier (PMPI_Barrier: the layer's synchronisation, the shm algorithms' only
 * messages) is charged as a dissemination barrier: every rank sends in each of its
 * ceil(log2 p) rounds, so each waits that many latencies, and the slow rank its delay, which
 * the barrier passes on to every rank. Other collectives of the library pass through
 * untouched.
 *
 * Unset (no AUTOCOLL_TEST_SLOW_RANK and no latency), it only forwards. Never used for timings.
 */
#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int send_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm);
typedef int isend_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
typedef int sendrecv_fn(const void *, int, MPI_Datatype, int, int, void *, int, MPI_Datatype, int,
                        int, MPI_Comm, MPI_Status *);
typedef int bcast_fn(void *, int, MPI_Datatype, int, MPI_Comm);
typedef int barrier_fn(MPI_Comm);

static int configured;
static int slow_rank = -1; /* world rank */
static double slow_seconds, latency_seconds;
static int is_slow; /* this process is the slow rank */
static int enabled; /* the slow phase is on */

/* Called by the test program at the same iteration on every rank. */
void autocoll_test_slow_sends(int on)
{
    enabled = on != 0;
}

static double env_seconds(const char *name)
{
    const char *v = getenv(name);
    double x = v ? strtod(v, NULL) : 0.0;
    return x > 0.0 ? x : 0.0;
}

static void configure(void)
{
    if (configured) return;
    const char *r = getenv("AUTOCOLL_TEST_SLOW_RANK");
    slow_rank = r && *r ? atoi(r) : -1;
    slow_seconds = env_seconds("AUTOCOLL_TEST_SLOW_SECONDS");
    latency_seconds = env_seconds("AUTOCOLL_TEST_LATENCY_SECONDS");
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    is_slow = slow_rank >= 0 && rank == slow_rank;
    configured = 1;
}

static void wait_seconds(double s)
{
    if (s <= 0.0) return;
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    long long ns = (long long)(s * 1e9) + end.tv_nsec;
    end.tv_sec += (time_t)(ns / 1000000000);
    end.tv_nsec = (long)(ns % 1000000000);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
        ;
}

/* The wait before `sends` sends of this process. */
static void before_sends(int sends)
{
    configure();
    if (sends <= 0) return;
    wait_seconds(sends * latency_seconds + (is_slow && enabled ? slow_seconds : 0.0));
}

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "slow_sends: %s not found after this preload\n", name);
        abort();
    }
    return f;
}

int PMPI_Send(const void *buf, int count, MPI_Datatype dtype, int dest, int tag, MPI_Comm comm)
{
    static send_fn *f;
    if (!f) f = (send_fn *)real("PMPI_Send");
    before_sends(dest != MPI_PROC_NULL);
    return f(buf, count, dtype, dest, tag, comm);
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype dtype, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    static isend_fn *f;
    if (!f) f = (isend_fn *)real("PMPI_Isend");
    before_sends(dest != MPI_PROC_NULL);
    return f(buf, count, dtype, dest, tag, comm, req);
}

int PMPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                  int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                  MPI_Status *status)
{
    static sendrecv_fn *f;
    if (!f) f = (sendrecv_fn *)real("PMPI_Sendrecv");
    before_sends(dest != MPI_PROC_NULL);
    return f(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
}

int PMPI_Bcast(void *buf, int count, MPI_Datatype dtype, int root, MPI_Comm comm)
{
    static bcast_fn *f;
    if (!f) f = (bcast_fn *)real("PMPI_Bcast");
    int rank = 0, size = 1, children = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (root >= 0 && root < size) {
        /* Children in the binomial tree of `root`: v + 2^j for 2^j below v's lowest set bit. */
        int v = (rank - root + size) % size, mask = 1;
        while (mask < size && !(v & mask))
            mask <<= 1;
        for (mask >>= 1; mask > 0; mask >>= 1)
            children += v + mask < size;
    }
    before_sends(children);
    return f(buf, count, dtype, root, comm);
}

int PMPI_Barrier(MPI_Comm comm)
{
    static barrier_fn *f;
    if (!f) f = (barrier_fn *)real("PMPI_Barrier");
    int size = 1, rounds = 0;
    PMPI_Comm_size(comm, &size);
    while ((1 << rounds) < size)
        rounds++;
    before_sends(rounds);
    return f(comm);
}
