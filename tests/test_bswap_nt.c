/*
 * test_bswap_nt.c - the non-temporal switch of the bulk byte swap and the
 * in-place reference loops (src/prim/bswap_kernels.h).
 *
 *   - settle_bswap_nt_decide() on injected inputs: reported last-level
 *     caches below, at and above the 8 MiB cap (the 480 MiB a hypervisor
 *     reported on an Intel guest gives the cap, 6 MiB gives 6 MiB), none
 *     reported, SETTLE_BSWAP_NT_BYTES in bytes and with K/M/G suffixes
 *     (taken whatever the cache says), and values that are not positive
 *     sizes (ignored, with the reason);
 *   - settle_bswap_narrow_copy_decide() (AMD family 19h's hand-over of
 *     copies to the SSSE3 kernel) for injected L1d sizes: 3/4 of it,
 *     rounded down to 64 bytes; unknown or impossible sizes give a
 *     32 KiB L1d's 24 KiB;
 *   - in a forked child (the threshold is decided once per process),
 *     SETTLE_BSWAP_NT_BYTES=1M: settle_bswap_nt_bytes() is 1 MiB, a 2 MiB
 *     copy takes the non-temporal path with every vector kernel this CPU
 *     can run and a 512 KiB copy does not, and the results are right; the
 *     same for their touch loops' copies (the reference loops without the
 *     shuffle), whose results are the source's bytes (element sizes 2, 4
 *     and 8; a destination that is not a multiple of the element size
 *     takes ordinary stores);
 *   - in a forked child, settle_bswap_active() as the first call
 *     decides the copy rule too (no later call takes a lock);
 *   - the copy rule (struct settle_bswap_copy_rule) for injected L1d
 *     sizes, thresholds and CPU families; this machine's, a rule set by a
 *     test, and back; which AVX-512 swaps in place it hands to the AVX2
 *     loop;
 *   - copies whose destination lies 1 to 4095 bytes past the source
 *     modulo 4 KiB (the AVX-512 kernel copies from the end when that
 *     distance is below 512 bytes and the copy rule says so), every
 *     implementation, element size and a range of lengths, against the
 *     scalar kernel, the guard bytes around the destination unchanged;
 *     the AVX2 and AVX-512 ones again under each CPU family's rule,
 *     injected with sizes the lengths cross; their touch loops' copies at
 *     the same distances and lengths give the source's bytes;
 *   - which loop a copy takes, kernel and touch loop alike, seen through
 *     a destination 64 bytes past the source (an overlap the contract
 *     rules out, used here as a probe: a copy from the end gives what
 *     memmove would, one from the start does not): the AVX-512 one goes
 *     backward below zmm_end when the rule says so, forward when it does
 *     not, and hands over to the (forward) AVX2 loop from zmm_end and to
 *     the SSSE3 one from narrow_from;
 *   - the touch loops (each implementation's loop without the shuffle)
 *     in place at every length 0..1024 and alignment 0..63 leave the
 *     buffer and the guard bytes around it unchanged, at the edges of
 *     PROT_NONE pages too, and really store: on a read-only buffer they
 *     fault (in a forked child); and at lengths just below, at and above
 *     SETTLE_BSWAP_NARROW_INPLACE_BYTES (from it on, the AVX2 and AVX-512
 *     ones run the SSSE3 one), at the edges of PROT_NONE pages; as copies
 *     at every length 0..1024, destination alignment 0..63 and four
 *     source alignments, and at the edges of PROT_NONE pages, they write
 *     the source's bytes, nothing around them, and leave the source as
 *     it was.
 * Implementations this CPU cannot run are skipped, and say so.
 * SETTLE_TEST_SAMPLE=1 checks a sample of lengths and alignments.
 */
#include <setjmp.h>
#include <signal.h>
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
#include "env/env.h"
#include "prim/bswap_kernels.h"
#include "settle.h"
#include "settle_byteorder.h"

#define MIB (1ull << 20)
#define CAP (8 * MIB)        /* NT_CAP_BYTES of src/prim/bswap_nt.c */
#define CAP_INTEL (32 * MIB) /* NT_CAP_INTEL_BYTES */

static int sampled(void)
{
	const char *e = getenv("SETTLE_TEST_SAMPLE");

	return e && *e && strcmp(e, "0") != 0;
}

/* ---- the decision --------------------------------------------------------- */

static void expect_decide_cap(const char *env, uint64_t llc, uint64_t cap,
			      size_t want, const char *want_source)
{
	const char *why = NULL;
	size_t got = settle_bswap_nt_decide(env, llc, cap, &why);

	if (got != want || !why || strncmp(why, want_source,
					   strlen(want_source)) != 0) {
		print_error("env %s, llc %llu, cap %llu: got %zu (%s), want "
			    "%zu (%s)\n", env ? env : "unset",
			    (unsigned long long)llc, (unsigned long long)cap,
			    got, why ? why : "no reason", want, want_source);
		fail();
	}
	assert_int_equal(settle_bswap_nt_decide(env, llc, cap, NULL), want);
}

/* ...with the cap of every CPU but Intel's */
static void expect_decide(const char *env, uint64_t llc, size_t want,
			  const char *want_source)
{
	expect_decide_cap(env, llc, settle_bswap_nt_cap(0), want, want_source);
}

