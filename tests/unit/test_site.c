/*
 * test_site.c - the call-site tracker (src/select/site.c) without MPI, over simulated ranks.
 *
 * Each simulated rank has its own tracker and its own sequence of local site keys (what its
 * calls' return addresses would give). Every call: while the trackers learn, each rank's
 * contribution is combined with the maximum over the ranks (as MPI_MAX would) and handed to
 * every rank's ac_site_learn(); otherwise every rank predicts. Every `agree_every` calls a
 * tuning context's agreement is simulated: the ranks' flags are combined and verified. The
 * simulation checks at every call that all ranks are in the same mode and get the same site
 * (invariant 1: the site picks the tuning context); the tests check the rest.
 */
#include "select/site.h"

#include "check.h"

#include <stdio.h>
#include <string.h>

#define RANKS 5
#define CALLS 2000

typedef uint64_t (*local_site_fn)(int rank, long call);

typedef struct result {
    uint64_t site[CALLS];  /* the agreed site of every call (rank 0's; all ranks checked) */
    int mode_after[CALLS]; /* the mode after every call */
    ac_site_tracker t[RANKS];
    int diverged;    /* some call gave ranks different sites or modes */
    long agreements; /* collective steps: learn agreements + context agreements */
} result;

static result res;

static void simulate(local_site_fn local, long calls, int enabled, int agree_every)
{
    memset(&res, 0, sizeof res);
    for (int r = 0; r < RANKS; r++)
        ac_site_init(&res.t[r], enabled);
    for (long i = 0; i < calls; i++) {
        uint64_t got[RANKS];
        if (res.t[0].mode == AC_SITE_LEARN) {
            double all[AC_SITE_VALUES] = {-1e300, -1e300, -1e300, -1e300};
            for (int r = 0; r < RANKS; r++) {
                double v[AC_SITE_VALUES];
                ac_site_contribution(local(r, i), v);
                for (int k = 0; k < AC_SITE_VALUES; k++)
                    if (v[k] > all[k]) all[k] = v[k];
            }
            for (int r = 0; r < RANKS; r++)
                got[r] = ac_site_learn(&res.t[r], all);
            res.agreements++;
        } else {
            for (int r = 0; r < RANKS; r++)
                got[r] = ac_site_predict(&res.t[r], local(r, i));
        }
        if (agree_every > 0 && (i + 1) % agree_every == 0) {
            double flag = 0.0;
            for (int r = 0; r < RANKS; r++)
                if (ac_site_flag(&res.t[r]) > flag) flag = ac_site_flag(&res.t[r]);
            for (int r = 0; r < RANKS; r++)
                ac_site_verify(&res.t[r], flag);
            res.agreements++;
        }
        for (int r = 1; r < RANKS; r++)
            if (got[r] != got[0] || res.t[r].mode != res.t[0].mode) res.diverged = 1;
        res.site[i] = got[0];
        res.mode_after[i] = res.t[0].mode;
    }
}

enum { A = 0x1111, B = 0x2222, C = 0x3333 };

static uint64_t one_site(int rank, long call)
{
    (void)rank;
    (void)call;
    return A;
}

static uint64_t alternating(int rank, long call)
{
    (void)rank;
    return call % 2 ? B : A;
}

/* A loop body with three calls from two sites: A, A, C. */
static uint64_t period_three(int rank, long call)
{
    (void)rank;
    return call % 3 == 2 ? C : A;
}

static uint64_t by_parity(int rank, long call)
{
    (void)call;
    return rank % 2 ? B : A;
}

/* A setup phase of 40 calls from A, then the main loop from B. */
static uint64_t setup_then_loop(int rank, long call)
{
    (void)rank;
    return call < 40 ? A : B;
}

/* Rank 3 goes its own way now and then, after everyone called from A for a while. */
static uint64_t rank3_wanders(int rank, long call)
{
    if (rank == 3 && call > 100 && call % 37 == 0) return B;
    return A;
}

/* Equal on every rank, but no period: a pseudo-random choice among many sites. */
static uint64_t no_period(int rank, long call)
{
    (void)rank;
    uint64_t x = (uint64_t)call * 6364136223846793005ULL + 1442695040888963407ULL;
    return 0x100 + ((x >> 33) % 29);
}

static void test_single_site(void)
{
    simulate(one_site, 100, 1, 10);
    CHECK(!res.diverged);
    CHECK(res.t[0].mode == AC_SITE_PREDICT && res.t[0].period == 1);
    CHECK(res.t[0].learn_calls == AC_SITE_LEARN_MIN);
    for (long i = 0; i < 100; i++)
        CHECK(res.site[i] == A);
}

static void test_alternating_sites(void)
{
    simulate(alternating, 500, 1, 10);
    CHECK(!res.diverged);
    CHECK(res.t[0].mode == AC_SITE_PREDICT && res.t[0].period == 2);
    for (long i = 0; i < 500; i++)
        CHECK(res.site[i] == alternating(0, i));
    simulate(period_three, 500, 1, 7);
    CHECK(!res.diverged);
    CHECK(res.t[0].mode == AC_SITE_PREDICT && res.t[0].period == 3);
    CHECK(res.t[0].relearns == 0);
    for (long i = 0; i < 500; i++)
        CHECK(res.site[i] == period_three(0, i));
}

