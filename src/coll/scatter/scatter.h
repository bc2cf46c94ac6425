/* scatter.h - the scatter algorithms (one per file in this folder). */
#ifndef AUTOCOLL_SCATTER_H
#define AUTOCOLL_SCATTER_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(scatter, native) /* the library's MPI_Iscatter */
AC_DECLARE_SCHEDULED(scatter, orthogonal) /* p->dims, p->layout, p->phase (common/mesh.h) */
AC_DECLARE_SCHEDULED(scatter, tree) /* p->tree, p->k, p->segment */
AC_DECLARE_SCHEDULED(scatter, hier) /* p->intra[1], p->phase (hierarchical.c, phase.h) */
ac_scatter_fn ac_scatter_shm; /* through the node's shared memory (common/shm.h) */

#endif
