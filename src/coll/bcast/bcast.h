/* bcast.h - the bcast algorithms (one per file in this folder). */
#ifndef AUTOCOLL_BCAST_H
#define AUTOCOLL_BCAST_H

#include "coll/coll.h"

ac_bcast_fn ac_bcast_native;
ac_bcast_fn ac_bcast_binomial;
ac_bcast_fn ac_bcast_scatter_ring_allgather;
ac_bcast_fn ac_bcast_linear;

#endif
