/*
 * bswap.c - claim "bswap": bulk byte swap of arrays of 16, 32 and 64-bit
 * elements, the conversion a file system with a fixed on-media byte order
 * really does (docs/founding-experiments.md, "endian": the bulk conversion
 * is its own claim), with memcpy of the same bytes as the limit.
 *
 * Variants, each for elem_bits 16, 32, 64 (param "elem_bits") and for a
 * copy from a source to a destination buffer or in place (param
 * "in_place"): scalar (one bswap per element; the baseline), the
 * architecture's implementations (x86-64: ssse3, avx2, avx512; AArch64:
 * neon; called through settle_bswap_impl_fn(); skipped with a reason
 * where the CPU or the OS lacks them), auto (the dispatched
 * settle_bswap16/32/64), and the reference rows: for the copies, memcpy
 * (the same bytes copied, unswapped, the bandwidth limit of the copy); in
 * place and for the copies, load-store (the dispatched implementation's
 * loop with the shuffle removed: every vector loaded and stored unchanged,
 * the same unroll, hand-overs, direction and non-temporal stores;
 * src/prim/bswap_kernels.h). In place it is the limit, since a copy of a
 * buffer onto itself is no work and memmove would measure something else;
 * for the copies it tells what the swap costs from what the kernel's way
 * of moving the bytes costs, where memcpy moves them another way (on the
 * AMD Zen 5 guest glibc copies 32 KiB with REP MOVSB; docs/primitives.md,
 * "Byte swap", on why no vector loop keeps up with it there).
 *
 * One operation is one pass over the buffer of params.size_bytes bytes.
 * A pass swaps size / (elem_bits / 8) whole elements; the trailing
 * size % (elem_bits / 8) bytes (at most 7) are left alone, although the
 * throughput column still counts all size bytes. Buffers are 64-byte
 * aligned; the source holds random bytes (fixed seed); the in-place buffer
 * starts as a copy of it.
 *
 * Check value: a checksum of the result seen in the source's byte order,
 * so that every variant of a group (same elem_bits, same in_place) returns
 * the same value, and one that does not swap, or swaps wrongly, does not.
 * Copies: the destination, each element swapped back. The destination's
 * checked bytes are overwritten with a poison pattern before the passes,
 * so a variant that writes nothing (or skips a tail) is caught too. In
 * place: every pass flips the buffer, and passes of different element
 * sizes compose; swapping elements of 2^k bytes maps byte i to i ^ (2^k - 1)
 * within the element, so the state of the buffer is, per region, an XOR
 * mask of byte indexes, kept in the state and undone by the checksum.
 * Regions: [0, size & ~7) is touched by every elem_bits, the next 4 bytes
 * (if size & 4) by 16 and 32-bit passes only, the next 2 (if size & 2) by
 * 16-bit passes only. The checksum reads every byte up to CHECK_ALL_BYTES;
 * above that (where one pass lasts long and the checksum would be timed
 * with it) the first and the last CHECK_EDGE_BYTES and CHECK_PROBES words
 * spread evenly in between, plus any bytes after the last whole word.
 *
 * The scale section gives, for the largest size, the rate in MB/s (10^6
 * bytes/s) and the share of a device's time the conversion would take at
 * --device-mbps (13 MB/s, the file system of the original, by default).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bswap.h"
#include "claims.h"
#include "cpu/cpu.h"
#include "prim/bswap_kernels.h"
#include "settle.h"
#include "settle_byteorder.h"

#define CHECK_ALL_BYTES (256u << 10)
#define CHECK_EDGE_BYTES (16u << 10)
#define CHECK_PROBES 4096u
#define POISON 0x5a
#define DEFAULT_DEVICE_MBPS 13.0

struct bswap_state {
	unsigned char *src; /* size random bytes */
	unsigned char *dst; /* copy destination */
	unsigned char *ip;  /* in-place buffer: src's bytes, permuted */
	size_t size;        /* bytes */
	unsigned char mask[3]; /* ip's XOR masks per region (see above) */
};

