/* test_size.c - the size parser and printer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "settle.h"

static void good(const char *s, uint64_t want)
{
	uint64_t got = 0;

	assert_int_equal(settle_parse_size(s, &got), 0);
	assert_true(got == want);
}

static void bad(const char *s)
{
	uint64_t got = 12345;

	assert_int_equal(settle_parse_size(s, &got), -1);
	assert_true(got == 12345); /* untouched on error */
}

/* Well formed, but 2^64 bytes or more. */
static void too_big(const char *s)
{
	uint64_t got = 12345;

	assert_int_equal(settle_parse_size(s, &got), -2);
	assert_true(got == 12345); /* untouched on error */
}

static void test_good(void **st)
{
	(void)st;
	good("4096", 4096);
	good("1", 1);
	good("4K", 4096);
	good("4k", 4096);
	good("4KiB", 4096);
	good("4KB", 4096);
	good("128M", 128ull << 20);
	good("4G", 4ull << 30);
	good("128T", 128ull << 40);
	good("15E", 15ull << 60);
	good("7B", 7);
	good("7b", 7);
	good("4m", 4ull << 20);
	good("4kB", 4096);
	good("4kiB", 4096);
	good("2P", 2ull << 50);
	good("18446744073709551615", UINT64_MAX);
}

static void test_bad(void **st)
{
	(void)st;
	bad(NULL);
	bad("");
	bad("K");
	bad("-1");
	bad("-4K");
	bad("1.5K");
	bad("4X");
	bad("0");
	bad("0K");
	bad("4KK");
	bad(" 4K");
	bad("4K ");
	bad("4 K");
	bad("99999999999999999999999X"); /* malformed before too big */
	bad("0x10");
	bad("1e6");
	bad("4kb");  /* a unit then "B" or "iB", never "b" */
	bad("4Kib");
	bad("4KIB");
	bad("4Bi");
}

static void test_too_big(void **st)
{
	(void)st;
	too_big("16E");                  /* 2^64 overflows */
	too_big("18446744073709551616"); /* UINT64_MAX + 1 */
	too_big("99999999999999999999999");
	too_big("99999999999T");
}

static void test_format(void **st)
{
	char b[32];

	(void)st;
	assert_string_equal(settle_format_size(4096, b, sizeof(b)), "4 KiB");
	assert_string_equal(settle_format_size(1000, b, sizeof(b)), "1000 B");
	assert_string_equal(settle_format_size(128ull << 20, b, sizeof(b)),
			    "128 MiB");
	assert_string_equal(settle_format_size(4ull << 30, b, sizeof(b)),
			    "4 GiB");
	assert_string_equal(settle_format_size(6144, b, sizeof(b)), "6 KiB");
	assert_string_equal(settle_format_size(4097, b, sizeof(b)), "4097 B");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_too_big),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
