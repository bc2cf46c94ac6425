/*
 * test_table.c - configuration tables (src/select/table.c, docs/table.md) without MPI: rules and
 * their interval bounds, the measured cell covering a call, and every kind of bad table refused
 * with its reason.
 */
#include "check.h"
#include "coll/coll.h"
#include "core/state.h"
#include "select/table.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char fingerprint[17];

/* A table of this build and format `version` around `body` (rules and cells members). */
static ac_table *parse_version(int version, const char *body, char *why, size_t len)
{
    char text[4096];
    snprintf(text, sizeof text,
             "{\"schema\": \"autocoll-table\", \"version\": %d, \"registry_fingerprint\": "
             "\"%s\", \"platform\": {\"hostname\": \"h\"}, %s}",
             version, fingerprint, body);
    return ac_table_parse(text, ac_registry_fingerprint(), NULL, why, len);
}

/* A table of format version 1 (one algorithm a rule: the tables of docs/results still load). */
static ac_table *parse_table(const char *body, char *why, size_t len)
{
    return parse_version(1, body, why, len);
}

/* A table that must parse; its reason printed when it does not. */
static ac_table *parse_good(const char *body)
{
    char why[256] = "";
    ac_table *t = parse_table(body, why, sizeof why);
    if (!CHECK(t != NULL)) fprintf(stderr, "  %s\n", why);
    return t;
}

/* The first algorithm of the rule covering (coll, ranks, bytes): a version 1 rule has one. */
static const char *rule_name(const ac_table *t, ac_collective coll, int ranks,
                             unsigned long long bytes)
{
    int n = 0;
    const ac_algorithm *const *a = ac_table_rule(t, coll, ranks, bytes, NULL, &n);
    CHECK(a ? n == 1 : n == 0);
    return a ? a[0]->name : "(none)";
}

/* What the table runs for a call of `coll` on `ranks` ranks moving `bytes` (count bytes / 8
 * doubles, a built-in op, commutative or not): the first applicable algorithm of its rule. */
static const char *choice_name(const ac_table *t, ac_collective coll, int ranks,
                               unsigned long long bytes, int commutative)
{
    ac_call call = {.collective = coll, .size = ranks, .count = (int)(bytes / 8),
                    .op_builtin = 1, .op_commutative = commutative, .bytes = bytes};
    const ac_algorithm *a = ac_table_choice(t, &call, bytes);
    return a ? a->name : "(none)";
}

