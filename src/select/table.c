/*
 * table.c - the configuration table (table.h, docs/table.md): parsing and checking the JSON,
 * the rule and cell lookups, loading at MPI_Init, and the `table` strategy.
 */
#include "select/table.h"
#include "core/config.h"
#include "core/json.h"
#include "core/log.h"
#include "core/safefile.h"
#include "core/state.h"
#include "core/textfile.h"
#include "select/race.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_SCHEMA "autocoll-table"
#define TABLE_VERSION 2        /* version 2: a rule's "algorithms", in order of preference */
#define TABLE_OLDEST_VERSION 1 /* version 1: a rule's one "algorithm"; still read */
#define MAX_FILE_BYTES (64L << 20) /* a larger file is not read */
#define NO_LIMIT ULLONG_MAX        /* an interval's `hi` of null */

typedef struct interval {
    unsigned long long lo, hi;
} interval;

typedef struct rule {
    interval ranks, bytes;
    interval nodes, ppn; /* the layout: nodes the ranks are on and ranks on the fullest node; a
                          * rule without them ([1, null] each) covers every layout, known or
                          * not, one with them only a known layout (ac_call.nodes) inside them */
    int layout;          /* 1 when the rule names "nodes" or "ppn" */
    int index;                                           /* its place in "rules" (messages) */
    int n;                                               /* algorithms[0..n), n >= 1 */
    const ac_algorithm *algorithms[AC_TABLE_MAX_ALGORITHMS]; /* first applicable one runs */
} rule;

typedef struct cell {
    long long ranks, bytes;
    int n;
    const ac_algorithm **algorithms; /* [n] */
    double *seconds;                 /* [n] */
} cell;

/* Rules of one communicator-size interval, sorted by message size (rules[first..first+n)). */
typedef struct band {
    interval ranks;
    int first, n;
} band;

typedef struct per_collective {
    rule *rules;
    int nrules;
    band *bands; /* when every two rules' size intervals are equal or disjoint (as `autocoll
                  * tune` writes them): sorted, searched by bisection; else NULL, a linear scan */
    int nbands;
    cell *cells;
    int ncells;
} per_collective;

struct ac_table {
    per_collective coll[AC_NUM_COLLECTIVES];
    int uses_nodes[AC_NUM_COLLECTIVES]; /* some rule of the collective names a layout */
};

/* ---- parsing ------------------------------------------------------------------------------ */

void ac_table_free(ac_table *t)
{
    if (!t) return;
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
        for (int i = 0; i < t->coll[k].ncells; i++) {
            free(t->coll[k].cells[i].algorithms);
            free(t->coll[k].cells[i].seconds);
        }
        free(t->coll[k].cells);
        free(t->coll[k].rules);
        free(t->coll[k].bands);
    }
    free(t);
}

/* [lo, hi] with 0 <= lo <= hi, hi null for no limit, lo >= min. */
static int parse_interval(const ac_json *v, long long min, interval *out)
{
    long long lo, hi;
    if (!v || v->type != AC_JSON_ARRAY || v->n != 2) return -1;
    if (ac_json_integer(&v->items[0], min, LLONG_MAX, &lo)) return -1;
    out->lo = (unsigned long long)lo;
    if (v->items[1].type == AC_JSON_NULL) {
        out->hi = NO_LIMIT;
        return 0;
    }
    if (ac_json_integer(&v->items[1], lo, LLONG_MAX, &hi)) return -1;
    out->hi = (unsigned long long)hi;
    return 0;
}

static int overlap(const interval *a, const interval *b)
{
    return a->lo <= b->hi && b->lo <= a->hi;
}

/* The collective named by member "collective" of v, or -1. */
static int collective_of(const ac_json *v)
{
    const ac_json *c = ac_json_member(v, "collective");
    return c && c->type == AC_JSON_STRING ? ac_collective_from_name(c->string) : -1;
}

/* The rule's algorithm names into r: version 1's "algorithm" (one name), version 2's
 * "algorithms" (1 to AC_TABLE_MAX_ALGORITHMS names, in order of preference). */
static int parse_rule_algorithms(const ac_json *v, ac_collective coll, long long version, rule *r,
                                 int index, char *why, size_t why_len)
{
    const char *member = version == 1 ? "algorithm" : "algorithms";
    const ac_json *a = ac_json_member(v, member), *names = a;
    int n = 1;
    if (version != 1) {
        if (!a || a->type != AC_JSON_ARRAY || a->n < 1 || a->n > AC_TABLE_MAX_ALGORITHMS)
            return ac_why_printf(why, why_len,
                                 "rule %d: \"algorithms\" must be an array of 1 to %d names",
                                 index, AC_TABLE_MAX_ALGORITHMS);
        n = a->n;
    }
    for (int i = 0; i < n; i++) {
        const ac_json *name = version == 1 ? a : &names->items[i];
        if (!name || name->type != AC_JSON_STRING)
            return ac_why_printf(why, why_len, "rule %d: no \"%s\" name", index, member);
        if (!(r->algorithms[i] = ac_registry_find(coll, name->string)))
            return ac_why_printf(why, why_len, "rule %d: %s has no algorithm \"%.64s\"", index,
                                 ac_collective_name(coll), name->string);
    }
    r->n = n;
    return 0;
}