static void test_decide(void **unused)
{
	(void)unused;
	/* the reported cache, up to the cap */
	expect_decide(NULL, 6 * MIB, 6 * MIB, "last-level cache");
	expect_decide(NULL, 8 * MIB, 8 * MIB, "last-level cache");
	expect_decide("", 1 * MIB, 1 * MIB, "last-level cache");
	/* 32 MiB (the Zen 4 guest's L3), a hypervisor's 480 MiB or 320 MiB */
	expect_decide(NULL, 32 * MIB, CAP, "cap");
	expect_decide(NULL, 480 * MIB, CAP, "cap");
	expect_decide(NULL, 320 * MIB, CAP, "cap");
	expect_decide(NULL, 0, CAP, "cap (no last-level cache");
	/* the caps: 8 MiB, 32 MiB on Intel (measured on the Intel guest) */
	assert_int_equal(settle_bswap_nt_cap(0), CAP);
	assert_int_equal(settle_bswap_nt_cap(1), CAP_INTEL);
	expect_decide_cap(NULL, 480 * MIB, CAP_INTEL, CAP_INTEL, "cap (the");
	expect_decide_cap(NULL, 0, CAP_INTEL, CAP_INTEL, "cap (no last-level");
	expect_decide_cap(NULL, 16 * MIB, CAP_INTEL, 16 * MIB,
			  "last-level cache");
	expect_decide_cap(NULL, 32 * MIB, CAP_INTEL, 32 * MIB,
			  "last-level cache");
	expect_decide_cap("64K", 480 * MIB, CAP_INTEL, 65536,
			  "SETTLE_BSWAP_NT_BYTES");
	/* as settle run --size takes sizes (settle_parse_size()): the
	 * settle command took these, the library ignored them */
	expect_decide_cap("1MB", 480 * MIB, CAP_INTEL, MIB,
			  "SETTLE_BSWAP_NT_BYTES");
	expect_decide("64k", 4 * MIB, 65536, "SETTLE_BSWAP_NT_BYTES");
	expect_decide("64KiB", 4 * MIB, 65536, "SETTLE_BSWAP_NT_BYTES");
	expect_decide("3m", 32 * MIB, 3 * MIB, "SETTLE_BSWAP_NT_BYTES");
	/* the environment wins, whatever the cache */
	expect_decide("1048576", 480 * MIB, 1048576, "SETTLE_BSWAP_NT_BYTES");
	expect_decide("64K", 4 * MIB, 65536, "SETTLE_BSWAP_NT_BYTES");
	expect_decide("512M", 32 * MIB, 512 * MIB, "SETTLE_BSWAP_NT_BYTES");
	expect_decide("2G", 0, 2048 * MIB, "SETTLE_BSWAP_NT_BYTES");
	/* T as --size takes it (was refused as not a size) */
	expect_decide("2T", 0, 2 * 1024 * 1024 * MIB, "SETTLE_BSWAP_NT_BYTES");
	expect_decide("1", 4 * MIB, 1, "SETTLE_BSWAP_NT_BYTES");
	/* not a positive size: ignored, and said so */
	static const char *const bad[] = {
		"0", "abc", "12X", "-5", "1.5M", " 1M", "1M ", "1Mb", "K",
		"99999999999999999999", "20000000000G", "20000000T", "1kb",
		"16E", "0x10", "1e6",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		expect_decide(bad[i], 4 * MIB, 4 * MIB,
			      "SETTLE_BSWAP_NT_BYTES ignored");
		expect_decide(bad[i], 480 * MIB, CAP,
			      "SETTLE_BSWAP_NT_BYTES ignored");
	}
}

/* ---- the copy hand-over size for injected L1d sizes ---------------------- */

static void test_narrow_copy_decide(void **unused)
{
	static const struct {
		uint64_t l1d;
		size_t want;
	} cases[] = {
		{ 32 << 10, 24 << 10 },    /* the Zen 4 guest measured */
		{ 48 << 10, 36 << 10 },    /* Ice Lake, Golden Cove */
		{ 64 << 10, 48 << 10 },
		{ 1 << 20, 768 << 10 },    /* the largest taken */
		{ 16 << 10, 12 << 10 },    /* the smallest taken */
		{ 40000, 30000 / 64 * 64 }, /* rounded down to 64 bytes */
		{ 0, 24 << 10 },           /* unknown: a 32 KiB L1d's */
		{ (16 << 10) - 1, 24 << 10 }, /* no such L1d: as unknown */
		{ (1 << 20) + 1, 24 << 10 },
		{ 480ull << 20, 24 << 10 },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t got = settle_bswap_narrow_copy_decide(cases[i].l1d);

		if (got != cases[i].want)
			print_error("L1d %llu bytes: hand-over at %zu, want "
				    "%zu\n", (unsigned long long)cases[i].l1d,
				    got, cases[i].want);
		assert_int_equal(got, cases[i].want);
	}
}

/* ---- the copy rule for injected CPUs ------------------------------------ */

static void expect_rule(uint64_t l1d, size_t nt, int amd_19h, size_t zmm_end,
			size_t narrow_from, int backward)
{
	struct settle_bswap_copy_rule r =
		settle_bswap_copy_rule_decide(l1d, nt, amd_19h, 0);

	if (r.zmm_end != zmm_end || r.narrow_from != narrow_from ||
	    r.backward != backward)
		print_error("L1d %llu, threshold %zu, family 19h %d: got "
			    "%zu / %zu / %d, want %zu / %zu / %d\n",
			    (unsigned long long)l1d, nt, amd_19h, r.zmm_end,
			    r.narrow_from, r.backward, zmm_end, narrow_from,
			    backward);
	assert_int_equal(r.zmm_end, zmm_end);
	assert_int_equal(r.narrow_from, narrow_from);
	assert_int_equal(r.backward, backward);
	assert_int_equal(r.nt_interleave, 0);
	/* in place, the AVX2 loop up to the L1d's size on family 19h only
	 * (its default size where the L1d reported is none or impossible) */
	if (!amd_19h)
		assert_int_equal(r.ymm_inplace_to, 0);
	else if (l1d < SETTLE_BSWAP_L1D_MIN || l1d > SETTLE_BSWAP_L1D_MAX)
		assert_int_equal(r.ymm_inplace_to, SETTLE_BSWAP_L1D_DEFAULT);
	else
		assert_int_equal(r.ymm_inplace_to, l1d & ~(uint64_t)63);
}

