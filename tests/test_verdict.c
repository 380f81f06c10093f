/*
 * test_verdict.c - rank statistics against published or hand-computed
 * values, and the verdict rules on the cases that trip harnesses up.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "settle.h"
#include "stats/nonparam.h"
#include "stats/rules.h"

/* R's wilcox.test example (Hollander & Wolfe 1973, p. 69): W = 35. */
static void test_rank_sum_published(void **st)
{
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64,
			     0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	double w, u, p;

	(void)st;
	assert_int_equal(settle_rank_sum(x, 10, y, 5, &w, &u, &p), 0);
	assert_float_equal(u, 35, 1e-12);
	assert_float_equal(w, 35 + 55, 1e-12);
	/* exact two-sided p is 0.2544; the normal approximation is near */
	assert_true(p > 0.22 && p < 0.28);
}

/*
 * Ties, by hand: x = 1 2 2 3, y = 2 3 4 5. Mid-ranks: 1 -> 1, the three
 * 2s -> 3, the two 3s -> 5.5, 4 -> 7, 5 -> 8. W = 1 + 3 + 3 + 5.5 = 12.5,
 * U = 12.5 - 10 = 2.5 (pairs x > y, ties 1/2: 0 + 0.5 + 0.5 + 1.5).
 * Tie-corrected variance 16/12 * (9 - 30/56) = 11.2857; z = (5.5 - 0.5) /
 * 3.3594 = 1.4884; two-sided p = 0.1366.
 */
static void test_rank_sum_ties(void **st)
{
	const double x[] = { 1, 2, 2, 3 }, y[] = { 2, 3, 4, 5 };
	double w, u, p;

	(void)st;
	assert_int_equal(settle_rank_sum(x, 4, y, 4, &w, &u, &p), 0);
	assert_float_equal(w, 12.5, 1e-12);
	assert_float_equal(u, 2.5, 1e-12);
	assert_float_equal(p, 0.1366, 5e-4);
	assert_int_equal(settle_rank_sum(x, 0, y, 4, &w, &u, &p), -1);
}

/* 1..10: Hodges-Lehmann 5.5; the signed-rank critical value for n = 10
 * at 5 % two-sided is 8 (published tables), so the interval runs from
 * the 9th to the 47th Walsh average: [3, 8], confidence 1 - 2 * 25/1024. */
static void test_signed_rank_interval(void **st)
{
	const double d[] = { 4, 9, 1, 7, 3, 10, 2, 8, 6, 5 };
	struct settle_interval iv;

	(void)st;
	assert_int_equal(settle_signed_rank_interval(d, 10, 0.95, &iv), 0);
	assert_float_equal(iv.est, 5.5, 1e-12);
	assert_float_equal(iv.lo, 3, 1e-12);
	assert_float_equal(iv.hi, 8, 1e-12);
	assert_float_equal(iv.level, 1 - 2 * 25.0 / 1024, 1e-9);
}

static void test_quantiles(void **st)
{
	(void)st;
	assert_float_equal(settle_normal_quantile(0.975), 1.959964, 1e-6);
	assert_float_equal(settle_normal_quantile(0.5), 0, 1e-9);
	assert_float_equal(settle_t_quantile(0.975, 10), 2.228139, 1e-5);
	assert_float_equal(settle_t_quantile(0.975, 2), 4.302653, 1e-5);
	assert_float_equal(settle_t_quantile(0.025, 4), -2.776445, 1e-5);
	/* Welch's degrees of freedom are not whole (scipy.stats.t.ppf) */
	assert_float_equal(settle_t_quantile(0.975, 2.5), 3.574655, 1e-5);
	assert_float_equal(settle_t_quantile(0.975, 1.3), 7.500529, 1e-5);
	assert_float_equal(settle_t_quantile(0.975, 7.7), 2.321737, 1e-5);
	/* the notes' test of a level short of 95 % (the view and compare
	 * each had one, with and without a rounding margin) */
	assert_true(settle_level_short(0.9375));
	assert_false(settle_level_short(0.95));
	assert_false(settle_level_short(0.95 - 1e-12));
	assert_false(settle_level_short(0.96));
	/* outside its ranges: NaN, never 0 (an interval of no width) */
	assert_true(isnan(settle_t_quantile(0.975, 0.5)));
	assert_true(isnan(settle_t_quantile(0.975, NAN)));
	assert_true(isnan(settle_t_quantile(1, 10)));
	assert_true(isnan(settle_t_quantile(0, 10)));
}

