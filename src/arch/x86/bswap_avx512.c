/*
 * bswap_avx512.c - bulk byte swap with AVX-512BW VPSHUFB on 512-bit
 * vectors (compiled with the AVX-512 flags of the Makefile; called only
 * when AVX512F, BW and VL are usable: cpuid bits and XCR0 opmask and ZMM
 * state).
 *
 * VPSHUFB zmm1, zmm2, zmm3 (Intel SDM vol. 2B, "PSHUFB - Packed Shuffle
 * Bytes", EVEX.512 form, AVX512BW) shuffles each 128-bit lane of zmm2 by
 * the same lane of the control zmm3; with the element-reversing control in
 * every lane it swaps 32, 16 or 8 elements at once. Loads and stores are
 * VMOVDQU8 (vol. 2A, "MOVDQU - Move Unaligned Packed Integer Values"); the
 * partial vectors at the head and the tail use its byte-masked form, which
 * neither reads nor writes the masked-off bytes and takes no fault on
 * them (vol. 2A, "Exception Classifications of EVEX-Encoded
 * Instructions": memory fault suppression), so there is no scalar tail
 * and no overlap. Copies follow the CPU's copy rule (struct
 * settle_bswap_copy_rule): from narrow_from on they go to the SSSE3
 * kernel, which writes copies larger than the non-temporal threshold with
 * MOVNTDQ (settle_bswap_ssse3_bytes()), and from zmm_end on to the AVX2
 * kernel (settle_bswap_avx2_bytes()); in-place swaps of
 * SETTLE_BSWAP_NARROW_INPLACE_BYTES or more go to the SSSE3 kernel, and
 * those in the rule's ymm_inplace_to range (AMD family 19h: to the L1d's
 * size) to the AVX2 kernel.
 *
 * In place at L1 sizes this loop runs at 0.83-0.86 of the same loop
 * without the shuffle on the Intel family 6 model 167 guest, and so does
 * that loop with an XOR by zero in place of the shuffle: there one vector
 * operation between a load and a store to the same address costs that
 * much, whichever it is (examples/bswap-inplace-peers.c; docs/primitives.md,
 * "Byte swap", with the loop shapes tried).
 */
#include <immintrin.h>
#include <stdint.h>

#include "prim/bswap_kernels.h"

#define VEC 64
#define UNROLL 4

static inline __m512i loadu(const unsigned char *p)
{
	return _mm512_loadu_si512((const void *)p);
}

static inline void storeu(unsigned char *p, __m512i v)
{
	_mm512_storeu_si512((void *)p, v);
}

/* Mask of the first len bytes of a vector, 0 <= len < 64. */
static inline __mmask64 first_bytes(size_t len)
{
	return (__mmask64)((1ull << len) - 1);
}

/*
 * The shuffle of the byte-swap loops, or with touch (a constant, so each
 * use compiles to one of the two) none: the value passes through an empty
 * asm, so the compiler cannot tell that the store writes back what was
 * loaded and must keep both (settle_bswap_touch_avx512()).
 */
static inline __attribute__((always_inline)) __m512i
shuf(__m512i v, __m512i m, int touch)
{
	if (!touch)
		return _mm512_shuffle_epi8(v, m);
	__asm__("" : "+v"(v));
	return v;
}

/* The len bytes at s (0 <= len < 64), swapped, to d. */
static inline __attribute__((always_inline)) void
swap_part(unsigned char *d, const unsigned char *s, size_t len, __m512i m,
	  int touch)
{
	__mmask64 k = first_bytes(len);
	__m512i v = _mm512_maskz_loadu_epi8(k, s);

	_mm512_mask_storeu_epi8(d, k, shuf(v, m, touch));
}

/* Whole vectors with ordinary stores; returns the offset after the last. */
static inline __attribute__((always_inline)) size_t
body(unsigned char *d, const unsigned char *s, size_t nb, __m512i m, int touch)
{
	size_t i = 0;

	for (; nb - i >= UNROLL * VEC; i += UNROLL * VEC) {
		__m512i a = loadu(s + i), b = loadu(s + i + VEC);
		__m512i c = loadu(s + i + 2 * VEC), e = loadu(s + i + 3 * VEC);

		storeu(d + i, shuf(a, m, touch));
		storeu(d + i + VEC, shuf(b, m, touch));
		storeu(d + i + 2 * VEC, shuf(c, m, touch));
		storeu(d + i + 3 * VEC, shuf(e, m, touch));
	}
	for (; nb - i >= VEC; i += VEC)
		storeu(d + i, shuf(loadu(s + i), m, touch));
	return i;
}

