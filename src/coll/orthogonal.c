/*
 * orthogonal.c - the orthogonal-decomposition instances of the registry (decomposition paper,
 * seeds/003): for bcast, gather, scatter, allgather, allgatherv, reduce, allreduce and
 * alltoall, one instance per mesh layout and per phase algorithm, generated once from the
 * table of families below and appended to the collective's static table.
 *
 * Every factorization is a candidate: 2D layouts p1 x n for p1 = 2 .. ORTHOGONAL_MAX_2D and 3D
 * layouts p1 x p2 x n for p1, p2 = 2 .. ORTHOGONAL_MAX_3D, each applicable only where it
 * factors the communicator size with n >= 2 (AC_REQ_MESH_LAYOUT). That is every 2D layout up
 * to 128 ranks (p = 96 has its 10) and every 3D layout up to 32 ranks. Names say the layout
 * and what each phase runs: `orthogonal_<p1>xn_<phase>`, `orthogonal_<p1>x<p2>xn_<phase>`,
 * where <phase> is `native` (the MPI library's collective on the line communicators) or the
 * registry name of one of ours. Ours are the paper's virtual topologies (section 3: star,
 * hypercube, binomial tree, ring) where the collective has them:
 *   bcast, gather, scatter, reduce  flat_tree (the star), binomial_tree, chain_tree (the ring,
 *                                   opened at the root)
 *   allgather, allgatherv           ring, recursive_doubling (the hypercube), bruck
 *   allreduce                       recursive_doubling (the hypercube), ring,
 *                                   rabenseifner_recursive_doubling (for long vectors)
 *   alltoall                        pair (the hypercube's XOR partners), ring, bruck
 * A phase algorithm's own requirements (a commutative op for allreduce's ring, ...) are checked
 * on every line of the mesh (registry.c, mesh_layout_met).
 */
#include "coll/algorithms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ORTHOGONAL_MAX_2D = 64, ORTHOGONAL_MAX_3D = 8, ORTHOGONAL_PHASES = 4 };
enum {
    ORTHOGONAL_LAYOUTS = (ORTHOGONAL_MAX_2D - 1) + (ORTHOGONAL_MAX_3D - 1) * (ORTHOGONAL_MAX_3D - 1)
};

typedef struct orthogonal_family {
    ac_algorithm base; /* collective, function, requirements, summary; name, params generated */
    const char *phases[ORTHOGONAL_PHASES]; /* registry names of the phase algorithms */
} orthogonal_family;

static const orthogonal_family families[] = {
    {{.collective = AC_BCAST,
      .fn.bcast = ac_bcast_orthogonal,
      .requires = AC_REQ_MESSAGE_FITS_INT,
      .summary = "bcast along the root's column (the leader group), then along every row"},
     {"native", "flat_tree", "binomial_tree", "chain_tree"}},
    {{.collective = AC_GATHER,
      .fn.gather = ac_gather_orthogonal,
      .requires = AC_REQ_BLOCKS_FIT_INT,
      .summary = "gather in every row at the root's column, then in the root's column"},
     {"native", "flat_tree", "binomial_tree", "chain_tree"}},
    {{.collective = AC_SCATTER,
      .fn.scatter = ac_scatter_orthogonal,
      .requires = AC_REQ_BLOCKS_FIT_INT,
      .summary = "scatter rows' runs along the root's column, then within every row"},
     {"native", "flat_tree", "binomial_tree", "chain_tree"}},
    {{.collective = AC_ALLGATHER,
      .fn.allgather = ac_allgather_orthogonal,
      .requires = AC_REQ_BLOCKS_FIT_INT,
      .summary = "all-gather in every row, then the rows' runs in every column"},
     {"native", "ring", "recursive_doubling", "bruck"}},
    {{.collective = AC_ALLGATHERV,
      .fn.allgatherv = ac_allgatherv_orthogonal,
      .requires = AC_REQ_MESSAGE_FITS_INT,
      .summary = "all-gather in every row, then the rows' runs in every column"},
     {"native", "ring", "recursive_doubling", "bruck"}},
    {{.collective = AC_REDUCE,
      .fn.reduce = ac_reduce_orthogonal,
      .summary = "reduce in every row at the root's column, then in the root's column"},
     {"native", "flat_tree", "binomial_tree", "chain_tree"}},
    {{.collective = AC_ALLREDUCE,
      .fn.allreduce = ac_allreduce_orthogonal,
      .summary = "all-reduce in every row, then in every column, in place"},
     {"native", "recursive_doubling", "ring", "rabenseifner_recursive_doubling"}},
    {{.collective = AC_ALLTOALL,
      .fn.alltoall = ac_alltoall_orthogonal,
      .requires = AC_REQ_BLOCKS_FIT_INT,
      .summary = "all-to-all in every row of the blocks for each column, then in every column"},
     {"native", "pair", "ring", "bruck"}},
};

