/*
 * test_popcount.c - the popcount primitives (include/settle_bits.h)
 * against bit-by-bit references.
 *
 * Every implementation this CPU can run (taken directly with
 * settle_popcount_impl_fn(); x86-64: popcnt, avx2, avx512vl, avx512;
 * AArch64: neon, sve), on x86-64 the private AVX2+POPCNT and
 * AVX512VL+POPCNT kernels and the AVX2 and AVX512VL paths of
 * settle_popcount_path_fn(), and the dispatched settle_popcount() are
 * checked on:
 *   - every length 0..1024 at every alignment 0..63 (random bytes), and
 *     the lengths up to 2700 (several steps of every unrolled loop);
 *   - every length 0..2700 placed right after and right before a
 *     PROT_NONE page, so that a read outside the buffer crashes;
 *   - random buffers of 1 MiB and more, at odd lengths and alignments;
 *   - buffers of 16 MiB and more (the streaming loops) against the sum of
 *     two halves below 16 MiB, at odd lengths and alignments;
 *   - buffers of the words 0, ~0, 0x10, 0xF0, 0xFFFFFFFF00000000;
 *   - 64 MiB + 37 bytes of 0xFF (every per-byte and per-lane counter of
 *     the vector kernels is pushed to its largest value).
 * Implementations this CPU cannot run are skipped, and say so.
 * settle_popcount64() is checked on single words, settle_popcount_range()
 * on every range whose ends lie near multiples of 8 and 64, with the
 * bitmap's first and last bytes against PROT_NONE pages.
 *
 * SETTLE_TEST_SAMPLE=1 checks a sample instead of every length and
 * alignment (lengths 0..1024 in steps of 7 plus the boundaries around
 * multiples of 32 and 64, alignments 0, 1, 7, 8, 31, 32, 63): under CPU
 * emulation the full sweep takes too long. No timing is asserted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"

#include "cpu/cpu.h"
#include "prim/popcount_kernels.h"
#include "settle_bits.h"

#define MAX_LEN 1024
#define MAX_ALIGN 64

/*
 * An implementation under test: impl, or with impl NIMPL the dispatched
 * function, or fn (a private kernel) or with path set impl's path
 * (settle_popcount_path_fn()) when the CPU can run both impl and impl2.
 */
struct subject {
	const char *name;
	enum settle_popcount_impl impl;
	settle_popcount_fn fn;
	enum settle_popcount_impl impl2;
	int path;
	int inline_code; /* fn is inline code: 1 popcount_inline_avx512.c,
			    2 popcount_inline_avx2.c */
};

/* tests/popcount_inline_avx512.c, compiled for AVX-512, with the
 * library's flags and at -O3 (_o3) */
extern const int settle_test_inline_built, settle_test_inline_built_o3;
uint64_t settle_test_inline_dispatched(const void *buf, size_t len);
uint64_t settle_test_inline_kernel(const void *buf, size_t len);
uint64_t settle_test_inline_dispatched_o3(const void *buf, size_t len);
uint64_t settle_test_inline_kernel_o3(const void *buf, size_t len);

/* tests/popcount_inline_avx2.c, compiled for AVX2 and POPCNT */
extern const int settle_test_inline_avx2_built;
uint64_t settle_test_inline_avx2_kernel(const void *buf, size_t len);

/* settle_popcount_avx2_inline() compiled into a caller built for AVX2
 * and POPCNT: POPCNT, then the carry-save tree and pairs of vectors
 * inline below 2 KiB, the
 * library's kernel from there. */
static const struct subject s_inline_avx2_kernel = {
	.name = "avx2 inline", .impl = SETTLE_POPCOUNT_AVX2,
	.fn = settle_test_inline_avx2_kernel,
	.impl2 = SETTLE_POPCOUNT_POPCNT, .inline_code = 2
};

/* settle_popcount() and settle_popcount_avx512_inline() compiled into a
 * caller built for AVX-512 (settle_bits.h): the first calls the library
 * until it has chosen AVX-512, then runs the kernel inline. */
