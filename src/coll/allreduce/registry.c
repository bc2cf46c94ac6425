/*
 * registry.c - the allreduce algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 *
 * STAR-MPI section 3.1 keeps 20 allreduce algorithms of three types: all-gather then reduce
 * (5 all-gathers), Rab1-x (recursive halving then 9 all-gathers) and Rab2-(x, y) (all-to-all
 * then all-gather, 6 pairs). Recursive doubling and the ring complete the repository.
 */
#include "coll/algorithms.h"
#include "coll/common/cost_models.h"
#include "coll/cost_terms.h"

/* Parameters of the inner all-gathers and all-to-alls. */
static const ac_params sync_none = {.sync = AC_SYNC_NONE};
static const ac_params sync_light = {.sync = AC_SYNC_LIGHT};
static const ac_params sync_barrier = {.sync = AC_SYNC_BARRIER};
static const ac_params mesh_2d = {.dims = 2};
static const ac_params mesh_3d = {.dims = 3};

/* Composed instances: the all-gather (and all-to-all) each one runs, with its schedule where it
 * is written as one (then the instance is written as one too: its .sched). */
static const ac_params ag_simple = {.allgatherv = ac_allgatherv_simple,
                                    .allgatherv_schedule = ac_allgatherv_simple_schedule};
static const ac_params ag_mesh_2d = {.allgatherv = ac_allgatherv_mesh,
                                     .allgatherv_schedule = ac_allgatherv_mesh_schedule,
                                     .inner = &mesh_2d};
static const ac_params ag_mesh_3d = {.allgatherv = ac_allgatherv_mesh,
                                     .allgatherv_schedule = ac_allgatherv_mesh_schedule,
                                     .inner = &mesh_3d};
static const ac_params ag_recursive_doubling = {
    .allgatherv = ac_allgatherv_recursive_doubling,
    .allgatherv_schedule = ac_allgatherv_recursive_doubling_schedule};
static const ac_params ag_bruck = {.allgatherv = ac_allgatherv_bruck,
                                   .allgatherv_schedule = ac_allgatherv_bruck_schedule};
static const ac_params ag_ring = {.allgatherv = ac_allgatherv_ring,
                                  .allgatherv_schedule = ac_allgatherv_ring_schedule,
                                  .inner = &sync_none};
static const ac_params ag_ring_light = {.allgatherv = ac_allgatherv_ring,
                                        .allgatherv_schedule = ac_allgatherv_ring_schedule,
                                        .inner = &sync_light};
static const ac_params ag_ring_barrier = {.allgatherv = ac_allgatherv_ring,
                                          .allgatherv_schedule = ac_allgatherv_ring_schedule,
                                          .inner = &sync_barrier};
static const ac_params ag_node_ring = {.allgatherv = ac_allgatherv_node_ring,
                                       .allgatherv_schedule = ac_allgatherv_node_ring_schedule,
                                       .inner = &sync_none};

static const ac_params a2a_ring_ag_node_ring = {
    .alltoallv = ac_alltoallv_ring, .alltoallv_schedule = ac_alltoallv_ring_schedule,
    .inner2 = &sync_none, .allgatherv = ac_allgatherv_node_ring,
    .allgatherv_schedule = ac_allgatherv_node_ring_schedule, .inner = &sync_none};
static const ac_params a2a_ring_light_ag_node_ring = {
    .alltoallv = ac_alltoallv_ring, .alltoallv_schedule = ac_alltoallv_ring_schedule,
    .inner2 = &sync_light, .allgatherv = ac_allgatherv_node_ring,
    .allgatherv_schedule = ac_allgatherv_node_ring_schedule, .inner = &sync_none};
static const ac_params a2a_ring_barrier_ag_node_ring = {
    .alltoallv = ac_alltoallv_ring, .alltoallv_schedule = ac_alltoallv_ring_schedule,
    .inner2 = &sync_barrier, .allgatherv = ac_allgatherv_node_ring,
    .allgatherv_schedule = ac_allgatherv_node_ring_schedule, .inner = &sync_none};
static const ac_params a2a_ring_ag_ring = {
    .alltoallv = ac_alltoallv_ring, .alltoallv_schedule = ac_alltoallv_ring_schedule,
    .inner2 = &sync_none, .allgatherv = ac_allgatherv_ring,
    .allgatherv_schedule = ac_allgatherv_ring_schedule, .inner = &sync_none};
