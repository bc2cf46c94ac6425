/*
 * json.c - a recursive-descent JSON reader (json.h). Strict RFC 8259: no comments, no trailing
 * commas, no leading zeros, no control characters inside strings, \u escapes decoded to UTF-8
 * (surrogate pairs joined; a lone surrogate or \u0000 refused).
 */
#include "core/json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *p, *start, *end;
    char *why;
    size_t why_len;
    int failed;
} parser;

static int fail(parser *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(parser *s, const char *fmt, ...)
{
    if (s->failed) return -1;
    s->failed = 1;
    long line = 1, column = 1;
    for (const char *q = s->start; q < s->p && q < s->end; q++) {
        column++;
        if (*q == '\n') line++, column = 1;
    }
    char reason[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    if (s->why_len) snprintf(s->why, s->why_len, "line %ld, column %ld: %s", line, column, reason);
    return -1;
}

static int out_of_memory(parser *s)
{
    if (!s->failed && s->why_len) snprintf(s->why, s->why_len, "out of memory");
    s->failed = 1;
    return -1;
}

static void skip_space(parser *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static int literal(parser *s, const char *word, ac_json_type type, ac_json *out)
{
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
        return fail(s, "unexpected character '%c'", *s->p);
    s->p += n;
    out->type = type;
    return 0;
}

static int digits(parser *s)
{
    const char *from = s->p;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
        s->p++;
    return s->p > from;
}

static int number(parser *s, ac_json *out)
{
    const char *from = s->p;
    if (s->p < s->end && *s->p == '-') s->p++;
    if (s->p < s->end && *s->p == '0') {
        s->p++;
    } else if (!digits(s)) {
        return fail(s, "a number needs digits");
    }
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        if (!digits(s)) return fail(s, "digits must follow the decimal point");
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-')) s->p++;
        if (!digits(s)) return fail(s, "an exponent needs digits");
    }
    char buf[64];
    size_t n = (size_t)(s->p - from);
    if (n >= sizeof buf) return fail(s, "a number longer than %zu characters", sizeof buf - 1);
    memcpy(buf, from, n);
    buf[n] = '\0';
    out->type = AC_JSON_NUMBER;
    out->number = strtod(buf, NULL);
    if (!isfinite(out->number)) return fail(s, "a number out of range");
    return 0;
}

static int hex4(parser *s, unsigned *out)
{
    if (s->end - s->p < 4) return fail(s, "\\u needs four hex digits");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *s->p++;
        int d = c >= '0' && c <= '9' ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return fail(s, "\\u needs four hex digits");
        v = v * 16 + (unsigned)d;
    }
    *out = v;
    return 0;
}

static size_t utf8(unsigned cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* One escape after the backslash, appended at *w. */
static int escape(parser *s, char **w)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    if (s->p >= s->end) return fail(s, "an unterminated string");
    const char *hit = strchr(from, *s->p);
    if (hit && *s->p) {
        *(*w)++ = to[hit - from];
        s->p++;
        return 0;
    }
    if (*s->p != 'u') return fail(s, "an unknown escape '\\%c'", *s->p);
    s->p++;
    unsigned cp;
    if (hex4(s, &cp)) return -1;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return fail(s, "a lone low surrogate");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        unsigned low;
        if (s->end - s->p < 2 || s->p[0] != '\\' || s->p[1] != 'u')
            return fail(s, "a high surrogate without its low one");
        s->p += 2;
        if (hex4(s, &low)) return -1;
        if (low < 0xDC00 || low > 0xDFFF) return fail(s, "a high surrogate without its low one");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    if (cp == 0) return fail(s, "\\u0000 inside a string");
    *w += utf8(cp, *w);
    return 0;
}

/* A string after its opening quote, into a malloc'd copy. */
static int string(parser *s, char **out)
{
    const char *from = s->p;
    while (s->p < s->end && *s->p != '"')
        s->p += *s->p == '\\' && s->p + 1 < s->end ? 2 : 1;
    if (s->p >= s->end) return fail(s, "an unterminated string");
    size_t raw = (size_t)(s->p - from);
    s->p = from;
    char *buf = malloc(raw + 1), *w = buf; /* escapes never lengthen the text */
    if (!buf) return out_of_memory(s);
    while (*s->p != '"') {
        unsigned char c = (unsigned char)*s->p;
        if (c < 0x20) {
            free(buf);
            return fail(s, "a control character inside a string");
        }
        if (c == '\\') {
            s->p++;
            if (escape(s, &w)) {
                free(buf);
                return -1;
            }
        } else {
            *w++ = *s->p++;
        }
    }
    s->p++; /* the closing quote */
    *w = '\0';
    *out = buf;
    return 0;
}

static int value(parser *s, ac_json *out, int depth);

static int push(parser *s, ac_json *container, int *cap, ac_json **slot)
{
    if (container->n == *cap) {
        int grown = *cap ? 2 * *cap : 4;
        ac_json *items = realloc(container->items, sizeof *items * (size_t)grown);
        if (!items) return out_of_memory(s);
        container->items = items;
        *cap = grown;
    }
    *slot = &container->items[container->n++];
    memset(*slot, 0, sizeof **slot);
    return 0;
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The object just closed has no member name twice: JSON leaves a repeated name's meaning to
 * the reader, and ours would silently take one of them (a table with two "rules"). Sorted
 * names, so that an object of many members costs n log n. */
static int unique_members(parser *s, const ac_json *object)
{
    if (object->n < 2) return 0;
    if (object->n <= 8) { /* the usual object: pairs compared, nothing allocated */
        for (int i = 1; i < object->n; i++)
            for (int j = 0; j < i; j++)
                if (strcmp(object->items[j].key, object->items[i].key) == 0)
                    return fail(s, "the member \"%.64s\" appears twice in the object closed here",
                                object->items[i].key);
        return 0;
    }
    char **names = malloc(sizeof *names * (size_t)object->n);
    if (!names) return out_of_memory(s);
    for (int i = 0; i < object->n; i++)
        names[i] = object->items[i].key;
    qsort(names, (size_t)object->n, sizeof *names, cmp_key);
    int rc = 0;
    for (int i = 1; i < object->n && rc == 0; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            rc = fail(s, "the member \"%.64s\" appears twice in the object closed here",
                      names[i]);
    free(names);
    return rc;
}

/* An array or an object after its opening bracket. */
static int container(parser *s, ac_json *out, int depth, int object)
{
    char close = object ? '}' : ']';
    int cap = 0;
    out->type = object ? AC_JSON_OBJECT : AC_JSON_ARRAY;
    if (depth >= AC_JSON_MAX_DEPTH) return fail(s, "nested deeper than %d", AC_JSON_MAX_DEPTH);
    skip_space(s);
    if (s->p < s->end && *s->p == close) {
        s->p++;
        return 0;
    }
    for (;;) {
        ac_json *item = NULL;
        if (push(s, out, &cap, &item)) return -1;
        skip_space(s);
        if (object) {
            if (s->p >= s->end || *s->p != '"') return fail(s, "a member name must be a string");
            s->p++;
            if (string(s, &item->key)) return -1;
            skip_space(s);
            if (s->p >= s->end || *s->p != ':') return fail(s, "':' must follow a member name");
            s->p++;
        }
        if (value(s, item, depth + 1)) return -1;
        skip_space(s);
        if (s->p < s->end && *s->p == ',') {
            s->p++;
            continue;
        }
        if (s->p < s->end && *s->p == close) {
            if (object && unique_members(s, out)) return -1;
            s->p++;
            return 0;
        }
        return fail(s, "',' or '%c' expected", close);
    }
}

static int value(parser *s, ac_json *out, int depth)
{
    skip_space(s);
    if (s->p >= s->end) return fail(s, "a value expected, the text ended");
    switch (*s->p) {
    case '{': s->p++; return container(s, out, depth, 1);
    case '[': s->p++; return container(s, out, depth, 0);
    case '"': s->p++; out->type = AC_JSON_STRING; return string(s, &out->string);
    case 't': return literal(s, "true", AC_JSON_TRUE, out);
    case 'f': return literal(s, "false", AC_JSON_FALSE, out);
    case 'n': return literal(s, "null", AC_JSON_NULL, out);
    default:
        if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9')) return number(s, out);
        return fail(s, "unexpected character '%c'", *s->p);
    }
}

static void clear(ac_json *v)
{
    for (int i = 0; i < v->n; i++)
        clear(&v->items[i]);
    free(v->items);
    free(v->string);
    free(v->key);
}

void ac_json_free(ac_json *v)
{
    if (!v) return;
    clear(v);
    free(v);
}

ac_json *ac_json_parse(const char *text, size_t len, char *why, size_t why_len)
{
    parser s = {text, text, text + len, why, why_len, 0};
    ac_json *root = calloc(1, sizeof *root);
    if (!root) {
        out_of_memory(&s);
        return NULL;
    }
    if (value(&s, root, 0) == 0) {
        skip_space(&s);
        if (s.p < s.end) fail(&s, "text after the value");
    }
    if (s.failed) {
        ac_json_free(root);
        return NULL;
    }
    return root;
}

const ac_json *ac_json_member(const ac_json *v, const char *key)
{
    if (!v || v->type != AC_JSON_OBJECT) return NULL;
    for (int i = 0; i < v->n; i++)
        if (strcmp(v->items[i].key, key) == 0) return &v->items[i];
    return NULL;
}

int ac_json_integer(const ac_json *v, long long lo, long long hi, long long *out)
{
    if (!v || v->type != AC_JSON_NUMBER || v->number != floor(v->number)) return -1;
    /* below 2^53 every integer is exact in a double (2^53 + 1 reads as 2^53) */
    if (fabs(v->number) >= 9007199254740992.0) return -1;
    long long x = (long long)v->number;
    if (x < lo || x > hi) return -1;
    *out = x;
    return 0;
}