static void test_rules(void)
{
    ac_table *t = parse_good(
        "\"rules\": ["
        "{\"collective\": \"allreduce\", \"ranks\": [2, 3], \"bytes\": [0, 1023], "
        " \"algorithm\": \"ring\", \"seconds\": 1e-6},"
        "{\"collective\": \"allreduce\", \"ranks\": [2, 3], \"bytes\": [1024, null], "
        " \"algorithm\": \"recursive_doubling\"},"
        "{\"collective\": \"allreduce\", \"ranks\": [4, null], \"bytes\": [0, null], "
        " \"algorithm\": \"native\"},"
        "{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [8, 8], "
        " \"algorithm\": \"binomial_tree_segment_8k\"}]");
    if (!t) return;
    static const struct {
        ac_collective coll;
        int ranks;
        unsigned long long bytes;
        const char *expect;
    } cases[] = {
        {AC_ALLREDUCE, 2, 0, "ring"},
        {AC_ALLREDUCE, 3, 1023, "ring"},
        {AC_ALLREDUCE, 2, 1024, "recursive_doubling"},
        {AC_ALLREDUCE, 3, ULLONG_MAX, "recursive_doubling"},
        {AC_ALLREDUCE, 1, 8, "(none)"},
        {AC_ALLREDUCE, 4, 0, "native"},
        {AC_ALLREDUCE, INT_MAX, ULLONG_MAX, "native"},
        {AC_BCAST, 1, 8, "binomial_tree_segment_8k"},
        {AC_BCAST, 5, 7, "(none)"},
        {AC_BCAST, 5, 9, "(none)"},
        {AC_ALLTOALL, 4, 8, "(none)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = rule_name(t, cases[i].coll, cases[i].ranks, cases[i].bytes);
        if (!CHECK(strcmp(got, cases[i].expect) == 0))
            fprintf(stderr, "  case %zu: %s, expected %s\n", i, got, cases[i].expect);
    }
    ac_table_free(t);

    /* gaps between intervals, and rules given out of order: a banded table (bisection) */
    t = parse_good(
        "\"rules\": ["
        "{\"collective\": \"allreduce\", \"ranks\": [8, 15], \"bytes\": [20, 30], "
        " \"algorithm\": \"ring\"},"
        "{\"collective\": \"allreduce\", \"ranks\": [8, 15], \"bytes\": [0, 10], "
        " \"algorithm\": \"native\"},"
        "{\"collective\": \"allreduce\", \"ranks\": [2, 3], \"bytes\": [0, 10], "
        " \"algorithm\": \"recursive_doubling\"}]");
    static const struct {
        int ranks;
        unsigned long long bytes;
        const char *expect;
    } gaps[] = {{8, 15, "(none)"},  {15, 10, "native"}, {9, 20, "ring"},
                {8, 31, "(none)"},  {4, 5, "(none)"},   {16, 5, "(none)"},
                {1, 5, "(none)"},   {3, 10, "recursive_doubling"}};
    for (size_t i = 0; t && i < sizeof gaps / sizeof gaps[0]; i++) {
        const char *got = rule_name(t, AC_ALLREDUCE, gaps[i].ranks, gaps[i].bytes);
        if (!CHECK(strcmp(got, gaps[i].expect) == 0))
            fprintf(stderr, "  gap case %zu: %s, expected %s\n", i, got, gaps[i].expect);
    }
    ac_table_free(t);

    /* size intervals that overlap without being equal (rules still disjoint): the linear scan */
    t = parse_good(
        "\"rules\": ["
        "{\"collective\": \"allreduce\", \"ranks\": [1, 4], \"bytes\": [0, 99], "
        " \"algorithm\": \"ring\"},"
        "{\"collective\": \"allreduce\", \"ranks\": [3, 8], \"bytes\": [100, null], "
        " \"algorithm\": \"recursive_doubling\"}]");
    if (t) {
        CHECK(strcmp(rule_name(t, AC_ALLREDUCE, 4, 99), "ring") == 0);
        CHECK(strcmp(rule_name(t, AC_ALLREDUCE, 3, 100), "recursive_doubling") == 0);
        CHECK(strcmp(rule_name(t, AC_ALLREDUCE, 2, 100), "(none)") == 0);
        CHECK(strcmp(rule_name(t, AC_ALLREDUCE, 8, 1), "(none)") == 0);
    }
    ac_table_free(t);

    t = parse_good("\"rules\": []"); /* valid: everything native */
    int n = -1;
    CHECK(t && ac_table_rule(t, AC_ALLREDUCE, 4, 8, NULL, &n) == NULL && n == 0);
    ac_table_free(t);
}

static void test_cells(void)
{
    ac_table *t = parse_good(
        "\"rules\": [], \"cells\": ["
        "{\"collective\": \"allreduce\", \"ranks\": 2, \"bytes\": 8, "
        " \"times\": {\"native\": 3e-6, \"ring\": 2e-6}},"
        "{\"collective\": \"allreduce\", \"ranks\": 2, \"bytes\": 1024, "
        " \"times\": {\"native\": 5e-6, \"recursive_doubling\": 4e-6}},"
        "{\"collective\": \"allreduce\", \"ranks\": 4, \"bytes\": 8, "
        " \"times\": {\"native\": 7e-6, \"ring\": 9e-6, \"recursive_doubling\": 6e-6}}]");
    if (!t) return;
    const ac_algorithm *cands[3] = {ac_registry_native(AC_ALLREDUCE),
                                    ac_registry_find(AC_ALLREDUCE, "ring"),
                                    ac_registry_find(AC_ALLREDUCE, "recursive_doubling")};
    ac_knowledge know[3];
    /* 3 ranks, 100 bytes: the cell of 2 ranks and 8 bytes */
    CHECK(ac_table_cell_knowledge(t, AC_ALLREDUCE, 3, 100, cands, 3, know) == 2);
    CHECK(know[0].seconds == 3e-6 && know[1].seconds == 2e-6 && know[2].samples == 0);
    CHECK(know[0].samples == 1 && know[1].samples == 1);
    /* 3 ranks, 5000 bytes: 2 ranks, 1024 bytes */
    CHECK(ac_table_cell_knowledge(t, AC_ALLREDUCE, 3, 5000, cands, 3, know) == 2);
    CHECK(know[0].seconds == 5e-6 && know[1].samples == 0 && know[2].seconds == 4e-6);
    /* below the smallest size: the smallest */
    CHECK(ac_table_cell_knowledge(t, AC_ALLREDUCE, 2, 1, cands, 3, know) == 2);
    CHECK(know[1].seconds == 2e-6);
    /* many ranks: the 4-rank cell */
    CHECK(ac_table_cell_knowledge(t, AC_ALLREDUCE, 100, 1 << 20, cands, 3, know) == 3);
    CHECK(know[2].seconds == 6e-6);
    /* below the smallest process count, or another collective: nothing */
    CHECK(ac_table_cell_knowledge(t, AC_ALLREDUCE, 1, 8, cands, 3, know) == 0);
    CHECK(know[0].samples == 0 && know[1].samples == 0);
    CHECK(ac_table_cell_knowledge(t, AC_REDUCE, 4, 8, cands, 3, know) == 0);
    /* the covering cells' process count (model takes a cell only where it is the size) */
    CHECK(ac_table_cell_ranks(t, AC_ALLREDUCE, 2) == 2);
    CHECK(ac_table_cell_ranks(t, AC_ALLREDUCE, 3) == 2);
    CHECK(ac_table_cell_ranks(t, AC_ALLREDUCE, 100) == 4);
    CHECK(ac_table_cell_ranks(t, AC_ALLREDUCE, 1) == -1);
    CHECK(ac_table_cell_ranks(t, AC_REDUCE, 4) == -1);
    ac_table_free(t);
}

/* Each refused, with a reason that names the problem. */
static void test_bad_tables(void)
{
    static const struct {
        const char *body, *reason;
    } bad[] = {
        {"\"cells\": []", "no \"rules\""},
        {"\"rules\": {}", "no \"rules\""},
        {"\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [2, 3], \"bytes\": [0, 1], "
         "\"algorithm\": \"no_such\"}]",
         "no algorithm \"no_such\""},
        {"\"rules\": [{\"collective\": \"allsum\", \"ranks\": [2, 3], \"bytes\": [0, 1], "
         "\"algorithm\": \"ring\"}]",
         "rule 0: no known \"collective\""},
        {"\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [3, 2], \"bytes\": [0, 1], "
         "\"algorithm\": \"ring\"}]",
         "rule 0: \"ranks\""},
        {"\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [0, 2], \"bytes\": [0, 1], "
         "\"algorithm\": \"ring\"}]",
         "rule 0: \"ranks\""},
        {"\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [-1, 1], "
         "\"algorithm\": \"ring\"}]",
         "rule 0: \"bytes\""},
        {"\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [0.5, 1], "
         "\"algorithm\": \"ring\"}]",
         "rule 0: \"bytes\""},
        {"\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [0], "
         "\"algorithm\": \"ring\"}]",
         "rule 0: \"bytes\""},
        {"\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [0, 1]}]",
         "rule 0: no \"algorithm\""},
        {"\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [2, 4], \"bytes\": [0, 100], "
         "\"algorithm\": \"ring\"}, {\"collective\": \"allreduce\", \"ranks\": [4, null], "
         "\"bytes\": [100, null], \"algorithm\": \"native\"}]",
         "rule 1 overlaps"},
        {"\"rules\": [], \"cells\": {}", "\"cells\" is not an array"},
        {"\"rules\": [], \"cells\": [{\"collective\": \"allreduce\", \"ranks\": 2, "
         "\"bytes\": 8, \"times\": {\"no_such\": 1e-6}}]",
         "cell 0: allreduce has no algorithm \"no_such\""},
        {"\"rules\": [], \"cells\": [{\"collective\": \"allreduce\", \"ranks\": 2, "
         "\"bytes\": 8, \"times\": {\"ring\": -1e-6}}]",
         "must be a number >= 0"},
        {"\"rules\": [], \"cells\": [{\"collective\": \"allreduce\", \"ranks\": 0, "
         "\"bytes\": 8, \"times\": {}}]",
         "cell 0: it needs"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char why[256] = "";
        ac_table *t = parse_table(bad[i].body, why, sizeof why);
        if (!CHECK(t == NULL && strstr(why, bad[i].reason)))
            fprintf(stderr, "  case %zu: \"%s\"\n", i, why);
        ac_table_free(t);
    }
    /* the header: schema, version, fingerprint, JSON itself */
    static const struct {
        const char *text, *reason;
    } header[] = {
        {"{\"schema\": \"autocoll-bench\", \"version\": 1, \"rules\": []}", "not a configuration"},
        {"{\"schema\": \"autocoll-table\", \"version\": 3, \"rules\": []}", "version other"},
        {"{\"schema\": \"autocoll-table\", \"version\": 0, \"rules\": []}", "version other"},
        {"{\"schema\": \"autocoll-table\", \"version\": 1, \"registry_fingerprint\": "
         "\"0000000000000000\", \"rules\": []}",
         "registry fingerprint 0000000000000000"},
        {"{\"schema\": \"autocoll-table\", \"version\": 1, \"rules\": []}",
         "registry fingerprint (none)"},
        {"{\"schema\": \"autocoll-table\", ", "line 1, column 30: a member name"},
        {"[]", "not a configuration"},
    };
    for (size_t i = 0; i < sizeof header / sizeof header[0]; i++) {
        char why[256] = "";
        ac_table *t = ac_table_parse(header[i].text, ac_registry_fingerprint(), NULL, why, sizeof why);
        if (!CHECK(t == NULL && strstr(why, header[i].reason)))
            fprintf(stderr, "  header case %zu: \"%s\"\n", i, why);
        ac_table_free(t);
    }
}

/* Format version 2: a rule lists algorithms in order of preference and the first applicable
 * to the call runs, at any communicator size, swept or not: a mesh layout where the size
 * factors, the next candidate where it does not (nor where the op rules it out). */
static void test_version2(void)
{
    char why[256] = "";
    ac_table *t = parse_version(
        2,
        "\"rules\": ["
        "{\"collective\": \"alltoall\", \"ranks\": [1, null], \"bytes\": [0, null], "
        " \"algorithms\": [\"orthogonal_2x2xn_ring\", \"recursive_doubling\", \"bruck\"]},"
        "{\"collective\": \"allreduce\", \"ranks\": [2, 63], \"bytes\": [0, 1023], "
        " \"algorithms\": [\"orthogonal_4xn_recursive_doubling\", \"ring\", \"native\"]},"
        "{\"collective\": \"allreduce\", \"ranks\": [64, null], \"bytes\": [0, null], "
        " \"algorithms\": [\"ring\"]}]",
        why, sizeof why);
    if (!CHECK(t != NULL)) {
        fprintf(stderr, "  %s\n", why);
        return;
    }
    int n = 0;
    const ac_algorithm *const *list = ac_table_rule(t, AC_ALLREDUCE, 12, 8, NULL, &n);
    CHECK(list && n == 3 && strcmp(list[0]->name, "orthogonal_4xn_recursive_doubling") == 0 &&
          strcmp(list[1]->name, "ring") == 0 && strcmp(list[2]->name, "native") == 0);
    static const struct {
        ac_collective coll;
        int ranks;
        unsigned long long bytes;
        int commutative;
        const char *expect;
    } cases[] = {
        {AC_ALLTOALL, 8, 64, 1, "orthogonal_2x2xn_ring"},  /* 2 x 2 x 2 */
        {AC_ALLTOALL, 12, 64, 1, "orthogonal_2x2xn_ring"}, /* 2 x 2 x 3: never swept */
        {AC_ALLTOALL, 48, 1, 1, "orthogonal_2x2xn_ring"},
        {AC_ALLTOALL, 6, 64, 1, "bruck"}, /* 4 does not divide 6; not a power of two */
        {AC_ALLTOALL, 7, 64, 1, "bruck"},
        {AC_ALLTOALL, 4, 64, 1, "recursive_doubling"},  /* 2 x 2 x 1: a line of 1 is no mesh */
        {AC_ALLTOALL, 256, 64, 1, "orthogonal_2x2xn_ring"},
        {AC_ALLTOALL, 2, 64, 1, "recursive_doubling"},
        {AC_ALLREDUCE, 12, 8, 1, "orthogonal_4xn_recursive_doubling"},
        {AC_ALLREDUCE, 48, 1023, 1, "orthogonal_4xn_recursive_doubling"},
        {AC_ALLREDUCE, 7, 8, 1, "ring"},      /* 4 does not divide 7 */
        {AC_ALLREDUCE, 7, 8, 0, "native"},    /* nor does ring take a non-commutative op */
        {AC_ALLREDUCE, 12, 1024, 1, "(none)"}, /* no rule */
        {AC_ALLREDUCE, 1, 8, 1, "(none)"},
        {AC_ALLREDUCE, 100, 8, 1, "ring"},
        {AC_ALLREDUCE, 100, 8, 0, "(none)"},   /* its one algorithm does not apply */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = choice_name(t, cases[i].coll, cases[i].ranks, cases[i].bytes,
                                      cases[i].commutative);
        if (!CHECK(strcmp(got, cases[i].expect) == 0))
            fprintf(stderr, "  version 2 case %zu: %s, expected %s\n", i, got, cases[i].expect);
    }
    ac_table_free(t);

    /* a version 1 rule is looked up the same way: its one algorithm, where applicable */
    t = parse_good("\"rules\": [{\"collective\": \"alltoall\", \"ranks\": [1, null], "
                   "\"bytes\": [0, null], \"algorithm\": \"orthogonal_4xn_ring\"}]");
    if (t) {
        CHECK(strcmp(choice_name(t, AC_ALLTOALL, 8, 8, 1), "orthogonal_4xn_ring") == 0);
        CHECK(strcmp(choice_name(t, AC_ALLTOALL, 6, 8, 1), "(none)") == 0);
    }
    ac_table_free(t);

    static const struct {
        int version;
        const char *body, *reason;
    } bad[] = {
        {2, "\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [0, 1], "
            "\"algorithm\": \"ring\"}]",
         "rule 0: \"algorithms\" must be an array of 1 to 8 names"},
        {2, "\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [0, 1], "
            "\"algorithms\": []}]",
         "rule 0: \"algorithms\" must be an array of 1 to 8 names"},
        {2, "\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [0, 1], "
            "\"algorithms\": [\"ring\", \"ring\", \"ring\", \"ring\", \"ring\", \"ring\", "
            "\"ring\", \"ring\", \"native\"]}]",
         "rule 0: \"algorithms\" must be an array of 1 to 8 names"},
        {2, "\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [0, 1], "
            "\"algorithms\": [\"ring\", \"no_such\"]}]",
         "rule 0: allreduce has no algorithm \"no_such\""},
        {2, "\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [0, 1], "
            "\"algorithms\": [\"ring\", 4]}]",
         "rule 0: no \"algorithms\" name"},
        {2, "\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [0, 1], "
            "\"algorithms\": [\"orthogonal_0xn_ring\"]}]",
         "has no algorithm \"orthogonal_0xn_ring\""},
        {1, "\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [1, 2], \"bytes\": [0, 1], "
            "\"algorithms\": [\"ring\"]}]",
         "rule 0: no \"algorithm\" name"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        t = parse_version(bad[i].version, bad[i].body, why, sizeof why);
        if (!CHECK(t == NULL && strstr(why, bad[i].reason)))
            fprintf(stderr, "  version 2 bad case %zu: \"%s\"\n", i, why);
        ac_table_free(t);
    }
}

/* The MPI library a table was tuned with: its first line, blanks folded, must be the running
 * library's; a table that records none is not checked. */
static void test_library(void)
{
    char line[64];
    ac_library_line("  MPICH Version:      4.0.2\nMPICH Release date: Thu Mar 10 2022\n", line,
                    sizeof line);
    CHECK(strcmp(line, "MPICH Version: 4.0.2") == 0);
    ac_library_line("Open MPI v4.1.4, package: Debian OpenMPI", line, 12);
    CHECK(strcmp(line, "Open MPI v4") == 0);
    char text[4096], why[256];
    const char *body = "\"rules\": [{\"collective\": \"allreduce\", \"ranks\": [2, null], "
                       "\"bytes\": [0, null], \"algorithm\": \"ring\"}]";
    snprintf(text, sizeof text,
             "{\"schema\": \"autocoll-table\", \"version\": 1, \"registry_fingerprint\": "
             "\"%s\", \"mpi_library\": \"MPICH Version:\\t4.0.2\\nMPICH Release date: x\", %s}",
             fingerprint, body);
    ac_table *t = ac_table_parse(text, ac_registry_fingerprint(), "MPICH Version: 4.0.2", why,
                                 sizeof why);
    CHECK(t != NULL);
    ac_table_free(t);
    t = ac_table_parse(text, ac_registry_fingerprint(), NULL, why, sizeof why);
    CHECK(t != NULL);
    ac_table_free(t);
    why[0] = '\0';
    t = ac_table_parse(text, ac_registry_fingerprint(), "Open MPI v4.1.4, package: Debian", why,
                       sizeof why);
    if (!CHECK(t == NULL && strstr(why, "tuned under \"MPICH Version: 4.0.2\", this run's MPI "
                                        "library is \"Open MPI v4.1.4, package: Debian\"")))
        fprintf(stderr, "  library case: \"%s\"\n", why);
    ac_table_free(t);
    snprintf(text, sizeof text,
             "{\"schema\": \"autocoll-table\", \"version\": 1, \"registry_fingerprint\": "
             "\"%s\", \"mpi_library\": 4, %s}",
             fingerprint, body);
    t = ac_table_parse(text, ac_registry_fingerprint(), "x", why, sizeof why);
    CHECK(t == NULL && strstr(why, "\"mpi_library\" is not a string"));
    ac_table_free(t);
    /* no mpi_library (a table written by hand): not checked */
    t = parse_table(body, why, sizeof why);
    CHECK(t != NULL);
    ac_table_free(t);
}

/* ---- the overlap check: the first rule that overlaps an earlier one of its collective ---- */

/* A version 1 table of n rules `coll` [rlo, rhi] x [blo, bhi] (hi < 0: null) into text. */
typedef struct spec {
    const char *coll;
    long long rlo, rhi, blo, bhi;
} spec;

static void rules_text(const spec *r, int n, char *text, size_t size)
{
    size_t used = (size_t)snprintf(text, size, "\"rules\": [");
    for (int i = 0; i < n && used < size; i++) {
        char rhi[32] = "null", bhi[32] = "null";
        if (r[i].rhi >= 0) snprintf(rhi, sizeof rhi, "%lld", r[i].rhi);
        if (r[i].bhi >= 0) snprintf(bhi, sizeof bhi, "%lld", r[i].bhi);
        used += (size_t)snprintf(text + used, size - used,
                                 "%s{\"collective\": \"%s\", \"ranks\": [%lld, %s], "
                                 "\"bytes\": [%lld, %s], \"algorithm\": \"native\"}",
                                 i ? ", " : "", r[i].coll, r[i].rlo, rhi, r[i].blo, bhi);
    }
    if (used < size) snprintf(text + used, size - used, "]");
}

/* The reason the rules are refused ("" when they parse). */
static void overlap_verdict(const spec *r, int n, char *why, size_t len)
{
    char *text = malloc(128 * (size_t)n + 64);
    why[0] = '\0';
    if (!CHECK(text != NULL)) return;
    rules_text(r, n, text, 128 * (size_t)n + 64);
    ac_table_free(parse_table(text, why, len));
    free(text);
}

/* Each case's verdict is that of reading its rules one by one, comparing each with every
 * earlier rule: the first (in the file) to overlap an earlier one is named. */
static void test_overlaps(void)
{
    static const struct {
        int n;
        spec rules[6];
        const char *reason; /* "" : accepted */
    } cases[] = {
        /* closed intervals: sharing one corner (4 ranks, 100 bytes) is an overlap */
        {2, {{"allreduce", 2, 4, 0, 100}, {"allreduce", 4, -1, 100, -1}}, "rule 1 overlaps an "
                                                                          "earlier allreduce rule"},
        /* rules around a long one, none overlapping: accepted */
        {4,
         {{"allreduce", 1, 100, 0, 9},
          {"allreduce", 50, 60, 10, 19},
          {"allreduce", 1, 100, 20, 29},
          {"allreduce", 101, 200, 0, 29}},
         ""},
        /* rule 4 overlaps rule 2, rule 3 both 0 and 1: rule 3 is named */
        {5,
         {{"allreduce", 1, 4, 0, 10},
          {"allreduce", 5, 8, 0, 10},
          {"allreduce", 9, 9, 0, 10},
          {"allreduce", 2, 6, 5, 5},
          {"allreduce", 9, 9, 10, 20}},
         "rule 3 overlaps an earlier allreduce rule"},
        /* the same intervals in two collectives do not overlap */
        {2, {{"allreduce", 1, -1, 0, -1}, {"bcast", 1, -1, 0, -1}}, ""},
        /* the first overlap in the file is named, with its collective */
        {4,
         {{"allreduce", 1, -1, 0, -1},
          {"bcast", 1, -1, 0, -1},
          {"bcast", 3, 3, 7, 7},
          {"allreduce", 2, 2, 0, 0}},
         "rule 2 overlaps an earlier bcast rule"},
        /* a rule that does not parse after an overlap: the overlap */
        {3,
         {{"allreduce", 1, 4, 0, 10}, {"allreduce", 4, 4, 10, 10}, {"allreduce", 3, 2, 0, 1}},
         "rule 1 overlaps"},
        /* before one: the rule that does not parse */
        {3,
         {{"allreduce", 1, 4, 0, 10}, {"allreduce", 3, 2, 0, 1}, {"allreduce", 4, 4, 10, 10}},
         "rule 1: \"ranks\""},
        /* a rule inside another */
        {3,
         {{"allreduce", 1, 1, 0, 0}, {"allreduce", 1, 100, 0, 1000}, {"allreduce", 7, 8, 9, 10}},
         "rule 1 overlaps"},
    };
    char why[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        overlap_verdict(cases[i].rules, cases[i].n, why, sizeof why);
        int ok = cases[i].reason[0] ? strstr(why, cases[i].reason) != NULL : why[0] == '\0';
        if (!CHECK(ok)) fprintf(stderr, "  overlap case %zu: \"%s\"\n", i, why);
    }

    /* random small rules, judged pair by pair here (a fixed seed: the same draws every run) */
    unsigned long long state = 12345;
    for (int round = 0; round < 400; round++) {
        enum { N = 24 };
        spec r[N];
        int n = 2 + round % (N - 1), expect = -1;
        for (int i = 0; i < n; i++) {
            long long v[4];
            for (int j = 0; j < 4; j++) {
                state = state * 6364136223846793005ull + 1442695040888963407ull;
                v[j] = (long long)(state >> 33) % (round % 2 ? 40 : 400);
            }
            r[i] = (spec){i % 5 ? "allreduce" : "bcast", 1 + v[0] % 20, 1 + v[0] % 20 + v[1] % 4,
                          v[2], v[2] + v[3] % 30};
        }
        for (int i = 1; i < n && expect < 0; i++)
            for (int j = 0; j < i && expect < 0; j++)
                if (strcmp(r[i].coll, r[j].coll) == 0 && r[i].rlo <= r[j].rhi &&
                    r[j].rlo <= r[i].rhi && r[i].blo <= r[j].bhi && r[j].blo <= r[i].bhi)
                    expect = i;
        char reason[64] = "";
        if (expect >= 0)
            snprintf(reason, sizeof reason, "rule %d overlaps an earlier %s rule", expect,
                     r[expect].coll);
        overlap_verdict(r, n, why, sizeof why);
        if (!CHECK(strcmp(why, reason) == 0))
            fprintf(stderr, "  random round %d: \"%s\", expected \"%s\"\n", round, why, reason);
    }
}

/* The table as rank 0 broadcasts it (ac_table_pack) and the others rebuild it: the same rule,
 * algorithms and cell knowledge for every lookup; bytes cut short or altered are refused. */
static void test_pack(void)
{
    char why[256] = "";
    ac_table *t = parse_version(
        2,
        "\"rules\": ["
        "{\"collective\": \"allreduce\", \"ranks\": [2, 7], \"bytes\": [0, 1023], "
        " \"algorithms\": [\"orthogonal_4xn_recursive_doubling\", \"ring\"]},"
        "{\"collective\": \"allreduce\", \"ranks\": [2, 7], \"bytes\": [1024, null], "
        " \"algorithms\": [\"recursive_doubling\"]},"
        "{\"collective\": \"allreduce\", \"ranks\": [8, null], \"bytes\": [0, null], "
        " \"algorithms\": [\"native\"]},"
        "{\"collective\": \"bcast\", \"ranks\": [1, 4], \"bytes\": [0, 100], "
        " \"algorithms\": [\"binomial_tree\"]},"
        "{\"collective\": \"bcast\", \"ranks\": [3, 9], \"bytes\": [101, null], "
        " \"algorithms\": [\"flat_tree\", \"binomial_tree\"]}],"
        "\"cells\": [{\"collective\": \"allreduce\", \"ranks\": 4, \"bytes\": 8, "
        " \"times\": {\"native\": 7e-6, \"ring\": 9e-6}}]",
        why, sizeof why);
    if (!CHECK(t != NULL)) {
        fprintf(stderr, "  %s\n", why);
        return;
    }
    size_t len = 0;
    char *packed = ac_table_pack(t, &len);
    ac_table *u = packed ? ac_table_unpack(packed, len) : NULL;
    if (!CHECK(packed && u)) {
        free(packed);
        ac_table_free(t);
        return;
    }
    const ac_collective colls[2] = {AC_ALLREDUCE, AC_BCAST};
    const unsigned long long sizes[] = {0, 8, 100, 101, 1023, 1024, 1ull << 40};
    for (int c = 0; c < 2; c++)
        for (int ranks = 1; ranks <= 12; ranks++)
            for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++) {
                int n = -1, m = -2;
                const ac_algorithm *const *x =
                    ac_table_rule(t, colls[c], ranks, sizes[b], NULL, &n);
                const ac_algorithm *const *y =
                    ac_table_rule(u, colls[c], ranks, sizes[b], NULL, &m);
                int same = n == m && !x == !y;
                for (int i = 0; same && x && i < n; i++)
                    same = x[i] == y[i];
                if (!CHECK(same))
                    fprintf(stderr, "  %s %d ranks %llu bytes\n", ac_collective_name(colls[c]),
                            ranks, sizes[b]);
            }
    const ac_algorithm *cands[2] = {ac_registry_native(AC_ALLREDUCE),
                                    ac_registry_find(AC_ALLREDUCE, "ring")};
    ac_knowledge a[2], b[2];
    CHECK(ac_table_cell_knowledge(u, AC_ALLREDUCE, 5, 64, cands, 2, b) == 2 &&
          ac_table_cell_knowledge(t, AC_ALLREDUCE, 5, 64, cands, 2, a) == 2 &&
          a[0].seconds == b[0].seconds && a[1].seconds == b[1].seconds);
    ac_table_free(u);
    CHECK(ac_table_unpack(packed, len - 1) == NULL); /* cut short */
    packed[0] ^= 0x40;                                /* the first count altered */
    u = ac_table_unpack(packed, len);
    CHECK(u == NULL);
    ac_table_free(u);
    free(packed);
    ac_table_free(t);
}

/* Rules keyed by node layout ("nodes", "ppn": issue 40 item 5): a rule with them covers a call
 * only when its communicator's layout is known and inside them; one without covers every
 * layout; rules overlap only where their layouts meet too; the layout survives packing. */
static const char *layout_name(const ac_table *t, int ranks, unsigned long long bytes,
                               const ac_node_shape *shape)
{
    int n = 0;
    const ac_algorithm *const *a = ac_table_rule(t, AC_BCAST, ranks, bytes, shape, &n);
    return a ? a[0]->name : "(none)";
}

static void test_layouts(void)
{
    char why[256] = "";
    const char *body =
        "\"rules\": ["
        "{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [0, null], "
        " \"ppn\": [1, 1], \"algorithms\": [\"flat_tree\"]},"
        "{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [0, 1023], "
        " \"nodes\": [2, null], \"ppn\": [2, null], "
        " \"algorithms\": [\"hier_binomial_tree_binomial_tree\", \"binomial_tree\"]},"
        "{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [0, 1023], "
        " \"nodes\": [1, 1], \"ppn\": [2, null], \"algorithms\": [\"chain_tree\"]},"
        "{\"collective\": \"allreduce\", \"ranks\": [1, null], \"bytes\": [0, null], "
        " \"algorithms\": [\"ring\"]}]";
    ac_table *t = parse_version(2, body, why, sizeof why);
    if (!CHECK(t != NULL)) {
        fprintf(stderr, "  %s\n", why);
        return;
    }
    const ac_node_shape one_per_node = {.nodes = 8, .ppn_min = 1, .ppn_max = 1, .blocks = 1},
                        eight_nodes = {.nodes = 8, .ppn_min = 4, .ppn_max = 8, .blocks = 1},
                        one_node = {.nodes = 1, .ppn_min = 8, .ppn_max = 8, .blocks = 1},
                        unknown = {0};
    CHECK(strcmp(layout_name(t, 8, 8, &one_per_node), "flat_tree") == 0);
    CHECK(strcmp(layout_name(t, 64, 8, &eight_nodes), "hier_binomial_tree_binomial_tree") == 0);
    CHECK(strcmp(layout_name(t, 8, 8, &one_node), "chain_tree") == 0);
    CHECK(strcmp(layout_name(t, 64, 4096, &eight_nodes), "(none)") == 0); /* no rule there */
    CHECK(strcmp(layout_name(t, 8, 8, &unknown), "(none)") == 0);  /* layout rules need one */
    CHECK(strcmp(layout_name(t, 8, 8, NULL), "(none)") == 0);
    CHECK(ac_table_uses_nodes(t, AC_BCAST) && !ac_table_uses_nodes(t, AC_ALLREDUCE));
    int n = 0; /* a rule without a layout covers an unknown one */
    CHECK(ac_table_rule(t, AC_ALLREDUCE, 8, 8, NULL, &n) != NULL && n == 1);
    /* the choice: the first applicable of the rule; the hierarchical instance needs the
     * layout in the call, and on one node of a 2-node layout it is not applicable */
    ac_call call = {.collective = AC_BCAST, .size = 64, .count = 1, .bytes = 8,
                    .nodes = eight_nodes};
    const ac_algorithm *a = ac_table_choice(t, &call, 8);
    CHECK(a && strcmp(a->name, "hier_binomial_tree_binomial_tree") == 0);
    call.nodes = (ac_node_shape){.nodes = 2, .ppn_min = 2, .ppn_max = 62, .blocks = 1};
    a = ac_table_choice(t, &call, 8);
    CHECK(a && strcmp(a->name, "hier_binomial_tree_binomial_tree") == 0);
    /* packed and unpacked: the same rules for every layout */
    size_t len = 0;
    char *packed = ac_table_pack(t, &len);
    ac_table *u = packed ? ac_table_unpack(packed, len) : NULL;
    if (CHECK(u != NULL)) {
        const ac_node_shape *shapes[] = {&one_per_node, &eight_nodes, &one_node, &unknown, NULL};
        for (int i = 0; i < 5; i++)
            CHECK(strcmp(layout_name(t, 64, 8, shapes[i]), layout_name(u, 64, 8, shapes[i])) ==
                  0);
        CHECK(ac_table_uses_nodes(u, AC_BCAST) && !ac_table_uses_nodes(u, AC_ALLREDUCE));
    }
    ac_table_free(u);
    free(packed);
    ac_table_free(t);
    static const struct {
        const char *body, *reason; /* "" : accepted */
    } cases[] = {
        /* a rule without a layout meets every layout */
        {"{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [0, null], "
         "\"algorithms\": [\"flat_tree\"]},"
         "{\"collective\": \"bcast\", \"ranks\": [4, 4], \"bytes\": [8, 8], "
         "\"nodes\": [2, 2], \"algorithms\": [\"binomial_tree\"]}",
         "rule 1 overlaps an earlier bcast rule"},
        /* ppn [1, 2] and [2, null] meet at 2 */
        {"{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [0, null], "
         "\"ppn\": [1, 2], \"algorithms\": [\"flat_tree\"]},"
         "{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [0, null], "
         "\"ppn\": [3, null], \"algorithms\": [\"flat_tree\"]},"
         "{\"collective\": \"bcast\", \"ranks\": [4, 4], \"bytes\": [8, 8], "
         "\"nodes\": [2, 2], \"ppn\": [2, null], \"algorithms\": [\"binomial_tree\"]}",
         "rule 2 overlaps an earlier bcast rule"},
        /* disjoint in nodes, equal elsewhere: accepted */
        {"{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [0, null], "
         "\"nodes\": [1, 3], \"algorithms\": [\"flat_tree\"]},"
         "{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [0, null], "
         "\"nodes\": [4, null], \"algorithms\": [\"binomial_tree\"]}",
         ""},
        {"{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [0, null], "
         "\"nodes\": [0, 3], \"algorithms\": [\"flat_tree\"]}",
         "rule 0: \"nodes\" must be [lo, hi]"},
        {"{\"collective\": \"bcast\", \"ranks\": [1, null], \"bytes\": [0, null], "
         "\"ppn\": [3, 2], \"algorithms\": [\"flat_tree\"]}",
         "rule 0: \"ppn\" must be [lo, hi]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        snprintf(text, sizeof text, "\"rules\": [%s]", cases[i].body);
        why[0] = '\0';
        ac_table *v = parse_version(2, text, why, sizeof why);
        int ok = cases[i].reason[0] ? v == NULL && strstr(why, cases[i].reason) != NULL
                                    : v != NULL;
        if (!CHECK(ok)) fprintf(stderr, "  layout case %zu: \"%s\"\n", i, why);
        ac_table_free(v);
    }
}

int main(void)
{
    snprintf(fingerprint, sizeof fingerprint, "%016lx", ac_registry_fingerprint());
    test_rules();
    test_cells();
    test_bad_tables();
    test_version2();
    test_layouts();
    test_library();
    test_overlaps();
    test_pack();
    if (failures) {
        fprintf(stderr, "test_table: %d checks failed\n", failures);
        return 1;
    }
    printf("test_table: all checks passed\n");
    return 0;
}
