/*
 * yield_progress.c - test-only preload for MPICH (ch4:ucx) when ranks outnumber cores.
 *
 * MPICH busy-polls UCX; with more ranks than cores a waiting rank burns the time slice the rank
 * it waits for needs (a 4-byte allreduce at 4 ranks on 2 cores took 5.7 ms). This wraps
 * ucp_worker_progress and, after a run of polls that made no progress, sleeps briefly so the
 * processor goes to a rank that has work (sched_yield is not enough under Linux's scheduler).
 * It changes nothing but scheduling. Never used for timings.
 */
#include <dlfcn.h>
#include <time.h>

typedef unsigned (*progress_fn)(void *worker);

unsigned ucp_worker_progress(void *worker)
{
    static progress_fn real;
    static unsigned idle;
    if (!real) {
        real = (progress_fn)dlsym(RTLD_NEXT, "ucp_worker_progress");
        if (!real) { /* MPI loaded with dlopen (mpi4py): find UCX among the loaded objects */
            void *ucp = dlopen("libucp.so.0", RTLD_NOW | RTLD_NOLOAD);
            if (ucp) real = (progress_fn)dlsym(ucp, "ucp_worker_progress");
        }
        if (!real) return 0;
    }
    unsigned n = real(worker);
    if (n != 0) {
        idle = 0;
    } else if (++idle >= 64) {
        struct timespec pause = {0, 20000}; /* 20 us */
        idle = 0;
        nanosleep(&pause, NULL);
    }
    return n;
}
