/*
 * select.h - which algorithm runs a call. Precedence: forced by AUTOCOLL_<COLL> (when
 * applicable) > native. Strategies (later issues) slot in between. Every input to the choice is
 * equal on all ranks (invariant 1).
 */
#ifndef AUTOCOLL_SELECT_H
#define AUTOCOLL_SELECT_H

#include "coll/coll.h"
#include "core/state.h"

#include <stdio.h>

/* Read AUTOCOLL_STRATEGY and the strategies' settings (at initialisation). */
void ac_select_init(void);

/* Facts of a call: op properties and message size from the type signature. */
void ac_call_set_op(ac_call *call, MPI_Op op);
size_t ac_signature_bytes(MPI_Aint count, MPI_Datatype dtype);

const ac_algorithm *ac_select(ac_comm *c, const ac_call *call);

/* The tuning contexts of `c` for `coll` as a JSON array (for the report). */
void ac_select_report_contexts(FILE *f, const ac_comm *c, ac_collective coll);

/* Account for one call run by `alg` taking `seconds`. */
void ac_observe(ac_comm *c, const ac_call *call, const ac_algorithm *alg, double seconds);

#endif