static const struct subject s_inline = {
	.name = "settle_popcount inline", .impl = SETTLE_POPCOUNT_AVX512,
	.fn = settle_test_inline_dispatched,
	.impl2 = SETTLE_POPCOUNT_AVX512, .inline_code = 1
};
static const struct subject s_inline_kernel = {
	.name = "avx512 inline", .impl = SETTLE_POPCOUNT_AVX512,
	.fn = settle_test_inline_kernel,
	.impl2 = SETTLE_POPCOUNT_AVX512, .inline_code = 1
};
/* the same at -O3, where the loop below 2 KiB is unrolled completely */
static const struct subject s_inline_o3 = {
	.name = "settle_popcount inline -O3", .impl = SETTLE_POPCOUNT_AVX512,
	.fn = settle_test_inline_dispatched_o3,
	.impl2 = SETTLE_POPCOUNT_AVX512, .inline_code = 1
};
static const struct subject s_inline_kernel_o3 = {
	.name = "avx512 inline -O3", .impl = SETTLE_POPCOUNT_AVX512,
	.fn = settle_test_inline_kernel_o3,
	.impl2 = SETTLE_POPCOUNT_AVX512, .inline_code = 1
};

static const struct subject s_swar = {
	.name = "swar", .impl = SETTLE_POPCOUNT_SWAR
};
static const struct subject s_popcnt = {
	.name = "popcnt", .impl = SETTLE_POPCOUNT_POPCNT
};
static const struct subject s_avx2 = {
	.name = "avx2", .impl = SETTLE_POPCOUNT_AVX2
};
static const struct subject s_avx512vl = {
	.name = "avx512vl", .impl = SETTLE_POPCOUNT_AVX512VL
};
static const struct subject s_avx512 = {
	.name = "avx512", .impl = SETTLE_POPCOUNT_AVX512
};
static const struct subject s_auto = {
	.name = "settle_popcount", .impl = SETTLE_POPCOUNT_NIMPL
};
static const struct subject s_neon = {
	.name = "neon", .impl = SETTLE_POPCOUNT_NEON
};
static const struct subject s_sve = {
	.name = "sve", .impl = SETTLE_POPCOUNT_SVE
};
#if SETTLE_ARCH_X86_64
static const struct subject s_avx2_popcnt = {
	.name = "avx2+popcnt", .impl = SETTLE_POPCOUNT_AVX2,
	.fn = settle_popcount_kernel_avx2_popcnt,
	.impl2 = SETTLE_POPCOUNT_POPCNT
};
static const struct subject s_avx512vl_popcnt = {
	.name = "avx512vl+popcnt", .impl = SETTLE_POPCOUNT_AVX512VL,
	.fn = settle_popcount_kernel_avx512vl_popcnt,
	.impl2 = SETTLE_POPCOUNT_POPCNT
};

/* settle_popcount_path_fn(SETTLE_POPCOUNT_AVX2): what settle_popcount()
 * runs when it chooses AVX2 on a CPU with POPCNT; the same for AVX512VL. */
static const struct subject s_avx2_path = {
	.name = "avx2 path", .impl = SETTLE_POPCOUNT_AVX2,
	.impl2 = SETTLE_POPCOUNT_POPCNT, .path = 1
};
static const struct subject s_avx512vl_path = {
	.name = "avx512vl path", .impl = SETTLE_POPCOUNT_AVX512VL,
	.impl2 = SETTLE_POPCOUNT_POPCNT, .path = 1
};
#endif

static int sampled(void)
{
	const char *e = getenv("SETTLE_TEST_SAMPLE");

	return e && *e && strcmp(e, "0") != 0;
}

/* Lengths and alignments of the sweep: all, or the sample. */
static int len_wanted(size_t len)
{
	size_t m32 = len % 32;

	if (!sampled())
		return 1;
	return len % 7 == 0 || m32 <= 1 || m32 == 31 || m32 == 8 ||
	       m32 == 7 || m32 == 9 || len == MAX_LEN;
}

static int align_wanted(size_t a)
{
	if (!sampled())
		return 1;
	return a == 0 || a == 1 || a == 7 || a == 8 || a == 31 || a == 32 ||
	       a == 63;
}