/* Which AVX-512 swaps in place run the AVX2 loop, under a rule: from
 * SETTLE_BSWAP_NARROW_COPY_MIN to ymm_inplace_to bytes, both included. */
static void test_inplace_ymm(void **unused)
{
	struct settle_bswap_copy_rule r =
		settle_bswap_copy_rule_decide(32 << 10, CAP, 1, 0);
	const size_t lo = SETTLE_BSWAP_NARROW_COPY_MIN;

	(void)unused;
	settle_bswap_set_copy_rule(&r);
	assert_false(settle_bswap_inplace_ymm(0));
	assert_false(settle_bswap_inplace_ymm(lo - 1));
	assert_true(settle_bswap_inplace_ymm(lo));
	assert_true(settle_bswap_inplace_ymm(32 << 10));
	assert_false(settle_bswap_inplace_ymm((32 << 10) + 1));
	assert_false(settle_bswap_inplace_ymm(SIZE_MAX));
	r = settle_bswap_copy_rule_decide(32 << 10, CAP, 0, 1);
	assert_false(settle_bswap_inplace_ymm(lo));
	assert_false(settle_bswap_inplace_ymm(32 << 10));
	settle_bswap_set_copy_rule(NULL);
}

/*
 * AMD family 19h: everything from 3/4 of the L1d to the SSSE3 kernel, and
 * backward copies; every other CPU: the AVX2 kernel from 9/16 of the L1d,
 * the SSSE3 kernel only above the non-temporal threshold, no backward
 * copy. Then this machine's rule: the decision on what it reports, set
 * rules taken by pointer, and NULL back to this machine's.
 */
static void test_copy_rule(void **unused)
{
	static const struct settle_bswap_copy_rule mine = { 100, 200, 1, 0, 0 };
	const struct settle_bswap_copy_rule *r;
	struct settle_bswap_copy_rule want;
	long l1d = sysconf(_SC_LEVEL1_DCACHE_SIZE);
	int amd_19h = 0, intel = 0;

	(void)unused;
	expect_rule(32 << 10, CAP, 1, 24 << 10, 24 << 10, 1); /* Zen 4 */
	expect_rule(48 << 10, CAP, 1, 36 << 10, 36 << 10, 1);
	expect_rule(0, CAP, 1, 24 << 10, 24 << 10, 1);
	expect_rule(480ull << 20, CAP, 1, 24 << 10, 24 << 10, 1);
	expect_rule(40000, CAP, 1, 29952, 29952, 1); /* rounded down */
	expect_rule(48 << 10, CAP, 0, 27 << 10, CAP + 1, 0); /* Zen 5 */
	expect_rule(32 << 10, 4 * MIB, 0, 18 << 10, 4 * MIB + 1, 0);
	expect_rule(0, CAP, 0, 18 << 10, CAP + 1, 0);
	expect_rule(480ull << 20, CAP, 0, 18 << 10, CAP + 1, 0);
	expect_rule(16 << 10, CAP, 0, 12 << 10, CAP + 1, 0); /* the minimum */
	expect_rule(40000, CAP, 0, 22464, CAP + 1, 0); /* rounded down */
	expect_rule(48 << 10, SIZE_MAX, 0, 27 << 10, SIZE_MAX, 0);
	/* never below the smallest non-temporal copy */
	expect_rule(48 << 10, 16 << 10, 0, 27 << 10, 64 << 10, 0);
	expect_rule(48 << 10, (64 << 10) - 1, 0, 27 << 10, 64 << 10, 0);
	expect_rule(48 << 10, 64 << 10, 0, 27 << 10, (64 << 10) + 1, 0);
	/* Intel: the same as every other CPU, and the interleaved
	 * non-temporal copy (and not with an AMD family 19h signature) */
	want = settle_bswap_copy_rule_decide(48 << 10, 32 * MIB, 0, 1);
	assert_true(want.zmm_end == 27 << 10 &&
		    want.narrow_from == 32 * MIB + 1 && !want.backward &&
		    want.nt_interleave == 1);
	want = settle_bswap_copy_rule_decide(48 << 10, CAP, 1, 1);
	assert_true(want.backward && !want.nt_interleave);
#if SETTLE_ARCH_X86_64
	amd_19h = settle_cpu_amd_19h(settle_cpuid_this());
	intel = settle_cpu_intel(settle_cpuid_this());
#endif
	want = settle_bswap_copy_rule_decide(l1d > 0 ? (uint64_t)l1d : 0,
					     settle_bswap_nt_bytes(), amd_19h,
					     intel);
	settle_bswap_set_copy_rule(NULL);
	r = settle_bswap_copy_rule();
	assert_non_null(r);
	assert_int_equal(r->zmm_end, want.zmm_end);
	assert_int_equal(r->narrow_from, want.narrow_from);
	assert_int_equal(r->backward, want.backward);
	assert_int_equal(r->nt_interleave, want.nt_interleave);
	assert_int_equal(r->ymm_inplace_to, want.ymm_inplace_to);
	assert_ptr_equal(settle_bswap_copy_rule(), r);
	settle_bswap_set_copy_rule(&mine);
	assert_ptr_equal(settle_bswap_copy_rule(), &mine);
	settle_bswap_set_copy_rule(NULL);
	assert_int_equal(settle_bswap_copy_rule()->narrow_from,
			 want.narrow_from);
}

