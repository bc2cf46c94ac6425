/* reduce.h - the reduce algorithms (one per file in this folder). */
#ifndef AUTOCOLL_REDUCE_H
#define AUTOCOLL_REDUCE_H

#include "coll/coll.h"

ac_reduce_fn ac_reduce_native;
ac_reduce_fn ac_reduce_orthogonal; /* p->dims, p->layout, p->phase (common/mesh.h) */
AC_DECLARE_SCHEDULED(reduce, tree) /* p->tree, p->k, p->segment; NULL p: binomial, any op */
ac_reduce_fn ac_reduce_rabenseifner;
ac_reduce_fn ac_reduce_linear_ordered;
ac_reduce_fn ac_reduce_hier; /* p->intra[0], p->phase (hierarchical.c) */

#endif
