/*
 * test_units.c - numbers people can read: the unit of a time is chosen
 * after rounding, a non-zero value never prints as zero, and no value is
 * wider than its column.
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

#include "util/util.h"

static const char *ns(double v)
{
	static char buf[64];

	return settle_format_ns(v, buf, sizeof(buf));
}

static const char *num(double v, int d)
{
	static char buf[64];

	return settle_format_num(v, d, buf, sizeof(buf));
}

static void test_unit_after_rounding(void **st)
{
	(void)st;
	assert_string_equal(ns(999.96), "1.000 us");
	assert_string_equal(ns(999.94), "999.9 ns");
	assert_string_equal(ns(999960.0), "1.000 ms");
	assert_string_equal(ns(999.96e6), "1.000 s");
	assert_string_equal(ns(99.996), "100.0 ns");
	assert_string_equal(ns(9.9996), "10.00 ns");
	assert_string_equal(ns(1.0), "1.000 ns");
	assert_string_equal(ns(0.273), "0.273 ns");
	assert_string_equal(ns(0.0915), "91.50 ps");
	assert_string_equal(ns(1500e9), "1500.0 s");
}

static void test_never_zero(void **st)
{
	static const double tiny[] = { 1e-3, 4e-5, 1e-7, 1e-12, 3e-300 };

	(void)st;
	for (size_t i = 0; i < sizeof(tiny) / sizeof(tiny[0]); i++) {
		const char *s = ns(tiny[i]);

		assert_null(strstr(s, "0.000"));
		assert_true(strcmp(s, "0 ns") != 0);
		s = num(tiny[i], 3);
		assert_true(strtod(s, NULL) > 0);
	}
	assert_string_equal(ns(0), "0 ns");
	assert_string_equal(num(0, 2), "0.00");
	assert_string_equal(num(0.0004, 3), "0.0004");
	assert_string_equal(num(-0.0004, 2), "-0.0004");
	assert_string_equal(num(1.2345, 3), "1.234");
	assert_string_equal(ns(-1), "unknown");
	assert_string_equal(ns(NAN), "unknown");
	assert_string_equal(num(INFINITY, 2), "unknown");
}

/* A ratio keeps two significant digits below 0.01: within 5 % of its
 * value (0.0005 printed "0.001", twice its size), and no wider than a
 * number cell. */
static void test_ratio_digits(void **st)
{
	char buf[64];

	(void)st;
	for (double v = 1e-12; v < 1e6; v *= 1.13) {
		const char *s = settle_format_ratio(v, buf, sizeof(buf));

		assert_true(fabs(strtod(s, NULL) / v - 1) < 0.05 || v >= 1e4);
		assert_true(strlen(s) <= 9);
	}
	assert_string_equal(settle_format_ratio(0.0005007, buf, 64), "0.0005");
	assert_string_equal(settle_format_ratio(0.00942, buf, 64), "0.0094");
	assert_string_equal(settle_format_ratio(0.00997, buf, 64), "0.01");
	assert_string_equal(settle_format_ratio(0.0123, buf, 64), "0.012");
	assert_string_equal(settle_format_ratio(1.2345, buf, 64), "1.234");
	assert_string_equal(settle_format_ratio(NAN, buf, 64), "unknown");
}

/* Every value of 40 decades fits the table's 11-column time cell and a
 * 9-column number cell. */
static void test_widths(void **st)
{
	(void)st;
	for (double v = 1e-15; v < 1e25; v *= 1.7) {
		assert_true(strlen(ns(v)) <= 11);
		assert_true(strlen(num(v, 2)) <= 9);
		assert_true(strlen(num(v, 3)) <= 9);
	}
}

/* A result file's "created": written and read back; anything else (no Z,
 * a local offset, a month 13, trailing text) is no time. */
static void test_utc(void **st)
{
	char now[24];

	(void)st;
	assert_true(settle_utc_parse("1970-01-01T00:00:00Z") == 0);
	assert_true(settle_utc_parse("2026-12-05T17:07:48Z") == 1796490468LL);
	assert_true(settle_utc_parse("2026-12-05T17:07:48") == -1);
	assert_true(settle_utc_parse("2026-12-05T17:07:48+01:00") == -1);
	assert_true(settle_utc_parse("2026-13-05T17:07:48Z") == -1);
	assert_true(settle_utc_parse("2026-12-05T17:07:48Zx") == -1);
	assert_true(settle_utc_parse("yesterday") == -1);
	assert_true(settle_utc_parse("2026-+1-05T17:07:48Z") == -1);
	assert_true(settle_utc_parse("2026- 1- 5T 1: 2: 3Z") == -1);
	assert_true(settle_utc_parse("2026-02-31T00:00:00Z") == -1);
	assert_true(settle_utc_parse("2024-02-29T23:59:59Z") == 1709251199LL);
	assert_true(settle_utc_parse("") == -1);
	assert_true(settle_utc_parse(NULL) == -1);
	settle_utc_now(now, sizeof(now));
	assert_int_equal(strlen(now), 20);
	assert_true(settle_utc_parse(now) > 1700000000LL);
}

/* settle_trim: the blanks and new lines of /proc lines and cpuid brand
 * strings go, inner blanks stay. */
static void test_trim(void **st)
{
	char a[] = "  AMD EPYC 9R14 96-Core  \n", b[] = "   ", c[] = "x";

	(void)st;
	settle_trim(a);
	settle_trim(b);
	settle_trim(c);
	assert_string_equal(a, "AMD EPYC 9R14 96-Core");
	assert_string_equal(b, "");
	assert_string_equal(c, "x");
}

/* A text up to max bytes whole; longer, its start, " ... " and its end,
 * never cut inside a UTF-8 character. */
static void test_elide(void **st)
{
	char long_s[301], buf[128], utf[64];

	(void)st;
	assert_string_equal(settle_elide("short", 40, buf, sizeof(buf)),
			    "short");
	memset(long_s, 'x', 300);
	long_s[300] = '\0';
	memcpy(long_s + 296, "tail", 4);
	memcpy(long_s, "head", 4);
	settle_elide(long_s, 40, buf, sizeof(buf));
	assert_true(strlen(buf) <= 40);
	assert_int_equal(strncmp(buf, "head", 4), 0);
	assert_non_null(strstr(buf, " ... "));
	assert_string_equal(buf + strlen(buf) - 4, "tail");
	/* 30 two-byte characters: each cut falls on a character's start */
	utf[0] = '\0';
	for (int i = 0; i < 30; i++)
		strcat(utf, "\xc3\xa9");
	settle_elide(utf, 21, buf, sizeof(buf));
	assert_true(settle_utf8_valid(buf));
	assert_non_null(strstr(buf, " ... "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trim),
		cmocka_unit_test(test_utc),
		cmocka_unit_test(test_unit_after_rounding),
		cmocka_unit_test(test_never_zero),
		cmocka_unit_test(test_ratio_digits),
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_elide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
