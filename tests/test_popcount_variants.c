/*
 * test_popcount_variants.c - every bit-counting kernel of the popcount
 * claim (claims/popcount_variants.h) against a bit-by-bit reference, and
 * the claim's variants through setup, run and teardown.
 *
 * Kernels are checked on random buffers of every length 0..300 bytes at
 * misalignments 0..15, on a few large buffers, and on buffers made of the
 * words 0, ~0, 0x10, 0xF0 and 0xFFFFFFFF00000000 (single patterns and a
 * mix), which catch a wrong SWAR mask or shift. The popcnt kernel is only
 * run where the CPU has POPCNT (skipped otherwise). No timing is asserted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

#include "claims.h"
#include "config.h"
#include "cpu/cpu.h"
#include "popcount_variants.h"
#include "settle.h"

struct kernel {
	const char *name;
	uint64_t (*fn)(const void *buf, size_t len);
	int needs_popcnt;
};

static const struct kernel k_table8 = { "table8", settle_popcount_table8, 0 };
static const struct kernel k_generic = {
	"builtin-generic", settle_popcount_builtin_generic, 0
};
static const struct kernel k_swar32 = { "swar32", settle_popcount_swar32, 0 };
static const struct kernel k_swar64 = { "swar64", settle_popcount_swar64, 0 };
#if SETTLE_ARCH_X86_64
static const struct kernel k_popcnt = { "popcnt", settle_popcount_popcnt, 1 };
#endif

#define MAX_MISALIGN 16
#define SMALL_MAX 300

/* The kernel of *state, or skip() when this CPU cannot run it. */
static const struct kernel *kernel_of(void **state)
{
	const struct kernel *k = *state;

#if SETTLE_ARCH_X86_64
	if (k->needs_popcnt && !settle_cpu_has(SETTLE_CPU_POPCNT)) {
		print_message("CPU lacks POPCNT: %s skipped\n", k->name);
		skip();
	}
#endif
	return k;
}

static void check(const struct kernel *k, const unsigned char *buf,
		  size_t len, const char *what)
{
	uint64_t want = reference(buf, len);
	uint64_t got = k->fn(buf, len);

	if (got != want) {
		print_error("%s: %s, %zu bytes at address %% 64 = %u: "
			    "got %llu, want %llu\n", k->name, what, len,
			    (unsigned)((uintptr_t)buf % 64),
			    (unsigned long long)got, (unsigned long long)want);
		fail();
	}
}

static unsigned char *alloc_aligned(size_t len)
{
	unsigned char *p = aligned_alloc(64, (len + 63) / 64 * 64);

	assert_non_null(p);
	return p;
}

static void test_random_small(void **state)
{
	const struct kernel *k = kernel_of(state);
	size_t cap = SMALL_MAX + MAX_MISALIGN;
	unsigned char *buf = alloc_aligned(cap);

	for (size_t len = 0; len <= SMALL_MAX; len++) {
		fill_random(buf, cap, 0x9e3779b97f4a7c15u + len);
		for (size_t off = 0; off < MAX_MISALIGN; off++)
			check(k, buf + off, len, "random");
	}
	free(buf);
}

static void test_random_large(void **state)
{
	static const size_t lens[] = {
		4096, 4097, 65536 + 3, (1u << 20) + 5, (3u << 20) + 7,
	};
	static const size_t offs[] = { 0, 1, 3, 7, 8, 13 };
	const struct kernel *k = kernel_of(state);
	size_t cap = ((3u << 20) + 7) + MAX_MISALIGN;
	unsigned char *buf = alloc_aligned(cap);

	fill_random(buf, cap, 42);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (size_t j = 0; j < sizeof(offs) / sizeof(offs[0]); j++)
			check(k, buf + offs[j], lens[i], "random large");
	free(buf);
}

static const uint64_t patterns[] = {
	0, ~(uint64_t)0, 0x10, 0xF0, 0xFFFFFFFF00000000u,
};
#define NPATTERNS (sizeof(patterns) / sizeof(patterns[0]))
#define PATTERN_BYTES 520

