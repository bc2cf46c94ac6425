/* neighbor_allgatherv.h - the neighbor_allgatherv algorithms (one per file in this folder). */
#ifndef AUTOCOLL_NEIGHBOR_ALLGATHERV_H
#define AUTOCOLL_NEIGHBOR_ALLGATHERV_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(neighbor_allgatherv, native)
AC_DECLARE_SCHEDULED(neighbor_allgatherv, blocks)

#endif
