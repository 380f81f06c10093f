/*
 * readlimit.c - x86-64: the SSE2 read-limit kernel (baseline x86-64) and
 * the choice of the widest one; see claims/readlimit.h. The AVX2 and
 * AVX-512 kernels are in readlimit_avx2.c and readlimit_avx512.c,
 * compiled for their ISA.
 *
 * Eight 16-byte loads per step into four accumulators of 64-bit lanes
 * (PADDQ, Intel SDM vol. 2B): one addition per load, so the loop is
 * bounded by the loads, not by the additions.
 */
#include <emmintrin.h>

#include "cpu/cpu.h"
#include "readlimit.h"

static inline __m128i load(const unsigned char *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

uint64_t settle_readlimit_sse2(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	__m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
	uint64_t lanes[2];

	for (; len >= 128; p += 128, len -= 128) {
		a = _mm_add_epi64(a, load(p));
		b = _mm_add_epi64(b, load(p + 16));
		c = _mm_add_epi64(c, load(p + 32));
		d = _mm_add_epi64(d, load(p + 48));
		a = _mm_add_epi64(a, load(p + 64));
		b = _mm_add_epi64(b, load(p + 80));
		c = _mm_add_epi64(c, load(p + 96));
		d = _mm_add_epi64(d, load(p + 112));
	}
	for (; len >= 16; p += 16, len -= 16)
		a = _mm_add_epi64(a, load(p));
	a = _mm_add_epi64(_mm_add_epi64(a, b), _mm_add_epi64(c, d));
	_mm_storeu_si128((__m128i *)lanes, a);
	return lanes[0] + lanes[1] + settle_readlimit_tail(p, len);
}

settle_readlimit_fn settle_readlimit_choose(const char **width)
{
	const char *w = "sse2";
	settle_readlimit_fn fn = settle_readlimit_sse2;

	if (settle_cpu_has(SETTLE_CPU_AVX512F)) {
		w = "avx512";
		fn = settle_readlimit_avx512;
	} else if (settle_cpu_has(SETTLE_CPU_AVX2)) {
		w = "avx2";
		fn = settle_readlimit_avx2;
	}
	if (width)
		*width = w;
	return fn;
}
