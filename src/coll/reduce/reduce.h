/* reduce.h - the reduce algorithms (one per file in this folder). */
#ifndef AUTOCOLL_REDUCE_H
#define AUTOCOLL_REDUCE_H

#include "coll/coll.h"

AC_DECLARE_SCHEDULED(reduce, native) /* the library's MPI_Ireduce */
ac_reduce_fn ac_reduce_orthogonal; /* p->dims, p->layout, p->phase (common/mesh.h) */
AC_DECLARE_SCHEDULED(reduce, tree) /* p->tree, p->k, p->segment; NULL p: binomial, any op */
ac_reduce_fn ac_reduce_rabenseifner;
ac_reduce_fn ac_reduce_linear_ordered;
ac_reduce_fn ac_reduce_hier; /* p->intra[0], p->phase (hierarchical.c) */

/* A reduce call's arguments, kept where a schedule is built or started later: the native
 * schedule's library call, a racing request's builds (intercept/ireduce.c). */
typedef struct ac_reduce_args {
    const void *sbuf;
    void *rbuf;
    int count;
    MPI_Datatype dtype;
    MPI_Op op;
    int root;
} ac_reduce_args;

#endif