/* Buffers made of one word pattern, or of the patterns in turn (mix). */
static void fill_pattern(unsigned char *p, size_t len, int which)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t w = which < 0 ? patterns[(i / 8) % NPATTERNS]
				       : patterns[which];
		size_t n = len - i < 8 ? len - i : 8;

		memcpy(p + i, &w, n);
	}
}

static void test_patterns(void **state)
{
	const struct kernel *k = kernel_of(state);
	size_t cap = PATTERN_BYTES + MAX_MISALIGN;
	unsigned char *buf = alloc_aligned(cap);

	for (int which = -1; which < (int)NPATTERNS; which++) {
		for (size_t off = 0; off < MAX_MISALIGN; off++) {
			fill_pattern(buf + off, PATTERN_BYTES, which);
			for (size_t len = 0; len <= PATTERN_BYTES; len++)
				check(k, buf + off, len, "pattern");
		}
	}
	free(buf);
}

/* Whole words of a pattern: the count is exactly known. */
static void test_pattern_totals(void **state)
{
	static const uint64_t bits[NPATTERNS] = { 0, 64, 1, 4, 32 };
	const struct kernel *k = kernel_of(state);
	unsigned char *buf = alloc_aligned(PATTERN_BYTES);

	for (size_t which = 0; which < NPATTERNS; which++) {
		fill_pattern(buf, 512, (int)which);
		assert_int_equal(k->fn(buf, 512), 64 * bits[which]);
	}
	free(buf);
}

/* ---- the claim --------------------------------------------------------- */

static const struct settle_variant *variant(const char *name)
{
	const struct settle_claim *c = &settle_claim_popcount;

	for (size_t i = 0; i < c->nvariants; i++)
		if (strcmp(c->variants[i].name, name) == 0)
			return &c->variants[i];
	return NULL;
}

static void test_claim_shape(void **state)
{
	const struct settle_claim *c = &settle_claim_popcount;
	static const char *const names[] = {
		"table8", "builtin-generic", "swar32", "swar64",
#if SETTLE_ARCH_X86_64
		"popcnt", "avx2", "avx512vl", "avx512",
#elif SETTLE_ARCH_AARCH64
		"neon", "sve",
#endif
		"auto", "read-limit",
	};
	size_t n = sizeof(names) / sizeof(names[0]);

	(void)state;
	assert_string_equal(c->name, "popcount");
	assert_string_equal(c->baseline, "builtin-generic");
	for (size_t i = 0; i < n; i++)
		assert_non_null(variant(names[i]));
	/* the peers are there exactly when built with them */
	assert_int_equal(variant("gmp") != NULL, SETTLE_HAVE_GMP);
	assert_int_equal(variant("ext2fs") != NULL, SETTLE_HAVE_EXT2FS);
	assert_int_equal(c->nvariants,
			 n + SETTLE_HAVE_GMP + SETTLE_HAVE_EXT2FS);
	/* read-limit is a reference row, the only one */
	for (size_t i = 0; i < c->nvariants; i++)
		assert_int_equal(!!(c->variants[i].flags & SETTLE_REFERENCE),
				 !strcmp(c->variants[i].name, "read-limit"));
	assert_int_equal(c->ndefault_sizes, 3);
	assert_int_equal(c->default_sizes[0], 4096);
	assert_int_equal(c->default_sizes[1], 1u << 20);
	assert_int_equal(c->default_sizes[2], 128u << 20);
	assert_true(c->bytes_per_op == SETTLE_BYTES_SIZE);
	assert_non_null(c->setup);
	assert_non_null(c->teardown);
	assert_non_null(c->scale);
#if SETTLE_ARCH_X86_64
	/* popcnt's availability follows the CPU */
	if (settle_cpu_has(SETTLE_CPU_POPCNT))
		assert_null(variant("popcnt")->unavailable(NULL, variant("popcnt")->arg));
	else
		assert_non_null(variant("popcnt")->unavailable(NULL, variant("popcnt")->arg));
	assert_null(variant("neon"));
#elif SETTLE_ARCH_AARCH64
	/* sve's availability follows the CPU */
	assert_int_equal(variant("sve")->unavailable(NULL, variant("sve")->arg)
			 == NULL, settle_cpu_has(SETTLE_CPU_SVE));
	assert_null(variant("popcnt"));
#else
	/* no row of an architecture's own implementations */
	assert_null(variant("popcnt"));
	assert_null(variant("neon"));
#endif
}

