/*
 * test_orthogonal.c - the orthogonal-decomposition family of the registry (orthogonal.c,
 * common/mesh.h), without MPI: which instances a communicator size has (every factorization,
 * none more) and in which order, that names find their one instance for any size, the mesh
 * sizes of a layout, and that different layouts or phases are never twins.
 */
#include "check.h"
#include "coll/coll.h"
#include "coll/common/mesh.h"

#include <stdio.h>
#include <string.h>

static const ac_collective decomposed[] = {AC_BCAST,      AC_GATHER, AC_SCATTER,   AC_ALLGATHER,
                                           AC_ALLGATHERV, AC_REDUCE, AC_ALLREDUCE, AC_ALLTOALL};

/* The phase algorithms of each collective (orthogonal.c's family table): the paper's virtual
 * topologies where the collective has them. */
enum { PHASES = 4 };
static const struct {
    ac_collective c;
    const char *phases[PHASES];
} phases_of[] = {
    {AC_BCAST, {"native", "flat_tree", "binomial_tree", "chain_tree"}},
    {AC_GATHER, {"native", "flat_tree", "binomial_tree", "chain_tree"}},
    {AC_SCATTER, {"native", "flat_tree", "binomial_tree", "chain_tree"}},
    {AC_ALLGATHER, {"native", "ring", "recursive_doubling", "bruck"}},
    {AC_ALLGATHERV, {"native", "ring", "recursive_doubling", "bruck"}},
    {AC_REDUCE, {"native", "flat_tree", "binomial_tree", "chain_tree"}},
    {AC_ALLREDUCE, {"native", "recursive_doubling", "ring", "rabenseifner_recursive_doubling"}},
    {AC_ALLTOALL, {"native", "pair", "ring", "bruck"}},
};

static const char *const *phases_for(ac_collective c)
{
    for (size_t i = 0; i < sizeof phases_of / sizeof phases_of[0]; i++)
        if (phases_of[i].c == c) return phases_of[i].phases;
    return NULL;
}

/* A call every phase algorithm accepts (a predefined commutative op, count >= any size). */
static ac_call call_of(ac_collective c, int size)
{
    return (ac_call){.collective = c,
                     .size = size,
                     .count = 1024,
                     .op = MPI_SUM,
                     .op_builtin = 1,
                     .op_commutative = 1,
                     .bytes = 4096};
}

/* The layout part of an orthogonal instance ("2x3xn" of "orthogonal_2x3xn_native") if its
 * phase algorithm is `phase` (and its name says so); NULL for other algorithms. */
static const char *layout_of(const ac_algorithm *a, const char *phase, char *out, size_t len)
{
    const ac_params *p = a->params;
    if (strncmp(a->name, "orthogonal_", 11) != 0 || !p || !p->phase ||
        strcmp(p->phase->name, phase) != 0)
        return NULL;
    if (p->dims == 2)
        snprintf(out, len, "%dxn", p->layout[0]);
    else
        snprintf(out, len, "%dx%dxn", p->layout[0], p->layout[1]);
    char name[96];
    snprintf(name, sizeof name, "orthogonal_%s_%s", out, phase);
    CHECK(strcmp(name, a->name) == 0);
    return out;
}

/* The applicable layouts of `phase` at `size`, as "2xn,3xn,..." in registry order. */
static void applicable_layouts(const ac_call *call, const char *phase, char *out, size_t len)
{
    ac_algorithm_list r = ac_registry_for_size(call->collective, call->size);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < r.count; i++) {
        char layout[32];
        if (!layout_of(r.algorithms[i], phase, layout, sizeof layout)) continue;
        if (ac_applicable(r.algorithms[i], call, NULL))
            used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s",
                                     used ? "," : "", layout);
    }
}

/* Every factorization applies, and nothing else: the 2D layouts p1 x n (n >= 2), then the 3D
 * ones p1 x p2 x n, for each collective and each of its phase algorithms. */
