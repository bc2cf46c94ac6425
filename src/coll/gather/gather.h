/* gather.h - the gather algorithms (one per file in this folder). */
#ifndef AUTOCOLL_GATHER_H
#define AUTOCOLL_GATHER_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(gather, native) /* the library's MPI_Igather */
AC_DECLARE_SCHEDULED(gather, orthogonal) /* p->dims, p->layout, p->phase (common/mesh.h) */
AC_DECLARE_SCHEDULED(gather, tree) /* p->tree, p->k, p->segment */
AC_DECLARE_SCHEDULED(gather, hier) /* p->intra[0], p->phase (hierarchical.c, phase.h) */
ac_gather_fn ac_gather_shm; /* through the node's shared memory (common/shm.h) */

#endif
