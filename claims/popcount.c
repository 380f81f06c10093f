/*
 * popcount.c - claim "popcount": what counting the set bits of file-system
 * block bitmaps costs with each way of counting bits.
 *
 * One operation is one pass over a bitmap of params.size_bytes random bytes
 * (fixed seed, 64-byte aligned), returning the number of set bits. The
 * scale section turns the cost per byte into seconds to count the bitmaps
 * of a 4 TB and a 128 TB file system (4 KiB blocks: 2^30 blocks, 128 MiB
 * of bitmap; 2^35 blocks, 4 GiB), the terms of the original argument (see
 * docs/founding-experiments.md, "popcount").
 *
 * Sources of the counting methods:
 *   - table8: byte table built as in Sean Eron Anderson, "Bit Twiddling
 *     Hacks", "Counting bits set by lookup table".
 *   - swar32: Henry S. Warren, "Hacker's Delight", 2nd ed., section 5-1,
 *     figure 5-2 (non-looping population count of a 32-bit word).
 *   - swar64: the same in 64 bits with the byte sums added by a multiply,
 *     "Bit Twiddling Hacks", "Counting bits set, in parallel".
 *   - popcnt (x86-64): Intel SDM vol. 2B, POPCNT.
 *   - builtin-generic: claims/popcount_generic.c.
 *   - avx2, avx512 (x86-64), neon, sve (AArch64), auto: settle's own
 *     primitives (include/settle_bits.h, src/prim, src/arch), each as
 *     settle_popcount() runs it (settle_popcount_path_fn()): Harley-Seal
 *     over AVX2 (Mula, Kurz, Lemire, "Faster Population Counts Using AVX2
 *     Instructions", 2018) with scalar POPCNT beside it, AVX-512 VPOPCNTQ,
 *     AdvSIMD CNT, SVE CNT, and the dispatched settle_popcount(). Each
 *     architecture lists only its own.
 *   - gmp: GMP's mpn_popcount (the GMP manual, "Low-level Functions").
 *   - ext2fs: e2fsprogs' ext2fs_bitcount (lib/ext2fs/bitops.h), the
 *     file-system checker's own count.
 *   - read-limit: not a count but a plain streaming read of the buffer
 *     with the widest loads (settle_read_limit(), src/prim/readlimit.h),
 *     the bound every count is measured against.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "config.h"
#include "cpu/cpu.h"
#include "popcount_variants.h"
#include "stats/rules.h"
#include "prim/readlimit.h"
#include "settle.h"
#include "settle_bits.h"

#if SETTLE_HAVE_GMP
#include <gmp.h>
#endif
#if SETTLE_HAVE_EXT2FS
#include <ext2fs/ext2fs.h>
#endif

/*
 * The table and SWAR kernels measure scalar code: keep clang's vectoriser
 * (on at -O2) off their loops. gcc 12 at -O2 leaves them scalar (its
 * "very cheap" cost model does not vectorise loops that need an epilogue).
 */
#ifdef __clang__
#define SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#else
#define SCALAR_LOOP
#endif

/* ---- kernels ----------------------------------------------------------- */

/*
 * This file and popcount_generic.c are built with every loop starting a
 * 64-byte line (KERNEL_ALIGN in the Makefile), so that a kernel's loop
 * sits at the same place in every build: the table8 loop crossing a line
 * boundary ran 1.6x slower than the same loop inside one, after unrelated
 * code moved (AMD EPYC Zen 4 KVM guest).
 */

#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)

/* table8[b]: number of set bits of the byte b. */
static const uint8_t table8[256] = { B6(0), B6(1), B6(1), B6(2) };

uint64_t settle_popcount_table8(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t n = 0;

	SCALAR_LOOP
	for (size_t i = 0; i < len; i++)
		n += table8[p[i]];
	return n;
}

static inline uint32_t swar32(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0fu;
	x = x + (x >> 8);
	x = x + (x >> 16);
	return x & 0x3fu;
}

