/*
 * test_endian_loops.c - the endian claim's eight variants (four loops, each
 * built at -O0 and -O2) return the agreed check value, and its scale
 * callback gives finite, correct figures.
 *
 * Every loop starts from 0 and increments iters times, so its check value
 * is iters mod 2^32. The iteration counts cross the byte boundaries of the
 * wrong-endian values (255 -> 256, 65535 -> 65536, 2^24 - 1 -> 2^24), where
 * a wrong swap or a swap of the wrong width shows. The wrong-endian loops
 * keep their value in the byte order that is not the host's, on a
 * big-endian host too. No timing is asserted.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "claims.h"
#include "endian_loops.h"
#include "settle.h"
#include "settle_byteorder.h"

static const uint64_t counts[] = {
	0, 1, 2, 3, 255, 256, 257, 1000, 65535, 65536, 65537,
	(1u << 24) - 1, (1u << 24) + 3,
};

static const struct settle_variant *find(const char *name, const char *build)
{
	const struct settle_claim *c = &settle_claim_endian;

	for (size_t i = 0; i < c->nvariants; i++) {
		const struct settle_variant *v = &c->variants[i];

		if (strcmp(v->name, name) == 0 && v->build &&
		    strcmp(v->build, build) == 0)
			return v;
	}
	return NULL;
}

static void test_shape(void **state)
{
	static const char *const names[] = { "long", "we32", "u64", "we64" };
	const struct settle_claim *c = &settle_claim_endian;

	(void)state;
	assert_string_equal(c->name, "endian");
	assert_string_equal(c->baseline, "long");
	assert_int_equal(c->nvariants, 8);
	/* no one throughput for the claim: we32 converts 4 bytes, we64 8 */
	assert_int_equal(c->bytes_per_op, 0);
	assert_true(c->show_cycles);
	assert_true(c->check_iters > 0);
	assert_null(c->default_sizes);
	for (size_t i = 0; i < 4; i++) {
		assert_non_null(find(names[i], "-O0"));
		assert_non_null(find(names[i], "-O2"));
	}
}

static void test_variants(void **state)
{
	const struct settle_claim *c = &settle_claim_endian;
	size_t ncounts = sizeof(counts) / sizeof(counts[0]);

	(void)state;
	for (size_t i = 0; i < c->nvariants; i++) {
		const struct settle_variant *v = &c->variants[i];

		assert_null(v->unavailable);
		for (size_t j = 0; j < ncounts; j++) {
			uint64_t want = counts[j] & 0xffffffffu;
			uint64_t got = v->run(NULL, v->arg, counts[j]);

			if (got != want)
				print_error("%s %s, %llu iters: got %llu\n",
					    v->name, v->build,
					    (unsigned long long)counts[j],
					    (unsigned long long)got);
			assert_int_equal(got, want);
		}
		assert_int_equal(v->run(NULL, v->arg, c->check_iters),
				 c->check_iters & 0xffffffffu);
	}
}

/* 1 on a big-endian host. */
#define NATIVE_BE (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

/*
 * The we loops keep the value in the byte order that is not the host's,
 * on little- and big-endian hosts alike: its stored bytes read with the
 * other order's load give the count, and with the host's own load do not
 * (for counts whose bytes are not a palindrome).
 */
static void test_other_byte_order(void **state)
{
	static uint32_t (*const w32[])(uint64_t) = {
		settle_endian_we32_stored_O0, settle_endian_we32_stored_O2,
	};
	static uint64_t (*const w64[])(uint64_t) = {
		settle_endian_we64_stored_O0, settle_endian_we64_stored_O2,
	};
	size_t ncounts = sizeof(counts) / sizeof(counts[0]);

	(void)state;
	for (size_t b = 0; b < 2; b++) {
		for (size_t j = 0; j < ncounts; j++) {
			unsigned char m[8];
			uint32_t x = w32[b](counts[j]);
			uint64_t y = w64[b](counts[j]);

			memcpy(m, &x, 4);
			assert_int_equal(NATIVE_BE ? settle_load_le32(m) :
					 settle_load_be32(m),
					 counts[j] & 0xffffffffu);
			if (counts[j] == 256 || counts[j] == 65537)
				assert_int_not_equal(NATIVE_BE ?
						     settle_load_be32(m) :
						     settle_load_le32(m),
						     counts[j]);
			memcpy(m, &y, 8);
			assert_int_equal(NATIVE_BE ? settle_load_le64(m) :
					 settle_load_be64(m), counts[j]);
			if (counts[j] == 256)
				assert_int_not_equal(NATIVE_BE ?
						     settle_load_be64(m) :
						     settle_load_le64(m),
						     counts[j]);
		}
	}
}

