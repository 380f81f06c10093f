/*
 * readlimit_sse2.c - the read-limit kernel with 16-byte loads (MOVDQA,
 * PADDQ: Intel SDM vol. 2; SSE2 is part of every x86-64 CPU); see
 * readlimit.h. The head up to 16-byte alignment and the tail go to the
 * generic kernel.
 */
#include <emmintrin.h>

#include "prim/readlimit.h"

static inline __m128i load(const unsigned char *p)
{
	return _mm_load_si128((const __m128i *)p);
}

uint64_t settle_read_limit_sse2(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t head = (size_t)(-(uintptr_t)p & 15);
	__m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
	uint64_t s = 0, lanes[2];

	if (head) {
		if (head > len)
			head = len;
		s = settle_read_limit_generic(p, head);
		p += head;
		len -= head;
	}
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
	if (len)
		s += settle_read_limit_generic(p, len);
	a = _mm_add_epi64(_mm_add_epi64(a, b), _mm_add_epi64(c, d));
	_mm_storeu_si128((__m128i *)lanes, a);
	return s + lanes[0] + lanes[1];
}