static int parse_rule(const ac_json *v, long long version, ac_table *t, int index, char *why,
                      size_t why_len)
{
    int k = collective_of(v);
    if (k < 0) return ac_why_printf(why, why_len, "rule %d: no known \"collective\"", index);
    rule r;
    if (parse_interval(ac_json_member(v, "ranks"), 1, &r.ranks))
        return ac_why_printf(why, why_len,
                             "rule %d: \"ranks\" must be [lo, hi] with 1 <= lo <= hi "
                             "(hi may be null)",
                             index);
    if (parse_interval(ac_json_member(v, "bytes"), 0, &r.bytes))
        return ac_why_printf(why, why_len,
                             "rule %d: \"bytes\" must be [lo, hi] with 0 <= lo <= hi "
                             "(hi may be null)",
                             index);
    r.nodes = r.ppn = (interval){1, NO_LIMIT};
    const ac_json *nodes = ac_json_member(v, "nodes"), *ppn = ac_json_member(v, "ppn");
    if (nodes && parse_interval(nodes, 1, &r.nodes))
        return ac_why_printf(why, why_len,
                             "rule %d: \"nodes\" must be [lo, hi] with 1 <= lo <= hi "
                             "(hi may be null)",
                             index);
    if (ppn && parse_interval(ppn, 1, &r.ppn))
        return ac_why_printf(why, why_len,
                             "rule %d: \"ppn\" must be [lo, hi] with 1 <= lo <= hi "
                             "(hi may be null)",
                             index);
    r.layout = nodes || ppn;
    if (r.layout) t->uses_nodes[k] = 1;
    if (parse_rule_algorithms(v, (ac_collective)k, version, &r, index, why, why_len)) return -1;
    r.index = index;
    per_collective *pc = &t->coll[k];
    pc->rules[pc->nrules++] = r; /* overlaps are found once all are read (first_overlap) */
    return 0;
}

/* ---- the overlap check --------------------------------------------------------------------
 *
 * A rule overlaps another when their process-count, message-size, node and ranks-per-node
 * intervals all intersect. Comparing every pair is quadratic (a table of 250,000 rules kept
 * MPI_Init busy 108 s), so any_overlap sweeps the rules in order of process count, keeping how
 * many active rules cover each message size in a segment tree over the sizes the rules name:
 * O(n log n), per pair of layouts that meet (any_overlap_by_layout). */

/* How many active rules cover each position (the distinct interval ends, sorted):
 * a segment tree whose node holds what was added to its whole range (`add`) and the most any
 * position under it is covered (`max`, its own `add` included). Counts never go below 0. */
typedef struct cover {
    int *add, *max; /* [4 * positions]: node 1 is the root, 2i and 2i + 1 node i's halves */
} cover;

static void cover_change(cover *c, int node, int l, int r, int a, int b, int delta)
{
    if (b < l || r < a) return;
    if (a <= l && r <= b) {
        c->add[node] += delta;
        c->max[node] += delta;
        return;
    }
    int mid = l + (r - l) / 2, left, right;
    cover_change(c, 2 * node, l, mid, a, b, delta);
    cover_change(c, 2 * node + 1, mid + 1, r, a, b, delta);
    left = c->max[2 * node];
    right = c->max[2 * node + 1];
    c->max[node] = c->add[node] + (left > right ? left : right);
}

/* The most any position of [a, b] is covered (0 outside the node's range [l, r]). */
static int cover_most(const cover *c, int node, int l, int r, int a, int b)
{
    if (b < l || r < a) return 0;
    if (a <= l && r <= b) return c->max[node];
    int mid = l + (r - l) / 2;
    int left = cover_most(c, 2 * node, l, mid, a, b);
    int right = cover_most(c, 2 * node + 1, mid + 1, r, a, b);
    return c->add[node] + (left > right ? left : right);
}

/* A rule entering (at ranks.lo) or leaving (after ranks.hi) the sweep. */
typedef struct event {
    unsigned long long at;
    int leaves; /* 0: enters; entries at a count come first, as both rules cover it */
    int rule;
} event;

static int cmp_event(const void *a, const void *b)
{
    const event *x = a, *y = b;
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    return x->leaves - y->leaves;
}

