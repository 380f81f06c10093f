/*
 * test_bswap_claim.c - the bswap claim (claims/bswap.c).
 *
 * Checks the claim's shape (variants per elem_bits and in_place, memcpy
 * only as a reference row of the copies), that every variant this CPU can
 * run returns its group's baseline check value at sizes from 0 elements
 * to past the sampled-checksum threshold, odd sizes included (whose
 * trailing size % element bytes are left alone: the claim swaps whole
 * elements only), at several pass counts and interleaved like the runner,
 * and that wrong functions are caught: a copy that does not swap, one
 * that writes nothing, one that skips the last element or swaps the wrong
 * element size, an in-place pass that does nothing or swaps twice, a
 * single corrupted byte; finally the runner itself refuses such a
 * variant. No timing is asserted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bswap.h"
#include "claims.h"
#include "cpu/cpu.h"
#include "settle_byteorder.h"

static const struct settle_claim *claim = &settle_claim_bswap;

/* Sizes in bytes: empty, under one element, odd, every tail region, past
 * the full-checksum limit (256 KiB) into the sampled one. */
static const uint64_t sizes[] = { 1, 2, 5, 8, 24, 1000, 1001, 1002, 1003,
				  1004, 1006, 1007, 32768, 262144,
				  262144 + 8, 300000 + 6, (1u << 20) + 7 };

static void *setup_size(uint64_t size)
{
	struct settle_params p = { .size_bytes = size, .cpu = -1 };
	char err[256] = "";
	void *s = claim->setup(&p, err, sizeof(err));

	if (!s)
		fail_msg("setup of %llu bytes failed: %s",
			 (unsigned long long)size, err);
	return s;
}

static const char *param(const struct settle_variant *v, const char *key)
{
	for (size_t i = 0; i < v->nparams; i++)
		if (strcmp(v->params[i].key, key) == 0)
			return v->params[i].value;
	fail_msg("variant %s has no param %s", v->name, key);
	return NULL;
}

static unsigned bits_of(const struct settle_variant *v)
{
	return (unsigned)atoi(param(v, "elem_bits"));
}

static int in_place(const struct settle_variant *v)
{
	return strcmp(param(v, "in_place"), "true") == 0;
}

static const struct settle_variant *find(const char *name, unsigned bits,
					 int ip)
{
	for (size_t i = 0; i < claim->nvariants; i++) {
		const struct settle_variant *v = &claim->variants[i];

		if (!strcmp(v->name, name) && bits_of(v) == bits &&
		    in_place(v) == ip)
			return v;
	}
	return NULL;
}

static int runs_here(const struct settle_variant *v, void *s)
{
	return !v->unavailable || !v->unavailable(s, v->arg);
}

/* ---- shape -------------------------------------------------------------- */

static void test_shape(void **unused)
{
	/* the portable rows and this architecture's own */
	static const char *const names[] = { "scalar", "auto",
#if SETTLE_ARCH_X86_64
					     "ssse3", "avx2", "avx512",
#elif SETTLE_ARCH_AARCH64
					     "neon",
#endif
	};
	const size_t nnames = sizeof(names) / sizeof(names[0]);
	static const unsigned bits[] = { 16, 32, 64 };

	(void)unused;
	assert_ptr_equal(settle_claim_find("bswap"), claim);
	assert_string_equal(claim->baseline, "scalar");
	assert_int_equal(claim->bytes_per_op, SETTLE_BYTES_SIZE);
	assert_non_null(claim->default_sizes);
	/* each group's rows, the copies' memcpy, and load-store in both */
	assert_int_equal(claim->nvariants, 3 * (nnames + 2 + nnames + 1));
	if (!SETTLE_ARCH_X86_64)
		assert_null(find("avx2", 32, 0));
	if (!SETTLE_ARCH_AARCH64)
		assert_null(find("neon", 32, 0));
	for (size_t b = 0; b < 3; b++) {
		const struct settle_variant *m = find("memcpy", bits[b], 0);
		const struct settle_variant *t = find("load-store", bits[b], 1);
		const struct settle_variant *tc = find("load-store", bits[b], 0);

		for (int ip = 0; ip < 2; ip++)
			for (size_t k = 0; k < nnames; k++) {
				const struct settle_variant *v =
					find(names[k], bits[b], ip);

				assert_non_null(v);
				assert_int_equal(v->flags, 0);
				assert_int_equal(v->nparams, 2);
			}
		assert_non_null(m);
		assert_int_equal(m->flags, SETTLE_REFERENCE);
		assert_null(find("memcpy", bits[b], 1));
		assert_non_null(t);
		assert_int_equal(t->flags, SETTLE_REFERENCE);
		assert_non_null(tc);
		assert_int_equal(tc->flags, SETTLE_REFERENCE);
		assert_ptr_not_equal(t, tc);
	}
	/* Only the ISA variants may be unavailable, with a reason. */
	for (size_t i = 0; i < claim->nvariants; i++) {
		const struct settle_variant *v = &claim->variants[i];
		int isa = !strcmp(v->name, "ssse3") ||
			  !strcmp(v->name, "avx2") ||
			  !strcmp(v->name, "avx512") ||
			  !strcmp(v->name, "neon");

		assert_true(isa || !v->unavailable);
	}
}