/* ---- what settle info says of the copy rule ----------------------------- */

/* The sentence under rule r for each implementation, whatever this CPU
 * runs: its copy ranges (as the test spells them for r), then the
 * threshold and its source, and for the AVX-512 kernel the in-place range
 * of the AVX2 loop where r has one (as inplace spells it); none for the
 * scalar swaps. */
static void expect_sizes_in(const struct settle_bswap_copy_rule *r,
			    const char *avx512, const char *avx2,
			    const char *how, const char *inplace)
{
	static const char *const impls[] = { "avx512", "avx2", "ssse3",
					     "neon", "scalar" };
	const char *wide[] = { avx512, avx2, "128-bit", "128-bit", NULL };
	char got[320], want[320], nt[32];

	settle_format_size(settle_bswap_nt_bytes(), nt, sizeof(nt));
	settle_bswap_set_copy_rule(r);
	for (size_t i = 0; i < sizeof(impls) / sizeof(impls[0]); i++) {
		settle_bswap_sizes_describe(impls[i], got, sizeof(got));
		if (wide[i])
			snprintf(want, sizeof(want), "copies: %s; non-temporal "
				 "stores above %s%s, threshold set by: %s%s",
				 wide[i], nt, how, settle_bswap_nt_source(),
				 i == 0 ? inplace : "");
		else
			want[0] = 0;
		if (strcmp(got, want))
			fail_msg("%s: \"%s\", expected \"%s\"", impls[i], got,
				 want);
	}
	settle_bswap_set_copy_rule(NULL);
}

static void expect_sizes_nt(const struct settle_bswap_copy_rule *r,
			    const char *avx512, const char *avx2,
			    const char *how)
{
	expect_sizes_in(r, avx512, avx2, how, "");
}

static void expect_sizes(const struct settle_bswap_copy_rule *r,
			 const char *avx512, const char *avx2)
{
	expect_sizes_nt(r, avx512, avx2, "");
}

/*
 * settle_machine_describe() (settle info, the result file) names the
 * sizes each loop copies, from the rule in force, for every implementation
 * (not only the one this CPU runs): both test rules, and
 * one whose hand-over is the threshold (said as "to" it), and one that
 * hands over below the 512-bit loop's end.
 */
static void test_sizes_said(void **unused)
{
	size_t nt = settle_bswap_nt_bytes();
	struct settle_bswap_copy_rule at_nt = { 20 << 10, nt + 1, 0, 0, 0 };
	static const struct settle_bswap_copy_rule low_narrow = {
		40 << 10, 32 << 10, 0, 0, 0 };
	char a512[128], a2[96], t[32], want[320];
	struct settle_machine m;

	(void)unused;
	if (nt < SETTLE_BSWAP_NT_MIN_BYTES)
		skip(); /* then said as "from 64 KiB" (not this test's) */
	expect_sizes(&rule_other, "512-bit below 24 KiB, 256-bit below "
		     "48 KiB, 128-bit beyond", "256-bit below 48 KiB, 128-bit "
		     "beyond");
	expect_sizes_in(&rule_19h, "512-bit below 24 KiB, 128-bit beyond",
			"256-bit below 24 KiB, 128-bit beyond", "",
			"; in place: 256-bit from 12 KiB to 32 KiB");
	/* a hand-over to the 128-bit loop below the 512-bit loop's end
	 * (a large L1d, a low threshold): that loop from there */
	expect_sizes(&low_narrow, "512-bit below 32 KiB, 128-bit beyond",
		     "256-bit below 32 KiB, 128-bit beyond");
	settle_format_size(nt, t, sizeof(t));
	snprintf(a512, sizeof(a512), "512-bit below 20 KiB, 256-bit to %s, "
		 "128-bit beyond", t);
	snprintf(a2, sizeof(a2), "256-bit to %s, 128-bit beyond", t);
	expect_sizes(&at_nt, a512, a2);
	/* Intel's interleaved non-temporal copy is said */
	at_nt.nt_interleave = 1;
	expect_sizes_nt(&at_nt, a512, a2, " (four 4 KiB stretches at once)");
	/* and the description says it of the implementation dispatched */
	settle_machine_describe(&m);
	settle_bswap_sizes_describe(m.bswap_impl, want, sizeof(want));
	assert_string_equal(m.bswap_sizes, want);
}

/* ---- SETTLE_BSWAP_NT_BYTES in a fresh decision --------------------------- */

static const enum settle_bswap_impl vector_impls[] = {
	SETTLE_BSWAP_SSSE3, SETTLE_BSWAP_AVX2, SETTLE_BSWAP_AVX512,
	SETTLE_BSWAP_NEON,
};

/* One copy of nb bytes with fn; 0 when the result is right and the
 * non-temporal path was taken exactly when want_nt. */
static int one_copy(settle_bswap_fn fn, size_t nb, int want_nt,
		    unsigned char *src, unsigned char *dst, unsigned char *ref)
{
	uint64_t before = settle_bswap_nt_calls();

	settle_bswap32_scalar(ref, src, nb / 4);
	fn(dst, src, nb / 4);
	if (memcmp(dst, ref, nb) != 0)
		return 1;
	return (settle_bswap_nt_calls() != before) != want_nt ? 2 : 0;
}