static int cmp_ull(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return (x > y) - (x < y);
}

/* The position of x in sorted[n] (it is there). */
static int position(const unsigned long long *sorted, int n, unsigned long long x)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (sorted[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether two of rules[0..n) overlap: 1, 0, or -1 when out of memory. */
static int any_overlap(const rule *rules, int n)
{
    unsigned long long *ends = malloc(sizeof *ends * 2 * (size_t)n);
    event *events = malloc(sizeof *events * 2 * (size_t)n);
    cover c = {calloc(8 * (size_t)n, sizeof(int)), calloc(8 * (size_t)n, sizeof(int))};
    int found = -1, size = 0;
    if (!ends || !events || !c.add || !c.max) goto out;
    for (int i = 0; i < n; i++) {
        ends[2 * i] = rules[i].bytes.lo;
        ends[2 * i + 1] = rules[i].bytes.hi;
        events[2 * i] = (event){rules[i].ranks.lo, 0, i};
        events[2 * i + 1] = (event){rules[i].ranks.hi, 1, i};
    }
    qsort(ends, 2 * (size_t)n, sizeof *ends, cmp_ull);
    for (int i = 0; i < 2 * n; i++)
        if (i == 0 || ends[i] != ends[size - 1]) ends[size++] = ends[i];
    qsort(events, 2 * (size_t)n, sizeof *events, cmp_event);
    found = 0;
    for (int i = 0; i < 2 * n && !found; i++) {
        const interval *b = &rules[events[i].rule].bytes;
        int lo = position(ends, size, b->lo), hi = position(ends, size, b->hi);
        if (!events[i].leaves && cover_most(&c, 1, 0, size - 1, lo, hi) > 0)
            found = 1;
        else
            cover_change(&c, 1, 0, size - 1, lo, hi, events[i].leaves ? -1 : 1);
    }
out:
    free(ends);
    free(events);
    free(c.add);
    free(c.max);
    return found;
}

static int same_interval(const interval *a, const interval *b)
{
    return a->lo == b->lo && a->hi == b->hi;
}

/* Whether two of rules[0..n) overlap in all four intervals (ranks, bytes, nodes, ppn): 1, 0, or
 * -1 when out of memory. Rules of equal layout intervals form a class; the rules of every two
 * classes whose layouts meet (each class with itself too) are swept together by any_overlap. A
 * table names few layouts (none: one class, swept once), so this stays O(n log n) in its rules;
 * it grows with the square of the number of distinct layouts. */
static int any_overlap_by_layout(const rule *rules, int n)
{
    int *cls = malloc(sizeof *cls * (size_t)n), *first = malloc(sizeof *first * (size_t)n);
    rule *both = NULL;
    int k = 0, found = -1;
    if (!cls || !first) goto out;
    for (int i = 0; i < n; i++) {
        int c = 0;
        while (c < k && !(same_interval(&rules[first[c]].nodes, &rules[i].nodes) &&
                          same_interval(&rules[first[c]].ppn, &rules[i].ppn)))
            c++;
        if (c == k) first[k++] = i;
        cls[i] = c;
    }
    if (k == 1) {
        found = any_overlap(rules, n);
        goto out;
    }
    if (!(both = malloc(sizeof *both * (size_t)n))) goto out;
    found = 0;
    for (int a = 0; a < k && !found; a++)
        for (int b = a; b < k && !found; b++) {
            const rule *x = &rules[first[a]], *y = &rules[first[b]];
            if (!overlap(&x->nodes, &y->nodes) || !overlap(&x->ppn, &y->ppn)) continue;
            int m = 0;
            for (int i = 0; i < n; i++)
                if (cls[i] == a || cls[i] == b) both[m++] = rules[i];
            found = m > 1 ? any_overlap(both, m) : 0;
        }
out:
    free(cls);
    free(first);
    free(both);
    return found;
}

/* The first rule (in the file's order) of rules[n] (in that order) that overlaps an earlier
 * one, as the rules were once checked one by one: the shortest prefix that holds an overlap,
 * found by bisection. Its index in "rules", -1 when none overlaps, -2 when out of memory. */
static int first_overlap(const rule *rules, int n)
{
    int found = n > 1 ? any_overlap_by_layout(rules, n) : 0;
    if (found <= 0) return found < 0 ? -2 : -1;
    int lo = 2, hi = n; /* the shortest prefix with an overlap is in [lo, hi] */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if ((found = any_overlap_by_layout(rules, mid)) < 0) return -2;
        if (found)
            hi = mid;
        else
            lo = mid + 1;
    }
    return rules[lo - 1].index;
}

static int parse_cell(const ac_json *v, ac_table *t, int index, char *why, size_t why_len)
{
    int k = collective_of(v);
    cell c = {0};
    const ac_json *times = ac_json_member(v, "times");
    if (k < 0 || ac_json_integer(ac_json_member(v, "ranks"), 1, INT_MAX, &c.ranks) ||
        ac_json_integer(ac_json_member(v, "bytes"), 0, LLONG_MAX, &c.bytes) || !times ||
        times->type != AC_JSON_OBJECT)
        return ac_why_printf(why, why_len,
                             "cell %d: it needs \"collective\", \"ranks\" (>= 1), "
                             "\"bytes\" (>= 0) and \"times\" (an object)",
                             index);
    per_collective *pc = &t->coll[k];
    cell *slot = &pc->cells[pc->ncells];
    c.algorithms = calloc((size_t)times->n + 1, sizeof *c.algorithms);
    c.seconds = calloc((size_t)times->n + 1, sizeof *c.seconds);
    *slot = c; /* freed with the table from here on */
    pc->ncells++;
    if (!slot->algorithms || !slot->seconds) return ac_why_printf(why, why_len, "out of memory");
    for (int i = 0; i < times->n; i++) {
        const ac_json *m = &times->items[i];
        const ac_algorithm *a = ac_registry_find((ac_collective)k, m->key);
        if (!a)
            return ac_why_printf(why, why_len, "cell %d: %s has no algorithm \"%.64s\"", index,
                                 ac_collective_name((ac_collective)k), m->key);
        if (m->type != AC_JSON_NUMBER || !(m->number >= 0.0))
            return ac_why_printf(why, why_len, "cell %d: the time of %s must be a number >= 0",
                                 index, m->key);
        slot->algorithms[slot->n] = a;
        slot->seconds[slot->n++] = m->number;
    }
    return 0;
}

static int cmp_rule(const void *a, const void *b)
{
    const rule *x = a, *y = b;
    if (x->ranks.lo != y->ranks.lo) return x->ranks.lo < y->ranks.lo ? -1 : 1;
    return (x->bytes.lo > y->bytes.lo) - (x->bytes.lo < y->bytes.lo);
}

/* Sorts the rules into bands of equal size intervals when they form them and name one layout
 * (per_collective);
 * -1 only when out of memory. */
static int make_bands(per_collective *pc)
{
    if (pc->nrules == 0) return 0;
    qsort(pc->rules, (size_t)pc->nrules, sizeof *pc->rules, cmp_rule);
    for (int i = 1; i < pc->nrules; i++) {
        const rule *a = &pc->rules[i - 1], *b = &pc->rules[i];
        if (!same_interval(&a->ranks, &b->ranks) && overlap(&a->ranks, &b->ranks))
            return 0; /* not banded: the linear scan */
        if (!same_interval(&a->nodes, &b->nodes) || !same_interval(&a->ppn, &b->ppn))
            return 0; /* several layouts: the linear scan */
    }
    if (!(pc->bands = calloc((size_t)pc->nrules, sizeof *pc->bands))) return -1;
    for (int i = 0; i < pc->nrules; i++) {
        band *last = pc->nbands ? &pc->bands[pc->nbands - 1] : NULL;
        if (last && last->ranks.lo == pc->rules[i].ranks.lo) {
            last->n++;
        } else {
            pc->bands[pc->nbands++] = (band){pc->rules[i].ranks, i, 1};
        }
    }
    return 0;
}

/* Room for every rule and cell of each collective (counted first). */
static int reserve(ac_table *t, const ac_json *rules, const ac_json *cells)
{
    int nrules[AC_NUM_COLLECTIVES] = {0}, ncells[AC_NUM_COLLECTIVES] = {0};
    for (int i = 0; i < rules->n; i++) {
        int k = collective_of(&rules->items[i]);
        if (k >= 0) nrules[k]++;
    }
    for (int i = 0; cells && i < cells->n; i++) {
        int k = collective_of(&cells->items[i]);
        if (k >= 0) ncells[k]++;
    }
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
        t->coll[k].rules = calloc((size_t)nrules[k] + 1, sizeof(rule));
        t->coll[k].cells = calloc((size_t)ncells[k] + 1, sizeof(cell));
        if (!t->coll[k].rules || !t->coll[k].cells) return -1;
    }
    return 0;
}

