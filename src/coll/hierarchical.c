/*
 * hierarchical.c - the hierarchical (node-aware, two-level) family of the registry: for each
 * collective that has one, an intra-node phase on every node's communicator, an inter-node
 * phase among the node leaders, and the way back inside the nodes (as Open MPI's HAN and
 * MPICH's compositions do), described once in the table of families below and made on first
 * use.
 *
 * Names say what each phase runs: `hier_<intra>_<inter>` with one leader per node (the node's
 * lowest rank), `hier_k<k>_<intra>_<inter>` with k leaders per node, the node's first k ranks,
 * each taking a share of the data (multi-leader: allreduce, bcast, reduce, allgather, gather,
 * scatter, alltoall, reduce_scatter_block): share j is reduced on the node to local rank j (a
 * bcast's or scatter's root sends it there; an allgather's, a gather's and an all-to-all's is
 * the j-th piece of every rank's block, or blocks, gathered there; a reduce-scatter's the j-th
 * piece of every block, reduced there),
 * runs among the j-th ranks of every node (ac_nodes.lane), and comes back (a reduce's or
 * gather's root receives it from there; a scatter's and an all-to-all's is scattered on each
 * node).
 * <intra> is a registry name present in every intra-node sub-collective of the family (native:
 * the library's own, binomial_tree, ..., shm: through the node's shared memory, common/shm.h,
 * blocking only), <inter> a registry name of the inter-node
 * sub-collective. `hier_segment_<S>k_<intra>_native`, where the family has a pipeline (bcast,
 * reduce, allreduce): Open MPI HAN's, one leader a node, the message in segments of S KiB, the
 * leaders' phase the library's own, nonblocking, overlapping the nodes' phases of other
 * segments.
 *
 * Where an instance applies (AC_REQ_NODES, registry.c): the communicator's node layout is known
 * (ac_call_nodes), its ranks are on at least two nodes and some node has several (otherwise the
 * instance is its inter- or intra-node phase alone); with k leaders every node has at least k
 * ranks; a non-commutative reduction needs the nodes in blocks of consecutive ranks (a node's
 * partial result then covers a run of ranks and the nodes come in rank order); the inter-node
 * phase applies on the leaders' communicator and the intra-node phases on the smallest and the
 * largest node (on nodes of different sizes, only phases without a requirement on the size); a
 * gather's or scatter's phase among the leaders moves whole nodes' runs of blocks, of one size
 * only on nodes of one size: on others only native applies there (the family's equal_nodes),
 * and the instance then calls the library's MPI_Gatherv or MPI_Scatterv among the leaders.
 *
 * Each family's function is a schedule of its phases (common/phase.h): an instance is
 * progressed by nonblocking and persistent calls where every phase can be (written as a
 * schedule, the library's own included: ac_phase_progressable; not the shared-memory phases),
 * and runs for blocking calls only otherwise, as the pipelined instances do. A family without a
 * schedule (base.sched NULL) runs for blocking calls only.
 *
 * Instances are made once per collective (every combination of the family's phases and leader
 * counts), kept for the life of the process and shared by every size and by ac_registry_find,
 * so an algorithm has one address.
 */
#include "coll/algorithms.h"
#include "coll/common/phase.h"
#include "coll/cost_terms.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The instances' cost models (cost_terms.h, PART_HIER): no terms of their own, their phase
 * algorithms inside the nodes and among the leaders, with the bytes each phase moves. */
static const ac_cost_model hier_cost = {.inner = {{PART_HIER, BLOCK_UNIT}}};

#define NO_PHASE AC_NUM_COLLECTIVES

