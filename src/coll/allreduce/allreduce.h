/* allreduce.h - the allreduce algorithms (one per file in this folder). */
#ifndef AUTOCOLL_ALLREDUCE_H
#define AUTOCOLL_ALLREDUCE_H

#include "coll/coll.h"

ac_allreduce_fn ac_allreduce_native;
ac_allreduce_fn ac_allreduce_orthogonal; /* p->dims, p->layout, p->phase (common/mesh.h) */
ac_allreduce_fn ac_allreduce_allgather;
ac_allreduce_fn ac_allreduce_rabenseifner;
ac_allreduce_fn ac_allreduce_alltoall_allgather;
ac_allreduce_fn ac_allreduce_recursive_doubling;
ac_allreduce_fn ac_allreduce_ring;
ac_allreduce_fn ac_allreduce_hier; /* p->intra, p->phase, p->leaders (hierarchical.c) */

#endif
