/* neighbor_allgather.h - the neighbor_allgather algorithms (one per file in this folder). */
#ifndef AUTOCOLL_NEIGHBOR_ALLGATHER_H
#define AUTOCOLL_NEIGHBOR_ALLGATHER_H

#include "coll/coll.h"

ac_neighbor_allgather_fn ac_neighbor_allgather_native;
ac_neighbor_allgather_fn ac_neighbor_allgather_blocks;

#endif
