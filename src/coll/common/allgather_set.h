/*
 * allgather_set.h - the all-gather algorithms (STAR-MPI section 3.1, "Algorithms for
 * MPI_Allgather"), one list for the two collectives they serve: MPI_Allgatherv runs each
 * allgatherv engine, MPI_Allgather the same engine with uniform counts (allgather/registry.c and
 * allgatherv/registry.c make their registry entries from it, so the two sets cannot drift).
 *
 * X(name, engine, params, requires, max_bytes, cost, group, attributes, summary): `engine` is
 * the suffix of ac_allgather_<engine> and ac_allgatherv_<engine>; `max_bytes` is allgather's
 * (0: none; allgatherv's blocks have no one size); the cost models are in
 * common/cost_models.c, shared with the all-to-alls where simple and phased.
 */
#ifndef AUTOCOLL_ALLGATHER_SET_H
#define AUTOCOLL_ALLGATHER_SET_H

#include "coll/coll.h"

/* The engines written as schedules (common/sched.h): AC_ALLGATHER_SCHEDULE(engine, coll) is
 * ac_<coll>_<engine>_schedule for those, NULL for the engines that run for blocking calls only
 * (the registries' .sched). */
#define AC_ALLGATHER_SCHEDULED_simple(coll) ac_##coll##_simple_schedule
#define AC_ALLGATHER_SCHEDULED_mesh(coll) ac_##coll##_mesh_schedule
#define AC_ALLGATHER_SCHEDULED_recursive_doubling(coll) ac_##coll##_recursive_doubling_schedule
#define AC_ALLGATHER_SCHEDULED_bruck(coll) ac_##coll##_bruck_schedule
#define AC_ALLGATHER_SCHEDULED_ring(coll) ac_##coll##_ring_schedule
#define AC_ALLGATHER_SCHEDULED_pair(coll) ac_##coll##_pair_schedule
#define AC_ALLGATHER_SCHEDULED_node_ring(coll) ac_##coll##_node_ring_schedule
#define AC_ALLGATHER_SCHEDULE(engine, coll) AC_ALLGATHER_SCHEDULED_##engine(coll)

/* The parameters the set's entries name (one copy in each registry that includes this). */
static const ac_params mesh_2d = {.dims = 2};
static const ac_params mesh_3d = {.dims = 3};
static const ac_params sync_none = {.sync = AC_SYNC_NONE};
static const ac_params sync_light = {.sync = AC_SYNC_LIGHT};
static const ac_params sync_barrier = {.sync = AC_SYNC_BARRIER};

#define AC_ALLGATHER_SET(X)                                                                        \
    X("simple", simple, NULL, 0, 0, &ac_simple_cost, "simple",                                     \
      "partners=all sync=none primitive=nonblocking data=ddt",                                     \
      "all receives and sends posted at once, i -> i+1, i+2, ...")                                 \
    X("mesh_2d", mesh, &mesh_2d, 0, 256, &ac_allgather_mesh_cost, "small_message",                 \
      "partners=mesh dims=2 sync=none primitive=nonblocking data=pack",                            \
      "all-gather along each dimension of a logical 2D mesh")                                      \
    X("mesh_3d", mesh, &mesh_3d, 0, 256, &ac_allgather_mesh_cost, "small_message",                 \
      "partners=mesh dims=3 sync=none primitive=nonblocking data=pack",                            \
      "all-gather along each dimension of a logical 3D mesh")                                      \
    X("recursive_doubling", recursive_doubling, NULL, 0, 256,                                      \
      &ac_allgather_recursive_doubling_cost, "small_message",                                      \
      "partners=pair sync=none primitive=blocking data=pack",                                      \
      "lg p exchanges with r XOR 2^k; non-powers of two fold pairs of ranks")                      \
    X("bruck", bruck, NULL, 0, 256, &ac_allgather_bruck_cost, "small_message",                     \
      "partners=shift sync=none primitive=blocking data=pack",                                     \
      "Bruck: ceil(lg p) steps at distances 2^k on rotated blocks")                                \
    X("ring", ring, &sync_none, 0, 0, &ac_phased_cost, "ring",                                     \
      "partners=ring sync=none primitive=blocking data=ddt",                                       \
      "p-1 steps forwarding blocks around the ring r -> r+1")                                      \
    X("ring_light_barrier", ring, &sync_light, 0, 0, &ac_phased_cost, "ring",                      \
      "partners=ring sync=light primitive=blocking data=ddt",                                      \
      "ring with a zero-byte token exchange between steps")                                        \
    X("ring_mpi_barrier", ring, &sync_barrier, 0, 0, &ac_phased_cost, "ring",                      \
      "partners=ring sync=barrier primitive=blocking data=ddt",                                    \
      "ring with an MPI barrier between steps")                                                    \
    X("pair", pair, &sync_none, AC_REQ_POWER_OF_TWO, 0, &ac_pairwise_cost, "pair",                 \
      "partners=pair sync=none primitive=blocking data=ddt",                                       \
      "p-1 steps exchanging own blocks with r XOR i")                                              \
    X("pair_light_barrier", pair, &sync_light, AC_REQ_POWER_OF_TWO, 0, &ac_pairwise_cost, "pair",  \
      "partners=pair sync=light primitive=blocking data=ddt",                                      \
      "pair with a zero-byte token exchange between steps")                                        \
    X("pair_mpi_barrier", pair, &sync_barrier, AC_REQ_POWER_OF_TWO, 0, &ac_pairwise_cost, "pair",  \
      "partners=pair sync=barrier primitive=blocking data=ddt",                                    \
      "pair with an MPI barrier between steps")                                                    \
    X("node_ring", node_ring, &sync_none, AC_REQ_NODE_LAYOUT, 0, &ac_phased_cost, "node_ring",   \
      "partners=ring topology=node sync=none primitive=blocking data=ddt",                         \
      "ring over ranks ordered node by node (STAR-MPI TSLR idea)")

#endif
