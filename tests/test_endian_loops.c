/*
 * test_endian_loops.c - the endian claim's eight variants (four loops, each
 * built at -O0 and -O2) return the agreed check value, and its scale
 * callback gives finite, correct figures.
 *
 * Every loop starts from 0 and increments iters times, so its check value
 * is iters mod 2^32. The iteration counts cross the byte boundaries of the
 * wrong-endian values (255 -> 256, 65535 -> 65536, 2^24 - 1 -> 2^24), where
 * a wrong swap or a swap of the wrong width shows. No timing is asserted.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "claims.h"
#include "settle.h"

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
	assert_int_equal(c->bytes_per_op, 8);
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

static void test_scale(void **state)
{
	const struct settle_claim *c = &settle_claim_endian;
	struct settle_result r = { .size_bytes = 0 };
	struct settle_scale_ctx ctx = { .device_mbps = 13, .claim = c,
					.variant = find("we64", "-O0") };
	struct settle_figure f[4];

	(void)state;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
