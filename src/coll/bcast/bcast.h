/* bcast.h - the bcast algorithms (one per file in this folder). */
#ifndef AUTOCOLL_BCAST_H
#define AUTOCOLL_BCAST_H

#include "coll/coll.h"

ac_bcast_fn ac_bcast_native;

#endif
