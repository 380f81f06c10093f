/*
 * test_readlimit.c - the read-limit kernels (src/prim/readlimit.h)
 * against a byte-by-byte reference of the aligned-word sum.
 *
 * Every kernel this CPU can run (generic; x86-64 sse2, avx2, avx512;
 * AArch64 neon; taken
 * directly with settle_read_limit_impl_fn()) and the dispatched
 * settle_read_limit() are checked on:
 *   - every length 0..1024 at every alignment 0..63 (random bytes), and
 *     lengths up to 2700 (several steps of every unrolled loop);
 *   - every length 0..1024 placed right after and right before a
 *     PROT_NONE page, so that a read outside the buffer crashes;
 *   - the sum of two adjacent ranges equals the sum of their union;
 *   - a random 1 MiB + 61 bytes at odd alignments;
 *   - 64 MiB and more (the wide kernels' streaming path) at odd lengths
 *     and alignments, against the generic kernel, and each side of the
 *     avx512 kernel's width changes (struct settle_read_limit_widths),
 *     the x86 kernels under every CPU's widths (AMD family 19h's, and
 *     theirs until 2026-12-04, Intel's, the widest loads') and with four
 *     accumulators at every size, whatever this CPU is;
 *   - passes: 0 to 3 passes over every length 0..1024 at every alignment
 *     0..63 and against both guard pages give that many times the
 *     one-pass value (modulo 2^64), 0 passes read nothing (a PROT_NONE
 *     page), and 1 MiB + 61 bytes and the streaming path with several
 *     passes;
 *   - settle_read_limit() is settle_read_limit_passes() with one pass;
 *   - every length 0..300 at every alignment with the rest of its
 *     allocation poisoned for AddressSanitizer (a read past the last
 *     byte, even within its word, fails the sanitized build);
 *   - the edge code the kernels inline (readlimit_span.h) on its own:
 *     every short span at every offset, with and without buffer bytes
 *     around it.
 * Kernels this CPU cannot run are skipped, and say so. The choice is
 * checked on injected cpuid words (Core 2, Haswell, Ice Lake; AVX-512
 * without BW or without ZMM state in XCR0; OSXSAVE clear) on x86-64, on
 * injected AT_HWCAP words on AArch64, and the
 * dispatched kernel (settle_read_limit_active(), settle_read_limit_kernel())
 * is the one settle_read_limit_choose() names for this CPU.
 *
 * SETTLE_TEST_SAMPLE=1 checks a sample instead of every length and
 * alignment (under CPU emulation the full sweep takes too long).
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

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#include "env/env.h"
#include "prim/readlimit.h"
#include "prim/readlimit_span.h"

#define MAX_LEN 1024
#define MAX_ALIGN 64

/*
 * The reference: each byte at address x weighs 256^(x mod 8) (little
 * endian) or 256^(7 - x mod 8) (big endian), summed modulo 2^64.
 */
static uint64_t reference_sum(const unsigned char *p, size_t len)
{
	uint64_t s = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned pos = (unsigned)((uintptr_t)(p + i) & 7);

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		pos = 7 - pos;
#endif
		s += (uint64_t)p[i] << (8 * pos);
	}
	return s;
}

static int sampled(void)
{
	const char *e = getenv("SETTLE_TEST_SAMPLE");

	return e && *e && strcmp(e, "0") != 0;
}

static int len_wanted(size_t len)
{
	size_t m64 = len % 64;

	return !sampled() || len % 7 == 0 || m64 <= 1 || m64 >= 62 ||
	       len == MAX_LEN;
}

static int align_wanted(size_t a)
{
	return !sampled() || a == 0 || a == 1 || a == 7 || a == 8 ||
	       a == 31 || a == 32 || a == 63;
}

/* state: a pointer to an enum settle_read_limit_impl, or to NIMPL for
 * the dispatched function. */
static const enum settle_read_limit_impl k_generic = SETTLE_READ_LIMIT_GENERIC;
static const enum settle_read_limit_impl k_sse2 = SETTLE_READ_LIMIT_SSE2;
static const enum settle_read_limit_impl k_avx2 = SETTLE_READ_LIMIT_AVX2;
static const enum settle_read_limit_impl k_avx512 = SETTLE_READ_LIMIT_AVX512;
static const enum settle_read_limit_impl k_neon = SETTLE_READ_LIMIT_NEON;
static const enum settle_read_limit_impl k_auto = SETTLE_READ_LIMIT_NIMPL;

static settle_read_limit_fn subject(void **state, const char **name)
{
	enum settle_read_limit_impl which =
		*(const enum settle_read_limit_impl *)*state;

	if (which == SETTLE_READ_LIMIT_NIMPL) {
		*name = "settle_read_limit_passes";
		return settle_read_limit_passes;
	}
	*name = settle_read_limit_impl_name(which);
	if (!settle_read_limit_usable(which)) {
		print_message("this CPU or OS cannot run %s: skipped\n",
			      *name);
		skip();
	}
	assert_non_null(settle_read_limit_impl_fn(which));
	return settle_read_limit_impl_fn(which);
}

