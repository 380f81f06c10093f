/*
 * readlimit_avx2.c - the read-limit kernel with 32-byte loads (VMOVDQA,
 * VPADDQ: Intel SDM vol. 2); see readlimit.h. Compiled with -mavx2
 * (arch.mk: *_avx2.c); called only when AVX2 and the OS's AVX state are
 * usable (dispatch_readlimit.c). From the CPU's stream_min bytes on
 * (AMD family 19h: 64 MiB) it hands the buffer to the sse2 kernel
 * (readlimit.h). The head up to 32-byte alignment and the
 * tail go to the generic kernel (one pass each, inside every pass). The
 * split of the buffer is worked out once per call; the accumulators run
 * on across the passes and are added up once, at the end.
 */
#include <immintrin.h>

#include "prim/readlimit.h"

static inline __m256i load(const unsigned char *p)
{
	return _mm256_load_si256((const __m256i *)p);
}

/* n steps of eight aligned vectors from p into the four accumulators. */
static inline void steps(const unsigned char *p, size_t n, __m256i *a,
			 __m256i *b, __m256i *c, __m256i *d)
{
	for (; n; n--, p += 256) {
		*a = _mm256_add_epi64(*a, load(p));
		*b = _mm256_add_epi64(*b, load(p + 32));
		*c = _mm256_add_epi64(*c, load(p + 64));
		*d = _mm256_add_epi64(*d, load(p + 96));
		*a = _mm256_add_epi64(*a, load(p + 128));
		*b = _mm256_add_epi64(*b, load(p + 160));
		*c = _mm256_add_epi64(*c, load(p + 192));
		*d = _mm256_add_epi64(*d, load(p + 224));
	}
}

uint64_t settle_read_limit_avx2(const void *buf, size_t len, uint64_t passes)
{
	size_t head = (size_t)(-(uintptr_t)buf & 31);
	size_t n, vecs, tail;
	__m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
	__m128i h;
	uint64_t s = 0;

	if (len >= settle_read_limit_widths()->stream_min)
		return settle_read_limit_sse2(buf, len, passes);

	if (head > len)
		head = len;
	n = (len - head) / 256;
	vecs = (len - head) % 256 / 32;
	tail = (len - head) % 32;
	if (!head && !vecs && !tail) {
		/* whole steps only: nothing else in a pass */
		while (passes--) {
			const unsigned char *p = buf;

			SETTLE_READ_LIMIT_LAUNDER(p);
			steps(p, n, &a, &b, &c, &d);
		}
		passes = 0;
	}
	while (passes--) {
		const unsigned char *p = buf;

		SETTLE_READ_LIMIT_LAUNDER(p);
		if (head)
			s += settle_read_limit_generic(p, head, 1);
		p += head;
		steps(p, n, &a, &b, &c, &d);
		p += n * 256;
		for (size_t i = vecs; i; i--, p += 32)
			a = _mm256_add_epi64(a, load(p));
		if (tail)
			s += settle_read_limit_generic(p, tail, 1);
	}
	a = _mm256_add_epi64(_mm256_add_epi64(a, b), _mm256_add_epi64(c, d));
	h = _mm_add_epi64(_mm256_castsi256_si128(a),
			  _mm256_extracti128_si256(a, 1));
	h = _mm_add_epi64(h, _mm_unpackhi_epi64(h, h));
	return s + (uint64_t)_mm_cvtsi128_si64(h);
}
