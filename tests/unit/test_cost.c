/*
 * test_cost.c - the cost models (the registry entries' .cost, evaluated by src/coll/cost.c)
 * without MPI: feature vectors of several algorithms against hand-computed values at p = 1, 2,
 * 3, 7, 16, 64 and on several nodes; every registry entry, static or family instance, at
 * several sizes and shapes has a finite, non-negative cost unless it runs the library's
 * collective (so an algorithm added without a cost fails here); the entries of one function
 * share one model; and the non-negative least squares fit recovers known parameters from
 * noise-free and noisy observations.
 */
#include "check.h"
#include "coll/cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { AI = AC_COST_ALPHA_INTRA, BI = AC_COST_BETA_INTRA, AE = AC_COST_ALPHA_INTER,
       BE = AC_COST_BETA_INTER };

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-12;
}

/* The features of `name` for p ranks on `nodes` nodes and `bytes`, compared with want[]. */
static void expect(ac_collective coll, const char *name, int p, int nodes, double bytes,
                   const double want[AC_COST_PARAMS])
{
    const ac_algorithm *a = ac_registry_find(coll, name);
    ac_cost_shape s = {.size = p, .nodes = nodes, .ppn = (p + nodes - 1) / nodes, .bytes = bytes};
    double f[AC_COST_PARAMS];
    if (!CHECK(a != NULL) || !CHECK(ac_cost_features(a, &s, f) == 0)) {
        fprintf(stderr, "  %s %s\n", ac_collective_name(coll), name);
        return;
    }
    int ok = 1;
    for (int j = 0; j < AC_COST_PARAMS; j++) ok &= near(f[j], want[j]);
    if (!CHECK(ok)) {
        fprintf(stderr, "  %s %s p=%d nodes=%d bytes=%g: got", ac_collective_name(coll), name, p,
                nodes, bytes);
        for (int j = 0; j < AC_COST_PARAMS; j++) fprintf(stderr, " %g (want %g)", f[j], want[j]);
        fprintf(stderr, "\n");
    }
}