static void expect(const char *name, const char *what, const void *buf,
		   size_t len, uint64_t got, uint64_t want)
{
	if (got == want)
		return;
	print_error("%s: %s, %zu bytes at address %% 64 = %u: got %#llx, "
		    "want %#llx\n", name, what, len,
		    (unsigned)((uintptr_t)buf % 64), (unsigned long long)got,
		    (unsigned long long)want);
	fail();
}

/*
 * One pass of fn over the len bytes at buf; for the dispatched function,
 * settle_read_limit() must give the same value.
 */
static uint64_t one(const char *name, settle_read_limit_fn fn,
		    const void *buf, size_t len)
{
	uint64_t v = fn(buf, len, 1);

	if (fn == settle_read_limit_passes)
		expect(name, "settle_read_limit", buf, len,
		       settle_read_limit(buf, len), v);
	return v;
}

static unsigned char *alloc64(size_t len)
{
	unsigned char *p = aligned_alloc(64, (len + 63) / 64 * 64);

	assert_non_null(p);
	return p;
}

static void test_sweep(void **state)
{
	const char *name;
	settle_read_limit_fn fn = subject(state, &name);
	size_t cap = 2700 + MAX_ALIGN;
	unsigned char *buf = alloc64(cap);

	for (size_t len = 0; len <= 2700; len++) {
		if (len > MAX_LEN && len % 61 != 0)
			continue;
		if (!len_wanted(len))
			continue;
		fill_random(buf, cap, 0x9e3779b97f4a7c15u * (len + 1));
		for (size_t off = 0; off < MAX_ALIGN; off++) {
			if (!align_wanted(off))
				continue;
			expect(name, "sweep", buf + off, len,
			       one(name, fn, buf + off, len),
			       reference_sum(buf + off, len));
		}
	}
	free(buf);
}

/* Every length against both guard pages: a read outside crashes. */
static void test_guard_pages(void **state)
{
	const char *name;
	settle_read_limit_fn fn = subject(state, &name);
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *mid = guarded_pages(1);

	assert_non_null(mid);
	fill_random(mid, (size_t)pg, 77);
	for (size_t len = 0; len <= MAX_LEN && len <= (size_t)pg; len++) {
		unsigned char *end = mid + pg - len;

		if (!len_wanted(len))
			continue;
		expect(name, "after a guard page", mid, len,
		       one(name, fn, mid, len), reference_sum(mid, len));
		expect(name, "before a guard page", end, len,
		       one(name, fn, end, len), reference_sum(end, len));
	}
	guarded_free(mid, 1);
}

/* The sum over two adjacent ranges is the sum of their union. */
static void test_additive(void **state)
{
	const char *name;
	settle_read_limit_fn fn = subject(state, &name);
	size_t len = 3000;
	unsigned char *buf = alloc64(len + MAX_ALIGN);

	fill_random(buf, len + MAX_ALIGN, 5);
	for (size_t off = 0; off < MAX_ALIGN; off += 5)
		for (size_t cut = 0; cut <= len; cut += 97)
			expect(name, "split", buf + off, len,
			       one(name, fn, buf + off, cut) +
			       one(name, fn, buf + off + cut, len - cut),
			       one(name, fn, buf + off, len));
	free(buf);
}

static void test_large(void **state)
{
	const char *name;
	settle_read_limit_fn fn = subject(state, &name);
	size_t len = (1u << 20) + 61;
	unsigned char *buf = alloc64(len + MAX_ALIGN);
	size_t offs[] = { 0, 3, 16, 33, 63 };

	fill_random(buf, len + MAX_ALIGN, 11);
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		expect(name, "1 MiB", buf + offs[i], len,
		       one(name, fn, buf + offs[i], len),
		       reference_sum(buf + offs[i], len));
	expect(name, "1 MiB, 3 passes", buf + 33, len, fn(buf + 33, len, 3),
	       3 * reference_sum(buf + 33, len));
	free(buf);
}

/* The x86 kernels' widths in force (the group's: main()), else none:
 * out[2] the streaming size, the others where the loop changes. */
static void width_changes(size_t out[4])
{
#if SETTLE_ARCH_X86_64
	const struct settle_read_limit_widths *w = settle_read_limit_widths();

	out[0] = w->zmm_min;
	out[1] = w->zmm_end;
	out[2] = w->stream_min;
	out[3] = w->acc4_min;
#else
	out[0] = out[1] = out[2] = out[3] = SIZE_MAX;
#endif
}