static void test_ranks_at_different_sites_fall_back(void)
{
    simulate(by_parity, 300, 1, 10);
    CHECK(!res.diverged);
    CHECK(res.t[0].mode == AC_SITE_SITELESS && res.t[0].why == AC_SITE_WHY_DISAGREED);
    CHECK(res.t[0].learn_calls == 1);
    for (long i = 0; i < 300; i++)
        CHECK(res.site[i] == 0);
}

static void test_setup_phase_then_relearn(void)
{
    simulate(setup_then_loop, 600, 1, 10);
    CHECK(!res.diverged);
    CHECK(res.t[0].relearns == 1);
    CHECK(res.t[0].mode == AC_SITE_PREDICT && res.t[0].period == 1);
    /* Until the agreement after call 40 the prediction is A (wrongly for calls 40..49, but
     * identically on every rank); from the relearning on, B. */
    CHECK(res.site[39] == A);
    CHECK(res.site[45] == A);
    CHECK(res.mode_after[49] == AC_SITE_LEARN);
    for (long i = 50; i < 600; i++)
        CHECK(res.site[i] == B);
}

static void test_wandering_rank_ends_siteless(void)
{
    simulate(rank3_wanders, CALLS, 1, 10);
    CHECK(!res.diverged);
    CHECK(res.t[0].mode == AC_SITE_SITELESS);
    CHECK(res.t[0].why == AC_SITE_WHY_DISAGREED || res.t[0].why == AC_SITE_WHY_MISPREDICTED);
    CHECK(res.site[CALLS - 1] == 0);
}

static void test_no_period_gives_up(void)
{
    simulate(no_period, 600, 1, 10);
    CHECK(!res.diverged);
    CHECK(res.t[0].mode == AC_SITE_SITELESS && res.t[0].why == AC_SITE_WHY_NO_PERIOD);
    CHECK(res.t[0].learn_calls == AC_SITE_LEARN_MAX);
    CHECK(res.site[AC_SITE_LEARN_MAX - 1] == no_period(0, AC_SITE_LEARN_MAX - 1));
    CHECK(res.site[AC_SITE_LEARN_MAX] == 0);
}

static void test_disabled(void)
{
    simulate(alternating, 100, 0, 10);
    CHECK(!res.diverged);
    CHECK(res.t[0].mode == AC_SITE_SITELESS && res.t[0].why == AC_SITE_WHY_DISABLED);
    CHECK(res.t[0].learn_calls == 0);
    for (long i = 0; i < 100; i++)
        CHECK(res.site[i] == 0);
}

/* Without context agreements (say, one candidate) a misprediction is never noticed, but it is
 * harmless: the sites stay equal on every rank. */
static void test_no_context_agreements(void)
{
    simulate(rank3_wanders, CALLS, 1, 0);
    CHECK(!res.diverged);
    CHECK(res.t[0].mode == AC_SITE_PREDICT);
    CHECK(res.t[3].mismatch == 1);
}

/* Keys: equal for one return address, different for two, readable as module+offset. */
__attribute__((noinline)) static uint64_t key_here(void)
{
    return ac_site_key(__builtin_return_address(0));
}

static void test_keys(void)
{
    uint64_t k1 = key_here(), k2 = key_here(), k3[3];
    volatile int n = 3; /* a real loop: one call instruction reached three times */
    for (int i = 0; i < n; i++)
        k3[i] = key_here();
    CHECK(k3[0] == k3[1] && k3[1] == k3[2]);
    CHECK(k1 != 0 && k2 != 0 && k1 != k2 && k1 != k3[0] && k2 != k3[0]);
    char text[128];
    ac_site_describe(k1, text, sizeof text);
    CHECK(strncmp(text, "test_site+0x", 12) == 0);
    ac_site_describe(0, text, sizeof text);
    CHECK(strcmp(text, "*") == 0);
}

/* Where a key was made: the return address itself, the module's path and basename, the offset
 * that the readable form shows; nothing for the site-less key or a key never made. */
__attribute__((noinline)) static uint64_t key_and_address(const void **address)
{
    *address = __builtin_return_address(0);
    return ac_site_key(*address);
}

static void test_origins(void)
{
    const void *address;
    uint64_t key = key_and_address(&address);
    ac_site_origin o;
    char text[128], expected[128];
    CHECK(ac_site_origin_of(key, &o) == 1);
    CHECK(o.address == address);
    CHECK(strcmp(o.module, "test_site") == 0);
    size_t n = strlen(o.path);
    CHECK(n >= 9 && strcmp(o.path + n - 9, "test_site") == 0);
    ac_site_describe(key, text, sizeof text);
    snprintf(expected, sizeof expected, "test_site+0x%lx", (unsigned long)o.offset);
    CHECK(strcmp(text, expected) == 0);
    CHECK(ac_site_origin_of(0, &o) == 0);
    CHECK(ac_site_origin_of(key ^ 1, &o) == 0);
}

int main(void)
{
    test_single_site();
    test_alternating_sites();
    test_ranks_at_different_sites_fall_back();
    test_setup_phase_then_relearn();
    test_wandering_rank_ends_siteless();
    test_no_period_gives_up();
    test_disabled();
    test_no_context_agreements();
    test_keys();
    test_origins();
    if (failures) {
        fprintf(stderr, "test_site: %d checks failed\n", failures);
        return 1;
    }
    printf("test_site: all checks passed\n");
    return 0;
}
