/*
 * json_writer.c - the JSON writer (json_writer.h).
 */
#include "core/json_writer.h"

#include <math.h>

void ac_json_writer_init(ac_json_writer *w, FILE *f)
{
    w->f = f;
    w->depth = 0;
    w->count[0] = 0;
}

static void write_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 32)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* The separator, the line break of an indented level, and the key of the next value. */
static void next_value(ac_json_writer *w, const char *key)
{
    if (w->depth > 0) {
        if (w->count[w->depth]++) fputc(',', w->f);
        if (w->depth <= AC_JSON_WRITER_INDENTED)
            fprintf(w->f, "\n%*s", 2 * w->depth, "");
        else if (w->count[w->depth] > 1)
            fputc(' ', w->f);
    }
    if (key) {
        write_escaped(w->f, key);
        fputs(": ", w->f);
    }
}

static void open_container(ac_json_writer *w, const char *key, char bracket)
{
    next_value(w, key);
    fputc(bracket, w->f);
    if (w->depth + 1 < AC_JSON_WRITER_DEPTH) w->count[++w->depth] = 0;
}

static void close_container(ac_json_writer *w, char bracket)
{
    int had_values = w->count[w->depth] > 0;
    if (w->depth > 0) w->depth--;
    if (had_values && w->depth + 1 <= AC_JSON_WRITER_INDENTED)
        fprintf(w->f, "\n%*s", 2 * w->depth, "");
    fputc(bracket, w->f);
    if (w->depth == 0) fputc('\n', w->f);
}

void ac_json_object_begin(ac_json_writer *w, const char *key)
{
    open_container(w, key, '{');
}

void ac_json_object_end(ac_json_writer *w)
{
    close_container(w, '}');
}

void ac_json_array_begin(ac_json_writer *w, const char *key)
{
    open_container(w, key, '[');
}

void ac_json_array_end(ac_json_writer *w)
{
    close_container(w, ']');
}

void ac_json_string(ac_json_writer *w, const char *key, const char *value)
{
    next_value(w, key);
    write_escaped(w->f, value ? value : "");
}

void ac_json_integer_value(ac_json_writer *w, const char *key, long long value)
{
    next_value(w, key);
    fprintf(w->f, "%lld", value);
}

void ac_json_real(ac_json_writer *w, const char *key, double value)
{
    next_value(w, key);
    if (isfinite(value))
        fprintf(w->f, "%.9g", value);
    else
        fputs("null", w->f);
}

void ac_json_boolean(ac_json_writer *w, const char *key, int value)
{
    next_value(w, key);
    fputs(value ? "true" : "false", w->f);
}

void ac_json_null(ac_json_writer *w, const char *key)
{
    next_value(w, key);
    fputs("null", w->f);
}