static void test_layouts_are_the_factorizations(void)
{
    static const struct {
        int size;
        const char *layouts;
    } cases[] = {
        {1, ""},
        {2, ""},
        {3, ""},
        {4, "2xn"},
        {6, "2xn,3xn"},
        {7, ""},
        {8, "2xn,4xn,2x2xn"},
        {12, "2xn,3xn,4xn,6xn,2x2xn,2x3xn,3x2xn"},
        {16, "2xn,4xn,8xn,2x2xn,2x4xn,4x2xn"},
        {96, "2xn,3xn,4xn,6xn,8xn,12xn,16xn,24xn,32xn,48xn,2x2xn,2x3xn,2x4xn,2x6xn,2x8xn,2x12xn,"
             "2x16xn,2x24xn,3x2xn,3x4xn,3x8xn,3x16xn,4x2xn,4x3xn,4x4xn,4x6xn,4x8xn,4x12xn,6x2xn,"
             "6x4xn,6x8xn,8x2xn,8x3xn,8x4xn,8x6xn,12x2xn,12x4xn,16x2xn,16x3xn,24x2xn"},
        {128, "2xn,4xn,8xn,16xn,32xn,64xn,2x2xn,2x4xn,2x8xn,2x16xn,2x32xn,4x2xn,4x4xn,4x8xn,"
              "4x16xn,8x2xn,8x4xn,8x8xn,16x2xn,16x4xn,32x2xn"},
        {1024 * 1024 - 3, ""}, /* a prime */
    };
    for (size_t k = 0; k < sizeof decomposed / sizeof decomposed[0]; k++) {
        const char *const *phases = phases_for(decomposed[k]);
        for (int ph = 0; ph < PHASES; ph++)
            for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
                char got[512];
                ac_call call = call_of(decomposed[k], cases[i].size);
                applicable_layouts(&call, phases[ph], got, sizeof got);
                if (!CHECK(strcmp(got, cases[i].layouts) == 0))
                    fprintf(stderr, "  %s phase %s, %d ranks: got \"%s\", expected \"%s\"\n",
                            ac_collective_name(decomposed[k]), phases[ph], cases[i].size, got,
                            cases[i].layouts);
            }
    }
}

/* The 10 2D layouts of p = 96 named in the paper, counted for one collective. */
static void test_ninety_six_has_ten_2d_layouts(void)
{
    ac_algorithm_list r = ac_registry_for_size(AC_GATHER, 96);
    ac_call call = call_of(AC_GATHER, 96);
    int n = 0;
    for (int i = 0; i < r.count; i++) {
        const ac_algorithm *a = r.algorithms[i];
        if (a->params && a->params->dims == 2 && a->params->phase &&
            strcmp(a->params->phase->name, "native") == 0 && ac_applicable(a, &call, NULL))
            n++;
    }
    CHECK(n == 10);
}

/* Instances exist for the eight decomposed collectives only, with the mesh requirement, after
 * the static table (which has none); each is the one its name finds. */