/* The streaming size (the x86 kernels' stream_min when they have one,
 * else 64 MiB) and more: the generic kernel's value, at odd lengths and
 * alignments; and each side of the x86 kernels' width changes. */
static void test_stream(void **state)
{
	static const size_t extra[] = { 0, 1, 63, 64, 65, 4097 };
	static const size_t offs[] = { 0, 3, 16, 63 };
	size_t widths[4];
	const char *name;
	settle_read_limit_fn fn = subject(state, &name);
	size_t base;

	width_changes(widths);
	base = widths[2] <= ((size_t)64 << 20) ? widths[2] : (size_t)64 << 20;
	unsigned char *buf = alloc64(base + 4097 + MAX_ALIGN);

	fill_random(buf, base + 4097 + MAX_ALIGN, 13);
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		for (size_t j = 0; j < sizeof(offs) / sizeof(offs[0]); j++) {
			const unsigned char *p = buf + offs[j];
			size_t len = base + extra[i];

			if (sampled() && (i + j) % 3)
				continue;
			expect(name, "the streaming size and more", p, len,
			       one(name, fn, p, len),
			       settle_read_limit_generic(p, len, 1));
		}
	/* one below the threshold, against the same */
	expect(name, "just below the streaming size", buf + 5, base - 1,
	       one(name, fn, buf + 5, base - 1),
	       settle_read_limit_generic(buf + 5, base - 1, 1));
	expect(name, "the streaming size + 65, 2 passes", buf + 3, base + 65,
	       fn(buf + 3, base + 65, 2),
	       2 * settle_read_limit_generic(buf + 3, base + 65, 1));
	for (size_t i = 0; i < 4; i++)
		for (size_t d = 0; d < 3 && i != 2 && widths[i] &&
				   widths[i] <= base; d++) {
			size_t len = widths[i] - 1 + d;

			expect(name, "each side of a width change", buf, len,
			       one(name, fn, buf, len),
			       settle_read_limit_generic(buf, len, 1));
			expect(name, "each side of a width change", buf + 3,
			       len, fn(buf + 3, len, 2),
			       2 * settle_read_limit_generic(buf + 3, len, 1));
		}
	free(buf);
}

/*
 * Every length 0..300 at every alignment 0..63 (two passes), with the
 * rest of its 64-byte aligned allocation poisoned for AddressSanitizer
 * (make test-sanitize): a read past the buffer's last byte stops the
 * sanitized test, even one inside the word or vector that holds that
 * byte, which the guard pages cannot see (ASan marks 8-byte granules by
 * their addressable prefix, so before the first byte it sees only reads
 * of whole granules). The inline-assembly loops and masked loads are not
 * instrumented: the guard pages cover them. Without the sanitizer, the
 * values only.
 */
static void test_exact_bounds(void **state)
{
	const char *name;
	settle_read_limit_fn fn = subject(state, &name);
	size_t cap = 64 + 300 + 64;
	unsigned char *buf = alloc64(cap);

	fill_random(buf, cap, 79);
	for (size_t len = 0; len <= 300; len++) {
		if (!len_wanted(len))
			continue;
		for (size_t off = 0; off < MAX_ALIGN; off++) {
			uint64_t got;

			if (!align_wanted(off))
				continue;
			POISON(buf, cap);
			UNPOISON(buf + off, len);
			got = fn(buf + off, len, 2);
			UNPOISON(buf, cap);
			expect(name, "exact bounds", buf + off, len, got,
			       2 * reference_sum(buf + off, len));
		}
	}
	free(buf);
}

/*
 * 0 to 3 passes at every length 0..1024 and alignment 0..63, and against
 * both guard pages: that many times the reference, modulo 2^64. 0 passes
 * read nothing, not even a byte of a PROT_NONE page.
 */
static void test_passes(void **state)
{
	const char *name;
	settle_read_limit_fn fn = subject(state, &name);
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *buf = alloc64(MAX_LEN + MAX_ALIGN);
	unsigned char *mid = guarded_pages(1);

	assert_non_null(mid);
	fill_random(mid, (size_t)pg, 78);
	for (size_t len = 0; len <= MAX_LEN; len++) {
		if (!len_wanted(len))
			continue;
		fill_random(buf, MAX_LEN + MAX_ALIGN, 0x51ed27 * (len + 1));
		for (size_t off = 0; off < MAX_ALIGN; off++) {
			uint64_t want = reference_sum(buf + off, len);

			if (!align_wanted(off))
				continue;
			for (uint64_t n = 0; n <= 3; n++)
				expect(name, "passes", buf + off, len,
				       fn(buf + off, len, n), n * want);
		}
		if (len > (size_t)pg)
			continue;
		for (uint64_t n = 0; n <= 3; n++) {
			unsigned char *end = mid + pg - len;

			expect(name, "passes after a guard page", mid, len,
			       fn(mid, len, n), n * reference_sum(mid, len));
			expect(name, "passes before a guard page", end, len,
			       fn(end, len, n), n * reference_sum(end, len));
		}
	}
	expect(name, "0 passes over a PROT_NONE page", mid - pg, (size_t)pg,
	       fn(mid - pg, (size_t)pg, 0), 0);
	guarded_free(mid, 1);
	free(buf);
}