static void test_bootstrap_reproducible(void **st)
{
	double x[50];
	struct settle_interval a, b, c;
	uint64_t s = 1;

	(void)st;
	for (int i = 0; i < 50; i++)
		x[i] = (double)(settle_random_next(&s) % 1000);
	assert_int_equal(settle_bootstrap_median(x, 50, 500, 42, 0.95, &a), 0);
	assert_int_equal(settle_bootstrap_median(x, 50, 500, 42, 0.95, &b), 0);
	assert_int_equal(settle_bootstrap_median(x, 50, 500, 43, 0.95, &c), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(a.lo <= a.est && a.est <= a.hi && a.lo < a.hi);
	assert_true(c.lo != a.lo || c.hi != a.hi);
}

static void assert_sane(const struct settle_comparison *c)
{
	assert_true(isfinite(c->ratio) && c->ratio >= 0);
	assert_true(isfinite(c->lo) && c->lo >= 0);
	assert_true(isfinite(c->hi) && c->hi >= c->lo);
}

/* Five 115s against five 78.8s: nothing is an outlier, -31 %. */
static void test_identical_samples(void **st)
{
	const double a[] = { 115, 115, 115, 115, 115 };
	const double b[] = { 78.8, 78.8, 78.8, 78.8, 78.8 };
	struct settle_comparison c;

	(void)st;
	assert_int_equal(settle_compare_paired(a, b, 5, 0.01, &c), 0);
	assert_sane(&c);
	assert_int_equal(c.verdict, SETTLE_FASTER);
	assert_float_equal(c.ratio, 78.8 / 115, 1e-12);
	assert_float_equal(c.lo, 78.8 / 115, 1e-12);
	assert_int_equal(settle_compare_unpaired(a, 5, b, 5, 0.01, &c), 0);
	assert_int_equal(c.verdict, SETTLE_FASTER);
	assert_float_equal((c.ratio - 1) * 100, -31.478, 1e-3);
	/* and the same the other way round */
	assert_int_equal(settle_compare_unpaired(b, 5, a, 5, 0.01, &c), 0);
	assert_int_equal(c.verdict, SETTLE_SLOWER);
}

static void test_all_zero(void **st)
{
	const double z[] = { 0, 0, 0, 0, 0, 0 }, x[] = { 1, 2, 3, 4, 5, 6 };
	struct settle_comparison c;

	(void)st;
	assert_int_equal(settle_compare_paired(z, x, 6, 0.01, &c), -1);
	assert_sane(&c);
	assert_non_null(strstr(c.why, "no time"));
	assert_int_equal(settle_compare_unpaired(x, 6, z, 6, 0.01, &c), -1);
	assert_sane(&c);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
}

static void test_too_few(void **st)
{
	const double a[] = { 100, 101 }, b[] = { 50, 51 };
	struct settle_comparison c;

	(void)st;
	for (size_t n = 1; n <= 2; n++) {
		assert_int_equal(settle_compare_paired(a, b, n, 0.01, &c), 0);
		assert_sane(&c);
		assert_int_equal(c.verdict, SETTLE_UNCLEAR);
		assert_string_equal(c.why, "too few samples");
		assert_int_equal(settle_compare_unpaired(a, n, b, n, 0.01, &c), 0);
		assert_int_equal(c.verdict, SETTLE_UNCLEAR);
		assert_string_equal(c.why, "too few samples");
	}
	assert_true(settle_why_too_few(SETTLE_WHY_TOO_FEW));
	assert_false(settle_why_too_few("interval too wide"));
	assert_false(settle_why_too_few(NULL));
}

/* A comparison widened to the CPU times': it stands on the wider
 * interval (said), turns unclear where that decides otherwise or where
 * there is no CPU comparison, and is left alone when unclear already or
 * when the CPU interval lies within its own. */
static void test_widen_to_cpu(void **st)
{
	struct settle_comparison c = { .n = 12, .level = 0.95 }, cpu = c;

	(void)st;
	c.ratio = 0.58, c.lo = 0.579, c.hi = 0.581;
	settle_decide(&c, 0.01);
	cpu.ratio = 0.97, cpu.lo = 0.96, cpu.hi = 0.975;
	settle_widen_to_cpu(&c, &cpu, 0.01);
	assert_int_equal(c.verdict, SETTLE_FASTER);
	assert_string_equal(c.why, SETTLE_WHY_SHARED_WIDENED);
	assert_true(c.lo == 0.579 && c.hi == 0.975);
	assert_true(c.ratio == 0.58);
	/* the CPU times same: no verdict */
	c.lo = 0.579, c.hi = 0.581;
	settle_decide(&c, 0.01);
	cpu.ratio = 1.0, cpu.lo = 0.998, cpu.hi = 1.003;
	settle_widen_to_cpu(&c, &cpu, 0.01);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
	assert_string_equal(c.why, SETTLE_WHY_SHARED_CPU);
	/* none made */
	c.lo = 0.579, c.hi = 0.581;
	settle_decide(&c, 0.01);
	settle_widen_to_cpu(&c, NULL, 0.01);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
	assert_string_equal(c.why, SETTLE_WHY_SHARED_CPU);
	/* unclear already: its own reason kept */
	c.lo = 0.95, c.hi = 1.05;
	settle_decide(&c, 0.01);
	settle_widen_to_cpu(&c, &cpu, 0.01);
	assert_string_equal(c.why, "interval too wide");
	/* the CPU interval inside: nothing said */
	c.lo = 0.90, c.hi = 0.98;
	settle_decide(&c, 0.01);
	cpu.ratio = 0.95, cpu.lo = 0.93, cpu.hi = 0.96;
	settle_widen_to_cpu(&c, &cpu, 0.01);
	assert_int_equal(c.verdict, SETTLE_FASTER);
	assert_null(c.why);
	assert_true(c.lo == 0.90 && c.hi == 0.98);
}

/* An interval with an end that is no number decides nothing: unclear
 * (a NaN t quantile made NaN ends, and 0 made none at all). */
static void test_nan_ends(void **st)
{
	struct settle_comparison c = { .n = 12, .level = 0.95, .ratio = 0.5 };

	(void)st;
	c.lo = NAN, c.hi = 0.6;
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
	assert_string_equal(c.why, SETTLE_WHY_TOO_WIDE);
	c.lo = 0.4, c.hi = NAN;
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
	assert_string_equal(c.why, SETTLE_WHY_TOO_WIDE);
	/* not "too few samples" of a row of 12 */
	c.lo = 1.5, c.hi = INFINITY;
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
	assert_string_equal(c.why, SETTLE_WHY_TOO_WIDE);
	c.lo = 0.4, c.hi = 0.6;
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_FASTER);
}