/* The function of *state, or skip() when this CPU cannot run it. */
static settle_popcount_fn subject_fn(void **state, const char **name)
{
	const struct subject *s = *state;

	*name = s->name;
	if (s->impl == SETTLE_POPCOUNT_NIMPL)
		return settle_popcount;
	if ((s->inline_code == 1 && (!settle_test_inline_built ||
				     !settle_test_inline_built_o3)) ||
	    (s->inline_code == 2 && !settle_test_inline_avx2_built)) {
		print_message("%s: not built (no AVX flags for this "
			      "architecture): skipped\n", s->name);
		skip();
	}
	if (!settle_popcount_usable(s->impl) ||
	    ((s->fn || s->path) &&
	     !settle_popcount_usable(s->impl2))) {
		print_message("this CPU or OS cannot run %s: skipped\n",
			      s->name);
		skip();
	}
	if (s->path)
		return settle_popcount_path_fn(s->impl);
	return s->fn ? s->fn : settle_popcount_impl_fn(s->impl);
}

static void expect(const char *name, const char *what, const void *buf,
		   size_t len, uint64_t got, uint64_t want)
{
	if (got == want)
		return;
	print_error("%s: %s, %zu bytes at address %% 64 = %u: got %llu, "
		    "want %llu\n", name, what, len,
		    (unsigned)((uintptr_t)buf % 64), (unsigned long long)got,
		    (unsigned long long)want);
	fail();
}

/* len bytes, 64-byte aligned (aligned_alloc wants a multiple of 64). */
static unsigned char *alloc64(size_t len)
{
	unsigned char *p = aligned_alloc(64, (len + 63) / 64 * 64);

	assert_non_null(p);
	return p;
}

/* ---- guarded pages ------------------------------------------------------ */

/* ---- buffers ------------------------------------------------------------ */

/*
 * Every length at every alignment. Each length gets new random bytes; the
 * reference for [off, off + len) comes from per-byte prefix sums of the
 * bit-by-bit count.
 */
static void test_sweep(void **state)
{
	const char *name;
	settle_popcount_fn fn = subject_fn(state, &name);
	size_t cap = MAX_LEN + MAX_ALIGN;
	unsigned char *buf = alloc64(cap);
	uint64_t *prefix = malloc((cap + 1) * sizeof(*prefix));

	assert_non_null(prefix);
	for (size_t len = 0; len <= MAX_LEN; len++) {
		if (!len_wanted(len))
			continue;
		fill_random(buf, cap, 0x9e3779b97f4a7c15u * (len + 1));
		prefix[0] = 0;
		for (size_t i = 0; i < cap; i++)
			prefix[i + 1] = prefix[i] + reference(buf + i, 1);
		for (size_t off = 0; off < MAX_ALIGN; off++) {
			if (!align_wanted(off))
				continue;
			expect(name, "sweep", buf + off, len,
			       fn(buf + off, len),
			       prefix[off + len] - prefix[off]);
		}
	}
	free(prefix);
	free(buf);
}

/*
 * Lengths MAX_LEN + 1 .. LONG_LEN at every alignment, against prefix sums
 * of one random buffer: several steps of every unrolled loop (the longest
 * takes 640 bytes) with every remainder.
 */
#define LONG_LEN 2700

static void test_sweep_long(void **state)
{
	const char *name;
	settle_popcount_fn fn = subject_fn(state, &name);
	size_t cap = LONG_LEN + MAX_ALIGN;
	unsigned char *buf = alloc64(cap);
	uint64_t *prefix = malloc((cap + 1) * sizeof(*prefix));

	assert_non_null(prefix);
	fill_random(buf, cap, 1234);
	prefix[0] = 0;
	for (size_t i = 0; i < cap; i++)
		prefix[i + 1] = prefix[i] + reference(buf + i, 1);
	for (size_t len = MAX_LEN + 1; len <= LONG_LEN; len++) {
		if (!len_wanted(len))
			continue;
		for (size_t off = 0; off < MAX_ALIGN; off++)
			if (align_wanted(off))
				expect(name, "long sweep", buf + off, len,
				       fn(buf + off, len),
				       prefix[off + len] - prefix[off]);
	}
	free(prefix);
	free(buf);
}

/* Every length up to LONG_LEN (the long paths: Harley-Seal, the hybrid,
 * the AVX-512 alignment prologue) with the buffer's first byte just after
 * a PROT_NONE page and with its last byte just before one. */
