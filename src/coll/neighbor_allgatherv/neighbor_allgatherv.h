/* neighbor_allgatherv.h - the neighbor_allgatherv algorithms (one per file in this folder). */
#ifndef AUTOCOLL_NEIGHBOR_ALLGATHERV_H
#define AUTOCOLL_NEIGHBOR_ALLGATHERV_H

#include "coll/coll.h"

ac_neighbor_allgatherv_fn ac_neighbor_allgatherv_native;
ac_neighbor_allgatherv_fn ac_neighbor_allgatherv_blocks;

#endif
