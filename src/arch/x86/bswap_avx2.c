/*
 * bswap_avx2.c - bulk byte swap with VPSHUFB on 256-bit vectors (compiled
 * with -mavx2; called only when AVX and AVX2 are usable: cpuid bits and
 * XCR0 SSE and AVX state).
 *
 * VPSHUFB ymm1, ymm2, ymm3 (Intel SDM vol. 2B, "PSHUFB - Packed Shuffle
 * Bytes", VEX.256 form) shuffles each 128-bit lane of ymm2 by the same
 * lane of the control ymm3; with the element-reversing control in both
 * lanes it swaps 16, 8 or 4 elements at once. Loads and stores are
 * VMOVDQU (no alignment needed). Copies of the copy rule's narrow_from
 * or more (struct settle_bswap_copy_rule) and in-place swaps of
 * SETTLE_BSWAP_NARROW_INPLACE_BYTES or more go to the SSSE3 kernel,
 * which writes copies larger than the non-temporal threshold with MOVNTDQ
 * (settle_bswap_ssse3_bytes()).
 *
 * Layout of one call over nb bytes (a multiple of the element size esz):
 * whole 32-byte vectors from the start, four per loop turn, then the last
 * 32 bytes of the buffer, loaded before anything is stored and stored at
 * the end: its overlap with the vectors before it is written twice with
 * the same values, and since it was loaded first, in place stays correct.
 * 16 to 31 bytes take two overlapping 16-byte halves (both loaded before
 * either is stored); fewer are swapped one element at a time.
 */
#include <immintrin.h>
#include <stdint.h>

#include "prim/bswap_kernels.h"

#define VEC 32
#define UNROLL 4

static inline __m256i loadu(const unsigned char *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

static inline void storeu(unsigned char *p, __m256i v)
{
	_mm256_storeu_si256((__m256i *)p, v);
}

/*
 * The shuffle of the byte-swap loops, or with touch (a constant, so each
 * use compiles to one of the two) none: the value passes through an empty
 * asm, so the compiler cannot tell that the store writes back what was
 * loaded and must keep both (settle_bswap_touch_avx2()).
 */
static inline __attribute__((always_inline)) __m256i
shuf(__m256i v, __m256i m, int touch)
{
	if (!touch)
		return _mm256_shuffle_epi8(v, m);
	__asm__("" : "+x"(v));
	return v;
}


/* Whole vectors from offset 0 on with ordinary stores; returns the offset
 * after the last whole vector. */
static inline __attribute__((always_inline)) size_t
body(unsigned char *d, const unsigned char *s, size_t nb, __m256i m, int touch)
{
	size_t i = 0;

	for (; nb - i >= UNROLL * VEC; i += UNROLL * VEC) {
		__m256i a = loadu(s + i), b = loadu(s + i + VEC);
		__m256i c = loadu(s + i + 2 * VEC), e = loadu(s + i + 3 * VEC);

		storeu(d + i, shuf(a, m, touch));
		storeu(d + i + VEC, shuf(b, m, touch));
		storeu(d + i + 2 * VEC, shuf(c, m, touch));
		storeu(d + i + 3 * VEC, shuf(e, m, touch));
	}
	for (; nb - i >= VEC; i += VEC)
		storeu(d + i, shuf(loadu(s + i), m, touch));
	return i;
}

/* 16 to 31 bytes: the first and the last 16, both loaded first. */
static inline void swap_16_31(unsigned char *d, const unsigned char *s,
			      size_t nb, __m128i m)
{
	__m128i a = _mm_loadu_si128((const __m128i *)s);
	__m128i z = _mm_loadu_si128((const __m128i *)(s + nb - 16));

	_mm_storeu_si128((__m128i *)d, _mm_shuffle_epi8(a, m));
	_mm_storeu_si128((__m128i *)(d + nb - 16), _mm_shuffle_epi8(z, m));
}

/* The same without the shuffle (the touch loop). */
static void touch_16_31(unsigned char *d, const unsigned char *s, size_t nb)
{
	__m128i a = _mm_loadu_si128((const __m128i *)s);
	__m128i z = _mm_loadu_si128((const __m128i *)(s + nb - 16));

	__asm__("" : "+x"(a), "+x"(z));
	_mm_storeu_si128((__m128i *)d, a);
	_mm_storeu_si128((__m128i *)(d + nb - 16), z);
}

/* At least VEC bytes with ordinary stores: whole vectors, then the last
 * VEC bytes of the buffer, loaded before anything is stored. */
static inline __attribute__((always_inline)) void
swap_plain(unsigned char *d, const unsigned char *s, size_t nb, __m256i m,
	   int touch)
{
	__m256i last = loadu(s + nb - VEC);

	if (body(d, s, nb, m, touch) != nb)
		storeu(d + nb - VEC, shuf(last, m, touch));
}

static inline __attribute__((always_inline)) void
swap_all(void *dst, const void *src, size_t nb, size_t esz, __m256i m,
	 int touch)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (nb < 16) {
		settle_bswap_elems_or_touch(d, s, nb, esz, touch);
		return;
	}
	if (__builtin_expect(nb < VEC, 0)) {
		if (touch)
			touch_16_31(d, s, nb);
		else
			swap_16_31(d, s, nb, _mm256_castsi256_si128(m));
		return;
	}
	if (settle_bswap_goes_narrow(d, s, nb)) {
		if (touch)
			settle_bswap_touch_ssse3(d, s, nb, esz);
		else
			settle_bswap_ssse3_bytes(d, s, nb, esz);
	} else {
		swap_plain(d, s, nb, m, touch);
	}
}