static void test_instances_and_requirement(void)
{
    static const int sizes[] = {1, 4, 8, 12, 64, 96, 360};
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        ac_registry base = ac_registry_of((ac_collective)c);
        int decomposes = 0;
        for (size_t k = 0; k < sizeof decomposed / sizeof decomposed[0]; k++)
            decomposes |= decomposed[k] == (ac_collective)c;
        for (int i = 0; i < base.count; i++)
            CHECK(strncmp(base.algorithms[i].name, "orthogonal_", 11) != 0);
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            ac_algorithm_list r = ac_registry_for_size((ac_collective)c, sizes[z]);
            int n = 0;
            CHECK(r.count >= base.count && r.count == ac_registry_for_size(c, sizes[z]).count &&
                  r.algorithms == ac_registry_for_size(c, sizes[z]).algorithms);
            for (int i = 0; i < r.count; i++) {
                const ac_algorithm *a = r.algorithms[i];
                CHECK(ac_algorithm_list_index(r, a) == i);
                if (i < base.count) {
                    CHECK(a == &base.algorithms[i]);
                    continue;
                }
                if (strncmp(a->name, "hier_", 5) == 0) { /* the hierarchical family's */
                    CHECK(a->requires & AC_REQ_NODES);
                    CHECK(ac_registry_find((ac_collective)c, a->name) == a);
                    continue;
                }
                n++;
                CHECK(strncmp(a->name, "orthogonal_", 11) == 0);
                CHECK(a->requires & AC_REQ_MESH_LAYOUT);
                CHECK(a->params && a->params->phase);
                CHECK(a->collective == (ac_collective)c);
                CHECK(ac_registry_find((ac_collective)c, a->name) == a);
            }
            if (!decomposes) CHECK(n == 0);
        }
        for (size_t k = 0; k < sizeof decomposed / sizeof decomposed[0]; k++) {
            if (decomposed[k] != (ac_collective)c) continue;
            for (int ph = 0; ph < PHASES; ph++) { /* every phase has its instances, any layout */
                char name[80];
                snprintf(name, sizeof name, "orthogonal_1000x7xn_%s",
                         phases_for(decomposed[k])[ph]);
                const ac_algorithm *a = ac_registry_find((ac_collective)c, name);
                if (!CHECK(a && strcmp(a->params->phase->name, phases_for(decomposed[k])[ph]) == 0))
                    fprintf(stderr, "  %s: no instance %s\n", ac_collective_name(decomposed[k]),
                            name);
                ac_call call = call_of((ac_collective)c, 14000);
                const char *why = "";
                if (!CHECK(a && (ph > 0 || ac_applicable(a, &call, &why))))
                    fprintf(stderr, "  %s: %s needs %s\n", ac_collective_name(decomposed[k]),
                            name, why);
            }
        }
    }
    const ac_algorithm *a = ac_registry_find(AC_BCAST, "orthogonal_3xn_native");
    ac_call call = call_of(AC_BCAST, 8);
    const char *why = NULL;
    CHECK(a && !ac_applicable(a, &call, &why) && why &&
          strcmp(why, "a communicator size the mesh layout factors") == 0);
    CHECK(ac_algorithm_list_index(ac_registry_for_size(AC_BCAST, 8), a) == -1);
    /* a highly composite size lists its first 1,024 layouts (of 6,811); the others are found */
    CHECK(ac_orthogonal_instances(AC_BCAST, 720720, NULL) == PHASES * 1024);
    CHECK(ac_orthogonal_instances(AC_BCAST, 5040, NULL) == PHASES * 691);
    a = ac_registry_find(AC_BCAST, "orthogonal_360x2xn_native");
    call = call_of(AC_BCAST, 720720);
    CHECK(a && ac_applicable(a, &call, NULL) &&
          ac_algorithm_list_index(ac_registry_for_size(AC_BCAST, 720720), a) == -1);
}

