/* neighbor_alltoallw.h - the neighbor_alltoallw algorithms (one per file in this folder). */
#ifndef AUTOCOLL_NEIGHBOR_ALLTOALLW_H
#define AUTOCOLL_NEIGHBOR_ALLTOALLW_H

#include "coll/coll.h"

ac_neighbor_alltoallw_fn ac_neighbor_alltoallw_native;
ac_neighbor_alltoallw_fn ac_neighbor_alltoallw_blocks;

#endif
