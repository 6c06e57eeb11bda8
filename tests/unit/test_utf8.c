/*
 * test_utf8.c — UTF-8 for text that reaches clients (src/util/utf8.h): sequences as Go's
 * utf8.ValidString reads them (overlongs, surrogates, > U+10FFFF refused), cutting at a
 * character boundary, scrubbing in place; and cuzk_error_set, whose 256-byte buffer must
 * never end inside a character (grpc-go refuses a reply whose error_message does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/status.h"
#include "test_rng.h"
#include "util/utf8.h"

static void test_sequences(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t len;
    } ok[] = {{"a", 1}, {"\xc3\xa9", 2}, {"\xe2\x82\xac", 3}, {"\xf0\x9f\x98\x80", 4},
              {"\xed\x9f\xbf", 3} /* U+D7FF */, {"\xf4\x8f\xbf\xbf", 4} /* U+10FFFF */};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        assert_int_equal(cuzk_utf8_seq_len(ok[i].s, strlen(ok[i].s)), ok[i].len);
    static const char *const bad[] = {
        "\x80", "\xbf", "\xc0\x80", "\xc1\xbf", /* overlong ASCII */
        "\xe0\x9f\xbf",                        /* overlong 3-byte */
        "\xed\xa0\x80", "\xed\xbf\xbf",        /* surrogates */
        "\xf0\x8f\xbf\xbf",                    /* overlong 4-byte */
        "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", /* above U+10FFFF */
        "\xc3", "\xe2\x82", "\xf0\x9f\x98",    /* cut short */
        "\xc3\x41",                            /* a lead followed by ASCII */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(cuzk_utf8_seq_len(bad[i], strlen(bad[i])), 0);
    assert_true(cuzk_utf8_valid("caf\xc3\xa9 \xe2\x82\xac", 9));
    assert_false(cuzk_utf8_valid("caf\xc3", 4));
}

static void test_cut_and_scrub(void **state)
{
    (void)state;
    const char *s = "ab\xe2\x82\xac"; /* "ab€" */
    assert_int_equal(cuzk_utf8_cut(s, 5), 5);
    assert_int_equal(cuzk_utf8_cut(s, 4), 2);
    assert_int_equal(cuzk_utf8_cut(s, 3), 2);
    assert_int_equal(cuzk_utf8_cut(s, 2), 2);
    assert_int_equal(cuzk_utf8_cut("\xf0\x9f\x98", 3), 0);
    char b[] = "ok \xff \xc3\xa9 \xed\xa0\x80 end \xe2\x82";
    assert_int_equal(cuzk_utf8_scrub(b), 1 + 3 + 2);
    assert_string_equal(b, "ok ? \xc3\xa9 ??? end ??");
    assert_true(cuzk_utf8_valid(b, strlen(b)));
}

/* Random byte strings: scrubbing always leaves valid UTF-8, and keeps what was valid. */
static void test_scrub_random(void **state)
{
    (void)state;
    size_t iters = test_iters(2000);
    for (size_t it = 0; it < iters; it++) {
        char b[40];
        size_t n = (size_t)(test_rng_u64() % 39);
        test_rng_bytes((uint8_t *)b, n);
        for (size_t i = 0; i < n; i++)
            if (!b[i])
                b[i] = 'x';
        b[n] = 0;
        char orig[40];
        memcpy(orig, b, n + 1);
        size_t bad = cuzk_utf8_scrub(b);
        assert_int_equal(strlen(b), n);
        assert_true(cuzk_utf8_valid(b, n));
        assert_int_equal(bad == 0, cuzk_utf8_valid(orig, n));
    }
}

/* Every position of a 2-, 3- and 4-byte character across the 255-byte cut. */
static void test_error_cut(void **state)
{
    (void)state;
    static const char *const chars[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
    for (size_t c = 0; c < 3; c++) {
        for (size_t pad = 245; pad < 260; pad++) {
            char text[600];
            memset(text, 'x', pad);
            text[pad] = 0;
            for (int k = 0; k < 20; k++)
                strcat(text, chars[c]);
            cuzk_error e;
            assert_int_equal(cuzk_error_set(&e, CUZK_ERR_FORMAT, "%s", text), CUZK_ERR_FORMAT);
            size_t n = strlen(e.msg);
            assert_true(n <= CUZK_ERROR_MSG_MAX - 1);
            assert_true(n >= CUZK_ERROR_MSG_MAX - 4);
            if (!cuzk_utf8_valid(e.msg, n))
                fail_msg("%s x %zu: message of %zu bytes ends inside a character", chars[c], pad,
                         n);
            assert_memory_equal(e.msg, text, n);
        }
    }
}

int main(void)
{
    test_rng_init("test_utf8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequences),
        cmocka_unit_test(test_cut_and_scrub),
        cmocka_unit_test(test_scrub_random),
        cmocka_unit_test(test_error_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
