/*
 * clock.c - the layer's clock (clock.h): the time-stamp counter where it can be trusted, else
 * MPI's clock.
 */
#include "core/clock.h"
#include "core/config.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

double ac_clock_tick;
uint64_t ac_clock_tsc0;

enum { CALIBRATION_NS = 2000000 }; /* the counter's rate measured over 2 ms at MPI_Init */

double ac_clock_mpi(void)
{
    return PMPI_Wtime();
}

const char *ac_clock_name(void)
{
    return ac_clock_tick > 0.0 ? "tsc" : "mpi";
}

#if defined(__x86_64__) && !AUTOCOLL_SIMULATED
/* Whether the kernel keeps time with the counter: it has then checked that the counter runs at
 * a constant rate, does not stop in idle states and agrees between CPUs. */
static int kernel_uses_tsc(void)
{
    char source[32] = "";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (!f) return 0;
    int ok = fgets(source, sizeof source, f) && strcmp(source, "tsc\n") == 0;
    fclose(f);
    return ok;
}

static long long monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* A reading of CLOCK_MONOTONIC and of the counter at the same instant: the counter's reading is
 * the mean of those just before and after, of the closest of 8 such triples. A process
 * preempted between two readings of one triple would pair the clock with a counter half a time
 * slice off: over the 2 ms of calibration, a rate wrong by a factor of about 2 (seen
 * 2026-11-27, tests/unit/test_clock.c on this loaded 2-core machine: 98.7 ms for 50 ms). */
static void paired_reading(long long *ns, uint64_t *tsc)
{
    uint64_t closest = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t before = __builtin_ia32_rdtsc();
        long long t = monotonic_ns();
        uint64_t after = __builtin_ia32_rdtsc();
        if (i == 0 || after - before < closest) {
            closest = after - before;
            *ns = t;
            *tsc = before + (after - before) / 2;
        }
    }
}

void ac_clock_init(void)
{
    long long ns0, ns1;
    uint64_t tsc0, tsc1;
    if (ac_clock_tick > 0.0 || ac_config_keyword("AUTOCOLL_CLOCK") == 1 /* mpi */ ||
        !kernel_uses_tsc())
        return;
    paired_reading(&ns0, &tsc0);
    do
        paired_reading(&ns1, &tsc1);
    while (ns1 - ns0 < CALIBRATION_NS);
    if (tsc1 <= tsc0) return;
    double tick = (double)(ns1 - ns0) * 1e-9 / (double)(tsc1 - tsc0);
    /* Readings count from here: the layer only subtracts two of them (a time taken before
     * this point, none is on the layer's paths, would not subtract sensibly). */
    ac_clock_tsc0 = __builtin_ia32_rdtsc();
    ac_clock_tick = tick;
}
#else
void ac_clock_init(void)
{
}
#endif