static const ac_hier_family families[] = {
    {.base = {.collective = AC_ALLREDUCE,
              .requires = AC_REQ_NODES,
              .fn.allreduce = ac_allreduce_hier,
              .sched.allreduce = ac_allreduce_hier_schedule,
              .cost = &hier_cost,
              .summary = "reduce on every node to its leaders, all-reduce among the leaders, "
                         "bcast on every node"},
     .intra = {AC_REDUCE, AC_BCAST},
     .inter = AC_ALLREDUCE,
     .intra_phases = {"native", "binomial_tree", "shm"},
     .inter_phases = {"native", "recursive_doubling", "ring", "rabenseifner_recursive_doubling"},
     .leaders = {1, 2, 4},
     .bytes = {AC_HIER_SHARE, AC_HIER_SHARE, AC_HIER_SHARE},
     .ordered = 1,
     .pipelined = {.fn.allreduce = ac_allreduce_hier_pipelined,
                   .cost = &hier_cost,
                   .summary = "segment by segment reduce on every node, reduce and bcast among "
                              "the leaders (the library's, nonblocking), bcast on every node, "
                              "four segments in flight (Open MPI's HAN)"},
     .segment = 64 << 10},
    {.base = {.collective = AC_BCAST,
              .requires = AC_REQ_NODES,
              .fn.bcast = ac_bcast_hier,
              .sched.bcast = ac_bcast_hier_schedule,
              .cost = &hier_cost,
              .summary = "the root to its node's leaders, bcast among the leaders, bcast on every "
                         "node"},
     .intra = {NO_PHASE, AC_BCAST},
     .inter = AC_BCAST,
     .intra_phases = {"native", "binomial_tree", "shm"},
     .inter_phases = {"native", "binomial_tree", "scatter_ring_allgather",
                      "chain_tree_segment_64k"},
     .leaders = {1, 2, 4},
     .bytes = {AC_HIER_WHOLE, AC_HIER_SHARE, AC_HIER_SHARE},
     .pipelined = {.fn.bcast = ac_bcast_hier_pipelined,
                   .cost = &hier_cost,
                   .summary = "the root to its node's leader, then segment by segment bcast "
                              "among the leaders (the library's, nonblocking) overlapped with "
                              "bcast on every node of the segment before (Open MPI's HAN)"},
     .segment = 64 << 10},
    {.base = {.collective = AC_REDUCE,
              .requires = AC_REQ_NODES,
              .fn.reduce = ac_reduce_hier,
              .sched.reduce = ac_reduce_hier_schedule,
              .cost = &hier_cost,
              .summary = "reduce on every node to its leaders, reduce among the leaders, the "
                         "root's node leaders to the root"},
     .intra = {AC_REDUCE, NO_PHASE},
     .inter = AC_REDUCE,
     .intra_phases = {"native", "binomial_tree", "shm"},
     .inter_phases = {"native", "binomial_tree", "rabenseifner"},
     .leaders = {1, 2, 4},
     .bytes = {AC_HIER_SHARE, AC_HIER_SHARE, AC_HIER_WHOLE},
     .ordered = 1,
     .pipelined = {.fn.reduce = ac_reduce_hier_pipelined,
                   .cost = &hier_cost,
                   .summary = "segment by segment reduce on every node overlapped with reduce "
                              "among the leaders of the segment before (the library's, "
                              "nonblocking), the root's node leader to the root (Open MPI's "
                              "HAN)"},
     .segment = 64 << 10},
    {.base = {.collective = AC_BARRIER,
              .requires = AC_REQ_NODES,
              .fn.barrier = ac_barrier_hier,
              .sched.barrier = ac_barrier_hier_schedule,
              .cost = &hier_cost,
              .summary = "barrier on every node, barrier among the leaders, barrier on every "
                         "node"},
     .intra = {AC_BARRIER, AC_BARRIER},
     .inter = AC_BARRIER,
     .intra_phases = {"native", "dissemination", "linear"},
     .inter_phases = {"native", "dissemination", "recursive_doubling"},
     .leaders = {1},
     .bytes = {AC_HIER_WHOLE, AC_HIER_WHOLE, AC_HIER_WHOLE}},
    {.base = {.collective = AC_GATHER,
              .requires = AC_REQ_BLOCKS_FIT_INT | AC_REQ_NODES,
              .fn.gather = ac_gather_hier,
              .sched.gather = ac_gather_hier_schedule,
              .cost = &hier_cost,
              .summary = "gather on every node to its leader, gather of the nodes' blocks among "
                         "the leaders (gatherv on nodes of different sizes), rank order at the "
                         "root"},
     .intra = {AC_GATHER, NO_PHASE},
     .inter = AC_GATHER,
     .intra_phases = {"native", "binomial_tree", "shm"},
     .inter_phases = {"native", "binomial_tree", "flat_tree"},
     .leaders = {1, 2, 4},
     .bytes = {AC_HIER_SHARE, AC_HIER_NODE_SHARE, AC_HIER_WHOLE},
     .equal_nodes = 1},
    {.base = {.collective = AC_SCATTER,
              .requires = AC_REQ_BLOCKS_FIT_INT | AC_REQ_NODES,
              .fn.scatter = ac_scatter_hier,
              .sched.scatter = ac_scatter_hier_schedule,
              .cost = &hier_cost,
              .summary = "the root's blocks in node order to its node's leader, scatter of the "
                         "nodes' blocks among the leaders (scatterv on nodes of different "
                         "sizes), scatter on every node"},
     .intra = {NO_PHASE, AC_SCATTER},
     .inter = AC_SCATTER,
     .intra_phases = {"native", "binomial_tree", "shm"},
     .inter_phases = {"native", "binomial_tree", "flat_tree"},
     .leaders = {1, 2, 4},
     .bytes = {AC_HIER_WHOLE, AC_HIER_NODE_SHARE, AC_HIER_SHARE},
     .equal_nodes = 1},
    {.base = {.collective = AC_ALLGATHER,
              .requires = AC_REQ_NODES | AC_REQ_BLOCKS_FIT_INT,
              .fn.allgather = ac_allgather_hier,
              .sched.allgather = ac_allgather_hier_schedule,
              .cost = &hier_cost,
              .summary = "gather on every node to its leaders, all-gather of the nodes' blocks "
                         "among the leaders, bcast on every node"},
     .intra = {AC_GATHER, AC_BCAST},
     .inter = AC_ALLGATHERV,
     .intra_phases = {"native", "binomial_tree", "shm"},
     .inter_phases = {"native", "ring", "recursive_doubling", "bruck"},
     .leaders = {1, 2, 4},
     .bytes = {AC_HIER_SHARE, AC_HIER_ALL_SHARE, AC_HIER_ALL_SHARE}},
    {.base = {.collective = AC_ALLTOALL,
              .requires = AC_REQ_NODES,
              .fn.alltoall = ac_alltoall_node_aware,
              .sched.alltoall = ac_alltoall_node_aware_schedule,
              .cost = &hier_cost,
              .summary = "gather every rank's blocks on its node to the leader, all-to-all of "
                         "the nodes' blocks among the leaders, scatter on every node"},
     .intra = {AC_GATHER, AC_SCATTER},
     .inter = AC_ALLTOALLV,
     .intra_phases = {"native", "binomial_tree", "shm"},
     .inter_phases = {"native", "simple", "ring", "pair"},
     .leaders = {1, 2, 4},
     .bytes = {AC_HIER_ALL_SHARE, AC_HIER_NODE_ALL_SHARE, AC_HIER_ALL_SHARE}},
    {.base = {.collective = AC_REDUCE_SCATTER_BLOCK,
              .requires = AC_REQ_NODES,
              .fn.reduce_scatter_block = ac_reduce_scatter_block_hier,
              .sched.reduce_scatter_block = ac_reduce_scatter_block_hier_schedule,
              .cost = &hier_cost,
              .summary = "reduce on every node to its leader, reduce-scatter of the nodes' "
                         "blocks among the leaders, scatter on every node"},
     .intra = {AC_REDUCE, AC_SCATTER},
     .inter = AC_REDUCE_SCATTER,
     .intra_phases = {"native", "binomial_tree"},
     .inter_phases = {"native", "pairwise", "recursive_halving", "reduce_then_scatter"},
     .leaders = {1, 2, 4},
     .bytes = {AC_HIER_SHARE, AC_HIER_SHARE, AC_HIER_RANK_SHARE},
     .ordered = 1},
};