static uint64_t run_size(const struct settle_variant *v, uint64_t size,
			 uint64_t iters)
{
	const struct settle_claim *c = &settle_claim_popcount;
	struct settle_params p = { .size_bytes = size };
	char err[128] = "";
	void *s = c->setup(&p, err, sizeof(err));
	uint64_t n;

	if (!s)
		print_error("setup(%llu): %s\n", (unsigned long long)size, err);
	assert_non_null(s);
	n = v->run(s, v->arg, iters);
	c->teardown(s);
	return n;
}

/* v's run() over a fresh state of size bytes, for 1 to 3 passes. */
static void check_variant(const struct settle_variant *v, uint64_t size,
			  uint64_t want)
{
	for (uint64_t it = 1; it <= 3; it++) {
		uint64_t got = run_size(v, size, it);

		if (got != want)
			print_error("%s, %llu bytes, %llu iters: "
				    "got %llu, want %llu\n", v->name,
				    (unsigned long long)size,
				    (unsigned long long)it,
				    (unsigned long long)got,
				    (unsigned long long)want);
		assert_int_equal(got, want);
	}
}

static void test_claim_variants_agree(void **state)
{
	static const uint64_t sizes[] = {
		1, 7, 8, 9, 63, 64, 65, 4096, 4097, 1000003,
	};
	const struct settle_claim *c = &settle_claim_popcount;

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t want = run_size(variant("table8"), sizes[i], 1);

		/* random bits: about half are set (loose bound, > 8 sd) */
		if (sizes[i] >= 4096) {
			assert_true(want > sizes[i] * 4 - sizes[i] / 8);
			assert_true(want < sizes[i] * 4 + sizes[i] / 8);
		}
		for (size_t j = 0; j < c->nvariants; j++) {
			const struct settle_variant *v = &c->variants[j];

			if (v->unavailable && v->unavailable(NULL, v->arg))
				continue;
			if (v->flags & SETTLE_REFERENCE)
				continue; /* read-limit: not a count */
			check_variant(v, sizes[i], want);
		}
	}
}

/* ---- scale ------------------------------------------------------------- */

static void test_scale(void **state)
{
	const struct settle_claim *c = &settle_claim_popcount;
	struct settle_result r = { .size_bytes = 0 };
	struct settle_scale_ctx ctx = { .largest_size = 128u << 20, .claim = c,
					.variant = variant("swar64") };
	struct settle_figure f[4];

	(void)state;
	r.size_bytes = 128u << 20;
	r.sum.median = 0.5 * (double)r.size_bytes; /* 0.5 ns per byte */
	assert_int_equal(c->scale(&r, &ctx, f, 4), 3);
	assert_string_equal(f[0].label, "4 TB fs (128 MiB)");
	assert_string_equal(f[0].unit, "s");
	assert_float_equal(f[0].value, 0.5 * (1u << 27) / 1e9, 1e-12);
	assert_string_equal(f[0].note, "");
	assert_string_equal(f[1].label, "128 TB fs (4 GiB)");
	assert_float_equal(f[1].value, 0.5 * 4294967296.0 / 1e9, 1e-9);
	assert_string_equal(f[1].note, "extrapolated from 128 MiB");
	/* share of the 202 CPU s check of an empty 128 TB file system */
	assert_string_equal(f[2].unit, "%");
	assert_float_equal(f[2].value, f[1].value / 202 * 100, 1e-9);

	/* max limits the output */
	assert_int_equal(c->scale(&r, &ctx, f, 1), 1);

	/* only the largest size has figures */
	ctx.largest_size = 256u << 20;
	assert_int_equal(c->scale(&r, &ctx, f, 4), 0);

	/* a largest size of 1 GiB: both extrapolated */
	r.size_bytes = ctx.largest_size = 1u << 30;
	r.sum.median = 2.0 * (double)r.size_bytes;
	assert_int_equal(c->scale(&r, &ctx, f, 4), 3);
	assert_float_equal(f[0].value, 2.0 * (1u << 27) / 1e9, 1e-12);
	assert_string_equal(f[0].note, "extrapolated from 1 GiB");
	assert_string_equal(f[1].note, "extrapolated from 1 GiB");

	/* below 128 MiB (a buffer a cache may hold): no figures */
	r.size_bytes = ctx.largest_size = (128u << 20) - 64;
	assert_int_equal(c->scale(&r, &ctx, f, 4), 0);
	r.size_bytes = ctx.largest_size = 1u << 20;
	assert_int_equal(c->scale(&r, &ctx, f, 4), 0);

	/* a skipped result has none */
	r.skipped = "CPU lacks POPCNT";
	assert_int_equal(c->scale(&r, &ctx, f, 4), 0);
}

