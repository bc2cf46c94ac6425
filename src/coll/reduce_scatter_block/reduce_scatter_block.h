/* reduce_scatter_block.h - the reduce_scatter_block algorithms (one per file in this folder). */
#ifndef AUTOCOLL_REDUCE_SCATTER_BLOCK_H
#define AUTOCOLL_REDUCE_SCATTER_BLOCK_H

#include "coll/coll.h"

ac_reduce_scatter_block_fn ac_reduce_scatter_block_native;
ac_reduce_scatter_block_fn ac_reduce_scatter_block_reduce_then_scatter;
ac_reduce_scatter_block_fn ac_reduce_scatter_block_pairwise;
ac_reduce_scatter_block_fn ac_reduce_scatter_block_recursive_halving;
ac_reduce_scatter_block_fn ac_reduce_scatter_block_hier; /* p->intra, p->phase (hierarchical.c) */

/* Helper of this folder (uniform.c): run a reduce_scatter engine with equal blocks. */
int ac_reduce_scatter_block_uniform(ac_reduce_scatter_fn *engine, const void *sbuf, void *rbuf,
                                    int rcount, MPI_Datatype dtype, MPI_Op op, MPI_Comm comm,
                                    const ac_params *p);

#endif
