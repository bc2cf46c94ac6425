/*
 * json.h - a small JSON reader (RFC 8259) for the files the layer reads: the configuration
 * table (select/table.c). The whole text is parsed into a tree; errors say where and why.
 */
#ifndef AUTOCOLL_JSON_H
#define AUTOCOLL_JSON_H

#include <stddef.h>

typedef enum ac_json_type {
    AC_JSON_NULL,
    AC_JSON_FALSE,
    AC_JSON_TRUE,
    AC_JSON_NUMBER,
    AC_JSON_STRING,
    AC_JSON_ARRAY,
    AC_JSON_OBJECT,
} ac_json_type;

typedef struct ac_json {
    ac_json_type type;
    double number;         /* NUMBER */
    char *string;          /* STRING: UTF-8, NUL-terminated (a \u0000 inside is refused) */
    char *key;             /* the member name, for a member of an object; else NULL */
    struct ac_json *items; /* ARRAY, OBJECT: elements or members, in file order */
    int n;                 /* their number */
} ac_json;

/* Parses text[0..len) as one JSON value (surrounded by white space only). Returns the tree to
 * free with ac_json_free, or NULL with "line L, column C: reason" in `why` (no memory: NULL
 * with "out of memory"). Nesting deeper than AC_JSON_MAX_DEPTH is refused. */
enum { AC_JSON_MAX_DEPTH = 64 };
ac_json *ac_json_parse(const char *text, size_t len, char *why, size_t why_len);
void ac_json_free(ac_json *v);

/* The member `key` of an object (the first, if repeated), or NULL (also when v is not an
 * object). */
const ac_json *ac_json_member(const ac_json *v, const char *key);

/* The number v as an integer in [lo, hi]: 0 and *out, or -1 (not a number, not integral, out
 * of range). */
int ac_json_integer(const ac_json *v, long long lo, long long hi, long long *out);

#endif