/*
 * A copy whose destination is 1 to ALIAS_WINDOW - 1 bytes past its source
 * modulo 4 KiB goes from the end to the start. Going forward, each load
 * would then share its address bits 0-11 with a store issued a few vectors
 * before, still in flight, and wait for it as if it depended on it ("4K
 * aliasing", Intel 64 and IA-32 Architectures Optimization Reference
 * Manual, 3.6.8.1 in the 2016 edition): on the AMD Zen 4 guest 512-bit
 * copies of 32 KiB at such distances ran 10-20 % slower (45-52 against
 * 57-58 B/ns; 256-bit and 128-bit copies were not affected). Going
 * backward, the store that shares a load's address bits comes after it.
 * Only where the copy rule says so (AMD family 19h): on the Zen 5 guest
 * the backward copy of 32 KiB ran at 59-62 B/ns at a distance of 64
 * bytes, the forward one at 84.
 */
#define ALIAS_WINDOW 512

static inline int backward(const unsigned char *d, const unsigned char *s)
{
	return (((uintptr_t)d - (uintptr_t)s) & 4095) - 1 < ALIAS_WINDOW - 1 &&
	       settle_bswap_copy_rule()->backward;
}

/* The masked rest first, then whole vectors from the end, four at a time
 * (loaded before they are stored). Ordinary stores; not in place. */
static inline __attribute__((always_inline)) void
body_back(unsigned char *d, const unsigned char *s, size_t nb, __m512i m,
	  int touch)
{
	size_t i = nb - nb % VEC;

	if (i != nb)
		swap_part(d + i, s + i, nb - i, m, touch);
	for (; i >= UNROLL * VEC; i -= UNROLL * VEC) {
		__m512i a = loadu(s + i - VEC), b = loadu(s + i - 2 * VEC);
		__m512i c = loadu(s + i - 3 * VEC), e = loadu(s + i - 4 * VEC);

		storeu(d + i - VEC, shuf(a, m, touch));
		storeu(d + i - 2 * VEC, shuf(b, m, touch));
		storeu(d + i - 3 * VEC, shuf(c, m, touch));
		storeu(d + i - 4 * VEC, shuf(e, m, touch));
	}
	for (; i >= VEC; i -= VEC)
		storeu(d + i - VEC, shuf(loadu(s + i - VEC), m, touch));
}

/* Whole vectors with ordinary stores, then the masked rest; backward for
 * a copy at a 4K-aliasing distance where the copy rule says so (never in
 * place: the distance is 0). */
static inline __attribute__((always_inline)) void
swap_plain(unsigned char *d, const unsigned char *s, size_t nb, __m512i m,
	   int touch)
{
	size_t i;

	if (nb > VEC && backward(d, s)) {
		body_back(d, s, nb, m, touch);
		return;
	}
	i = body(d, s, nb, m, touch);
	if (i != nb)
		swap_part(d + i, s + i, nb - i, m, touch);
}

static inline __attribute__((always_inline)) void
swap_all(void *dst, const void *src, size_t nb, size_t esz, __m128i lane,
	 int touch)
{
	const __m512i m = _mm512_broadcast_i32x4(lane);

	if (settle_bswap_goes_narrow(dst, src, nb)) {
		if (touch)
			settle_bswap_touch_ssse3(dst, src, nb, esz);
		else
			settle_bswap_ssse3_bytes(dst, src, nb, esz);
	} else if (dst != src ? settle_bswap_goes_ymm(nb) :
				settle_bswap_inplace_ymm(nb)) {
		if (touch)
			settle_bswap_touch_avx2_bytes(dst, src, nb);
		else
			settle_bswap_avx2_bytes(dst, src, nb, esz);
	} else {
		swap_plain(dst, src, nb, m, touch);
	}
}

void settle_bswap16_avx512(void *dst, const void *src, size_t n)
{
	const __m128i lane = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6,
					   9, 8, 11, 10, 13, 12, 15, 14);

	swap_all(dst, src, n * 2, 2, lane, 0);
}

void settle_bswap32_avx512(void *dst, const void *src, size_t n)
{
	const __m128i lane = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4,
					   11, 10, 9, 8, 15, 14, 13, 12);

	swap_all(dst, src, n * 4, 4, lane, 0);
}

void settle_bswap64_avx512(void *dst, const void *src, size_t n)
{
	const __m128i lane = _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0,
					   15, 14, 13, 12, 11, 10, 9, 8);

	swap_all(dst, src, n * 8, 8, lane, 0);
}

/* The loop of settle_bswap*_avx512() without the shuffle
 * (src/prim/bswap_kernels.h): whole vectors, four per step, then the
 * masked rest (a copy at a 4K-aliasing distance backward, where the copy
 * rule says so); where the kernel hands over to the AVX2 or SSSE3 one,
 * theirs. */
void settle_bswap_touch_avx512(void *dst, const void *src, size_t nb,
			       size_t esz)
{
	swap_all(dst, src, nb, esz, _mm_setzero_si128(), 1);
}
