/*
 * readlimit_ymm.h - the read limit's 256-bit kernel (VMOVDQA, VPADDQ:
 * Intel SDM vol. 2), shared by the avx2 kernel and the avx512 kernel's
 * short buffers (see src/prim/readlimit.h). Included only by files
 * compiled with AVX2 (readlimit_avx2.c, readlimit_avx512.c); where
 * AVX512BW and AVX512VL are compiled in too (readlimit_avx512.c) the head
 * and the tail are one byte-masked load each, else scalar loads
 * (src/prim/readlimit_span.h).
 */
#ifndef SETTLE_READLIMIT_YMM_H
#define SETTLE_READLIMIT_YMM_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "prim/readlimit.h"
#include "prim/readlimit_span.h"

#if defined(__AVX512BW__) && defined(__AVX512VL__)
#define SETTLE_RL_YMM_MASKED 1
#else
#define SETTLE_RL_YMM_MASKED 0
#endif

/* The 32 aligned bytes at p. */
SETTLE_RL_INLINE __m256i settle_rl_ymm_load(const unsigned char *p)
{
	return _mm256_load_si256((const __m256i *)p);
}

/*
 * One step of eight aligned vectors (256 bytes) at %[p], two into each of
 * %[a0]..%[a3], as assembly text: one addition per load, so the loop is
 * bound by the loads. The pointer moves after the second load, as gcc
 * placed it. Written out (here and in the loops below) because gcc, built
 * with -falign-loops=64 (the Makefile's KERNEL_ALIGN), put up to 45 bytes
 * of NOPs before its own loop, inside the pass loop, so every pass ran
 * them, and in the loop with edges added register copies of the
 * accumulators: on the AMD Zen 4 guest 288 B then took 2.4 ns with the
 * avx512 kernel's masked edges against 1.6 ns in the avx2 kernel's copy
 * of the same C code (a scratch claim, 3 processes, 2026-12-04).
 */
#define SETTLE_RL_YMM_STEP						\
	"vpaddq (%[p]), %[a0], %[a0]\n\t"				\
	"vpaddq 32(%[p]), %[a1], %[a1]\n\t"				\
	"add $256, %[p]\n\t"						\
	"vpaddq -192(%[p]), %[a2], %[a2]\n\t"				\
	"vpaddq -160(%[p]), %[a3], %[a3]\n\t"				\
	"vpaddq -128(%[p]), %[a0], %[a0]\n\t"				\
	"vpaddq -96(%[p]), %[a1], %[a1]\n\t"				\
	"vpaddq -64(%[p]), %[a2], %[a2]\n\t"				\
	"vpaddq -32(%[p]), %[a3], %[a3]\n\t"

/* n steps of SETTLE_RL_YMM_STEP from p into a[0..3]. */
SETTLE_RL_INLINE void
settle_rl_ymm_steps(const unsigned char *p, size_t n, __m256i a[4])
{
	const unsigned char *end = p + n * 256;

	if (!n)
		return;
	__asm__("1:\n\t"
		SETTLE_RL_YMM_STEP
		"cmp %[end], %[p]\n\t"
		"jne 1b"
		: [p] "+r"(p), [a0] "+x"(a[0]), [a1] "+x"(a[1]),
		  [a2] "+x"(a[2]), [a3] "+x"(a[3])
		: [end] "r"(end)
		: "cc", "memory");
}

/*
 * passes passes of n steps over the aligned buffer at buf, into
 * a[0..3]: the pass loop of a buffer of whole steps only, written out so
 * that a pass runs nothing but the steps, a pointer reset and a count.
 * With gcc's loops and their NOPs in every pass, the library's copy read
 * 1 KiB and 32 KiB 3-4 % slower than the same C code built without
 * -falign-loops=64 (Zen 4 guest, a scratch claim, 3 processes, 2
 * layouts, 2026-12-04).
 */
SETTLE_RL_INLINE void
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
		SETTLE_RL_YMM_STEP
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
SETTLE_RL_INLINE void
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


