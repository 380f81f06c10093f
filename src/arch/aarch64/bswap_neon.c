/*
 * bswap_neon.c - bulk byte swap with AdvSIMD, 16 bytes per instruction
 * (Arm Architecture Reference Manual for A-profile: REV16, REV32, REV64
 * "reverse elements", which reverse the bytes of each 2-, 4- or 8-byte
 * container of a vector); called when HWCAP_ASIMD is set (dispatch.c).
 * Loads and stores are LD1/ST1 of bytes, so no alignment is needed.
 *
 * Layout of one call over nb bytes (a multiple of the element size esz),
 * as the x86-64 kernels: whole 16-byte blocks from the start, four per
 * loop turn, then the last 16 bytes of the buffer, loaded before anything
 * is stored and stored at the end; its overlap with the blocks before is
 * written twice with the same values, and since it was loaded first, in
 * place stays correct. Fewer than 16 bytes are swapped one element at a
 * time. A copy larger than the last-level cache, to a destination that is
 * a multiple of esz, is written with STNP ("store pair of registers, with
 * non-temporal hint"), two vectors at a time from a 64-byte boundary of
 * the destination, and ends with DMB ISHST, so that the contract of
 * settle_bswap16/32/64 (a store fence after non-temporal stores) holds
 * here too.
 */
#include <arm_neon.h>
#include <stdint.h>

#include "prim/bswap_kernels.h"

#define VEC 16

/*
 * The swap of one vector, for esz 2, 4 or 8 (a constant once inlined), or
 * for esz 0 none: the value passes through an empty asm, so the compiler
 * cannot tell that the store writes back what was loaded and must keep
 * both (settle_bswap_touch_neon(); in a copy the store is kept anyway).
 */
static inline uint8x16_t rev(uint8x16_t v, size_t esz)
{
	if (esz == 0) {
		__asm__("" : "+w"(v));
		return v;
	}
	if (esz == 2)
		return vrev16q_u8(v);
	if (esz == 4)
		return vrev32q_u8(v);
	return vrev64q_u8(v);
}

static inline uint8x16_t load(const unsigned char *p)
{
	return vld1q_u8(p);
}

/* Whole blocks from offset 0 on with ordinary stores; returns the offset
 * after the last whole block. */
static inline size_t body(unsigned char *d, const unsigned char *s,
			  size_t nb, size_t esz)
{
	size_t i = 0;

	for (; nb - i >= 4 * VEC; i += 4 * VEC) {
		uint8x16_t a = load(s + i), b = load(s + i + VEC);
		uint8x16_t c = load(s + i + 2 * VEC), e = load(s + i + 3 * VEC);

		vst1q_u8(d + i, rev(a, esz));
		vst1q_u8(d + i + VEC, rev(b, esz));
		vst1q_u8(d + i + 2 * VEC, rev(c, esz));
		vst1q_u8(d + i + 3 * VEC, rev(e, esz));
	}
	for (; nb - i >= VEC; i += VEC)
		vst1q_u8(d + i, rev(load(s + i), esz));
	return i;
}

static inline void stnp(unsigned char *p, uint8x16_t a, uint8x16_t b)
{
	__asm__ __volatile__("stnp %q1, %q2, [%0]"
			     :: "r"(p), "w"(a), "w"(b) : "memory");
}

/*
 * Non-temporal: elements one at a time up to the next 64-byte boundary of
 * d (d is a multiple of esz, so that boundary is an element boundary),
 * then whole 64-byte blocks with STNP, then whole vectors with ordinary
 * stores, then DMB ISHST. Returns the offset after the last whole vector.
 */
static inline size_t body_nt(unsigned char *d, const unsigned char *s,
			     size_t nb, size_t esz, size_t rsz)
{
	size_t i = (size_t)(-(uintptr_t)d & 63);

	settle_bswap_elems_or_touch(d, s, i, esz, rsz == 0);
	for (; nb - i >= 4 * VEC; i += 4 * VEC) {
		uint8x16_t a = load(s + i), b = load(s + i + VEC);
		uint8x16_t c = load(s + i + 2 * VEC), e = load(s + i + 3 * VEC);

		stnp(d + i, rev(a, rsz), rev(b, rsz));
		stnp(d + i + 2 * VEC, rev(c, rsz), rev(e, rsz));
	}
	for (; nb - i >= VEC; i += VEC)
		vst1q_u8(d + i, rev(load(s + i), rsz));
	__asm__ __volatile__("dmb ishst" ::: "memory");
	settle_bswap_nt_note();
	return i;
}

/* At least VEC bytes with ordinary stores: whole vectors, then the last
 * VEC bytes of the buffer, loaded before anything is stored. */
static inline void swap_plain(unsigned char *d, const unsigned char *s,
			      size_t nb, size_t esz)
{
	uint8x16_t last = load(s + nb - VEC);

	if (body(d, s, nb, esz) != nb)
		vst1q_u8(d + nb - VEC, rev(last, esz));
}

/* Buffers of SETTLE_BSWAP_NT_MIN_BYTES or more: non-temporal stores when
 * larger than the threshold (settle_bswap_nt_bytes()), not in place, and
 * d is a multiple of esz; rsz is the swap's element size, 0 for the touch
 * loop (rev()). Kept out of line (swap_large(), touch_large()), so the
 * common path makes no call. */
static inline __attribute__((always_inline)) void
large(unsigned char *d, const unsigned char *s, size_t nb, size_t esz,
      size_t rsz)
{
	uint8x16_t last;

	if (d == s || nb <= settle_bswap_nt_bytes() ||
	    (uintptr_t)d % esz != 0) {
		swap_plain(d, s, nb, rsz);
		return;
	}
	last = load(s + nb - VEC);
	if (body_nt(d, s, nb, esz, rsz) != nb)
		vst1q_u8(d + nb - VEC, rev(last, rsz));
}

static __attribute__((noinline)) void
swap_large(unsigned char *d, const unsigned char *s, size_t nb, size_t esz)
{
	large(d, s, nb, esz, esz);
}

static __attribute__((noinline)) void
touch_large(unsigned char *d, const unsigned char *s, size_t nb, size_t esz)
{
	large(d, s, nb, esz, 0);
}

static inline __attribute__((always_inline)) void
swap_all(void *dst, const void *src, size_t nb, size_t esz, size_t rsz)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (nb < VEC) {
		settle_bswap_elems_or_touch(d, s, nb, esz, rsz == 0);
		return;
	}
	if (nb >= SETTLE_BSWAP_NT_MIN_BYTES) {
		if (rsz == 0)
			touch_large(d, s, nb, esz);
		else
			swap_large(d, s, nb, esz);
	} else {
		swap_plain(d, s, nb, rsz);
	}
}

void settle_bswap16_neon(void *dst, const void *src, size_t n)
{
	swap_all(dst, src, n * 2, 2, 2);
}

void settle_bswap32_neon(void *dst, const void *src, size_t n)
{
	swap_all(dst, src, n * 4, 4, 4);
}

void settle_bswap64_neon(void *dst, const void *src, size_t n)
{
	swap_all(dst, src, n * 8, 8, 8);
}

/* The loop of settle_bswap*_neon() without the REV
 * (src/prim/bswap_kernels.h): whole vectors, four per step, then the last
 * vector; fewer than VEC bytes one byte at a time; a copy above the
 * threshold with STNP. */
void settle_bswap_touch_neon(void *dst, const void *src, size_t nb,
			     size_t esz)
{
	swap_all(dst, src, nb, esz, 0);
}
