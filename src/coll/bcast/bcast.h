/* bcast.h - the bcast algorithms (one per file in this folder). */
#ifndef AUTOCOLL_BCAST_H
#define AUTOCOLL_BCAST_H

#include "coll/coll.h"

ac_bcast_fn ac_bcast_native;
ac_bcast_fn ac_bcast_orthogonal; /* p->dims, p->layout, p->phase (common/mesh.h) */
ac_bcast_fn ac_bcast_tree;              /* p->tree, p->k, p->segment */
ac_bcast_fn ac_bcast_scatter_allgather; /* p->allgatherv (default ring), p->tree of the scatter */
ac_bcast_fn ac_bcast_hier; /* p->intra[1], p->phase (hierarchical.c) */
ac_bcast_fn ac_bcast_hier_pipelined; /* p->intra[1], p->phase, p->segment (hierarchical.c) */

#endif
