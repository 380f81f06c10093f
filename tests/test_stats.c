/* test_stats.c - summary statistics against hand-computed values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "settle.h"

#define EPS 1e-12

static void assert_finite_summary(const struct settle_summary *s)
{
	const double v[] = { s->min, s->max, s->median, s->mean, s->mad,
			     s->stddev, s->cv };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_true(isfinite(v[i]));
		assert_true(v[i] >= 0);
	}
}

static void test_empty(void **st)
{
	struct settle_summary s;

	(void)st;
	assert_int_equal(settle_summarize(NULL, 0, &s), 0);
	assert_int_equal(s.n, 0);
	assert_finite_summary(&s);
	assert_true(s.median == 0 && s.mean == 0 && s.cv == 0);
}

static void test_one(void **st)
{
	const double x[] = { 5 };
	struct settle_summary s;

	(void)st;
	settle_summarize(x, 1, &s);
	assert_finite_summary(&s);
	assert_float_equal(s.min, 5, EPS);
	assert_float_equal(s.max, 5, EPS);
	assert_float_equal(s.median, 5, EPS);
	assert_float_equal(s.mean, 5, EPS);
	assert_float_equal(s.mad, 0, EPS);
	assert_float_equal(s.stddev, 0, EPS);
	assert_float_equal(s.cv, 0, EPS);
}

static void test_two(void **st)
{
	const double x[] = { 3, 1 };
	struct settle_summary s;

	(void)st;
	settle_summarize(x, 2, &s);
	assert_finite_summary(&s);
	assert_float_equal(s.median, 2, EPS);
	assert_float_equal(s.mean, 2, EPS);
	assert_float_equal(s.mad, 1, EPS);
	assert_float_equal(s.stddev, sqrt(2), EPS);
	assert_float_equal(s.cv, sqrt(2) / 2, EPS);
	assert_float_equal(s.min, 1, EPS);
	assert_float_equal(s.max, 3, EPS);
}

static void test_all_equal(void **st)
{
	const double x[] = { 4, 4, 4, 4 };
	struct settle_summary s;

	(void)st;
	settle_summarize(x, 4, &s);
	assert_finite_summary(&s);
	assert_float_equal(s.median, 4, EPS);
	assert_float_equal(s.mad, 0, EPS);
	assert_float_equal(s.stddev, 0, EPS);
	assert_float_equal(s.cv, 0, EPS);
}

static void test_all_zero(void **st)
{
	const double x[] = { 0, 0, 0 };
	struct settle_summary s;

	(void)st;
	settle_summarize(x, 3, &s);
	assert_finite_summary(&s);
	assert_float_equal(s.mean, 0, EPS);
	assert_float_equal(s.cv, 0, EPS); /* 0 / 0 must not be NaN */
}

static void test_outlier(void **st)
{
	/* median 3; |x - 3| = 2 1 0 1 97 -> MAD 1; mean 22;
	 * squares of deviations 441 400 361 324 6084 = 7610, / 4. */
	const double x[] = { 4, 100, 1, 3, 2 };
	struct settle_summary s;

	(void)st;
	settle_summarize(x, 5, &s);
	assert_float_equal(s.median, 3, EPS);
	assert_float_equal(s.mad, 1, EPS);
	assert_float_equal(s.mean, 22, EPS);
	assert_float_equal(s.stddev, sqrt(7610.0 / 4), 1e-9);
	assert_float_equal(s.cv, sqrt(7610.0 / 4) / 22, 1e-9);
	assert_float_equal(s.min, 1, EPS);
	assert_float_equal(s.max, 100, EPS);
	/* the input is not reordered */
	assert_float_equal(x[0], 4, EPS);
}

static void test_bad_samples_become_zero(void **st)
{
	const double x[] = { NAN, -5, INFINITY, 6 };
	struct settle_summary s;

	(void)st;
	settle_summarize(x, 4, &s);
	assert_finite_summary(&s);
	assert_float_equal(s.max, 6, EPS);
	assert_float_equal(s.median, 0, EPS);
}

static void test_median_even(void **st)
{
	double x[] = { 10, 2, 8, 4 };

	(void)st;
	assert_float_equal(settle_median_inplace(x, 4), 6, EPS);
	assert_float_equal(settle_median_inplace(x, 0), 0, EPS);
}

static void test_safe_div(void **st)
{
	(void)st;
	assert_float_equal(settle_safe_div(1, 0), 0, EPS);
	assert_float_equal(settle_safe_div(0, 0), 0, EPS);
	assert_float_equal(settle_safe_div(NAN, 2), 0, EPS);
	assert_float_equal(settle_safe_div(1e308, 1e-308), 0, EPS);
	assert_float_equal(settle_safe_div(6, 3), 2, EPS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_one),
		cmocka_unit_test(test_two),
		cmocka_unit_test(test_all_equal),
		cmocka_unit_test(test_all_zero),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_bad_samples_become_zero),
		cmocka_unit_test(test_median_even),
		cmocka_unit_test(test_safe_div),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
