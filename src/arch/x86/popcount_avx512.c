/*
 * popcount_avx512.c - population count over 512-bit vectors with
 * VPOPCNTQ (AVX512_VPOPCNTDQ).
 *
 * Sources: Intel SDM vol. 2C, VPOPCNTD/VPOPCNTQ (the count of each 64-bit
 * lane) and vol. 1, 15.4 "Memory fault suppression" (a masked load reads
 * no masked-out byte, so the tail load touches only the buffer's bytes);
 * the AVX-512 row of Mula, Kurz, Lemire, "Faster Population Counts Using
 * AVX2 Instructions", The Computer Journal 61(1), 2018 (arXiv:1611.07612).
 *
 * Compiled with -mavx512f -mavx512bw -mavx512vl -mavx512vpopcntdq
 * (Makefile: *_avx512.c); called only when all four are usable and XCR0
 * enables opmask and ZMM state (src/arch/x86/dispatch_popcount.c). Four
 * vectors per step into four accumulators of 64-bit lane counts; the
 * fewer than 64 bytes left are read with one byte-masked load (AVX512BW).
 */
#include <immintrin.h>

#include "prim/popcount_kernels.h"

#define VEC 64 /* bytes per vector */

static inline __m512i count_at(const unsigned char *p)
{
	return _mm512_popcnt_epi64(_mm512_loadu_si512((const void *)p));
}

uint64_t settle_popcount_kernel_avx512(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	__m512i a = _mm512_setzero_si512();
	__m512i b = a, c = a, d = a;
	__mmask64 tail;
	__m512i last;

	for (; len >= 4 * VEC; p += 4 * VEC, len -= 4 * VEC) {
		a = _mm512_add_epi64(a, count_at(p));
		b = _mm512_add_epi64(b, count_at(p + VEC));
		c = _mm512_add_epi64(c, count_at(p + 2 * VEC));
		d = _mm512_add_epi64(d, count_at(p + 3 * VEC));
	}
	for (; len >= VEC; p += VEC, len -= VEC)
		a = _mm512_add_epi64(a, count_at(p));
	if (len) {
		/* len < 64: the low len bits of the mask select the bytes. */
		tail = (__mmask64)((1ull << len) - 1);
		last = _mm512_maskz_loadu_epi8(tail, (const void *)p);
		b = _mm512_add_epi64(b, _mm512_popcnt_epi64(last));
	}
	a = _mm512_add_epi64(_mm512_add_epi64(a, b), _mm512_add_epi64(c, d));
	return (uint64_t)_mm512_reduce_add_epi64(a);
}
