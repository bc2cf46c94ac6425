/*
 * registry.c - the allgatherv algorithms (STAR-MPI section 3.1, "Algorithms for
 * MPI_Allgather": the same set serves MPI_Allgatherv). Tests, autocoll-info, selection and
 * reports read this table; nobody keeps a second list.
 */
#include "coll/algorithms.h"
#include "coll/cost_terms.h"

static const ac_params mesh_2d = {.dims = 2};
static const ac_params mesh_3d = {.dims = 3};
static const ac_params sync_none = {.sync = AC_SYNC_NONE};
static const ac_params sync_light = {.sync = AC_SYNC_LIGHT};
static const ac_params sync_barrier = {.sync = AC_SYNC_BARRIER};

/* The cost models of the algorithms below (each entry's .cost, in the terms of cost_terms.h):
 * their files' "Cost: ..." corrected where SimGrid disagreed on a contention-free platform. */

/* every message posted at once: the latencies overlap, the rank's link carries the bytes */
static const ac_cost_model simple_cost = {
    AC_TERMS(AC_TERM(Q_ONE, P_ALPHA, L_WORST, 1),
             AC_TERM(Q_P1, P_OVERHEAD, L_WORST, 1),
             AC_TERM(Q_N_P1, P_BETA, L_WORST, 1))};
/* p - 1 steps one after the other, plus the phase synchronisation's (params->sync) */
static const ac_cost_model phased_cost = {
    AC_TERMS(AC_TERM(Q_P1, P_MESSAGE, L_WORST, 1),
             AC_TERM(Q_N_P1, P_BETA, L_WORST, 1),
             AC_TERM(Q_SYNC, P_MESSAGE, L_WORST, 1))};
static const ac_cost_model recursive_doubling_cost = {
    AC_TERMS(AC_TERM(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_NOT_POW2, P_MESSAGE, L_WORST, 2),
             AC_TERM(Q_N_P1, P_BETA, L_SPLIT, 1))};
static const ac_cost_model bruck_cost = {
    AC_TERMS(AC_TERM(Q_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_N_P1, P_BETA, L_SPLIT, 1))};
static const ac_cost_model mesh_cost = {
    AC_TERMS(AC_TERM(Q_MESH_PHASES, P_ALPHA, L_WORST, 1),
             AC_TERM(Q_MESH_STEPS, P_OVERHEAD, L_WORST, 1),
             AC_TERM(Q_N_P1, P_BETA, L_WORST, 1))};

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_ALLGATHERV,
     .group = "native",
     .attributes = "library=native",
     .fn.allgatherv = ac_allgatherv_native,
     .summary = "the MPI library's own MPI_Allgatherv"},
    {.name = "simple",
     .collective = AC_ALLGATHERV,
     .group = "simple",
     .attributes = "partners=all sync=none primitive=nonblocking data=ddt",
     .fn.allgatherv = ac_allgatherv_simple,
     .cost = &simple_cost,
     .summary = "all receives and sends posted at once, i -> i+1, i+2, ..."},
    {.name = "mesh_2d",
     .collective = AC_ALLGATHERV,
     .group = "small_message",
     .attributes = "partners=mesh dims=2 sync=none primitive=nonblocking data=pack",
     .fn.allgatherv = ac_allgatherv_mesh,
     .params = &mesh_2d,
     .cost = &mesh_cost,
     .summary = "all-gather along each dimension of a logical 2D mesh"},
    {.name = "mesh_3d",
     .collective = AC_ALLGATHERV,
     .group = "small_message",
     .attributes = "partners=mesh dims=3 sync=none primitive=nonblocking data=pack",
     .fn.allgatherv = ac_allgatherv_mesh,
     .params = &mesh_3d,
     .cost = &mesh_cost,
     .summary = "all-gather along each dimension of a logical 3D mesh"},
    {.name = "recursive_doubling",
     .collective = AC_ALLGATHERV,
     .group = "small_message",
     .attributes = "partners=pair sync=none primitive=blocking data=pack",
     .fn.allgatherv = ac_allgatherv_recursive_doubling,
     .cost = &recursive_doubling_cost,
     .summary = "lg p exchanges with r XOR 2^k; non-powers of two fold pairs of ranks"},
    {.name = "bruck",
     .collective = AC_ALLGATHERV,
     .group = "small_message",
     .attributes = "partners=shift sync=none primitive=blocking data=pack",
     .fn.allgatherv = ac_allgatherv_bruck,
     .cost = &bruck_cost,
     .summary = "Bruck: ceil(lg p) steps at distances 2^k on rotated blocks"},
    {.name = "ring",
     .collective = AC_ALLGATHERV,
     .group = "ring",
     .attributes = "partners=ring sync=none primitive=blocking data=ddt",
     .fn.allgatherv = ac_allgatherv_ring,
     .params = &sync_none,
     .cost = &phased_cost,
     .summary = "p-1 steps forwarding blocks around the ring r -> r+1"},
    {.name = "ring_light_barrier",
     .collective = AC_ALLGATHERV,
     .group = "ring",
     .attributes = "partners=ring sync=light primitive=blocking data=ddt",
     .fn.allgatherv = ac_allgatherv_ring,
     .params = &sync_light,
     .cost = &phased_cost,
     .summary = "ring with a zero-byte token exchange between steps"},
    {.name = "ring_mpi_barrier",
     .collective = AC_ALLGATHERV,
     .group = "ring",
     .attributes = "partners=ring sync=barrier primitive=blocking data=ddt",
     .fn.allgatherv = ac_allgatherv_ring,
     .params = &sync_barrier,
     .cost = &phased_cost,
     .summary = "ring with an MPI barrier between steps"},
    {.name = "pair",
     .collective = AC_ALLGATHERV,
     .group = "pair",
     .attributes = "partners=pair sync=none primitive=blocking data=ddt",
     .requires = AC_REQ_POWER_OF_TWO,
     .fn.allgatherv = ac_allgatherv_pair,
     .params = &sync_none,
     .cost = &phased_cost,
     .summary = "p-1 steps exchanging own blocks with r XOR i"},
    {.name = "pair_light_barrier",
     .collective = AC_ALLGATHERV,
     .group = "pair",
     .attributes = "partners=pair sync=light primitive=blocking data=ddt",
     .requires = AC_REQ_POWER_OF_TWO,
     .fn.allgatherv = ac_allgatherv_pair,
     .params = &sync_light,
     .cost = &phased_cost,
     .summary = "pair with a zero-byte token exchange between steps"},
    {.name = "pair_mpi_barrier",
     .collective = AC_ALLGATHERV,
     .group = "pair",
     .attributes = "partners=pair sync=barrier primitive=blocking data=ddt",
     .requires = AC_REQ_POWER_OF_TWO,
     .fn.allgatherv = ac_allgatherv_pair,
     .params = &sync_barrier,
     .cost = &phased_cost,
     .summary = "pair with an MPI barrier between steps"},
    {.name = "node_ring",
     .collective = AC_ALLGATHERV,
     .group = "node_ring",
     .attributes = "partners=ring topology=node sync=none primitive=blocking data=ddt",
     .fn.allgatherv = ac_allgatherv_node_ring,
     .params = &sync_none,
     .cost = &phased_cost,
     .summary = "ring over ranks ordered node by node (STAR-MPI TSLR idea)"},
};

AC_REGISTRY(allgatherv, algorithms);