/*
 * The edge code on its own (readlimit_span.h): every span of 0..40 bytes
 * at every offset of a 64-byte aligned buffer of 80 bytes, planned with
 * the buffer's bytes before and after it (so that partial words take the
 * one-load path wherever it may), with none (the three-load path), and
 * with only one side; against the reference. A plan that took the
 * one-load path for a span inside one word gives a wrong sum here; one
 * that read outside the buffer is for test_guard_pages and
 * test_exact_bounds (its shifted-out bytes do not change the sum).
 */
static void test_span(void **state)
{
	static const size_t cap = 80;
	unsigned char *buf = alloc64(cap);

	(void)state;
	fill_random(buf, cap, 99);
	for (size_t at = 0; at < 40; at++)
		for (size_t len = 0; len <= 40; len++) {
			const unsigned char *p = buf + at;
			size_t after = cap - at - len;
			size_t room[4][2] = { { at, after }, { 0, 0 },
					      { at, 0 }, { 0, after } };
			uint64_t want = reference_sum(p, len);

			for (int r = 0; r < 4; r++) {
				struct settle_rl_span sp = settle_rl_span_plan(
					p, len, room[r][0], room[r][1]);

				expect("settle_rl_span_read", "span", p, len,
				       settle_rl_span_read(p, &sp), want);
			}
		}
	free(buf);
}

/* ---- the choice --------------------------------------------------------- */

/* cpuid bits (x86-64) */
#define L1C_OSXSAVE (1u << 27)
#define L1C_AVX (1u << 28)
#define L1D_SSE2 (1u << 26)
#define L7B_AVX2 (1u << 5)
#define L7B_AVX512F (1u << 16)
#define L7B_AVX512BW (1u << 30)
#define L7B_AVX512VL (1u << 31)

static void expect_choice(const struct settle_cpuid *id,
			  enum settle_read_limit_impl want, const char *what)
{
	enum settle_read_limit_impl got = settle_read_limit_choose(id);

	if (got != want) {
		print_error("%s: chose %s, want %s\n", what,
			    settle_read_limit_impl_name(got),
			    settle_read_limit_impl_name(want));
		fail();
	}
	assert_true(settle_read_limit_runs_on(got, id));
	for (int i = got + 1; i < SETTLE_READ_LIMIT_NIMPL; i++)
		assert_false(settle_read_limit_runs_on(i, id));
}

#if SETTLE_ARCH_X86_64
static void test_choice(void **state)
{
	struct settle_cpuid core2 = { .max_leaf = 10, .l1_edx = L1D_SSE2 };
	struct settle_cpuid haswell = {
		.max_leaf = 13, .l1_ecx = L1C_OSXSAVE | L1C_AVX,
		.l1_edx = L1D_SSE2, .l7_ebx = L7B_AVX2, .xcr0 = 0x7,
	};
	struct settle_cpuid icelake = haswell;
	struct settle_cpuid id;

	(void)state;
	icelake.l7_ebx |= L7B_AVX512F | L7B_AVX512BW | L7B_AVX512VL;
	icelake.xcr0 = 0xe7;
	expect_choice(&core2, SETTLE_READ_LIMIT_SSE2, "Core 2");
	expect_choice(&haswell, SETTLE_READ_LIMIT_AVX2, "Haswell");
	expect_choice(&icelake, SETTLE_READ_LIMIT_AVX512, "Ice Lake");
	id = icelake;
	id.l7_ebx &= ~L7B_AVX512BW;
	expect_choice(&id, SETTLE_READ_LIMIT_AVX2, "AVX-512 without BW");
	id = icelake;
	id.xcr0 = 0x7;
	expect_choice(&id, SETTLE_READ_LIMIT_AVX2, "XCR0 without ZMM state");
	id = icelake;
	id.l1_ecx &= ~L1C_OSXSAVE;
	expect_choice(&id, SETTLE_READ_LIMIT_SSE2, "OSXSAVE clear");
	assert_false(settle_read_limit_runs_on(SETTLE_READ_LIMIT_NEON,
					       &icelake));
	assert_true(settle_read_limit_runs_on(SETTLE_READ_LIMIT_GENERIC,
					      &core2));
	assert_false(settle_read_limit_runs_on(SETTLE_READ_LIMIT_NIMPL,
					       &icelake));
	assert_null(settle_read_limit_impl_fn(SETTLE_READ_LIMIT_NIMPL));
	assert_null(settle_read_limit_impl_fn(SETTLE_READ_LIMIT_NEON));
	assert_string_equal(settle_read_limit_impl_name(SETTLE_READ_LIMIT_NIMPL),
			    "?");
}

