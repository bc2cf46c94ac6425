/*
 * report.h - the end-of-run report, written at MPI_Finalize from rank 0 of MPI_COMM_WORLD:
 * AUTOCOLL_REPORT=stderr prints a table, AUTOCOLL_REPORT=<path> writes JSON (schema
 * "autocoll-report", version 1; see docs/guide.md). A path containing %r makes every rank write its
 * own report, %r replaced by its rank in MPI_COMM_WORLD.
 */
#ifndef AUTOCOLL_REPORT_H
#define AUTOCOLL_REPORT_H

#include "core/state.h"

#include <stdio.h>

void ac_report_write(void);

/* The tuning contexts of `c` for `coll` as a JSON array, as in the report (the benchmark
 * driver records a layer's contexts with it). */
void ac_report_contexts_json(FILE *f, const ac_comm *c, ac_collective coll);

#endif
