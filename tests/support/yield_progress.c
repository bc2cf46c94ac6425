/*
 * yield_progress.c - test-only preload for MPICH (ch4:ucx) when ranks outnumber cores.
 *
 * MPICH busy-polls UCX; with more ranks than cores a waiting rank burns the time slice the rank
 * it waits for needs (a 4-byte allreduce at 4 ranks on 2 cores took 5.7 ms). This wraps
 * ucp_worker_progress and yields the processor when a poll made no progress. It changes
 * nothing but scheduling. Never used for timings.
 */
#include <dlfcn.h>
#include <sched.h>

typedef unsigned (*progress_fn)(void *worker);

unsigned ucp_worker_progress(void *worker)
{
    static progress_fn real;
    static unsigned idle;
    if (!real) real = (progress_fn)dlsym(RTLD_NEXT, "ucp_worker_progress");
    unsigned n = real(worker);
    if (n == 0) {
        if (++idle >= 16) {
            idle = 0;
            sched_yield();
        }
    } else {
        idle = 0;
    }
    return n;
}