/* AMD family 19h's widths until 2026-12-04 (readlimit.h): no CPU's now,
 * but the avx512 kernel keeps their code (256-bit loads below zmm_min,
 * four 512-bit loads a step). */
static const struct settle_read_limit_widths w19h_until_1204 =
	{ (size_t)64 << 10, (size_t)2 << 20, (size_t)64 << 20, 4, SIZE_MAX, 0 };

/*
 * The widths by CPU: AMD family 19h (leaf 1 EAX of the Zen 4 guest,
 * family 0xf + 0xa) the ranges measured there; AMD family 1Ah (the Zen 5
 * guest, 0xf + 0xb) and a CPU of neither vendor the widest loads at every
 * size into eight accumulators; Intel (family 6, also with an AMD family
 * 19h signature) the widest loads, into four accumulators from 64 KiB.
 */
static void test_widths(void **state)
{
	static const struct settle_read_limit_widths w19 =
		SETTLE_READ_LIMIT_WIDTHS_19H, widest =
		SETTLE_READ_LIMIT_WIDTHS_WIDEST, wintel =
		SETTLE_READ_LIMIT_WIDTHS_INTEL;
	struct settle_cpuid zen4 = { .max_leaf = 16, .vendor_ebx = 0x68747541,
				     .l1_eax = 0x00a10f11 };
	struct settle_cpuid zen5 = zen4, intel = zen4, other = zen4;
	const struct settle_read_limit_widths *w;

	(void)state;
	zen5.l1_eax = 0x00b00f21;
	intel.vendor_ebx = 0x756e6547; /* "Genu" */
	intel.l1_eax = 0x000806f8;     /* family 6 model 143 */
	other.vendor_ebx = 0x746e6543; /* "Cent" */
	assert_true(settle_cpu_amd_19h(&zen4));
	assert_false(settle_cpu_amd_19h(&zen5));
	assert_false(settle_cpu_amd_19h(&intel));
	assert_false(settle_cpu_amd_19h(&other));
	w = settle_read_limit_widths_of(&zen4);
	assert_memory_equal(w, &w19, sizeof(w19));
	assert_true(w->zmm_min == 0 && w->zmm_end == (size_t)2 << 20 &&
		    w->stream_min == (size_t)64 << 20 && w->zmm_loads == 8 &&
		    w->acc4_min == 0 && w->tune_below == (size_t)64 << 10);
	assert_memory_equal(settle_read_limit_widths_of(&zen5), &widest,
			    sizeof(widest));
	assert_memory_equal(settle_read_limit_widths_of(&intel), &wintel,
			    sizeof(wintel));
	intel.l1_eax = 0x00a10f11; /* the family bits alone do not make AMD */
	assert_false(settle_cpu_amd_19h(&intel));
	assert_memory_equal(settle_read_limit_widths_of(&intel), &wintel,
			    sizeof(wintel));
	assert_memory_equal(settle_read_limit_widths_of(&other), &widest,
			    sizeof(widest));
	assert_true(widest.zmm_min == 0 && widest.zmm_end == SIZE_MAX &&
		    widest.stream_min == SIZE_MAX && widest.zmm_loads == 8 &&
		    widest.acc4_min == SIZE_MAX && widest.tune_below == 0);
	assert_true(wintel.zmm_min == 0 && wintel.zmm_end == SIZE_MAX &&
		    wintel.stream_min == SIZE_MAX && wintel.zmm_loads == 8 &&
		    wintel.acc4_min == (size_t)64 << 10 &&
		    wintel.tune_below == 0);
	/* this CPU's, when no test set others (nor the tune: test_tune) */
	settle_read_limit_set_widths(NULL);
	settle_read_limit_use_timed(NULL);
	assert_ptr_equal(settle_read_limit_widths(),
			 settle_read_limit_widths_of(settle_cpuid_this()));
}

/* Field by field: the struct has padding. */
static void assert_widths(const struct settle_read_limit_widths *a,
			  const struct settle_read_limit_widths *b)
{
	assert_true(a->zmm_min == b->zmm_min && a->zmm_end == b->zmm_end &&
		    a->stream_min == b->stream_min &&
		    a->zmm_loads == b->zmm_loads &&
		    a->acc4_min == b->acc4_min &&
		    a->tune_below == b->tune_below);
}

/*
 * The timed widths: 256-bit loads below tune_below only when they were
 * faster (ties keep the 512-bit loads), nothing else changed, and
 * nothing at all without a tune_below; a test's widths come before the
 * timed ones, which come before the table.
 */
