/* allgather.h - the allgather algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLGATHER_H
#define AUTOCOLL_ALLGATHER_H

#include "coll/coll.h"

ac_allgather_fn ac_allgather_native;

#endif
