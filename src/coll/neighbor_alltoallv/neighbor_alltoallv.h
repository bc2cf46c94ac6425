/* neighbor_alltoallv.h - the neighbor_alltoallv algorithms (one per file in this folder). */
#ifndef AUTOCOLL_NEIGHBOR_ALLTOALLV_H
#define AUTOCOLL_NEIGHBOR_ALLTOALLV_H

#include "coll/coll.h"

ac_neighbor_alltoallv_fn ac_neighbor_alltoallv_native;
ac_neighbor_alltoallv_fn ac_neighbor_alltoallv_blocks;

#endif