static void test_formulas(void)
{
    static const int sizes[] = {1, 2, 3, 7, 16, 64};
    const double n = 4096.0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int p = sizes[i], lg = 0, p2 = 1;
        while ((1 << lg) < p) lg++;
        while (2 * p2 <= p) p2 *= 2;
        int flg = 0;
        while ((2 << flg) <= p) flg++;
        double extra = p == p2 ? 0.0 : 1.0;
        /* allreduce ring: 2(p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma (one node) */
        expect(AC_ALLREDUCE, "ring", p, 1, n,
               (double[]){2.0 * (p - 1), 2.0 * (p - 1) / p * n, 0, 0, (double)(p - 1) / p * n,
                          2.0 * (p - 1)});
        /* recursive doubling: lg p' (alpha + n beta + n gamma) + fold 2 alpha + 2 n beta +
         * n gamma */
        expect(AC_ALLREDUCE, "recursive_doubling", p, 1, n,
               (double[]){flg + 2 * extra, (flg + 2 * extra) * n, 0, 0, (flg + extra) * n,
                          flg + 2 * extra});
        /* Bruck all-gather of n-byte blocks: ceil(lg p) alpha + (p-1) n beta */
        expect(AC_ALLGATHER, "bruck", p, 1, n, (double[]){lg, (p - 1) * n, 0, 0, 0, lg});
        /* the same on one rank per node: every step between nodes */
        expect(AC_ALLGATHER, "bruck", p, p, n,
               (double[]){p > 1 ? 0 : lg, 0, p > 1 ? lg : 0, p > 1 ? (p - 1) * n : 0, 0, lg});
        /* allgatherv counts the total: blocks of n / p */
        expect(AC_ALLGATHERV, "ring", p, 1, n, (double[]){p - 1, (p - 1) * n / p, 0, 0, 0, p - 1});
        /* alltoall pair with light barriers (p - 2 token exchanges) */
        if (p == p2)
            expect(AC_ALLTOALL, "pair_light_barrier", p, 1, n,
                   (double[]){p - 1 + (p > 2 ? p - 2 : 0), (p - 1) * n, 0, 0, 0,
                              p - 1 + (p > 2 ? p - 2 : 0)});
        /* binomial broadcast, unsegmented: level l costs alpha + (lg p - l) n beta (the
         * node's sends posted at once) */
        expect(AC_BCAST, "binomial_tree", p, 1, n,
               (double[]){lg, lg * (lg + 1) / 2.0 * n, 0, 0, 0, lg * (lg + 1) / 2.0});
        /* chain broadcast in 1 KiB segments: m + p - 2 steps of one segment (m = 4) */
        double chain = p > 1 ? 4 + p - 2 : 0;
        expect(AC_BCAST, "chain_tree_segment_1k", p, 1, n,
               (double[]){chain, chain * 1024, 0, 0, 0, chain});
        /* binary tree, 1 KiB segments: floor(lg p) + m - 1 latencies, two segments per level
         * and per further segment at the root (one child on 2 ranks) */
        double children = p > 2 ? 2 : 1;
        expect(AC_BCAST, "binary_tree_segment_1k", p, 1, n,
               (double[]){p > 1 ? flg + 3 : 0, p > 1 ? children * (flg + 3) * 1024 : 0, 0, 0, 0,
                          p > 1 ? children * (flg + 3) : 0});
        /* reduce on the flat tree: 2 alpha + (p-1) n (beta + gamma), all at the root */
        expect(AC_REDUCE, "flat_tree", p, 1, n,
               (double[]){p > 1 ? 2 : 0, (p - 1) * n, 0, 0, (p - 1) * n, p - 1});
        /* simple all-to-all: every message at once, alpha + (p-1) (o + n beta) */
        expect(AC_ALLTOALL, "simple", p, 1, n,
               (double[]){p > 1, (p - 1) * n, 0, 0, 0, p - 1});
        /* van de Geijn broadcast: binomial scatter (level l waits for 2^l - 1 blocks), then
         * the ring all-gather of n / p blocks */
        double scatter = 0;
        for (int l = 1; l <= lg; l++) scatter += ((1 << l) - 1) * n / p;
        expect(AC_BCAST, "scatter_ring_allgather", p, 1, n,
               (double[]){lg + p - 1, scatter + (p - 1) * n / p, 0, 0, 0, lg + p - 1});
        /* through shared memory (one chunk of n): bcast copies n in and out, pipelined, plus
         * one chunk, one barrier; reduce and allreduce copy n in, read (p-1)/p n of the others'
         * and reduce it, copy n out, two barriers */
        if (p > 1) {
            expect(AC_BCAST, "shm", p, 1, n, (double[]){lg, 2 * n, 0, 0, 0, lg});
            for (int c = 0; c < 2; c++)
                expect(c ? AC_ALLREDUCE : AC_REDUCE, "shm", p, 1, n,
                       (double[]){2.0 * lg, 2 * n + (p - 1.0) / p * n, 0, 0,
                                  (p - 1.0) / p * n, 2.0 * lg});
            /* gather, scatter, allgather of n-byte blocks (one chunk): one rank copies the
             * p - 1 others' blocks, plus one chunk, one barrier */
            const ac_collective blocks[] = {AC_GATHER, AC_SCATTER, AC_ALLGATHER};
            for (int c = 0; c < 3; c++)
                expect(blocks[c], "shm", p, 1, n, (double[]){lg, (p - 1) * n + n, 0, 0, 0, lg});
            /* alltoall of n-byte blocks: every rank copies p - 1 blocks in and p - 1 out; a
             * chunk's part of a block is at most 64 KiB / p bytes, rounded up to 64 */
            double most = 65536 / p, part = n < most ? n : most;
            double chunks = ceil(n / (ceil(part / 64) * 64));
            expect(AC_ALLTOALL, "shm", p, 1, n,
                   (double[]){chunks * lg, 2.0 * (p - 1) * n, 0, 0, 0, chunks * lg});
            /* 1 MiB: 16 chunks of 64 KiB, a barrier each */
            expect(AC_BCAST, "shm", p, 1, 1 << 20,
                   (double[]){16.0 * lg, (1 << 20) + 65536.0, 0, 0, 0, 16.0 * lg});
        }
        /* barriers */
        expect(AC_BARRIER, "dissemination", p, 1, 0, (double[]){lg, 0, 0, 0, 0, lg});
        expect(AC_BARRIER, "linear", p, 1, 0, (double[]){2.0 * (p - 1), 0, 0, 0, 0, 2.0 * (p - 1)});
        /* Rabenseifner with the ring all-gather: halving on p' plus the fold, then the ring
         * all-gather of n / p blocks */
        expect(AC_ALLREDUCE, "rabenseifner_ring", p, 1, n,
               (double[]){flg + extra + (p - 1), (double)(p2 - 1) / p2 * n + extra * n +
                                                      (double)(p - 1) / p * n,
                          0, 0, (double)(p2 - 1) / p2 * n + extra * n, flg + extra + (p - 1)});
        /* gather on the binomial tree: ceil(lg p) alpha + (p-1) n beta at the root */
        expect(AC_GATHER, "binomial_tree", p, 1, n, (double[]){lg, (p - 1) * n, 0, 0, 0, lg});
    }
    /* 64 ranks on 4 nodes of 16: recursive doubling's first 4 of 6 steps inside a node; in the
     * last 2 all 16 ranks of a node send across at once: the node's link carries 16 x 2n */
    expect(AC_ALLREDUCE, "recursive_doubling", 64, 4, n,
           (double[]){4, 4 * n, 2, 16 * 2 * n, 6 * n, 6});
    /* pairwise all-to-all (L_ALL): 15 of a rank's 63 partners share its node; the 48 steps
     * to other nodes take the node's 16 ranks across at once */
    expect(AC_ALLTOALL, "pair", 64, 4, n, (double[]){15, 15 * n, 48, 16 * 48 * n, 0, 63});
    /* the 8 x 8 mesh all-to-all (L_MESH): dimension 0's lines (8 consecutive ranks) inside a
     * node, dimension 1's (8 apart) on 4 nodes, 2 of a line on each: 7 x 8 blocks a rank
     * inside a node in phase 0, 1 x 8 in phase 1, 6 x 8 across (16 ranks a node at once) */
    expect(AC_ALLTOALL, "mesh_2d", 64, 4, n, (double[]){1, 64 * n, 1, 16 * 48 * n, 0, 14});
    /* orthogonal 8 x n with recursive doubling phases: the lines of 8 consecutive ranks inside
     * a node (3 steps); the lines of 8 ranks 8 apart on 4 nodes of 2: 1 step inside, 2 across,
     * where the node's 8 lines (16 ranks) cross at once */
    expect(AC_ALLREDUCE, "orthogonal_8xn_recursive_doubling", 64, 4, n,
           (double[]){3 + 1, 3 * n + n, 2, 16 * 2 * n, 6 * n, 6});
    /* the ring's every step crosses nodes */
    expect(AC_ALLREDUCE, "ring", 64, 4, n,
           (double[]){0, 0, 126, 2 * 63.0 / 64 * n, 63.0 / 64 * n, 126});
    /* node-aware all-to-all: 2 (L-1) (alpha + p n beta) inside; the leaders' simple
     * exchange of L^2 n bytes per pair, alpha + (N-1) L^2 n beta, or the ring's
     * (N-1) (alpha + L^2 n beta) */
    expect(AC_ALLTOALL, "node_aware", 64, 4, n,
           (double[]){30, 30.0 * 64 * n, 1, 3.0 * 256 * n, 0, 33});
    expect(AC_ALLTOALL, "node_aware_ring", 64, 4, n,
           (double[]){30, 30.0 * 64 * n, 3, 3.0 * 256 * n, 0, 33});
    /* reductions receive their children one after the other: binomial lg p (alpha + n beta +
     * n gamma); the binary tree of 16 ranks 7 receives on its critical path */
    expect(AC_REDUCE, "binomial_tree", 16, 1, n, (double[]){4, 4 * n, 0, 0, 4 * n, 4});
    expect(AC_REDUCE, "binary_tree", 16, 1, n, (double[]){7, 7 * n, 0, 0, 7 * n, 7});
    /* a chain gather pipelines once its segment is shorter than the root's stream */
    expect(AC_GATHER, "chain_tree", 16, 1, n, (double[]){15, 120 * n, 0, 0, 0, 1});
    expect(AC_GATHER, "chain_tree_segment_64k", 16, 1, 65536,
           (double[]){15, 15 * 65536.0, 0, 0, 0, 1});
    /* orthogonal 2 x 8 allreduce by recursive doubling: the phases on 8 and on 2 ranks */
    expect(AC_ALLREDUCE, "orthogonal_2xn_recursive_doubling", 16, 1, n,
           (double[]){4, 4 * n, 0, 0, 4 * n, 4});
    /* orthogonal 4 x 4 all-gather by Bruck: 2 steps of n-byte blocks, then 2 of 4n */
    expect(AC_ALLGATHER, "orthogonal_4xn_bruck", 16, 1, n,
           (double[]){4, 3 * n + 3 * 4 * n, 0, 0, 0, 4});
    /* orthogonal 2 x 8 all-to-all by pairs: 7 steps of 2 blocks, then 1 step of 8 blocks */
    expect(AC_ALLTOALL, "orthogonal_2xn_pair", 16, 1, n,
           (double[]){8, 7 * 2 * n + 8 * n, 0, 0, 0, 8});
}