/* ---- the view in the source's byte order -------------------------------- */

/* w with byte j taken from byte j ^ m (m < 8) of w. */
static uint64_t unpermute(uint64_t w, unsigned m)
{
	if (m & 1)
		w = ((w >> 8) & 0x00ff00ff00ff00ffu) |
		    ((w & 0x00ff00ff00ff00ffu) << 8);
	if (m & 2)
		w = ((w >> 16) & 0x0000ffff0000ffffu) |
		    ((w & 0x0000ffff0000ffffu) << 16);
	if (m & 4)
		w = (w >> 32) | (w << 32);
	return w;
}

/* Byte i of buf seen through the region masks m (buffer of size bytes). */
static unsigned view_byte(const unsigned char *buf, size_t size, size_t i,
			  const unsigned char m[3])
{
	if (i < (size & ~(size_t)7))
		return buf[i ^ m[0]];
	if (i < (size & ~(size_t)3))
		return buf[i ^ m[1]];
	if (i < (size & ~(size_t)1))
		return buf[i ^ m[2]];
	return buf[i];
}

/* One word's contribution to the checksum; pos makes it order-sensitive. */
static uint64_t mix(uint64_t w, uint64_t pos)
{
	uint64_t x = (w ^ (pos * 0x9e3779b97f4a7c15u)) * 0xbf58476d1ce4e5b9u;

	return x ^ (x >> 31);
}

static uint64_t sum_words(const unsigned char *buf, size_t from, size_t to,
			  unsigned m)
{
	uint64_t h = 0;

	for (size_t k = from; k < to; k++) {
		uint64_t w;

		memcpy(&w, buf + 8 * k, 8);
		h += mix(unpermute(w, m), k);
	}
	return h;
}

/* Words checked between the edges when the buffer is large. */
static size_t probe_stride(size_t words)
{
	size_t edge = CHECK_EDGE_BYTES / 8;

	return (words - 2 * edge) / CHECK_PROBES;
}

static int check_all(size_t words)
{
	return words * 8 <= CHECK_ALL_BYTES;
}

/*
 * Checksum of the first len bytes of buf (a buffer of size bytes) seen
 * through the region masks m. Whole words lie in region 0.
 */
static uint64_t checksum(const unsigned char *buf, size_t size, size_t len,
			 const unsigned char m[3])
{
	size_t words = len / 8, edge = CHECK_EDGE_BYTES / 8;
	uint64_t h = len;

	if (check_all(words)) {
		h += sum_words(buf, 0, words, m[0]);
	} else {
		size_t stride = probe_stride(words);

		h += sum_words(buf, 0, edge, m[0]);
		h += sum_words(buf, words - edge, words, m[0]);
		for (size_t j = 0; j < CHECK_PROBES; j++)
			h += sum_words(buf, edge + j * stride,
				       edge + j * stride + 1, m[0]);
	}
	for (size_t i = words * 8; i < len; i++)
		h += mix(view_byte(buf, size, i, m), i | 1ull << 63);
	return h;
}

/* Overwrite the bytes checksum() reads among the first len of buf. */
static void poison(unsigned char *buf, size_t len)
{
	size_t words = len / 8, edge = CHECK_EDGE_BYTES / 8;

	if (check_all(words)) {
		memset(buf, POISON, len);
		return;
	}
	memset(buf, POISON, 8 * edge);
	memset(buf + 8 * (words - edge), POISON, len - 8 * (words - edge));
	for (size_t j = 0; j < CHECK_PROBES; j++)
		memset(buf + 8 * (edge + j * probe_stride(words)), POISON, 8);
}

/* ---- passes ------------------------------------------------------------- */

static uint64_t copy_passes(struct bswap_state *s, uint64_t iters,
			    settle_bswap_fn fn, size_t esz)
{
	const unsigned char m[3] = { esz - 1, esz - 1, esz - 1 };
	size_t n = s->size / esz;
	unsigned char *dst = s->dst;
	const unsigned char *src = s->src;

	poison(dst, n * esz);
	for (uint64_t i = 0; i < iters; i++) {
		unsigned char *d = dst;
		const unsigned char *p = src;

		settle_keep(d);
		settle_keep(p);
		fn(d, p, n);
	}
	settle_clobber_memory();
	return checksum(s->dst, s->size, n * esz, m);
}

