/*
 * test_proportion.c - the Wilson score interval and Clopper-Pearson bounds
 * against published values
 * and Amdahl's bound against hand-computed ones (src/stats/proportion.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/proportion.h"

/*
 * Newcombe, Statistics in Medicine 17 (1998) 857-872, Table II, method 3
 * (the Wilson score interval without continuity correction), printed to
 * four decimals: so each bound must agree to within 0.00005 (+ rounding).
 */
static void test_wilson_newcombe(void **st)
{
	static const struct { uint64_t k, n; double lo, hi; } t[] = {
		{ 81, 263, 0.2553, 0.3662 },
		{ 15, 148, 0.0624, 0.1605 },
		{ 0, 20, 0.0000, 0.1611 },
		{ 1, 29, 0.0061, 0.1718 },
		{ 29, 29, 0.8830, 1.0000 },
	};
	double lo, hi;

	(void)st;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(settle_wilson_interval(t[i].k, t[i].n,
							SETTLE_Z95, &lo, &hi), 0);
		assert_float_equal(lo, t[i].lo, 0.00006);
		assert_float_equal(hi, t[i].hi, 0.00006);
	}
}

/* The closed form worked by hand: k = 5, n = 10, z = 2: centre 0.5,
 * half-width 2 / 1.4 * sqrt(0.025 + 0.01) = 0.267261... */
static void test_wilson_by_hand(void **st)
{
	double lo, hi, h = 2 / 1.4 * sqrt(0.035);

	(void)st;
	assert_int_equal(settle_wilson_interval(5, 10, 2, &lo, &hi), 0);
	assert_float_equal(lo, 0.5 - h, 1e-12);
	assert_float_equal(hi, 0.5 + h, 1e-12);
	/* the ends are exact, not rounding noise */
	assert_int_equal(settle_wilson_interval(0, 1000, SETTLE_Z95, &lo, &hi), 0);
	assert_true(lo == 0 && hi > 0 && hi < 0.01);
	assert_int_equal(settle_wilson_interval(1000, 1000, SETTLE_Z95, &lo, &hi), 0);
	assert_true(hi == 1 && lo > 0.99 && lo < 1);
}

/*
 * Clopper and Pearson's exact bounds: 4 of 20 at 2.5 % a side, the
 * interval textbooks quote ([0.0573, 0.4366]); the rest against beta
 * quantiles computed apart (scipy 1.10, beta.ppf(alpha, k, n - k + 1) and
 * beta.ppf(1 - alpha, k + 1, n - k)), to 1e-9.
 */
static void test_binomial_bounds(void **st)
{
	static const struct { uint64_t k, n; double alpha, lo, hi; } t[] = {
		{ 4, 20, 0.025, 0.0573339971, 0.4366140030 },
		{ 0, 1, 0.05, 0, 0.95 },
		{ 1, 1, 0.05, 0.05, 1 },
		{ 0, 10, 0.05, 0, 0.2588655509 },
		{ 185, 200, 0.05, 0.8868616117, 0.9532029835 },
		{ 81, 200, 0.05, 0.3467544341, 0.4653745424 },
		{ 46, 100, 0.05, 0.3747891536, 0.5470287720 },
		{ 0, 200, 0.05, 0, 0.0148670392 },
		{ 3, 50, 0.05, 0.0165518592, 0.1478371764 },
		{ 99990, 100000, 0.05, 0.9998303837, 0.9999457450 },
	};
	double lo, hi;

	(void)st;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(settle_binomial_bounds(t[i].k, t[i].n,
							t[i].alpha, &lo, &hi),
				 0);
		assert_float_equal(lo, t[i].lo, 1e-9);
		assert_float_equal(hi, t[i].hi, 1e-9);
	}
	/* wider than Wilson's where Wilson is too narrow: 0 of 1 */
	assert_int_equal(settle_wilson_interval(0, 1, 1.6448536269514722,
						&lo, &hi), 0);
	assert_true(hi < 0.8);
	assert_int_equal(settle_binomial_bounds(5, 4, 0.05, &lo, &hi), -1);
	assert_int_equal(settle_binomial_bounds(0, 0, 0.05, &lo, &hi), -1);
	assert_int_equal(settle_binomial_bounds(1, 2, 0, &lo, &hi), -1);
	assert_int_equal(settle_binomial_bounds(1, 2, 0.6, &lo, &hi), -1);
	assert_int_equal(settle_binomial_bounds(1, 2, NAN, &lo, &hi), -1);
	assert_true(lo == 0 && hi == 0);
}

/* More samples, a narrower interval around the same proportion, always
 * containing it. */
static void test_wilson_shrinks(void **st)
{
	double lo1, hi1, lo2, hi2;

	(void)st;
	settle_wilson_interval(13, 1000, SETTLE_Z95, &lo1, &hi1);
	settle_wilson_interval(1300, 100000, SETTLE_Z95, &lo2, &hi2);
	assert_true(lo1 < 0.013 && 0.013 < hi1);
	assert_true(lo2 < 0.013 && 0.013 < hi2);
	assert_true(hi2 - lo2 < (hi1 - lo1) / 5);
}