enum { NFAMILIES = sizeof families / sizeof families[0] };

const ac_hier_family *ac_hier_family_of(ac_collective c)
{
    for (int i = 0; i < NFAMILIES; i++)
        if (families[i].base.collective == c) return &families[i];
    return NULL;
}

double ac_hier_scale(ac_hier_bytes rule, int p, int ppn, int k)
{
    switch (rule) {
    case AC_HIER_WHOLE: return 1.0;
    case AC_HIER_SHARE: return 1.0 / (k > 1 ? k : 1);
    case AC_HIER_NODE: return ppn;
    case AC_HIER_NODE_SHARE: return (double)ppn / (k > 1 ? k : 1);
    case AC_HIER_ALL: return p;
    case AC_HIER_ALL_SHARE: return (double)p / (k > 1 ? k : 1);
    case AC_HIER_NODE_ALL: return (double)ppn * p;
    case AC_HIER_NODE_ALL_SHARE: return (double)ppn * p / (k > 1 ? k : 1);
    case AC_HIER_RANK: return 1.0 / (p > 1 ? p : 1);
    case AC_HIER_RANK_SHARE: return 1.0 / (p > 1 ? p : 1) / (k > 1 ? k : 1);
    }
    return 1.0;
}

static int count_of(const char *const *names, int max)
{
    int n = 0;
    while (n < max && names[n])
        n++;
    return n;
}

