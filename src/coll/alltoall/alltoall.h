/* alltoall.h - the alltoall algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLTOALL_H
#define AUTOCOLL_ALLTOALL_H

#include "coll/coll.h"

ac_alltoall_fn ac_alltoall_native;

#endif