/* The band: same inside, unclear straddling, faster/slower outside. */
static void test_band_rules(void **st)
{
	struct settle_comparison c = { .n = 30, .level = 0.95 };

	(void)st;
	c.lo = 0.995, c.hi = 1.004;
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_SAME);
	c.lo = 0.995, c.hi = 1.012;
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
	assert_string_equal(c.why, "interval straddles the band's edge");
	c.lo = 0.95, c.hi = 1.05;
	settle_decide(&c, 0.01);
	assert_string_equal(c.why, "interval too wide");
	c.lo = 1.02, c.hi = 1.04;
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_SLOWER);
	c.lo = 0.90, c.hi = 0.98;
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_FASTER);
	c.level = 0.75; /* 3 pairs: the widest interval reaches 75 % */
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
}

/* The band is a factor either way: A against B and B against A agree,
 * 0.75x [0.74, 0.76] within 30 % is faster as 1.333x [1.316, 1.351] is
 * slower (with 1 - band it was the same); its lower edge at 1 % is
 * 1/1.01. */
static void test_band_symmetric(void **st)
{
	struct settle_comparison c = { .n = 30, .level = 0.95 };
	struct settle_comparison m = c;

	(void)st;
	c.lo = 0.74, c.hi = 0.76;
	m.lo = 1 / c.hi, m.hi = 1 / c.lo;
	settle_decide(&c, 0.30);
	settle_decide(&m, 0.30);
	assert_int_equal(c.verdict, SETTLE_FASTER);
	assert_int_equal(m.verdict, SETTLE_SLOWER);
	for (double lo = 0.5; lo < 2; lo *= 1.0037) {
		c.lo = lo, c.hi = lo * 1.005;
		m.lo = 1 / c.hi, m.hi = 1 / c.lo;
		settle_decide(&c, 0.01);
		settle_decide(&m, 0.01);
		assert_int_equal(c.verdict == SETTLE_FASTER,
				 m.verdict == SETTLE_SLOWER);
		assert_int_equal(c.verdict == SETTLE_SAME,
				 m.verdict == SETTLE_SAME);
	}
	c.lo = 0.9901, c.hi = 1.0;
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_SAME);
	c.lo = 0.9900, c.hi = 1.0;
	settle_decide(&c, 0.01);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
}

