/*
 * popcount-csa-peers.c - AVX-512 popcount: one VPOPCNTQ per vector, or a
 * carry-save stage of ternary-logic operations (VPTERNLOGQ) first, so
 * that fewer vectors are counted? Each loop against settle_popcount().
 *
 *   settle run examples/popcount-csa-peers.c --build "cc -O3 -march=native"
 *
 * Needs a CPU and a build with AVX512F and AVX512_VPOPCNTDQ (e.g.
 * -march=native on such a CPU); elsewhere every size is refused with a
 * message. Sizes: multiples of 512 bytes.
 *
 * A carry-save adder takes three vectors and gives their bitwise sum
 * (XOR of the three: VPTERNLOGQ with truth table 0x96) and carry
 * (majority: table 0xe8), so two ternary-logic operations replace one
 * count and one add. Whether that wins depends on which ports run
 * VPOPCNTQ, VPTERNLOGQ and VPADDQ. Loops (all aligned 512-bit loads):
 *   vpopcnt4  four vectors a step, each count into its own accumulator
 *             (the loop of settle's AVX-512 kernel)
 *   vpopcnt8  the same with eight vectors and eight accumulators
 *   csa3      six vectors a step as two full adders of three: four
 *             counts (two sums, two carries counted twice)
 *   hs8       Harley-Seal over eight vectors a step: ones, twos and
 *             fours kept across steps, one count (of the eights) a step
 *   mixed     a KiB a step: 15 vectors by VPOPCNTQ, the 16th's eight
 *             words by scalar POPCNT, which runs on a port the 512-bit
 *             operations leave free on Intel cores (settle's AVX2 path
 *             gains 5-10 % this way)
 * Sources: Harley-Seal: H. S. Warren, Hacker's Delight, 2nd ed., 5-1;
 * with AVX-512 ternary logic: Mula, Kurz, Lemire, "Faster Population
 * Counts Using AVX2 Instructions", The Computer Journal 61(1), 2018
 * (arXiv:1611.07612); VPTERNLOGQ and VPOPCNTQ: Intel SDM vol. 2C.
 *
 * settle checks that every loop returns the count settle_popcount()
 * returns for the same buffer, so a wrong loop stops the run.
 */
#include <stdlib.h>
#include <settle.h>
#include <settle_bits.h>

#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__)
#define HAVE_VPOPCNTQ 1
#include <immintrin.h>
#endif

static const uint64_t sizes[] = { 1 << 10, 32 << 10, 1 << 20 };

struct buf {
	unsigned char *p; /* 64-byte aligned */
	size_t len;       /* bytes, a multiple of 512 */
};

/* Can this build and this CPU run the loops? NULL if so, else why not. */
static const char *unsupported(void)
{
#ifdef HAVE_VPOPCNTQ
	if (!__builtin_cpu_supports("avx512vpopcntdq"))
		return "this CPU has no AVX512_VPOPCNTDQ";
	return NULL;
#else
	return "built without AVX512_VPOPCNTDQ: build with -march=native "
	       "on a CPU that has it";
#endif
}

static void *setup(const struct settle_params *prm, char *err, size_t n)
{
	const char *why = unsupported();
	struct buf *b;

	if (why) {
		snprintf(err, n, "%s", why);
		return NULL;
	}
	if (!prm->size_bytes || prm->size_bytes % 512) {
		snprintf(err, n, "size must be a multiple of 512 bytes");
		return NULL;
	}
	b = malloc(sizeof(*b));
	if (!b) {
		snprintf(err, n, "out of memory");
		return NULL;
	}
	b->len = prm->size_bytes;
	/* settle_alloc: placed by the layout (settle run --layouts) */
	b->p = settle_alloc(prm, b->len, 64);
	if (!b->p) {
		snprintf(err, n, "out of memory");
		free(b);
		return NULL;
	}
	settle_fill_random(b->p, b->len, 42);
	return b;
}

static void teardown(void *state)
{
	struct buf *b = state;

	settle_free(b->p);
	free(b);
}

/* The baseline: the dispatched count, one call per pass. */
static uint64_t run_settle(void *state, const void *arg, uint64_t iters)
{
	struct buf *b = state;
	uint64_t r = 0;

	(void)arg;
	while (iters--) {
		r = settle_popcount(b->p, b->len);
		settle_keep(r);
	}
	return r;
}