static void test_guard_pages(void **state)
{
	const char *name;
	settle_popcount_fn fn = subject_fn(state, &name);
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *page = guarded_pages(1);

	assert_non_null(page);
	assert_true(pg >= LONG_LEN);
	fill_random(page, (size_t)pg, 7);
	for (size_t len = 0; len <= LONG_LEN; len++) {
		const unsigned char *end = page + pg - len;

		if (!len_wanted(len))
			continue;
		expect(name, "at page start", page, len, fn(page, len),
		       reference(page, len));
		expect(name, "at page end", end, len, fn(end, len),
		       reference(end, len));
	}
	guarded_free(page, 1);
}

static void test_random_large(void **state)
{
	static const size_t lens[] = {
		(1u << 20), (1u << 20) + 1, (1u << 20) + 13,
		(1u << 20) + 511, (3u << 20) + 7,
	};
	static const size_t offs[] = { 0, 1, 13, 32, 63 };
	const char *name;
	settle_popcount_fn fn = subject_fn(state, &name);
	size_t cap = (3u << 20) + 7 + MAX_ALIGN;
	unsigned char *buf = alloc64(cap);

	fill_random(buf, cap, 42);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (size_t j = 0; j < sizeof(offs) / sizeof(offs[0]); j++)
			expect(name, "random large", buf + offs[j], lens[i],
			       fn(buf + offs[j], lens[i]),
			       reference(buf + offs[j], lens[i]));
	free(buf);
}

/*
 * Buffers of 16 MiB and more (the kernels' streaming loops), at odd
 * lengths and alignments: the count equals the sum of the counts of two
 * halves below 16 MiB, which take the paths the sweeps check.
 */
static void test_stream(void **state)
{
	static const size_t extra[] = { 0, 1, 31, 63, 64, 65, 127, 128, 129,
					200, 4097 };
	static const size_t offs[] = { 0, 1, 16, 33, 63 };
	const char *name;
	settle_popcount_fn fn = subject_fn(state, &name);
	size_t base = 16u << 20;
	size_t cap = base + 4097 + MAX_ALIGN;
	unsigned char *buf = alloc64(cap);

	fill_random(buf, cap, 77);
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		if (sampled() && i % 3)
			continue;
		for (size_t j = 0; j < sizeof(offs) / sizeof(offs[0]); j++) {
			const unsigned char *p = buf + offs[j];
			size_t len = base + extra[i], half = len / 2 + 7;

			expect(name, "16 MiB and more", p, len, fn(p, len),
			       fn(p, half) + fn(p + half, len - half));
		}
	}
	free(buf);
}

#if SETTLE_ARCH_X86_64
/*
 * The AVX-512 kernel's two ways of reading 16 MiB and more (256-bit
 * loads on AMD family 19h, the 512-bit loop elsewhere), each forced, so
 * that both run whatever this CPU is: test_stream() under each.
 */
static void test_stream_both(void **state)
{
	void *s = (void *)&s_avx512;

	(void)state;
	if (!settle_popcount_usable(SETTLE_POPCOUNT_AVX512)) {
		print_message("this CPU or OS cannot run avx512: skipped\n");
		skip();
	}
	for (int mode = 0; mode <= 1; mode++) {
		settle_pc512_stream_256 = mode;
		test_stream(&s);
	}
	settle_pc512_stream_256 = -1;
}
#endif

static const uint64_t patterns[] = {
	0, ~(uint64_t)0, 0x10, 0xF0, 0xFFFFFFFF00000000u,
};
static const uint64_t pattern_bits[] = { 0, 64, 1, 4, 32 };
#define NPATTERNS (sizeof(patterns) / sizeof(patterns[0]))
#define PATTERN_BYTES 2056

static void fill_pattern(unsigned char *p, size_t len, int which)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t w = which < 0 ? patterns[(i / 8) % NPATTERNS]
				       : patterns[which];
		size_t n = len - i < 8 ? len - i : 8;

		memcpy(p + i, &w, n);
	}
}

/* One word repeated (or the words in turn, -1) at every alignment and at
 * every length up to PATTERN_BYTES; whole words have known totals. */