/* A band that is negative (edges inside out: 1 + band below 1 / (1 +
 * band)), infinite or NaN decides nothing: every comparison gives unclear
 * and says why, and the comparisons return -1. A 10 % slowdown with band
 * -0.5 read "faster" before. */
static void test_bad_band(void **st)
{
	static const double bands[] = { -0.5, -1, -0.01, -2, NAN, INFINITY };
	double base[12], x[12], est[6];
	struct settle_comparison c;

	(void)st;
	for (size_t i = 0; i < 12; i++) {
		base[i] = 100 + (double)(i % 3);
		x[i] = 110 + (double)(i % 4);
	}
	for (size_t i = 0; i < 6; i++)
		est[i] = 0.095 + 0.001 * (double)i;
	assert_int_equal(settle_compare_paired(base, x, 12, 0.01, &c), 0);
	assert_int_equal(c.verdict, SETTLE_SLOWER);
	for (size_t b = 0; b < sizeof(bands) / sizeof(bands[0]); b++) {
		struct settle_comparison d = { .n = 30, .level = 0.95,
					       .lo = 1.09, .hi = 1.11 };

		assert_int_equal(settle_compare_paired(base, x, 12, bands[b],
						       &c), -1);
		assert_int_equal(c.verdict, SETTLE_UNCLEAR);
		assert_non_null(strstr(c.why, "no equivalence band"));
		assert_int_equal(settle_compare_unpaired(base, 12, x, 12,
							 bands[b], &c), -1);
		assert_int_equal(c.verdict, SETTLE_UNCLEAR);
		assert_int_equal(settle_compare_processes(est, 6, bands[b],
							  &c), -1);
		assert_int_equal(c.verdict, SETTLE_UNCLEAR);
		assert_non_null(strstr(c.why, "no equivalence band"));
		settle_decide(&d, bands[b]);
		assert_int_equal(d.verdict, SETTLE_UNCLEAR);
		assert_non_null(strstr(d.why, "no equivalence band"));
	}
	/* 0 is a band: only an interval of exactly 1 is the same */
	assert_int_equal(settle_compare_paired(base, x, 12, 0, &c), 0);
	assert_int_equal(c.verdict, SETTLE_SLOWER);
}

/* Every verdict has its name; a value outside the enum is "?", never a
 * verdict's. */