/* Every entry for the size: finite and non-negative, or no model exactly where it is the
 * library (native: a phase of the library's runs priced by its stand-in), for the neighbourhood
 * collectives (their cost depends on the topology's degrees, which a shape does not carry: the
 * model strategy measures them as it measures native), and for a hierarchical instance on a
 * shape where it cannot run (one node, or nodes smaller than its leaders). Returns the entries
 * priced. */
static int every_entry(int rules)
{
    static const int sizes[] = {1, 2, 3, 7, 12, 16, 64};
    static const double bytes[] = {0, 8, 1024, 65536, 1 << 22};
    int models = 0;
    ac_cost_set_stand_ins(rules);
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            int p = sizes[i];
            ac_algorithm_list list = ac_registry_for_size((ac_collective)c, p);
            for (int a = 0; a < list.count; a++) {
                const ac_algorithm *alg = list.algorithms[a];
                int library = strcmp(alg->name, "native") == 0 ||
                              ac_collective_neighborhood((ac_collective)c);
                int hier = strncmp(alg->name, "hier_", 5) == 0;
                int leaders = hier && alg->params->leaders > 1 ? alg->params->leaders : 2;
                for (int nodes = 1; nodes <= p; nodes *= 2)
                    for (size_t b = 0; b < sizeof bytes / sizeof bytes[0]; b++) {
                        if (p % nodes != 0) continue;
                        ac_cost_shape s = {p, nodes, p / nodes, bytes[b], 1};
                        double f[AC_COST_PARAMS];
                        int rc = ac_cost_features(alg, &s, f);
                        int none = library || (hier && (nodes < 2 || p / nodes < leaders));
                        if (!CHECK(rc == (none ? -1 : 0)))
                            fprintf(stderr, "  %s %s at %d (stand-ins %d): %s\n",
                                    ac_collective_name(c), alg->name, p, rules,
                                    rc ? "no cost" : "a cost for the library");
                        for (int j = 0; j < AC_COST_PARAMS; j++)
                            if (!CHECK(isfinite(f[j]) && f[j] >= 0.0))
                                fprintf(stderr, "  %s %s at %d: feature %d = %g\n",
                                        ac_collective_name(c), alg->name, p, j, f[j]);
                        models += rc == 0;
                    }
            }
        }
    ac_cost_set_stand_ins(AC_STAND_INS_MPICH);
    return models;
}

