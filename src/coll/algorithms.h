/*
 * algorithms.h - every algorithm function, declared in src/coll/<coll>/<coll>.h (one per
 * collective). Each has its collective's MPI signature (on the private communicator) plus
 * `const ac_params *`.
 */
#ifndef AUTOCOLL_ALGORITHMS_H
#define AUTOCOLL_ALGORITHMS_H

#include "coll/coll.h"

#include "coll/allgather/allgather.h"
#include "coll/allgatherv/allgatherv.h"
#include "coll/allreduce/allreduce.h"
#include "coll/alltoall/alltoall.h"
#include "coll/alltoallv/alltoallv.h"
#include "coll/barrier/barrier.h"
#include "coll/bcast/bcast.h"
#include "coll/gather/gather.h"
#include "coll/reduce/reduce.h"
#include "coll/reduce_scatter/reduce_scatter.h"
#include "coll/reduce_scatter_block/reduce_scatter_block.h"
#include "coll/scatter/scatter.h"
#include "coll/neighbor_allgather/neighbor_allgather.h"
#include "coll/neighbor_allgatherv/neighbor_allgatherv.h"
#include "coll/neighbor_alltoall/neighbor_alltoall.h"
#include "coll/neighbor_alltoallv/neighbor_alltoallv.h"
#include "coll/neighbor_alltoallw/neighbor_alltoallw.h"

#endif
