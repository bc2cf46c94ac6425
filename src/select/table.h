/*
 * table.h - the configuration table (AUTOCOLL_TABLE; format in docs/table.md): rules mapping
 * (collective, communicator size interval, message size interval) to algorithms in order of
 * preference (format version 2; version 1, one algorithm a rule, is still read), written by
 * `autocoll tune`, and the measured cells behind them.
 *
 * Rank 0 reads the file at MPI_Init and broadcasts its text; every rank parses the same text,
 * so every rank finds the same rules (invariant 1), and keeps them only if every rank could. A
 * missing, unreadable or malformed file, one of another registry fingerprint, or one naming an
 * unknown algorithm is reported once by rank 0 with its path and reason, and ignored: no table.
 *
 * In table mode (AUTOCOLL_STRATEGY=table) selection runs, in each tuning context, the first
 * applicable algorithm of the rule covering it (native where none does or where none of its
 * algorithms is applicable to the call): a precedence step, not a strategy (select.c). With a
 * strategy the table's measured cell covering a context seeds it, as history does (history
 * first, when it knows the context).
 */
#ifndef AUTOCOLL_TABLE_H
#define AUTOCOLL_TABLE_H

#include "coll/coll.h"
#include "select/strategy.h"

#include <stddef.h>
#include <stdint.h>

typedef struct ac_table ac_table;

/* Parses a table's text (no MPI): the table, or NULL with the reason in `why`. `fingerprint` is
 * the registry fingerprint the table must carry; `library` (ac_library_line() of the running MPI
 * library, NULL: not checked) the library it must have been tuned with, when it records one
 * ("mpi_library"): a table tuned under another MPI library or version is refused. */
ac_table *ac_table_parse(const char *text, uint64_t fingerprint, const char *library, char *why,
                         size_t why_len);
void ac_table_free(ac_table *t);

/* The table as bytes (malloc'd, *len of them), or NULL without memory; rebuilt by
 * ac_table_unpack (NULL: bytes that are not such a table, or no memory). Rank 0 parses and
 * broadcasts it packed (ac_table_load). */
char *ac_table_pack(const ac_table *t, size_t *len);
ac_table *ac_table_unpack(const char *buf, size_t len);

/* The most algorithms one rule lists (format version 2). */
enum { AC_TABLE_MAX_ALGORITHMS = 8 };

/* The rule covering a call of `coll` on `comm_size` ranks moving `bytes` (docs/guide.md's
 * message size) on the node layout `shape` (ac_call.nodes; NULL or nodes 0: not known, and only
 * a rule without "nodes" and "ppn" covers it): its algorithms in order of preference (version 1:
 * one), their number into *n; NULL (*n 0) when no rule covers it. */
const ac_algorithm *const *ac_table_rule(const ac_table *t, ac_collective coll, int comm_size,
                                         unsigned long long bytes, const ac_node_shape *shape,
                                         int *n);

/* Whether some rule of `coll` names a node layout ("nodes" or "ppn"): then a call needs its
 * communicator's layout (ac_call_nodes) to find its rule. */
int ac_table_uses_nodes(const ac_table *t, ac_collective coll);

/* What the table runs for `call` moving `bytes`: the first of its covering rule's algorithms
 * that is applicable to the call (ac_applicable: the one place restrictions are checked), or
 * NULL when no rule covers the call or none of its algorithms applies. It depends only on the
 * rule and the call's facts, equal on every rank. */
const ac_algorithm *ac_table_choice(const ac_table *t, const ac_call *call,
                                    unsigned long long bytes);

/* The process count of the measured cells covering a call on comm_size ranks (the largest
 * measured count <= comm_size), -1 when none is. */
int ac_table_cell_ranks(const ac_table *t, ac_collective coll, int comm_size);

/* What the measured cell covering such a call knows of `candidates` (its statistic per
 * algorithm, matched by name; samples 1), into know[n] (zeroed first): the cell of the largest
 * measured size <= comm_size and, among those, of the largest measured message size <= bytes
 * (the smallest when bytes is below all). Returns the number of candidates known. */
int ac_table_cell_knowledge(const ac_table *t, ac_collective coll, int comm_size,
                            unsigned long long bytes, const ac_algorithm *const *candidates,
                            int n, ac_knowledge *know);

/* Collective over MPI_COMM_WORLD, from ac_init when AUTOCOLL_TABLE is set. */
void ac_table_load(void);
/* The table loaded at MPI_Init, or NULL. */
const ac_table *ac_table_loaded(void);
void ac_table_unload(void);

/* AUTOCOLL_STRATEGY=table (select.c): in each context the rule covering it runs; where none
 * does, native; a rule's first AUTOCOLL_TABLE_TRY candidates race with native (`trial`: race)
 * when that is more than one. */
extern const ac_strategy ac_strategy_table;

#endif
