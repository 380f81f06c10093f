/*
 * test_byteorder.c - the byte-order primitives (include/settle_byteorder.h)
 * against byte-by-byte references.
 *
 *   - settle_load/store_le/be16/32/64 at every alignment 0..15;
 *   - every byte-swap implementation this CPU can run (taken directly with
 *     settle_bswap_impl_fn()) and the dispatched settle_bswap16/32/64, for
 *     16, 32 and 64-bit elements: every length 0..512 elements (so every
 *     byte length 0..1024 of 16-bit ones) at every source alignment 0..63
 *     and destination alignments 0, 1, 2, 3, 4, 7,
 *     8, 15, 16, 31, 32, 33, 63, and in place at every alignment 0..63;
 *     some long arrays (over 4 KiB, over 64 KiB, odd lengths) at a few
 *     alignments; guard bytes around the destination must stay untouched,
 *     and the source too when not in place;
 *   - arrays ending right before and starting right after a PROT_NONE
 *     page, so that a read or write outside them crashes;
 *   - an array larger than the last-level cache (the non-temporal path of
 *     the vector kernels; the test checks that the path was taken);
 *   - both sides of the sizes at which the AVX2 and AVX-512 kernels hand
 *     the work to another kernel (a copy: the copy rule's zmm_end and
 *     narrow_from, struct settle_bswap_copy_rule; in place:
 *     SETTLE_BSWAP_NARROW_INPLACE_BYTES, and the ends of the rule's
 *     in-place range for the AVX2 loop, 12 KiB and ymm_inplace_to):
 *     lengths just below, at and above each, at several alignments, with
 *     guard bytes, and the copies also against PROT_NONE pages;
 *   - the sweeps, the long arrays, the PROT_NONE edges and the copy
 *     hand-overs of the AVX2, AVX-512 and dispatched kernels again under
 *     each CPU family's copy rule, injected with small sizes (AMD family
 *     19h's: the SSSE3 kernel from 24 KiB, AVX-512 copies at a
 *     4K-aliasing distance from the end, AVX-512 swaps in place of 12 to
 *     32 KiB with the AVX2 loop; every other CPU's: the AVX2 kernel from
 *     24 KiB, the SSSE3 kernel from 48 KiB, no backward copy), so that
 *     every path runs on any CPU;
 *   - float and double arrays swapped twice, through settle_bswap32/64 and
 *     the load/store helpers, read back as float and double: with strict
 *     aliasing at -O2 (this file) and -O3 (mk/bswap.mk builds it again as
 *     test_byteorder_O3), the original values come back;
 *   - the dispatch decision settle_bswap_choose() on injected cpuid words;
 *   - SETTLE_BSWAP forcing each implementation in a forked child that
 *     decides again: a usable one runs; one this CPU lacks and an unknown
 *     name are ignored (the automatic choice swaps right) and reported by
 *     settle_bswap_env_refusal() in one line.
 * Implementations this CPU cannot run are skipped, and say so.
 *
 * SETTLE_TEST_SAMPLE=1 checks a sample instead of every length and
 * alignment (lengths 0..512 in steps of 7 plus those around multiples of
 * 16 and 32 elements; alignments 0, 1, 3, 8, 31, 32, 33, 63) and only
 * 32-bit elements beyond the last-level cache and at the in-place
 * hand-over: under CPU emulation the full sweep takes too long. No timing
 * is asserted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "bswap_rules.h"
#include "helpers.h"

#include "cpu/cpu.h"
#include "prim/bswap_kernels.h"
#include "prim/dispatch.h"
#include "settle_byteorder.h"

#define MAX_ELEMS 512 /* 1024 bytes of 16-bit elements, 4096 of 64-bit */
#define MAX_ALIGN 64
#define GUARD 64
#define GUARD_BYTE 0xa5
/* Room for the longest array of the sweeps, plus alignment and guards. */
#define LONG_BYTES (80000 * 8)
#define BUF_BYTES (LONG_BYTES + 2 * MAX_ALIGN + 2 * GUARD)

/* An implementation under test; impl NIMPL is the dispatched function. */
struct subject {
	const char *name;
	enum settle_bswap_impl impl;
};

static const struct subject s_scalar = { "scalar", SETTLE_BSWAP_SCALAR };
static const struct subject s_ssse3 = { "ssse3", SETTLE_BSWAP_SSSE3 };
static const struct subject s_avx2 = { "avx2", SETTLE_BSWAP_AVX2 };
static const struct subject s_avx512 = { "avx512", SETTLE_BSWAP_AVX512 };
static const struct subject s_neon = { "neon", SETTLE_BSWAP_NEON };
static const struct subject s_auto = { "settle_bswapNN", SETTLE_BSWAP_NIMPL };

static const unsigned elem_bits[] = { 16, 32, 64 };
static const size_t dst_aligns[] = { 0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32,
				     33, 63 };

static int sampled(void)
{
	const char *e = getenv("SETTLE_TEST_SAMPLE");

	return e && *e && strcmp(e, "0") != 0;
}

static int len_wanted(size_t n)
{
	if (!sampled())
		return 1;
	return n % 7 == 0 || n % 16 <= 1 || n % 16 == 15 || n % 32 == 31 ||
	       n == MAX_ELEMS;
}

static int align_wanted(size_t a)
{
	if (!sampled())
		return 1;
	return a == 0 || a == 1 || a == 3 || a == 8 || a == 31 || a == 32 ||
	       a == 33 || a == 63;
}