static void test_wilson_refuses(void **st)
{
	double lo = 7, hi = 7;

	(void)st;
	assert_int_equal(settle_wilson_interval(0, 0, SETTLE_Z95, &lo, &hi), -1);
	assert_true(lo == 0 && hi == 0);
	assert_int_equal(settle_wilson_interval(3, 2, SETTLE_Z95, &lo, &hi), -1);
	assert_int_equal(settle_wilson_interval(1, 2, 0, &lo, &hi), -1);
	assert_int_equal(settle_wilson_interval(1, 2, NAN, &lo, &hi), -1);
	assert_int_equal(settle_wilson_interval(1, 2, INFINITY, &lo, &hi), -1);
}

/* Amdahl by hand: 1.3 % of the time, k = 2 saves 0.65 %, k = 10 1.17 %,
 * k = infinity 1.3 %; the founding argument's 3 % share: 1.5 % for k = 2. */
/* Newcombe's example (1998, Table II, method 10): 56/70 against 48/80,
 * a difference of 0.2 in [0.0524, 0.3339]; reversed, its mirror. */
static void test_difference_newcombe(void **st)
{
	double alo, ahi, blo, bhi, lo, hi, d;

	(void)st;
	settle_wilson_interval(48, 80, SETTLE_Z95, &alo, &ahi);
	settle_wilson_interval(56, 70, SETTLE_Z95, &blo, &bhi);
	d = settle_proportion_difference(48.0 / 80, alo, ahi, 56.0 / 70, blo,
					 bhi, &lo, &hi);
	assert_float_equal(d, 0.2, 1e-12);
	assert_float_equal(lo, 0.0524, 5e-5);
	assert_float_equal(hi, 0.3339, 5e-5);
	d = settle_proportion_difference(56.0 / 70, blo, bhi, 48.0 / 80, alo,
					 ahi, &lo, &hi);
	assert_float_equal(d, -0.2, 1e-12);
	assert_float_equal(lo, -0.3339, 5e-5);
	assert_float_equal(hi, -0.0524, 5e-5);
}

/* A side's upper end widened (samples that may be its): the difference's
 * interval widens on that side only; bounds out of order are refused. */
static void test_difference_widened(void **st)
{
	double lo, hi, lo2, hi2;

	(void)st;
	settle_proportion_difference(0.1, 0.08, 0.12, 0.3, 0.27, 0.33, &lo,
				     &hi);
	settle_proportion_difference(0.1, 0.08, 0.12, 0.3, 0.27, 0.60, &lo2,
				     &hi2);
	assert_float_equal(lo2, lo, 1e-12);
	assert_true(hi2 > hi + 0.2);
	assert_true(isnan(settle_proportion_difference(0.1, 0.2, 0.3, 0.3,
						       0.2, 0.4, &lo, &hi)));
	assert_true(isnan(lo) && isnan(hi));
	assert_true(isnan(settle_proportion_difference(NAN, 0, 1, 0.3, 0.2,
						       0.4, &lo, &hi)));
}

static void test_amdahl(void **st)
{
	(void)st;
	assert_float_equal(settle_amdahl_saved(0.013, 2), 0.0065, 1e-15);
	assert_float_equal(settle_amdahl_saved(0.013, 10), 0.0117, 1e-15);
	assert_float_equal(settle_amdahl_saved(0.013, INFINITY), 0.013, 1e-15);
	assert_float_equal(settle_amdahl_saved(0.03, 2), 0.015, 1e-15);
	assert_float_equal(settle_amdahl_saved(1, 4), 0.75, 1e-15);
	assert_float_equal(settle_amdahl_saved(0.5, 1), 0, 1e-15);
	/* speed-up 1 / (1 - p + p/k): p = 0.5, k = 3 -> 1.5 */
	assert_float_equal(1 / (1 - settle_amdahl_saved(0.5, 3)), 1.5, 1e-12);
}

static void test_amdahl_refuses(void **st)
{
	(void)st;
	assert_true(settle_amdahl_saved(-0.1, 2) == 0);
	assert_true(settle_amdahl_saved(1.1, 2) == 0);
	assert_true(settle_amdahl_saved(0.5, 0.5) == 0);
	assert_true(settle_amdahl_saved(NAN, 2) == 0);
	assert_true(settle_amdahl_saved(0.5, NAN) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wilson_newcombe),
		cmocka_unit_test(test_wilson_by_hand),
		cmocka_unit_test(test_wilson_shrinks),
		cmocka_unit_test(test_wilson_refuses),
		cmocka_unit_test(test_binomial_bounds),
		cmocka_unit_test(test_difference_newcombe),
		cmocka_unit_test(test_difference_widened),
		cmocka_unit_test(test_amdahl),
		cmocka_unit_test(test_amdahl_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
