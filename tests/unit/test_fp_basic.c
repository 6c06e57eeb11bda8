/* test_fp_basic.c — smoke test of the Montgomery core against python-free identities. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cuzk/ff.h"
#include "test_rng.h"

static void test_mul_inv(void **state)
{
    (void)state;
    size_t n = test_iters(200);
    for (size_t i = 0; i < n; i++) {
        cuzk_fp a, b, c;
        test_rand_fp(&a);
        if (cuzk_fp_is_zero(&a))
            continue;
        cuzk_fp_inv(&b, &a);
        cuzk_fp_mul(&c, &a, &b);
        assert_true(cuzk_fp_is_one(&c));
    }
}

int main(void)
{
    test_rng_init("test_fp_basic");
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_mul_inv)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