/* ---- conclusion -------------------------------------------------------- */

/* Two results at size bytes: the baseline and a count at ratio (interval
 * +-0.01 at 95 %; its median that share of the baseline's, unless the
 * median is given), with the file-system figures the claim's scale gives
 * them; the conclusion into *out, its return. */
static int conclude_band(uint64_t bytes, double ratio, double median,
			 double band, struct settle_conclusion *out)
{
	const struct settle_claim *c = &settle_claim_popcount;
	struct settle_result res[2];
	static struct settle_figure figs[2][4];
	struct settle_scale_ctx ctx = { .largest_size = bytes, .claim = c };
	struct settle_conclude_ctx cc = { .band = band };

	memset(res, 0, sizeof(res));
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 2; i++) {
		res[i].size_bytes = bytes;
		res[i].nsamples = 15;
		res[i].sum.median = (i ? ratio : 1.0) * (double)bytes;
		res[i].figures = figs[i];
		res[i].nfigures = c->scale(&res[i], &ctx, figs[i], 4);
		for (size_t k = 0; k < res[i].nfigures; k++)
			figs[i][k].value = 1000; /* stale, as edited */
	}
	res[0].label = "builtin-generic";
	res[1].label = "avx2";
	res[1].has_cmp = 1;
	if (median > 0)
		res[1].sum.median = median * (double)bytes;
	res[1].cmp.ratio = ratio;
	res[1].cmp.lo = ratio - 0.01;
	res[1].cmp.hi = ratio + 0.01;
	res[1].cmp.level = 0.95;
	res[1].cmp.n = 15;
	/* the verdict as settle_compare_samples() draws it from the band */
	res[1].cmp.verdict = res[1].cmp.hi < 1 - band ? SETTLE_FASTER :
			     res[1].cmp.lo > 1 + band ? SETTLE_SLOWER :
			     res[1].cmp.lo >= 1 - band &&
			     res[1].cmp.hi <= 1 + band ? SETTLE_SAME :
			     SETTLE_UNCLEAR;
	return c->conclude(res, 2, &cc, out);
}

static int conclude_ratio(uint64_t bytes, double ratio, double median,
			  struct settle_conclusion *out)
{
	return conclude_band(bytes, ratio, median, 0.01, out);
}

static int conclude_at(uint64_t bytes, struct settle_conclusion *out)
{
	return conclude_ratio(bytes, 0.25, 0, out);
}

/*
 * The conclusion gives seconds of a file-system check from 128 MiB or
 * more, and from a smaller buffer only the ratio and the size to measure
 * (a 4 KiB run once made 0.022 s of 4 GiB of bitmaps: 191 GB/s).
 */
static void test_conclude_sizes(void **state)
{
	struct settle_conclusion o;

	(void)state;
	assert_int_equal(conclude_at(128u << 20, &o), 1);
	assert_non_null(strstr(o.sentence, "avx2 is the fastest count at "
			       "128 MiB, 0.250x the time of builtin-generic"));
	assert_non_null(strstr(o.sentence, "it saves"));
	assert_true(o.nnumbers == 5);
	/* from the medians: 0.75 ns a byte over 4 GiB, whatever figures a
	 * file stores (conclude_at() gives each result its own) */
	assert_string_equal(o.numbers[3].name, "saved_128tb");
	assert_float_equal(o.numbers[3].value, 0.75 * 4294967296.0 / 1e9,
			   1e-9);
	assert_int_equal(conclude_at(4096, &o), 1);
	assert_string_equal(o.sentence, "avx2 is the fastest count at 4 KiB, "
			    "0.250x the time of builtin-generic [0.240, "
			    "0.260]; no seconds of a file-system check from a "
			    "buffer that fits in a cache (--size 128M or "
			    "more)");
	assert_int_equal(o.nnumbers, 3); /* ratio, ci_low, ci_high */
	assert_string_equal(o.numbers[0].name, "ratio");
	assert_string_equal(o.numbers[2].name, "ci_high");
	assert_int_equal(o.nrows, 2);
}

