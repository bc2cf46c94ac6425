/*
 * fail_malloc.c - test-only preload: a local failure of a large malloc on one rank. On the rank
 * whose launcher-given world rank (OMPI_COMM_WORLD_RANK, or PMI_RANK under MPICH's Hydra) is
 * AUTOCOLL_TEST_FAIL_MALLOC_RANK, every malloc of AUTOCOLL_TEST_FAIL_MALLOC_FROM bytes or more
 * returns NULL; every other allocation goes to glibc's own (__libc_malloc: dlsym would itself
 * allocate). The variables are read once, at the first large request; nothing here calls MPI,
 * which may allocate (tests/tools/test_divergence.py).
 */
#include <stdlib.h>

extern void *__libc_malloc(size_t size);

static size_t threshold(void)
{
    static size_t from = (size_t)-1; /* (size_t)-1: not read yet; 0: off on this rank */
    if (from == (size_t)-1) {
        const char *at = getenv("AUTOCOLL_TEST_FAIL_MALLOC_FROM");
        const char *which = getenv("AUTOCOLL_TEST_FAIL_MALLOC_RANK");
        const char *rank = getenv("OMPI_COMM_WORLD_RANK");
        if (!rank) rank = getenv("PMI_RANK");
        from = at && which && rank && atoi(which) == atoi(rank) ? strtoull(at, NULL, 10) : 0;
    }
    return from;
}

void *malloc(size_t size)
{
    if (size >= 1 << 16) { /* small ones never fail: the variables are read at a large one */
        size_t from = threshold();
        if (from && size >= from) return NULL;
    }
    return __libc_malloc(size);
}
