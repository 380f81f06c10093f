/*
 * bswap_ssse3.c - bulk byte swap with PSHUFB, 16 bytes per instruction
 * (compiled with -mssse3; called only when CPUID.1:ECX.SSSE3 is set).
 *
 * PSHUFB xmm1, xmm2 (Intel SDM vol. 2B, "PSHUFB - Packed Shuffle Bytes")
 * sets byte i of xmm1 to the byte of xmm1 selected by the low four bits of
 * byte i of the control xmm2; a control that reverses each 2, 4 or 8-byte
 * group swaps 8, 4 or 2 elements at once. Loads and stores are MOVDQU (no
 * alignment needed). Copies larger than the last-level cache are written
 * with MOVNTDQ (vol. 2B, "MOVNTDQ - Store Packed Integers Using
 * Non-Temporal Hint"; its destination must be 16-byte aligned), so the
 * output does not evict the cache, and fenced with SFENCE, since
 * non-temporal stores are weakly ordered (vol. 1, 10.4.6 "Cacheability
 * Control, Prefetch, and Memory Ordering Instructions").
 *
 * Layout of one call over nb bytes (a multiple of the element size esz):
 * whole 16-byte blocks from the start, four per loop turn, then the last
 * 16 bytes of the buffer, loaded before anything is stored and stored at
 * the end. Its overlap with the blocks before it is written twice with the
 * same values, and since it was loaded first, in place stays correct.
 * Fewer than 16 bytes are swapped one element at a time.
 */
#include <stdint.h>
#include <tmmintrin.h>

#include "prim/bswap_kernels.h"

#define VEC 16