static void test_verdict_names(void **st)
{
	(void)st;
	assert_string_equal(settle_verdict_name(SETTLE_SAME), "same");
	assert_string_equal(settle_verdict_name(SETTLE_FASTER), "faster");
	assert_string_equal(settle_verdict_name(SETTLE_SLOWER), "slower");
	assert_string_equal(settle_verdict_name(SETTLE_UNCLEAR), "unclear");
	assert_string_equal(settle_verdict_name(SETTLE_INVALID), "invalid");
	assert_string_equal(settle_verdict_name((enum settle_verdict)99), "?");
	assert_string_equal(settle_verdict_name((enum settle_verdict)-1), "?");
}

static void test_processes(void **st)
{
	const double same[] = { 0.001, -0.002, 0.0005, 0.0015, -0.001 };
	const double up[] = { 0.030, 0.028, 0.031, 0.029, 0.032 };
	const double one_off[] = { 0.001, -0.002, 0.0005, 0.0015, -0.001, 0.0,
				   0.08 };
	struct settle_comparison c;

	(void)st;
	settle_compare_processes(same, 5, 0.01, &c);
	assert_int_equal(c.verdict, SETTLE_SAME);
	settle_compare_processes(up, 5, 0.01, &c);
	assert_int_equal(c.verdict, SETTLE_SLOWER);
	assert_float_equal(c.ratio, exp(0.03), 1e-9);
	/* processes are the units: too few of them, not of samples (a
	 * --processes 2 row of 20 samples read "too few samples") */
	settle_compare_processes(up, 1, 0.01, &c);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
	assert_string_equal(c.why, "too few processes");
	settle_compare_processes(up, 2, 0.01, &c);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
	assert_string_equal(c.why, "too few processes");
	assert_true(settle_why_too_few(c.why));
	/* seven processes, one 8 % off: the trimmed mean and Yuen's
	 * interval leave it out (a Student t interval would be [-1.7 %,
	 * +3.9 %], unclear); three processes are not trimmed */
	settle_compare_processes(one_off, 7, 0.01, &c);
	assert_int_equal(c.verdict, SETTLE_SAME);
	assert_float_equal(c.ratio, exp(0.0004), 1e-9);
	settle_compare_processes(one_off + 4, 3, 0.01, &c);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
}

/*
 * Two runs' per-process levels. Welch by hand: logs {0, .01, .02}
 * against {.05, .06, .07}: each variance 1e-4, d = 2e-4 / 6 a side,
 * 4 degrees of freedom, t = 2.776445, half-width 0.022669 about 0.05.
 * Yuen from 5 a side: sorted logs {.00, .01, .02, .03, .50} winsorized
 * to {.01, .01, .02, .03, .03}, s_w^2 = 1e-4, d = 4e-4 / 6 (h = 3).
 */