uint64_t settle_popcount_swar32(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t n = 0;
	size_t i = 0;

	SCALAR_LOOP
	for (; len - i >= 4; i += 4) {
		uint32_t w;

		memcpy(&w, p + i, 4);
		n += swar32(w);
	}
	SCALAR_LOOP
	for (; i < len; i++)
		n += swar32(p[i]);
	return n;
}

static inline uint64_t swar64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555u);
	x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (x * 0x0101010101010101u) >> 56;
}

uint64_t settle_popcount_swar64(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t n = 0;
	size_t i = 0;

	SCALAR_LOOP
	for (; len - i >= 8; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		n += swar64(w);
	}
	SCALAR_LOOP
	for (; i < len; i++)
		n += swar64(p[i]);
	return n;
}

#if SETTLE_ARCH_X86_64
__attribute__((target("popcnt"))) uint64_t settle_popcount_popcnt(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t n = 0;
	size_t i = 0;

	for (; len - i >= 8; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		n += (uint64_t)__builtin_popcountll(w);
	}
	for (; i < len; i++)
		n += (uint64_t)__builtin_popcountll(p[i]);
	return n;
}
#endif

/* ---- peers ------------------------------------------------------------- */

#if SETTLE_HAVE_GMP
/*
 * GMP's mpn_popcount over the whole limbs of buf, which must be aligned
 * for mp_limb_t (the claim's buffer is 64-byte aligned); the len % 8 tail
 * bytes are counted with settle_popcount(). mpn functions need at least
 * one limb (mpn_popcount reads a limb even for 0). mpn_popcount is
 * declared pure: passes() launders the pointer on every pass, so no pass
 * is hoisted.
 */
static uint64_t popcount_gmp(const void *buf, size_t len)
{
	size_t limbs = len / sizeof(mp_limb_t);
	size_t whole = limbs * sizeof(mp_limb_t);
	uint64_t n = 0;

	if (limbs)
		n = mpn_popcount((const mp_limb_t *)buf, (mp_size_t)limbs);
	return n + settle_popcount((const unsigned char *)buf + whole,
				   len - whole);
}
#endif

#if SETTLE_HAVE_EXT2FS
/* ext2fs_bitcount takes and returns 32-bit counts: at most 256 MiB
 * (2^31 bits) per call, summed in 64 bits, as its callers do per group. */
#define EXT2FS_CHUNK (256u << 20)

static uint64_t popcount_ext2fs(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t n = 0;

	while (len) {
		unsigned int chunk = len < EXT2FS_CHUNK ? (unsigned int)len
							: EXT2FS_CHUNK;

		n += ext2fs_bitcount(p, chunk);
		p += chunk;
		len -= chunk;
	}
	return n;
}
#endif

/* ---- claim ------------------------------------------------------------- */

struct popcount_state {
	unsigned char *buf; /* 64-byte aligned, len bytes of random bits */
	size_t len;         /* bytes */
};

static void *popcount_setup(const struct settle_params *prm, char *err,
			    size_t errlen)
{
	struct popcount_state *s;
	size_t alloc;

	if (prm->size_bytes > SIZE_MAX - 64) {
		snprintf(err, errlen, "popcount: size %" PRIu64 " too large",
			 prm->size_bytes);
		return NULL;
	}
	s = malloc(sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "popcount: out of memory");
		return NULL;
	}
	s->len = (size_t)prm->size_bytes;
	alloc = (s->len + 63) / 64 * 64;
	if (alloc == 0)
		alloc = 64;
	/* placed by the layout being measured (docs/layouts.md) */
	s->buf = settle_alloc(prm, alloc, 64);
	if (!s->buf) {
		snprintf(err, errlen, "popcount: cannot allocate %zu bytes",
			 alloc);
		free(s);
		return NULL;
	}
	memset(s->buf + s->len, 0, alloc - s->len);
	settle_fill_random(s->buf, s->len, 0x5e771e0b17c0u);
	return s;
}

