/*
 * json_writer.h - a small JSON writer beside the reader (json.h): the end-of-run report and the
 * strategies' descriptions of themselves are written with it, never with hand-made fprintf
 * formats. It keeps the commas and the nesting; strings are escaped; a number that is not
 * finite is written as null (JSON has no NaN or infinity).
 *
 * Every value takes a key: the member name inside an object, NULL inside an array (and for the
 * top-level value). Containers nested up to AC_JSON_WRITER_DEPTH deep; the first
 * AC_JSON_WRITER_INDENTED levels put each member on a line of its own, deeper ones are
 * written on one line.
 */
#ifndef AUTOCOLL_JSON_WRITER_H
#define AUTOCOLL_JSON_WRITER_H

#include <stdio.h>

enum { AC_JSON_WRITER_DEPTH = 16, AC_JSON_WRITER_INDENTED = 3 };

typedef struct ac_json_writer {
    FILE *f;
    int depth;
    int count[AC_JSON_WRITER_DEPTH]; /* values written so far in each open container */
} ac_json_writer;

/* A writer of one JSON value to f. */
void ac_json_writer_init(ac_json_writer *w, FILE *f);

void ac_json_object_begin(ac_json_writer *w, const char *key);
void ac_json_object_end(ac_json_writer *w);
void ac_json_array_begin(ac_json_writer *w, const char *key);
void ac_json_array_end(ac_json_writer *w);

void ac_json_string(ac_json_writer *w, const char *key, const char *value);
void ac_json_integer_value(ac_json_writer *w, const char *key, long long value);
void ac_json_real(ac_json_writer *w, const char *key, double value); /* %.9g */
void ac_json_boolean(ac_json_writer *w, const char *key, int value);
void ac_json_null(ac_json_writer *w, const char *key);

#endif