static uint64_t inplace_passes(struct bswap_state *s, uint64_t iters,
			       settle_bswap_fn fn, size_t esz)
{
	size_t n = s->size / esz;
	unsigned char *ip = s->ip;

	for (uint64_t i = 0; i < iters; i++) {
		unsigned char *p = ip;

		settle_keep(p);
		fn(p, p, n);
	}
	settle_clobber_memory();
	if (iters & 1) {
		s->mask[0] ^= esz - 1;
		if (esz <= 4)
			s->mask[1] ^= esz - 1;
		if (esz == 2)
			s->mask[2] ^= 1;
	}
	return checksum(s->ip, s->size, s->size, s->mask);
}

/*
 * The load-store references: iters passes of the active implementation's
 * loop without the shuffle (settle_bswap_touch_impl_fn()), in place
 * (which leaves the buffer as it was) or from the source to the
 * destination (poisoned first, as for the copies). A reference row, so
 * the runner does not check it; it returns the group's check value all
 * the same (the result seen in the source's byte order: in place, through
 * the buffer's masks; a copy, unswapped, as it is), so that the tests can.
 */
static uint64_t touch_passes(struct bswap_state *s, uint64_t iters,
			     size_t esz, int in_place)
{
	static const unsigned char none[3];
	settle_bswap_touch_fn fn =
		settle_bswap_touch_impl_fn(settle_bswap_active());
	size_t nb = s->size / esz * esz;
	unsigned char *dst = in_place ? s->ip : s->dst;
	const unsigned char *src = in_place ? s->ip : s->src;

	if (!in_place)
		poison(dst, nb);
	for (uint64_t i = 0; i < iters; i++) {
		unsigned char *d = dst;
		const unsigned char *p = src;

		settle_keep(d);
		settle_keep(p);
		fn(d, p, nb, esz);
	}
	settle_clobber_memory();
	if (in_place)
		return checksum(s->ip, s->size, s->size, s->mask);
	return checksum(s->dst, s->size, nb, none);
}

uint64_t settle_bswap_claim_passes(void *state, uint64_t iters,
				   settle_bswap_fn fn, unsigned elem_bits,
				   int in_place)
{
	if (elem_bits != 16 && elem_bits != 32 && elem_bits != 64)
		return 0;
	if (in_place)
		return inplace_passes(state, iters, fn, elem_bits / 8);
	return copy_passes(state, iters, fn, elem_bits / 8);
}

/* ---- variants ----------------------------------------------------------- */

static void memcpy16(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n * 2);
}

static void memcpy32(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n * 4);
}

static void memcpy64(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n * 8);
}

/* What a variant swaps with, and how: one of settle's implementations
 * (fn NULL) or a function of its own, on elements of esz bytes, in place
 * or a copy; touch: the load-store reference instead (touch_passes). */
struct kernel {
	settle_bswap_fn fn;
	enum settle_bswap_impl impl;
	unsigned esz;
	int in_place;
	int touch;
};

static uint64_t run_kernel(void *st, const void *arg, uint64_t iters)
{
	const struct kernel *k = arg;
	settle_bswap_fn fn = k->fn ? k->fn :
			     settle_bswap_impl_fn(k->impl, k->esz * 8);

	if (k->touch)
		return touch_passes(st, iters, k->esz, k->in_place);
	if (k->in_place)
		return inplace_passes(st, iters, fn, k->esz);
	return copy_passes(st, iters, fn, k->esz);
}

/* Unused in the generic build, which has no implementation that may be
 * unavailable. */
