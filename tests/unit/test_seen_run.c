/*
 * test_seen_run.c - the report's count of the calls the layer ran, by algorithm
 * (core/seen.c, ac_seen_run): every algorithm under its own name up to 16 of them (a race has at
 * most 16 candidates; allgather's 10 were once reported as 8, the ninth's and tenth's calls
 * under the eighth's name), the rest under "others", and the totals whole.
 */
#include "check.h"
#include "core/seen.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    static char names[20][16];
    for (int a = 0; a < 20; a++) {
        snprintf(names[a], sizeof names[a], "alg%d", a);
        for (int k = 0; k <= a; k++) /* algorithm a runs a + 1 calls */
            ac_seen_run(AC_SEEN_IALLGATHER, names[a], 4.0, 1e-6, 0.5e-6);
    }
    const char *got[AC_SEEN_RUN_ALGORITHMS];
    long calls[AC_SEEN_RUN_ALGORITHMS];
    int n = ac_seen_run_algorithms(AC_SEEN_IALLGATHER, got, calls);
    CHECK(n == 17);
    for (int a = 0; a < 16 && a < n; a++) {
        CHECK(strcmp(got[a], names[a]) == 0);
        CHECK(calls[a] == a + 1);
    }
    CHECK(n == 17 && strcmp(got[16], "others") == 0 && calls[16] == 17 + 18 + 19 + 20);
    CHECK(ac_seen_run_calls(AC_SEEN_IALLGATHER) == 20 * 21 / 2);
    CHECK(ac_seen_run_calls(AC_SEEN_IALLREDUCE) == 0);
    if (!failures) printf("test_seen_run: ok\n");
    return failures != 0;
}
