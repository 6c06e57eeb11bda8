/*
 * test_json_dom.c — the formats layer's JSON reader (formats/json_dom.h) against jansson
 * (json_loadb with JSON_REJECT_DUPLICATES, the parser it replaced) as an independent
 * oracle: random documents (nesting, every value type, int64 extremes, reals, strings
 * with every escape, surrogate pairs and raw UTF-8) give the same tree; random byte
 * mutations of them are accepted by both or rejected by both; a list of malformed inputs
 * is rejected with its line and column; the nesting limit sits where jansson's does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "formats/json_dom.h"
#include "test_rng.h"

/* ---- a growing text buffer and a random document writer ---------------------------- */

typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

static void putf(buf *b, const char *fmt, ...)
{
    char t[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    put(b, t, (size_t)n);
}

static unsigned rnd(unsigned n) { return (unsigned)(test_rng_u64() % n); }

static void gen_string(buf *b)
{
    static const char *const pieces[] = {
        "a", "Z", "0", " ", "~", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
        "\\u00e9", "\\u20AC", "\\ud83d\\ude00", "\\u007f", "\xc3\xa9", "\xe2\x82\xac",
        "\xf0\x9f\x98\x80", "\x7f", "key", "path", "hashes"};
    puts_(b, "\"");
    unsigned n = rnd(8);
    for (unsigned i = 0; i < n; i++)
        puts_(b, pieces[rnd(sizeof pieces / sizeof *pieces)]);
    puts_(b, "\"");
}

static void gen_number(buf *b)
{
    switch (rnd(8)) {
    case 0: puts_(b, "-9223372036854775808"); break;
    case 1: puts_(b, "9223372036854775807"); break;
    case 2: puts_(b, "-0"); break;
    case 3: putf(b, "%.17g", (double)(int64_t)test_rng_u64() / 3.0); break;
    case 4: putf(b, "%de%d", (int)rnd(1000) - 500, (int)rnd(600) - 300); break;
    case 5: putf(b, "%lld", (long long)(int64_t)test_rng_u64()); break;
    default: putf(b, "%u", rnd(256)); break;
    }
}

static void gen_value(buf *b, int depth, bool container)
{
    unsigned k = container ? rnd(2) : depth > 5 ? 2 + rnd(6) : rnd(8);
    const char *ws[] = {"", " ", "\n", "\t", "\r\n  "};
    if (k == 0) {
        unsigned n = rnd(6);
        puts_(b, "[");
        for (unsigned i = 0; i < n; i++) {
            if (i)
                puts_(b, ",");
            puts_(b, ws[rnd(5)]);
            gen_value(b, depth + 1, false);
        }
        puts_(b, "]");
    } else if (k == 1) {
        unsigned n = rnd(6);
        puts_(b, "{");
        for (unsigned i = 0; i < n; i++) {
            if (i)
                puts_(b, ",");
            putf(b, "%s\"k%u\"%s:", ws[rnd(5)], i, ws[rnd(5)]); /* distinct keys */
            gen_value(b, depth + 1, false);
        }
        puts_(b, "}");
    } else if (k == 2 || k == 3) {
        gen_number(b);
    } else if (k == 4 || k == 5) {
        gen_string(b);
    } else {
        static const char *const lit[] = {"true", "false", "null"};
        puts_(b, lit[rnd(3)]);
    }
}

/* ---- tree comparison ---------------------------------------------------------------- */

static bool same(const jd_value *a, const json_t *j)
{
    switch (jd_typeof(a)) {
    case JD_NULL: return json_is_null(j);
    case JD_TRUE: return json_is_true(j);
    case JD_FALSE: return json_is_false(j);
    case JD_INTEGER: return json_is_integer(j) && json_integer_value(j) == a->u.i;
    case JD_REAL: return json_is_real(j) && json_real_value(j) == a->u.r;
    case JD_STRING:
        return json_is_string(j) && json_string_length(j) == jd_string_length(a) &&
               memcmp(json_string_value(j), jd_string_value(a), jd_string_length(a)) == 0;
    case JD_ARRAY:
        if (!json_is_array(j) || json_array_size(j) != jd_array_size(a))
            return false;
        for (size_t i = 0; i < jd_array_size(a); i++)
            if (!same(jd_array_get(a, i), json_array_get(j, i)))
                return false;
        return true;
    case JD_OBJECT:
        if (!json_is_object(j) || json_object_size(j) != jd_object_size(a))
            return false;
        for (size_t i = 0; i < jd_object_size(a); i++) {
            const char *k = jd_object_key_at(a, i);
            json_t *jv = json_object_get(j, k);
            if (!jv || !same(jd_object_get(a, k), jv))
                return false;
        }
        return true;
    }
    return false;
}

/* Both accept with the same tree, or both reject; returns whether they accepted. */
static bool check_text(const char *t, size_t n)
{
    jd_error e;
    json_error_t je;
    jd_doc *d = jd_parse(t, n, &e);
    json_t *j = json_loadb(t, n, JSON_REJECT_DUPLICATES, &je);
    if ((d != NULL) != (j != NULL)) {
        printf("disagree on %zu bytes: json_dom %s (%s), jansson %s (%s)\n%.*s\n", n,
               d ? "accepts" : "rejects", d ? "" : e.text, j ? "accepts" : "rejects",
               j ? "" : je.text, (int)(n < 300 ? n : 300), t);
        fail();
    }
    if (d) {
        if (!same(jd_root(d), j)) {
            printf("different trees for:\n%.*s\n", (int)(n < 300 ? n : 300), t);
            fail();
        }
        assert_true(e.line == 0 && e.text[0] == '\0');
    } else {
        assert_true(e.line >= 1 && e.column >= 1 && e.text[0] != '\0');
    }
    jd_free(d);
    json_decref(j);
    return d != NULL;
}

static void test_random_documents(void **state)
{
    (void)state;
    for (int it = 0; it < 2000; it++) {
        buf b = {0};
        gen_value(&b, 0, true);
        assert_true(check_text(b.p, b.n));
        free(b.p);
    }
}

static void test_mutations(void **state)
{
    (void)state;
    /* no NUL: jansson 2.14 reads "[1\0]" as [1] (json_dom refuses it; test_rejected) */
    static const unsigned char bytes[] = {'"', '\\', '{', '}', '[', ']', ',', ':', '0', '-',
                                          'e', '.', 'u', ' ', 'a', 0x01, 0x1f, 0x80, 0xbf,
                                          0xc0, 0xc3, 0xed, 0xf0, 0xf4, 0xf5, 0xff};
    int accepted = 0, total = 0;
    for (int it = 0; it < 1500; it++) {
        buf b = {0};
        gen_value(&b, 0, true);
        for (int m = 0; m < 6; m++) {
            buf c = {0};
            put(&c, b.p, b.n);
            unsigned edits = 1 + rnd(3);
            for (unsigned e = 0; e < edits && c.n; e++) {
                size_t at = rnd((unsigned)c.n);
                unsigned op = rnd(3);
                if (op == 0) {
                    c.p[at] = (char)bytes[rnd(sizeof bytes)];
                } else if (op == 1) {
                    memmove(c.p + at, c.p + at + 1, c.n - at - 1);
                    c.n--;
                } else {
                    put(&c, " ", 1); /* room */
                    memmove(c.p + at + 1, c.p + at, c.n - at - 1);
                    c.p[at] = (char)bytes[rnd(sizeof bytes)];
                }
            }
            accepted += check_text(c.p, c.n);
            total++;
            free(c.p);
        }
        free(b.p);
    }
    /* both outcomes occur, so the comparison can fail either way */
    assert_true(accepted > total / 50 && accepted < total - total / 50);
}

static void test_rejected(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "   ", "1", "\"s\"", "null", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{1:2}",
        "[01]", "[1.]", "[.5]", "[1e]", "[1e+]", "[+1]", "[--1]", "[0x10]", "[NaN]",
        "[Infinity]", "[tru]", "[nulll]", "[1] x", "[1][2]", "[\"\\x\"]", "[\"\\u12\"]",
        "[\"\\u0000\"]", "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\ud800\\u0041\"]", "[\"a",
        "[\"\x01\"]", "[\"\xc0\x80\"]", "[\"\xed\xa0\x80\"]", "[\"\xf5\x80\x80\x80\"]",
        "[\"\xe2\x82\"]", "[\"\xff\"]", "\xef\xbb\xbf[]", "{\"a\":1,\"a\":2}",
        "[9223372036854775808]", "[-9223372036854775809]", "[1e400]", "[", "{", "[[]",
        "{\"a\":{}", "[1 2]", "{\"a\":1 \"b\":2}", "[\v1]"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t n = strlen(bad[i]);
        if (check_text(bad[i], n)) {
            printf("accepted: %s\n", bad[i]);
            fail();
        }
    }
    /* a NUL byte inside the length */
    assert_false(check_text("[1,\0 2]", 7));
    jd_error e0;
    assert_null(jd_parse("[1\0]", 4, &e0)); /* jansson 2.14 takes this as [1] */
    /* line and column of the fault, 1-based */
    jd_error e;
    assert_null(jd_parse("{\n  \"a\": tru }", 14, &e));
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 8);
    assert_null(jd_parse("{\"x\":1,\n\"x\":2}", 14, &e));
    assert_non_null(strstr(e.text, "duplicate object key \"x\""));
    /* more than 16 keys: the sorted duplicate check */
    buf b = {0};
    puts_(&b, "{");
    for (int i = 0; i < 40; i++)
        putf(&b, "%s\"k%d\":%d", i ? "," : "", i == 39 ? 7 : i, i);
    puts_(&b, "}");
    assert_false(check_text(b.p, b.n));
    free(b.p);
    assert_null(jd_parse(NULL, 0, &e));
}