/* The function of s for elem_bits, or NULL when this CPU cannot run it. */
static settle_bswap_fn subject_fn(const struct subject *s, unsigned bits)
{
	if (s->impl == SETTLE_BSWAP_NIMPL)
		return bits == 16 ? settle_bswap16 :
		       bits == 32 ? settle_bswap32 : settle_bswap64;
	if (!settle_bswap_usable(s->impl))
		return NULL;
	return settle_bswap_impl_fn(s->impl, bits);
}

/* The subject of *state, or skip() (saying so) when the CPU lacks it. */
static const struct subject *usable_subject(void **state)
{
	const struct subject *s = *state;

	if (!subject_fn(s, 32)) {
		print_message("this CPU or OS cannot run %s "
			      "(settle_bswap_usable): skipped\n", s->name);
		skip();
	}
	return s;
}

static unsigned char *xmalloc(size_t len)
{
	unsigned char *p = malloc(len);

	assert_non_null(p);
	return p;
}

/* ---- loads and stores --------------------------------------------------- */

/* Value of the w bytes at p, least significant first (le) or last. */
static uint64_t bytes_value(const unsigned char *p, int w, int be)
{
	uint64_t v = 0;

	for (int i = 0; i < w; i++)
		v |= (uint64_t)p[be ? w - 1 - i : i] << (8 * i);
	return v;
}

static void test_loads(void **unused)
{
	unsigned char buf[32];

	(void)unused;
	fill_random(buf, sizeof(buf), 11);
	for (int a = 0; a < 16; a++) {
		const unsigned char *p = buf + a;

		assert_int_equal(settle_load_le16(p), bytes_value(p, 2, 0));
		assert_int_equal(settle_load_le32(p), bytes_value(p, 4, 0));
		assert_int_equal(settle_load_le64(p), bytes_value(p, 8, 0));
		assert_int_equal(settle_load_be16(p), bytes_value(p, 2, 1));
		assert_int_equal(settle_load_be32(p), bytes_value(p, 4, 1));
		assert_int_equal(settle_load_be64(p), bytes_value(p, 8, 1));
	}
}

/* Store v (w bytes, le or be) at buf + a; check it and the neighbours. */
static void check_store(int a, int w, int be, uint64_t v)
{
	unsigned char buf[32], want[32];

	memset(buf, GUARD_BYTE, sizeof(buf));
	memset(want, GUARD_BYTE, sizeof(want));
	for (int i = 0; i < w; i++)
		want[a + (be ? w - 1 - i : i)] = (unsigned char)(v >> (8 * i));
	if (w == 2 && !be)
		settle_store_le16(buf + a, (uint16_t)v);
	else if (w == 2)
		settle_store_be16(buf + a, (uint16_t)v);
	else if (w == 4 && !be)
		settle_store_le32(buf + a, (uint32_t)v);
	else if (w == 4)
		settle_store_be32(buf + a, (uint32_t)v);
	else if (!be)
		settle_store_le64(buf + a, v);
	else
		settle_store_be64(buf + a, v);
	assert_memory_equal(buf, want, sizeof(buf));
}

static void test_stores(void **unused)
{
	uint64_t seed = 5;

	(void)unused;
	for (int a = 0; a < 16; a++)
		for (int w = 2; w <= 8; w *= 2)
			for (int be = 0; be < 2; be++)
				check_store(a, w, be, xorshift64(&seed));
}

/* ---- byte swap sweeps --------------------------------------------------- */

/* Is dst[0..nb) the element-wise byte reversal of src[0..nb)? */
static int swapped_ok(const unsigned char *dst, const unsigned char *src,
		      size_t nb, size_t esz, size_t *bad)
{
	for (size_t e = 0; e < nb; e += esz)
		for (size_t j = 0; j < esz; j++)
			if (dst[e + j] != src[e + esz - 1 - j]) {
				*bad = e + j;
				return 0;
			}
	return 1;
}

static int all_bytes(const unsigned char *p, size_t len, unsigned char b)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != b)
			return 0;
	return 1;
}

struct sweep {
	unsigned char *src;  /* BUF_BYTES random bytes, never written */
	unsigned char *work; /* BUF_BYTES: the destination with guards */
	unsigned char *orig; /* copy of src, to prove src is untouched */
};

static void sweep_init(struct sweep *w)
{
	w->src = xmalloc(BUF_BYTES);
	w->work = xmalloc(BUF_BYTES);
	w->orig = xmalloc(BUF_BYTES);
	fill_random(w->src, BUF_BYTES, 1234567);
	memcpy(w->orig, w->src, BUF_BYTES);
}

static void sweep_free(struct sweep *w)
{
	free(w->src);
	free(w->work);
	free(w->orig);
}

static void report(const char *what, const char *name, unsigned bits,
		   size_t n, size_t sa, size_t da, size_t bad)
{
	fail_msg("%s: %s, %u-bit, %zu elements, src align %zu, dst align "
		 "%zu: first bad byte %zu", what, name, bits, n, sa, da, bad);
}

/* One copy: n elements from src + GUARD + sa to work + GUARD + da. */
static void one_copy(struct sweep *w, const struct subject *s,
		     unsigned bits, size_t n, size_t sa, size_t da)
{
	settle_bswap_fn fn = subject_fn(s, bits);
	size_t esz = bits / 8, nb = n * esz, bad = 0;
	unsigned char *d = w->work + GUARD + da;
	const unsigned char *src = w->src + GUARD + sa;

	memset(d - GUARD, GUARD_BYTE, nb + 2 * GUARD);
	fn(d, src, n);
	if (!swapped_ok(d, src, nb, esz, &bad))
		report("wrong result", s->name, bits, n, sa, da, bad);
	if (!all_bytes(d - GUARD, GUARD, GUARD_BYTE) ||
	    !all_bytes(d + nb, GUARD, GUARD_BYTE))
		report("guard byte written", s->name, bits, n, sa, da, 0);
	if (memcmp(src - GUARD, w->orig + (size_t)(src - GUARD - w->src),
		   nb + 2 * GUARD) != 0)
		report("source written", s->name, bits, n, sa, da, 0);
}