/* ... under each set of stand-in rules (stand_ins.c): every phase of the library's is priced */
static void test_every_entry(void)
{
    for (int rules = 0; rules < AC_STAND_INS_COUNT; rules++) CHECK(every_entry(rules) > 1000);
}

/* Every static entry of one function has one cost model: a composed algorithm's parameters
 * name its inner collective by function, and cost.c takes the model of the first entry that
 * runs it. */
static void test_one_model_per_function(void)
{
    for (int c = 0; c < AC_NUM_COLLECTIVES; c++) {
        ac_registry r = ac_registry_of((ac_collective)c);
        for (int i = 0; i < r.count; i++)
            for (int j = i + 1; j < r.count; j++) {
                const ac_algorithm *a = &r.algorithms[i], *b = &r.algorithms[j];
                /* the union's members are all function pointers: compare one as the others */
                if (a->fn.bcast == b->fn.bcast && !CHECK(a->cost == b->cost))
                    fprintf(stderr, "  %s %s and %s: one function, two models\n",
                            ac_collective_name((ac_collective)c), a->name, b->name);
            }
    }
}

/* Observations of several algorithms and shapes under known parameters. */
enum { OBS = 56 };
static int observations(const double *truth, double noise, double *rows, double *t)
{
    static const struct {
        ac_collective c;
        const char *name;
    } algs[] = {{AC_ALLREDUCE, "ring"},      {AC_ALLREDUCE, "recursive_doubling"},
                {AC_ALLTOALL, "node_aware"}, {AC_ALLGATHER, "bruck"},
                {AC_ALLREDUCE, "rabenseifner_ring"}, {AC_ALLTOALL, "simple"},
                {AC_BCAST, "binomial_tree"}};
    static const int sizes[] = {16, 64};
    static const double bytes[] = {8, 1024, 65536, 1 << 20};
    int k = 0;
    unsigned seed = 12345;
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
        for (size_t i = 0; i < 2; i++)
            for (size_t b = 0; b < 4; b++) {
                ac_cost_shape s = {sizes[i], 4, sizes[i] / 4, bytes[b], 1};
                const ac_algorithm *alg = ac_registry_find(algs[a].c, algs[a].name);
                ac_cost_features(alg, &s, rows + k * AC_COST_PARAMS);
                double v = 0.0;
                for (int j = 0; j < AC_COST_PARAMS; j++)
                    v += rows[k * AC_COST_PARAMS + j] * truth[j];
                seed = seed * 1103515245u + 12345u;
                double u = (double)((seed >> 8) % 10000) / 10000.0 * 2.0 - 1.0; /* [-1, 1) */
                t[k++] = v * (1.0 + noise * u);
            }
    return k;
}

