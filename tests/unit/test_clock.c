/*
 * test_clock.c - the layer's clock (core/clock.h): the time-stamp counter where the kernel
 * keeps time with it, else MPI_Wtime, and AUTOCOLL_CLOCK=mpi always MPI_Wtime. Whichever is
 * in use measures an interval as CLOCK_MONOTONIC does (a sleep of 50 ms, within 0.5 ms plus
 * 0.5 %; a try preempted between two paired readings is tried again, three times at most).
 *   test_clock tsc|mpi|auto   the clock expected ("auto": what the kernel's clocksource says)
 */
#include "check.h"
#include "core/clock.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *kernel_clocksource(void)
{
    static char source[32] = "";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (f) {
        if (!fgets(source, sizeof source, f)) source[0] = '\0';
        fclose(f);
    }
    source[strcspn(source, "\n")] = '\0';
    return source;
}

int main(int argc, char **argv)
{
    const char *expected = argc > 1 ? argv[1] : "auto";
    MPI_Init(&argc, &argv);
    ac_clock_init();
    if (strcmp(expected, "auto") == 0)
#if defined(__x86_64__)
        expected = strcmp(kernel_clocksource(), "tsc") == 0 ? "tsc" : "mpi";
#else
        expected = "mpi";
#endif
    if (!CHECK(strcmp(ac_clock_name(), expected) == 0))
        fprintf(stderr, "  clock %s, expected %s\n", ac_clock_name(), expected);
    int agreed = 0;
    for (int attempt = 0; attempt < 3 && !agreed; attempt++) {
        double m0 = monotonic(), c0 = ac_now();
        struct timespec sleep = {0, 50000000};
        nanosleep(&sleep, NULL);
        double m1 = monotonic(), c1 = ac_now();
        double dm = m1 - m0, dc = c1 - c0, bound = 0.5e-3 + 0.005 * dm;
        agreed = dc > 0.0 && (dc - dm < bound && dm - dc < bound);
        if (!agreed) fprintf(stderr, "  try %d: clock %.6f s, monotonic %.6f s\n", attempt, dc, dm);
    }
    CHECK(agreed);
    MPI_Finalize();
    printf("test_clock: %s, %s\n", ac_clock_name(), failures ? "WRONG" : "ok");
    return failures != 0;
}
