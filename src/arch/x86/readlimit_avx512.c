/*
 * readlimit_avx512.c - the read-limit kernel with 64-byte loads
 * (VMOVDQA64, VPADDQ: Intel SDM vol. 2); see readlimit.h. Compiled for
 * AVX-512 (arch.mk: *_avx512.c); called only when AVX512F, AVX512BW and
 * the OS's opmask and ZMM state are usable (dispatch_readlimit.c).
 *
 * A buffer that does not start on a 64-byte boundary begins with one
 * byte-masked load of the aligned vector that holds its first byte; one
 * that does not end on one ends with another. VMOVDQU8 with a zeroing
 * mask reads no masked-out byte and takes no fault on it (Intel SDM vol.
 * 1, 15.4 "Memory fault suppression"), so the kernel never touches a byte
 * outside the buffer, and the masked-out lanes add zero.
 */
#include <immintrin.h>

#include "prim/readlimit.h"

static inline __m512i load(const unsigned char *p)
{
	return _mm512_load_si512((const void *)p);
}

/* Bytes [lo, hi) of the aligned vector at q (0 <= lo < hi <= 64). */
static inline __m512i load_part(const unsigned char *q, size_t lo, size_t hi)
{
	__mmask64 k = (~0ull >> (64 - (hi - lo))) << lo;

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

uint64_t settle_read_limit_avx512(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t off = (uintptr_t)p & 63;
	__m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;

	if (len >= SETTLE_READ_LIMIT_STREAM_MIN)
		return settle_read_limit_sse2(buf, len);

	if (off) {
		size_t n = 64 - off < len ? 64 - off : len;

		if (n == 0)
			return 0;
		a = load_part(p - off, off, off + n);
		p += n;
		len -= n;
	}
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
		b = _mm512_add_epi64(b, load(p));
	if (len)
		c = _mm512_add_epi64(c, load_part(p, 0, len));
	a = _mm512_add_epi64(_mm512_add_epi64(a, b), _mm512_add_epi64(c, d));
	return sum_lanes(a);
}
