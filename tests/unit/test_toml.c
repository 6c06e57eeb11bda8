/*
 * test_toml.c — the strict TOML subset (src/util/toml.h): values of every accepted type,
 * tables, comments, and every refused construct with its file:line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/toml.h"

typedef struct seen {
    char out[2048];
} seen;

static cuzk_status collect(void *ctx, const char *table, const char *key, const cuzk_toml_value *v,
                           const char *file, unsigned line, cuzk_error *err)
{
    (void)file;
    (void)err;
    seen *s = ctx;
    char buf[256];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%u %s.%s=", line, table, key);
    const cuzk_toml_value *items = v->type == CUZK_TOML_ARRAY ? v->items : v;
    size_t count = v->type == CUZK_TOML_ARRAY ? v->n : 1;
    for (size_t i = 0; i < count && n < sizeof buf; i++) {
        const cuzk_toml_value *x = &items[i];
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "," : "",
                              x->type == CUZK_TOML_STRING ? "s:" : x->type == CUZK_TOML_INT ? "i:" : "b:");
        if (x->type == CUZK_TOML_STRING)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", x->str);
        else if (x->type == CUZK_TOML_INT)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%lld", (long long)x->i);
        else
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%d", x->b);
    }
    strncat(s->out, buf, sizeof s->out - strlen(s->out) - 2);
    strcat(s->out, ";");
    return CUZK_OK;
}

static void test_accepts(void **state)
{
    (void)state;
    const char *t = "# top\n"
                    "a = 1\n"
                    "b = \"x # not a comment\\t\" # comment\n"
                    "\n"
                    "[memory]\r\n"
                    "budget = 'C:\\raw'\n"
                    "n = -1_000\n"
                    "[gpus.extra]\n"
                    "devices = [\"gpu:0\", \"gpu:1\",]\n"
                    "on = true\n"
                    "empty = []\n";
    seen s = {{0}};
    cuzk_error err = {0};
    assert_int_equal(cuzk_toml_parse(t, strlen(t), "f.toml", collect, &s, &err), CUZK_OK);
    assert_string_equal(s.out, "2 .a=i:1;3 .b=s:x # not a comment\t;6 memory.budget=s:C:\\raw;"
                               "7 memory.n=i:-1000;9 gpus.extra.devices=s:gpu:0,s:gpu:1;"
                               "10 gpus.extra.on=b:1;11 gpus.extra.empty=;");
}

static void test_refuses(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"a = 1\na = 2\n", "f.toml:2: key a given twice"},
        {"[x]\n[y]\n[x]\n", "f.toml:3: table [x] given twice"},
        {"a.b = 1\n", "f.toml:1: dotted keys"},
        {"\"a\" = 1\n", "f.toml:1: quoted keys"},
        {"a = 1.5\n", "f.toml:1: not an integer"},
        {"a = 0x10\n", "f.toml:1: leading zeros"},
        {"a = 99999999999999999999\n", "f.toml:1: integer out of range"},
        {"a = \"open\n", "f.toml:1: unterminated string"},
        {"a = \"\\q\"\n", "f.toml:1: unsupported escape"},
        {"a = [1, \"x\"]\n", "f.toml:1: array items of different types"},
        {"a = [1,\n2]\n", "f.toml:1: unterminated array"},
        {"a = {b = 1}\n", "f.toml:1: inline tables"},
        {"[[t]]\n", "f.toml:1: arrays of tables"},
        {"a = 1 2\n", "f.toml:1: unexpected text after the value"},
        {"a 1\n", "f.toml:1: expected = after the key"},
        {"\n\n[t\n", "f.toml:3: expected ]"},
        {"a = yes\n", "f.toml:1: expected a value"},
        {"a = [[1]]\n", "f.toml:1: nested arrays"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        seen s = {{0}};
        cuzk_error err = {0};
        cuzk_status st = cuzk_toml_parse(bad[i].text, strlen(bad[i].text), "f.toml", collect, &s,
                                          &err);
        if (st != CUZK_ERR_FORMAT || strncmp(err.msg, bad[i].msg, strlen(bad[i].msg)) != 0)
            fprintf(stderr, "case %zu: got %d \"%s\"\n", i, st, err.msg);
        assert_int_equal(st, CUZK_ERR_FORMAT);
        assert_memory_equal(err.msg, bad[i].msg, strlen(bad[i].msg));
    }
    /* a NUL byte inside the text */
    cuzk_error err = {0};
    seen s = {{0}};
    assert_int_equal(cuzk_toml_parse("a = 1\n\0b", 9, "f.toml", collect, &s, &err), CUZK_ERR_FORMAT);
    assert_string_equal(err.msg, "f.toml:2: NUL byte");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_accepts),
                                       cmocka_unit_test(test_refuses)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