static int leader_counts(const ac_hier_family *f)
{
    int n = 0;
    while (n < AC_HIER_LEADERS && f->leaders[n] > 0)
        n++;
    return n;
}

/* The pipelined instances of f: one per intra-node phase, none without a pipeline (the union's
 * one pointer tells). */
static int pipelined_count(const ac_hier_family *f)
{
    return f->pipelined.fn.bcast ? count_of(f->intra_phases, AC_HIER_PHASES) : 0;
}

static int family_size(const ac_hier_family *f)
{
    return leader_counts(f) * count_of(f->intra_phases, AC_HIER_PHASES) *
               count_of(f->inter_phases, AC_HIER_PHASES) +
           pipelined_count(f);
}

/* One instance and the storage its entry points to. */
typedef struct hier_instance {
    ac_algorithm algorithm;
    ac_params params;
    char name[96];
    char attributes[160];
} hier_instance;

/* Per family, its instances in registry order, made at once on first use and published. */
static _Atomic(hier_instance *) made[NFAMILIES > 0 ? NFAMILIES : 1];
static pthread_mutex_t made_lock = PTHREAD_MUTEX_INITIALIZER;

/* Instance of f with k leaders a node (0: the pipelined one, one leader) and the phases named
 * intra and inter. */
static int instance_fill(hier_instance *s, const ac_hier_family *f, int k, const char *intra,
                         const char *inter)
{
    char lead[32] = "";
    if (k > 1) snprintf(lead, sizeof lead, "k%d_", k);
    if (k == 0) snprintf(lead, sizeof lead, "segment_%dk_", f->segment >> 10);
    s->params = (ac_params){.phase = ac_registry_find(f->inter, inter), .leaders = k > 1 ? k : 1};
    if (k == 0) s->params.segment = f->segment;
    for (int i = 0; i < 2; i++)
        if (f->intra[i] != NO_PHASE && !(s->params.intra[i] = ac_registry_find(f->intra[i], intra)))
            return -1; /* a phase name missing from a sub-collective: a defect of the table */
    if (!s->params.phase) return -1;
    int named = snprintf(s->name, sizeof s->name, "hier_%s%s_%s", lead, intra, inter);
    int described = snprintf(s->attributes, sizeof s->attributes,
                             "partners=nodes leaders=%d intra=%s inter=%s data=%s",
                             s->params.leaders, intra, inter,
                             k > 1 ? "shares" : k == 0 ? "segments" : "whole");
    if (named >= (int)sizeof s->name || described >= (int)sizeof s->attributes) return -1;
    s->algorithm = f->base;
    /* progressed only where every phase can be (phase.h: the library's own in its turn);
     * otherwise, and the pipelined instance (its leaders' phase the library's, started segment
     * by segment), blocking only */
    int progressable = k != 0 && ac_phase_progressable(s->params.phase);
    for (int i = 0; i < 2; i++)
        if (s->params.intra[i] && !ac_phase_progressable(s->params.intra[i]))
            progressable = 0;
    if (!progressable) s->algorithm.sched.allreduce = NULL; /* the union's one pointer */
    if (k == 0) {
        /* SMPI 3.32's MPI_Ireduce, the leaders' phase of the reductions, is wrong on derived
         * types with user ops, then crashes (docs/simgrid.md): simulated, predefined ops only */
        if (AUTOCOLL_SIMULATED && f->base.collective != AC_BCAST)
            s->algorithm.requires |= AC_REQ_BUILTIN_OP;
        s->algorithm.fn = f->pipelined.fn;
        s->algorithm.cost = f->pipelined.cost;
        s->algorithm.summary = f->pipelined.summary;
    }
    s->algorithm.name = s->name;
    s->algorithm.group = k > 1    ? "hierarchical_multi_leader"
                         : k == 0 ? "hierarchical_pipelined"
                                  : "hierarchical";
    s->algorithm.attributes = s->attributes;
    s->algorithm.params = &s->params;
    return 0;
}

