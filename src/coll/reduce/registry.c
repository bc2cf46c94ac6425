/*
 * registry.c - the reduce algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 *
 * Tree instances (one engine, reduce_tree.c): <shape>_tree[_k<k>][_segment_<size>], shape binomial,
 * binary, chain, flat or knomial (k-nomial, radix k), size 1k, 8k or 64k (the pipeline
 * segment; none: unsegmented). One group per shape, so grouped search measures one instance
 * of each shape first. Declared once in common/tree_instances.def.
 * Every tree instance keeps operand order (non-commutative ops: the tree is rooted at rank 0 and
 * the result sent to the root), so none requires a commutative op. binomial_tree is MPICH's
 * binomial reduce. rabenseifner: reduce-scatter by recursive halving, then gather to the root.
 */
#include "coll/algorithms.h"
#include "coll/common/tree.h"

/* What this collective's tree instances (tree_instances.def) have of their own. */
#define TREE_COLLECTIVE AC_REDUCE
#define TREE_ENGINE fn.reduce = ac_reduce_tree
#define TREE_REQUIRES 0
#define TREE_FLAT_SHAPE "flat tree (the root receives from every rank)"
#define TREE_SUMMARY(shape, segmentation)                                                         \
    shape ", " segmentation "; rank order (non-commutative: via rank 0)"
#define TREE_ATTRIBUTES " partners=tree sync=none order=rank primitive=nonblocking data=ddt"
#define TREE_MAX_BYTES(kind, segment) 0

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_REDUCE,
     .group = "native",
     .attributes = "library=native",
     .fn.reduce = ac_reduce_native,
     .summary = "the MPI library's own MPI_Reduce"},
#define AC_TREE_INSTANCE AC_TREE_ENTRY
#include "coll/common/tree_instances.def"
#undef AC_TREE_INSTANCE
    {.name = "rabenseifner",
     .collective = AC_REDUCE,
     .group = "rabenseifner",
     .attributes = "family=rabenseifner reduce_scatter=recursive_halving gather=binomial "
                   "partners=pair sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce = ac_reduce_rabenseifner,
     .summary = "recursive halving reduce-scatter (rank order kept), then binomial gather to "
                "the root"},
    {.name = "linear_ordered",
     .collective = AC_REDUCE,
     .group = "linear",
     .attributes = "tree=flat partners=all sync=none order=rank primitive=blocking data=ddt",
     .fn.reduce = ac_reduce_linear_ordered,
     .summary = "the root receives every vector and combines them in rank order"},
};

AC_REGISTRY(reduce, algorithms);