/* Reports the first rule that overlaps an earlier rule of its collective, as reading the rules
 * in order would: -1 with the reason, 0 when none does. */
static int overlapping_rule(const ac_table *t, char *why, size_t why_len)
{
    int first = -1, coll = 0;
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
        int i = first_overlap(t->coll[k].rules, t->coll[k].nrules);
        if (i == -2) return ac_why_printf(why, why_len, "out of memory");
        if (i >= 0 && (first < 0 || i < first)) {
            first = i;
            coll = k;
        }
    }
    if (first < 0) return 0;
    return ac_why_printf(why, why_len, "rule %d overlaps an earlier %s rule", first,
                         ac_collective_name((ac_collective)coll));
}

static int parse_tree(const ac_json *root, uint64_t fingerprint, const char *library,
                      ac_table *t, char *why, size_t why_len)
{
    const ac_json *schema = ac_json_member(root, "schema");
    long long version;
    if (!schema || schema->type != AC_JSON_STRING || strcmp(schema->string, TABLE_SCHEMA) != 0)
        return ac_why_printf(why, why_len, "not a configuration table (schema \"%s\" expected)",
                             TABLE_SCHEMA);
    if (ac_json_integer(ac_json_member(root, "version"), 0, LLONG_MAX, &version) ||
        version < TABLE_OLDEST_VERSION || version > TABLE_VERSION)
        return ac_why_printf(why, why_len, "a table format version other than %d to %d",
                             TABLE_OLDEST_VERSION, TABLE_VERSION);
    const ac_json *f = ac_json_member(root, "registry_fingerprint");
    char mine[17];
    snprintf(mine, sizeof mine, "%016llx", (unsigned long long)fingerprint);
    if (!f || f->type != AC_JSON_STRING || strcmp(f->string, mine) != 0)
        return ac_why_printf(why, why_len,
                             "registry fingerprint %.20s, this build's is %s: tuned "
                             "with other algorithms (run `autocoll tune` again)",
                             f && f->type == AC_JSON_STRING ? f->string : "(none)", mine);
    const ac_json *tuned_with = ac_json_member(root, "mpi_library");
    if (tuned_with && tuned_with->type != AC_JSON_STRING)
        return ac_why_printf(why, why_len, "\"mpi_library\" is not a string");
    if (library && tuned_with) {
        char line[256];
        ac_library_line(tuned_with->string, line, sizeof line);
        if (strcmp(line, library) != 0)
            return ac_why_printf(why, why_len,
                                 "tuned under \"%.100s\", this run's MPI library is \"%.100s\" "
                                 "(run `autocoll tune` under it)",
                                 line, library);
    }
    const ac_json *rules = ac_json_member(root, "rules"), *cells = ac_json_member(root, "cells");
    if (!rules || rules->type != AC_JSON_ARRAY)
        return ac_why_printf(why, why_len, "no \"rules\" array");
    if (cells && cells->type != AC_JSON_ARRAY)
        return ac_why_printf(why, why_len, "\"cells\" is not an array");
    if (reserve(t, rules, cells)) return ac_why_printf(why, why_len, "out of memory");
    int bad = 0; /* rules before the first that does not parse are checked for overlaps */
    for (int i = 0; i < rules->n && !bad; i++)
        bad = parse_rule(&rules->items[i], version, t, i, why, why_len) != 0;
    if (overlapping_rule(t, why, why_len) || bad) return -1;
    for (int i = 0; cells && i < cells->n; i++)
        if (parse_cell(&cells->items[i], t, i, why, why_len)) return -1;
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++)
        if (make_bands(&t->coll[k])) return ac_why_printf(why, why_len, "out of memory");
    return 0;
}

