/*
 * test_json.c - the JSON reader (src/core/json.c) without MPI: values, escapes, numbers,
 * nesting, and every kind of malformed text refused with its line and column; and the writer
 * (src/core/json_writer.c), read back by the reader.
 */
#include "check.h"
#include "core/json.h"
#include "core/json_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ac_json *parse(const char *text, char *why, size_t len)
{
    return ac_json_parse(text, strlen(text), why, len);
}

static void test_values(void)
{
    char why[128] = "";
    ac_json *v = parse(" {\"a\": [1, -2.5e3, 0, true, false, null], \"b\": {\"c\": \"x\"},"
                       " \"A\": 7}\n", why, sizeof why);
    if (!CHECK(v != NULL)) {
        fprintf(stderr, "  %s\n", why);
        return;
    }
    CHECK(v->type == AC_JSON_OBJECT && v->n == 3);
    const ac_json *a = ac_json_member(v, "a"); /* names are case-sensitive */
    CHECK(a && a->type == AC_JSON_ARRAY && a->n == 6);
    CHECK(a->items[0].type == AC_JSON_NUMBER && a->items[0].number == 1.0);
    CHECK(a->items[1].number == -2500.0 && a->items[2].number == 0.0);
    CHECK(a->items[3].type == AC_JSON_TRUE && a->items[4].type == AC_JSON_FALSE &&
          a->items[5].type == AC_JSON_NULL);
    const ac_json *c = ac_json_member(ac_json_member(v, "b"), "c");
    CHECK(c && c->type == AC_JSON_STRING && strcmp(c->string, "x") == 0);
    CHECK(ac_json_member(v, "missing") == NULL && ac_json_member(a, "a") == NULL);
    CHECK(ac_json_member(v, "A") && ac_json_member(v, "A")->number == 7.0);
    ac_json_free(v);

    v = parse("[]", why, sizeof why);
    CHECK(v && v->type == AC_JSON_ARRAY && v->n == 0);
    ac_json_free(v);
    v = parse("{}", why, sizeof why);
    CHECK(v && v->type == AC_JSON_OBJECT && v->n == 0);
    ac_json_free(v);
}

