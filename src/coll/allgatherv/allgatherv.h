/* allgatherv.h - the allgatherv algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLGATHERV_H
#define AUTOCOLL_ALLGATHERV_H

#include "coll/coll.h"

ac_allgatherv_fn ac_allgatherv_native;

#endif