/* In place: n elements at work + GUARD + a, from a copy of src. */
static void one_inplace(struct sweep *w, const struct subject *s,
			unsigned bits, size_t n, size_t a)
{
	settle_bswap_fn fn = subject_fn(s, bits);
	size_t esz = bits / 8, nb = n * esz, bad = 0;
	unsigned char *p = w->work + GUARD + a;
	const unsigned char *src = w->src + GUARD + a;

	memset(p - GUARD, GUARD_BYTE, GUARD);
	memset(p + nb, GUARD_BYTE, GUARD);
	memcpy(p, src, nb);
	fn(p, p, n);
	if (!swapped_ok(p, src, nb, esz, &bad))
		report("wrong result in place", s->name, bits, n, a, a, bad);
	if (!all_bytes(p - GUARD, GUARD, GUARD_BYTE) ||
	    !all_bytes(p + nb, GUARD, GUARD_BYTE))
		report("guard byte written in place", s->name, bits, n, a, a,
		       0);
}

static void sweep_length(struct sweep *w, const struct subject *s,
			 unsigned bits, size_t n)
{
	size_t nd = sizeof(dst_aligns) / sizeof(dst_aligns[0]);

	for (size_t sa = 0; sa < MAX_ALIGN; sa++) {
		if (!align_wanted(sa))
			continue;
		for (size_t k = 0; k < nd; k++)
			if (align_wanted(dst_aligns[k]))
				one_copy(w, s, bits, n, sa, dst_aligns[k]);
		one_inplace(w, s, bits, n, sa);
	}
}

/* Every length 0..MAX_ELEMS at every alignment, in place and not. */
static void test_sweep(void **state)
{
	const struct subject *s = usable_subject(state);
	struct sweep w;

	sweep_init(&w);
	for (size_t b = 0; b < 3; b++)
		for (size_t n = 0; n <= MAX_ELEMS; n++)
			if (len_wanted(n))
				sweep_length(&w, s, elem_bits[b], n);
	sweep_free(&w);
}

/* Long arrays (bytes over 4 KiB and over 64 KiB) at a few alignments. */
static void test_long(void **state)
{
	static const size_t bytes[] = { 4096 + 8, 8192 + 40, 65536 - 8,
					65536, 65536 + 24, 300000 + 8,
					LONG_BYTES - 8 };
	static const size_t aligns[][2] = { { 0, 0 }, { 1, 3 }, { 5, 32 },
					     { 63, 1 }, { 8, 63 }, { 32, 33 } };
	const struct subject *s = usable_subject(state);
	struct sweep w;

	sweep_init(&w);
	for (size_t b = 0; b < 3; b++) {
		size_t esz = elem_bits[b] / 8;

		for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++)
			for (size_t k = 0; k < 6; k++) {
				size_t n = bytes[i] / esz - (k & 1);

				one_copy(&w, s, elem_bits[b], n, aligns[k][0],
					 aligns[k][1]);
				one_inplace(&w, s, elem_bits[b], n,
					    aligns[k][1]);
			}
	}
	sweep_free(&w);
}

/* ---- no access outside the arrays ---------------------------------------- */

/*
 * Arrays whose last byte is the last before a PROT_NONE page, and whose
 * first is the first after one: a kernel that reads or writes outside
 * them gets SIGSEGV.
 */
static void test_fenced(void **state)
{
	const struct subject *s = usable_subject(state);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *a = guarded_pages(2), *b = guarded_pages(2);
	unsigned char *aend = a + 2 * page, *bend = b + 2 * page;

	assert_non_null(a);
	assert_non_null(b);
	fill_random(a, 2 * page, 77);
	for (size_t k = 0; k < 3; k++) {
		settle_bswap_fn fn = subject_fn(s, elem_bits[k]);
		size_t esz = elem_bits[k] / 8, bad = 0;

		for (size_t n = 0; n <= MAX_ELEMS; n++) {
			size_t nb = n * esz;

			fn(bend - nb, aend - nb, n);
			if (!swapped_ok(bend - nb, aend - nb, nb, esz, &bad))
				report("wrong at page end", s->name,
				       elem_bits[k], n, 0, 0, bad);
			fn(b, a, n);
			if (!swapped_ok(b, a, nb, esz, &bad))
				report("wrong at page start", s->name,
				       elem_bits[k], n, 0, 0, bad);
			fn(bend - nb, bend - nb, n);
			fn(b, b, n);
		}
	}
	guarded_free(a, 2);
	guarded_free(b, 2);
}

/* ---- larger than the last-level cache ------------------------------------ */

#define NT_MAX_TEST_BYTES (1ull << 30)

struct nt_case {
	size_t doff;   /* dst offset from a 64-byte boundary */
	int in_place;
	int takes_nt;  /* the non-temporal path is expected */
};

/* One call of fn over nb bytes of elements; checks against the scalar
 * kernel (itself checked by the sweeps) and the guards. */
