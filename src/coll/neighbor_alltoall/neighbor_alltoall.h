/* neighbor_alltoall.h - the neighbor_alltoall algorithms (one per file in this folder). */
#ifndef AUTOCOLL_NEIGHBOR_ALLTOALL_H
#define AUTOCOLL_NEIGHBOR_ALLTOALL_H

#include "coll/coll.h"

ac_neighbor_alltoall_fn ac_neighbor_alltoall_native;
ac_neighbor_alltoall_fn ac_neighbor_alltoall_blocks;

#endif