static void test_scale(void **state)
{
	const struct settle_claim *c = &settle_claim_endian;
	struct settle_result r = { .size_bytes = 0 };
	struct settle_scale_ctx ctx = { .device_mbps = 13, .claim = c,
					.variant = find("we64", "-O0") };
	struct settle_figure f[4];

	(void)state;
	r.variant = "we64";
	r.sum.median = 2.0; /* ns per increment */
	assert_int_equal(c->scale(&r, &ctx, f, 4), 3);
	for (size_t i = 0; i < 3; i++) {
		assert_true(isfinite(f[i].value));
		assert_true(f[i].value >= 0);
		assert_true(f[i].label[0] != '\0');
		assert_true(f[i].unit[0] != '\0');
	}
	assert_string_equal(f[0].label, "per 100 M");
	assert_string_equal(f[0].unit, "s");
	assert_float_equal(f[0].value, 0.2, 1e-12);
	assert_string_equal(f[1].unit, "MB/s");
	assert_float_equal(f[1].value, 4000, 1e-9);
	assert_string_equal(f[2].label, "device share");
	assert_string_equal(f[2].unit, "%");
	assert_float_equal(f[2].value, 13.0 / 4000 * 100, 1e-12);

	/* another device */
	ctx.device_mbps = 400;
	assert_int_equal(c->scale(&r, &ctx, f, 4), 3);
	assert_float_equal(f[2].value, 10.0, 1e-12);

	/* no device given: the original's 13 MB/s */
	ctx.device_mbps = 0;
	assert_int_equal(c->scale(&r, &ctx, f, 4), 3);
	assert_float_equal(f[2].value, 13.0 / 4000 * 100, 1e-12);

	/* max limits the output */
	assert_int_equal(c->scale(&r, &ctx, f, 2), 2);

	/* nothing to scale: no figure rather than inf or NaN */
	r.sum.median = 0;
	assert_int_equal(c->scale(&r, &ctx, f, 4), 0);
	r.sum.median = 1;
	r.skipped = "skipped";
	assert_int_equal(c->scale(&r, &ctx, f, 4), 0);
}

/* MB/s counts the bytes of the value converted: 4 for we32 (half of
 * we64's at the same time per increment), the native long's for long. */
static void test_scale_bytes(void **state)
{
	const struct settle_claim *c = &settle_claim_endian;
	struct settle_result r = { .size_bytes = 0 };
	struct settle_scale_ctx ctx = { .device_mbps = 13, .claim = c };
	struct settle_figure f[4];

	(void)state;
	r.sum.median = 2.0;
	r.variant = "we32";
	ctx.variant = find("we32", "-O2");
	assert_int_equal(c->scale(&r, &ctx, f, 4), 3);
	assert_float_equal(f[1].value, 2000, 1e-9);
	assert_float_equal(f[2].value, 13.0 / 2000 * 100, 1e-12);
	r.variant = "long";
	ctx.variant = find("long", "-O2");
	assert_int_equal(c->scale(&r, &ctx, f, 4), 3);
	assert_float_equal(f[1].value, sizeof(unsigned long) * 500.0, 1e-9);
	r.variant = "u64";
	ctx.variant = find("u64", "-O0");
	assert_int_equal(c->scale(&r, &ctx, f, 4), 3);
	assert_float_equal(f[1].value, 4000, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_other_byte_order),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_scale_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
