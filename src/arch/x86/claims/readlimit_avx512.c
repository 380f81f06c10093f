/*
 * readlimit_avx512.c - the read-limit kernel with 512-bit loads
 * (VMOVDQU64, VPADDQ; Intel SDM vol. 2); see readlimit.h. Compiled for
 * AVX-512 (Makefile: *_avx512.c); chosen only when AVX512F and the OS's
 * opmask and ZMM state are usable (readlimit.c). Eight loads per step into
 * four accumulators.
 */
#include <immintrin.h>

#include "readlimit.h"

static inline __m512i load(const unsigned char *p)
{
	return _mm512_loadu_si512((const void *)p);
}

uint64_t settle_readlimit_avx512(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	__m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;

	for (; len >= 512; p += 512, len -= 512) {
		a = _mm512_add_epi64(a, load(p));
		b = _mm512_add_epi64(b, load(p + 64));
		c = _mm512_add_epi64(c, load(p + 128));
		d = _mm512_add_epi64(d, load(p + 192));
		a = _mm512_add_epi64(a, load(p + 256));
		b = _mm512_add_epi64(b, load(p + 320));
		c = _mm512_add_epi64(c, load(p + 384));
		d = _mm512_add_epi64(d, load(p + 448));
	}
	for (; len >= 64; p += 64, len -= 64)
		a = _mm512_add_epi64(a, load(p));
	a = _mm512_add_epi64(_mm512_add_epi64(a, b), _mm512_add_epi64(c, d));
	return (uint64_t)_mm512_reduce_add_epi64(a) +
	       settle_readlimit_tail(p, len);
}
