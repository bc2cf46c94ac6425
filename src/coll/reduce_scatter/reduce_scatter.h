/* reduce_scatter.h - the reduce_scatter algorithms (one per file in this folder). */
#ifndef AUTOCOLL_REDUCE_SCATTER_H
#define AUTOCOLL_REDUCE_SCATTER_H

#include "coll/coll.h"

ac_reduce_scatter_fn ac_reduce_scatter_native;
ac_reduce_scatter_fn ac_reduce_scatter_reduce_then_scatter;
ac_reduce_scatter_fn ac_reduce_scatter_pairwise;
ac_reduce_scatter_fn ac_reduce_scatter_recursive_halving;

#endif