static void test_patterns(void **state)
{
	const char *name;
	settle_popcount_fn fn = subject_fn(state, &name);
	unsigned char *buf = alloc64(PATTERN_BYTES + MAX_ALIGN);

	for (int which = -1; which < (int)NPATTERNS; which++) {
		for (size_t off = 0; off < MAX_ALIGN; off += 9) {
			unsigned char *p = buf + off;

			uint64_t want = 0;

			fill_pattern(p, PATTERN_BYTES, which);
			for (size_t len = 0; len <= PATTERN_BYTES; len++) {
				expect(name, "pattern", p, len, fn(p, len),
				       want);
				if (len < PATTERN_BYTES)
					want += reference(p + len, 1);
			}
			if (which >= 0)
				expect(name, "pattern total", p, 2048,
				       fn(p, 2048), 256 * pattern_bits[which]);
		}
	}
	free(buf);
}

/* All ones: the count is exactly 8 bits per byte. */
static void test_all_ones(void **state)
{
	const char *name;
	settle_popcount_fn fn = subject_fn(state, &name);
	size_t len = (64u << 20) + 37;
	unsigned char *buf = malloc(len + 1);

	assert_non_null(buf);
	memset(buf, 0xff, len + 1);
	expect(name, "all ones", buf, len, fn(buf, len), 8 * (uint64_t)len);
	expect(name, "all ones", buf + 1, len, fn(buf + 1, len),
	       8 * (uint64_t)len);
	free(buf);
}

/* ---- settle_popcount64 -------------------------------------------------- */

static uint64_t reference64(uint64_t w)
{
	uint64_t n = 0;

	for (int b = 0; b < 64; b++)
		n += (w >> b) & 1u;
	return n;
}

static void test_popcount64(void **state)
{
	uint64_t seed = 99;

	(void)state;
	for (size_t i = 0; i < NPATTERNS; i++)
		assert_int_equal(settle_popcount64(patterns[i]),
				 pattern_bits[i]);
	for (int b = 0; b < 64; b++) {
		assert_int_equal(settle_popcount64(1ull << b), 1);
		assert_int_equal(settle_popcount64(~(1ull << b)), 63);
		assert_int_equal(settle_popcount64((2ull << b) - 1), b + 1);
	}
	for (int i = 0; i < 100000; i++) {
		uint64_t w = xorshift64(&seed);

		assert_int_equal(settle_popcount64(w), reference64(w));
	}
}

/* ---- settle_popcount_range ---------------------------------------------- */

/* Set bits among bits [first, first + nbits), one bit at a time. */
static uint64_t reference_range(const unsigned char *map, uint64_t first,
				uint64_t nbits)
{
	uint64_t n = 0;

	for (uint64_t i = first; i < first + nbits; i++)
		n += (map[i / 8] >> (i % 8)) & 1u;
	return n;
}

/* The values m - 1, m, m + 1 for every multiple m of 8 (so of 64 too)
 * that lie in 0..max, ascending. */
static size_t near_boundaries(uint64_t *out, uint64_t max)
{
	size_t n = 0;

	for (uint64_t m = 0; m <= max + 1; m += 8)
		for (uint64_t v = m ? m - 1 : 0; v <= m + 1 && v <= max; v++)
			if (n == 0 || out[n - 1] < v)
				out[n++] = v;
	return n;
}

/*
 * Every (first, nbits) from the boundary lists: the bitmap's bytes are
 * placed so that its last byte is the last of a page (followed by
 * PROT_NONE) and, in a second pass, so that byte first / 8 is the first
 * of a page (preceded by PROT_NONE). Any read outside bytes first / 8 ..
 * (first + nbits - 1) / 8 crashes.
 */