/* The instances of family i, made on first use; NULL without memory. */
static hier_instance *instances_of(int i)
{
    hier_instance *s = atomic_load_explicit(&made[i], memory_order_acquire);
    if (s) return s;
    pthread_mutex_lock(&made_lock);
    if (!(s = atomic_load_explicit(&made[i], memory_order_relaxed))) {
        const ac_hier_family *f = &families[i];
        int n = 0, ok = 1;
        s = calloc((size_t)family_size(f), sizeof *s);
        for (int l = 0; s && ok && l < leader_counts(f); l++)
            for (int a = 0; ok && a < count_of(f->intra_phases, AC_HIER_PHASES); a++)
                for (int b = 0; ok && b < count_of(f->inter_phases, AC_HIER_PHASES); b++)
                    ok = instance_fill(&s[n++], f, f->leaders[l], f->intra_phases[a],
                                       f->inter_phases[b]) == 0;
        for (int a = 0; s && ok && a < pipelined_count(f); a++) /* the library's among leaders */
            ok = instance_fill(&s[n++], f, 0, f->intra_phases[a], "native") == 0;
        if (s && !ok) {
            fprintf(stderr, "autocoll: the hierarchical family of %s names a phase its "
                            "sub-collective lacks\n",
                    ac_collective_name(f->base.collective));
            abort(); /* a defect of the table above, found by every test run */
        }
        if (s) atomic_store_explicit(&made[i], s, memory_order_release);
    }
    pthread_mutex_unlock(&made_lock);
    return s;
}

int ac_hier_instances(ac_collective c, int size, const ac_algorithm **out)
{
    for (int i = 0; i < NFAMILIES; i++) {
        if (families[i].base.collective != c) continue;
        int n = family_size(&families[i]);
        if (size < 3) return 0; /* two nodes and a node of two ranks take three */
        if (!out) return n;
        hier_instance *s = instances_of(i);
        if (!s) return -1;
        for (int k = 0; k < n; k++)
            out[k] = &s[k].algorithm;
        return n;
    }
    return 0;
}

const ac_algorithm *ac_hier_find(ac_collective c, const char *name)
{
    if (strncmp(name, "hier_", 5) != 0) return NULL;
    for (int i = 0; i < NFAMILIES; i++) {
        if (families[i].base.collective != c) continue;
        hier_instance *s = instances_of(i);
        for (int k = 0; s && k < family_size(&families[i]); k++)
            if (strcmp(s[k].name, name) == 0) return &s[k].algorithm;
    }
    return NULL;
}