static void popcount_teardown(void *state)
{
	struct popcount_state *s = state;

	if (!s)
		return;
	settle_free(s->buf);
	free(s);
}

typedef uint64_t (*popcount_fn)(const void *buf, size_t len);

/*
 * iters passes over the bitmap. The pointer is laundered on every pass so
 * that no pass can be hoisted or merged with another, and every count is
 * kept alive so that no pass is dead code. The buffer and length are read
 * once, before the loop: read from *s, they would be reloaded after every
 * call (docs/writing-a-claim.md, "Barriers").
 */
static inline uint64_t passes(const struct popcount_state *s, uint64_t iters,
			      popcount_fn fn)
{
	const unsigned char *buf = s->buf;
	size_t len = s->len;
	uint64_t n = 0;

	for (uint64_t i = 0; i < iters; i++) {
		const unsigned char *p = buf;

		settle_keep(p);
		n = fn(p, len);
		settle_keep(n);
	}
	return n;
}

/* What a variant counts with: a kernel, or one of settle's primitives. */
struct kernel {
	popcount_fn fn; /* NULL: the primitive impl */
	enum settle_popcount_impl impl;
};

static uint64_t run_kernel(void *state, const void *arg, uint64_t iters)
{
	const struct kernel *k = arg;

	return passes(state, iters,
		      k->fn ? k->fn : settle_popcount_path_fn(k->impl));
}

/* Unused in the generic build, which has no primitive that may be
 * unavailable. */
__attribute__((unused))
static const char *primitive_unavailable(void *state, const void *arg)
{
	const struct kernel *k = arg;

	(void)state;
	if (settle_popcount_usable(k->impl))
		return NULL;
	switch (k->impl) {
	case SETTLE_POPCOUNT_POPCNT:
		return "CPU lacks POPCNT";
	case SETTLE_POPCOUNT_AVX2:
		return "CPU or OS lacks AVX2";
	case SETTLE_POPCOUNT_AVX512VL:
		return "CPU or OS lacks AVX-512VL";
	case SETTLE_POPCOUNT_NEON:
		return "CPU lacks AdvSIMD";
	case SETTLE_POPCOUNT_SVE:
		return "CPU or kernel lacks SVE";
	default:
		return "CPU or OS lacks AVX-512 VPOPCNTDQ (with F, BW, VL)";
	}
}

/* The widest loads of this CPU: the library's read-limit kernel, called
 * directly (settle_read_limit_kernel()) once for all iters passes; it
 * launders the pointer on every pass itself (src/prim/readlimit.h), so
 * each operation is still one pass over the bitmap, without a call. */
static uint64_t run_read_limit(void *state, const void *arg, uint64_t iters)
{
	const struct popcount_state *s = state;

	(void)arg;
	return settle_read_limit_kernel()(s->buf, s->len, iters);
}

static const struct kernel k_table8 = { settle_popcount_table8, 0 };
static const struct kernel k_generic = { settle_popcount_builtin_generic, 0 };
static const struct kernel k_swar32 = { settle_popcount_swar32, 0 };
static const struct kernel k_swar64 = { settle_popcount_swar64, 0 };
#if SETTLE_ARCH_X86_64
static const struct kernel k_popcnt = { settle_popcount_popcnt,
					SETTLE_POPCOUNT_POPCNT };
static const struct kernel k_avx2 = { NULL, SETTLE_POPCOUNT_AVX2 };
static const struct kernel k_avx512vl = { NULL, SETTLE_POPCOUNT_AVX512VL };
static const struct kernel k_avx512 = { NULL, SETTLE_POPCOUNT_AVX512 };
#elif SETTLE_ARCH_AARCH64
static const struct kernel k_neon = { NULL, SETTLE_POPCOUNT_NEON };
static const struct kernel k_sve = { NULL, SETTLE_POPCOUNT_SVE };
#endif
static const struct kernel k_auto = { settle_popcount, 0 };
#if SETTLE_HAVE_GMP
static const struct kernel k_gmp = { popcount_gmp, 0 };
#endif
#if SETTLE_HAVE_EXT2FS
static const struct kernel k_ext2fs = { popcount_ext2fs, 0 };
#endif