static void test_timed_widths(void **state)
{
	static const struct settle_read_limit_widths w19 =
		SETTLE_READ_LIMIT_WIDTHS_19H, widest =
		SETTLE_READ_LIMIT_WIDTHS_WIDEST;
	static struct settle_read_limit_widths t;
	struct settle_read_limit_widths want = w19;
	const struct settle_read_limit_widths *table =
		settle_read_limit_widths_of(settle_cpuid_this());
	const struct settle_read_limit_timing *timed =
		settle_read_limit_timing();

	(void)state;
	assert_true(w19.tune_below == (size_t)64 << 10 && w19.zmm_min == 0);
	t = settle_read_limit_widths_timed(&w19, 80.0, 84.0);
	want.zmm_min = (size_t)64 << 10;
	assert_widths(&t, &want);
	t = settle_read_limit_widths_timed(&w19, 84.0, 80.0);
	assert_widths(&t, &w19);
	t = settle_read_limit_widths_timed(&w19, 80.0, 80.0);
	assert_widths(&t, &w19);
	t = settle_read_limit_widths_timed(&widest, 80.0, 84.0);
	assert_widths(&t, &widest);

	t = settle_read_limit_widths_timed(&w19, 80.0, 84.0);
	settle_read_limit_set_widths(NULL);
	settle_read_limit_use_timed(&t);
	assert_ptr_equal(settle_read_limit_widths(), &t);
	settle_read_limit_set_widths(&widest);
	assert_ptr_equal(settle_read_limit_widths(), &widest);
	settle_read_limit_set_widths(NULL);
	assert_ptr_equal(settle_read_limit_widths(), &t);
	settle_read_limit_use_timed(NULL);
	assert_ptr_equal(settle_read_limit_widths(), table);
	assert_ptr_equal(settle_read_limit_timing(), timed); /* untouched */
}

/*
 * The tune on this CPU: it times only the avx512 kernel under widths
 * with a tune_below (AMD family 19h with AVX-512), and sets the widths
 * its two medians give; a second call times nothing. Runs after
 * test_timed_widths, which took the timed widths away: they are set
 * again here from the figures the first call kept.
 */
static void test_tune(void **state)
{
	enum settle_read_limit_impl a = settle_read_limit_active();
	const struct settle_read_limit_timing *t = settle_read_limit_timing();
	const struct settle_read_limit_widths *table =
		settle_read_limit_widths_of(settle_cpuid_this());
	static struct settle_read_limit_widths want; /* kept by pointer */

	(void)state;
	settle_read_limit_set_widths(NULL);
	if (a != SETTLE_READ_LIMIT_AVX512 || table->tune_below == 0) {
		assert_null(t);
		settle_arch_read_limit_tune(a);
		assert_null(settle_read_limit_timing());
		assert_ptr_equal(settle_read_limit_widths(), table);
		print_message("the read limit here times nothing (%s kernel)\n",
			      settle_read_limit_impl_name(a));
		return;
	}
	assert_non_null(t);
	assert_true(t->done && t->bytes == (size_t)16 << 10 &&
		    t->passes == 64);
	assert_true(t->ymm_ns > 0 && t->zmm_ns > 0);
	want = settle_read_limit_widths_timed(table, t->ymm_ns, t->zmm_ns);
	assert_int_equal(t->bits, want.zmm_min ? 256 : 512);
	print_message("timed over 16 KiB: 256-bit %.1f ns, 512-bit %.1f ns a "
		      "pass: %s-bit loads below %zu bytes\n", t->ymm_ns,
		      t->zmm_ns, want.zmm_min ? "256" : "512",
		      table->tune_below);
	assert_ptr_equal(settle_read_limit_widths(), table);
	settle_arch_read_limit_tune(a); /* returns at once */
	assert_ptr_equal(settle_read_limit_widths(), table);
	assert_ptr_equal(settle_read_limit_timing(), t);
	settle_read_limit_use_timed(&want);
	assert_widths(settle_read_limit_widths(), &want);
}

/*
 * The read limit's sentence (settle_read_limit_describe()) under each
 * CPU's widths and under the AMD family 19h ones until 2026-12-04 (four
 * stretches); cut short by a small buffer; an unknown kernel.
 */
