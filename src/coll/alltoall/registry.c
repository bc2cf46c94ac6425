/*
 * registry.c - the alltoall algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 *
 * The 13 algorithms of STAR-MPI section 3.1, with node_aware / node_aware_ring in the place of
 * its two topology-specific ones. Groups follow STAR-MPI's grouping (section 4.2): simple;
 * small-message (mesh, recursive doubling, Bruck; advisory up to 256 bytes per block); the
 * phased algorithms (ring, pair) by their phase synchronisation; the topology-aware ones.
 */
#include "coll/algorithms.h"
#include "coll/cost_terms.h"
#include "coll/common/cost_models.h"

static const ac_params sync_none = {.sync = AC_SYNC_NONE};
static const ac_params sync_light = {.sync = AC_SYNC_LIGHT};
static const ac_params sync_barrier = {.sync = AC_SYNC_BARRIER};
static const ac_params mesh_2d = {.dims = 2};
static const ac_params mesh_3d = {.dims = 3};
static const ac_params leaders_simple = {.alltoallv = ac_alltoallv_simple,
                                        .alltoallv_schedule = ac_alltoallv_simple_schedule};
static const ac_params leaders_ring = {.alltoallv = ac_alltoallv_ring,
                                      .alltoallv_schedule = ac_alltoallv_ring_schedule,
                                      .inner2 = &sync_none};

/* shm: every rank copies (p - 1) blocks into the window and (p - 1) out, at once; one barrier
 * a chunk of 64 KiB / p a block (Q_SHM_ALLTOALL_SYNC_STEPS) */
static const ac_cost_model shm_cost = {
    AC_TERMS(AC_TERM(Q_N_P1, P_BETA, L_INTRA, 2),
             AC_TERM(Q_SHM_ALLTOALL_SYNC_STEPS, P_MESSAGE, L_INTRA, 1))};

/* The cost models of the algorithms below (each entry's .cost, in the terms of cost_terms.h):
 * their files' "Cost: ..." corrected where SimGrid disagreed on a contention-free platform.
 * Simple and phased are shared with the all-gathers and alltoallv: common/cost_models.c. */
static const ac_cost_model mesh_cost = {
    AC_TERMS(AC_TERM(Q_MESH_PHASES, P_ALPHA, L_MESH, 1),
             AC_TERM(Q_MESH_STEPS, P_OVERHEAD, L_MESH, 1),
             AC_TERM(Q_N_MESH, P_BETA, L_MESH, 1))};
static const ac_cost_model recursive_doubling_cost = {
    AC_TERMS(AC_TERM(Q_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_N_P1_P, P_BETA, L_SPLIT, 1))};
static const ac_cost_model bruck_cost = {
    AC_TERMS(AC_TERM(Q_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_N_HALF_P_LOG, P_BETA, L_SPLIT, 1))};
/* through the node's leader and back; the leaders' exchange is an inner part */
static const ac_cost_model node_aware_cost = {
    AC_TERMS(AC_TERM(Q_PPN1, P_MESSAGE, L_INTRA, 2),
             AC_TERM(Q_N_PPN1_P, P_BETA, L_INTRA, 2)),
    .inner = {{PART_LEADERS, BLOCK_UNIT}}};