static const struct settle_variant variants[] = {
	{
		.name = "table8",
		.description = "256-entry byte lookup table, one load per byte",
		.run = run_kernel,
		.arg = &k_table8,
	},
	{
		.name = "builtin-generic",
		.description = "__builtin_popcountll without -mpopcnt "
			       "(gcc: libgcc __popcountdi2 per word)",
		.run = run_kernel,
		.arg = &k_generic,
	},
	{
		.name = "swar32",
		.description = "non-looping 32-bit SWAR count per 32-bit word",
		.run = run_kernel,
		.arg = &k_swar32,
	},
	{
		.name = "swar64",
		.description = "64-bit SWAR count, bytes summed by a multiply",
		.run = run_kernel,
		.arg = &k_swar64,
	},
#if SETTLE_ARCH_X86_64
	{
		.name = "popcnt",
		.description = "POPCNT instruction per 64-bit word",
		.run = run_kernel,
		.arg = &k_popcnt,
		.unavailable = primitive_unavailable,
	},
	{
		.name = "avx2",
		.description = "settle's AVX2 path: Harley-Seal over AVX2, "
			       "VPSHUFB count, POPCNT beside (primitive)",
		.run = run_kernel,
		.arg = &k_avx2,
		.unavailable = primitive_unavailable,
	},
	{
		.name = "avx512vl",
		.description = "settle's AVX512VL path: the avx2 row with "
			       "VPTERNLOGQ carry-save adders (primitive)",
		.run = run_kernel,
		.arg = &k_avx512vl,
		.unavailable = primitive_unavailable,
	},
	{
		.name = "avx512",
		.description = "AVX-512 VPOPCNTQ, aligned loads after a masked "
			       "head, masked tail (settle primitive)",
		.run = run_kernel,
		.arg = &k_avx512,
		.unavailable = primitive_unavailable,
	},
#elif SETTLE_ARCH_AARCH64
	{
		.name = "neon",
		.description = "AdvSIMD CNT per byte, widening pairwise adds "
			       "into 64-bit lanes (settle primitive)",
		.run = run_kernel,
		.arg = &k_neon,
		.unavailable = primitive_unavailable,
	},
	{
		.name = "sve",
		.description = "SVE CNT on 64-bit lanes, any vector length, "
			       "predicated tail (settle primitive)",
		.run = run_kernel,
		.arg = &k_sve,
		.unavailable = primitive_unavailable,
	},
#endif
	{
		.name = "auto",
		.description = "settle_popcount(): the implementation chosen "
			       "at run time (" SETTLE_ARCH_NAME ")",
		.run = run_kernel,
		.arg = &k_auto,
	},
	{
		.name = "read-limit",
		.description = "reference: plain streaming read, widest vector "
			       "loads of this CPU, summed",
		.run = run_read_limit,
		.flags = SETTLE_REFERENCE,
	},
#if SETTLE_HAVE_GMP
	{
		.name = "gmp",
		.description = "GMP mpn_popcount over 64-bit limbs (peer)",
		.run = run_kernel,
		.arg = &k_gmp,
	},
#endif
#if SETTLE_HAVE_EXT2FS
	{
		.name = "ext2fs",
		.description = "e2fsprogs ext2fs_bitcount, per chunk of at "
			       "most 256 MiB (peer)",
		.run = run_kernel,
		.arg = &k_ext2fs,
	},
#endif
};

static const uint64_t default_sizes[] = {
	4ull << 10,
	1ull << 20,
	128ull << 20,
};

