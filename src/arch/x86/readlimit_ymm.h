/*
 * readlimit_ymm.h - the read limit's 256-bit loop (VMOVDQA, VPADDQ: Intel
 * SDM vol. 2), shared by the avx2 kernel and the avx512 kernel's short
 * buffers (see src/prim/readlimit.h). Included only by files compiled
 * with AVX2 (readlimit_avx2.c, readlimit_avx512.c).
 */
#ifndef SETTLE_READLIMIT_YMM_H
#define SETTLE_READLIMIT_YMM_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

/* The 32 aligned bytes at p. */
static inline __m256i settle_rl_ymm_load(const unsigned char *p)
{
	return _mm256_load_si256((const __m256i *)p);
}

/*
 * n steps of eight aligned vectors (256 bytes) from p, two into each of
 * the accumulators a[0..3]: one addition per load, so the loop is bound
 * by the loads.
 */
static inline __attribute__((always_inline)) void
settle_rl_ymm_steps(const unsigned char *p, size_t n, __m256i a[4])
{
	for (; n; n--, p += 256) {
		a[0] = _mm256_add_epi64(a[0], settle_rl_ymm_load(p));
		a[1] = _mm256_add_epi64(a[1], settle_rl_ymm_load(p + 32));
		a[2] = _mm256_add_epi64(a[2], settle_rl_ymm_load(p + 64));
		a[3] = _mm256_add_epi64(a[3], settle_rl_ymm_load(p + 96));
		a[0] = _mm256_add_epi64(a[0], settle_rl_ymm_load(p + 128));
		a[1] = _mm256_add_epi64(a[1], settle_rl_ymm_load(p + 160));
		a[2] = _mm256_add_epi64(a[2], settle_rl_ymm_load(p + 192));
		a[3] = _mm256_add_epi64(a[3], settle_rl_ymm_load(p + 224));
	}
}

/*
 * passes passes of n steps over the aligned buffer at buf, into
 * a[0..3]: the pass loop of a buffer of whole steps only, written out so
 * that a pass runs nothing but the steps, a pointer reset and a count.
 * Compiled from C with -falign-loops=64 (the Makefile's KERNEL_ALIGN),
 * gcc put 45 bytes of NOPs between the pass loop's head and the steps,
 * run in every pass: on the AMD Zen 4 guest that build read 1 KiB and
 * 32 KiB 3-4 % slower than the same C code without them (a scratch
 * claim, 3 processes, 2 layouts, 2026-12-04). The pointer moves after a
 * step's second load, as gcc placed it.
 */
static inline __attribute__((always_inline)) void
settle_rl_ymm_passes(const unsigned char *buf, size_t n, uint64_t passes,
		     __m256i a[4])
{
	const unsigned char *p, *end = buf + n * 256;

	if (!passes || !n)
		return;
	__asm__(".p2align 6\n"
		"2:\n\t"
		"mov %[buf], %[p]\n"
		"1:\n\t"
		"vpaddq (%[p]), %[a0], %[a0]\n\t"
		"vpaddq 32(%[p]), %[a1], %[a1]\n\t"
		"add $256, %[p]\n\t"
		"vpaddq -192(%[p]), %[a2], %[a2]\n\t"
		"vpaddq -160(%[p]), %[a3], %[a3]\n\t"
		"vpaddq -128(%[p]), %[a0], %[a0]\n\t"
		"vpaddq -96(%[p]), %[a1], %[a1]\n\t"
		"vpaddq -64(%[p]), %[a2], %[a2]\n\t"
		"vpaddq -32(%[p]), %[a3], %[a3]\n\t"
		"cmp %[end], %[p]\n\t"
		"jne 1b\n\t"
		"sub $1, %[passes]\n\t"
		"jne 2b"
		: [p] "=&r"(p), [passes] "+r"(passes), [a0] "+x"(a[0]),
		  [a1] "+x"(a[1]), [a2] "+x"(a[2]), [a3] "+x"(a[3])
		: [buf] "r"(buf), [end] "r"(end)
		: "cc", "memory");
}

/*
 * vecs (0-7) aligned vectors from p, after the steps: spread over the
 * accumulators, so that no accumulator takes more than two of them (one
 * chain of seven dependent additions took 7 cycles a pass).
 */
static inline __attribute__((always_inline)) void
settle_rl_ymm_rest(const unsigned char *p, size_t vecs, __m256i a[4])
{
	if (vecs & 4) {
		a[0] = _mm256_add_epi64(a[0], settle_rl_ymm_load(p));
		a[1] = _mm256_add_epi64(a[1], settle_rl_ymm_load(p + 32));
		a[2] = _mm256_add_epi64(a[2], settle_rl_ymm_load(p + 64));
		a[3] = _mm256_add_epi64(a[3], settle_rl_ymm_load(p + 96));
		p += 128;
	}
	if (vecs & 2) {
		a[0] = _mm256_add_epi64(a[0], settle_rl_ymm_load(p));
		a[1] = _mm256_add_epi64(a[1], settle_rl_ymm_load(p + 32));
		p += 64;
	}
	if (vecs & 1)
		a[2] = _mm256_add_epi64(a[2], settle_rl_ymm_load(p));
}

/* The sum, modulo 2^64, of the 64-bit lanes of a[0..3]. */
static inline uint64_t settle_rl_ymm_sum(const __m256i a[4])
{
	__m256i v = _mm256_add_epi64(_mm256_add_epi64(a[0], a[1]),
				     _mm256_add_epi64(a[2], a[3]));
	__m128i h = _mm_add_epi64(_mm256_castsi256_si128(v),
				  _mm256_extracti128_si256(v, 1));

	h = _mm_add_epi64(h, _mm_unpackhi_epi64(h, h));
	return (uint64_t)_mm_cvtsi128_si64(h);
}

#endif
