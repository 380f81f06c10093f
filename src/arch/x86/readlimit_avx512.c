/*
 * readlimit_avx512.c - the read-limit kernel with 64-byte loads
 * (VMOVDQA64, VPADDQ: Intel SDM vol. 2); see readlimit.h. Compiled for
 * AVX-512 (arch.mk: *_avx512.c); called only when AVX512F, AVX512BW,
 * AVX2 and the OS's opmask and ZMM state are usable
 * (dispatch_readlimit.c). Buffers outside the sizes where 512-bit loads
 * read fastest on this CPU go to the avx2 kernel (readlimit.h).
 *
 * A buffer that does not start on a 64-byte boundary begins with one
 * byte-masked load of the aligned vector that holds its first byte; one
 * that does not end on one ends with another. VMOVDQU8 with a zeroing
 * mask reads no masked-out byte and takes no fault on it (Intel SDM vol.
 * 1, 15.4 "Memory fault suppression"), so the kernel never touches a byte
 * outside the buffer, and the masked-out lanes add zero. The split of
 * the buffer and the two masks are worked out once per call; the
 * accumulators run on across the passes and are added up once, at the
 * end.
 */
#include <immintrin.h>

#include "prim/readlimit.h"

static inline __m512i load(const unsigned char *p)
{
	return _mm512_load_si512((const void *)p);
}

/* The bytes of the aligned vector at q whose bits are set in k, the
 * others zero (and not read). */
static inline __m512i load_part(const unsigned char *q, __mmask64 k)
{
	return _mm512_maskz_loadu_epi8(k, (const void *)q);
}

/* Sum of the 64-bit lanes of v, modulo 2^64 (gcc's
 * _mm512_reduce_add_epi64 adds them as signed, which may overflow). */
static inline uint64_t sum_lanes(__m512i v)
{
	__m256i q = _mm256_add_epi64(_mm512_castsi512_si256(v),
				     _mm512_extracti64x4_epi64(v, 1));
	__m128i h = _mm_add_epi64(_mm256_castsi256_si128(q),
				  _mm256_extracti128_si256(q, 1));

	h = _mm_add_epi64(h, _mm_unpackhi_epi64(h, h));
	return (uint64_t)_mm_cvtsi128_si64(h);
}

#define STEP 256 /* bytes per loop step: four vectors */

/*
 * n steps of four aligned vectors from p, one into each accumulator. Four
 * loads a step, not eight: at 1 MiB on the Zen 4 guest the plain reads of
 * examples/readlimit-peers.c with four loads a step (plain-2acc,
 * plain-4acc) took 0.976-0.978 of the time of this kernel with eight,
 * and the plain read with eight (plain-4acc-x8) 0.997 (9 processes, 4
 * layouts, 2026-12-01).
 */
static inline void steps(const unsigned char *p, size_t n, __m512i *a,
			 __m512i *b, __m512i *c, __m512i *d)
{
	for (; n; n--, p += STEP) {
		*a = _mm512_add_epi64(*a, load(p));
		*b = _mm512_add_epi64(*b, load(p + 64));
		*c = _mm512_add_epi64(*c, load(p + 128));
		*d = _mm512_add_epi64(*d, load(p + 192));
	}
}

uint64_t settle_read_limit_avx512(const void *buf, size_t len,
				  uint64_t passes)
{
	size_t off = (uintptr_t)buf & 63;
	size_t head = off ? 64 - off : 0;
	size_t n, vecs, tail;
	__mmask64 hk = 0, tk;
	__m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;

	const struct settle_read_limit_widths *w = settle_read_limit_widths();

	/*
	 * 512-bit loads in [zmm_min, zmm_end) only (readlimit.h), and below
	 * zmm_min for a buffer that is not 32-byte aligned: the avx2
	 * kernel reads its head and tail with generic code in every pass,
	 * where this one takes one masked load each.
	 */
	if ((len < w->zmm_min && !(off & 31)) || len >= w->zmm_end)
		return settle_read_limit_avx2(buf, len, passes);

	if (head > len)
		head = len;
	if (head)
		hk = (~0ull >> (64 - head)) << off;
	n = (len - head) / STEP;
	vecs = (len - head) % STEP / 64;
	tail = (len - head) % 64;
	tk = tail ? ~0ull >> (64 - tail) : 0;
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
		if (head) {
			a = _mm512_add_epi64(a, load_part(p - off, hk));
			p += head;
		}
		steps(p, n, &a, &b, &c, &d);
		p += n * STEP;
		for (size_t i = vecs; i; i--, p += 64)
			b = _mm512_add_epi64(b, load(p));
		if (tail)
			c = _mm512_add_epi64(c, load_part(p, tk));
	}
	a = _mm512_add_epi64(_mm512_add_epi64(a, b), _mm512_add_epi64(c, d));
	return sum_lanes(a);
}