static void test_levels(void **st)
{
	const double old[] = { 1, exp(0.01), exp(0.02) };
	const double nw[] = { exp(0.05), exp(0.06), exp(0.07) };
	const double o5[] = { exp(0.5), 1, exp(0.02), exp(0.01), exp(0.03) };
	const double n5[] = { exp(0.03), exp(0.01), exp(0.02), exp(0.01),
			      exp(0.03) };
	double half = 2.776445 * sqrt(2 * 2e-4 / 6);
	struct settle_comparison c;

	(void)st;
	assert_int_equal(settle_compare_levels(old, 3, nw, 3, 0.01, &c), 0);
	assert_float_equal(c.ratio, exp(0.05), 1e-12);
	assert_float_equal(log(c.lo), 0.05 - half, 1e-5);
	assert_float_equal(log(c.hi), 0.05 + half, 1e-5);
	assert_float_equal(c.level, 0.95, 1e-12);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.verdict, SETTLE_SLOWER);
	assert_non_null(strstr(c.method, "Welch"));
	/* the same levels both ways round: the inverse interval */
	assert_int_equal(settle_compare_levels(nw, 3, old, 3, 0.01, &c), 0);
	assert_float_equal(log(c.hi), -(0.05 - half), 1e-5);
	assert_int_equal(c.verdict, SETTLE_FASTER);
	/* one process of five 50 % off is trimmed: both trimmed means are
	 * .02, and the outlier widens nothing */
	assert_int_equal(settle_compare_levels(o5, 5, n5, 5, 0.01, &c), 0);
	assert_true(fabs(log(c.ratio)) < 1e-12);
	assert_int_equal(c.n, 3);
	assert_true(log(c.hi) - log(c.ratio) < 0.05);
	assert_string_equal(c.method, SETTLE_METHOD_LEVELS_YUEN);
	/* five levels against four: the five are trimmed, so Yuen's, not
	 * Welch's (the method said Welch's unless both sides had five) */
	assert_int_equal(settle_compare_levels(o5, 5, n5, 4, 0.01, &c), 0);
	assert_string_equal(c.method, SETTLE_METHOD_LEVELS_YUEN);
	assert_int_equal(settle_compare_levels(o5, 4, n5, 5, 0.01, &c), 0);
	assert_string_equal(c.method, SETTLE_METHOD_LEVELS_YUEN);
	assert_int_equal(settle_compare_levels(o5, 4, n5, 4, 0.01, &c), 0);
	assert_string_equal(c.method, SETTLE_METHOD_LEVELS_WELCH);
	/* levels all alike: a point interval, the same */
	assert_int_equal(settle_compare_levels(old, 1, old, 1, 0.01, &c), 0);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
	assert_string_equal(c.why, "too few processes");
	assert_int_equal(settle_compare_levels(nw, 2, nw, 2, 0.01, &c), 0);
	assert_true(c.lo <= 1 && c.hi >= 1);
	assert_string_equal(c.why, "too few processes");
	assert_int_equal(settle_compare_levels(old, 3, nw, 3, -1, &c), -1);
	assert_int_equal(c.verdict, SETTLE_UNCLEAR);
}

/* A/A: 3 processes a file, the levels normal with 2 % spread, no band
 * (any interval without 1 is a verdict): unchanged code was called faster
 * or slower in 75 of 2000 pairs (a fixed seed), where the Mann-Whitney
 * interval of 3 a side (90 %) called it in 208. With the band of +-1 %,
 * 27 and 70. */
