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

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), or 0 where s starts none. */
static int utf8_length(const unsigned char *s)
{
    unsigned char c = s[0];
    int n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                           : c >= 0xF0 && c <= 0xF4                         ? 4
                                                                            : 0;
    /* the second byte's range where the first narrows it */
    unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    for (int i = 1; i < n; i++)
        if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xBF)) return 0;
    return n;
}

/* A JSON string: quotes, backslashes and control characters escaped, and any byte that is not
 * part of well-formed UTF-8 (a communicator named in Latin-1, say) written as U+FFFD, so that
 * the file is always valid JSON (RFC 8259 requires UTF-8). */
static void write_escaped(FILE *f, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    fputc('"', f);
    while (*s) {
        int n = utf8_length(s);
        if (n == 0) {
            fputs("\\ufffd", f);
            s++;
        } else if (*s == '"' || *s == '\\') {
            fprintf(f, "\\%c", *s++);
        } else if (*s < 32) {
            fprintf(f, "\\u%04x", *s++);
        } else {
            fwrite(s, 1, (size_t)n, f);
            s += n;
        }
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
