/*
 * readlimit_avx2.c - the read-limit kernel with 256-bit loads (VMOVDQU,
 * VPADDQ; Intel SDM vol. 2); see readlimit.h. Compiled with -mavx2
 * (Makefile: *_avx2.c); chosen only when AVX2 and the OS's AVX state are
 * usable (readlimit.c). Eight loads per step into four accumulators.
 */
#include <immintrin.h>

#include "readlimit.h"

static inline __m256i load(const unsigned char *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

uint64_t settle_readlimit_avx2(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	__m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
	uint64_t lanes[4];

	for (; len >= 256; p += 256, len -= 256) {
		a = _mm256_add_epi64(a, load(p));
		b = _mm256_add_epi64(b, load(p + 32));
		c = _mm256_add_epi64(c, load(p + 64));
		d = _mm256_add_epi64(d, load(p + 96));
		a = _mm256_add_epi64(a, load(p + 128));
		b = _mm256_add_epi64(b, load(p + 160));
		c = _mm256_add_epi64(c, load(p + 192));
		d = _mm256_add_epi64(d, load(p + 224));
	}
	for (; len >= 32; p += 32, len -= 32)
		a = _mm256_add_epi64(a, load(p));
	a = _mm256_add_epi64(_mm256_add_epi64(a, b), _mm256_add_epi64(c, d));
	_mm256_storeu_si256((__m256i *)lanes, a);
	return lanes[0] + lanes[1] + lanes[2] + lanes[3] +
	       settle_readlimit_tail(p, len);
}