ac_table *ac_table_parse(const char *text, uint64_t fingerprint, const char *library, char *why,
                         size_t why_len)
{
    ac_json *root = ac_json_parse(text, strlen(text), why, why_len);
    if (!root) return NULL;
    ac_table *t = calloc(1, sizeof *t);
    if (!t) ac_why_printf(why, why_len, "out of memory");
    if (t && parse_tree(root, fingerprint, library, t, why, why_len)) {
        ac_table_free(t);
        t = NULL;
    }
    ac_json_free(root);
    return t;
}

/* ---- the table packed for a broadcast ------------------------------------------------------
 *
 * Rank 0 parses the file and checks it (ac_table_load); the other ranks receive its rules and
 * cells as bytes and rebuild them, the algorithms by registry name (a family's instance is made
 * by its name like any other lookup), without parsing the JSON again or holding its tree. */

typedef struct packer {
    char *buf;
    size_t len, cap;
    int failed;
} packer;

static void put(packer *p, const void *data, size_t n)
{
    if (p->failed) return;
    if (p->len + n > p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 1 << 16;
        while (cap < p->len + n)
            cap *= 2;
        char *grown = realloc(p->buf, cap);
        if (!grown) {
            p->failed = 1;
            return;
        }
        p->buf = grown;
        p->cap = cap;
    }
    memcpy(p->buf + p->len, data, n);
    p->len += n;
}

static void put_name(packer *p, const char *name)
{
    unsigned char n = (unsigned char)strlen(name); /* registry names are short */
    put(p, &n, 1);
    put(p, name, n);
}

