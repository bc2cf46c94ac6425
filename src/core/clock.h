/*
 * clock.h - the one clock of the layer: seconds since an arbitrary origin, read twice on every
 * call the layer runs (its time for the report and the strategies' measurements).
 *
 * Under SMPI it is MPI's clock (simulated time). Elsewhere, on x86-64 where the kernel itself
 * keeps time with the time-stamp counter (clocksource "tsc": invariant and synchronised across
 * CPUs), it is the counter scaled by its rate, measured at MPI_Init against CLOCK_MONOTONIC:
 * about 10 ns a read here against 30 for PMPI_Wtime; else, or with AUTOCOLL_CLOCK=mpi,
 * PMPI_Wtime. Only differences of two readings on one rank are used.
 */
#ifndef AUTOCOLL_CLOCK_H
#define AUTOCOLL_CLOCK_H

#include <stdint.h>

/* Chooses the clock (above): once, at MPI_Init, before the first call is timed. */
void ac_clock_init(void);

/* The name of the clock in use: "tsc" or "mpi" (autocoll-info, the report). */
const char *ac_clock_name(void);

/* PMPI_Wtime. */
double ac_clock_mpi(void);

/* The counter's state (clock.c): seconds per tick, 0 while the counter is not in use. */
extern double ac_clock_tick;
extern uint64_t ac_clock_tsc0;

/* Seconds since an arbitrary origin. */
static inline double ac_now(void)
{
#if defined(__x86_64__)
    if (ac_clock_tick > 0.0)
        /* from the counter's reading at MPI_Init (only differences are used); signed, as the
         * difference is far below 2^63: one conversion, no branch */
        return (double)(int64_t)(__builtin_ia32_rdtsc() - ac_clock_tsc0) * ac_clock_tick;
#endif
    return ac_clock_mpi();
}

#endif