/* Storage of one generated instance. */
typedef struct orthogonal_instance {
    ac_params params;
    char name[64];
    char group[24];
    char attributes[128];
} orthogonal_instance;

static const orthogonal_family *family_of(ac_collective c)
{
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (families[i].base.collective == c) return &families[i];
    return NULL;
}

/* ac_registry_find over the static table alone: the registry is being built (ac_registry_of
 * would wait on itself). */
static const ac_algorithm *find_in(ac_registry base, const char *name)
{
    for (int i = 0; i < base.count; i++)
        if (strcmp(base.algorithms[i].name, name) == 0) return &base.algorithms[i];
    return NULL;
}

/* The leading sizes of layout number i (0 .. ORTHOGONAL_LAYOUTS-1): 2D first, then 3D. */
static void layout_at(int i, int *dims, int layout[2])
{
    if (i < ORTHOGONAL_MAX_2D - 1) {
        *dims = 2;
        layout[0] = 2 + i;
        layout[1] = 0;
        return;
    }
    i -= ORTHOGONAL_MAX_2D - 1;
    *dims = 3;
    layout[0] = 2 + i / (ORTHOGONAL_MAX_3D - 1);
    layout[1] = 2 + i % (ORTHOGONAL_MAX_3D - 1);
}

ac_registry ac_orthogonal_extend(ac_collective c, ac_registry base)
{
    const orthogonal_family *f = family_of(c);
    if (!f) return base;
    int n = ORTHOGONAL_PHASES * ORTHOGONAL_LAYOUTS, k = base.count;
    ac_algorithm *all = malloc(sizeof *all * (size_t)(base.count + n));
    orthogonal_instance *store = malloc(sizeof *store * (size_t)n);
    if (!all || !store) {
        free(all);
        free(store);
        return base;
    }
    memcpy(all, base.algorithms, sizeof *all * (size_t)base.count);
    for (int ph = 0; ph < ORTHOGONAL_PHASES; ph++) {
        const ac_algorithm *phase = f->phases[ph] ? find_in(base, f->phases[ph]) : NULL;
        for (int i = 0; i < ORTHOGONAL_LAYOUTS && phase; i++) {
            orthogonal_instance *s = &store[k - base.count];
            ac_algorithm *a = &all[k++];
            *a = f->base;
            s->params = (ac_params){.phase = phase};
            layout_at(i, &s->params.dims, s->params.layout);
            char layout[16];
            if (s->params.dims == 2)
                snprintf(layout, sizeof layout, "%dxn", s->params.layout[0]);
            else
                snprintf(layout, sizeof layout, "%dx%dxn", s->params.layout[0],
                         s->params.layout[1]);
            snprintf(s->name, sizeof s->name, "orthogonal_%s_%s", layout, phase->name);
            snprintf(s->group, sizeof s->group, "orthogonal_%dd", s->params.dims);
            snprintf(s->attributes, sizeof s->attributes,
                     "partners=mesh dims=%d layout=%s phase=%s data=pack", s->params.dims, layout,
                     phase->name);
            a->name = s->name;
            a->group = s->group;
            a->attributes = s->attributes;
            a->requires |= AC_REQ_MESH_LAYOUT;
            a->params = &s->params;
        }
    }
    return (ac_registry){all, k};
}