/* Bitmap sizes of the file systems of the original argument. */
static const struct {
	const char *label;
	uint64_t bitmap_bytes; /* one bit per 4 KiB block */
} fs_sizes[] = {
	{ "4 TB fs (128 MiB)", 128ull << 20 },
	{ "128 TB fs (4 GiB)", 4ull << 30 },
};

/*
 * The smallest size the file-system figures are taken from: the bitmaps
 * of the smaller file system of the argument. A buffer that fits in a
 * cache is counted from it; its time says nothing of bitmaps read from
 * memory (a 4 KiB run on the Zen 4 guest made 0.022 s of the 4 GiB of a
 * 128 TB file system, 191 GB/s; the 128 MiB run 0.154 s).
 */
#define FS_FROM_BYTES (128ull << 20)

/* The seconds r's median per byte gives bytes of bitmaps, from its
 * samples (never from the figures a file stores: a file edited by hand
 * once kept them, and the conclusion contradicted its own table), or
 * NAN. */
static double fs_seconds(const struct settle_result *r, uint64_t bytes)
{
	if (!r->size_bytes || !isfinite(r->sum.median) || r->sum.median < 0)
		return NAN;
	return r->sum.median / (double)r->size_bytes * (double)bytes / 1e9;
}

static size_t popcount_scale(const struct settle_result *r,
			     const struct settle_scale_ctx *ctx,
			     struct settle_figure *out, size_t max)
{
	char size[24], note[48];
	size_t n = 0;

	if (r->skipped || r->size_bytes < FS_FROM_BYTES ||
	    r->size_bytes != ctx->largest_size || isnan(fs_seconds(r, 1)))
		return 0;
	settle_format_size(r->size_bytes, size, sizeof(size));
	snprintf(note, sizeof(note), "extrapolated from %s", size);
	for (size_t i = 0; i < sizeof(fs_sizes) / sizeof(fs_sizes[0]); i++) {
		if (n == max)
			break;
		settle_figure_set(&out[n++], fs_sizes[i].label, "s",
				  fs_seconds(r, fs_sizes[i].bitmap_bytes),
				  r->size_bytes == fs_sizes[i].bitmap_bytes ? "" : note);
	}
	/* The whole check of an empty 128 TB file system took 202 CPU s. */
	if (n < max)
		settle_figure_set(&out[n++], "of a 202 s 128 TB fsck", "%",
				  fs_seconds(r, 4ull << 30) / 202 * 100,
				  r->size_bytes == 4ull << 30 ? "" : note);
	return n;
}


/* r can run against the baseline at base's size: measured and compared. */
static int contender(const struct settle_result *r,
		     const struct settle_result *base)
{
	return r->size_bytes == base->size_bytes && !r->reference &&
	       r->has_cmp && !r->invalid[0] && !r->skipped &&
	       r->cmp.ratio > 0;
}

/*
 * The sentence from a size below FS_FROM_BYTES, into out: the fastest
 * counts (names: one, or nties + 1 that this run does not tell apart),
 * their ratios to base (span) with the interval ci, as
 * popcount_conclude() words them, and in place of the seconds of a
 * file-system check the size to measure for them. Returns snprintf's.
 */
static int in_cache_sentence(struct settle_conclusion *out,
			     const char *names, size_t nties,
			     const char *size, const char *span,
			     const char *base, const char *ci)
{
	return snprintf(out->sentence, sizeof(out->sentence), "%s %s at %s%s "
			"%s the time of %s%s; no seconds of a file-system "
			"check from a buffer that fits in a cache (--size "
			"128M or more)", names, nties ? "are the fastest "
			"counts" : "is the fastest count", size, nties ?
			", which this run does not tell apart:" : ",", span,
			base, ci);
}

/*
 * The sentence when no count is faster than base (the nearest's ratio is
 * 1 or more, e.g. a run of --variant table8 alone; or under 1 and `same`,
 * inside the equivalence band, band > 0 then), into out: base is the
 * fastest, the nearest counts (names) take span of its time. Returns
 * snprintf's.
 */