static const ac_params a2a_ring_light_ag_ring_light = {
    .alltoallv = ac_alltoallv_ring, .alltoallv_schedule = ac_alltoallv_ring_schedule,
    .inner2 = &sync_light, .allgatherv = ac_allgatherv_ring,
    .allgatherv_schedule = ac_allgatherv_ring_schedule, .inner = &sync_light};
static const ac_params a2a_ring_barrier_ag_ring_barrier = {
    .alltoallv = ac_alltoallv_ring, .alltoallv_schedule = ac_alltoallv_ring_schedule,
    .inner2 = &sync_barrier, .allgatherv = ac_allgatherv_ring,
    .allgatherv_schedule = ac_allgatherv_ring_schedule, .inner = &sync_barrier};

/* The cost models of the algorithms below (each entry's .cost, in the terms of cost_terms.h):
 * their files' "Cost: ..." corrected where SimGrid disagreed on a contention-free platform. */

/* the inner all-gather of the whole vectors, then their local reduction */
static const ac_cost_model allgather_cost = {
    AC_TERMS(AC_TERM(Q_N_P1, P_GAMMA, L_WORST, 1)),
    .inner = {{PART_ALLGATHERV, BLOCK_UNIT}}};
/* recursive halving on p' ranks after the fold of the ranks above p' (Rabenseifner), then
 * the inner all-gather of the p blocks */
static const ac_cost_model rabenseifner_cost = {
    AC_TERMS(AC_TERM(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_N_FRACTION_P2, P_BETA, L_SPLIT, 1),
             AC_TERM(Q_N_FRACTION_P2, P_GAMMA, L_WORST, 1),
             AC_TERM(Q_NOT_POW2, P_MESSAGE, L_WORST, 1),
             AC_TERM(Q_N_NOT_POW2, P_BETA, L_WORST, 1),
             AC_TERM(Q_N_NOT_POW2, P_GAMMA, L_WORST, 1)),
    .inner = {{PART_ALLGATHERV, BLOCK_FRACTION}}};
/* the inner all-to-all of the p blocks, their local reduction, the inner all-gather */
static const ac_cost_model alltoall_allgather_cost = {
    AC_TERMS(AC_TERM(Q_N_FRACTION, P_GAMMA, L_WORST, 1)),
    .inner = {{PART_ALLTOALLV, BLOCK_FRACTION}, {PART_ALLGATHERV, BLOCK_FRACTION}}};
static const ac_cost_model recursive_doubling_cost = {
    AC_TERMS(AC_TERM(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_N_FLOOR_LOG, P_BETA, L_SPLIT, 1),
             AC_TERM(Q_N_FLOOR_LOG, P_GAMMA, L_WORST, 1),
             AC_TERM(Q_NOT_POW2, P_MESSAGE, L_WORST, 2),
             AC_TERM(Q_N_NOT_POW2, P_BETA, L_WORST, 2),
             AC_TERM(Q_N_NOT_POW2, P_GAMMA, L_WORST, 1))};