static void nt_one(const struct subject *s, unsigned bits,
		   const struct nt_case *c, unsigned char *src,
		   unsigned char *dbuf, unsigned char *ref, size_t nb)
{
	settle_bswap_fn fn = subject_fn(s, bits);
	size_t esz = bits / 8, n = nb / esz;
	unsigned char *d = dbuf + GUARD + c->doff;
	const unsigned char *from = c->in_place ? d : src + 64;
	uint64_t before = settle_bswap_nt_calls();

	settle_bswap_impl_fn(SETTLE_BSWAP_SCALAR, bits)(ref, src + 64, n);
	memset(d - GUARD, GUARD_BYTE, GUARD);
	memset(d + nb, GUARD_BYTE, GUARD);
	if (c->in_place)
		memcpy(d, src + 64, nb);
	fn(d, from, n);
	if (memcmp(d, ref, nb) != 0)
		fail_msg("%s, %u-bit, %zu bytes, dst offset %zu%s: wrong "
			 "result", s->name, bits, nb, c->doff,
			 c->in_place ? ", in place" : "");
	assert_true(all_bytes(d - GUARD, GUARD, GUARD_BYTE));
	assert_true(all_bytes(d + nb, GUARD, GUARD_BYTE));
	if (c->takes_nt)
		assert_int_equal(settle_bswap_nt_calls(), before + 1);
	else
		assert_int_equal(settle_bswap_nt_calls(), before);
}

static void test_beyond_llc(void **state)
{
	const struct subject *s = usable_subject(state);
	size_t llc = settle_bswap_nt_bytes();
	size_t nb = (llc + 63) / 64 * 64 + 3 * 64; /* a multiple of 64 */
	int vector = s->impl != SETTLE_BSWAP_SCALAR &&
		     !(s->impl == SETTLE_BSWAP_NIMPL &&
		       settle_bswap_active() == SETTLE_BSWAP_SCALAR);
	const struct nt_case cases[] = {
		{ 0, 0, vector },   /* aligned */
		{ 8, 0, vector },   /* head of elements up to 64 bytes */
		{ 40, 1, 0 },       /* in place: ordinary stores */
		{ 1, 0, 0 },        /* not element-aligned: ordinary stores */
	};
	unsigned char *src, *dbuf, *ref;

	if (llc > NT_MAX_TEST_BYTES) {
		print_message("last-level cache of %zu bytes: too large to "
			      "test beyond it here, skipped\n", llc);
		skip();
	}
	src = aligned_alloc(64, nb + 128);       /* multiples of 64 */
	dbuf = aligned_alloc(64, nb + 2 * GUARD + 128);
	ref = malloc(nb);
	if (!src || !dbuf || !ref) {
		free(src);
		free(dbuf);
		free(ref);
		print_message("cannot allocate 3 x %zu bytes: skipped\n", nb);
		skip();
	}
	fill_random(src, nb + 128, 99);
	/* Sampled (under emulation): 32-bit elements only. */
	for (size_t b = sampled() ? 1 : 0; b < (sampled() ? 2u : 3u); b++)
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
			nt_one(s, elem_bits[b], &cases[k], src, dbuf, ref,
			       nb - elem_bits[b] / 8 * k);
	free(src);
	free(dbuf);
	free(ref);
}

/* ---- the hand-over to the SSSE3 kernel ---------------------------------- */

/* Bytes just below, at and above a hand-over size h (a multiple of 64);
 * each is a multiple of every element size. */
static size_t around(size_t h, size_t k)
{
	static const long delta[] = { -64 - 8, -8, 0, 8, 64 + 24 };

	return (size_t)((long)h + delta[k]);
}

#define NAROUND 5

/* The longest hand-over size the copies around it fit the sweep's
 * buffers for (one_copy()). */
#define AROUND_MAX (LONG_BYTES - 2 * MAX_ALIGN - 128)

/*
 * Copies of lengths around a hand-over size h at several alignments, and
 * in place (the kernel's own loop on both sides), with guard bytes; then
 * the same lengths ending right before and starting right after a
 * PROT_NONE page.
 */
static void copies_around(const struct subject *s, size_t h)
{
	static const size_t aligns[][2] = { { 0, 0 }, { 1, 3 }, { 5, 32 },
					     { 63, 1 }, { 8, 63 }, { 32, 33 } };
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t np = (around(h, NAROUND - 1) + pg - 1) / pg;
	unsigned char *a = guarded_pages(np), *b = guarded_pages(np);
	unsigned char *aend = a + np * pg, *bend = b + np * pg;
	struct sweep w;

	assert_non_null(a);
	assert_non_null(b);
	fill_random(a, np * pg, 31);
	sweep_init(&w);
	for (size_t e = 0; e < 3; e++) {
		unsigned bits = elem_bits[e];
		size_t esz = bits / 8, bad = 0;
		settle_bswap_fn fn = subject_fn(s, bits);

		for (size_t i = 0; i < NAROUND; i++) {
			size_t nb = around(h, i);
			size_t n = nb / esz;

			for (size_t k = 0; k < 6; k++) {
				one_copy(&w, s, bits, n, aligns[k][0],
					 aligns[k][1]);
				one_inplace(&w, s, bits, n, aligns[k][1]);
			}
			fn(bend - nb, aend - nb, n);
			if (!swapped_ok(bend - nb, aend - nb, nb, esz, &bad))
				report("wrong at page end", s->name, bits, n,
				       0, 0, bad);
			fn(b, a, n);
			if (!swapped_ok(b, a, nb, esz, &bad))
				report("wrong at page start", s->name, bits,
				       n, 0, 0, bad);
		}
	}
	sweep_free(&w);
	guarded_free(a, np);
	guarded_free(b, np);
}

/*
 * Copies and swaps in place around the hand-over sizes of the copy rule
 * in force (struct settle_bswap_copy_rule): zmm_end (below: the AVX-512
 * kernel's own loop; from it on: the AVX2 kernel) and narrow_from (from
 * it on: the SSSE3 kernel), and where the rule has an in-place range for
 * the AVX2 loop, its ends (SETTLE_BSWAP_NARROW_COPY_MIN and
 * ymm_inplace_to). A size beyond AROUND_MAX (the non-temporal threshold
 * of a machine's own rule off AMD family 19h) is left to test_beyond_llc.
 */
