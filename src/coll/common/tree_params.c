/*
 * tree_params.c - the parameters of the registered tree instances, shared by the bcast,
 * reduce, scatter and gather registries: every shape of tree.h unsegmented and with 1, 8 and
 * 64 KiB segments (the k-nomial tree with k = 4). Named as the instances are:
 * <shape>_tree[_k<k>][_segment_<size>].
 */
#include "coll/common/tree.h"

const ac_params ac_binomial_tree = {.tree = AC_TREE_BINOMIAL};
const ac_params ac_binomial_tree_segment_1k = {.tree = AC_TREE_BINOMIAL, .segment = 1024};
const ac_params ac_binomial_tree_segment_8k = {.tree = AC_TREE_BINOMIAL, .segment = 8192};
const ac_params ac_binomial_tree_segment_64k = {.tree = AC_TREE_BINOMIAL, .segment = 65536};
const ac_params ac_binary_tree = {.tree = AC_TREE_BINARY};
const ac_params ac_binary_tree_segment_1k = {.tree = AC_TREE_BINARY, .segment = 1024};
const ac_params ac_binary_tree_segment_8k = {.tree = AC_TREE_BINARY, .segment = 8192};
const ac_params ac_binary_tree_segment_64k = {.tree = AC_TREE_BINARY, .segment = 65536};
const ac_params ac_chain_tree = {.tree = AC_TREE_CHAIN};
const ac_params ac_chain_tree_segment_1k = {.tree = AC_TREE_CHAIN, .segment = 1024};
const ac_params ac_chain_tree_segment_8k = {.tree = AC_TREE_CHAIN, .segment = 8192};
const ac_params ac_chain_tree_segment_64k = {.tree = AC_TREE_CHAIN, .segment = 65536};
const ac_params ac_flat_tree = {.tree = AC_TREE_FLAT};
const ac_params ac_flat_tree_segment_1k = {.tree = AC_TREE_FLAT, .segment = 1024};
const ac_params ac_flat_tree_segment_8k = {.tree = AC_TREE_FLAT, .segment = 8192};
const ac_params ac_flat_tree_segment_64k = {.tree = AC_TREE_FLAT, .segment = 65536};
const ac_params ac_knomial_tree_k4 = {.tree = AC_TREE_KNOMIAL, .k = 4};
const ac_params ac_knomial_tree_k4_segment_1k = {.tree = AC_TREE_KNOMIAL, .k = 4, .segment = 1024};
const ac_params ac_knomial_tree_k4_segment_8k = {.tree = AC_TREE_KNOMIAL, .k = 4, .segment = 8192};
const ac_params ac_knomial_tree_k4_segment_64k = {
    .tree = AC_TREE_KNOMIAL, .k = 4, .segment = 65536};