/* The same for a touch loop's copy: the source's bytes. The destination
 * off bytes past a 64-byte boundary (the bytes before the next one a
 * non-temporal copy writes one at a time) with elements of esz bytes;
 * the non-temporal path is taken only when off is a multiple of esz. */
static int one_touch(settle_bswap_touch_fn fn, size_t nb, int want_nt,
		     const unsigned char *src, unsigned char *dst)
{
	static const struct { size_t off, esz; } at[] = {
		{ 0, 4 }, { 4, 4 }, { 2, 2 }, { 8, 8 }, { 2, 4 }, { 4, 8 },
	};

	for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		uint64_t before = settle_bswap_nt_calls();
		size_t off = at[k].off, len = nb - 64;

		memset(dst, 0, nb);
		fn(dst + off, src, len, at[k].esz);
		if (memcmp(dst + off, src, len) != 0)
			return 1;
		if ((settle_bswap_nt_calls() != before) !=
		    (want_nt && off % at[k].esz == 0))
			return 2;
	}
	return 0;
}

/*
 * The interleaved non-temporal copy (the copy rule's nt_interleave, set
 * here whatever this CPU's rule says) of every vector kernel: lengths
 * that end inside a group of four 4 KiB stretches and after one,
 * destinations 0 and 4 bytes past a 64-byte boundary, swapping and
 * touch loops; 0 when all are right and took the non-temporal path.
 */
static int interleaved(unsigned char *src, unsigned char *dst,
		       unsigned char *ref)
{
	static const size_t lens[] = { 2 * MIB - 64, 2 * MIB - 4 * 4096 - 4,
				       MIB + 3 * 4096 + 68, MIB + 16 * 4096 };
	struct settle_bswap_copy_rule rule = *settle_bswap_copy_rule();
	int bad = 0;

	rule.nt_interleave = 1;
	settle_bswap_set_copy_rule(&rule);
	for (size_t i = 0; i < sizeof(vector_impls) / sizeof(vector_impls[0]);
	     i++) {
		settle_bswap_fn fn;

		if (!settle_bswap_usable(vector_impls[i]))
			continue;
		fn = settle_bswap_impl_fn(vector_impls[i], 32);
		for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
			for (size_t off = 0; off <= 4; off += 4) {
				uint64_t before = settle_bswap_nt_calls();
				size_t nb = lens[l];

				memset(dst, 0, nb + 64);
				settle_bswap32_scalar(ref, src + 8, nb / 4);
				fn(dst + off, src + 8, nb / 4);
				if (memcmp(dst + off, ref, nb) != 0 ||
				    settle_bswap_nt_calls() == before ||
				    dst[nb + off] != 0 || (off && dst[0]))
					bad = 1;
			}
		if (one_touch(settle_bswap_touch_impl_fn(vector_impls[i]),
			      2 * MIB - 64, 1, src, dst))
			bad = 1;
	}
	settle_bswap_set_copy_rule(NULL);
	return bad;
}

/* The child: exit status 0 when every check holds, else which failed. */
static int env_child(void)
{
	size_t big = 2 * MIB, small = 512 << 10;
	unsigned char *src = malloc(big), *dst = aligned_alloc(64, big);
	unsigned char *ref = malloc(big);

	if (!src || !dst || !ref)
		return 90;
	setenv("SETTLE_BSWAP_NT_BYTES", "1M", 1);
	if (settle_bswap_nt_bytes() != MIB)
		return 91;
	if (strcmp(settle_bswap_nt_source(), "SETTLE_BSWAP_NT_BYTES") != 0)
		return 92;
	fill_random(src, big, 3);
	for (size_t i = 0; i < sizeof(vector_impls) / sizeof(vector_impls[0]);
	     i++) {
		settle_bswap_fn fn;
		settle_bswap_touch_fn tfn;

		if (!settle_bswap_usable(vector_impls[i]))
			continue;
		fn = settle_bswap_impl_fn(vector_impls[i], 32);
		tfn = settle_bswap_touch_impl_fn(vector_impls[i]);
		if (one_copy(fn, big, 1, src, dst, ref))
			return 10 + (int)i;
		if (one_copy(fn, small, 0, src, dst, ref))
			return 20 + (int)i;
		if (one_touch(tfn, big, 1, src, dst))
			return 40 + (int)i;
		if (one_touch(tfn, small, 0, src, dst))
			return 50 + (int)i;
	}
	if (interleaved(src, dst, ref))
		return 60;
	if (one_copy(settle_bswap32_scalar, big, 0, src, dst, ref))
		return 30;
	if (one_touch(settle_bswap_touch_scalar, big, 0, src, dst))
		return 31;
	return 0;
}

/* child() in a forked child, whose first decisions are its own: its exit
 * status. */
static int in_child(int (*child)(void))
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void test_env(void **unused)
{
	int rc;

	(void)unused;
	if ((rc = in_child(env_child)) != 0)
		fail_msg("SETTLE_BSWAP_NT_BYTES=1M: check %d failed", rc);
}

/* A child whose first call is settle_bswap_active(): the copies' rule is
 * decided with the implementation, so that no later call takes a lock
 * (a signal handler may call the byte swap then). 0 when it holds. */
static int decided_child(void)
{
	if (__atomic_load_n(&settle_bswap_copy_rule_ptr, __ATOMIC_ACQUIRE))
		return 1; /* decided before: the test would prove nothing */
	settle_bswap_active();
	return __atomic_load_n(&settle_bswap_copy_rule_ptr,
			       __ATOMIC_ACQUIRE) ? 0 : 2;
}