static void check_ranges(const unsigned char *bits, size_t nbytes,
			 unsigned char *page, long pg)
{
	uint64_t firsts[512], counts[512];
	size_t nf = near_boundaries(firsts, 8 * nbytes);
	size_t nc = near_boundaries(counts, 8 * nbytes);

	for (size_t i = 0; i < nf; i++) {
		for (size_t j = 0; j < nc; j++) {
			uint64_t first = firsts[i], nbits = counts[j];
			uint64_t lo = first / 8, hi;
			const unsigned char *map;
			uint64_t want;

			if (first + nbits > 8 * nbytes)
				continue;
			want = reference_range(bits, first, nbits);
			hi = nbits ? (first + nbits - 1) / 8 + 1 : lo;
			/* last needed byte at the page's end */
			memcpy(page + pg - (hi - lo), bits + lo, hi - lo);
			map = page + pg - hi;
			if (settle_popcount_range(map, first, nbits) != want) {
				print_error("range [%llu, +%llu) at page end: "
					    "want %llu\n",
					    (unsigned long long)first,
					    (unsigned long long)nbits,
					    (unsigned long long)want);
				fail();
			}
			/* byte first / 8 at the page's start */
			memcpy(page, bits + lo, hi - lo);
			map = page - lo;
			if (settle_popcount_range(map, first, nbits) != want) {
				print_error("range [%llu, +%llu) at page start:"
					    " want %llu\n",
					    (unsigned long long)first,
					    (unsigned long long)nbits,
					    (unsigned long long)want);
				fail();
			}
		}
	}
}

static void test_range(void **state)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *page = guarded_pages(1);
	unsigned char bits[80];

	(void)state;
	assert_non_null(page);
	fill_random(bits, sizeof(bits), 5);
	check_ranges(bits, sizeof(bits), page, pg);
	memset(bits, 0xff, sizeof(bits));
	check_ranges(bits, sizeof(bits), page, pg);
	/* single bits: exactly one set bit counted where it lies */
	memset(bits, 0, sizeof(bits));
	bits[9] = 0x10; /* bit 76 */
	assert_int_equal(settle_popcount_range(bits, 76, 1), 1);
	assert_int_equal(settle_popcount_range(bits, 75, 1), 0);
	assert_int_equal(settle_popcount_range(bits, 77, 1), 0);
	assert_int_equal(settle_popcount_range(bits, 0, 76), 0);
	assert_int_equal(settle_popcount_range(bits, 0, 77), 1);
	assert_int_equal(settle_popcount_range(bits, 77, 563), 0);
	guarded_free(page, 1);
}

/* Empty ranges read nothing: any pointer, even NULL, any first. */
static void test_range_empty(void **state)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *page = guarded_pages(1);

	(void)state;
	assert_non_null(page);
	assert_int_equal(settle_popcount_range(NULL, 0, 0), 0);
	assert_int_equal(settle_popcount_range(page - pg, 12345, 0), 0);
	assert_int_equal(settle_popcount_range(page + pg, 0, 0), 0);
	assert_int_equal(settle_popcount_range(page, UINT64_MAX, 0), 0);
	assert_int_equal(settle_popcount(NULL, 0), 0);
	guarded_free(page, 1);
}

/* Long ranges: the middle goes through settle_popcount. */
static void test_range_long(void **state)
{
	size_t len = (1u << 20) + 3;
	unsigned char *bits = malloc(len);
	static const uint64_t firsts[] = { 0, 1, 7, 8, 9, 63, 64, 65, 4099 };

	(void)state;
	assert_non_null(bits);
	fill_random(bits, len, 11);
	for (size_t i = 0; i < sizeof(firsts) / sizeof(firsts[0]); i++) {
		uint64_t first = firsts[i];
		uint64_t nbits = 8 * (uint64_t)len - first - i;

		assert_int_equal(settle_popcount_range(bits, first, nbits),
				 reference_range(bits, first, nbits));
	}
	free(bits);
}

