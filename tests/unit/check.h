/*
 * check.h - the unit tests' assertion: CHECK(cond) reports a failed condition with its file and
 * line and counts it in `failures`; the test's main() returns non-zero when failures > 0.
 */
#ifndef AUTOCOLL_TEST_CHECK_H
#define AUTOCOLL_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)

static inline int check(int ok, const char *what, const char *file, int line)
{
    if (!ok) {
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
        failures++;
    }
    return ok;
}

#endif
