/*
 * test_size.c — the byte-size syntax every command line and config file shares
 * (util/size.h): binary and decimal units in any case, blanks, plain bytes; refusals of
 * what is not a size (no digits, unknown units, trailing text, overflow).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "util/util_export.h"

static void test_accepted(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        uint64_t v;
    } ok[] = {
        {"2048", 2048},          {"2KiB", 2048},          {"2 KiB", 2048},
        {"2kib", 2048},          {"8MiB", 8ull << 20},    {"512MiB", 512ull << 20},
        {"32GiB", 32ull << 30},  {"32 gib", 32ull << 30}, {"64GiB", 64ull << 30},
        {"1TiB", 1ull << 40},    {"5 GB", 5000000000ull}, {"7B", 7},
        {"  12", 12},            {"0", 0},                {"18446744073709551615", UINT64_MAX},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint64_t v = 1;
        if (!cuzk_parse_size(ok[i].s, &v) || v != ok[i].v)
            fail_msg("\"%s\": got %llu", ok[i].s, (unsigned long long)v);
    }
}

static void test_refused(void **state)
{
    (void)state;
    static const char *bad[] = {"",      "GiB",    "x",     "-1",      "2 KiBs",
                                "2KiB ", "32G",    "1.5GiB", "2 K iB", "16777216TiB",
                                "18446744073709551616", "0x10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 0;
        if (cuzk_parse_size(bad[i], &v))
            fail_msg("\"%s\" accepted as %llu", bad[i], (unsigned long long)v);
    }
    uint64_t v;
    assert_false(cuzk_parse_size(NULL, &v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_accepted),
                                       cmocka_unit_test(test_refused)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
