/*
 * test_requirements.c - registry requirements that turn on a call's size and message alone,
 * without MPI: the scratch bound (AC_REQ_TABLE_FITS, AUTOCOLL_MAX_SCRATCH_MIB) keeps alltoall's
 * recursive doubling, whose table of every block is size^2 x bytes on every rank, to the calls
 * where that table fits, says why elsewhere, and leaves the algorithms without it alone.
 */
#include "check.h"
#include "coll/coll.h"

#include <stdio.h>
#include <string.h>

static ac_call alltoall_call(int size, size_t bytes)
{
    return (ac_call){.collective = AC_ALLTOALL, .size = size, .bytes = bytes};
}

static int applies(const char *name, int size, size_t bytes, const char **why)
{
    const ac_algorithm *a = ac_registry_find(AC_ALLTOALL, name);
    ac_call call = alltoall_call(size, bytes);
    *why = NULL;
    return CHECK(a != NULL) && ac_applicable(a, &call, why);
}

static void test_table_bound(void)
{
    const char *why;
    const ac_algorithm *rd = ac_registry_find(AC_ALLTOALL, "recursive_doubling");
    CHECK(rd && (rd->requires & AC_REQ_TABLE_FITS));
    /* the default, 64 MiB: 64 ranks x 64 ranks x 16 KiB is 64 MiB exactly, one byte more is not */
    CHECK(applies("recursive_doubling", 64, 16384, &why));
    CHECK(!applies("recursive_doubling", 64, 16385, &why) && why &&
          strstr(why, "AUTOCOLL_MAX_SCRATCH_MIB"));
    /* the cells that filled this machine's memory (64 ranks, 64 KiB: 256 MiB a rank) */
    CHECK(!applies("recursive_doubling", 64, 65536, &why));
    CHECK(applies("recursive_doubling", 1024, 64, &why));
    CHECK(!applies("recursive_doubling", 1024, 65, &why));
    /* no overflow where size^2 x bytes passes 2^64 */
    CHECK(!applies("recursive_doubling", 1 << 30, (size_t)1 << 40, &why));
    /* its other requirement still comes first, the bound with a larger setting */
    CHECK(!applies("recursive_doubling", 48, 8, &why) && why && strstr(why, "power-of-two"));
    ac_coll_set_max_scratch((size_t)256 << 20);
    CHECK(applies("recursive_doubling", 64, 65536, &why));
    CHECK(!applies("recursive_doubling", 64, 65537, &why));
    ac_coll_set_max_scratch((size_t)64 << 20);
    /* the algorithms whose scratch is of the order of the call's buffers never meet it */
    CHECK(applies("pair", 64, (size_t)1 << 30, &why));
    CHECK(applies("bruck", 64, (size_t)1 << 30, &why));
    ac_algorithm_list all = ac_registry_for_size(AC_ALLTOALL, 64);
    int bounded = 0;
    for (int i = 0; i < all.count; i++)
        bounded += (all.algorithms[i]->requires & AC_REQ_TABLE_FITS) != 0;
    CHECK(bounded == 1);
}

int main(void)
{
    test_table_bound();
    if (failures) fprintf(stderr, "test_requirements: %d failure(s)\n", failures);
    return failures != 0;
}