static void test_decided_at_once(void **unused)
{
	int rc;

	(void)unused;
	if ((rc = in_child(decided_child)) != 0)
		fail_msg("%s", rc == 1 ?
			 "the copy rule was decided before the first call" :
			 "settle_bswap_active() left the copy rule undecided");
}

/* ---- copy direction -------------------------------------------------------- */

#define DIR_GUARD 64
#define DIR_GUARD_BYTE 0x3c

static void test_distances(void **state)
{
	static const size_t gaps[] = { 1, 2, 3, 8, 63, 64, 65, 100, 128, 256,
				       383, 448, 510, 511, 512, 513, 1024,
				       4031, 4032, 4095, 4096 };
	static const size_t lens[] = { 0, 1, 7, 63, 64, 65, 255, 256, 257,
				       511, 1000, 4096, 4099, 70001 };
	enum settle_bswap_impl w = *(const enum settle_bswap_impl *)*state;
	size_t span = (2 * 70001 + 3 * 4096 + 2 * DIR_GUARD + 4095) / 4096 * 4096;
	unsigned char *buf, *ref;

	if (!settle_bswap_usable(w)) {
		print_message("this CPU or OS cannot run %s: skipped\n",
			      settle_bswap_impl_name(w));
		skip();
	}
	buf = aligned_alloc(4096, span + 8192);
	ref = malloc(70001);
	assert_non_null(buf);
	assert_non_null(ref);
	for (unsigned bits = 16; bits <= 64; bits *= 2)
	for (int touch = 0; touch <= 1; touch++) {
		settle_bswap_fn fn = settle_bswap_impl_fn(w, bits);
		settle_bswap_fn scalar =
			settle_bswap_impl_fn(SETTLE_BSWAP_SCALAR, bits);
		settle_bswap_touch_fn tfn = settle_bswap_touch_impl_fn(w);
		const char *how = touch ? " (touch loop)" : "";

		for (size_t gi = 0; gi < sizeof(gaps) / sizeof(gaps[0]); gi++)
		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			size_t nb = lens[li] / (bits / 8) * (bits / 8);
			unsigned char *src = buf + 64 + gi % 3;
			unsigned char *dst = buf + 4096 * ((nb + 64 + 8191) / 4096)
					     + (size_t)((uintptr_t)src & 4095)
					     + gaps[gi];

			assert_true(dst + nb + DIR_GUARD <= buf + span + 8192);
			fill_random(src, nb, gi * 100 + li);
			memset(dst - DIR_GUARD, DIR_GUARD_BYTE,
			       nb + 2 * DIR_GUARD);
			if (touch) {
				memcpy(ref, src, nb);
				tfn(dst, src, nb, bits / 8);
			} else {
				scalar(ref, src, nb / (bits / 8));
				fn(dst, src, nb / (bits / 8));
			}
			if (memcmp(dst, ref, nb) != 0)
				fail_msg("%s%s, %u-bit, %zu bytes, dst - src = "
					 "%zu mod 4096: wrong result",
					 settle_bswap_impl_name(w), how, bits,
					 nb,
					 (size_t)((uintptr_t)(dst - src) & 4095));
			for (size_t k = 0; k < DIR_GUARD; k++)
				if (dst[-1 - (ptrdiff_t)k] != DIR_GUARD_BYTE ||
				    dst[nb + k] != DIR_GUARD_BYTE)
					fail_msg("%s%s, %u-bit, %zu bytes: wrote "
						 "outside", settle_bswap_impl_name(w),
						 how, bits, nb);
		}
	}
	free(buf);
	free(ref);
}

/* ---- which loop a copy takes ----------------------------------------------- */

/*
 * A 32-bit copy of nb bytes to 64 bytes past its source with the AVX-512
 * kernel (touch 0) or its touch loop (touch 1): 1 when the result is what
 * memmove (then the swap) would give, as a copy from the end does, 0 when
 * not, as a copy from the start does (random bytes).
 */
static int like_memmove(size_t nb, int touch)
{
	unsigned char *buf = aligned_alloc(4096, nb + 2 * 4096);
	unsigned char *orig = malloc(nb), *want = malloc(nb);
	unsigned char *src = buf + 4096, *dst = src + 64;
	int same;

	assert_non_null(buf);
	assert_non_null(orig);
	assert_non_null(want);
	fill_random(src, nb, nb + (size_t)touch);
	memcpy(orig, src, nb);
	if (touch) {
		memcpy(want, orig, nb);
		settle_bswap_touch_impl_fn(SETTLE_BSWAP_AVX512)(dst, src, nb, 4);
	} else {
		settle_bswap32_scalar(want, orig, nb / 4);
		settle_bswap_impl_fn(SETTLE_BSWAP_AVX512, 32)(dst, src, nb / 4);
	}
	same = memcmp(dst, want, nb) == 0;
	free(buf);
	free(orig);
	free(want);
	return same;
}

