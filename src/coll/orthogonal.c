/*
 * orthogonal.c - the orthogonal-decomposition family of the registry (decomposition paper,
 * seeds/003): for bcast, gather, scatter, allgather, allgatherv, reduce, allreduce and
 * alltoall, one instance per mesh layout and per phase algorithm, described once in the table
 * of families below and made when a communicator size or a name asks for it.
 *
 * The layouts of a communicator of p ranks are all its factorizations with every size at
 * least 2: the 2D layouts p1 x n (p1 ascending), then the 3D layouts p1 x p2 x n (p1, then p2
 * ascending), n = p over the leading sizes. Names say the layout and what each phase runs:
 * `orthogonal_<p1>xn_<phase>`, `orthogonal_<p1>x<p2>xn_<phase>` (independent of p: n is
 * whatever is left), where <phase> is `native` (the MPI library's collective on the line
 * communicators) or the registry name of one of ours. Ours are the paper's virtual topologies
 * (section 3: star, hypercube, binomial tree, ring) where the collective has them:
 *   bcast, gather, scatter, reduce  flat_tree (the star), binomial_tree, chain_tree (the ring,
 *                                   opened at the root)
 *   allgather, allgatherv           ring, recursive_doubling (the hypercube), bruck
 *   allreduce                       recursive_doubling (the hypercube), ring,
 *                                   rabenseifner_recursive_doubling (for long vectors)
 *   alltoall                        pair (the hypercube's XOR partners), ring, bruck
 * Every instance requires a size its layout factors (AC_REQ_MESH_LAYOUT), so a name forced on
 * a size it does not factor is refused with that reason; a phase algorithm's own requirements
 * (a commutative op for allreduce's ring, ...) are checked on every line of the mesh
 * (registry.c, mesh_layout_met).
 *
 * Each family's function is a schedule of its phases (common/phase.h): an
 * instance whose phase can be progressed (written as a schedule, not native) is progressed by
 * nonblocking and persistent calls where its mesh's line communicators exist already (made
 * collectively at a blocking call's first use, or where the communicator is made when forced:
 * select.c), and runs for blocking calls only otherwise.
 *
 * Instances are made once per (collective, layout, phase), kept for the life of the process
 * and shared by every size and by ac_registry_find, so an algorithm has one address.
 */
#include "coll/algorithms.h"
#include "coll/common/phase.h"
#include "coll/cost_terms.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The instances' cost models (cost_terms.h): no terms of their own, their phase algorithm on
 * each dimension's lines, with the bytes each phase moves: the whole message (bcast, reduce,
 * allreduce), the runs gathered so far (gather, allgather; scatter is the same phases in
 * reverse), or p / n[d] blocks per pair (alltoall). */
static const ac_cost_model whole_cost = {.inner = {{PART_PHASES, BLOCK_UNIT}},
                                         .phases = PHASES_WHOLE};
static const ac_cost_model growing_cost = {.inner = {{PART_PHASES, BLOCK_UNIT}},
                                           .phases = PHASES_GROWING};
static const ac_cost_model blocks_cost = {.inner = {{PART_PHASES, BLOCK_UNIT}},
                                          .phases = PHASES_BLOCKS};

/* What every family of this file shares: how instances are named, grouped and described. */
#define ORTHOGONAL_FAMILY(coll, member, fn_, sched_, requires_, cost_, summary_, ...)           \
    {.name = "orthogonal",                                                                     \
     .names = "orthogonal_<p1>xn_<phase>, orthogonal_<p1>x<p2>xn_<phase>",                     \
     .layouts = "every factorization of the communicator size p with every size >= 2: the 2D " \
                "layouts p1 x n (p1 ascending), then the 3D layouts p1 x p2 x n (p1, then p2 " \
                "ascending); n = p / (p1 p2)",                                                 \
     .groups = "orthogonal_2d, orthogonal_3d",                                                 \
     .attributes = "partners=mesh dims=<2|3> layout=<p1>xn|<p1>x<p2>xn phase=<phase> "         \
                   "data=pack",                                                                \
     .base = {.collective = coll,                                                              \
              .requires = AC_REQ_MESH_LAYOUT | (requires_),                                    \
              .fn.member = fn_,                                                                \
              .sched.member = sched_,                                                          \
              .cost = &cost_,                                                                  \
              .summary = summary_},                                                            \
     .phases = {__VA_ARGS__}}