static inline __m128i loadu(const unsigned char *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static inline void storeu(unsigned char *p, __m128i v)
{
	_mm_storeu_si128((__m128i *)p, v);
}

/*
 * The shuffle of the byte-swap loops, or with touch (a constant, so each
 * use compiles to one of the two) none: the value passes through an empty
 * asm, so the compiler cannot tell that the store writes back what was
 * loaded and must keep both (settle_bswap_touch_ssse3(); in a copy the
 * store is kept anyway).
 */
static inline __attribute__((always_inline)) __m128i
shuf(__m128i v, __m128i m, int touch)
{
	if (!touch)
		return _mm_shuffle_epi8(v, m);
	__asm__("" : "+x"(v));
	return v;
}

/* Whole blocks from offset 0 on with ordinary stores; returns the offset
 * after the last whole block. */
static inline __attribute__((always_inline)) size_t
body(unsigned char *d, const unsigned char *s, size_t nb, __m128i m, int touch)
{
	size_t i = 0;

	for (; nb - i >= 4 * VEC; i += 4 * VEC) {
		__m128i a = loadu(s + i), b = loadu(s + i + VEC);
		__m128i c = loadu(s + i + 2 * VEC), e = loadu(s + i + 3 * VEC);

		storeu(d + i, shuf(a, m, touch));
		storeu(d + i + VEC, shuf(b, m, touch));
		storeu(d + i + 2 * VEC, shuf(c, m, touch));
		storeu(d + i + 3 * VEC, shuf(e, m, touch));
	}
	for (; nb - i >= VEC; i += VEC)
		storeu(d + i, shuf(loadu(s + i), m, touch));
	return i;
}

static inline void stream(unsigned char *p, __m128i v)
{
	_mm_stream_si128((__m128i *)p, v);
}

/* One 64-byte line (four blocks) at s + i to d + i (d + i 64-byte
 * aligned) with MOVNTDQ. */
static inline __attribute__((always_inline)) void
line_nt(unsigned char *d, const unsigned char *s, size_t i, __m128i m,
	int touch)
{
	__m128i a = loadu(s + i), b = loadu(s + i + VEC);
	__m128i c = loadu(s + i + 2 * VEC), e = loadu(s + i + 3 * VEC);

	stream(d + i, shuf(a, m, touch));
	stream(d + i + VEC, shuf(b, m, touch));
	stream(d + i + 2 * VEC, shuf(c, m, touch));
	stream(d + i + 3 * VEC, shuf(e, m, touch));
}

#define STRETCH 4096 /* bytes */

/*
 * The copy rule's nt_interleave (bswap_kernels.h): from offset i, groups
 * of four 4 KiB stretches, line k of each in turn, then line k + 1 ...;
 * returns the offset after the last whole group.
 */
static inline __attribute__((always_inline)) size_t
groups_nt(unsigned char *d, const unsigned char *s, size_t i, size_t nb,
	  __m128i m, int touch)
{
	for (; nb - i >= 4 * STRETCH; i += 4 * STRETCH)
		for (size_t k = i; k < i + STRETCH; k += 64) {
			line_nt(d, s, k, m, touch);
			line_nt(d, s, k + STRETCH, m, touch);
			line_nt(d, s, k + 2 * STRETCH, m, touch);
			line_nt(d, s, k + 3 * STRETCH, m, touch);
		}
	return i;
}

/*
 * Non-temporal: elements one at a time up to the next 64-byte boundary of
 * d (d is a multiple of esz, so that boundary is an element boundary),
 * then groups of four stretches when the copy rule says so, then whole
 * blocks with MOVNTDQ, then SFENCE. Returns the offset after the last
 * whole block.
 */
static inline __attribute__((always_inline)) size_t
body_nt(unsigned char *d, const unsigned char *s, size_t nb, __m128i m,
	size_t esz, int touch)
{
	size_t i = (size_t)(-(uintptr_t)d & 63);

	settle_bswap_elems_or_touch(d, s, i, esz, touch);
	if (settle_bswap_copy_rule()->nt_interleave)
		i = groups_nt(d, s, i, nb, m, touch);
	for (; nb - i >= 4 * VEC; i += 4 * VEC)
		line_nt(d, s, i, m, touch);
	for (; nb - i >= VEC; i += VEC)
		stream(d + i, shuf(loadu(s + i), m, touch));
	_mm_sfence();
	settle_bswap_nt_note();
	return i;
}

/* At least VEC bytes with ordinary stores: whole vectors, then the last
 * VEC bytes of the buffer, loaded before anything is stored. */
static inline __attribute__((always_inline)) void
swap_plain(unsigned char *d, const unsigned char *s, size_t nb, __m128i m,
	   int touch)
{
	__m128i last = loadu(s + nb - VEC);

	if (body(d, s, nb, m, touch) != nb)
		storeu(d + nb - VEC, shuf(last, m, touch));
}

/*
 * Buffers of SETTLE_BSWAP_NT_MIN_BYTES or more: non-temporal stores when
 * larger than the threshold (settle_bswap_nt_bytes()), not in place, and
 * d is a multiple of esz. In place, each line has just been read into
 * the cache, and ordinary stores were faster (settle run bswap --size 1G,
 * AVX2 on an AMD EPYC KVM guest: 24 against 18 B/ns).
 * Kept out of line (swap_large(), touch_large()), so the common path
 * makes no call and needs no stack frame.
 */
static inline __attribute__((always_inline)) void
large(unsigned char *d, const unsigned char *s, size_t nb, size_t esz,
      __m128i m, int touch)
{
	__m128i last;

	if (d == s || nb <= settle_bswap_nt_bytes() ||
	    (uintptr_t)d % esz != 0) {
		swap_plain(d, s, nb, m, touch);
		return;
	}
	last = loadu(s + nb - VEC);
	if (body_nt(d, s, nb, m, esz, touch) != nb)
		storeu(d + nb - VEC, shuf(last, m, touch));
}

static __attribute__((noinline)) void
swap_large(unsigned char *d, const unsigned char *s, size_t nb, size_t esz,
	   __m128i m)
{
	large(d, s, nb, esz, m, 0);
}

static __attribute__((noinline)) void
touch_large(unsigned char *d, const unsigned char *s, size_t nb, size_t esz)
{
	large(d, s, nb, esz, _mm_setzero_si128(), 1);
}

static inline __attribute__((always_inline)) void
swap_all(void *dst, const void *src, size_t nb, size_t esz, __m128i m,
	 int touch)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (nb < VEC) {
		settle_bswap_elems_or_touch(d, s, nb, esz, touch);
		return;
	}
	if (nb >= SETTLE_BSWAP_NT_MIN_BYTES) {
		if (touch)
			touch_large(d, s, nb, esz);
		else
			swap_large(d, s, nb, esz, m);
	} else {
		swap_plain(d, s, nb, m, touch);
	}
}

void settle_bswap16_ssse3(void *dst, const void *src, size_t n)
{
	const __m128i m = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6,
					9, 8, 11, 10, 13, 12, 15, 14);

	swap_all(dst, src, n * 2, 2, m, 0);
}

void settle_bswap32_ssse3(void *dst, const void *src, size_t n)
{
	const __m128i m = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4,
					11, 10, 9, 8, 15, 14, 13, 12);

	swap_all(dst, src, n * 4, 4, m, 0);
}

void settle_bswap64_ssse3(void *dst, const void *src, size_t n)
{
	const __m128i m = _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0,
					15, 14, 13, 12, 11, 10, 9, 8);

	swap_all(dst, src, n * 8, 8, m, 0);
}

void settle_bswap_ssse3_bytes(void *dst, const void *src, size_t nb,
			      size_t esz)
{
	if (esz == 2)
		settle_bswap16_ssse3(dst, src, nb / 2);
	else if (esz == 4)
		settle_bswap32_ssse3(dst, src, nb / 4);
	else
		settle_bswap64_ssse3(dst, src, nb / 8);
}

/* The loop of settle_bswap*_ssse3() without the shuffle
 * (src/prim/bswap_kernels.h): whole vectors, four per step, then the last
 * vector; fewer than VEC bytes one byte at a time; a copy above the
 * threshold with MOVNTDQ. */
void settle_bswap_touch_ssse3(void *dst, const void *src, size_t nb,
			      size_t esz)
{
	swap_all(dst, src, nb, esz, _mm_setzero_si128(), 1);
}