static void test_paths(void **unused)
{
	static const struct settle_bswap_copy_rule back = {
		.zmm_end = 16 << 10, .narrow_from = 32 << 10, .backward = 1,
	}, fwd = {
		.zmm_end = 16 << 10, .narrow_from = 32 << 10, .backward = 0,
	};
	static const struct {
		const struct settle_bswap_copy_rule *rule;
		size_t nb;
		int backward;
		const char *what;
	} cases[] = {
		{ &back, 8 << 10, 1, "512-bit, from the end" },
		{ &fwd, 8 << 10, 0, "512-bit, from the start" },
		{ &back, 20 << 10, 0, "the AVX2 loop from zmm_end" },
		{ &back, 40 << 10, 0, "the SSSE3 loop from narrow_from" },
	};

	(void)unused;
	if (!settle_bswap_usable(SETTLE_BSWAP_AVX512)) {
		print_message("this CPU or OS cannot run avx512: skipped\n");
		skip();
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		settle_bswap_set_copy_rule(cases[i].rule);
		for (int touch = 0; touch <= 1; touch++)
			if (like_memmove(cases[i].nb, touch) !=
			    cases[i].backward) {
				settle_bswap_set_copy_rule(NULL);
				fail_msg("%zu bytes: the AVX-512 %s did not take "
					 "%s", cases[i].nb,
					 touch ? "touch loop" : "kernel",
					 cases[i].what);
			}
	}
	settle_bswap_set_copy_rule(NULL);
}

/* ---- the touch loops ------------------------------------------------------ */

#define MAX_LEN 1024
#define MAX_ALIGN 64
#define GUARD 64

static const enum settle_bswap_impl all_impls[] = {
	SETTLE_BSWAP_SCALAR, SETTLE_BSWAP_SSSE3, SETTLE_BSWAP_AVX2,
	SETTLE_BSWAP_AVX512, SETTLE_BSWAP_NEON,
};

static settle_bswap_touch_fn touch_of(void **state, const char **name)
{
	enum settle_bswap_impl w = *(const enum settle_bswap_impl *)*state;

	*name = settle_bswap_impl_name(w);
	if (!settle_bswap_usable(w)) {
		print_message("this CPU or OS cannot run %s: skipped\n",
			      *name);
		skip();
	}
	assert_non_null(settle_bswap_touch_impl_fn(w));
	return settle_bswap_touch_impl_fn(w);
}

static int len_wanted(size_t len)
{
	return !sampled() || len % 7 == 0 || len % 64 <= 1 || len % 64 == 63;
}

static int align_wanted(size_t a)
{
	return !sampled() || a == 0 || a == 1 || a == 16 || a == 63;
}

/* An element size for a length, so that each is used. */
static size_t esz_of(size_t len)
{
	return (size_t)2 << (len % 3);
}

/* A touch loop's copy of len bytes from src to dst: dst holds src's
 * bytes, src is as it was (orig), the guard bytes around dst are
 * unchanged (guard, GUARD before and after). */
static void check_touch_copy(const char *name, settle_bswap_touch_fn fn,
			     unsigned char *dst, const unsigned char *src,
			     size_t len, const unsigned char *orig,
			     const unsigned char *guard)
{
	memcpy(dst - GUARD, guard, len + 2 * GUARD);
	fn(dst, src, len, esz_of(len));
	if (memcmp(dst, src, len) != 0 || memcmp(src, orig, len) != 0)
		fail_msg("%s: a copy of %zu bytes (dst %% 64 = %zu, src %% 64 "
			 "= %zu) is not the source's bytes", name, len,
			 (size_t)((uintptr_t)dst % 64),
			 (size_t)((uintptr_t)src % 64));
	if (memcmp(dst - GUARD, guard, GUARD) != 0 ||
	    memcmp(dst + len, guard + GUARD + len, GUARD) != 0)
		fail_msg("%s: a copy of %zu bytes wrote outside the "
			 "destination", name, len);
}

/* Copies: every length, destination alignment and four source
 * alignments. */
static void test_touch_copy_sweep(void **state)
{
	static const size_t src_aligns[] = { 0, 1, 17, 63 };
	const char *name;
	settle_bswap_touch_fn fn = touch_of(state, &name);
	size_t cap = MAX_LEN + MAX_ALIGN + 2 * GUARD;
	unsigned char *sbuf = aligned_alloc(64, cap);
	unsigned char *dbuf = aligned_alloc(64, cap);
	unsigned char *orig = malloc(cap), *guard = malloc(cap);

	assert_non_null(sbuf);
	assert_non_null(dbuf);
	assert_non_null(orig);
	assert_non_null(guard);
	for (size_t len = 0; len <= MAX_LEN; len++) {
		if (!len_wanted(len))
			continue;
		fill_random(sbuf, cap, len + 7);
		fill_random(guard, cap, len + 8);
		memcpy(orig, sbuf, cap);
		for (size_t off = 0; off < MAX_ALIGN; off++)
		for (size_t k = 0; k < 4; k++) {
			size_t so = GUARD + src_aligns[k];

			if (!align_wanted(off))
				continue;
			check_touch_copy(name, fn, dbuf + GUARD + off,
					 sbuf + so, len, orig + so, guard);
		}
	}
	free(sbuf);
	free(dbuf);
	free(orig);
	free(guard);
}

static void test_touch_sweep(void **state)
{
	const char *name;
	settle_bswap_touch_fn fn = touch_of(state, &name);
	size_t cap = MAX_LEN + MAX_ALIGN + 2 * GUARD;
	unsigned char *buf = aligned_alloc(64, cap), *copy = malloc(cap);

	assert_non_null(buf);
	assert_non_null(copy);
	for (size_t len = 0; len <= MAX_LEN; len++) {
		if (!len_wanted(len))
			continue;
		fill_random(buf, cap, len + 1);
		memcpy(copy, buf, cap);
		for (size_t off = 0; off < MAX_ALIGN; off++) {
			if (!align_wanted(off))
				continue;
			fn(buf + GUARD + off, buf + GUARD + off, len,
			   esz_of(len));
			if (memcmp(buf, copy, cap) != 0)
				fail_msg("%s: %zu bytes at %% 64 = %zu changed "
					 "the buffer", name, len, off);
		}
	}
	free(buf);
	free(copy);
}

