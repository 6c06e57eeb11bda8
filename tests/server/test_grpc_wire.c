/*
 * test_grpc_wire.c — grpc_wire.h: grpc-timeout parsing and formatting (round trips over
 * random values, every unit, malformed values), grpc-message percent-encoding round
 * trips over random bytes, status names, frame headers, and address parsing errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "server/grpc_wire.h"
#include "test_rng.h"

static void test_timeout_parse(void **state)
{
    int64_t ns;
    assert_int_equal(grpc_timeout_parse("100m", 4, &ns), 0);
    assert_int_equal(ns, 100000000);
    assert_int_equal(grpc_timeout_parse("5S", 2, &ns), 0);
    assert_int_equal(ns, 5000000000LL);
    assert_int_equal(grpc_timeout_parse("2H", 2, &ns), 0);
    assert_int_equal(ns, 7200000000000LL);
    assert_int_equal(grpc_timeout_parse("3M", 2, &ns), 0);
    assert_int_equal(ns, 180000000000LL);
    assert_int_equal(grpc_timeout_parse("7u", 2, &ns), 0);
    assert_int_equal(ns, 7000);
    assert_int_equal(grpc_timeout_parse("9n", 2, &ns), 0);
    assert_int_equal(ns, 9);
    assert_int_equal(grpc_timeout_parse("99999999H", 9, &ns), 0);
    assert_true(ns > 0);
    static const char *const bad[] = {"", "m", "10", "10x", "-1S", "1 S", "123456789S", "S1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(grpc_timeout_parse(bad[i], strlen(bad[i]), &ns), -1);
}

static void test_timeout_roundtrip(void **state)
{
    size_t iters = test_iters(2000);
    for (size_t i = 0; i < iters; i++) {
        int64_t v = (int64_t)(test_rng_u64() >> (1 + test_rng_u64() % 62));
        if (v < 1)
            v = 1;
        char s[16];
        grpc_timeout_format(v, s);
        size_t n = strlen(s);
        assert_true(n >= 2 && n <= 9);
        int64_t back;
        assert_int_equal(grpc_timeout_parse(s, n, &back), 0);
        /* Never shorter than asked, and the finest unit that fits 8 digits: the
         * rounding adds less than one unit, which is under v / 99999. */
        assert_true(back >= v);
        assert_true(back - v <= v / 99999 + 1);
    }
}

static void test_message_roundtrip(void **state)
{
    char *e = grpc_message_encode("50% done\n\xc3\xa9");
    assert_string_equal(e, "50%25 done%0A%C3%A9");
    char *d = grpc_message_decode(e, strlen(e));
    assert_string_equal(d, "50% done\n\xc3\xa9");
    free(e);
    free(d);
    d = grpc_message_decode("bad %zz and %4", 14);
    assert_string_equal(d, "bad %zz and %4");
    free(d);
    size_t iters = test_iters(500);
    for (size_t i = 0; i < iters; i++) {
        char msg[65];
        size_t n = 1 + test_rng_u64() % 64;
        test_rng_bytes((uint8_t *)msg, n);
        for (size_t j = 0; j < n; j++)
            if (!msg[j])
                msg[j] = 'z';
        msg[n] = 0;
        e = grpc_message_encode(msg);
        for (const char *p = e; *p; p++)
            assert_true(*p >= 0x20 && *p <= 0x7e);
        d = grpc_message_decode(e, strlen(e));
        assert_string_equal(d, msg);
        free(e);
        free(d);
    }
}

static void test_names_and_frames(void **state)
{
    assert_string_equal(grpc_status_name(0), "OK");
    assert_string_equal(grpc_status_name(8), "RESOURCE_EXHAUSTED");
    assert_string_equal(grpc_status_name(99), "UNKNOWN");
    uint8_t h[5];
    grpc_frame_header_put(h, 0, 0x01020304);
    assert_memory_equal(h, ((uint8_t[]){0, 1, 2, 3, 4}), 5);
}

static void test_addresses(void **state)
{
    char p[64];
    assert_int_equal(grpc_addr_unix_path("unix:///run/x.sock", p, sizeof p), 1);
    assert_string_equal(p, "/run/x.sock");
    assert_int_equal(grpc_addr_unix_path("unix:rel.sock", p, sizeof p), 1);
    assert_string_equal(p, "rel.sock");
    assert_int_equal(grpc_addr_unix_path("127.0.0.1:9820", p, sizeof p), 0);
    static const char *const bad[] = {"nocolon", "host:", "host:99999", "host:12a",
                                      "[::1]9820", "unix://", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int fd;
        cuzk_error e = {0};
        assert_int_not_equal(grpc_listen(bad[i], 1, NULL, &fd, NULL, &e), CUZK_OK);
        assert_int_equal(fd, -1);
        assert_true(e.msg[0] != 0);
        assert_int_not_equal(grpc_connect(bad[i], &fd, &e), CUZK_OK);
    }
    /* A non-socket file at a unix path is never replaced. */
    int fd;
    cuzk_error e = {0};
    assert_int_equal(grpc_listen("unix:///dev/null", 1, NULL, &fd, NULL, &e), CUZK_ERR_IO);
}

int main(void)
{
    test_rng_init("test_grpc_wire");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeout_parse),     cmocka_unit_test(test_timeout_roundtrip),
        cmocka_unit_test(test_message_roundtrip), cmocka_unit_test(test_names_and_frames),
        cmocka_unit_test(test_addresses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
