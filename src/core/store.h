/*
 * store.h - a keyed record store in a text file: what is learned between runs (the history
 * file, select/history.h; docs/history.md), by platform section, one record a line. The store
 * knows the file (header, sections, locking, merging, atomic replacement) and the shape of a
 * record line; its clients own their kinds of record: a kind is a tag, the number of tokens of
 * its key and how a key is checked and written (select/history.c: tuning contexts; a
 * strategy's own record, e.g. the model's platform line; adcl/history.c: ADCL requests).
 *
 *   autocoll-history 1
 *   # comments and blank lines are ignored
 *   platform <fingerprint, 16 hex digits> <description>
 *   <tag> <key: the kind's tokens> <n> then n times: <name> <value> <variance> <samples>
 *
 * A record line belongs to the platform line above it; anything else (an unknown tag, a record
 * before any platform line, a second header, a key its kind refuses, a number that does not
 * parse) makes the whole file corrupt. Two records of one kind and key are merged entry by
 * entry, matched by name (store.c).
 */
#ifndef AUTOCOLL_STORE_H
#define AUTOCOLL_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One named value of a record: what a strategy knows of one candidate (select/strategy.h), an
 * ADCL request of one function, the model of one platform parameter. `seconds` is the value,
 * `var` its variance (else 0), `samples` the evidence behind it; samples == 0: nothing known. */
typedef struct ac_knowledge {
    double seconds, var;
    long samples;
} ac_knowledge;

/* A kind of record line. */
typedef struct ac_store_kind {
    const char *tag; /* its first token */
    int key_tokens;  /* tokens of its key between the tag and the count (0: one record) */
    /* Checks the key tokens[0..key_tokens) and writes the key as it is kept and written (its
     * tokens one space apart, each in one spelling: records of equal keys merge) into
     * key[size]; 0, or -1 when they are not a key of the kind. NULL: the tokens as they are. */
    int (*key)(char *const *tokens, char *key, size_t size);
} ac_store_kind;

/* The longest key, with its terminating NUL. */
#define AC_STORE_KEY_MAX 1024

/* Numbers of a key: a base-10 integer in [lo, hi], 16 hex digits; 0, or -1 (not valid). */
int ac_store_parse_long(const char *t, long lo, long hi, long *out);
int ac_store_parse_hex64(const char *t, uint64_t *out);

/* The records of one section, parsed (every rank keeps its platform's for lookups). */
typedef struct ac_store_records ac_store_records;

void ac_store_records_free(ac_store_records *r);

/* Parses a whole file's text (every line checked, as ac_store_section does); returns the
 * number of sections, or -1 with a reason in `why`. The records of the first section of
 * `fingerprint` go to *section (free with ac_store_records_free; NULL if there is none). */
int ac_store_load(const char *text, uint64_t fingerprint, const ac_store_kind *const *kinds,
                  int nkinds, ac_store_records **section, char *why, size_t why_len);

/* Records as bytes to broadcast, so that one rank parses the file and the others take what it
 * read (the same `kinds`, in the same order, on every rank; the processes of one machine
 * architecture): the number of bytes, into *out (malloc'd); 0 (*out NULL) when there are no
 * records or no memory. ac_store_unpack makes them records again: 0, or -1 (bytes that
 * ac_store_pack did not write, or no memory). */
size_t ac_store_pack(const ac_store_records *r, const ac_store_kind *const *kinds, int nkinds,
                     char **out);
int ac_store_unpack(const char *bytes, size_t len, const ac_store_kind *const *kinds, int nkinds,
                    ac_store_records **out);

/* What the record of `kind` and `key` knows of names[n], into know[n] (zeroed first, matched by
 * name); returns the number of names known (0 without records). */
int ac_store_lookup(const ac_store_records *r, const ac_store_kind *kind, const char *key,
                    const char *const *names, int n, ac_knowledge *know);

/* One record as a line: the known values of names[n] (samples > 0, a name the format can hold:
 * letters, digits, _ - ., shorter than 64; a finite value >= 0); nothing is written when none
 * is known or `key` is not a key of the kind as it writes it ("" for a kind without one). */
void ac_store_write(FILE *f, const ac_store_kind *kind, const char *key,
                    const char *const *names, int n, const ac_knowledge *know);

/* Parses a whole file's text; returns the number of sections, or -1 with a reason in `why`.
 * The section of `fingerprint`, if any, is copied to *section (malloc'd: its record lines as the
 * file has them, the first section of that fingerprint; NULL if none). */
int ac_store_section(const char *text, uint64_t fingerprint, const ac_store_kind *const *kinds,
                     int nkinds, char **section, char *why, size_t why_len);

/* Record lines of `kinds` with the records of one kind and key merged, in order of first
 * appearance (what a merge into a file does with them first): a malloc'd string, or NULL
 * (lines that do not parse, no memory). */
char *ac_store_merged(const char *lines, const ac_store_kind *const *kinds, int nkinds);

/* Lock `path` (a symbolic link: its target), read it, merge `lines` (record lines of `kinds`)
 * into the section of `fingerprint` (created with `description` if new), write a temporary
 * file beside it and rename it over `path` (core/safefile.h: mode and group kept, a read-only
 * file refused), unlock. Returns 0, or -1 with a reason in `why` (nothing was changed
 * then). No MPI: many processes may merge into one file at once. */
int ac_store_merge_file(const char *path, uint64_t fingerprint, const char *description,
                        const char *lines, const ac_store_kind *const *kinds, int nkinds,
                        char *why, size_t why_len);

/* A file of more bytes is not read. */
#define AC_STORE_MAX_FILE_BYTES (64L << 20)

#endif
