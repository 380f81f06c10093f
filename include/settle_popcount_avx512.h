/*
 * settle_popcount_avx512.h - settle's AVX-512 population count as inline
 * code, for translation units compiled for AVX-512 (the compiler's own
 * flags, e.g. -march=native on a CPU with AVX512_VPOPCNTDQ, or -mavx512f
 * -mavx512bw -mavx512vl -mavx512vpopcntdq). Included by settle_bits.h;
 * elsewhere it defines nothing. GNU C (gcc, clang), any -std.
 *
 * The same code is the library's AVX-512 kernel
 * (src/arch/x86/popcount_avx512.c, which includes this header): a header
 * library's count is compiled into its caller, and at 64 bytes to 1 KiB a
 * call costs as much as the count (docs/primitives.md).
 *
 * Sources: Intel SDM vol. 2C, VPOPCNTD/VPOPCNTQ (the count of each 64-bit
 * lane) and vol. 1, 15.4 "Memory fault suppression" (a masked load reads
 * no masked-out byte, so the tail load touches only the buffer's bytes);
 * the AVX-512 row of Mula, Kurz, Lemire, "Faster Population Counts Using
 * AVX2 Instructions", The Computer Journal 61(1), 2018 (arXiv:1611.07612).
 */
#ifndef SETTLE_POPCOUNT_AVX512_H
#define SETTLE_POPCOUNT_AVX512_H

#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512BW__) && \
	defined(__AVX512VL__) && defined(__AVX512VPOPCNTDQ__)
#define SETTLE_POPCOUNT_AVX512_INLINE 1

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

