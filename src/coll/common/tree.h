/*
 * tree.h - the tree engine of the rooted collectives (bcast, reduce, scatter, gather): given a
 * shape (binomial, binary, chain, flat, k-nomial), a root, a rank and a size, the rank's parent,
 * its children in a defined order and the subtree ranges that scatter and gather need. Pure
 * functions of their arguments (no MPI calls), so every rank computes the same tree and the
 * unit test (tests/unit/test_tree.c) checks the shapes without MPI.
 *
 * Ranks are numbered relative to the root: v = (rank - root) mod size, the root is v = 0.
 * In every shape the subtree of v is a run of consecutive relative ranks [v, v + subtree), and
 * v's children, by increasing relative rank, tile (v, v + subtree): child i's subtree starts
 * where child i-1's ends. So the blocks of a subtree are contiguous in relative order (one
 * message per tree edge for scatter and gather), and a reduction that combines
 * "own op child 0 op child 1 op ..." combines its operands in relative rank order.
 *
 *   binomial  k-nomial with k = 2 (MPICH's binomial tree): v's parent clears v's lowest set bit.
 *   k-nomial  v's parent clears v's lowest non-zero base-k digit; v's children are v + i*k^j
 *             (i = 1..k-1) for every k^j below v's lowest non-zero digit, each with the
 *             subtree [v + i*k^j, v + (i+1)*k^j). Depth ceil(log_k p), up to (k-1) log_k p
 *             children.
 *   binary    a balanced binary tree numbered in pre-order: the node of a subtree of n ranks
 *             [v, v + n) has a left child v + 1 with n/2 ranks and a right child v + 1 + n/2
 *             with the n - 1 - n/2 others. Depth floor(log2 p), at most two children.
 *             (Heap numbering, 2v+1 and 2v+2, would not give contiguous subtrees.)
 *   chain     v's child is v + 1: subtree [v, p). Depth p - 1.
 *   flat      the root's children are 1 .. p-1, every other rank is a leaf (the "sequential"
 *             tree of the Berkeley report).
 * Any size and any root: subtrees past p are simply clipped.
 */
#ifndef AUTOCOLL_TREE_H
#define AUTOCOLL_TREE_H

#include "coll/coll.h"

/* A tree shape: kind and radix (k is 2 for binomial, ignored for the other shapes). */
typedef struct ac_tree {
    ac_tree_kind kind;
    int k;
} ac_tree;

/* The shape an algorithm's parameters ask for (NULL params: binomial). */
ac_tree ac_tree_of(const ac_params *p);

/* One rank of a tree over `size` ranks rooted at `root`. Real ranks except where named
 * otherwise; arrays allocated by ac_tree_node(), freed by ac_tree_node_free(). */
typedef struct ac_tree_node {
    int vrank;       /* relative rank (rank - root) mod size */
    int parent;      /* real rank of the parent; -1 at the root */
    int subtree;     /* the subtree is relative ranks [vrank, vrank + subtree) */
    int nchildren;   /* children by increasing relative rank */
    int *child;      /* [nchildren] real rank of each child */
    int *child_size; /* [nchildren] size of each child's subtree (it starts at the child) */
} ac_tree_node;

/* Fills `node` for `rank`. Returns MPI_SUCCESS, or MPI_ERR_NO_MEM, or MPI_ERR_ARG for a size,
 * root, rank or radix out of range (k < 2 for a k-nomial tree). */
int ac_tree_node_get(ac_tree tree, int root, int rank, int size, ac_tree_node *node);
void ac_tree_node_free(ac_tree_node *node);

/* The order in which data-moving collectives serve the children: indices into node->child by
 * decreasing subtree size, later children first among equals (the binomial tree's "largest
 * subtree first", so the deepest subtree starts forwarding soonest). order has nchildren. */
void ac_tree_send_order(const ac_tree_node *node, int *order);

/* The same facts in relative numbering, without allocation: the relative parent of v (-1 for
 * v = 0), the size of v's subtree, v's number of children and its i-th child (relative,
 * 0 <= i < nchildren, increasing in i). 0 <= v < size. */
int ac_tree_parent(ac_tree tree, int v, int size);
int ac_tree_subtree(ac_tree tree, int v, int size);
int ac_tree_nchildren(ac_tree tree, int v, int size);
int ac_tree_child(ac_tree tree, int v, int size, int i);

/* The parameters of the registered tree instances (tree_instances.def, tree_params.c), named
 * as they are: ac_binomial_tree, ac_knomial_tree_k4_segment_8k, ... */
#define AC_TREE_INSTANCE(id, ...) extern const ac_params ac_##id;
#include "coll/common/tree_instances.def"
#undef AC_TREE_INSTANCE

/* The registry entry of one tree instance of tree_instances.def, for a rooted collective's
 * registry.c, which defines what differs between the collectives before it expands the list
 * with AC_TREE_INSTANCE = AC_TREE_ENTRY:
 *   TREE_COLLECTIVE                    its ac_collective
 *   TREE_ENGINE                        its tree engine, as `fn.bcast = ac_bcast_tree`
 *   TREE_REQUIRES                      AC_REQ_* flags of every instance
 *   TREE_FLAT_SHAPE                    the flat tree's words in the summary
 *   TREE_SUMMARY(shape, segmentation)  the summary from the shape's and segmentation's words
 *   TREE_ATTRIBUTES                    the attributes after tree= and segment=
 *   TREE_MAX_BYTES(kind, segment)      the advisory upper message size (0: none)
 *   TREE_COST                          the instances' cost model (an ac_cost_model, cost_terms.h)
 *   TREE_SCHED(segment)                the instance's schedule, a `sched` union initializer
 *                                      ({0}: blocking only)
 * A segmented instance is advised from two segments up (min_bytes). */
#define AC_TREE_ENTRY(id, group_, kind, k, segment, shape, attributes_, segmentation)          \
    {.name = #id,                                                                              \
     .collective = TREE_COLLECTIVE,                                                            \
     .group = #group_,                                                                         \
     .requires = TREE_REQUIRES,                                                                \
     .attributes = attributes_ TREE_ATTRIBUTES,                                                \
     .min_bytes = 2 * (segment),                                                               \
     .max_bytes = TREE_MAX_BYTES(kind, segment),                                               \
     .TREE_ENGINE,                                                                             \
     .sched = TREE_SCHED(segment),                                                             \
     .params = &ac_##id,                                                                       \
     .cost = &TREE_COST,                                                                       \
     .summary = TREE_SUMMARY(shape, segmentation)},

#endif
