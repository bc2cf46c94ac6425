/*
 * select.h - which algorithm runs a call. Precedence: forced by AUTOCOLL_<COLL> (when
 * applicable) > the strategy of the call's tuning context (AUTOCOLL_STRATEGY) > native. Every
 * input to the choice is equal on all ranks (invariant 1).
 */
#ifndef AUTOCOLL_SELECT_H
#define AUTOCOLL_SELECT_H

#include "coll/coll.h"
#include "core/state.h"

#include <stdio.h>

/* Read AUTOCOLL_STRATEGY and the strategies' settings (at initialisation). */
void ac_select_init(void);

/* Make strategy `name` the one new tuning contexts get (contexts keep theirs); 0 if there is
 * no such strategy. The benchmark driver uses it to run several strategies in one process. */
int ac_select_use_strategy(const char *name);

/* Facts of a call: op properties and message size from the type signature. */
void ac_call_set_op(ac_call *call, MPI_Op op);
size_t ac_signature_bytes(MPI_Aint count, MPI_Datatype dtype);

/* The algorithm of a call; `caller` is the return address of the MPI routine (the call site). */
const ac_algorithm *ac_select(ac_comm *c, const ac_call *call, const void *caller);

/* The tuning contexts and the buckets (site tracking) of `c` for `coll` as JSON arrays (for the
 * report). */
void ac_select_report_contexts(FILE *f, const ac_comm *c, ac_collective coll);
void ac_select_report_buckets(FILE *f, const ac_comm *c, ac_collective coll);

/* One text line per tuning context of `c` for `coll` (the columns: report.c). */
void ac_select_report_text(FILE *f, const ac_comm *c, ac_collective coll);

/* The knowledge of every tuning context this rank speaks for (it is rank 0 of the context's
 * communicator), as history file lines (history.h; called by ac_history_store). */
void ac_select_write_history(FILE *f);

/* Account for one call run by `alg`, which started at `start` (ac_now()) and has just ended. */
void ac_observe(ac_comm *c, const ac_call *call, const ac_algorithm *alg, double start);

#endif