/* clang -pedantic: GNU extern inline functions may call the intrinsics,
 * which are static (C99 6.7.4p3 forbids it of a C99 inline definition;
 * GNU C's inlines are not those) */
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wstatic-in-inline"
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* Every function here is inlined, always, and never emitted (GNU C's
 * extern inline, as the compiler's own intrinsics are), so that an inline
 * definition elsewhere may use them. */
#define SETTLE_PC512_INLINE \
	extern __inline__ __attribute__((__gnu_inline__, __always_inline__))

/* Bytes per vector; from SETTLE_PC512_PROLOGUE_MIN bytes a buffer that
 * does not start on a 64-byte boundary, and from SETTLE_PC512_STREAM_MIN
 * bytes every buffer, is counted out of line by the library's kernel. */
#define SETTLE_PC512_VEC 64
#define SETTLE_PC512_PROLOGUE_MIN 2048
#define SETTLE_PC512_STREAM_MIN (16u << 20)

/*
 * The library's AVX-512 kernel: settle_popcount() where it chooses
 * AVX-512, any length and alignment (0 .. 8 * len bits). Needs AVX512F,
 * AVX512BW, AVX512VL and AVX512_VPOPCNTDQ with the OS's opmask and ZMM
 * state (SIGILL without).
 */
uint64_t settle_popcount_kernel_avx512(const void *buf, size_t len);

/* Lane counts of the 64 bytes at p. */
SETTLE_PC512_INLINE __m512i settle_pc512_at(const unsigned char *p)
{
	return _mm512_popcnt_epi64(_mm512_loadu_si512((const void *)p));
}

/* Lane counts of the bytes of the vector at p selected by k. */
SETTLE_PC512_INLINE __m512i
settle_pc512_masked(const unsigned char *p, __mmask64 k)
{
	return _mm512_popcnt_epi64(_mm512_maskz_loadu_epi8(k, (const void *)p));
}

/*
 * The sum of the eight lanes. In C++ by halves, quarters and the two
 * lanes left through GNU vectors, as _mm512_reduce_add_epi64() does:
 * g++ 12 -O2 -Wall warns of that intrinsic (its halves are taken through
 * an undefined vector).
 */
#ifdef __cplusplus
__extension__ typedef long long settle_pc512_v8 __attribute__((__vector_size__(64)));
__extension__ typedef long long settle_pc512_v4 __attribute__((__vector_size__(32)));
__extension__ typedef long long settle_pc512_v2 __attribute__((__vector_size__(16)));

SETTLE_PC512_INLINE uint64_t settle_pc512_sum(__m512i v)
{
	settle_pc512_v8 w = (settle_pc512_v8)v;
	settle_pc512_v4 q = __builtin_shufflevector(w, w, 0, 1, 2, 3) +
			    __builtin_shufflevector(w, w, 4, 5, 6, 7);
	settle_pc512_v2 h = __builtin_shufflevector(q, q, 0, 1) +
			    __builtin_shufflevector(q, q, 2, 3);

	return (uint64_t)(h[0] + h[1]);
}
#else
SETTLE_PC512_INLINE uint64_t settle_pc512_sum(__m512i v)
{
	return (uint64_t)_mm512_reduce_add_epi64(v);
}
#endif

/*
 * The count of p[0..len) plus the lanes of a: four vectors per step, each
 * count added into its own accumulator; then the fewer than 256 bytes
 * left without a loop: up to three whole vectors, then one byte-masked
 * load of the fewer than 64 bytes after them. The lanes' sum: no lane
 * comes near 2^63.
 */
SETTLE_PC512_INLINE uint64_t
settle_pc512_from(const unsigned char *p, size_t len, __m512i a)
{
	__m512i b = _mm512_setzero_si512(), c = b, d = b;
	size_t n, tail;

	/* counted in steps, the pointer moving: with an index compared with
	 * len, gcc's generic tuning kept a copy of the index in the loop for
	 * the code after it, and the library's kernel read 32 KiB 3-4 %
	 * slower than the same loop compiled for the CPU (Zen 5 guest,
	 * docs/primitives.md) */
	for (n = len / (4 * SETTLE_PC512_VEC); n; n--) {
		__m512i w = settle_pc512_at(p);
		__m512i x = settle_pc512_at(p + SETTLE_PC512_VEC);
		__m512i y = settle_pc512_at(p + 2 * SETTLE_PC512_VEC);
		__m512i z = settle_pc512_at(p + 3 * SETTLE_PC512_VEC);

		a = _mm512_add_epi64(w, a);
		b = _mm512_add_epi64(x, b);
		c = _mm512_add_epi64(y, c);
		d = _mm512_add_epi64(z, d);
		p += 4 * SETTLE_PC512_VEC;
	}
	len &= 4 * SETTLE_PC512_VEC - 1;
	a = _mm512_add_epi64(a, c);
	b = _mm512_add_epi64(b, d);
	if (len >= SETTLE_PC512_VEC) {
		__m512i r = settle_pc512_at(p);

		if (len >= 2 * SETTLE_PC512_VEC)
			r = _mm512_add_epi64(r, settle_pc512_at(p + SETTLE_PC512_VEC));
		if (len >= 3 * SETTLE_PC512_VEC)
			r = _mm512_add_epi64(r, settle_pc512_at(p + 2 * SETTLE_PC512_VEC));
		a = _mm512_add_epi64(a, r);
	}
	tail = len & (SETTLE_PC512_VEC - 1);
	if (tail)
		b = _mm512_add_epi64(b, settle_pc512_masked(p + (len - tail),
						(__extension__ 1ull << tail) - 1));
	return settle_pc512_sum(_mm512_add_epi64(a, b));
}

/*
 * The count of the len <= 64 bytes at p: one byte-masked load, no loop
 * and none of settle_pc512_from()'s branches after it.
 */
SETTLE_PC512_INLINE uint64_t settle_pc512_one(const unsigned char *p, size_t len)
{
	__mmask64 k = len == SETTLE_PC512_VEC ? (__extension__ ~0ull) :
		      (__extension__ 1ull << len) - 1;

	return settle_pc512_sum(settle_pc512_masked(p, k));
}

/*
 * The out-of-line cases: a buffer of SETTLE_PC512_STREAM_MIN bytes or
 * more, or of SETTLE_PC512_PROLOGUE_MIN bytes or more that does not start
 * on a 64-byte boundary. Each test is a branch of its own, not taken for
 * aligned buffers: the two combined without a branch (SETcc into byte
 * registers, then AND and OR, one branch) made every call of 32 KiB 9 %
 * slower on the Zen 5 guest (settle run, 3 processes, 4 layouts;
 * docs/primitives.md).
 */
SETTLE_PC512_INLINE int settle_pc512_out_of_line(const void *buf, size_t len)
{
	if (__builtin_expect(len >= SETTLE_PC512_STREAM_MIN, 0))
		return 1;
	if (len < SETTLE_PC512_PROLOGUE_MIN)
		return 0;
	return __builtin_expect(((uintptr_t)buf & (SETTLE_PC512_VEC - 1)) != 0,
				0) != 0;
}

/*
 * The number of set bits in the len bytes at buf (0 .. 8 * len), with
 * settle's AVX-512 kernel compiled into the caller (always inlined). The
 * length is tested first: below SETTLE_PC512_PROLOGUE_MIN bytes, however
 * aligned, 64 bytes or less as one masked load (settle_pc512_one()), more
 * straight into the loop, which then has at most seven steps
 * (gcc -O3 unrolls them completely; at -O2 it stays a loop); from there,
 * aligned buffers below SETTLE_PC512_STREAM_MIN bytes run the same loop
 * behind the out-of-line test, and the rest go to
 * settle_popcount_kernel_avx512(). No dispatch: like the build it is
 * compiled in, it raises SIGILL on a CPU without AVX512_VPOPCNTDQ. Never
 * fails.
 */
SETTLE_PC512_INLINE uint64_t
settle_popcount_avx512_inline(const void *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf;

	if (__builtin_expect(len >= SETTLE_PC512_PROLOGUE_MIN, 0)) {
		if (settle_pc512_out_of_line(buf, len))
			return settle_popcount_kernel_avx512(buf, len);
		return settle_pc512_from(p, len, _mm512_setzero_si512());
	}
	if (len <= SETTLE_PC512_VEC)
		return settle_pc512_one(p, len);
	/* the same call on purpose: here the bound is known */
	return settle_pc512_from(p, len, _mm512_setzero_si512());
}

#ifdef __cplusplus
}
#endif
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
#endif /* AVX-512 */
#endif