#ifdef HAVE_VPOPCNTQ
#define LOAD(p, o) _mm512_load_si512((const void *)((p) + (o)))
#define COUNT(v) _mm512_popcnt_epi64(v)
#define ADD(a, b) _mm512_add_epi64(a, b)
#define XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define MAJ3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0xe8)

static inline uint64_t sum(__m512i v)
{
	return (uint64_t)_mm512_reduce_add_epi64(v);
}

static inline uint64_t count_vpopcnt4(const unsigned char *p, size_t len)
{
	__m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;

	for (size_t i = 0; i < len; i += 256, p += 256) {
		a = ADD(a, COUNT(LOAD(p, 0)));
		b = ADD(b, COUNT(LOAD(p, 64)));
		c = ADD(c, COUNT(LOAD(p, 128)));
		d = ADD(d, COUNT(LOAD(p, 192)));
	}
	return sum(ADD(ADD(a, b), ADD(c, d)));
}

static inline uint64_t count_vpopcnt8(const unsigned char *p, size_t len)
{
	__m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
	__m512i e = a, f = a, g = a, h = a;

	for (size_t i = 0; i < len; i += 512, p += 512) {
		a = ADD(a, COUNT(LOAD(p, 0)));
		b = ADD(b, COUNT(LOAD(p, 64)));
		c = ADD(c, COUNT(LOAD(p, 128)));
		d = ADD(d, COUNT(LOAD(p, 192)));
		e = ADD(e, COUNT(LOAD(p, 256)));
		f = ADD(f, COUNT(LOAD(p, 320)));
		g = ADD(g, COUNT(LOAD(p, 384)));
		h = ADD(h, COUNT(LOAD(p, 448)));
	}
	return sum(ADD(ADD(ADD(a, b), ADD(c, d)), ADD(ADD(e, f), ADD(g, h))));
}

/* Two full adders of three vectors a step; the vectors left (fewer
 * than six) counted one by one. */
static inline uint64_t count_csa3(const unsigned char *p, size_t len)
{
	__m512i ones = _mm512_setzero_si512(), twos = ones;
	__m512i ones2 = ones, twos2 = ones;
	size_t i = 0;

	for (; i + 384 <= len; i += 384, p += 384) {
		__m512i a = LOAD(p, 0), b = LOAD(p, 64), c = LOAD(p, 128);
		__m512i d = LOAD(p, 192), e = LOAD(p, 256), f = LOAD(p, 320);

		ones = ADD(ones, COUNT(XOR3(a, b, c)));
		twos = ADD(twos, COUNT(MAJ3(a, b, c)));
		ones2 = ADD(ones2, COUNT(XOR3(d, e, f)));
		twos2 = ADD(twos2, COUNT(MAJ3(d, e, f)));
	}
	for (; i < len; i += 64, p += 64)
		ones = ADD(ones, COUNT(LOAD(p, 0)));
	return sum(ADD(ones, ones2)) + 2 * sum(ADD(twos, twos2));
}

/* Carry-save adder: l, h = sum and carry of a, b, c. */
#define CSA(h, l, a, b, c)						\
	do {								\
		__m512i a_ = (a), b_ = (b), c_ = (c);			\
		(l) = XOR3(a_, b_, c_);					\
		(h) = MAJ3(a_, b_, c_);					\
	} while (0)

static inline uint64_t count_hs8(const unsigned char *p, size_t len)
{
	__m512i ones = _mm512_setzero_si512(), twos = ones, fours = ones;
	__m512i eights_total = ones;
	__m512i twos_a, twos_b, fours_a, fours_b, eights;

	for (size_t i = 0; i < len; i += 512, p += 512) {
		CSA(twos_a, ones, ones, LOAD(p, 0), LOAD(p, 64));
		CSA(twos_b, ones, ones, LOAD(p, 128), LOAD(p, 192));
		CSA(fours_a, twos, twos, twos_a, twos_b);
		CSA(twos_a, ones, ones, LOAD(p, 256), LOAD(p, 320));
		CSA(twos_b, ones, ones, LOAD(p, 384), LOAD(p, 448));
		CSA(fours_b, twos, twos, twos_a, twos_b);
		CSA(eights, fours, fours, fours_a, fours_b);
		eights_total = ADD(eights_total, COUNT(eights));
	}
	return 8 * sum(eights_total) + 4 * sum(COUNT(fours)) +
	       2 * sum(COUNT(twos)) + sum(COUNT(ones));
}

