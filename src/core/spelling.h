/*
 * spelling.h - how far apart two names are, for "did you mean" suggestions: a mistyped setting
 * at MPI_Init (config.c), an unknown filter of autocoll-info.
 */
#ifndef AUTOCOLL_SPELLING_H
#define AUTOCOLL_SPELLING_H

/* The edit distance between a and b, ignoring case: the fewest insertions, deletions,
 * substitutions and swaps of two adjacent characters that turn one into the other (optimal
 * string alignment). Names longer than 64 characters count as far from everything (INT_MAX). */
int ac_spelling_distance(const char *a, const char *b);

/* Whether `typed` is close enough to `name` to suggest it: at most one edit in a name of up to
 * 6 characters, two up to 10, three beyond, and never the whole of it. */
int ac_spelling_close(const char *typed, const char *name);

#endif