static double normal(unsigned long long *s)
{
	double u[2];

	for (int k = 0; k < 2; k++) {
		*s = *s * 6364136223846793005ull + 1442695040888963407ull;
		u[k] = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

static void test_levels_a_a(void **st)
{
	unsigned long long seed = 42;
	int called = 0, called_mw = 0;
	const int trials = 2000;

	(void)st;
	for (int t = 0; t < trials; t++) {
		double x[3], y[3];
		struct settle_comparison c;

		for (int i = 0; i < 3; i++) {
			x[i] = 100 * exp(0.02 * normal(&seed));
			y[i] = 100 * exp(0.02 * normal(&seed));
		}
		settle_compare_levels(x, 3, y, 3, 0, &c);
		called += c.verdict == SETTLE_FASTER ||
			  c.verdict == SETTLE_SLOWER;
		settle_compare_unpaired(x, 3, y, 3, 0, &c);
		called_mw += c.verdict == SETTLE_FASTER ||
			     c.verdict == SETTLE_SLOWER;
	}
	print_message("A/A verdicts: Welch %d, Mann-Whitney %d of %d\n",
		      called, called_mw, trials);
	assert_true(called < trials * 0.065);
	assert_true(called_mw > trials * 0.08); /* the test can tell */
}

/* The ratio of paired means by hand: {2, 4, 6} over {1, 2, 3} is 2 with
 * no spread; {1, 3} over {1, 1} is 2, residuals -1 and 1, s = sqrt(2),
 * standard error s / sqrt(2) / 1 = 1, t(0.975, 1) = 12.7062; a pair with
 * a value that is not a time is left out; under 2 pairs, none. */
static void test_mean_ratio(void **st)
{
	const double x[] = { 2, 4, 6 }, b[] = { 1, 2, 3 };
	const double y[] = { 1, 3, NAN }, c[] = { 1, 1, 5 };
	double lo, hi;

	(void)st;
	assert_float_equal(settle_mean_ratio(x, b, 3, &lo, &hi), 2, 1e-12);
	assert_float_equal(lo, 2, 1e-12);
	assert_float_equal(hi, 2, 1e-12);
	assert_float_equal(settle_mean_ratio(y, c, 3, &lo, &hi), 2, 1e-12);
	assert_float_equal(lo, 2 - 12.7062, 1e-3);
	assert_float_equal(hi, 2 + 12.7062, 1e-3);
	assert_true(settle_mean_ratio(y, c, 1, &lo, &hi) == 0);
	assert_true(lo == 0 && hi == 0);
	assert_true(settle_mean_ratio(x, (const double[]){ 0, 0, 0 }, 3, &lo,
				      &hi) == 0);
}

/* The verdicts the mean times contradict: faster against a mean ratio of
 * 1 or more, slower against 1 or less; the same against means more than
 * 10 % apart (or than a wider band: within +-50 %, 0.684x is the same) or
 * beyond the band with an interval without 1; never an unclear verdict or
 * a ratio that is not one. */
static void test_means_contradict(void **st)
{
	(void)st;
	assert_true(settle_means_contradict(SETTLE_FASTER, 1.0, 0.9, 1.1, .01));
	assert_false(settle_means_contradict(SETTLE_FASTER, 0.99, 0.9, 1.1,
					     .01));
	assert_true(settle_means_contradict(SETTLE_SLOWER, 1.0, 0.9, 1.1, .01));
	assert_false(settle_means_contradict(SETTLE_SLOWER, 1.01, 0.9, 1.1,
					     .01));
	/* the same: 11 % apart with a wide interval; 6 % beyond a 5 % band
	 * with an interval without 1, not with one that holds it */
	assert_true(settle_means_contradict(SETTLE_SAME, 1.11, 0.5, 1.7, .01));
	assert_true(settle_means_contradict(SETTLE_SAME, 1 / 1.11, 0.5, 1.7,
					    .01));
	assert_true(settle_means_contradict(SETTLE_SAME, 1.06, 1.01, 1.1, .05));
	assert_false(settle_means_contradict(SETTLE_SAME, 1.06, 0.99, 1.1,
					     .05));
	assert_false(settle_means_contradict(SETTLE_SAME, 1.04, 1.01, 1.1,
					     .05));
	/* a band of +-50 %: 0.684x, with any interval, is the same */
	assert_false(settle_means_contradict(SETTLE_SAME, 0.684, 0.6, 0.7, .5));
	assert_true(settle_means_contradict(SETTLE_SAME, 0.6, 0.55, 0.65, .5));
	assert_false(settle_means_contradict(SETTLE_UNCLEAR, 9, 8, 10, .01));
	assert_false(settle_means_contradict(SETTLE_FASTER, 0, 0, 0, .01));
}

/* Overlap of two intervals, touching ends included; disjoint either
 * way round is no overlap. */
static void test_overlap(void **state)
{
	struct settle_comparison a = { .lo = 0.15, .hi = 0.16 };
	struct settle_comparison b = { .lo = 0.16, .hi = 0.18 };
	struct settle_comparison c = { .lo = 0.17, .hi = 0.19 };

	(void)state;
	assert_true(settle_intervals_overlap(&a, &b));
	assert_true(settle_intervals_overlap(&b, &a));
	assert_true(settle_intervals_overlap(&b, &c));
	assert_false(settle_intervals_overlap(&a, &c));
	assert_false(settle_intervals_overlap(&c, &a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_sum_published),
		cmocka_unit_test(test_rank_sum_ties),
		cmocka_unit_test(test_signed_rank_interval),
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_nan_ends),
		cmocka_unit_test(test_bootstrap_reproducible),
		cmocka_unit_test(test_identical_samples),
		cmocka_unit_test(test_all_zero),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_band_rules),
		cmocka_unit_test(test_band_symmetric),
		cmocka_unit_test(test_bad_band),
		cmocka_unit_test(test_verdict_names),
		cmocka_unit_test(test_processes),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_levels_a_a),
		cmocka_unit_test(test_mean_ratio),
		cmocka_unit_test(test_means_contradict),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_widen_to_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