/* 15 vectors counted by VPOPCNTQ, 8 words by POPCNT, a KiB a step;
 * what is left (fewer than 16 vectors) counted one vector at a time. */
static inline uint64_t count_mixed(const unsigned char *p, size_t len)
{
	__m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
	uint64_t s0 = 0, s1 = 0;
	size_t i = 0;

	for (; i + 1024 <= len; i += 1024, p += 1024) {
		const uint64_t *w = (const uint64_t *)(p + 960);

		for (int k = 0; k < 12; k += 4) {
			a = ADD(a, COUNT(LOAD(p, 64 * k)));
			b = ADD(b, COUNT(LOAD(p, 64 * k + 64)));
			c = ADD(c, COUNT(LOAD(p, 64 * k + 128)));
			d = ADD(d, COUNT(LOAD(p, 64 * k + 192)));
		}
		a = ADD(a, COUNT(LOAD(p, 768)));
		b = ADD(b, COUNT(LOAD(p, 832)));
		c = ADD(c, COUNT(LOAD(p, 896)));
		for (int k = 0; k < 8; k += 2) {
			s0 += (uint64_t)__builtin_popcountll(w[k]);
			s1 += (uint64_t)__builtin_popcountll(w[k + 1]);
		}
	}
	for (; i < len; i += 64, p += 64)
		a = ADD(a, COUNT(LOAD(p, 0)));
	return sum(ADD(ADD(a, b), ADD(c, d))) + s0 + s1;
}

/* The pointer goes through an empty asm each pass, so the compiler cannot
 * hoist the count out of the loop or merge passes. */
#define RUN(name, count)						\
static uint64_t name(void *state, const void *arg, uint64_t iters)	\
{									\
	struct buf *b = state;						\
	uint64_t r = 0;							\
									\
	(void)arg;							\
	while (iters--) {						\
		const unsigned char *p = b->p;				\
									\
		__asm__ __volatile__("" : "+r"(p));			\
		r = count(p, b->len);					\
		settle_keep(r);						\
	}								\
	return r;							\
}

RUN(run_vpopcnt4, count_vpopcnt4)
RUN(run_vpopcnt8, count_vpopcnt8)
RUN(run_csa3, count_csa3)
RUN(run_hs8, count_hs8)
RUN(run_mixed, count_mixed)
#endif /* HAVE_VPOPCNTQ */

static const struct settle_variant variants[] = {
	{ .name = "settle", .run = run_settle,
	  .description = "settle_popcount(), dispatched" },
#ifdef HAVE_VPOPCNTQ
	{ .name = "vpopcnt4", .run = run_vpopcnt4,
	  .description = "VPOPCNTQ each vector, 4 accumulators" },
	{ .name = "vpopcnt8", .run = run_vpopcnt8,
	  .description = "VPOPCNTQ each vector, 8 accumulators" },
	{ .name = "csa3", .run = run_csa3,
	  .description = "full adders of 3 vectors (VPTERNLOGQ), 4 counts "
			 "per 6 vectors" },
	{ .name = "hs8", .run = run_hs8,
	  .description = "Harley-Seal over 8 vectors (VPTERNLOGQ), 1 count "
			 "per 8 vectors" },
	{ .name = "mixed", .run = run_mixed,
	  .description = "VPOPCNTQ for 15 vectors, POPCNT for 8 words, "
			 "per KiB" },
#endif
};

static const struct settle_claim claim = {
	.name = "popcount-csa-peers",
	.title = "AVX-512 popcount: VPOPCNTQ per vector or a carry-save stage",
	.op_name = "count",
	.variants = variants,
	.nvariants = sizeof(variants) / sizeof(variants[0]),
	.baseline = "settle",
	.default_sizes = sizes,
	.ndefault_sizes = sizeof(sizes) / sizeof(sizes[0]),
	.bytes_per_op = SETTLE_BYTES_SIZE,
	.setup = setup,
	.teardown = teardown,
};

SETTLE_CLAIMS(&claim);