/* ---- names -------------------------------------------------------------- */

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(settle_popcount_impl_name(SETTLE_POPCOUNT_SWAR),
			    "swar");
	assert_string_equal(settle_popcount_impl_name(SETTLE_POPCOUNT_POPCNT),
			    "popcnt");
	assert_string_equal(settle_popcount_impl_name(SETTLE_POPCOUNT_AVX2),
			    "avx2");
	assert_string_equal(settle_popcount_impl_name(SETTLE_POPCOUNT_AVX512VL),
			    "avx512vl");
	assert_string_equal(settle_popcount_impl_name(SETTLE_POPCOUNT_AVX512),
			    "avx512");
	assert_string_equal(settle_popcount_impl_name(SETTLE_POPCOUNT_NEON),
			    "neon");
	assert_string_equal(settle_popcount_impl_name(SETTLE_POPCOUNT_SVE),
			    "sve");
	assert_string_equal(settle_popcount_impl_name(SETTLE_POPCOUNT_NIMPL),
			    "?");
	assert_null(settle_popcount_impl_fn(SETTLE_POPCOUNT_NIMPL));
	/* this architecture's implementations have a kernel; the others
	 * none, and are never usable */
	for (int i = 0; i < SETTLE_POPCOUNT_NIMPL; i++) {
		int mine = i == SETTLE_POPCOUNT_SWAR ||
			   (SETTLE_ARCH_X86_64 && i >= SETTLE_POPCOUNT_POPCNT &&
			    i <= SETTLE_POPCOUNT_AVX512) ||
			   (SETTLE_ARCH_AARCH64 && i >= SETTLE_POPCOUNT_NEON);

		assert_int_equal(settle_popcount_impl_fn(i) != NULL, mine);
		if (!mine)
			assert_false(settle_popcount_usable(i));
	}
	assert_true(settle_popcount_usable(SETTLE_POPCOUNT_SWAR));
	assert_false(settle_popcount_usable(SETTLE_POPCOUNT_NIMPL));
	/* the active implementation is one this CPU can run */
	assert_true(settle_popcount_usable(settle_popcount_active()));
	print_message("active implementation: %s\n",
		      settle_popcount_impl_name(settle_popcount_active()));
}

/*
 * The inline entry runs the kernel inline exactly when the library has
 * chosen AVX-512: settle_popcount_avx512_chosen follows
 * settle_popcount_active() (under SETTLE_POPCOUNT=avx2 too: make test runs
 * this program so, tests/test_env.sh), and a count through the entry
 * equals the library's.
 */
static void test_inline_choice(void **state)
{
	unsigned char buf[300];
	uint64_t want;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 37 + 11);
	want = (settle_popcount)(buf, sizeof(buf));
	assert_int_equal(settle_popcount_avx512_chosen,
			 settle_popcount_active() == SETTLE_POPCOUNT_AVX512);
	if (!settle_test_inline_built ||
	    !settle_popcount_usable(SETTLE_POPCOUNT_AVX512)) {
		print_message("no inline AVX-512 entry here: skipped\n");
		skip();
	}
	assert_int_equal(settle_test_inline_dispatched(buf, sizeof(buf)), want);
	assert_int_equal(settle_test_inline_dispatched(buf + 1, 257),
			 (settle_popcount)(buf + 1, 257));
}

#define SUBJECT_TEST(s, f) { #s ": " #f, f, NULL, NULL, (void *)&s }
#define SUBJECT_TESTS(s)						\
	SUBJECT_TEST(s, test_sweep),					\
	SUBJECT_TEST(s, test_sweep_long),				\
	SUBJECT_TEST(s, test_guard_pages),				\
	SUBJECT_TEST(s, test_random_large),				\
	SUBJECT_TEST(s, test_stream),					\
	SUBJECT_TEST(s, test_patterns),					\
	SUBJECT_TEST(s, test_all_ones)

int main(void)
{
	const struct CMUnitTest tests[] = {
		SUBJECT_TESTS(s_swar),
		SUBJECT_TESTS(s_popcnt),
		SUBJECT_TESTS(s_avx2),
		SUBJECT_TESTS(s_avx512vl),
		SUBJECT_TESTS(s_avx512),
		SUBJECT_TESTS(s_neon),
		SUBJECT_TESTS(s_sve),
		SUBJECT_TESTS(s_auto),
		SUBJECT_TESTS(s_inline),
		SUBJECT_TESTS(s_inline_kernel),
		SUBJECT_TESTS(s_inline_o3),
		SUBJECT_TESTS(s_inline_kernel_o3),
		SUBJECT_TESTS(s_inline_avx2_kernel),
		cmocka_unit_test(test_inline_choice),
#if SETTLE_ARCH_X86_64
		SUBJECT_TESTS(s_avx2_popcnt),
		SUBJECT_TESTS(s_avx2_path),
		SUBJECT_TESTS(s_avx512vl_popcnt),
		SUBJECT_TESTS(s_avx512vl_path),
		cmocka_unit_test(test_stream_both),
#endif
		cmocka_unit_test(test_popcount64),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_range_empty),
		cmocka_unit_test(test_range_long),
		cmocka_unit_test(test_names),
	};

	if (sampled())
		print_message("SETTLE_TEST_SAMPLE: sampled lengths and "
			      "alignments\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