/*
 * The edges of a buffer for settle_rl_ymm_read(): the head (the bytes
 * before the first 32-byte boundary, off = buf mod 32) and the tail
 * (after the last whole vector), each read with one byte-masked load of
 * the aligned 32 bytes that hold it (VMOVDQU8 with a zeroing mask reads
 * no masked-out byte and takes no fault on it: Intel SDM vol. 1, 15.4),
 * or with scalar loads.
 */
struct settle_rl_ymm_edges {
#if SETTLE_RL_YMM_MASKED
	__mmask32 head, tail; /* the bytes to load */
	size_t off;
#else
	struct settle_rl_edges span;
#endif
};

/* The edges of the len bytes at buf, head bytes of them before the first
 * 32-byte boundary and tail after the last whole vector. */
static inline struct settle_rl_ymm_edges
settle_rl_ymm_edges_of(const unsigned char *buf, size_t len, size_t head,
		       size_t tail)
{
	struct settle_rl_ymm_edges e;

#if SETTLE_RL_YMM_MASKED
	(void)len;
	e.off = (uintptr_t)buf & 31;
	e.head = head ? (__mmask32)((0xffffffffu >> (32 - head)) << e.off) : 0;
	e.tail = tail ? (__mmask32)(0xffffffffu >> (32 - tail)) : 0;
#else
	e.span = settle_rl_edges_plan(buf, len, head, tail);
#endif
	return e;
}

/* Read the head at p (the buffer's start) into a[3], or into *s. */
SETTLE_RL_INLINE void settle_rl_ymm_head(const unsigned char *p,
					const struct settle_rl_ymm_edges *e,
					__m256i a[4], uint64_t *s)
{
#if SETTLE_RL_YMM_MASKED
	(void)s;
	a[3] = _mm256_add_epi64(a[3],
				_mm256_maskz_loadu_epi8(e->head, p - e->off));
#else
	(void)a;
	*s += settle_rl_span_read(p, &e->span.head);
#endif
}

/* Read the tail at p (32-byte aligned) into a[2], or into *s. */
SETTLE_RL_INLINE void settle_rl_ymm_tail(const unsigned char *p,
					const struct settle_rl_ymm_edges *e,
					__m256i a[4], uint64_t *s)
{
#if SETTLE_RL_YMM_MASKED
	(void)s;
	a[2] = _mm256_add_epi64(a[2], _mm256_maskz_loadu_epi8(e->tail, p));
#else
	(void)a;
	*s += settle_rl_span_read(p, &e->span.tail);
#endif
}

/*
 * passes passes over the len bytes at buf with 256-bit loads: the head,
 * n steps of eight vectors, the vectors left (settle_rl_ymm_rest()), the
 * tail. The split and the edges are worked out once; a buffer of whole
 * steps runs settle_rl_ymm_passes(). Returns the sum, modulo 2^64, of
 * the passes' aligned-word sums (readlimit.h).
 */
SETTLE_RL_INLINE uint64_t
settle_rl_ymm_read(const void *buf, size_t len, uint64_t passes)
{
	size_t head = (size_t)(-(uintptr_t)buf & 31);
	size_t n, vecs, tail;
	struct settle_rl_ymm_edges e;
	__m256i a[4];
	uint64_t s = 0;

	a[0] = a[1] = a[2] = a[3] = _mm256_setzero_si256();
	if (head > len)
		head = len;
	n = (len - head) / 256;
	vecs = (len - head) % 256 / 32;
	tail = (len - head) % 32;
	if (!head && !vecs && !tail) {
		/* whole steps only: nothing else in a pass */
		settle_rl_ymm_passes(buf, n, passes, a);
		return settle_rl_ymm_sum(a);
	}
	e = settle_rl_ymm_edges_of(buf, len, head, tail);
	while (passes--) {
		const unsigned char *p = buf;

		SETTLE_READ_LIMIT_LAUNDER(p);
		if (head)
			settle_rl_ymm_head(p, &e, a, &s);
		p += head;
		settle_rl_ymm_steps(p, n, a);
		p += n * 256;
		settle_rl_ymm_rest(p, vecs, a);
		p += vecs * 32;
		if (tail)
			settle_rl_ymm_tail(p, &e, a, &s);
	}
	return s + settle_rl_ymm_sum(a);
}

#endif