static int none_faster_sentence(struct settle_conclusion *out,
				const char *names, size_t nties,
				const char *size, const char *span,
				const char *base, const char *ci, double band)
{
	char beyond[40] = "";

	if (band > 0)
		snprintf(beyond, sizeof(beyond), " by more than the +-%g%% "
			 "band", band * 100);
	return snprintf(out->sentence, sizeof(out->sentence), "no count is "
			"faster than %s at %s%s: the nearest, %s%s, take%s %s "
			"its time%s", base, size, beyond, names, nties ?
			" (not told apart)" : "", nties ? "" : "s", span, ci);
}

/*
 * The fastest count at the largest size against the baseline, and what it
 * saves on the 4 GiB of bitmaps of a 128 TB file system, as a share of the
 * original 202 s check. Counts whose interval overlaps the fastest one's
 * are named with it (this run does not separate them), each a row the
 * conclusion rests on; the saving is the baseline's time less the ratio's
 * share of it (so its sign is the ratio's), said to be extrapolated
 * unless 4 GiB was measured; none below FS_FROM_BYTES. When no count is
 * faster than the baseline (ratio 1 or more, or its verdict `same`: a
 * difference inside the equivalence band, which the user said does not
 * count), the baseline is the fastest and nothing is saved.
 */
static int popcount_conclude(const struct settle_result *res, size_t n,
			     const struct settle_conclude_ctx *ctx,
			     struct settle_conclusion *out)
{
	const struct settle_result *base = settle_result_find(res, n,
		"builtin-generic", UINT64_MAX), *best = NULL;
	const struct settle_result *ties[SETTLE_MAX_NAMED - 2];
	size_t nties = 0, used = 0;
	double saved, lo, hi, rmax;
	/* sized so that the sentence fits (gcc -O1 checks the bound) */
	char size[24], names[160] = "", extra[48] = "", ci[48] = "";
	char span[40], hi_s[20];
	int w;
	int reached, faster;