static const ac_family families[] = {
    ORTHOGONAL_FAMILY(AC_BCAST, bcast, ac_bcast_orthogonal, ac_bcast_orthogonal_schedule,
                      AC_REQ_MESSAGE_FITS_INT, whole_cost,
                      "bcast along the root's column (the leader group), then along every row",
                      "native", "flat_tree", "binomial_tree", "chain_tree"),
    ORTHOGONAL_FAMILY(AC_GATHER, gather, ac_gather_orthogonal, ac_gather_orthogonal_schedule,
                      AC_REQ_BLOCKS_FIT_INT, growing_cost,
                      "gather in every row at the root's column, then in the root's column",
                      "native", "flat_tree", "binomial_tree", "chain_tree"),
    ORTHOGONAL_FAMILY(AC_SCATTER, scatter, ac_scatter_orthogonal, ac_scatter_orthogonal_schedule,
                      AC_REQ_BLOCKS_FIT_INT, growing_cost,
                      "scatter rows' runs along the root's column, then within every row",
                      "native", "flat_tree", "binomial_tree", "chain_tree"),
    ORTHOGONAL_FAMILY(AC_ALLGATHER, allgather, ac_allgather_orthogonal,
                      ac_allgather_orthogonal_schedule, AC_REQ_BLOCKS_FIT_INT, growing_cost,
                      "all-gather in every row, then the rows' runs in every column", "native",
                      "ring", "recursive_doubling", "bruck"),
    ORTHOGONAL_FAMILY(AC_ALLGATHERV, allgatherv, ac_allgatherv_orthogonal,
                      ac_allgatherv_orthogonal_schedule, AC_REQ_MESSAGE_FITS_INT, growing_cost,
                      "all-gather in every row, then the rows' runs in every column", "native",
                      "ring", "recursive_doubling", "bruck"),
    ORTHOGONAL_FAMILY(AC_REDUCE, reduce, ac_reduce_orthogonal, ac_reduce_orthogonal_schedule, 0,
                      whole_cost,
                      "reduce in every row at the root's column, then in the root's column",
                      "native", "flat_tree", "binomial_tree", "chain_tree"),
    ORTHOGONAL_FAMILY(AC_ALLREDUCE, allreduce, ac_allreduce_orthogonal,
                      ac_allreduce_orthogonal_schedule, 0, whole_cost,
                      "all-reduce in every row, then in every column, in place", "native",
                      "recursive_doubling", "ring", "rabenseifner_recursive_doubling"),
    ORTHOGONAL_FAMILY(AC_ALLTOALL, alltoall, ac_alltoall_orthogonal,
                      ac_alltoall_orthogonal_schedule, AC_REQ_BLOCKS_FIT_INT, blocks_cost,
                      "all-to-all in every row of the blocks for each column, then in every column",
                      "native", "pair", "ring", "bruck"),
};

const ac_family *ac_orthogonal_family(ac_collective c)
{
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (families[i].base.collective == c) return &families[i];
    return NULL;
}

/* A mesh layout: dims 2 or 3 and its leading sizes (lead[1] = 0 in 2D). */
typedef struct layout {
    int dims;
    int lead[2];
} layout;

/* One instance and the storage its entry points to (room for two 10-digit sizes and a phase
 * name of 31 characters, "rabenseifner_recursive_doubling"). */
typedef struct orthogonal_instance {
    ac_algorithm algorithm;
    ac_params params;
    char name[80];
    char attributes[112];
    struct orthogonal_instance *next;
} orthogonal_instance;

