/* reduce.h - the reduce algorithms (one per file in this folder). */
#ifndef AUTOCOLL_REDUCE_H
#define AUTOCOLL_REDUCE_H

#include "coll/coll.h"

ac_reduce_fn ac_reduce_native;
ac_reduce_fn ac_reduce_binomial;
ac_reduce_fn ac_reduce_linear_ordered;

#endif
