/*
 * readlimit_sse2.c - the read-limit kernel with 16-byte loads (MOVDQA,
 * PADDQ: Intel SDM vol. 2; SSE2 is part of every x86-64 CPU); see
 * readlimit.h. The head up to 16-byte alignment and the tail are read
 * with scalar loads inline in every pass (readlimit_span.h). The split
 * of the buffer is worked out once per call; the accumulators run on
 * across the passes and are added up once, at the end.
 */
#include <emmintrin.h>

#include "prim/readlimit.h"
#include "prim/readlimit_span.h"

static inline __m128i load(const unsigned char *p)
{
	return _mm_load_si128((const __m128i *)p);
}

/* n steps of eight aligned vectors from p into the four accumulators. */
static inline void steps(const unsigned char *p, size_t n, __m128i *a,
			 __m128i *b, __m128i *c, __m128i *d)
{
	for (; n; n--, p += 128) {
		*a = _mm_add_epi64(*a, load(p));
		*b = _mm_add_epi64(*b, load(p + 16));
		*c = _mm_add_epi64(*c, load(p + 32));
		*d = _mm_add_epi64(*d, load(p + 48));
		*a = _mm_add_epi64(*a, load(p + 64));
		*b = _mm_add_epi64(*b, load(p + 80));
		*c = _mm_add_epi64(*c, load(p + 96));
		*d = _mm_add_epi64(*d, load(p + 112));
	}
}

/*
 * vecs (0-7) aligned vectors from p, after the steps: spread over the
 * accumulators, so that none takes more than two of them.
 */
static inline void rest(const unsigned char *p, size_t vecs, __m128i *a,
			__m128i *b, __m128i *c, __m128i *d)
{
	if (vecs & 4) {
		*a = _mm_add_epi64(*a, load(p));
		*b = _mm_add_epi64(*b, load(p + 16));
		*c = _mm_add_epi64(*c, load(p + 32));
		*d = _mm_add_epi64(*d, load(p + 48));
		p += 64;
	}
	if (vecs & 2) {
		*a = _mm_add_epi64(*a, load(p));
		*b = _mm_add_epi64(*b, load(p + 16));
		p += 32;
	}
	if (vecs & 1)
		*c = _mm_add_epi64(*c, load(p));
}

uint64_t settle_read_limit_sse2(const void *buf, size_t len, uint64_t passes)
{
	size_t head = (size_t)(-(uintptr_t)buf & 15);
	size_t n, vecs, tail;
	__m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
	uint64_t s = 0, lanes[2];
	struct settle_rl_edges e;

	if (head > len)
		head = len;
	n = (len - head) / 128;
	vecs = (len - head) % 128 / 16;
	tail = (len - head) % 16;
	e = settle_rl_edges_plan(buf, len, head, tail);
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
			s += settle_rl_span_read(p, &e.head);
		p += head;
		steps(p, n, &a, &b, &c, &d);
		p += n * 128;
		rest(p, vecs, &a, &b, &c, &d);
		p += vecs * 16;
		if (tail)
			s += settle_rl_span_read(p, &e.tail);
	}
	a = _mm_add_epi64(_mm_add_epi64(a, b), _mm_add_epi64(c, d));
	_mm_storeu_si128((__m128i *)lanes, a);
	return s + lanes[0] + lanes[1];
}