static void test_strings(void)
{
    char why[128] = "";
    /* simple escapes, a BMP code point (e with acute, 2 bytes; the euro sign, 3 bytes) and a
     * surrogate pair (U+1F600, 4 bytes) */
    ac_json *v = parse("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\u20AC \\ud83d\\ude00\"", why,
                       sizeof why);
    if (!CHECK(v != NULL)) {
        fprintf(stderr, "  %s\n", why);
        return;
    }
    CHECK(strcmp(v->string, "q\" b\\ s/ \b\f\n\r\t \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == 0);
    ac_json_free(v);
}

static void test_integers(void)
{
    char why[128];
    ac_json *v = parse("[3, 3.5, -1, 9007199254740993, 1e3]", why, sizeof why);
    long long x = 0;
    CHECK(v != NULL);
    if (!v) return;
    CHECK(ac_json_integer(&v->items[0], 0, 10, &x) == 0 && x == 3);
    CHECK(ac_json_integer(&v->items[0], 4, 10, &x) == -1); /* out of range */
    CHECK(ac_json_integer(&v->items[1], 0, 10, &x) == -1); /* not integral */
    CHECK(ac_json_integer(&v->items[2], 0, 10, &x) == -1);
    CHECK(ac_json_integer(&v->items[3], 0, 1LL << 62, &x) == -1); /* beyond 2^53: not exact */
    CHECK(ac_json_integer(&v->items[4], 0, 10000, &x) == 0 && x == 1000);
    CHECK(ac_json_integer(NULL, 0, 10, &x) == -1);
    ac_json_free(v);
}

/* Each refused with a reason naming where. */
static void test_malformed(void)
{
    static const struct {
        const char *text, *where, *reason;
    } bad[] = {
        {"", "line 1, column 1", "text ended"},
        {"{\"a\": 1,}", "column 9", "member name"},
        {"[1, 2", "column 6", "expected"},
        {"[1 2]", "column 4", "expected"},
        {"{\"a\" 1}", "column 6", "':'"},
        {"{a: 1}", "column 2", "member name"},
        {"\"abc", "column 5", "unterminated"},
        {"\"a\tb\"", "column 3", "control character"},
        {"\"\\x\"", "column 3", "unknown escape"},
        {"\"\\u12\"", "", "four hex digits"},
        {"\"\\ud83d\"", "", "surrogate"},
        {"\"\\ude00\"", "", "surrogate"},
        {"\"\\u0000\"", "", "\\u0000"},
        {"01", "column 2", "after the value"},
        {"-", "column 2", "digits"},
        {"1.", "column 3", "decimal point"},
        {"1e", "column 3", "exponent"},
        {"1e999", "", "out of range"},
        {"tru", "column 1", "unexpected character"},
        {"[1]\n  x", "line 2, column 3", "after the value"},
        {"// comment\n1", "column 1", "unexpected character"},
        {"{\"a\": 1, \"b\": 2, \"a\": 3}", "column 24", "\"a\" appears twice"},
        {"[{\"x\": {}, \"x\": []}]", "column 19", "\"x\" appears twice"},
        /* more than 8 members: the names sorted, not compared in pairs */
        {"{\"a\":0,\"b\":0,\"c\":0,\"d\":0,\"e\":0,\"f\":0,\"g\":0,\"h\":0,\"e\":1}", "column 55",
         "\"e\" appears twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char why[128] = "";
        ac_json *v = parse(bad[i].text, why, sizeof why);
        int ok = v == NULL && strstr(why, bad[i].where) && strstr(why, bad[i].reason);
        if (!CHECK(ok)) fprintf(stderr, "  case %zu (%s): \"%s\"\n", i, bad[i].text, why);
        ac_json_free(v);
    }
}

static void test_depth(void)
{
    char text[2 * AC_JSON_MAX_DEPTH + 8], why[128] = "";
    int depth = AC_JSON_MAX_DEPTH;
    for (int i = 0; i < depth; i++)
        text[i] = '[', text[depth + i] = ']';
    text[2 * depth] = '\0';
    ac_json *v = parse(text, why, sizeof why);
    CHECK(v != NULL); /* the limit itself */
    ac_json_free(v);
    memmove(text + 1, text, strlen(text) + 1);
    text[0] = '[';
    strcat(text, "]");
    v = parse(text, why, sizeof why);
    CHECK(v == NULL && strstr(why, "nested deeper") != NULL);
    ac_json_free(v);
}

/* What the writer writes, the reader reads back: nesting deeper than the indented levels,
 * empty containers, escapes, integers beyond 2^31, reals, non-finite reals as null. */
static void test_writer(void)
{
    char *text = NULL, why[128] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ac_json_writer w;
    ac_json_writer_init(&w, f);
    ac_json_object_begin(&w, NULL);
    ac_json_string(&w, "name", "a \"quoted\" \\ back\nslash\t");
    ac_json_integer_value(&w, "big", 5000000000ll);
    ac_json_real(&w, "real", 1.25e-7);
    ac_json_real(&w, "inf", INFINITY);
    ac_json_boolean(&w, "yes", 1);
    ac_json_object_begin(&w, "empty");
    ac_json_object_end(&w);
    ac_json_array_begin(&w, "deep");
    ac_json_array_begin(&w, NULL);
    ac_json_object_begin(&w, NULL);
    ac_json_array_begin(&w, "in");
    ac_json_integer_value(&w, NULL, -3);
    ac_json_null(&w, NULL);
    ac_json_array_end(&w);
    ac_json_object_end(&w);
    ac_json_array_end(&w);
    ac_json_array_begin(&w, NULL);
    ac_json_array_end(&w);
    ac_json_array_end(&w);
    ac_json_object_end(&w);
    fclose(f);
    ac_json *v = ac_json_parse(text, len, why, sizeof why);
    if (!CHECK(v != NULL)) {
        fprintf(stderr, "%s\n%s\n", why, text);
        free(text);
        return;
    }
    long long big = 0;
    const ac_json *deep = ac_json_member(v, "deep");
    CHECK(v->type == AC_JSON_OBJECT && v->n == 7);
    CHECK(!strcmp(ac_json_member(v, "name")->string, "a \"quoted\" \\ back\nslash\t"));
    CHECK(ac_json_integer(ac_json_member(v, "big"), 0, 1ll << 40, &big) == 0 &&
          big == 5000000000ll);
    CHECK(ac_json_member(v, "real")->number == 1.25e-7);
    CHECK(ac_json_member(v, "inf")->type == AC_JSON_NULL);
    CHECK(ac_json_member(v, "yes")->type == AC_JSON_TRUE);
    CHECK(ac_json_member(v, "empty")->type == AC_JSON_OBJECT && ac_json_member(v, "empty")->n == 0);
    CHECK(deep && deep->n == 2 && deep->items[1].n == 0);
    const ac_json *in = deep ? ac_json_member(&deep->items[0].items[0], "in") : NULL;
    CHECK(in && in->n == 2 && in->items[0].number == -3 && in->items[1].type == AC_JSON_NULL);
    CHECK(text[len - 1] == '\n');
    ac_json_free(v);
    free(text);
}

int main(void)
{
    test_writer();
    test_values();
    test_strings();
    test_integers();
    test_malformed();
    test_depth();
    if (failures) {
        fprintf(stderr, "test_json: %d checks failed\n", failures);
        return 1;
    }
    printf("test_json: all checks passed\n");
    return 0;
}