static void test_narrow_copy(void **state)
{
	const struct subject *s = usable_subject(state);
	const struct settle_bswap_copy_rule *r = settle_bswap_copy_rule();
	size_t h[4] = { r->zmm_end, r->narrow_from,
			SETTLE_BSWAP_NARROW_COPY_MIN, r->ymm_inplace_to };

	for (size_t i = 0; i < 4; i++) {
		if ((i == 1 && h[1] == h[0]) || (i >= 2 && !r->ymm_inplace_to))
			continue;
		if (h[i] > AROUND_MAX) {
			print_message("hand-over at %zu bytes: beyond these "
				      "buffers (test_beyond_llc)\n", h[i]);
			continue;
		}
		copies_around(s, h[i]);
	}
}

/*
 * In place, lengths around SETTLE_BSWAP_NARROW_INPLACE_BYTES (below: the
 * kernel's own loop; from it on: the SSSE3 kernel) at offsets 0, 21 and
 * 42 from a 64-byte boundary, against the scalar kernel, with guard bytes.
 * Sampled: 32-bit elements, below and above only.
 */
static void test_narrow_inplace(void **state)
{
	const struct subject *s = usable_subject(state);
	size_t h = SETTLE_BSWAP_NARROW_INPLACE_BYTES;
	/* a multiple of 64, as aligned_alloc wants */
	size_t cap = (around(h, NAROUND - 1) + 64 + 2 * GUARD + 63) / 64 * 64;
	unsigned char *src = malloc(cap), *buf = aligned_alloc(64, cap);
	unsigned char *ref = malloc(cap);

	if (!src || !buf || !ref) {
		free(src);
		free(buf);
		free(ref);
		print_message("cannot allocate 3 x %zu bytes: skipped\n", cap);
		skip();
	}
	fill_random(src, cap, 4242);
	for (size_t e = sampled() ? 1 : 0; e < (sampled() ? 2u : 3u); e++) {
		unsigned bits = elem_bits[e];
		size_t esz = bits / 8;
		settle_bswap_fn scalar =
			settle_bswap_impl_fn(SETTLE_BSWAP_SCALAR, bits);

		for (size_t i = 0; i < NAROUND; i++) {
			size_t nb = around(h, i), n = nb / esz;
			size_t off = 21 * (i % 3);
			unsigned char *p = buf + GUARD + off;

			if (sampled() && i != 1 && i != NAROUND - 1)
				continue;
			scalar(ref, src, n);
			memset(p - GUARD, GUARD_BYTE, GUARD);
			memset(p + nb, GUARD_BYTE, GUARD);
			memcpy(p, src, nb);
			subject_fn(s, bits)(p, p, n);
			if (memcmp(p, ref, nb) != 0)
				fail_msg("%s, %u-bit, %zu bytes in place at "
					 "%% 64 = %zu: wrong result", s->name,
					 bits, nb, off);
			assert_true(all_bytes(p - GUARD, GUARD, GUARD_BYTE));
			assert_true(all_bytes(p + nb, GUARD, GUARD_BYTE));
		}
	}
	free(src);
	free(buf);
	free(ref);
}

/* ---- float and double --------------------------------------------------- */

/* 1 on a big-endian host: the "native" order of the helpers below. */
#define NATIVE_BE (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

#define NFP 37

static void test_float_double(void **unused)
{
	float f[NFP], fs[NFP], fo[NFP];
	double g[NFP], gs[NFP], go[NFP];

	(void)unused;
	for (int i = 0; i < NFP; i++) {
		f[i] = fo[i] = (float)i * 1.25f - 7.0f + 1e-40f * (i & 1);
		g[i] = go[i] = (double)i * -3.5e100 + 1e-310 * (i & 1);
	}
	/* Copy there and back. */
	settle_bswap32(fs, f, NFP);
	settle_bswap32(f, fs, NFP);
	settle_bswap64(gs, g, NFP);
	settle_bswap64(g, gs, NFP);
	for (int i = 0; i < NFP; i++) {
		uint32_t a, b;
		uint64_t c, d;

		assert_true(f[i] == fo[i]);
		assert_true(g[i] == go[i]);
		memcpy(&a, &fs[i], 4);
		memcpy(&b, &fo[i], 4);
		assert_int_equal(a, __builtin_bswap32(b));
		memcpy(&c, &gs[i], 8);
		memcpy(&d, &go[i], 8);
		assert_int_equal(c, __builtin_bswap64(d));
	}
	/* In place, twice. */
	settle_bswap32(f, f, NFP);
	assert_false(f[1] == fo[1]);
	settle_bswap32(f, f, NFP);
	settle_bswap64(g + 1, g + 1, NFP - 1);
	assert_false(g[2] == go[2]);
	settle_bswap64(g + 1, g + 1, NFP - 1);
	for (int i = 0; i < NFP; i++) {
		assert_true(f[i] == fo[i]);
		assert_true(g[i] == go[i]);
	}
}

/*
 * f and g point to the same object, which the compiler cannot see here:
 * were a helper a type-punned access (*(uint32_t *)p), strict aliasing
 * would let it move the access across the float store and return the
 * value before.
 */
static __attribute__((noinline)) float store_f32(float *f, float *g,
						 uint32_t bits, int be)
{
	*f = 1.5f;
	if (be)
		settle_store_be32(g, bits);
	else
		settle_store_le32(g, bits);
	return *f;
}

static __attribute__((noinline)) uint32_t load_f32(float *f, float *g,
						   int be)
{
	*f = 1.5f;
	settle_store_le32(g, 0);
	*f = 2.0f;
	return be ? settle_load_be32(g) : settle_load_le32(g);
}

