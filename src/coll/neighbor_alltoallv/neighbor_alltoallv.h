/* neighbor_alltoallv.h - the neighbor_alltoallv algorithms (one per file in this folder). */
#ifndef AUTOCOLL_NEIGHBOR_ALLTOALLV_H
#define AUTOCOLL_NEIGHBOR_ALLTOALLV_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(neighbor_alltoallv, native)
AC_DECLARE_SCHEDULED(neighbor_alltoallv, blocks)

#endif
