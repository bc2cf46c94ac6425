/* alltoallv.h - the alltoallv algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLTOALLV_H
#define AUTOCOLL_ALLTOALLV_H

#include "coll/coll.h"

ac_alltoallv_fn ac_alltoallv_native;

#endif
