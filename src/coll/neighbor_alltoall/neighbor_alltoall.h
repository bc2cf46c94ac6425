/* neighbor_alltoall.h - the neighbor_alltoall algorithms (one per file in this folder). */
#ifndef AUTOCOLL_NEIGHBOR_ALLTOALL_H
#define AUTOCOLL_NEIGHBOR_ALLTOALL_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(neighbor_alltoall, native)
AC_DECLARE_SCHEDULED(neighbor_alltoall, blocks)

#endif