/* ---- agreement ---------------------------------------------------------- */

/* Every runnable variant of every group returns the baseline's value,
 * and so does the group's load-store reference (run between the two: the
 * copy's writes the source's bytes to the destination, the in-place one
 * leaves the buffer as it was). */
static void agree_at(void *s, uint64_t size, uint64_t iters)
{
	for (size_t i = 0; i < claim->nvariants; i++) {
		const struct settle_variant *v = &claim->variants[i];
		const struct settle_variant *b =
			find("scalar", bits_of(v), in_place(v));
		const struct settle_variant *t =
			find("load-store", bits_of(v), in_place(v));
		uint64_t want, got;

		if ((v->flags & SETTLE_REFERENCE) || !runs_here(v, s))
			continue;
		want = b->run(s, b->arg, iters);
		if (t->run(s, t->arg, iters) != want)
			fail_msg("%llu bytes, %llu passes: %u-bit %s load-store "
				 "gave another value than scalar",
				 (unsigned long long)size,
				 (unsigned long long)iters, bits_of(v),
				 in_place(v) ? "in place" : "copy");
		got = v->run(s, v->arg, iters);
		if (got != want)
			fail_msg("%llu bytes, %llu passes: %s %u-bit %s gave "
				 "%llu, scalar %llu", (unsigned long long)size,
				 (unsigned long long)iters, v->name,
				 bits_of(v), in_place(v) ? "in place" : "copy",
				 (unsigned long long)got,
				 (unsigned long long)want);
	}
}

static void test_variants_agree(void **unused)
{
	(void)unused;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		void *s = setup_size(sizes[i]);

		for (uint64_t it = 1; it <= 3; it++)
			agree_at(s, sizes[i], it);
		claim->teardown(s);
	}
}

/*
 * The check value sees the result in the source's byte order: where every
 * element size covers the whole buffer (size a multiple of 8), copies and
 * in-place passes of every size return the same value.
 */
static void test_checks_see_the_source(void **unused)
{
	static const uint64_t at[] = { 8, 1000, 32768, 300000 };

	(void)unused;
	for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		void *s = setup_size(at[k]);
		const struct settle_variant *sc = find("scalar", 64, 1);
		uint64_t want = sc->run(s, sc->arg, 1);

		for (size_t i = 0; i < claim->nvariants; i++) {
			const struct settle_variant *v = &claim->variants[i];

			if ((v->flags & SETTLE_REFERENCE) || !runs_here(v, s))
				continue;
			assert_int_equal(v->run(s, v->arg, 1), want);
		}
		claim->teardown(s);
	}
}

/*
 * In place, every variant of every element size returns the same value,
 * whatever ran before: the check sees the buffer in the source's byte
 * order. Interleaved like the runner, rotating the start; the load-store
 * reference rows run among them (their value is not checked) and must
 * leave the buffer as it was.
 */