char *ac_table_pack(const ac_table *t, size_t *len)
{
    packer p = {0};
    for (int k = 0; k < AC_NUM_COLLECTIVES; k++) {
        const per_collective *pc = &t->coll[k];
        put(&p, &pc->nrules, sizeof pc->nrules);
        for (int i = 0; i < pc->nrules; i++) {
            const rule *r = &pc->rules[i];
            put(&p, &r->ranks, sizeof r->ranks);
            put(&p, &r->bytes, sizeof r->bytes);
            put(&p, &r->nodes, sizeof r->nodes);
            put(&p, &r->ppn, sizeof r->ppn);
            put(&p, &r->layout, sizeof r->layout);
            put(&p, &r->index, sizeof r->index);
            put(&p, &r->n, sizeof r->n);
            for (int a = 0; a < r->n; a++)
                put_name(&p, r->algorithms[a]->name);
        }
        put(&p, &pc->ncells, sizeof pc->ncells);
        for (int i = 0; i < pc->ncells; i++) {
            const cell *c = &pc->cells[i];
            put(&p, &c->ranks, sizeof c->ranks);
            put(&p, &c->bytes, sizeof c->bytes);
            put(&p, &c->n, sizeof c->n);
            for (int a = 0; a < c->n; a++)
                put_name(&p, c->algorithms[a]->name);
            put(&p, c->seconds, sizeof *c->seconds * (size_t)c->n);
        }
    }
    if (p.failed) {
        free(p.buf);
        return NULL;
    }
    *len = p.len;
    return p.buf;
}

typedef struct unpacker {
    const char *at, *end;
    int failed;
    ac_collective coll; /* the last name's: consecutive rules mostly name the same algorithms */
    char last[256];
    const ac_algorithm *found;
} unpacker;

static void get(unpacker *u, void *data, size_t n)
{
    if (u->failed || (size_t)(u->end - u->at) < n) {
        u->failed = 1;
        memset(data, 0, n);
        return;
    }
    memcpy(data, u->at, n);
    u->at += n;
}

static const ac_algorithm *get_algorithm(unpacker *u, ac_collective coll)
{
    unsigned char n = 0;
    char name[256];
    get(u, &n, 1);
    get(u, name, n);
    name[n] = '\0';
    if (u->failed) return NULL;
    if (!u->found || u->coll != coll || strcmp(u->last, name) != 0) {
        u->found = ac_registry_find(coll, name);
        u->coll = coll;
        strcpy(u->last, name);
    }
    if (!u->found) u->failed = 1;
    return u->found;
}

/* A count of items packed, within what the bytes left could hold at `least` bytes each. */
static int get_count(unpacker *u, size_t least)
{
    int n = 0;
    get(u, &n, sizeof n);
    if (n < 0 || (size_t)n > (size_t)(u->end - u->at) / least) u->failed = 1;
    return u->failed ? 0 : n;
}

ac_table *ac_table_unpack(const char *buf, size_t len)
{
    unpacker u = {.at = buf, .end = buf + len};
    ac_table *t = calloc(1, sizeof *t);
    for (int k = 0; t && k < AC_NUM_COLLECTIVES && !u.failed; k++) {
        per_collective *pc = &t->coll[k];
        int nrules = get_count(&u, sizeof(rule) / 4);
        if (!(pc->rules = calloc((size_t)nrules + 1, sizeof *pc->rules))) u.failed = 1;
        for (int i = 0; i < nrules && !u.failed; i++) {
            rule *r = &pc->rules[pc->nrules++];
            get(&u, &r->ranks, sizeof r->ranks);
            get(&u, &r->bytes, sizeof r->bytes);
            get(&u, &r->nodes, sizeof r->nodes);
            get(&u, &r->ppn, sizeof r->ppn);
            get(&u, &r->layout, sizeof r->layout);
            if (r->layout) t->uses_nodes[k] = 1;
            get(&u, &r->index, sizeof r->index);
            get(&u, &r->n, sizeof r->n);
            if (r->n < 1 || r->n > AC_TABLE_MAX_ALGORITHMS) u.failed = 1;
            for (int a = 0; a < r->n && !u.failed; a++)
                r->algorithms[a] = get_algorithm(&u, (ac_collective)k);
        }
        int ncells = get_count(&u, sizeof(long long));
        if (!u.failed && !(pc->cells = calloc((size_t)ncells + 1, sizeof *pc->cells)))
            u.failed = 1;
        for (int i = 0; i < ncells && !u.failed; i++) {
            cell *c = &pc->cells[pc->ncells++];
            get(&u, &c->ranks, sizeof c->ranks);
            get(&u, &c->bytes, sizeof c->bytes);
            int n = get_count(&u, 1);
            c->algorithms = calloc((size_t)n + 1, sizeof *c->algorithms);
            c->seconds = calloc((size_t)n + 1, sizeof *c->seconds);
            if (!c->algorithms || !c->seconds) u.failed = 1;
            for (int a = 0; a < n && !u.failed; a++)
                c->algorithms[a] = get_algorithm(&u, (ac_collective)k);
            get(&u, c->seconds, sizeof *c->seconds * (size_t)n);
            c->n = u.failed ? 0 : n;
        }
        if (!u.failed && make_bands(pc)) u.failed = 1;
    }
    if (!t || u.failed || u.at != u.end) {
        ac_table_free(t);
        return NULL;
    }
    return t;
}