/* Every instance made, in chains by hash of (collective, phase, layout). */
enum { INSTANCE_BUCKETS = 4096 };
static orthogonal_instance *instances[INSTANCE_BUCKETS];
static pthread_mutex_t instances_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t bucket_of(const ac_algorithm *phase, const layout *l)
{
    size_t h = (size_t)(uintptr_t)phase / sizeof *phase;
    h = h * 1000003u + (size_t)l->lead[0];
    h = h * 1000003u + (size_t)l->lead[1];
    return h % INSTANCE_BUCKETS;
}

/* "2xn" or "2x3xn". */
static void layout_text(const layout *l, char *out, size_t len)
{
    if (l->dims == 2)
        snprintf(out, len, "%dxn", l->lead[0]);
    else
        snprintf(out, len, "%dx%dxn", l->lead[0], l->lead[1]);
}

/* The static entry of collective c named `name`, or NULL. */
static const ac_algorithm *static_entry(ac_collective c, const char *name)
{
    ac_registry r = ac_registry_of(c);
    for (int i = 0; i < r.count; i++)
        if (strcmp(r.algorithms[i].name, name) == 0) return &r.algorithms[i];
    return NULL;
}

static orthogonal_instance *instance_make(const ac_family *f, const ac_algorithm *phase,
                                          const layout *l)
{
    orthogonal_instance *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    char text[32];
    layout_text(l, text, sizeof text);
    s->params = (ac_params){.dims = l->dims, .layout = {l->lead[0], l->lead[1]}, .phase = phase};
    int named = snprintf(s->name, sizeof s->name, "orthogonal_%s_%s", text, phase->name);
    int described = snprintf(s->attributes, sizeof s->attributes,
                             "partners=mesh dims=%d layout=%s phase=%s data=pack", l->dims, text,
                             phase->name);
    if (named >= (int)sizeof s->name || described >= (int)sizeof s->attributes) {
        free(s);
        return NULL; /* a phase name too long for the storage: no truncated names */
    }
    s->algorithm = f->base;
    /* progressed where its phase can be (common/phase.h); blocking only otherwise */
    if (!ac_phase_progressable(phase)) s->algorithm.sched.allreduce = NULL; /* the union's */
    s->algorithm.name = s->name;
    s->algorithm.group = l->dims == 2 ? "orthogonal_2d" : "orthogonal_3d";
    s->algorithm.attributes = s->attributes;
    s->algorithm.params = &s->params;
    return s;
}

/* The instance of family f with phase algorithm `phase` and layout l, made on first use;
 * NULL without memory. */
static const ac_algorithm *instance_get(const ac_family *f, const ac_algorithm *phase,
                                        const layout *l)
{
    orthogonal_instance **chain = &instances[bucket_of(phase, l)];
    pthread_mutex_lock(&instances_lock);
    orthogonal_instance *s = *chain;
    while (s && !(s->params.phase == phase && s->params.dims == l->dims &&
                  s->params.layout[0] == l->lead[0] && s->params.layout[1] == l->lead[1]))
        s = s->next;
    if (!s && (s = instance_make(f, phase, l))) {
        s->next = *chain;
        *chain = s;
    }
    pthread_mutex_unlock(&instances_lock);
    return s ? &s->algorithm : NULL;
}

/* No int has more divisors than 1600 (2095133040 has them). A size lists at most
 * ORTHOGONAL_MAX_LAYOUTS layouts (4 instances each), the first in order: every layout of every
 * size below 15,120 (96 has 40, 1,024 has 45, 5,040 has 691), and a bound on the memory and the
 * candidates of the highly composite sizes above (720,720 has 6,811 layouts, 2,095,133,040
 * about 200,000). A layout past the bound can still be forced by name. */
enum { MAX_DIVISORS = 1600, ORTHOGONAL_MAX_LAYOUTS = 1024 };