static void test_inplace_interleaved(void **unused)
{
	static const uint64_t odd[] = { 1006, 1007, 4096 + 6, 300000 + 6 };

	(void)unused;
	for (size_t k = 0; k < sizeof(odd) / sizeof(odd[0]); k++) {
		void *s = setup_size(odd[k]);
		const struct settle_variant *sc = find("scalar", 16, 1);
		uint64_t want = sc->run(s, sc->arg, 2);

		for (size_t round = 0; round < 7; round++)
			for (size_t j = 0; j < claim->nvariants; j++) {
				const struct settle_variant *v =
					&claim->variants[(j + round) %
							 claim->nvariants];

				if (!in_place(v) || !runs_here(v, s))
					continue;
				if (v->flags & SETTLE_REFERENCE) {
					v->run(s, v->arg, 1 + round % 3);
					continue;
				}
				assert_int_equal(v->run(s, v->arg, 1 + round % 3),
						 want);
			}
		claim->teardown(s);
	}
}

/* ---- whole elements only ------------------------------------------------ */

static size_t seen_n;

static void record_n(void *dst, const void *src, size_t n)
{
	(void)dst;
	(void)src;
	seen_n = n;
}

static void test_whole_elements(void **unused)
{
	void *s = setup_size(1003);

	(void)unused;
	settle_bswap_claim_passes(s, 1, record_n, 16, 0);
	assert_int_equal(seen_n, 501);
	settle_bswap_claim_passes(s, 1, record_n, 32, 1);
	assert_int_equal(seen_n, 250);
	settle_bswap_claim_passes(s, 1, record_n, 64, 0);
	assert_int_equal(seen_n, 125);
	assert_int_equal(settle_bswap_claim_passes(s, 1, record_n, 8, 0), 0);
	claim->teardown(s);
}

/* ---- wrong functions are caught ----------------------------------------- */

static unsigned cur_bits; /* element size for the broken functions */

static void no_swap(void *dst, const void *src, size_t n)
{
	memmove(dst, src, n * (cur_bits / 8));
}

static void nothing(void *dst, const void *src, size_t n)
{
	(void)dst;
	(void)src;
	(void)n;
}

static settle_bswap_fn good(void)
{
	return settle_bswap_impl_fn(SETTLE_BSWAP_SCALAR, cur_bits);
}

/* Forgets the tail: the last element is not written at all. */
static void skip_last(void *dst, const void *src, size_t n)
{
	if (n)
		good()(dst, src, n - 1);
}

static void wrong_size(void *dst, const void *src, size_t n)
{
	unsigned other = cur_bits == 64 ? 32 : 64;
	size_t nb = n * (cur_bits / 8);

	no_swap(dst, src, n);
	settle_bswap_impl_fn(SETTLE_BSWAP_SCALAR, other)(dst, src,
							  nb / (other / 8));
}

static void twice(void *dst, const void *src, size_t n)
{
	good()(dst, src, n);
	good()(dst, dst, n);
}

static void one_bad_byte(void *dst, const void *src, size_t n)
{
	good()(dst, src, n);
	if (n)
		((unsigned char *)dst)[n * (cur_bits / 8) / 2] ^= 0x10;
}

struct broken {
	const char *what;
	settle_bswap_fn fn;
	int copy, inplace; /* applies to copies, to in place */
	int full_only;     /* caught only where every byte is checked */
};

/*
 * A single wrong byte in the middle of a buffer over 256 KiB is caught
 * only if it lies on a checked word: the check value samples such buffers
 * (claims/bswap.c), so that the checksum is not timed with the pass.
 */
static const struct broken broken[] = {
	{ "copy without swapping", no_swap, 1, 1, 0 },
	{ "writes nothing", nothing, 1, 1, 0 },
	{ "skips the last element", skip_last, 1, 1, 0 },
	{ "wrong element size", wrong_size, 1, 1, 0 },
	{ "swaps twice", twice, 0, 1, 0 },
	{ "one corrupted byte", one_bad_byte, 1, 1, 1 },
};

#define CHECK_ALL_BYTES (256u << 10)

/* A fresh state for each case: a wrong in-place pass leaves the buffer
 * in a state the claim cannot know. */
