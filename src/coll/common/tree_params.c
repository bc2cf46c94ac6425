/*
 * tree_params.c - the parameters of the registered tree instances (tree_instances.def), shared
 * by the bcast, reduce, scatter and gather registries and named as the instances are:
 * ac_<shape>_tree[_k<k>][_segment_<size>].
 */
#include "coll/common/tree.h"

#define AC_TREE_INSTANCE(id, group, kind, radix, bytes, ...)                                     \
    const ac_params ac_##id = {.tree = kind, .k = radix, .segment = bytes};
#include "coll/common/tree_instances.def"
#undef AC_TREE_INSTANCE