/* The VPSHUFB control that reverses each element of esz bytes (2, 4 or
 * 8) in both lanes. */
static inline __attribute__((always_inline)) __m256i reverse(size_t esz)
{
	const __m128i l = esz == 2 ?
		_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6,
			      9, 8, 11, 10, 13, 12, 15, 14) : esz == 4 ?
		_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4,
			      11, 10, 9, 8, 15, 14, 13, 12) :
		_mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0,
			      15, 14, 13, 12, 11, 10, 9, 8);

	return _mm256_broadcastsi128_si256(l);
}

void settle_bswap16_avx2(void *dst, const void *src, size_t n)
{
	swap_all(dst, src, n * 2, 2, reverse(2), 0);
}

void settle_bswap32_avx2(void *dst, const void *src, size_t n)
{
	swap_all(dst, src, n * 4, 4, reverse(4), 0);
}

void settle_bswap64_avx2(void *dst, const void *src, size_t n)
{
	swap_all(dst, src, n * 8, 8, reverse(8), 0);
}

void settle_bswap_avx2_bytes(void *dst, const void *src, size_t nb,
			     size_t esz)
{
	/* the caller has ruled out short buffers and the SSSE3 kernel */
	if (esz == 2)
		swap_plain(dst, src, nb, reverse(2), 0);
	else if (esz == 4)
		swap_plain(dst, src, nb, reverse(4), 0);
	else
		swap_plain(dst, src, nb, reverse(8), 0);
}

/* settle_bswap_avx2_bytes() without the shuffle: straight to the loop. */
void settle_bswap_touch_avx2_bytes(void *dst, const void *src, size_t nb)
{
	swap_plain(dst, src, nb, _mm256_setzero_si256(), 1);
}

/* The loop of settle_bswap*_avx2() without the shuffle
 * (src/prim/bswap_kernels.h): whole vectors, four per step, then the last
 * vector; 16 to 31 bytes as two halves, fewer one byte at a time; where
 * the kernel hands over to the SSSE3 one, the SSSE3 one's. */
void settle_bswap_touch_avx2(void *dst, const void *src, size_t nb,
			     size_t esz)
{
	swap_all(dst, src, nb, esz, _mm256_setzero_si256(), 1);
}