/* The divisors d of size with 2 <= d <= size / 2, ascending, into out[MAX_DIVISORS]; their
 * number. Trial division up to the square root. */
static int divisors(int size, int *out)
{
    int small = 0, large = 0, high[MAX_DIVISORS];
    for (int d = 2; d <= size / d; d++) {
        if (size % d != 0) continue;
        out[small++] = d;
        if (d != size / d) high[large++] = size / d;
    }
    for (int i = large - 1; i >= 0; i--)
        out[small++] = high[i];
    return small;
}

/* The layouts of `size` in registry order into out (NULL: count only), the first
 * ORTHOGONAL_MAX_LAYOUTS of them; their number. */
static int layouts_of(int size, layout *out)
{
    int d[MAX_DIVISORS], nd = divisors(size, d), n = 0;
    for (int i = 0; i < nd && n < ORTHOGONAL_MAX_LAYOUTS; i++, n++)
        if (out) out[n] = (layout){2, {d[i], 0}};
    for (int i = 0; i < nd && n < ORTHOGONAL_MAX_LAYOUTS; i++)
        for (int j = 0; j < nd && d[j] <= size / d[i] / 2 && n < ORTHOGONAL_MAX_LAYOUTS; j++) {
            if ((size / d[i]) % d[j] != 0) continue;
            if (out) out[n] = (layout){3, {d[i], d[j]}};
            n++;
        }
    return n;
}

int ac_orthogonal_instances(ac_collective c, int size, const ac_algorithm **out)
{
    const ac_family *f = ac_orthogonal_family(c);
    int nlayouts = f ? layouts_of(size, NULL) : 0, n = 0;
    layout *l = out && nlayouts > 0 ? malloc(sizeof *l * (size_t)nlayouts) : NULL;
    if (out && nlayouts > 0 && !l) return -1;
    if (l) layouts_of(size, l);
    for (int ph = 0; ph < AC_FAMILY_PHASES && nlayouts > 0; ph++) {
        const ac_algorithm *phase = static_entry(c, f->phases[ph]);
        for (int i = 0; i < nlayouts && phase; i++, n++) {
            if (out && !(out[n] = instance_get(f, phase, &l[i]))) {
                free(l);
                return -1;
            }
        }
    }
    free(l);
    return n;
}

/* The decimal number at *s (no sign, no leading zero) if it is at least 2 and at most `max`;
 * advances *s past it. 0 when there is none. */
static int parse_size(const char **s, long long max)
{
    long long v = 0;
    const char *p = *s;
    if (*p < '1' || *p > '9') return 0;
    for (; *p >= '0' && *p <= '9'; p++)
        if ((v = v * 10 + (*p - '0')) > max) return 0;
    *s = p;
    return v >= 2 ? (int)v : 0;
}

const ac_algorithm *ac_orthogonal_find(ac_collective c, const char *name)
{
    const ac_family *f = ac_orthogonal_family(c);
    const char *s = name;
    layout l = {2, {0, 0}};
    if (!f || strncmp(s, "orthogonal_", 11) != 0) return NULL;
    s += 11;
    /* every size at least 2, and the smallest communicator of the layout an int */
    if (!(l.lead[0] = parse_size(&s, INT_MAX / 2)) || *s++ != 'x') return NULL;
    if (*s != 'n') {
        l.dims = 3;
        if (!(l.lead[1] = parse_size(&s, INT_MAX / 2 / l.lead[0])) || *s++ != 'x') return NULL;
    }
    if (strncmp(s, "n_", 2) != 0) return NULL;
    s += 2;
    for (int ph = 0; ph < AC_FAMILY_PHASES; ph++) {
        if (strcmp(s, f->phases[ph]) != 0) continue;
        const ac_algorithm *phase = static_entry(c, f->phases[ph]);
        return phase ? instance_get(f, phase, &l) : NULL;
    }
    return NULL;
}