static __attribute__((noinline)) double store_f64(double *f, double *g,
						  uint64_t bits, int be)
{
	*f = 1.5;
	if (be)
		settle_store_be64(g, bits);
	else
		settle_store_le64(g, bits);
	return *f;
}

static __attribute__((noinline)) uint64_t load_f64(double *f, double *g,
						   int be)
{
	*f = 1.5;
	settle_store_le64(g, 0);
	*f = 2.0;
	return be ? settle_load_be64(g) : settle_load_le64(g);
}

/* The load/store helpers on float and double objects. */
static void test_float_helpers(void **unused)
{
	float f[3] = { 1.5f, -2.25f, 3.0f };
	double g[3] = { 1e300, -4.5, 0.125 };
	uint32_t u;
	uint64_t v;

	(void)unused;
	u = settle_load_be32(&f[1]);
	settle_store_be32(&f[1], u);
	assert_true(f[1] == -2.25f);
	settle_store_le32(&f[0], settle_load_be32(&f[0]));
	assert_false(f[0] == 1.5f);
	settle_store_be32(&f[0], settle_load_le32(&f[0]));
	assert_true(f[0] == 1.5f);
	v = settle_load_be64(&g[2]);
	settle_store_le64(&g[2], v);
	assert_false(g[2] == 0.125);
	settle_store_be64(&g[2], settle_load_le64(&g[2]));
	assert_true(g[2] == 0.125);
	assert_true(f[2] == 3.0f && g[0] == 1e300 && g[1] == -4.5);
	/* in the host's order the bits are the float's; in the other, the
	 * bytes reversed */
	assert_true(store_f32(&f[2], &f[2], 0x40000000u, NATIVE_BE) == 2.0f);
	assert_true(store_f32(&f[2], &f[2], 0x0000c03fu, !NATIVE_BE) == 1.5f);
	assert_int_equal(load_f32(&f[0], &f[0], NATIVE_BE), 0x40000000u);
	assert_int_equal(load_f32(&f[0], &f[0], !NATIVE_BE), 0x00000040u);
	assert_true(store_f64(&g[2], &g[2], 0x4000000000000000u, NATIVE_BE) ==
		    2.0);
	assert_true(store_f64(&g[2], &g[2], 0x000000000000f83fu, !NATIVE_BE) ==
		    1.5);
	assert_int_equal(load_f64(&g[0], &g[0], NATIVE_BE),
			 0x4000000000000000u);
	assert_int_equal(load_f64(&g[0], &g[0], !NATIVE_BE), 0x40u);
}

/* ---- dispatch decision -------------------------------------------------- */

#if SETTLE_ARCH_X86_64
#define L1_SSSE3 (1u << 9)
#define L1_OSXSAVE (1u << 27)
#define L1_AVX (1u << 28)
#define L7_AVX2 (1u << 5)
#define L7_AVX512F (1u << 16)
#define L7_AVX512BW (1u << 30)
#define L7_AVX512VL (1u << 31)
#define L7_AVX512 (L7_AVX512F | L7_AVX512BW | L7_AVX512VL)
#define XCR0_AVX 0x7u
#define XCR0_AVX512 0xe7u

static struct settle_cpuid cpu(uint32_t max_leaf, uint32_t l1_ecx,
			       uint32_t l7_ebx, uint64_t xcr0)
{
	struct settle_cpuid id = { 0 };

	id.max_leaf = max_leaf;
	id.l1_ecx = l1_ecx;
	id.l1_edx = 1u << 26; /* SSE2 */
	id.l7_ebx = l7_ebx;
	id.xcr0 = xcr0;
	return id;
}

