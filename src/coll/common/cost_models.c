/*
 * cost_models.c - the cost models several collectives' registries share (cost_models.h), in
 * the terms of cost_terms.h: their algorithm files' "Cost: ..." corrected where SimGrid
 * disagreed on a contention-free platform.
 */
#include "coll/common/cost_models.h"

/* allgather, allgatherv, alltoall, alltoallv */

/* every message posted at once: the latencies overlap, the rank's link carries the bytes, and
 * the node's link those of all its ranks to other nodes (L_ALL) */
const ac_cost_model ac_simple_cost = {
    AC_TERMS(AC_TERM(Q_ONE, P_ALPHA, L_WORST, 1),
             AC_TERM(Q_P1, P_OVERHEAD, L_WORST, 1),
             AC_TERM(Q_N_P1, P_BETA, L_ALL, 1))};
/* p - 1 steps one after the other to the ring's neighbours, plus the phase synchronisation's
 * (params->sync): one rank a node crosses to the next (L_WORST) */
const ac_cost_model ac_phased_cost = {
    AC_TERMS(AC_TERM(Q_P1, P_MESSAGE, L_WORST, 1),
             AC_TERM(Q_N_P1, P_BETA, L_WORST, 1),
             AC_TERM(Q_SYNC, P_MESSAGE, L_WORST, 1))};
/* p - 1 steps one after the other to partners r XOR i or r + i: the steps to other nodes take
 * every rank of a node across at once (L_ALL) */
const ac_cost_model ac_pairwise_cost = {
    AC_TERMS(AC_TERM(Q_P1, P_MESSAGE, L_ALL, 1),
             AC_TERM(Q_N_P1, P_BETA, L_ALL, 1),
             AC_TERM(Q_SYNC, P_MESSAGE, L_WORST, 1))};

/* allgather, allgatherv */
const ac_cost_model ac_allgather_recursive_doubling_cost = {
    AC_TERMS(AC_TERM(Q_FLOOR_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_NOT_POW2, P_MESSAGE, L_WORST, 2),
             AC_TERM(Q_N_P1, P_BETA, L_SPLIT, 1))};
const ac_cost_model ac_allgather_bruck_cost = {
    AC_TERMS(AC_TERM(Q_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_N_P1, P_BETA, L_SPLIT, 1))};
const ac_cost_model ac_allgather_mesh_cost = {
    AC_TERMS(AC_TERM(Q_MESH_PHASES, P_ALPHA, L_MESH, 1),
             AC_TERM(Q_MESH_STEPS, P_OVERHEAD, L_MESH, 1),
             AC_TERM(Q_N_P1, P_BETA, L_MESH, 1))};

/* reduce_scatter, reduce_scatter_block */
const ac_cost_model ac_reduce_scatter_pairwise_cost = {
    AC_TERMS(AC_TERM(Q_P1, P_MESSAGE, L_ALL, 1),
             AC_TERM(Q_N_FRACTION, P_BETA, L_ALL, 1),
             AC_TERM(Q_N_FRACTION, P_GAMMA, L_WORST, 1))};
const ac_cost_model ac_reduce_scatter_recursive_halving_cost = {
    AC_TERMS(AC_TERM(Q_LOG, P_MESSAGE, L_SPLIT, 1),
             AC_TERM(Q_N_FRACTION, P_BETA, L_SPLIT, 1),
             AC_TERM(Q_N_FRACTION, P_GAMMA, L_WORST, 1),
             AC_TERM(Q_N_NOT_POW2, P_BETA, L_WORST, 1),
             AC_TERM(Q_N_NOT_POW2, P_GAMMA, L_WORST, 1))};
const ac_cost_model ac_reduce_scatter_reduce_then_scatter_cost = {
    AC_TERMS(AC_TERM(Q_LOG, P_MESSAGE, L_SPLIT, 2),
             AC_TERM(Q_N_LOG, P_BETA, L_SPLIT, 1),
             AC_TERM(Q_N_LOG, P_GAMMA, L_WORST, 1),
             AC_TERM(Q_N_FRACTION, P_BETA, L_SPLIT, 1))};

/* gather, scatter: the model of the tree instances (TREE_COST; the shape of each tree is cost.c's
 * tree_shape) */
const ac_cost_model ac_gather_scatter_tree_cost = {
    AC_TERMS(AC_TERM(Q_ROOT_STEPS, P_ALPHA, L_TREE, 1),
             AC_TERM(Q_ROOT_MESSAGES, P_OVERHEAD, L_TREE, 1),
             AC_TERM(Q_ROOT_BYTES, P_BETA, L_TREE, 1))};

/* reduce, allreduce: through shared memory (ac_shm_reduce): every rank copies its vector in, reads
 * and reduces (p - 1) / p of it from the other slots, and copies the result out (the root, or
 * every rank at once), at the copy bandwidth inside a node; two barriers a chunk */
const ac_cost_model ac_shm_reduce_cost = {
    AC_TERMS(AC_TERM(Q_N, P_BETA, L_INTRA, 2),
             AC_TERM(Q_N_FRACTION, P_BETA, L_INTRA, 1),
             AC_TERM(Q_N_FRACTION, P_GAMMA, L_INTRA, 1),
             AC_TERM(Q_SHM_SYNC_STEPS, P_MESSAGE, L_INTRA, 2))};

/* gather, scatter, allgather through shared memory: the root (gather, scatter) or every rank
 * at once (allgather) copies the p - 1 other blocks out of the window or into it, while the
 * others' copies of one chunk overlap it but the first or the last; one barrier a chunk */
const ac_cost_model ac_shm_blocks_cost = {
    AC_TERMS(AC_TERM(Q_N_P1, P_BETA, L_INTRA, 1),
             AC_TERM(Q_SHM_CHUNK, P_BETA, L_INTRA, 1),
             AC_TERM(Q_SHM_SYNC_STEPS, P_MESSAGE, L_INTRA, 1))};
