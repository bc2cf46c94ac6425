/*
 * test_same_messages.c - ac_same_messages() (src/coll/registry.c) over the whole registry,
 * without MPI: which instances selection treats as twins of an earlier candidate.
 *
 * A segmented tree instance is the twin of its unsegmented instance exactly when its segment
 * holds the longest byte stream of the call (the message for bcast and reduce, every rank's
 * block for scatter and gather), and of no instance otherwise; different shapes, radices and
 * engines are never twins; the relation is symmetric and every instance is its own twin.
 */
#include "check.h"
#include "coll/coll.h"

#include <stdio.h>
#include <string.h>

static ac_call call_of(ac_collective coll, int size, size_t bytes)
{
    ac_call c = {.collective = coll, .size = size, .count = (int)bytes, .op = MPI_OP_NULL,
                 .op_builtin = 1, .op_commutative = 1, .bytes = bytes};
    return c;
}

static const ac_algorithm *find(ac_collective coll, const char *name)
{
    const ac_algorithm *a = ac_registry_find(coll, name);
    if (!a) fprintf(stderr, "no %s %s in the registry\n", ac_collective_name(coll), name);
    CHECK(a != NULL);
    return a;
}

static int same(ac_collective coll, const char *a, const char *b, int size, size_t bytes)
{
    ac_call call = call_of(coll, size, bytes);
    const ac_algorithm *x = find(coll, a), *y = find(coll, b);
    return x && y && ac_same_messages(x, y, &call);
}

/* The unsegmented instance of a segmented tree name: "chain_tree_segment_8k" -> "chain_tree".
 * HAN's pipelined hierarchical instances (hier_segment_64k_<intra>_native) are none: another
 * engine than the unpipelined ones, so twins of nothing but themselves. */
static int unsegmented(const char *name, char *out, size_t len)
{
    if (strncmp(name, "hier_", 5) == 0) return 0;
    const char *s = strstr(name, "_segment_");
    if (!s || (size_t)(s - name) >= len) return 0;
    memcpy(out, name, (size_t)(s - name));
    out[s - name] = '\0';
    return 1;
}

/* Every pair of every registry for each size (mesh instances included), at sizes below, at
 * and above each segment. */
static void test_whole_registry(void)
{
    static const size_t bytes[] = {0, 1, 1000, 1024, 1025, 8192, 16384, 65536, 65537, 1 << 20};
    static const int sizes[] = {1, 2, 3, 5, 8, 16};
    long twins = 0;
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        for (size_t b = 0; b < sizeof bytes / sizeof bytes[0]; b++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                ac_algorithm_list r = ac_registry_for_size((ac_collective)c, sizes[z]);
                ac_call call = call_of((ac_collective)c, sizes[z], bytes[b]);
                size_t stream = c == AC_SCATTER || c == AC_GATHER
                                    ? bytes[b] * (size_t)sizes[z]
                                    : bytes[b];
                for (int i = 0; i < r.count; i++) {
                    const ac_algorithm *x = r.algorithms[i];
                    CHECK(ac_same_messages(x, x, &call));
                    for (int j = 0; j < r.count; j++) {
                        if (i == j) continue;
                        const ac_algorithm *y = r.algorithms[j];
                        int s = ac_same_messages(x, y, &call);
                        CHECK(s == ac_same_messages(y, x, &call));
                        /* expected: one is the other's unsegmented instance and the segment
                         * holds the stream, or both are segmented instances of one tree whose
                         * segments both hold it */
                        char ux[64] = "", uy[64] = "";
                        int sx = unsegmented(x->name, ux, sizeof ux);
                        int sy = unsegmented(y->name, uy, sizeof uy);
                        int hold_x = sx && (size_t)x->params->segment >= stream;
                        int hold_y = sy && (size_t)y->params->segment >= stream;
                        int expect = (sx && !sy && hold_x && !strcmp(ux, y->name)) ||
                                     (sy && !sx && hold_y && !strcmp(uy, x->name)) ||
                                     (sx && sy && hold_x && hold_y && !strcmp(ux, uy));
                        if (s != expect)
                            fprintf(stderr, "%s %s / %s at %zu B, %d ranks: %d, expected %d\n",
                                    ac_collective_name((ac_collective)c), x->name, y->name,
                                    bytes[b], sizes[z], s, expect);
                        CHECK(s == expect);
                        twins += s;
                    }
                }
            }
    }
    CHECK(twins > 0); /* the registry has segmented trees: the rule was exercised */
}

/* Named cases, as the emulated matrix met them. */
static void test_named(void)
{
    /* bcast 1 KiB: every segment holds the message */
    CHECK(same(AC_BCAST, "binomial_tree", "binomial_tree_segment_1k", 16, 1024));
    CHECK(same(AC_BCAST, "flat_tree", "flat_tree_segment_8k", 16, 1024));
    CHECK(same(AC_BCAST, "knomial_tree_k4_segment_8k", "knomial_tree_k4_segment_64k", 16, 1024));
    /* 16 KiB: 1k and 8k pipeline, 64k does not */
    CHECK(!same(AC_BCAST, "flat_tree", "flat_tree_segment_8k", 8, 16384));
    CHECK(same(AC_BCAST, "flat_tree", "flat_tree_segment_64k", 8, 16384));
    CHECK(!same(AC_BCAST, "flat_tree_segment_1k", "flat_tree_segment_8k", 8, 16384));
    /* different trees never */
    CHECK(!same(AC_BCAST, "binomial_tree", "binary_tree", 8, 1024));
    CHECK(!same(AC_BCAST, "native", "binomial_tree", 8, 1024));
    /* reduce: the vector */
    CHECK(same(AC_REDUCE, "chain_tree", "chain_tree_segment_8k", 8, 8192));
    CHECK(!same(AC_REDUCE, "chain_tree", "chain_tree_segment_8k", 8, 8200));
    /* gather and scatter: 1 KiB blocks on 8 ranks make 8 KiB at the root */
    CHECK(same(AC_GATHER, "binomial_tree", "binomial_tree_segment_8k", 8, 1024));
    CHECK(!same(AC_GATHER, "binomial_tree", "binomial_tree_segment_1k", 8, 1024));
    CHECK(!same(AC_SCATTER, "binomial_tree", "binomial_tree_segment_8k", 16, 1024));
    /* engines without segments: distinct parameters are distinct algorithms */
    CHECK(!same(AC_ALLREDUCE, "rabenseifner_recursive_doubling", "rabenseifner_ring", 8, 1024));
    CHECK(!same(AC_ALLTOALL, "ring", "ring_light_barrier", 8, 1024));
}

int main(void)
{
    test_whole_registry();
    test_named();
    if (failures) {
        fprintf(stderr, "test_same_messages: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_same_messages: ok\n");
    return 0;
}