static void test_fit(void)
{
    const double truth[AC_COST_PARAMS] = {1e-6, 2e-10, 8e-6, 1e-9, 5e-10, 3e-7};
    double rows[OBS * AC_COST_PARAMS], t[OBS], x[AC_COST_PARAMS];
    int k = observations(truth, 0.0, rows, t);
    CHECK(k == OBS);
    CHECK(ac_cost_fit(rows, t, k, NULL, 0.0, x) == 0);
    for (int j = 0; j < AC_COST_PARAMS; j++)
        if (!CHECK(fabs(x[j] - truth[j]) <= 1e-6 * truth[j]))
            fprintf(stderr, "  noise-free: parameter %d = %g, truth %g\n", j, x[j], truth[j]);

    k = observations(truth, 0.05, rows, t); /* +-5 % */
    CHECK(ac_cost_fit(rows, t, k, NULL, 0.0, x) == 0);
    for (int j = 0; j < AC_COST_PARAMS; j++)
        if (!CHECK(fabs(x[j] - truth[j]) <= 0.2 * truth[j]))
            fprintf(stderr, "  noisy: parameter %d = %g, truth %g\n", j, x[j], truth[j]);

    /* one node only: the inter-node parameters are not observed and stay at the prior; the
     * others follow the observations (of messages sent one after the other, which do not tell
     * latency and overhead apart: their sum) */
    const double prior[AC_COST_PARAMS] = {5e-6, 1e-9, 2e-5, 3e-9, 1e-9, 1e-6};
    const ac_algorithm *ring = ac_registry_find(AC_ALLREDUCE, "ring");
    const ac_algorithm *rd = ac_registry_find(AC_ALLREDUCE, "recursive_doubling");
    k = 0;
    for (int i = 0; i < 4; i++) {
        ac_cost_shape s = {16, 1, 16, i % 2 ? 1 << 20 : 64, 1};
        const ac_algorithm *a = i < 2 ? ring : rd;
        ac_cost_features(a, &s, rows + k * AC_COST_PARAMS);
        t[k++] = ac_cost_time(a, &s, truth);
    }
    CHECK(ac_cost_fit(rows, t, k, prior, 0.01, x) == 0);
    CHECK(fabs(x[AE] - prior[AE]) <= 1e-9 * prior[AE]);
    CHECK(fabs(x[BE] - prior[BE]) <= 1e-9 * prior[BE]);
    double message = truth[AI] + truth[AC_COST_OVERHEAD];
    CHECK(fabs(x[AI] + x[AC_COST_OVERHEAD] - message) <= 0.05 * message);
    CHECK(fabs(x[BI] - truth[BI]) <= 0.05 * truth[BI]);

    /* negative least squares solutions are clipped: times that a negative latency would fit
     * best */
    const ac_algorithm *bruck = ac_registry_find(AC_ALLGATHER, "bruck");
    k = 0;
    for (int i = 0; i < 3; i++) {
        ac_cost_shape s = {16, 1, 16, 1000.0 * (i + 1), 1};
        ac_cost_features(bruck, &s, rows + k * AC_COST_PARAMS);
        t[k++] = 15000.0 * (i + 1) * 1e-9 - (i == 0 ? 2e-6 : 0.0);
    }
    CHECK(ac_cost_fit(rows, t, k, NULL, 0.0, x) == 0);
    for (int j = 0; j < AC_COST_PARAMS; j++) CHECK(x[j] >= 0.0);
    CHECK(ac_cost_fit(rows, t, 0, NULL, 0.0, x) == -1);
}

/* Two entries with the same feature vector on one shape. */
static void expect_same(ac_collective coll, const char *a, const char *b, int p, int nodes,
                        double bytes)
{
    const ac_algorithm *x = ac_registry_find(coll, a), *y = ac_registry_find(coll, b);
    ac_cost_shape s = {.size = p, .nodes = nodes, .ppn = p / nodes, .bytes = bytes};
    double fx[AC_COST_PARAMS], fy[AC_COST_PARAMS];
    int ok = CHECK(x && y) && CHECK(ac_cost_features(x, &s, fx) == 0) &&
             CHECK(ac_cost_features(y, &s, fy) == 0);
    for (int j = 0; ok && j < AC_COST_PARAMS; j++) ok &= near(fx[j], fy[j]);
    if (!CHECK(ok))
        fprintf(stderr, "  %s %s and %s at p=%d nodes=%d bytes=%g differ\n",
                ac_collective_name(coll), a, b, p, nodes, bytes);
}

/* A phase of the library's collective is priced as MPICH 4's default for its call (cost.c,
 * stand_ins); a hierarchical instance by its phases on the node and among the leaders. */