static const ac_algorithm algorithms[] = {
    {AC_NATIVE(alltoall, ALLTOALL, Alltoall),
     .sched.alltoall = ac_alltoall_native_schedule},
    {.name = "simple",
     .collective = AC_ALLTOALL,
     .group = "simple",
     .attributes = "partners=all sync=none primitive=nonblocking data=ddt",
     .fn.alltoall = ac_alltoall_simple,
     .sched.alltoall = ac_alltoall_simple_schedule,
     .cost = &ac_simple_cost,
     .summary = "post every receive and send at once (i->i+1, i->i+2, ...), then wait"},
    {.name = "mesh_2d",
     .collective = AC_ALLTOALL,
     .group = "small_message",
     .attributes = "partners=mesh dims=2 sync=none primitive=nonblocking data=pack",
     .max_bytes = 256,
     .fn.alltoall = ac_alltoall_mesh,
     .sched.alltoall = ac_alltoall_mesh_schedule,
     .params = &mesh_2d,
     .cost = &mesh_cost,
     .summary = "x*y mesh, combined blocks exchanged along x then along y"},
    {.name = "mesh_3d",
     .collective = AC_ALLTOALL,
     .group = "small_message",
     .attributes = "partners=mesh dims=3 sync=none primitive=nonblocking data=pack",
     .max_bytes = 256,
     .fn.alltoall = ac_alltoall_mesh,
     .sched.alltoall = ac_alltoall_mesh_schedule,
     .params = &mesh_3d,
     .cost = &mesh_cost,
     .summary = "x*y*z mesh, combined blocks exchanged one dimension at a time"},
    {.name = "recursive_doubling",
     .collective = AC_ALLTOALL,
     .group = "small_message",
     .attributes = "partners=pair sync=none primitive=blocking data=pack",
     .requires = AC_REQ_POWER_OF_TWO | AC_REQ_TABLE_FITS,
     .max_bytes = 256,
     .fn.alltoall = ac_alltoall_recursive_doubling,
     .sched.alltoall = ac_alltoall_recursive_doubling_schedule,
     .cost = &recursive_doubling_cost,
     .summary = "all-gather of every block by recursive doubling, then keep one's own"},
    {.name = "bruck",
     .collective = AC_ALLTOALL,
     .group = "small_message",
     .attributes = "partners=shift sync=none primitive=blocking data=pack",
     .max_bytes = 256,
     .fn.alltoall = ac_alltoall_bruck,
     .sched.alltoall = ac_alltoall_bruck_schedule,
     .cost = &bruck_cost,
     .summary = "Bruck: rotate, ceil(lg p) steps of blocks with bit k set, rotate back"},
    {.name = "ring",
     .collective = AC_ALLTOALL,
     .group = "phased",
     .attributes = "partners=ring sync=none primitive=blocking data=ddt",
     .fn.alltoall = ac_alltoall_ring,
     .sched.alltoall = ac_alltoall_ring_schedule,
     .params = &sync_none,
     .cost = &ac_pairwise_cost,
     .summary = "p-1 phases, phase i sends to r+i and receives from r-i"},
    {.name = "ring_light_barrier",
     .collective = AC_ALLTOALL,
     .group = "phased_light_barrier",
     .attributes = "partners=ring sync=light primitive=blocking data=ddt",
     .fn.alltoall = ac_alltoall_ring,
     .sched.alltoall = ac_alltoall_ring_schedule,
     .params = &sync_light,
     .cost = &ac_pairwise_cost,
     .summary = "ring phases separated by zero-byte ready tokens"},
    {.name = "ring_mpi_barrier",
     .collective = AC_ALLTOALL,
     .group = "phased_mpi_barrier",
     .attributes = "partners=ring sync=barrier primitive=blocking data=ddt",
     .fn.alltoall = ac_alltoall_ring,
     .sched.alltoall = ac_alltoall_ring_schedule,
     .params = &sync_barrier,
     .cost = &ac_pairwise_cost,
     .summary = "ring phases separated by MPI_Barrier (lock-step)"},
    {.name = "pair",
     .collective = AC_ALLTOALL,
     .group = "phased",
     .attributes = "partners=pair sync=none primitive=blocking data=ddt",
     .fn.alltoall = ac_alltoall_pair,
     .sched.alltoall = ac_alltoall_pair_schedule,
     .params = &sync_none,
     .cost = &ac_pairwise_cost,
     .summary = "pairwise exchange, phase i with r XOR i (idle phases if p is not 2^k)"},
    {.name = "pair_light_barrier",
     .collective = AC_ALLTOALL,
     .group = "phased_light_barrier",
     .attributes = "partners=pair sync=light primitive=blocking data=ddt",
     .fn.alltoall = ac_alltoall_pair,
     .sched.alltoall = ac_alltoall_pair_schedule,
     .params = &sync_light,
     .cost = &ac_pairwise_cost,
     .summary = "pairwise exchange with a zero-byte token between phases"},
    {.name = "pair_mpi_barrier",
     .collective = AC_ALLTOALL,
     .group = "phased_mpi_barrier",
     .attributes = "partners=pair sync=barrier primitive=blocking data=ddt",
     .fn.alltoall = ac_alltoall_pair,
     .sched.alltoall = ac_alltoall_pair_schedule,
     .params = &sync_barrier,
     .cost = &ac_pairwise_cost,
     .summary = "pairwise exchange with MPI_Barrier between phases (lock-step)"},
    {.name = "node_aware",
     .collective = AC_ALLTOALL,
     .group = "node_aware",
     .attributes = "partners=hierarchical leaders=simple sync=none primitive=nonblocking "
                   "data=pack",
     .requires = AC_REQ_NODE_LAYOUT,
     .fn.alltoall = ac_alltoall_node_aware,
     .sched.alltoall = ac_alltoall_node_aware_schedule,
     .params = &leaders_simple,
     .cost = &node_aware_cost,
     .summary = "gather to node leaders, leaders exchange (simple), scatter on the node"},
    {.name = "node_aware_ring",
     .collective = AC_ALLTOALL,
     .group = "node_aware",
     .attributes = "partners=hierarchical leaders=ring sync=none primitive=nonblocking "
                   "data=pack",
     .requires = AC_REQ_NODE_LAYOUT,
     .fn.alltoall = ac_alltoall_node_aware,
     .sched.alltoall = ac_alltoall_node_aware_schedule,
     .params = &leaders_ring,
     .cost = &node_aware_cost,
     .summary = "gather to node leaders, leaders exchange (ring), scatter on the node"},
    {.name = "shm",
     .collective = AC_ALLTOALL,
     .group = "shared_memory",
     .requires = AC_REQ_SHARED_MEMORY | AC_REQ_BLOCKS_FIT_INT,
     .attributes = "partners=node sync=barrier primitive=shared_memory data=pack",
     .fn.alltoall = ac_alltoall_shm,
     .cost = &shm_cost,
     .summary = "through the node's shared memory: every rank copies its blocks in and its "
                "own out (blocking only)"},
};

AC_REGISTRY(alltoall, algorithms);