/*
 * No count faster than the baseline (--variant table8 alone): the
 * baseline is called the fastest, the count the nearest, and nothing is
 * saved (a new user's run said "table8 ... is the fastest count, 1.568x
 * the time of builtin-generic" and "it saves -0.859 s"). The saving takes
 * the ratio's sign, not the medians' (a count at 0.98 whose median is
 * above the baseline's saves time, as its ratio says).
 */
static void test_conclude_none_faster(void **state)
{
	struct settle_conclusion o;

	(void)state;
	assert_int_equal(conclude_ratio(4096, 1.568, 0, &o), 1);
	assert_string_equal(o.sentence, "no count is faster than "
			    "builtin-generic at 4 KiB: the nearest, avx2, "
			    "takes 1.568x its time [1.558, 1.578]");
	assert_int_equal(conclude_ratio(128u << 20, 1.649, 0, &o), 1);
	assert_null(strstr(o.sentence, "saves"));
	assert_null(strstr(o.sentence, "fastest count"));
	for (size_t i = 0; i < o.nnumbers; i++)
		assert_string_not_equal(o.numbers[i].name, "saved_128tb");
	assert_int_equal(conclude_ratio(128u << 20, 0.98, 1.02, &o), 1);
	assert_string_equal(o.numbers[3].name, "saved_128tb");
	assert_true(o.numbers[3].value > 0);
	assert_float_equal(o.numbers[3].value, 0.02 * 4294967296.0 / 1e9,
			   1e-9);
}

/*
 * A count faster than the baseline by less than the equivalence band is
 * `same`: no count is faster, and nothing is saved (with --equivalence 25
 * a run said "swar64 is the fastest count ..., 0.818x" beside its row's
 * `same`). Outside the band it is the fastest, as before.
 */
static void test_conclude_same_in_band(void **state)
{
	struct settle_conclusion o;

	(void)state;
	assert_int_equal(conclude_band(4096, 0.818, 0, 0.25, &o), 1);
	assert_string_equal(o.sentence, "no count is faster than "
			    "builtin-generic at 4 KiB by more than the +-25% "
			    "band: the nearest, avx2, takes 0.818x its time "
			    "[0.808, 0.828]");
	assert_int_equal(conclude_band(128u << 20, 0.818, 0, 0.25, &o), 1);
	assert_null(strstr(o.sentence, "saves"));
	assert_null(strstr(o.sentence, "fastest count"));
	for (size_t i = 0; i < o.nnumbers; i++)
		assert_string_not_equal(o.numbers[i].name, "saved_128tb");
	assert_int_equal(conclude_band(128u << 20, 0.70, 0, 0.25, &o), 1);
	assert_non_null(strstr(o.sentence, "avx2 is the fastest count at "
			       "128 MiB, 0.700x"));
	assert_non_null(strstr(o.sentence, "it saves"));
}

#define KERNEL_TEST(k, f) { #k ": " #f, f, NULL, NULL, (void *)&k }
#define KERNEL_TESTS(k)						\
	KERNEL_TEST(k, test_random_small),				\
	KERNEL_TEST(k, test_random_large),				\
	KERNEL_TEST(k, test_patterns),					\
	KERNEL_TEST(k, test_pattern_totals)

int main(void)
{
	const struct CMUnitTest tests[] = {
		KERNEL_TESTS(k_table8),
		KERNEL_TESTS(k_generic),
		KERNEL_TESTS(k_swar32),
		KERNEL_TESTS(k_swar64),
#if SETTLE_ARCH_X86_64
		KERNEL_TESTS(k_popcnt),
#endif
		cmocka_unit_test(test_claim_shape),
		cmocka_unit_test(test_claim_variants_agree),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_conclude_sizes),
		cmocka_unit_test(test_conclude_none_faster),
		cmocka_unit_test(test_conclude_same_in_band),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