static void test_describe(void **state)
{
	static const struct settle_read_limit_widths w19 =
		SETTLE_READ_LIMIT_WIDTHS_19H, widest =
		SETTLE_READ_LIMIT_WIDTHS_WIDEST, wintel =
		SETTLE_READ_LIMIT_WIDTHS_INTEL;
	static const char want19[] = "avx512; 256-bit or 512-bit loads below "
		"64 KiB (whichever read 16 KiB faster when the process "
		"started), 512-bit to 2 MiB, 256-bit to 64 MiB, 128-bit beyond";
	struct settle_read_limit_widths t19;
	char got[256];

	(void)state;
	settle_read_limit_set_widths(&w19h_until_1204);
	settle_read_limit_describe(SETTLE_READ_LIMIT_AVX512, got, sizeof(got));
	assert_string_equal(got, "avx512; 256-bit loads below 64 KiB, "
			    "512-bit to 2 MiB, 256-bit to 64 MiB, 128-bit "
			    "beyond");
	settle_read_limit_set_widths(&w19);
	settle_read_limit_describe(SETTLE_READ_LIMIT_AVX512, got, sizeof(got));
	assert_string_equal(got, want19);
	t19 = settle_read_limit_widths_timed(&w19, 1.0, 2.0); /* 256-bit */
	settle_read_limit_set_widths(&t19);
	settle_read_limit_describe(SETTLE_READ_LIMIT_AVX512, got, sizeof(got));
	assert_string_equal(got, want19);
	settle_read_limit_describe(SETTLE_READ_LIMIT_AVX2, got, sizeof(got));
	assert_string_equal(got, "avx2; 256-bit loads below 64 MiB, 128-bit "
			    "beyond");
	settle_read_limit_describe(SETTLE_READ_LIMIT_AVX512, got, 12);
	assert_string_equal(got, "avx512; 256");
	settle_read_limit_set_widths(&widest);
	settle_read_limit_describe(SETTLE_READ_LIMIT_AVX512, got, sizeof(got));
	assert_string_equal(got, "avx512; 512-bit loads at every size");
	settle_read_limit_describe(SETTLE_READ_LIMIT_AVX2, got, sizeof(got));
	assert_string_equal(got, "avx2; 256-bit loads at every size");
	settle_read_limit_set_widths(&wintel);
	settle_read_limit_describe(SETTLE_READ_LIMIT_AVX512, got, sizeof(got));
	assert_string_equal(got, "avx512; 512-bit loads at every size");
	settle_read_limit_describe(SETTLE_READ_LIMIT_SSE2, got, sizeof(got));
	assert_string_equal(got, "sse2; 128-bit loads at every size");
	settle_read_limit_describe(SETTLE_READ_LIMIT_GENERIC, got,
				   sizeof(got));
	assert_string_equal(got, "generic; 64-bit words at every size");
	settle_read_limit_describe(SETTLE_READ_LIMIT_NIMPL, got, sizeof(got));
	assert_string_equal(got, "?");
	settle_read_limit_set_widths(NULL);
}
#elif SETTLE_ARCH_AARCH64
/* AT_HWCAP of qemu's Cortex-A53 (see test_dispatch.c) and of no AdvSIMD. */
static void test_choice(void **state)
{
	struct settle_cpuid a53 = { .hwcap = 0x8fb };
	struct settle_cpuid none = { .hwcap = SETTLE_HWCAP_FP };

	(void)state;
	expect_choice(&a53, SETTLE_READ_LIMIT_NEON, "Cortex-A53");
	expect_choice(&none, SETTLE_READ_LIMIT_GENERIC, "no AdvSIMD");
	a53.hwcap = a53.hwcap2 = ~0ull;
	assert_false(settle_read_limit_runs_on(SETTLE_READ_LIMIT_SSE2, &a53));
	assert_false(settle_read_limit_runs_on(SETTLE_READ_LIMIT_AVX512, &a53));
	assert_null(settle_read_limit_impl_fn(SETTLE_READ_LIMIT_AVX2));
	assert_string_equal(settle_read_limit_impl_name(SETTLE_READ_LIMIT_NEON),
			    "neon");
}
#else
static void test_choice(void **state)
{
	struct settle_cpuid id;

	(void)state;
	memset(&id, 0xff, sizeof(id));
	expect_choice(&id, SETTLE_READ_LIMIT_GENERIC, "the generic build");
	for (int i = 1; i < SETTLE_READ_LIMIT_NIMPL; i++)
		assert_null(settle_read_limit_impl_fn(i));
}
#endif

/* The machine description says what the dispatched kernel reads with,
 * and whether this process timed its loads. */
static void test_describe_machine(void **state)
{
	static struct settle_machine m;
	const struct settle_read_limit_timing *t;
	char want[256];

	(void)state;
	settle_machine_describe(&m);
	settle_read_limit_describe(settle_read_limit_active(), want,
				   sizeof(want));
	assert_string_equal(m.read_limit, want);
	/* this process's share of the tune: 1 of 1 when it timed */
	t = settle_read_limit_timing();
	assert_int_equal(m.read_limit_timed, t ? 1 : 0);
	assert_int_equal(m.read_limit_timed_256, t && t->bits == 256);
	assert_non_null(strstr(m.read_limit, settle_read_limit_impl_name(
		settle_read_limit_active())));
	assert_non_null(strstr(m.read_limit, "at every size") ?
			m.read_limit : strstr(m.read_limit, "beyond"));
	print_message("read limit: %s\n", m.read_limit);
}

