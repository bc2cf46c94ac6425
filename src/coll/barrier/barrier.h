/* barrier.h - the barrier algorithms (one per file in this folder). */
#ifndef AUTOCOLL_BARRIER_H
#define AUTOCOLL_BARRIER_H

#include "coll/coll.h"

ac_barrier_fn ac_barrier_native;
ac_barrier_fn ac_barrier_dissemination;
ac_barrier_fn ac_barrier_recursive_doubling;
ac_barrier_fn ac_barrier_linear;
ac_barrier_fn ac_barrier_hier; /* p->intra, p->phase (hierarchical.c) */

#endif