/* Against PROT_NONE pages: the first byte right after one, the last
 * right before one. */
static void test_touch_guard_pages(void **state)
{
	const char *name;
	settle_bswap_touch_fn fn = touch_of(state, &name);
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *page = guarded_pages(1), *copy = malloc(pg);

	assert_non_null(page);
	assert_non_null(copy);
	fill_random(page, pg, 5);
	memcpy(copy, page, pg);
	for (size_t len = 0; len <= MAX_LEN; len++) {
		if (!len_wanted(len))
			continue;
		fn(page, page, len, esz_of(len));
		fn(page + pg - len, page + pg - len, len, esz_of(len));
	}
	assert_memory_equal(page, copy, pg);
	guarded_free(page, 1);
	free(copy);
}

/* Copies against PROT_NONE pages: from the start and the end of one
 * page to the start and the end of another. */
static void test_touch_copy_guard_pages(void **state)
{
	const char *name;
	settle_bswap_touch_fn fn = touch_of(state, &name);
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *sp = guarded_pages(1), *dp = guarded_pages(1);
	unsigned char *copy = malloc(pg);

	assert_non_null(sp);
	assert_non_null(dp);
	assert_non_null(copy);
	fill_random(sp, pg, 11);
	memcpy(copy, sp, pg);
	for (size_t len = 0; len <= MAX_LEN; len++) {
		if (!len_wanted(len))
			continue;
		memset(dp, 0, pg);
		fn(dp, sp + pg - len, len, esz_of(len));
		fn(dp + pg - len, sp, len, esz_of(len));
		if (memcmp(dp, sp + pg - len, len) != 0 ||
		    memcmp(dp + pg - len, sp, len) != 0)
			fail_msg("%s: a copy of %zu bytes next to a guard page "
				 "is not the source's bytes", name, len);
	}
	assert_memory_equal(sp, copy, pg);
	guarded_free(sp, 1);
	guarded_free(dp, 1);
	free(copy);
}

/* Around SETTLE_BSWAP_NARROW_INPLACE_BYTES, against PROT_NONE pages:
 * every byte unchanged. Sampled: below and above only. */
static void test_touch_narrow(void **state)
{
	static const long delta[] = { -65, -1, 0, 1, 64 + 7 };
	const char *name;
	settle_bswap_touch_fn fn = touch_of(state, &name);
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t h = SETTLE_BSWAP_NARROW_INPLACE_BYTES;
	size_t np = (h + 128 + pg - 1) / pg;
	unsigned char *page = guarded_pages(np), *copy = malloc(np * pg);

	if (!page || !copy) {
		guarded_free(page, np);
		free(copy);
		print_message("cannot map %zu pages: skipped\n", np);
		skip();
	}
	fill_random(page, np * pg, 6);
	memcpy(copy, page, np * pg);
	for (size_t i = 0; i < sizeof(delta) / sizeof(delta[0]); i++) {
		size_t len = (size_t)((long)h + delta[i]);

		if (sampled() && i != 1 && i != 4)
			continue;
		fn(page, page, len, 4);
		fn(page + np * pg - len, page + np * pg - len, len, 4);
		if (memcmp(page, copy, np * pg) != 0)
			fail_msg("%s: %zu bytes changed the buffer", name,
				 len);
	}
	guarded_free(page, np);
	free(copy);
}

/* The stores are kept: on a read-only buffer the loop faults. */
static void test_touch_stores(void **state)
{
	const char *name;
	settle_bswap_touch_fn fn = touch_of(state, &name);
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t pid;
	int st;

	assert_true(m != MAP_FAILED);
	fill_random(m, pg, 9);
	assert_int_equal(mprotect(m, pg, PROT_READ), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		fn(m, m, 1024, 4);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV)
		fail_msg("%s: the touch loop did not store to a read-only "
			 "buffer", name);
	munmap(m, pg);
}

#define TOUCH_TESTS(i)							\
	cmocka_unit_test_prestate(test_distances, (void *)&all_impls[i]), \
	cmocka_unit_test_prestate(test_touch_sweep, (void *)&all_impls[i]), \
	cmocka_unit_test_prestate(test_touch_guard_pages,		\
				  (void *)&all_impls[i]),		\
	cmocka_unit_test_prestate(test_touch_stores, (void *)&all_impls[i]), \
	cmocka_unit_test_prestate(test_touch_copy_sweep,		\
				  (void *)&all_impls[i]),		\
	cmocka_unit_test_prestate(test_touch_copy_guard_pages,		\
				  (void *)&all_impls[i]),		\
	cmocka_unit_test_prestate(test_touch_narrow, (void *)&all_impls[i])

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decided_at_once), /* first: no call yet */
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_narrow_copy_decide),
		/* test_env first: its child decides the threshold afresh
		 * only if this process has not decided it yet */
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_copy_rule),
		cmocka_unit_test(test_inplace_ymm),
		cmocka_unit_test(test_sizes_said),
		cmocka_unit_test(test_paths),
		TOUCH_TESTS(0), TOUCH_TESTS(1), TOUCH_TESTS(2), TOUCH_TESTS(3),
		TOUCH_TESTS(4),
	};
	/* the copy direction again under each CPU family's rule */
	const struct CMUnitTest directions[] = {
		cmocka_unit_test_prestate(test_distances,
					  (void *)&all_impls[2]),
		cmocka_unit_test_prestate(test_distances,
					  (void *)&all_impls[3]),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	return rc | RUN_UNDER_BOTH_RULES(directions);
}