/* The dispatched kernel is the choice for this CPU's own words, and
 * the widest one usable here. */
static void test_active(void **state)
{
	struct settle_cpuid id;
	enum settle_read_limit_impl a = settle_read_limit_active();

	(void)state;
	settle_cpuid_read(&id);
	assert_int_equal(a, settle_read_limit_choose(&id));
	assert_true(settle_read_limit_usable(a));
	for (int i = a + 1; i < SETTLE_READ_LIMIT_NIMPL; i++)
		assert_false(settle_read_limit_usable(i));
	assert_ptr_equal(settle_read_limit_kernel(),
			 settle_read_limit_impl_fn(a));
	print_message("dispatched read-limit kernel: %s\n",
		      settle_read_limit_impl_name(a));
}

#define KERNEL_TESTS(k)							\
	cmocka_unit_test_prestate(test_sweep, (void *)&k),		\
	cmocka_unit_test_prestate(test_guard_pages, (void *)&k),	\
	cmocka_unit_test_prestate(test_additive, (void *)&k),		\
	cmocka_unit_test_prestate(test_large, (void *)&k),		\
	cmocka_unit_test_prestate(test_stream, (void *)&k),		\
	cmocka_unit_test_prestate(test_passes, (void *)&k),		\
	cmocka_unit_test_prestate(test_exact_bounds, (void *)&k)

#if SETTLE_ARCH_X86_64
/* The x86 kernels' tests run twice, once with each CPU's widths, so that
 * every width's code runs on any CPU. */
static const struct settle_read_limit_widths w19h =
	SETTLE_READ_LIMIT_WIDTHS_19H, widest = SETTLE_READ_LIMIT_WIDTHS_WIDEST,
	wintel = SETTLE_READ_LIMIT_WIDTHS_INTEL;
/* Intel's loop of eight loads into four accumulators at every size, so
 * that the sweep of short lengths and odd alignments runs it too. */
static const struct settle_read_limit_widths acc4_always =
	{ 0, SIZE_MAX, SIZE_MAX, 8, 0, 0 };

static int use_19h(void **state)
{
	(void)state;
	settle_read_limit_set_widths(&w19h);
	return 0;
}

/* What the tune sets on AMD family 19h when 256-bit loads read faster. */
static int use_19h_ymm(void **state)
{
	static struct settle_read_limit_widths t;

	(void)state;
	t = settle_read_limit_widths_timed(&w19h, 1.0, 2.0);
	settle_read_limit_set_widths(&t);
	return 0;
}

static int use_19h_until_1204(void **state)
{
	(void)state;
	settle_read_limit_set_widths(&w19h_until_1204);
	return 0;
}

static int use_widest(void **state)
{
	(void)state;
	settle_read_limit_set_widths(&widest);
	return 0;
}

static int use_intel(void **state)
{
	(void)state;
	settle_read_limit_set_widths(&wintel);
	return 0;
}

static int use_acc4_always(void **state)
{
	(void)state;
	settle_read_limit_set_widths(&acc4_always);
	return 0;
}

static int use_this_cpu(void **state)
{
	(void)state;
	settle_read_limit_set_widths(NULL);
	return 0;
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		KERNEL_TESTS(k_generic),
		KERNEL_TESTS(k_sse2),
		KERNEL_TESTS(k_avx2),
		KERNEL_TESTS(k_avx512),
		KERNEL_TESTS(k_neon),
		KERNEL_TESTS(k_auto),
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_choice),
#if SETTLE_ARCH_X86_64
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_timed_widths),
		cmocka_unit_test(test_tune),
		cmocka_unit_test(test_describe),
#endif
		cmocka_unit_test(test_active),
		cmocka_unit_test(test_describe_machine),
	};
#if SETTLE_ARCH_X86_64
	const struct CMUnitTest wide[] = {
		KERNEL_TESTS(k_avx2),
		KERNEL_TESTS(k_avx512),
		KERNEL_TESTS(k_auto),
	};
	int rc = cmocka_run_group_tests_name("AMD family 19h widths", tests,
					     use_19h, use_this_cpu);

	rc |= cmocka_run_group_tests_name("the widest loads", wide,
					  use_widest, use_this_cpu);
	rc |= cmocka_run_group_tests_name("Intel widths", wide, use_intel,
					  use_this_cpu);
	rc |= cmocka_run_group_tests_name("AMD family 19h widths, 256-bit "
					  "loads timed faster", wide,
					  use_19h_ymm, use_this_cpu);
	rc |= cmocka_run_group_tests_name("AMD family 19h widths until "
					  "2026-12-04", wide,
					  use_19h_until_1204, use_this_cpu);
	return rc | cmocka_run_group_tests_name("four accumulators at every "
						"size", wide, use_acc4_always,
						use_this_cpu);
#else
	return cmocka_run_group_tests(tests, NULL, NULL);
#endif
}