static const ac_cost_model ring_cost = {
    AC_TERMS(AC_TERM(Q_P1, P_MESSAGE, L_WORST, 2),
             AC_TERM(Q_N_FRACTION, P_BETA, L_WORST, 2),
             AC_TERM(Q_N_FRACTION, P_GAMMA, L_WORST, 1))};

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(allreduce, ALLREDUCE, Allreduce), .sched.allreduce = ac_allreduce_native_schedule},

    /* STAR-MPI type 1: all-gather of the whole vectors, then a local reduction in rank order. */
    {.name = "allgather_bruck",
     .collective = AC_ALLREDUCE,
     .group = "allgather_reduce",
     .requires = AC_REQ_GATHERED_FITS_INT,
     .attributes = "family=allgather_reduce allgather=bruck sync=none order=rank data=pack",
     .fn.allreduce = ac_allreduce_allgather,
     .sched.allreduce = ac_allreduce_allgather_schedule,
     .params = &ag_bruck,
     .cost = &allgather_cost,
     .summary = "Bruck all-gather of all vectors, then local reduction in rank order"},
    {.name = "allgather_mesh_2d",
     .collective = AC_ALLREDUCE,
     .group = "allgather_reduce",
     .requires = AC_REQ_GATHERED_FITS_INT,
     .attributes = "family=allgather_reduce allgather=mesh dims=2 sync=none order=rank data=pack",
     .fn.allreduce = ac_allreduce_allgather,
     .sched.allreduce = ac_allreduce_allgather_schedule,
     .params = &ag_mesh_2d,
     .cost = &allgather_cost,
     .summary = "2D mesh all-gather of all vectors, then local reduction in rank order"},
    {.name = "allgather_mesh_3d",
     .collective = AC_ALLREDUCE,
     .group = "allgather_reduce",
     .requires = AC_REQ_GATHERED_FITS_INT,
     .attributes = "family=allgather_reduce allgather=mesh dims=3 sync=none order=rank data=pack",
     .fn.allreduce = ac_allreduce_allgather,
     .sched.allreduce = ac_allreduce_allgather_schedule,
     .params = &ag_mesh_3d,
     .cost = &allgather_cost,
     .summary = "3D mesh all-gather of all vectors, then local reduction in rank order"},
    {.name = "allgather_recursive_doubling",
     .collective = AC_ALLREDUCE,
     .group = "allgather_reduce",
     .requires = AC_REQ_GATHERED_FITS_INT,
     .attributes = "family=allgather_reduce allgather=recursive_doubling sync=none order=rank "
                   "data=pack",
     .fn.allreduce = ac_allreduce_allgather,
     .sched.allreduce = ac_allreduce_allgather_schedule,
     .params = &ag_recursive_doubling,
     .cost = &allgather_cost,
     .summary = "recursive doubling all-gather of all vectors, then local reduction in rank "
                "order"},
    {.name = "allgather_ring",
     .collective = AC_ALLREDUCE,
     .group = "allgather_reduce",
     .requires = AC_REQ_GATHERED_FITS_INT,
     .attributes = "family=allgather_reduce allgather=ring sync=none order=rank data=ddt",
     .fn.allreduce = ac_allreduce_allgather,
     .sched.allreduce = ac_allreduce_allgather_schedule,
     .params = &ag_ring,
     .cost = &allgather_cost,
     .summary = "ring all-gather of all vectors, then local reduction in rank order"},

    /* STAR-MPI type 2 (Rab1-x): recursive halving reduce-scatter, then an all-gather. */
    {.name = "rabenseifner_simple",
     .collective = AC_ALLREDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving allgather=simple "
                   "sync=none data=ddt",
     .requires = AC_REQ_COMMUTATIVE,
     .fn.allreduce = ac_allreduce_rabenseifner,
     .sched.allreduce = ac_allreduce_rabenseifner_schedule,
     .params = &ag_simple,
     .cost = &rabenseifner_cost,
     .summary = "recursive halving reduce-scatter, then simple (all at once) all-gather"},
    {.name = "rabenseifner_mesh_2d",
     .collective = AC_ALLREDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving allgather=mesh dims=2 "
                   "sync=none data=pack",
     .requires = AC_REQ_COMMUTATIVE | AC_REQ_MESSAGE_FITS_INT,
     .fn.allreduce = ac_allreduce_rabenseifner,
     .sched.allreduce = ac_allreduce_rabenseifner_schedule,
     .params = &ag_mesh_2d,
     .cost = &rabenseifner_cost,
     .summary = "recursive halving reduce-scatter, then 2D mesh all-gather"},
    {.name = "rabenseifner_mesh_3d",
     .collective = AC_ALLREDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving allgather=mesh dims=3 "
                   "sync=none data=pack",
     .requires = AC_REQ_COMMUTATIVE | AC_REQ_MESSAGE_FITS_INT,
     .fn.allreduce = ac_allreduce_rabenseifner,
     .sched.allreduce = ac_allreduce_rabenseifner_schedule,
     .params = &ag_mesh_3d,
     .cost = &rabenseifner_cost,
     .summary = "recursive halving reduce-scatter, then 3D mesh all-gather"},
    {.name = "rabenseifner_recursive_doubling",
     .collective = AC_ALLREDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving "
                   "allgather=recursive_doubling sync=none data=pack",
     .requires = AC_REQ_COMMUTATIVE | AC_REQ_MESSAGE_FITS_INT,
     .fn.allreduce = ac_allreduce_rabenseifner,
     .sched.allreduce = ac_allreduce_rabenseifner_schedule,
     .params = &ag_recursive_doubling,
     .cost = &rabenseifner_cost,
     .summary = "recursive halving reduce-scatter, then recursive doubling all-gather"},
    {.name = "rabenseifner_bruck",
     .collective = AC_ALLREDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving allgather=bruck "
                   "sync=none data=pack",
     .requires = AC_REQ_COMMUTATIVE | AC_REQ_MESSAGE_FITS_INT,
     .fn.allreduce = ac_allreduce_rabenseifner,
     .sched.allreduce = ac_allreduce_rabenseifner_schedule,
     .params = &ag_bruck,
     .cost = &rabenseifner_cost,
     .summary = "recursive halving reduce-scatter, then Bruck all-gather"},
    {.name = "rabenseifner_ring",
     .collective = AC_ALLREDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving allgather=ring "
                   "sync=none data=ddt",
     .requires = AC_REQ_COMMUTATIVE,
     .fn.allreduce = ac_allreduce_rabenseifner,
     .sched.allreduce = ac_allreduce_rabenseifner_schedule,
     .params = &ag_ring,
     .cost = &rabenseifner_cost,
     .summary = "recursive halving reduce-scatter, then ring all-gather"},
    {.name = "rabenseifner_ring_light_barrier",
     .collective = AC_ALLREDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving allgather=ring "
                   "sync=light data=ddt",
     .requires = AC_REQ_COMMUTATIVE,
     .fn.allreduce = ac_allreduce_rabenseifner,
     .sched.allreduce = ac_allreduce_rabenseifner_schedule,
     .params = &ag_ring_light,
     .cost = &rabenseifner_cost,
     .summary = "recursive halving reduce-scatter, then ring all-gather with light barriers"},
    {.name = "rabenseifner_ring_mpi_barrier",
     .collective = AC_ALLREDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving allgather=ring "
                   "sync=barrier data=ddt",
     .requires = AC_REQ_COMMUTATIVE,
     .fn.allreduce = ac_allreduce_rabenseifner,
     .sched.allreduce = ac_allreduce_rabenseifner_schedule,
     .params = &ag_ring_barrier,
     .cost = &rabenseifner_cost,
     .summary = "recursive halving reduce-scatter, then ring all-gather with MPI barriers"},
    {.name = "rabenseifner_node_ring",
     .collective = AC_ALLREDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving allgather=node_ring "
                   "sync=none topology=nodes data=ddt",
     .requires = AC_REQ_COMMUTATIVE | AC_REQ_NODE_LAYOUT,
     .fn.allreduce = ac_allreduce_rabenseifner,
     .sched.allreduce = ac_allreduce_rabenseifner_schedule,
     .params = &ag_node_ring,
     .cost = &rabenseifner_cost,
     .summary = "recursive halving reduce-scatter, then node-ordered logical ring all-gather"},

    /* STAR-MPI type 3 (Rab2-(x, y)): all-to-all reduce-scatter, then an all-gather. */
    {.name = "alltoall_ring_allgather_node_ring",
     .collective = AC_ALLREDUCE,
     .group = "alltoall_allgather",
     .attributes = "family=alltoall_allgather alltoall=ring alltoall_sync=none "
                   "allgather=node_ring allgather_sync=none sync=none topology=nodes order=rank "
                   "data=ddt",
     .requires = AC_REQ_NODE_LAYOUT,
     .fn.allreduce = ac_allreduce_alltoall_allgather,
     .sched.allreduce = ac_allreduce_alltoall_allgather_schedule,
     .params = &a2a_ring_ag_node_ring,
     .cost = &alltoall_allgather_cost,
     .summary = "ring all-to-all reduce-scatter, then node-ordered logical ring all-gather"},
    {.name = "alltoall_ring_light_barrier_allgather_node_ring",
     .collective = AC_ALLREDUCE,
     .group = "alltoall_allgather",
     .attributes = "family=alltoall_allgather alltoall=ring alltoall_sync=light "
                   "allgather=node_ring allgather_sync=none sync=light topology=nodes order=rank "
                   "data=ddt",
     .requires = AC_REQ_NODE_LAYOUT,
     .fn.allreduce = ac_allreduce_alltoall_allgather,
     .sched.allreduce = ac_allreduce_alltoall_allgather_schedule,
     .params = &a2a_ring_light_ag_node_ring,
     .cost = &alltoall_allgather_cost,
     .summary = "ring all-to-all (light barriers) reduce-scatter, then node-ordered ring "
                "all-gather"},
    {.name = "alltoall_ring_mpi_barrier_allgather_node_ring",
     .collective = AC_ALLREDUCE,
     .group = "alltoall_allgather",
     .attributes = "family=alltoall_allgather alltoall=ring alltoall_sync=barrier "
                   "allgather=node_ring allgather_sync=none sync=barrier topology=nodes "
                   "order=rank data=ddt",
     .requires = AC_REQ_NODE_LAYOUT,
     .fn.allreduce = ac_allreduce_alltoall_allgather,
     .sched.allreduce = ac_allreduce_alltoall_allgather_schedule,
     .params = &a2a_ring_barrier_ag_node_ring,
     .cost = &alltoall_allgather_cost,
     .summary = "ring all-to-all (MPI barriers) reduce-scatter, then node-ordered ring "
                "all-gather"},
    {.name = "alltoall_ring_allgather_ring",
     .collective = AC_ALLREDUCE,
     .group = "alltoall_allgather",
     .attributes = "family=alltoall_allgather alltoall=ring alltoall_sync=none allgather=ring "
                   "allgather_sync=none sync=none order=rank data=ddt",
     .fn.allreduce = ac_allreduce_alltoall_allgather,
     .sched.allreduce = ac_allreduce_alltoall_allgather_schedule,
     .params = &a2a_ring_ag_ring,
     .cost = &alltoall_allgather_cost,
     .summary = "ring all-to-all reduce-scatter, then ring all-gather"},
    {.name = "alltoall_ring_light_barrier_allgather_ring_light_barrier",
     .collective = AC_ALLREDUCE,
     .group = "alltoall_allgather",
     .attributes = "family=alltoall_allgather alltoall=ring alltoall_sync=light allgather=ring "
                   "allgather_sync=light sync=light order=rank data=ddt",
     .fn.allreduce = ac_allreduce_alltoall_allgather,
     .sched.allreduce = ac_allreduce_alltoall_allgather_schedule,
     .params = &a2a_ring_light_ag_ring_light,
     .cost = &alltoall_allgather_cost,
     .summary = "ring all-to-all reduce-scatter, then ring all-gather, both with light "
                "barriers"},
    {.name = "alltoall_ring_mpi_barrier_allgather_ring_mpi_barrier",
     .collective = AC_ALLREDUCE,
     .group = "alltoall_allgather",
     .attributes = "family=alltoall_allgather alltoall=ring alltoall_sync=barrier "
                   "allgather=ring allgather_sync=barrier sync=barrier order=rank data=ddt",
     .fn.allreduce = ac_allreduce_alltoall_allgather,
     .sched.allreduce = ac_allreduce_alltoall_allgather_schedule,
     .params = &a2a_ring_barrier_ag_ring_barrier,
     .cost = &alltoall_allgather_cost,
     .summary = "ring all-to-all reduce-scatter, then ring all-gather, both with MPI barriers"},

    {.name = "recursive_doubling",
     .collective = AC_ALLREDUCE,
     .group = "recursive_doubling",
     .attributes = "family=recursive_doubling partners=pair sync=none order=rank "
                   "primitive=blocking data=ddt",
     .fn.allreduce = ac_allreduce_recursive_doubling,
     .sched.allreduce = ac_allreduce_recursive_doubling_schedule,
     .cost = &recursive_doubling_cost,
     .summary = "recursive doubling exchange of whole vectors, rank-ordered (MPICH)"},
    {.name = "ring",
     .collective = AC_ALLREDUCE,
     .group = "ring",
     .attributes = "family=ring reduce_scatter=ring allgather=ring partners=ring sync=none "
                   "primitive=blocking data=ddt",
     .requires = AC_REQ_COMMUTATIVE,
     .fn.allreduce = ac_allreduce_ring,
     .sched.allreduce = ac_allreduce_ring_schedule,
     .cost = &ring_cost,
     .summary = "ring reduce-scatter then ring all-gather (bandwidth-optimal)"},
    {.name = "shm",
     .collective = AC_ALLREDUCE,
     .group = "shared_memory",
     .requires = AC_REQ_SHARED_MEMORY,
     .attributes = "partners=node sync=barrier primitive=shared_memory order=rank data=ddt",
     .fn.allreduce = ac_allreduce_shm,
     .cost = &ac_shm_reduce_cost,
     .summary = "through the node's shared memory: every rank reduces a share of every slot in "
                "rank order, every rank copies the result out (blocking only)"},
};

AC_REGISTRY(allreduce, algorithms);
