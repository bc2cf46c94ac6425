/* reduce_scatter_block.h - the reduce_scatter_block algorithms (one per file in this folder). */
#ifndef AUTOCOLL_REDUCE_SCATTER_BLOCK_H
#define AUTOCOLL_REDUCE_SCATTER_BLOCK_H

#include "coll/coll.h"

ac_reduce_scatter_block_fn ac_reduce_scatter_block_native;
ac_reduce_scatter_block_fn ac_reduce_scatter_block_reduce_then_scatter;
ac_reduce_scatter_block_fn ac_reduce_scatter_block_pairwise;
ac_reduce_scatter_block_fn ac_reduce_scatter_block_recursive_halving;

#endif