static void broken_case(uint64_t size, unsigned bits, int ip,
			const struct broken *w)
{
	void *s = setup_size(size);
	const struct settle_variant *sc;
	uint64_t want, got;

	cur_bits = bits;
	sc = find("scalar", bits, ip);
	want = sc->run(s, sc->arg, 1);
	got = settle_bswap_claim_passes(s, 1, w->fn, bits, ip);
	claim->teardown(s);
	if (got == want)
		fail_msg("%llu bytes, %u-bit %s: '%s' not caught",
			 (unsigned long long)size, bits,
			 ip ? "in place" : "copy", w->what);
}

static void test_broken_caught(void **unused)
{
	static const uint64_t at[] = { 16, 1000, 1006, 32768, 300000 + 6 };
	static const unsigned bits[] = { 16, 32, 64 };

	(void)unused;
	for (size_t z = 0; z < sizeof(at) / sizeof(at[0]); z++)
		for (size_t b = 0; b < 3; b++)
			for (int ip = 0; ip < 2; ip++)
				for (size_t k = 0; k < 6; k++) {
					const struct broken *w = &broken[k];

					if (!(ip ? w->inplace : w->copy) ||
					    (w->full_only &&
					     at[z] > CHECK_ALL_BYTES))
						continue;
					broken_case(at[z], bits[b], ip, w);
				}
}

/* ---- the runner refuses a wrong variant --------------------------------- */

static uint64_t run_no_swap(void *s, const void *arg, uint64_t iters)
{
	(void)arg;
	cur_bits = 32;
	return settle_bswap_claim_passes(s, iters, no_swap, 32, 0);
}

static void test_runner_refuses(void **unused)
{
	const struct settle_variant *base = find("scalar", 32, 0);
	struct settle_variant vars[2];
	struct settle_claim c = *claim;
	struct settle_options o;
	struct settle_report rep;
	uint64_t size = 4096;
	char err[512] = "";

	(void)unused;
	vars[0] = *base;
	vars[1] = *base;
	vars[1].name = "noswap";
	vars[1].run = run_no_swap;
	c.variants = vars;
	c.nvariants = 2;
	settle_options_default(&o, 1);
	o.samples = 1;
	o.min_sample_ns = 1e5;
	assert_int_equal(settle_report_init(&rep, &o, err, sizeof(err)), 0);
	assert_int_equal(settle_run_claim(&rep, &c, &size, 1, err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "noswap"));
	settle_report_free(&rep);
}

/* ---- set-up and scale --------------------------------------------------- */

static void test_setup_refuses(void **unused)
{
	struct settle_params p = { .size_bytes = 1ull << 62, .cpu = -1 };
	char err[256] = "";

	(void)unused;
	assert_null(claim->setup(&p, err, sizeof(err)));
	assert_non_null(strstr(err, "bswap"));
	claim->teardown(NULL);
}

static void test_scale(void **unused)
{
	struct settle_result r;
	struct settle_scale_ctx ctx = { .largest_size = 1u << 20,
					.device_mbps = 13 };
	struct settle_figure f[8];

	(void)unused;
	memset(&r, 0, sizeof(r));
	ctx.claim = claim;
	ctx.variant = find("auto", 32, 0);
	r.size_bytes = 1u << 20;
	r.bytes_per_ns = 10;
	assert_int_equal(claim->scale(&r, &ctx, f, 8), 2);
	assert_true(f[0].value > 9999 && f[0].value < 10001);
	assert_true(f[1].value > 0.1299 && f[1].value < 0.1301);
	r.size_bytes = 4096;
	assert_int_equal(claim->scale(&r, &ctx, f, 8), 0);
	r.size_bytes = 1u << 20;
	r.skipped = "no";
	assert_int_equal(claim->scale(&r, &ctx, f, 8), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_variants_agree),
		cmocka_unit_test(test_checks_see_the_source),
		cmocka_unit_test(test_inplace_interleaved),
		cmocka_unit_test(test_whole_elements),
		cmocka_unit_test(test_broken_caught),
		cmocka_unit_test(test_runner_refuses),
		cmocka_unit_test(test_setup_refuses),
		cmocka_unit_test(test_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