static void test_stand_ins_and_hierarchy(void)
{
    /* allreduce on lines of 4: 8 B, count < pof2: recursive doubling; 1 MiB: Rabenseifner */
    expect_same(AC_ALLREDUCE, "orthogonal_4xn_native", "orthogonal_4xn_recursive_doubling", 16,
                1, 8);
    expect_same(AC_ALLREDUCE, "orthogonal_4xn_native",
                "orthogonal_4xn_rabenseifner_recursive_doubling", 16, 1, 1 << 20);
    /* bcast on fewer than 8 ranks: binomial, on both levels */
    expect_same(AC_BCAST, "hier_native_native", "hier_binomial_tree_binomial_tree", 16, 4, 1024);
    /* hier_native_native allreduce of 8 B, 4 nodes of 4: on the node a binomial reduce (2
     * levels, one child's 8 B combined a level: S = 2) and a binomial bcast (2 levels, the sends
     * along the critical path S = L (L + 1) / 2 = 3), intra-node; recursive doubling on the 4
     * leaders (2 steps of 8 B, each combined), inter-node. Overheads: 2 + 3 + 2 messages. */
    expect(AC_ALLREDUCE, "hier_native_native", 16, 4, 8,
           (double[]){2 + 2, 8 * 2 + 8 * 3, 2, 2 * 8, 2 * 8 + 2 * 8, 2 + 3 + 2});
    /* no cost where it cannot run: one node, or nodes smaller than its leaders */
    ac_cost_shape one = {16, 1, 16, 8, 1}, small = {16, 8, 2, 8, 1};
    double f[AC_COST_PARAMS];
    CHECK(ac_cost_features(ac_registry_find(AC_ALLREDUCE, "hier_native_native"), &one, f) == -1);
    CHECK(ac_cost_features(ac_registry_find(AC_ALLREDUCE, "hier_k4_native_native"), &small, f) ==
          -1);
}

/* The stand-ins' two sets of rules (stand_ins.c): MPICH 4's and Open MPI's coll/tuned (as
 * SimGrid's ompi selector copies them), at points read off their sources, and a hierarchical
 * reduce priced by each: a node's reduce of 64 KiB on 32 ranks is MPICH's Rabenseifner but
 * tuned's unsegmented binomial tree, which moves 5 x 64 KiB on its critical path instead of
 * 2 x 31/32 x 64 KiB. */
