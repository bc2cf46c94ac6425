/*
 * registry.c - the reduce algorithms. Tests, autocoll-info, selection and reports read this
 * table; nobody keeps a second list.
 *
 * Tree instances (one engine, reduce_tree.c): <shape>_tree[_k<k>][_segment_<size>], shape binomial,
 * binary, chain, flat or knomial (k-nomial, radix k), size 1k, 8k or 64k (the pipeline
 * segment; none: unsegmented). One group per shape, so grouped search measures one instance
 * of each shape first. Parameters in common/tree_params.c.
 * Every tree instance keeps operand order (non-commutative ops: the tree is rooted at rank 0 and
 * the result sent to the root), so none requires a commutative op. binomial_tree is MPICH's
 * binomial reduce. rabenseifner: reduce-scatter by recursive halving, then gather to the root.
 */
#include "coll/algorithms.h"
#include "coll/common/tree.h"

static const ac_algorithm algorithms[] = {
    {.name = "native",
     .collective = AC_REDUCE,
     .group = "native",
     .attributes = "library=native",
     .fn.reduce = ac_reduce_native,
     .summary = "the MPI library's own MPI_Reduce"},
    {.name = "binomial_tree",
     .collective = AC_REDUCE,
     .group = "binomial_tree",
     .attributes = "tree=binomial segment=none partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .fn.reduce = ac_reduce_tree,
     .params = &ac_binomial_tree,
     .summary = "binomial tree, unsegmented; rank order (non-commutative: via rank 0)"},
    {.name = "binomial_tree_segment_1k",
     .collective = AC_REDUCE,
     .group = "binomial_tree",
     .attributes = "tree=binomial segment=1024 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 2048,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_binomial_tree_segment_1k,
     .summary = "binomial tree, pipelined in 1 KiB segments; rank order (non-commutative: via "
                "rank 0)"},
    {.name = "binomial_tree_segment_8k",
     .collective = AC_REDUCE,
     .group = "binomial_tree",
     .attributes = "tree=binomial segment=8192 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 16384,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_binomial_tree_segment_8k,
     .summary = "binomial tree, pipelined in 8 KiB segments; rank order (non-commutative: via "
                "rank 0)"},
    {.name = "binomial_tree_segment_64k",
     .collective = AC_REDUCE,
     .group = "binomial_tree",
     .attributes = "tree=binomial segment=65536 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 131072,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_binomial_tree_segment_64k,
     .summary = "binomial tree, pipelined in 64 KiB segments; rank order (non-commutative: via "
                "rank 0)"},
    {.name = "binary_tree",
     .collective = AC_REDUCE,
     .group = "binary_tree",
     .attributes = "tree=binary segment=none partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .fn.reduce = ac_reduce_tree,
     .params = &ac_binary_tree,
     .summary = "binary tree, unsegmented; rank order (non-commutative: via rank 0)"},
    {.name = "binary_tree_segment_1k",
     .collective = AC_REDUCE,
     .group = "binary_tree",
     .attributes = "tree=binary segment=1024 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 2048,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_binary_tree_segment_1k,
     .summary = "binary tree, pipelined in 1 KiB segments; rank order (non-commutative: via rank "
                "0)"},
    {.name = "binary_tree_segment_8k",
     .collective = AC_REDUCE,
     .group = "binary_tree",
     .attributes = "tree=binary segment=8192 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 16384,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_binary_tree_segment_8k,
     .summary = "binary tree, pipelined in 8 KiB segments; rank order (non-commutative: via rank "
                "0)"},
    {.name = "binary_tree_segment_64k",
     .collective = AC_REDUCE,
     .group = "binary_tree",
     .attributes = "tree=binary segment=65536 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 131072,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_binary_tree_segment_64k,
     .summary = "binary tree, pipelined in 64 KiB segments; rank order (non-commutative: via rank "
                "0)"},
    {.name = "chain_tree",
     .collective = AC_REDUCE,
     .group = "chain_tree",
     .attributes = "tree=chain segment=none partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .fn.reduce = ac_reduce_tree,
     .params = &ac_chain_tree,
     .summary = "chain, unsegmented; rank order (non-commutative: via rank 0)"},
    {.name = "chain_tree_segment_1k",
     .collective = AC_REDUCE,
     .group = "chain_tree",
     .attributes = "tree=chain segment=1024 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 2048,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_chain_tree_segment_1k,
     .summary = "chain, pipelined in 1 KiB segments; rank order (non-commutative: via rank 0)"},
    {.name = "chain_tree_segment_8k",
     .collective = AC_REDUCE,
     .group = "chain_tree",
     .attributes = "tree=chain segment=8192 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 16384,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_chain_tree_segment_8k,
     .summary = "chain, pipelined in 8 KiB segments; rank order (non-commutative: via rank 0)"},
    {.name = "chain_tree_segment_64k",
     .collective = AC_REDUCE,
     .group = "chain_tree",
     .attributes = "tree=chain segment=65536 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 131072,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_chain_tree_segment_64k,
     .summary = "chain, pipelined in 64 KiB segments; rank order (non-commutative: via rank 0)"},
    {.name = "flat_tree",
     .collective = AC_REDUCE,
     .group = "flat_tree",
     .attributes = "tree=flat segment=none partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .fn.reduce = ac_reduce_tree,
     .params = &ac_flat_tree,
     .summary = "flat tree (the root receives from every rank), unsegmented; rank order "
                "(non-commutative: via rank 0)"},
    {.name = "flat_tree_segment_1k",
     .collective = AC_REDUCE,
     .group = "flat_tree",
     .attributes = "tree=flat segment=1024 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 2048,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_flat_tree_segment_1k,
     .summary = "flat tree (the root receives from every rank), pipelined in 1 KiB segments; rank "
                "order (non-commutative: via rank 0)"},
    {.name = "flat_tree_segment_8k",
     .collective = AC_REDUCE,
     .group = "flat_tree",
     .attributes = "tree=flat segment=8192 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 16384,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_flat_tree_segment_8k,
     .summary = "flat tree (the root receives from every rank), pipelined in 8 KiB segments; rank "
                "order (non-commutative: via rank 0)"},
    {.name = "flat_tree_segment_64k",
     .collective = AC_REDUCE,
     .group = "flat_tree",
     .attributes = "tree=flat segment=65536 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 131072,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_flat_tree_segment_64k,
     .summary = "flat tree (the root receives from every rank), pipelined in 64 KiB segments; "
                "rank order (non-commutative: via rank 0)"},
    {.name = "knomial_tree_k4",
     .collective = AC_REDUCE,
     .group = "knomial_tree",
     .attributes = "tree=knomial k=4 segment=none partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .fn.reduce = ac_reduce_tree,
     .params = &ac_knomial_tree_k4,
     .summary = "4-nomial tree, unsegmented; rank order (non-commutative: via rank 0)"},
    {.name = "knomial_tree_k4_segment_1k",
     .collective = AC_REDUCE,
     .group = "knomial_tree",
     .attributes = "tree=knomial k=4 segment=1024 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 2048,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_knomial_tree_k4_segment_1k,
     .summary = "4-nomial tree, pipelined in 1 KiB segments; rank order (non-commutative: via "
                "rank 0)"},
    {.name = "knomial_tree_k4_segment_8k",
     .collective = AC_REDUCE,
     .group = "knomial_tree",
     .attributes = "tree=knomial k=4 segment=8192 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 16384,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_knomial_tree_k4_segment_8k,
     .summary = "4-nomial tree, pipelined in 8 KiB segments; rank order (non-commutative: via "
                "rank 0)"},
    {.name = "knomial_tree_k4_segment_64k",
     .collective = AC_REDUCE,
     .group = "knomial_tree",
     .attributes = "tree=knomial k=4 segment=65536 partners=tree sync=none order=rank "
                   "primitive=nonblocking data=ddt",
     .min_bytes = 131072,
     .fn.reduce = ac_reduce_tree,
     .params = &ac_knomial_tree_k4_segment_64k,
     .summary = "4-nomial tree, pipelined in 64 KiB segments; rank order (non-commutative: via "
                "rank 0)"},
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