__attribute__((unused))
static const char *impl_unavailable(void *state, const void *arg)
{
	const struct kernel *k = arg;

	(void)state;
	if (settle_bswap_usable(k->impl))
		return NULL;
	switch (k->impl) {
	case SETTLE_BSWAP_SSSE3:
		return "CPU lacks SSSE3";
	case SETTLE_BSWAP_AVX2:
		return "CPU or OS lacks AVX2";
	case SETTLE_BSWAP_NEON:
		return "CPU lacks AdvSIMD";
	default:
		return "CPU or OS lacks AVX-512BW";
	}
}

#define KERNEL(name, impl, bits, ip, kind)				\
	static const struct kernel name##bits##_##kind = {		\
		NULL, SETTLE_BSWAP_##impl, bits / 8, ip, 0 };

/* The kernels and rows of this architecture's implementations (none in
 * the generic build). */
#if SETTLE_ARCH_X86_64
#define ARCH_KERNELS(bits, ip, kind)					\
	KERNEL(ssse3, SSSE3, bits, ip, kind)				\
	KERNEL(avx2, AVX2, bits, ip, kind)				\
	KERNEL(avx512, AVX512, bits, ip, kind)
#define ARCH_ROWS(bits, ip, kind)					\
	VARIANT("ssse3", ssse3##bits##_##kind, bits, ip,		\
		D_SSSE3_##kind, impl_unavailable, 0),			\
	VARIANT("avx2", avx2##bits##_##kind, bits, ip,			\
		D_AVX2_##kind, impl_unavailable, 0),			\
	VARIANT("avx512", avx512##bits##_##kind, bits, ip,		\
		D_AVX512_##kind, impl_unavailable, 0),
#elif SETTLE_ARCH_AARCH64
#define ARCH_KERNELS(bits, ip, kind)					\
	KERNEL(neon, NEON, bits, ip, kind)
#define ARCH_ROWS(bits, ip, kind)					\
	VARIANT("neon", neon##bits##_##kind, bits, ip,			\
		D_NEON_##kind, impl_unavailable, 0),
#else
#define ARCH_KERNELS(bits, ip, kind)
#define ARCH_ROWS(bits, ip, kind)
#endif

#define KERNELS(bits, ip, kind)						\
	KERNEL(scalar, SCALAR, bits, ip, kind)				\
	ARCH_KERNELS(bits, ip, kind)					\
	static const struct kernel auto##bits##_##kind = {		\
		settle_bswap##bits, SETTLE_BSWAP_SCALAR, bits / 8, ip, 0 };

KERNELS(16, 0, copy)
KERNELS(16, 1, inplace)
KERNELS(32, 0, copy)
KERNELS(32, 1, inplace)
KERNELS(64, 0, copy)
KERNELS(64, 1, inplace)
static const struct kernel memcpy16_copy = { memcpy16, 0, 2, 0, 0 };
static const struct kernel memcpy32_copy = { memcpy32, 0, 4, 0, 0 };
static const struct kernel memcpy64_copy = { memcpy64, 0, 8, 0, 0 };
static const struct kernel touch16_copy = { NULL, 0, 2, 0, 1 };
static const struct kernel touch32_copy = { NULL, 0, 4, 0, 1 };
static const struct kernel touch64_copy = { NULL, 0, 8, 0, 1 };
static const struct kernel touch16_inplace = { NULL, 0, 2, 1, 1 };
static const struct kernel touch32_inplace = { NULL, 0, 4, 1, 1 };
static const struct kernel touch64_inplace = { NULL, 0, 8, 1, 1 };

#define PARAMS(bits, ip, iplabel)					\
	static const struct settle_param params_##bits##_##ip[] = {	\
		{ "elem_bits", #bits, SETTLE_PARAM_INT, #bits "-bit" },	\
		{ "in_place", #ip, SETTLE_PARAM_BOOL, iplabel },	\
	}

PARAMS(16, false, "copy");
PARAMS(16, true, "in-place");
PARAMS(32, false, "copy");
PARAMS(32, true, "in-place");
PARAMS(64, false, "copy");
PARAMS(64, true, "in-place");

/* Descriptions for settle list, one per kind of row: a copy (dst != src)
 * and in place (dst == src, which never takes the non-temporal path). */
#define D_SCALAR_copy "one bswap per element, memcpy loads and stores"
#define D_SCALAR_inplace "one bswap per element, memcpy loads and stores " \
			 "back to the same place"
#define D_SSSE3_copy "PSHUFB, 16 bytes per instruction; non-temporal " \
		     "stores above the threshold (min(last-level cache, " \
		     "8 MiB))"
#define D_SSSE3_inplace "PSHUFB, 16 bytes per instruction; ordinary " \
			"stores at every size"
#define D_AVX2_copy "VPSHUFB on 256 bits, 4x unrolled; copies above " \
		    "the threshold with the SSSE3 loop's non-temporal " \
		    "stores (AMD family 19h: from 3/4 of the L1d with the " \
		    "SSSE3 loop)"
#define D_AVX2_inplace "VPSHUFB on 256 bits, 4x unrolled; 128 MiB or " \
		       "more with the SSSE3 loop; ordinary stores"
#define D_AVX512_copy "AVX-512BW VPSHUFB on 512 bits, masked head and " \
		      "tail; copies from 9/16 of the L1d with the AVX2 " \
		      "loop, above the threshold with the SSSE3 loop's " \
		      "non-temporal stores (AMD family 19h: from 3/4 of " \
		      "the L1d with the SSSE3 loop)"
#define D_AVX512_inplace "AVX-512BW VPSHUFB on 512 bits, masked head " \
			 "and tail; 128 MiB or more with the SSSE3 loop " \
			 "(AMD family 19h: 12 KiB to the L1d's size with " \
			 "the AVX2 loop); ordinary stores"
#define D_NEON_copy "AdvSIMD REV16/REV32/REV64, 16 bytes per " \
		    "instruction; non-temporal stores (STNP) above the " \
		    "threshold"
#define D_NEON_inplace "AdvSIMD REV16/REV32/REV64, 16 bytes per " \
		       "instruction; ordinary stores at every size"
#define D_AUTO_copy "settle_bswapNN: the implementation dispatched at " \
		    "run time"
#define D_AUTO_inplace "settle_bswapNN(buf, buf, n): the implementation " \
		       "dispatched at run time, in place"
#define D_MEMCPY "memcpy of the same bytes, unswapped: the copy's limit"
#define D_TOUCH_inplace "the dispatched kernel's in-place loop without " \
			"the shuffle: each vector loaded and stored back, " \
			"the in-place limit"
#define D_TOUCH_copy "the dispatched kernel's copy loop without the " \
		     "shuffle: the bytes moved its way (widths, direction, " \
		     "non-temporal stores), unswapped"

#define VARIANT(vname, fn, bits, ip, desc, unav, fl)			\
	{								\
		.name = vname,						\
		.description = desc,					\
		.run = run_kernel,					\
		.arg = &fn,						\
		.unavailable = unav,					\
		.flags = fl,						\
		.params = params_##bits##_##ip,				\
		.nparams = 2,						\
	}

#define GROUP(bits, ip, kind)						\
	VARIANT("scalar", scalar##bits##_##kind, bits, ip,		\
		D_SCALAR_##kind, NULL, 0),				\
	ARCH_ROWS(bits, ip, kind)					\
	VARIANT("auto", auto##bits##_##kind, bits, ip,			\
		D_AUTO_##kind, NULL, 0)

#define MEMCPY(bits)							\
	VARIANT("memcpy", memcpy##bits##_copy, bits, false,	\
		D_MEMCPY, NULL, SETTLE_REFERENCE)

#define TOUCH(bits, ip, kind)						\
	VARIANT("load-store", touch##bits##_##kind, bits, ip,		\
		D_TOUCH_##kind, NULL, SETTLE_REFERENCE)

static const struct settle_variant variants[] = {
	GROUP(16, false, copy), MEMCPY(16), TOUCH(16, false, copy),
	GROUP(16, true, inplace), TOUCH(16, true, inplace),
	GROUP(32, false, copy), MEMCPY(32), TOUCH(32, false, copy),
	GROUP(32, true, inplace), TOUCH(32, true, inplace),
	GROUP(64, false, copy), MEMCPY(64), TOUCH(64, false, copy),
	GROUP(64, true, inplace), TOUCH(64, true, inplace),
};

/* ---- set-up ------------------------------------------------------------- */

/* MemAvailable of /proc/meminfo in bytes; 0 if unknown. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kib = 0;
	char line[128];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

static void bswap_teardown(void *state)
{
	struct bswap_state *s = state;

	if (!s)
		return;
	settle_free(s->src);
	settle_free(s->dst);
	settle_free(s->ip);
	free(s);
}

static void *bswap_setup(const struct settle_params *prm, char *err,
			 size_t errlen)
{
	uint64_t avail = mem_available();
	struct bswap_state *s;
	char sz[32];
	size_t alloc;

	if (prm->size_bytes > SIZE_MAX / 4 ||
	    (avail && prm->size_bytes > avail / 10 * 3)) {
		snprintf(err, errlen, "bswap: size %s needs three buffers of "
			 "that size; not that much memory is available",
			 settle_format_size(prm->size_bytes, sz, sizeof(sz)));
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "bswap: out of memory");
		return NULL;
	}
	s->size = (size_t)prm->size_bytes;
	alloc = s->size ? (s->size + 63) / 64 * 64 : 64;
	/* placed by the layout being measured, each buffer at its own
	 * place (docs/layouts.md) */
	s->src = settle_alloc(prm, alloc, 64);
	s->dst = settle_alloc(prm, alloc, 64);
	s->ip = settle_alloc(prm, alloc, 64);
	if (!s->src || !s->dst || !s->ip) {
		snprintf(err, errlen, "bswap: cannot allocate 3 x %zu bytes",
			 alloc);
		bswap_teardown(s);
		return NULL;
	}
	settle_fill_random(s->src, s->size, 0xb5a9e11d1a5u);
	memcpy(s->ip, s->src, s->size);
	memset(s->dst, 0, alloc); /* fault the pages in before timing */
	return s;
}

/* ---- scale -------------------------------------------------------------- */

static size_t bswap_scale(const struct settle_result *r,
			  const struct settle_scale_ctx *ctx,
			  struct settle_figure *out, size_t max)
{
	double dev = ctx->device_mbps, mbps;
	char note[48];
	size_t n = 0;

	if (r->skipped || r->size_bytes != ctx->largest_size ||
	    !isfinite(r->bytes_per_ns) || r->bytes_per_ns <= 0)
		return 0;
	if (!isfinite(dev) || dev <= 0)
		dev = DEFAULT_DEVICE_MBPS;
	mbps = r->bytes_per_ns * 1e3; /* 10^9 bytes/s = 10^3 MB/s */
	snprintf(note, sizeof(note), "of a %g MB/s device", dev);
	if (n < max)
		settle_figure_set(&out[n++], "MB/s", "MB/s", mbps, "");
	if (n < max)
		settle_figure_set(&out[n++], "device share", "%", dev / mbps * 100, note);
	return n;
}

/* In the L1/L2 caches, and well beyond the last-level cache. */
static const uint64_t default_sizes[] = { 32ull << 10, 128ull << 20 };
/* --full adds the 1 GiB of the facts measured on the first machine
 * (docs/founding-experiments.md). */
static const uint64_t full_sizes[] = { 1ull << 30 };

static const char *const kinds[] = { "scalar", "ssse3", "avx2", "avx512",
				     "auto" };

/*
 * "16-bit copy avx2", or "16-bit copy avx2; not told apart from ssse3,
 * auto" when the intervals of other copies of that element size (each
 * against the scalar baseline) overlap its own: the run cannot tell which
 * of them is the fastest. Into buf; each such copy is a row out rests on
 * (by its ratio: its interval tied it).
 */
static void best_name(const struct settle_result *res, size_t n,
		      const struct settle_result *best, unsigned bits,
		      char *buf, size_t len, struct settle_conclusion *out)
{
	size_t used = (size_t)snprintf(buf, len, "%s", best->label);
	int ties = 0;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		const struct settle_result *r;
		char lb[64];

		snprintf(lb, sizeof(lb), "%u-bit copy %s", bits, kinds[k]);
		r = settle_result_find(res, n, lb, UINT64_MAX);
		if (!r || r == best || r->invalid[0] || !r->has_cmp ||
		    !best->has_cmp || used >= len ||
		    !settle_intervals_overlap(&r->cmp, &best->cmp))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 ties++ ? ", " : "; not told apart from ",
					 kinds[k]);
		settle_conclusion_row(out, r);
	}
}

/*
 * At the largest size, the fastest swapping copy of each element size as
 * a share of memcpy's throughput for the same bytes, and the copies this
 * run cannot tell from it. The share is memcpy's time over the fastest
 * copy's: both rows are taken by their own time (not by their ratio to
 * the scalar baseline), the tied copies by their ratio.
 */
static int bswap_conclude(const struct settle_result *res, size_t n,
			  const struct settle_conclude_ctx *ctx,
			  struct settle_conclusion *out)
{
	double share[3];
	char size[24], lb[64], name[24], who[3][100];
	const struct settle_result *best[3];

	(void)ctx;
	for (int e = 0; e < 3; e++) {
		unsigned bits = 16u << e;
		const struct settle_result *m;

		snprintf(lb, sizeof(lb), "%u-bit copy memcpy", bits);
		m = settle_result_find(res, n, lb, UINT64_MAX);
		best[e] = NULL;
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			const struct settle_result *r;

			snprintf(lb, sizeof(lb), "%u-bit copy %s", bits, kinds[k]);
			r = settle_result_find(res, n, lb, UINT64_MAX);
			if (r && !r->invalid[0] &&
			    (!best[e] || r->sum.median < best[e]->sum.median))
				best[e] = r;
		}
		if (!m || !best[e])
			return 0;
		share[e] = m->sum.median / best[e]->sum.median;
		snprintf(name, sizeof(name), "share_%u", bits);
		settle_conclusion_number(out, name, share[e], "x");
		settle_conclusion_row_time(out, best[e]);
		settle_conclusion_row_time(out, m);
		best_name(res, n, best[e], bits, who[e], sizeof(who[e]), out);
	}
	settle_format_size(best[0]->size_bytes, size, sizeof(size));
	snprintf(out->sentence, sizeof(out->sentence), "at %s the fastest "
		 "swapping copies reach %.2fx (%s), %.2fx (%s) and %.2fx (%s) "
		 "memcpy's throughput for the same bytes", size, share[0],
		 who[0], share[1], who[1], share[2], who[2]);
	return 1;
}

const struct settle_claim settle_claim_bswap = {
	.name = "bswap",
	.description = "bulk byte swap of arrays, the file-system's real "
		       "conversion",
	.title = "bswap: byte-swapping arrays of 16/32/64-bit elements",
	.op_name = "buffer",
	.variants = variants,
	.nvariants = sizeof(variants) / sizeof(variants[0]),
	.baseline = "scalar",
	.default_sizes = default_sizes,
	.ndefault_sizes = sizeof(default_sizes) / sizeof(default_sizes[0]),
	.full_sizes = full_sizes,
	.nfull_sizes = 1,
	.buffers = 3,
	.bytes_per_op = SETTLE_BYTES_SIZE,
	.original = "no posted figure; on a Sapphire Rapids guest, stand-alone "
		    "programs measured memcpy 40.9 B/ns at 32 KiB, 11.6 "
		    "at 1 GiB; AVX-512 shuffle 39 / 6.7, with non-temporal "
		    "stores 10.5 at 1 GiB",
	.check_iters = 1,
	.setup = bswap_setup,
	.teardown = bswap_teardown,
	.scale = bswap_scale,
	.conclude = bswap_conclude,
};