static void test_stand_in_rules(void)
{
    static const struct {
        int rules;
        ac_collective coll;
        int p;
        double bytes;
        const char *name;
    } cases[] = {
        {AC_STAND_INS_MPICH, AC_REDUCE, 32, 65536, "rabenseifner"},
        {AC_STAND_INS_MPICH, AC_REDUCE, 32, 1024, "binomial_tree"},
        {AC_STAND_INS_MPICH, AC_BCAST, 32, 65536, "scatter_recursive_doubling_allgather"},
        {AC_STAND_INS_TUNED, AC_REDUCE, 32, 65536, "binomial_tree"},   /* binomial, 0K segments */
        {AC_STAND_INS_TUNED, AC_REDUCE, 2, 65536, "flat_tree"},        /* linear */
        {AC_STAND_INS_TUNED, AC_ALLREDUCE, 8, 65536, "rabenseifner_recursive_doubling"},
        {AC_STAND_INS_TUNED, AC_ALLREDUCE, 64, 8, "recursive_doubling"},
        {AC_STAND_INS_TUNED, AC_REDUCE, 20, 8192, "binomial_tree_segment_1k"},
        {AC_STAND_INS_TUNED, AC_BCAST, 32, 65536, "knomial_tree_k4"},
        {AC_STAND_INS_TUNED, AC_BCAST, 5, 2 << 20, "chain_tree_segment_64k"}, /* pipeline */
        {AC_STAND_INS_TUNED, AC_ALLGATHER, 2, 8, "pair"},
        {AC_STAND_INS_TUNED, AC_ALLGATHER, 16, 1024, "recursive_doubling"},
        {AC_STAND_INS_TUNED, AC_ALLGATHER, 48, 4096, "ring"}, /* neighbour exchange */
        {AC_STAND_INS_TUNED, AC_ALLGATHERV, 16, 16 * 512, "bruck"},  /* 512 B a rank */
        {AC_STAND_INS_TUNED, AC_ALLGATHERV, 40, 40 * 16384, "ring"}, /* 16 KiB a rank */
        {AC_STAND_INS_TUNED, AC_ALLTOALL, 40, 256, "bruck"},
        {AC_STAND_INS_TUNED, AC_ALLTOALL, 40, 1024, "simple"},
        {AC_STAND_INS_TUNED, AC_BARRIER, 5, 0, "linear"},
        {AC_STAND_INS_TUNED, AC_BARRIER, 100, 0, "dissemination"},
        {AC_STAND_INS_TUNED, AC_GATHER, 5, 2048, "flat_tree"},
        {AC_STAND_INS_TUNED, AC_SCATTER, 20, 1024, "binomial_tree"},
        {AC_STAND_INS_TUNED, AC_REDUCE_SCATTER, 5, 4, "reduce_then_scatter"},
        {AC_STAND_INS_TUNED, AC_REDUCE_SCATTER_BLOCK, 5, 1, "reduce_then_scatter"}, /* 1 B */
        {AC_STAND_INS_TUNED, AC_REDUCE_SCATTER_BLOCK, 5, 1 << 20, "pairwise"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ac_cost_set_stand_ins(cases[i].rules);
        const char *got = ac_cost_stand_in(cases[i].coll, cases[i].p, cases[i].bytes);
        if (!CHECK(got && strcmp(got, cases[i].name) == 0))
            fprintf(stderr, "  stand-ins %d: %s on %d of %g B is %s, not %s\n", cases[i].rules,
                    ac_collective_name(cases[i].coll), cases[i].p, cases[i].bytes,
                    got ? got : "none", cases[i].name);
    }
    /* hier_native_native's node phase (64 ranks on 2 nodes, reduce of 64 KiB): under tuned the
     * binomial tree's, as hier_binomial_tree_native's; under MPICH's rules Rabenseifner's, 2 x
     * 31/32 x 64 KiB inside the node (the leaders' reduce, on 2 nodes, is inter-node) */
    ac_cost_set_stand_ins(AC_STAND_INS_TUNED);
    expect_same(AC_REDUCE, "hier_native_native", "hier_binomial_tree_native", 64, 2, 65536);
    ac_cost_set_stand_ins(AC_STAND_INS_MPICH);
    ac_cost_shape s = {64, 2, 32, 65536, 1};
    double f[AC_COST_PARAMS];
    if (CHECK(ac_cost_features(ac_registry_find(AC_REDUCE, "hier_native_native"), &s, f) == 0))
        CHECK(near(f[AC_COST_BETA_INTRA], 2.0 * 31 / 32 * 65536));
    ac_cost_set_stand_ins(AC_STAND_INS_MPICH);
}

/* Open MPI HAN's pipelined instances (hier_segment_64k_*): one segment is the unpipelined
 * instance's price; m segments add the leaders' phase of a segment m - 1 times more, the nodes'
 * phases overlapping it (cost.c, hier_features). 16 ranks on 4 nodes, 1 MiB: 16 segments; the
 * leaders' phase of 64 KiB on 4 leaders priced by its stand-in (bcast: binomial on fewer than 8
 * ranks; reduce: Rabenseifner above 2 KiB; allreduce: Rabenseifner at a count of at least
 * pof2). */
static void test_pipelined(void)
{
    static const struct {
        ac_collective coll;
        const char *leaders;
    } cases[] = {{AC_BCAST, "binomial_tree"},
                 {AC_REDUCE, "rabenseifner"},
                 {AC_ALLREDUCE, "rabenseifner_recursive_doubling"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ac_collective c = cases[i].coll;
        expect_same(c, "hier_segment_64k_native_native", "hier_native_native", 16, 4, 65536);
        ac_cost_shape seg = {16, 4, 4, 65536, 1}, whole = {16, 4, 4, 1 << 20, 1},
                      leaders = {4, 4, 1, 65536, 1};
        double f_seg[AC_COST_PARAMS], f_whole[AC_COST_PARAMS], f_leaders[AC_COST_PARAMS];
        int ok = CHECK(ac_cost_features(ac_registry_find(c, "hier_native_native"), &seg,
                                        f_seg) == 0) &&
                 CHECK(ac_cost_features(ac_registry_find(c, "hier_segment_64k_native_native"),
                                        &whole, f_whole) == 0) &&
                 CHECK(ac_cost_features(ac_registry_find(c, cases[i].leaders), &leaders,
                                        f_leaders) == 0);
        for (int j = 0; ok && j < AC_COST_PARAMS; j++)
            ok &= near(f_whole[j], f_seg[j] + 15 * f_leaders[j]);
        if (!CHECK(ok))
            fprintf(stderr, "  %s hier_segment_64k_native_native at 1 MiB is not 16 segments\n",
                    ac_collective_name(c));
    }
}

/* A multi-leader all-to-all (hier_k2_binomial_tree_pair, 16 ranks on 4 nodes of 4, blocks of
 * 1 KiB): each of its 2 leaders a node gathers and scatters p b / 2 bytes a rank on the node one
 * after the other, and the 2 lanes exchange ppn p b / 2 bytes a leader among the 4 nodes at once
 * (their bytes across a node's link counted twice), where the one-leader twin moves p b and
 * ppn p b once. */
static void test_multi_leader_alltoall(void)
{
    const ac_algorithm *k2 = ac_registry_find(AC_ALLTOALL, "hier_k2_binomial_tree_pair");
    const ac_algorithm *gather = ac_registry_find(AC_GATHER, "binomial_tree");
    const ac_algorithm *scatter = ac_registry_find(AC_SCATTER, "binomial_tree");
    const ac_algorithm *pair = ac_registry_find(AC_ALLTOALLV, "pair");
    if (!CHECK(k2 && gather && scatter && pair)) return;
    double b = 1024, whole[AC_COST_PARAMS], g[AC_COST_PARAMS], x[AC_COST_PARAMS],
           sc[AC_COST_PARAMS];
    ac_cost_shape s = {16, 4, 4, b, 1}, node = {4, 1, 4, 16 * b / 2, 1},
                  lanes = {4, 4, 1, 4 * 16 * b / 2, 2};
    CHECK(ac_cost_features(k2, &s, whole) == 0);
    CHECK(ac_cost_features(gather, &node, g) == 0);
    CHECK(ac_cost_features(scatter, &node, sc) == 0);
    CHECK(ac_cost_features(pair, &lanes, x) == 0);
    int ok = 1;
    for (int j = 0; j < AC_COST_PARAMS; j++)
        ok &= near(whole[j], 2 * g[j] + x[j] + 2 * sc[j]);
    CHECK(ok);
    /* the lanes' bytes: twice those of one lane alone */
    double one[AC_COST_PARAMS];
    ac_cost_shape alone = lanes;
    alone.lanes = 1;
    CHECK(ac_cost_features(pair, &alone, one) == 0);
    CHECK(near(x[AC_COST_BETA_INTER], 2 * one[AC_COST_BETA_INTER]) &&
          one[AC_COST_BETA_INTER] > 0);
    /* nodes of 4 take 4 leaders, not nodes of 2 */
    ac_cost_shape small = {16, 8, 2, b, 1};
    CHECK(ac_cost_features(ac_registry_find(AC_ALLTOALL, "hier_k4_binomial_tree_pair"), &small,
                           whole) == -1);
}

/* A multi-leader reduce_scatter_block (hier_k2_binomial_tree_pairwise, 16 ranks on 4 nodes of 4,
 * a vector of 64 KiB): 2 reduces of n / 2 on the node, the 2 lanes' reduce-scatters of n / 2
 * among the 4 nodes at once, 2 scatters of n / (2 p) a rank. */
static void test_multi_leader_reduce_scatter_block(void)
{
    const ac_algorithm *k2 =
        ac_registry_find(AC_REDUCE_SCATTER_BLOCK, "hier_k2_binomial_tree_pairwise");
    const ac_algorithm *reduce = ac_registry_find(AC_REDUCE, "binomial_tree");
    const ac_algorithm *scatter = ac_registry_find(AC_SCATTER, "binomial_tree");
    const ac_algorithm *rs = ac_registry_find(AC_REDUCE_SCATTER, "pairwise");
    if (!CHECK(k2 && reduce && scatter && rs)) return;
    double n = 65536, whole[AC_COST_PARAMS], r[AC_COST_PARAMS], x[AC_COST_PARAMS],
           sc[AC_COST_PARAMS];
    ac_cost_shape s = {16, 4, 4, n, 1}, node = {4, 1, 4, n / 2, 1},
                  lanes = {4, 4, 1, n / 2, 2}, piece = {4, 1, 4, n / 16 / 2, 1};
    CHECK(ac_cost_features(k2, &s, whole) == 0);
    CHECK(ac_cost_features(reduce, &node, r) == 0);
    CHECK(ac_cost_features(rs, &lanes, x) == 0);
    CHECK(ac_cost_features(scatter, &piece, sc) == 0);
    int ok = 1;
    for (int j = 0; j < AC_COST_PARAMS; j++)
        ok &= near(whole[j], 2 * r[j] + x[j] + 2 * sc[j]);
    CHECK(ok);
}

int main(void)
{
    test_formulas();
    test_every_entry();
    test_stand_ins_and_hierarchy();
    test_stand_in_rules();
    test_pipelined();
    test_multi_leader_alltoall();
    test_multi_leader_reduce_scatter_block();
    test_one_model_per_function();
    test_fit();
    if (failures) fprintf(stderr, "test_cost: %d failures\n", failures);
    return failures != 0;
}