/* ---- lookups ------------------------------------------------------------------------------ */

/* The last of n items (`stride` bytes apart, sorted by the interval at `offset` in each) whose
 * interval starts at or below x; -1 when none does. */
static int last_at_or_below(const void *items, int n, size_t stride, size_t offset,
                            unsigned long long x)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        const interval *v = (const void *)((const char *)items + (size_t)mid * stride + offset);
        if (v->lo <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

static int inside(const interval *v, unsigned long long x)
{
    return v->lo <= x && x <= v->hi;
}

/* Whether rule r's layout covers the node layout `shape` (nodes 0 or NULL: not known). */
static int covers_layout(const rule *r, const ac_node_shape *shape)
{
    if (!r->layout) return 1;
    return shape && shape->nodes > 0 && inside(&r->nodes, (unsigned long long)shape->nodes) &&
           inside(&r->ppn, (unsigned long long)shape->ppn_max);
}

/* The rule covering (p, bytes, shape), or NULL. */
static const rule *covering_rule(const per_collective *pc, unsigned long long p,
                                 unsigned long long bytes, const ac_node_shape *shape)
{
    if (pc->bands) {
        int b = last_at_or_below(pc->bands, pc->nbands, sizeof(band), offsetof(band, ranks), p);
        if (b < 0 || p > pc->bands[b].ranks.hi) return NULL;
        const rule *rules = &pc->rules[pc->bands[b].first];
        int r = last_at_or_below(rules, pc->bands[b].n, sizeof(rule), offsetof(rule, bytes),
                                 bytes);
        return r >= 0 && bytes <= rules[r].bytes.hi && covers_layout(&rules[r], shape)
                   ? &rules[r]
                   : NULL;
    }
    for (int i = 0; i < pc->nrules; i++) {
        const rule *r = &pc->rules[i];
        if (inside(&r->ranks, p) && inside(&r->bytes, bytes) && covers_layout(r, shape)) return r;
    }
    return NULL;
}

const ac_algorithm *const *ac_table_rule(const ac_table *t, ac_collective coll, int comm_size,
                                         unsigned long long bytes, const ac_node_shape *shape,
                                         int *n)
{
    const rule *r = covering_rule(&t->coll[coll], (unsigned long long)comm_size, bytes, shape);
    *n = r ? r->n : 0;
    return r ? r->algorithms : NULL;
}

int ac_table_uses_nodes(const ac_table *t, ac_collective coll)
{
    return t->uses_nodes[coll];
}

const ac_algorithm *ac_table_choice(const ac_table *t, const ac_call *call,
                                    unsigned long long bytes)
{
    const rule *r = covering_rule(&t->coll[call->collective], (unsigned long long)call->size,
                                  bytes, &call->nodes);
    for (int i = 0; r && i < r->n; i++)
        if (ac_applicable(r->algorithms[i], call, NULL)) return r->algorithms[i];
    return NULL;
}

/* The largest measured process count <= comm_size, -1 when none is. */
static long long covering_ranks(const per_collective *pc, int comm_size)
{
    long long ranks = -1;
    for (int i = 0; i < pc->ncells; i++)
        if (pc->cells[i].ranks <= comm_size && pc->cells[i].ranks > ranks)
            ranks = pc->cells[i].ranks;
    return ranks;
}

int ac_table_cell_ranks(const ac_table *t, ac_collective coll, int comm_size)
{
    return (int)covering_ranks(&t->coll[coll], comm_size);
}

/* The covering cell (table.h), or NULL. */
static const cell *covering_cell(const per_collective *pc, int comm_size,
                                 unsigned long long bytes)
{
    long long ranks = covering_ranks(pc, comm_size);
    const cell *below = NULL, *smallest = NULL;
    for (int i = 0; i < pc->ncells; i++) {
        const cell *c = &pc->cells[i];
        if (c->ranks != ranks) continue;
        if (!smallest || c->bytes < smallest->bytes) smallest = c;
        if ((unsigned long long)c->bytes <= bytes && (!below || c->bytes > below->bytes))
            below = c;
    }
    return below ? below : smallest;
}

int ac_table_cell_knowledge(const ac_table *t, ac_collective coll, int comm_size,
                            unsigned long long bytes, const ac_algorithm *const *candidates,
                            int n, ac_knowledge *know)
{
    memset(know, 0, sizeof *know * (size_t)n);
    const cell *c = covering_cell(&t->coll[coll], comm_size, bytes);
    int known = 0;
    for (int i = 0; c && i < c->n; i++)
        for (int j = 0; j < n; j++)
            if (candidates[j] == c->algorithms[i] && know[j].samples == 0) {
                know[j] = (ac_knowledge){c->seconds[i], 0.0, 1};
                known++;
            }
    return known;
}

/* ---- loading at MPI_Init ------------------------------------------------------------------ */

static struct {
    ac_table *table;
} loaded;

const ac_table *ac_table_loaded(void)
{
    return loaded.table;
}

void ac_table_unload(void)
{
    ac_table_free(loaded.table);
    loaded.table = NULL;
}

/* Rank 0: the file's text, or NULL with the reason. */
static char *read_table(const char *path, char *why, size_t why_len)
{
    char *text = ac_read_text_file(path, MAX_FILE_BYTES);
    if (!text)
        ac_why_printf(why, why_len, "%s",
                      errno == EFBIG ? "larger than 64 MiB" : ac_file_error(errno));
    return text;
}

void ac_table_load(void)
{
    const char *setting = ac_config_get("AUTOCOLL_TABLE");
    ac_table_unload();
    if (!setting[0]) return;
    /* From here on collective over MPI_COMM_WORLD on every rank (the setting is the same). Rank
     * 0 reads, parses and checks the file; the others receive the table packed (-1: none). */
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char why[512] = "", *packed = NULL;
    size_t len = 0;
    long size = -1;
    if (rank == 0) {
        char *text = read_table(setting, why, sizeof why), library[256];
        int text_read = text != NULL;
        ac_mpi_library(library, sizeof library);
        ac_table *t = text ? ac_table_parse(text, ac_registry_fingerprint(), library, why,
                                            sizeof why)
                           : NULL;
        free(text);
        if (t && !(packed = ac_table_pack(t, &len))) snprintf(why, sizeof why, "out of memory");
        if (packed && len < INT_MAX) {
            loaded.table = t;
            size = (long)len;
        } else {
            ac_table_free(t);
            if (packed) snprintf(why, sizeof why, "more than 2 GiB packed");
            ac_log_warn("AUTOCOLL_TABLE=%s: %s; %s", setting, why,
                        text_read ? "the table is ignored" : "no table for this run");
        }
    }
    PMPI_Bcast(&size, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (size < 0) {
        free(packed);
        return;
    }
    if (rank != 0 && !(packed = malloc((size_t)size + 1))) {
        ac_log_error("table: out of memory for %ld bytes", size);
        ac_log_abort(MPI_ERR_NO_MEM); /* as select.c does: fail loudly */
    }
    PMPI_Bcast(packed, (int)size, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank != 0) loaded.table = ac_table_unpack(packed, (size_t)size);
    free(packed);
    /* every rank keeps the table only if every rank has it (invariant 1): memory may run out on
     * some rank only */
    int ok = loaded.table != NULL, all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) ac_table_unload();
    if (!all && rank == 0)
        ac_log_warn("AUTOCOLL_TABLE=%s: out of memory on another rank; the table is ignored",
                    setting);
}

/* ---- the `table` strategy ----------------------------------------------------------------- */

/* Where no rule covers a context it runs native: native's operations. */
static void *table_create(const ac_algorithm *const *candidates, int n, const ac_knowledge *known,
                          const ac_context_facts *facts)
{
    return ac_strategy_native.create(candidates, n, known, facts);
}

static int table_choose(void *state)
{
    return ac_strategy_native.choose(state);
}

static int table_observe(void *state, int index, double seconds, const ac_agreement *agree,
                         int *deciding)
{
    return ac_strategy_native.observe(state, index, seconds, agree, deciding);
}

static void table_save(const void *state, ac_knowledge *out)
{
    ac_strategy_native.save(state, out);
}

static void table_describe(const void *state, const ac_algorithm *const *candidates,
                           ac_strategy_summary *out, ac_json_writer *w)
{
    ac_strategy_native.describe(state, candidates, out, w);
}

static void table_destroy(void *state)
{
    ac_strategy_native.destroy(state);
}

const ac_strategy ac_strategy_table = {
    .name = "table",
    .learns = 0,
    .table_mode = 1,
    .trial = &ac_strategy_race,
    .create = table_create,
    .choose = table_choose,
    .observe = table_observe,
    .save = table_save,
    .describe = table_describe,
    .destroy = table_destroy,
};
