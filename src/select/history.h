/*
 * history.h - learned state kept between runs (AUTOCOLL_HISTORY; docs/history.md).
 *
 * At MPI_Finalize the strategies' knowledge of every tuning context (ac_knowledge per
 * candidate) is merged into a history file, in the section of this run's platform fingerprint
 * (MPI library and version, process count, nodes, processes per node, registry fingerprint and
 * the network: AUTOCOLL_PLATFORM, or the host names with their digits masked, so that a new
 * allocation of the same cluster shares it). At MPI_Init rank 0 reads the file and broadcasts
 * its section's records, so every rank starts its contexts warm from the same knowledge
 * (invariant 1). Writers take a lock, re-read what
 * other jobs wrote meanwhile, merge, and replace the file atomically. A missing, unreadable,
 * corrupt, foreign or unwritable file is reported once by rank 0 and ignored: the run starts
 * cold, and a file that does not parse is never overwritten. The file is core/store.h's keyed
 * record store; its kinds of record belong to their clients: contexts (here), a strategy's own
 * record (strategy.h: `record`), and the kinds other layers declare (ADCL's requests).
 */
#ifndef AUTOCOLL_HISTORY_H
#define AUTOCOLL_HISTORY_H

#include "coll/coll.h"
#include "core/store.h"
#include "select/strategy.h"

#include <stdint.h>
#include <stdio.h>

/* What identifies a context across runs: its bucket (select.c) on a communicator of a size,
 * and its agreed call site (module-relative; 0: site-less). */
typedef struct ac_history_key {
    int collective; /* ac_collective */
    int comm_size;
    unsigned long long bytes;
    int count, op_builtin, op_commutative;
    uint64_t site;
} ac_history_key;

/* Collective over MPI_COMM_WORLD, from ac_init when a strategy is in use: reads the setting,
 * the fingerprint and (rank 0) the file; every rank gets the same records of its section, or
 * none does. */
void ac_history_load(void);

/* What history knows of a new context's candidates, into know[n] (zeroed first, matched by
 * name); returns the number of candidates known. */
int ac_history_lookup(const ac_history_key *key, const ac_algorithm *const *candidates, int n,
                      ac_knowledge *know);

/* Collective over MPI_COMM_WORLD, at finalisation: gathers every rank's `contexts` (lines
 * written with ac_history_write_context: each communicator's rank 0 speaks for its contexts;
 * NULL or empty: none) and the lines it kept (ac_history_keep) to world rank 0, which merges
 * them into the file. */
void ac_history_store(const char *contexts, size_t len);

/* A kind of record of a client beside selection (ADCL's requests: src/adcl/history.c), so that
 * the file's lines of that kind are read and kept: declared before ac_history_load (MPI_Init)
 * and any merge. The kinds of the strategies' own records need no declaration. */
void ac_history_declare(const ac_store_kind *kind);

/* A record of a client's kind (a strategy's `record`, a declared kind): named values, each with
 * the evidence behind it as its samples (e.g. the model's platform parameters, an ADCL
 * request's functions), merged like a context's candidates. What history knows of the record
 * of `key` ("" for a kind without one) of names[n] into know[n] (zeroed first, seconds: the
 * value); returns how many are known (0 when history is off). */
int ac_history_lookup_record(const ac_store_kind *kind, const char *key,
                             const char *const *names, int n, ac_knowledge *know);
/* The record as a line of the file format (names with samples == 0 and names the format
 * cannot hold are left out; nothing is written when none is known). `key` as the kind writes
 * it. */
void ac_history_write_record(FILE *f, const ac_store_kind *kind, const char *key,
                             const char *const *names, int n, const ac_knowledge *know);
/* Keeps lines (as written above) until ac_history_store, which adds them to this rank's; does
 * nothing when history is off. */
void ac_history_keep(const char *lines);

/* The file in use, or NULL when history is off (the report). */
const char *ac_history_path(void);

/* One context as a line of the file format (select.c writes its contexts with it). Candidates
 * with samples == 0 are left out; nothing is written when none is known. */
void ac_history_write_context(FILE *f, const ac_history_key *key,
                              const ac_algorithm *const *candidates, int n,
                              const ac_knowledge *know);

/* The file-level step of ac_history_store, without MPI (the unit test runs it from many
 * processes at once): lock `path`, read it, merge `contexts` (lines as written by
 * ac_history_write_context) into the section of `fingerprint` (created with `description` if
 * new), write a temporary file beside it and rename it over `path`, unlock. Returns 0, or -1
 * with a reason in `why` (nothing was changed then). */
int ac_history_merge_file(const char *path, uint64_t fingerprint, const char *description,
                          const char *contexts, char *why, size_t why_len);

/* The platform of a run: its description (one line, into description[len]) and fingerprint.
 * `hosts` holds np host names of MPI_MAX_PROCESSOR_NAME bytes each (any order), `network` is
 * AUTOCOLL_PLATFORM's value ("auto": the host names' stems, each run of digits masked as #),
 * `library` the MPI library's version line. */
uint64_t ac_history_platform(const char *hosts, int np, const char *network,
                             const char *library, char *description, size_t len);

/* Parses a whole file's text; returns the number of sections, or -1 with a reason in `why`.
 * The section of `fingerprint`, if any, is copied to *section (malloc'd: its record lines as the
 * file has them; NULL if none). */
int ac_history_parse(const char *text, uint64_t fingerprint, char **section, char *why,
                     size_t why_len);

#endif