	for (size_t i = 0; base && i < n; i++)
		if (contender(&res[i], base) &&
		    (!best || res[i].cmp.ratio < best->cmp.ratio))
			best = &res[i];
	if (!best)
		return 0;
	lo = best->cmp.lo;
	hi = best->cmp.hi;
	rmax = best->cmp.ratio;
	reached = settle_interval_reached(&best->cmp);
	faster = best->cmp.ratio < 1 && best->cmp.verdict != SETTLE_SAME;
	for (size_t i = 0; i < n && nties < SETTLE_MAX_NAMED - 2; i++)
		if (&res[i] != best && contender(&res[i], base) &&
		    settle_intervals_overlap(&res[i].cmp, &best->cmp)) {
			ties[nties++] = &res[i];
			lo = fmin(lo, res[i].cmp.lo);
			hi = fmax(hi, res[i].cmp.hi);
			rmax = fmax(rmax, res[i].cmp.ratio);
			reached &= settle_interval_reached(&res[i].cmp);
		}
	/* the interval as the table shows it: none below its 95 % level;
	 * tied counts' together, said so (a bare one after a range of
	 * ratios was read as one count's) */
	if (reached && nties)
		snprintf(ci, sizeof(ci), " (their intervals span [%.3f, %.3f])",
			 lo, hi);
	else if (reached)
		snprintf(ci, sizeof(ci), " [%.3f, %.3f]", lo, hi);
	settle_format_size(best->size_bytes, size, sizeof(size));
	if (best->size_bytes != 4ull << 30)
		snprintf(extra, sizeof(extra), " (extrapolated from %s)", size);
	saved = fs_seconds(base, 4ull << 30) * (1 - best->cmp.ratio);
	used = (size_t)snprintf(names, sizeof(names), "%s", best->label);
	for (size_t i = 0; i < nties && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used,
					 "%s%s", i + 1 == nties ? " and " : ", ",
					 ties[i]->label);
	/* the ratios of the tied counts: one figure when they print alike */
	snprintf(span, sizeof(span), "%.3fx", best->cmp.ratio);
	snprintf(hi_s, sizeof(hi_s), "%.3fx", rmax);
	if (strcmp(span, hi_s) != 0)
		snprintf(span, sizeof(span), "%.3fx-%.3fx", best->cmp.ratio,
			 rmax);
	if (!faster)
		w = none_faster_sentence(out, names, nties, size, span,
					 base->label, ci, best->cmp.ratio < 1 ?
					 ctx->band : 0);
	else if (best->size_bytes < FS_FROM_BYTES)
		w = in_cache_sentence(out, names, nties, size, span,
				      base->label, ci);
	else if (nties)
		w = snprintf(out->sentence, sizeof(out->sentence), "%s are the "
			 "fastest counts at %s, which this run does not tell "
			 "apart: %s the time of %s%s; on the 4 GiB of "
			 "bitmaps of a 128 TB file system%s the fastest saves "
			 "%.3g s, %.2g %% of the original 202 s check",
			 names, size, span, base->label, ci,
			 extra, saved, saved / 202 * 100);
	else
		w = snprintf(out->sentence, sizeof(out->sentence), "%s is the "
			 "fastest count at %s, %.3fx the time of %s%s; on the 4 "
			 "GiB of bitmaps of a 128 TB file system%s it saves %.3g "
			 "s, %.2g %% of the original 202 s check", best->label,
			 size, best->cmp.ratio, base->label, ci, extra, saved,
			 saved / 202 * 100);
	/* cut short (many long names tied): say so at the end */
	if (w < 0 || (size_t)w >= sizeof(out->sentence))
		memcpy(out->sentence + sizeof(out->sentence) - 4, "...", 4);
	/* ratio: the fastest count's; with ties, ratio_high the largest of
	 * theirs, and ci_low / ci_high span every count named */
	settle_conclusion_number(out, "ratio", best->cmp.ratio, "x");
	if (nties)
		settle_conclusion_number(out, "ratio_high", rmax, "x");
	if (reached) {
		settle_conclusion_number(out, "ci_low", lo, "x");
		settle_conclusion_number(out, "ci_high", hi, "x");
	}
	if (best->size_bytes >= FS_FROM_BYTES && faster) {
		settle_conclusion_number(out, "saved_128tb", saved, "s");
		settle_conclusion_number(out, "share_of_check",
					 saved / 202 * 100, "%");
	}
	settle_conclusion_row(out, best);
	settle_conclusion_row(out, base);
	for (size_t i = 0; i < nties; i++)
		settle_conclusion_row(out, ties[i]);
	return best->size_bytes < FS_FROM_BYTES || !faster || isfinite(saved);
}

/* --full adds the bitmaps of a 128 TB file system. */
static const uint64_t full_sizes[] = { 4ull << 30 };

const struct settle_claim settle_claim_popcount = {
	.name = "popcount",
	.description = "count the set bits of file-system block bitmaps",
	.title = "popcount: counting set bits in block bitmaps",
	.op_name = "buffer",
	.variants = variants,
	.nvariants = sizeof(variants) / sizeof(variants[0]),
	.baseline = "builtin-generic",
	.default_sizes = default_sizes,
	.ndefault_sizes = sizeof(default_sizes) / sizeof(default_sizes[0]),
	.full_sizes = full_sizes,
	.nfull_sizes = 1,
	.bytes_per_op = SETTLE_BYTES_SIZE,
	.original = "slow 0.2623 s, fast 0.0700 s for 4 TB; slow 8.0185 s, "
		    "fast 2.2066 s for 128 TB; a whole check of an "
		    "empty 128 TB file system: 202 CPU s",
	.check_iters = 1,
	.show_cycles = 0,
	.setup = popcount_setup,
	.teardown = popcount_teardown,
	.scale = popcount_scale,
	.conclude = popcount_conclude,
};