static void test_choose(void **unused)
{
	const uint32_t avx = L1_SSSE3 | L1_OSXSAVE | L1_AVX;
	struct settle_cpuid id;
	char why[128];

	(void)unused;
	id = cpu(0xd, 0, 0, 0);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_SCALAR);
	/* SSSE3 only. */
	id = cpu(0xd, L1_SSSE3, 0, 0);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_SSSE3);
	id = cpu(0xd, avx, L7_AVX2, XCR0_AVX);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_AVX2);
	id = cpu(0xd, avx, L7_AVX2 | L7_AVX512, XCR0_AVX512);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_AVX512);
	/* AVX2 bit but AVX bit clear: no AVX2 path. */
	id = cpu(0xd, L1_SSSE3 | L1_OSXSAVE, L7_AVX2, XCR0_AVX);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_SSSE3);
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_AVX2, &id));
	/* OSXSAVE clear: no AVX path at all, even with XCR0 bits given. */
	id = cpu(0xd, L1_SSSE3 | L1_AVX, L7_AVX2 | L7_AVX512, XCR0_AVX512);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_SSSE3);
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_AVX2, &id));
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_AVX512, &id));
	/* XCR0 without AVX state. */
	id = cpu(0xd, avx, L7_AVX2, 0x3);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_SSSE3);
	/* AVX512BW, but XCR0 lacks the opmask/ZMM bits (0xe0): AVX2. */
	id = cpu(0xd, avx, L7_AVX2 | L7_AVX512, XCR0_AVX);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_AVX2);
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_AVX512, &id));
	id = cpu(0xd, avx, L7_AVX2 | L7_AVX512, 0x67);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_AVX2);
	/* AVX512F without BW. */
	id = cpu(0xd, avx, L7_AVX2 | L7_AVX512F | L7_AVX512VL, XCR0_AVX512);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_AVX2);
	/* AVX-512 without AVX2 (no such CPU so far): the AVX-512 kernel
	 * hands some copies to the AVX2 one, so not it either. */
	id = cpu(0xd, avx, L7_AVX512, XCR0_AVX512);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_SSSE3);
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_AVX512, &id));
	settle_arch_bswap_refusal(SETTLE_BSWAP_AVX512, &id, why, sizeof(why));
	assert_string_equal(why, "this CPU lacks AVX2");
	/* Maximum leaf below 7: leaf-7 words are not looked at. */
	id = cpu(6, avx, L7_AVX2 | L7_AVX512, XCR0_AVX512);
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_SSSE3);
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_AVX2, &id));
	/* Scalar runs anywhere; a bad implementation nowhere. */
	id = cpu(0, 0, 0, 0);
	assert_true(settle_bswap_runs_on(SETTLE_BSWAP_SCALAR, &id));
	id = cpu(0xd, avx, L7_AVX2 | L7_AVX512, XCR0_AVX512);
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_NIMPL, &id));
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_NEON, &id));
}
#elif SETTLE_ARCH_AARCH64
/* AT_HWCAP of qemu's Cortex-A53 and "max" (see test_dispatch.c). */
static void test_choose(void **unused)
{
	struct settle_cpuid id = { .hwcap = 0x8fb };

	(void)unused;
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_NEON);
	id = (struct settle_cpuid){ .hwcap = 0xecfffffb, .hwcap2 = 0x7f877fff };
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_NEON);
	/* no AdvSIMD: scalar, whatever else is set */
	id.hwcap &= ~SETTLE_HWCAP_ASIMD;
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_SCALAR);
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_NEON, &id));
	id = (struct settle_cpuid){ 0 };
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_SCALAR);
	assert_true(settle_bswap_runs_on(SETTLE_BSWAP_SCALAR, &id));
	/* x86-64 implementations never, a bad one nowhere */
	id = (struct settle_cpuid){ .hwcap = ~0ull, .hwcap2 = ~0ull };
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_SSSE3, &id));
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_AVX2, &id));
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_AVX512, &id));
	assert_false(settle_bswap_runs_on(SETTLE_BSWAP_NIMPL, &id));
}
#else
static void test_choose(void **unused)
{
	struct settle_cpuid id;

	(void)unused;
	memset(&id, 0xff, sizeof(id));
	assert_int_equal(settle_bswap_choose(&id), SETTLE_BSWAP_SCALAR);
	for (int w = 1; w < SETTLE_BSWAP_NIMPL; w++)
		assert_false(settle_bswap_runs_on(w, &id));
}
#endif

/* On this CPU: usable() agrees with runs_on(), active() with choose(). */
static void test_this_cpu(void **unused)
{
	const char *env = getenv("SETTLE_BSWAP");
	struct settle_cpuid id;

	(void)unused;
	settle_cpuid_read(&id);
	for (int w = 0; w < SETTLE_BSWAP_NIMPL; w++)
		assert_int_equal(settle_bswap_usable(w) != 0,
				 settle_bswap_runs_on(w, &id) != 0);
	assert_true(settle_bswap_usable(SETTLE_BSWAP_SCALAR));
	if (!env || !*env)
		assert_int_equal(settle_bswap_active(),
				 settle_bswap_choose(&id));
	print_message("dispatched byte swap here: %s\n",
		      settle_bswap_impl_name(settle_bswap_active()));
}

static void test_names(void **unused)
{
	(void)unused;
	assert_string_equal(settle_bswap_impl_name(SETTLE_BSWAP_SCALAR),
			    "scalar");
	assert_string_equal(settle_bswap_impl_name(SETTLE_BSWAP_SSSE3),
			    "ssse3");
	assert_string_equal(settle_bswap_impl_name(SETTLE_BSWAP_AVX2), "avx2");
	assert_string_equal(settle_bswap_impl_name(SETTLE_BSWAP_AVX512),
			    "avx512");
	assert_string_equal(settle_bswap_impl_name(SETTLE_BSWAP_NEON), "neon");
	assert_string_equal(settle_bswap_impl_name(SETTLE_BSWAP_NIMPL), "?");
	assert_null(settle_bswap_impl_fn(SETTLE_BSWAP_NIMPL, 32));
	assert_null(settle_bswap_impl_fn(SETTLE_BSWAP_SCALAR, 8));
	assert_null(settle_bswap_impl_fn(SETTLE_BSWAP_SCALAR, 128));
	/* this architecture's implementations have all three kernels; the
	 * others none, and are never usable */
	for (int w = 0; w < SETTLE_BSWAP_NIMPL; w++) {
		int mine = w == SETTLE_BSWAP_SCALAR ||
			   (SETTLE_ARCH_X86_64 && w >= SETTLE_BSWAP_SSSE3 &&
			    w <= SETTLE_BSWAP_AVX512) ||
			   (SETTLE_ARCH_AARCH64 && w == SETTLE_BSWAP_NEON);

		for (int b = 0; b < 3; b++)
			assert_int_equal(settle_bswap_impl_fn(w, elem_bits[b]) !=
					 NULL, mine);
		if (!mine)
			assert_false(settle_bswap_usable(w));
	}
}

/* ---- SETTLE_BSWAP in a fresh process ------------------------------------- */

/* Run in a forked child: print why SETTLE_BSWAP was ignored (if it was)
 * and the active implementation, one line each, and check one swap of
 * each size. */
static int probe(void)
{
	unsigned char a[24], b[24];
	const char *why;
	size_t bad;

	fill_random(a, sizeof(a), 3);
	why = settle_bswap_env_refusal();
	if (why)
		printf("%s\n", why);
	printf("%s\n", settle_bswap_impl_name(settle_bswap_active()));
	fflush(stdout);
	settle_bswap16(b, a, 12);
	if (!swapped_ok(b, a, 24, 2, &bad))
		return 3;
	settle_bswap32(b, a, 6);
	if (!swapped_ok(b, a, 24, 4, &bad))
		return 3;
	settle_bswap64(b, a, 3);
	return swapped_ok(b, a, 24, 8, &bad) ? 0 : 3;
}

