/* neighbor_allgather.h - the neighbor_allgather algorithms (one per file in this folder). */
#ifndef AUTOCOLL_NEIGHBOR_ALLGATHER_H
#define AUTOCOLL_NEIGHBOR_ALLGATHER_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(neighbor_allgather, native)
AC_DECLARE_SCHEDULED(neighbor_allgather, blocks)

#endif