static void test_accepted_edges(void **state)
{
    (void)state;
    static const char *const good[] = {
        "[]", "{}", " [ ] ", "[-0]", "[-0.0]", "[1e-400]", "[1E+2]", "[-9223372036854775808]",
        "[9223372036854775807]", "[1.7976931348623157e308]", "[\"\\ud83d\\ude00\"]",
        "[\"\\u00e9\xc3\xa9\"]", "[\"\xf4\x8f\xbf\xbf\"]", "{\"\":1}", "[true,false,null]",
        "{\"a\":[{\"b\":{}}]}", "\t\r\n[1]\n"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_true(check_text(good[i], strlen(good[i])));
    jd_error e;
    jd_doc *d = jd_parse("[\"\\ud83d\\ude00\", 300, {\"k\": \"v\"}]", 33, &e);
    assert_non_null(d);
    const jd_value *r = jd_root(d);
    assert_int_equal(jd_array_size(r), 3);
    assert_memory_equal(jd_string_value(jd_array_get(r, 0)), "\xf0\x9f\x98\x80", 5);
    assert_int_equal(jd_integer_value(jd_array_get(r, 1)), 300);
    assert_string_equal(jd_object_key_at(jd_array_get(r, 2), 0), "k");
    assert_string_equal(jd_string_value(jd_object_get(jd_array_get(r, 2), "k")), "v");
    /* getters on the wrong type or out of range */
    assert_null(jd_array_get(r, 3));
    assert_null(jd_object_get(r, "k"));
    assert_int_equal(jd_object_size(r), 0);
    assert_null(jd_string_value(jd_array_get(r, 1)));
    assert_int_equal(jd_integer_value(jd_array_get(r, 0)), 0);
    jd_free(d);
    jd_free(NULL);
}

/* jansson's limit: 2047 nested arrays parse, 2048 do not; scalars inside do not count */
static void test_depth(void **state)
{
    (void)state;
    for (int depth = JD_MAX_DEPTH - 1; depth <= JD_MAX_DEPTH + 1; depth++) {
        buf b = {0};
        for (int i = 0; i < depth; i++)
            puts_(&b, "[");
        puts_(&b, "1");
        for (int i = 0; i < depth; i++)
            puts_(&b, "]");
        assert_true(check_text(b.p, b.n) == (depth <= JD_MAX_DEPTH));
        free(b.p);
    }
}

int main(void)
{
    test_rng_init("json_dom");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_documents), cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_rejected), cmocka_unit_test(test_accepted_edges),
        cmocka_unit_test(test_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