struct probe_out {
	int status;     /* exit status, or -1 if killed */
	char out[256];  /* stdout and stderr */
};

/*
 * A forked child with SETTLE_BSWAP set to value (unset for NULL) decides
 * again (settle_bswap_forget) and runs probe(). Not a fresh exec: under
 * qemu-user that would run on the host CPU instead of the emulated one.
 */
static void run_probe(const char *value, struct probe_out *r)
{
	int fd[2];
	pid_t pid;
	ssize_t got;
	size_t len = 0;
	int st;

	assert_int_equal(pipe(fd), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		if (value)
			setenv("SETTLE_BSWAP", value, 1);
		else
			unsetenv("SETTLE_BSWAP");
		settle_bswap_forget();
		_exit(probe());
	}
	close(fd[1]);
	while ((got = read(fd[0], r->out + len, sizeof(r->out) - 1 - len)) > 0)
		len += (size_t)got;
	r->out[len] = '\0';
	close(fd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_forced(void **unused)
{
	struct probe_out r, dflt;
	char want[sizeof(dflt.out) + 128];

	(void)unused;
	run_probe(NULL, &dflt);
	assert_int_equal(dflt.status, 0);
	snprintf(want, sizeof(want), "%s\n",
		 settle_bswap_impl_name(settle_bswap_active()));
	if (!getenv("SETTLE_BSWAP"))
		assert_string_equal(dflt.out, want);
	for (int w = 0; w < SETTLE_BSWAP_NIMPL; w++) {
		const char *name = settle_bswap_impl_name(w);
		char *nl;

		run_probe(name, &r);
		assert_int_equal(r.status, 0); /* the swaps were right */
		if (settle_bswap_usable(w)) {
			snprintf(want, sizeof(want), "%s\n", name);
			assert_string_equal(r.out, want);
			continue;
		}
		/* ignored: the refusal, then the automatic choice */
		print_message("SETTLE_BSWAP=%s: %s", name, r.out);
		snprintf(want, sizeof(want),
			 "SETTLE_BSWAP=%s refused: ", name);
		assert_memory_equal(r.out, want, strlen(want));
		nl = strchr(r.out, '\n');
		assert_non_null(nl);
		assert_string_equal(nl + 1, dflt.out);
#if SETTLE_ARCH_X86_64
		if (w == SETTLE_BSWAP_AVX512 && !(settle_cpu_features() &
		    (1ull << SETTLE_CPU_AVX512BW)))
			assert_non_null(strstr(r.out,
					       "this CPU lacks AVX-512BW"));
#endif
		if (!settle_bswap_impl_fn(w, 32))
			assert_non_null(strstr(r.out, " only, this build is "
					       "for " SETTLE_ARCH_NAME "\n"));
	}
	run_probe("sse9", &r);
	assert_int_equal(r.status, 0);
	snprintf(want, sizeof(want), "SETTLE_BSWAP=sse9 refused: unknown "
		 "implementation (%s)\n%s",
		 SETTLE_ARCH_X86_64 ? "scalar, ssse3, avx2 or avx512" :
		 SETTLE_ARCH_AARCH64 ? "scalar or neon" : "scalar", dflt.out);
	assert_string_equal(r.out, want);
}

/* ------------------------------------------------------------------------- */

#define ONE(fn, subj) { #fn " " #subj, fn, NULL, NULL, (void *)&s_##subj }
#define PER_SUBJECT(fn)							\
	ONE(fn, scalar), ONE(fn, ssse3), ONE(fn, avx2),			\
	ONE(fn, avx512), ONE(fn, neon), ONE(fn, auto)

#ifdef BYTEORDER_O3
#define O3_BUILD 1
#else
#define O3_BUILD 0
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads),
		cmocka_unit_test(test_stores),
		cmocka_unit_test(test_float_double),
		cmocka_unit_test(test_float_helpers),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_this_cpu),
		cmocka_unit_test(test_forced),
		PER_SUBJECT(test_sweep),
		PER_SUBJECT(test_long),
		PER_SUBJECT(test_fenced),
		PER_SUBJECT(test_beyond_llc),
		PER_SUBJECT(test_narrow_copy),
		PER_SUBJECT(test_narrow_inplace),
	};
	/* run again under each injected copy rule (tests/bswap_rules.h;
	 * off x86-64 the AVX2 and AVX-512 ones skip, and no kernel reads
	 * the rule) */
	const struct CMUnitTest rule_tests[] = {
		ONE(test_sweep, avx2), ONE(test_sweep, avx512),
		ONE(test_sweep, auto), ONE(test_long, avx2),
		ONE(test_long, avx512), ONE(test_long, auto),
		ONE(test_fenced, avx512), ONE(test_narrow_copy, avx2),
		ONE(test_narrow_copy, avx512), ONE(test_narrow_copy, auto),
	};
	/* The -O3 build (mk/bswap.mk) runs only these: what it compiles
	 * differently is this file, not the library. */
	const struct CMUnitTest o3_tests[] = {
		cmocka_unit_test(test_loads),
		cmocka_unit_test(test_stores),
		cmocka_unit_test(test_float_double),
		cmocka_unit_test(test_float_helpers),
	};

	int rc;

	if (O3_BUILD)
		return cmocka_run_group_tests(o3_tests, NULL, NULL);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	return rc | RUN_UNDER_BOTH_RULES(rule_tests);
}