/* Only well-formed names of the collective's family find an instance. */
static void test_malformed_names(void)
{
    static const char *const bad[] = {
        "orthogonal_",          "orthogonal_2xn",          "orthogonal_2xn_",
        "orthogonal_1xn_native", "orthogonal_02xn_native", "orthogonal_2x1xn_native",
        "orthogonal_2x_native", "orthogonal_xn_native",    "orthogonal_2xn_ring",
        "orthogonal_2xnative",  "orthogonal_2x3x4xn_native", "orthogonal_1073741824xn_native",
        "orthogonal_65536x32768xn_native", "orthogonal_99999999999999999999xn_native",
        "orthogonal_2xn_native_"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (!CHECK(ac_registry_find(AC_BCAST, bad[i]) == NULL))
            fprintf(stderr, "  %s found\n", bad[i]);
    CHECK(ac_registry_find(AC_BCAST, "orthogonal_1073741823xn_native") != NULL);
    CHECK(ac_registry_find(AC_BCAST, "orthogonal_65536x16383xn_native") != NULL);
    CHECK(ac_registry_find(AC_BARRIER, "orthogonal_2xn_native") == NULL);
    CHECK(ac_registry_find(AC_ALLREDUCE, "orthogonal_2xn_ring") != NULL);
}

/* The old fixed list of layouts (2D p1 = 2 .. 64, then 3D p1, p2 = 2 .. 8, p1-major): up to 32
 * ranks the algorithms that apply are exactly those, in exactly that order (selection sees its
 * candidates in registry order: the benchmarks must not move); above, the list holds the old
 * one's applicable instances in the same relative order. And every size's instances are its
 * factorizations by brute force. */
static void old_layout(int i, int *dims, int lead[2])
{
    if (i < 63) {
        *dims = 2;
        lead[0] = 2 + i;
        lead[1] = 0;
        return;
    }
    i -= 63;
    *dims = 3;
    lead[0] = 2 + i / 7;
    lead[1] = 2 + i % 7;
}

static void layout_name(char *out, size_t len, int dims, const int lead[2], const char *phase)
{
    if (dims == 2)
        snprintf(out, len, "orthogonal_%dxn_%s", lead[0], phase);
    else
        snprintf(out, len, "orthogonal_%dx%dxn_%s", lead[0], lead[1], phase);
}

static void test_order_against_independent_enumeration(void)
{
    for (size_t k = 0; k < sizeof decomposed / sizeof decomposed[0]; k++) {
        ac_collective c = decomposed[k];
        const char *const *phases = phases_for(c);
        ac_registry base = ac_registry_of(c);
        for (int size = 1; size <= 200; size++) {
            ac_algorithm_list r = ac_registry_for_size(c, size);
            ac_call call = call_of(c, size);
            /* the applicable static entries, then the old list's applicable instances */
            const char *old[4 * (63 + 49) + 128];
            int nold = 0, at = 0, ok = 1;
            for (int i = 0; i < base.count; i++)
                if (ac_applicable(&base.algorithms[i], &call, NULL))
                    old[nold++] = base.algorithms[i].name;
            static char names[4 * (63 + 49)][96];
            int nnames = 0;
            for (int ph = 0; ph < PHASES; ph++)
                for (int i = 0; i < 63 + 49; i++) {
                    int dims, lead[2];
                    old_layout(i, &dims, lead);
                    ac_params p = {.dims = dims, .layout = {lead[0], lead[1]}};
                    int n[3];
                    if (!ac_mesh_layout(size, &p, n)) continue;
                    layout_name(names[nnames], sizeof names[0], dims, lead, phases[ph]);
                    old[nold++] = names[nnames++];
                }
            /* the new list's applicable entries: equal up to 32, a supersequence above */
            for (int i = 0; i < r.count; i++) {
                if (!ac_applicable(r.algorithms[i], &call, NULL)) continue;
                if (at < nold && strcmp(r.algorithms[i]->name, old[at]) == 0)
                    at++;
                else if (size <= 32)
                    ok = 0;
            }
            if (!CHECK(ok && at == nold))
                fprintf(stderr, "  %s at %d ranks: not the old order\n", ac_collective_name(c),
                        size);
            /* the instances are the brute-force factorizations, phase-major */
            int i = base.count;
            for (int ph = 0; ph < PHASES; ph++)
                for (int dims = 2; dims <= 3; dims++)
                    for (int p1 = 2; p1 <= size; p1++)
                        for (int p2 = dims == 2 ? 0 : 2; p2 <= (dims == 2 ? 0 : size / p1); p2++) {
                            int lead[2] = {p1, p2}, prod = dims == 2 ? p1 : p1 * p2;
                            if (size % prod != 0 || size / prod < 2) continue;
                            char name[96];
                            layout_name(name, sizeof name, dims, lead, phases[ph]);
                            if (!CHECK(i < r.count && strcmp(r.algorithms[i]->name, name) == 0))
                                fprintf(stderr, "  %s at %d ranks: expected %s at %d\n",
                                        ac_collective_name(c), size, name, i);
                            i++;
                        }
            /* then the hierarchical family's, whatever the size */
            CHECK(i + ac_hier_instances(c, size, NULL) == r.count);
        }
    }
}

static void test_mesh_layout(void)
{
    int n[3];
    ac_params two = {.dims = 2, .layout = {3, 0}}, three = {.dims = 3, .layout = {2, 3}};
    CHECK(ac_mesh_layout(12, &two, n) == 2 && n[0] == 3 && n[1] == 4);
    CHECK(ac_mesh_layout(3, &two, n) == 0); /* last size 1 */
    CHECK(ac_mesh_layout(10, &two, n) == 0);
    CHECK(ac_mesh_layout(12, &three, n) == 3 && n[0] == 2 && n[1] == 3 && n[2] == 2);
    CHECK(ac_mesh_layout(18, &three, n) == 3 && n[2] == 3);
    CHECK(ac_mesh_layout(6, &three, n) == 0);
    CHECK(ac_mesh_layout(12, NULL, n) == 0);
}

/* A phase algorithm's own requirements hold on every line or the instance does not apply:
 * allreduce's ring and Rabenseifner want a commutative op, recursive doubling does not. */
static void test_phase_requirements_on_lines(void)
{
    ac_call call = call_of(AC_ALLREDUCE, 12);
    call.op_commutative = 0;
    call.op_builtin = 0;
    char got[512];
    applicable_layouts(&call, "recursive_doubling", got, sizeof got);
    CHECK(strcmp(got, "2xn,3xn,4xn,6xn,2x2xn,2x3xn,3x2xn") == 0);
    applicable_layouts(&call, "ring", got, sizeof got);
    if (!CHECK(strcmp(got, "") == 0)) fprintf(stderr, "  ring, non-commutative: \"%s\"\n", got);
    applicable_layouts(&call, "rabenseifner_recursive_doubling", got, sizeof got);
    CHECK(strcmp(got, "") == 0);
    call.op_commutative = 1;
    call.op_builtin = 1;
    applicable_layouts(&call, "ring", got, sizeof got);
    CHECK(strcmp(got, "2xn,3xn,4xn,6xn,2x2xn,2x3xn,3x2xn") == 0);
}

/* Two instances are twins only when they are the same instance. */
static void test_no_twins_among_layouts(void)
{
    ac_call call = call_of(AC_ALLREDUCE, 16);
    const char *names[] = {"orthogonal_2xn_native",
                           "orthogonal_4xn_native",
                           "orthogonal_2xn_recursive_doubling",
                           "orthogonal_2x2xn_native",
                           "orthogonal_2x4xn_native",
                           "orthogonal_4x2xn_native",
                           "orthogonal_2xn_ring",
                           "orthogonal_2xn_rabenseifner_recursive_doubling"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        for (size_t j = 0; j < sizeof names / sizeof names[0]; j++) {
            const ac_algorithm *a = ac_registry_find(AC_ALLREDUCE, names[i]);
            const ac_algorithm *b = ac_registry_find(AC_ALLREDUCE, names[j]);
            CHECK(a && b && ac_same_messages(a, b, &call) == (i == j));
        }
}

int main(void)
{
    test_layouts_are_the_factorizations();
    test_ninety_six_has_ten_2d_layouts();
    test_instances_and_requirement();
    test_malformed_names();
    test_order_against_independent_enumeration();
    test_mesh_layout();
    test_phase_requirements_on_lines();
    test_no_twins_among_layouts();
    if (failures) fprintf(stderr, "test_orthogonal: %d failure(s)\n", failures);
    return failures != 0;
}
