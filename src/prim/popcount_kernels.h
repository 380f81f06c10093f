/*
 * popcount_kernels.h - the population count (Hamming weight) kernels
 * behind settle_popcount() (private to settle).
 *
 * Each kernel returns the number of set bits in the len bytes at buf, for
 * any alignment and any len (0 included), as a 64-bit count. Each lives in
 * its own object so that only that object is compiled for its ISA (see
 * src/arch/<arch>/arch.mk: *_popcnt.c, *_avx2.c, *_avx512vl.c, *_avx512.c,
 * *_sve.c);
 * the caller guarantees that the CPU and the OS support it
 * (src/prim/dispatch.h). Only the kernels of the target architecture are
 * built.
 *
 * The small helpers below are static inline, so every file that uses them
 * compiles them with its own flags: plain x86-64 in popcount.c, AVX2 in
 * popcount_avx2.c. They use no instruction beyond the baseline, and their
 * counts do not depend on the host's byte order.
 */
#ifndef SETTLE_POPCOUNT_KERNELS_H
#define SETTLE_POPCOUNT_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Portable 64-bit SWAR (src/prim/popcount.c); any CPU. */
uint64_t settle_popcount_kernel_swar(const void *buf, size_t len);

/* POPCNT, four accumulators (src/arch/x86/popcount_popcnt.c); needs POPCNT. */
uint64_t settle_popcount_kernel_popcnt(const void *buf, size_t len);

/*
 * Harley-Seal carry-save adders over 256-bit vectors
 * (src/arch/x86/popcount_avx2.c); needs AVX2 with OS support for AVX state.
 * Tails are counted with SWAR, so it does not need POPCNT.
 */
uint64_t settle_popcount_kernel_avx2(const void *buf, size_t len);

/*
 * The same with scalar POPCNT: alone below SETTLE_PC256_POPCNT_MAX bytes
 * (settle_popcount_kernel_popcnt()), for the last words, and counting a
 * share of each step's bytes beside the vectors (src/arch/x86/
 * popcount_avx2.c); needs AVX2 and POPCNT. What settle_popcount() calls
 * when AVX2 is chosen and the CPU has POPCNT (src/prim/popcount.c).
 */
uint64_t settle_popcount_kernel_avx2_popcnt(const void *buf, size_t len);

/*
 * The two above with each carry-save adder as two VPTERNLOGQ
 * (src/arch/x86/popcount_avx512vl.c, body popcount_hs256.h); need AVX2,
 * AVX512F and AVX512VL with OS support for AVX, opmask and ZMM state (and
 * POPCNT for the second).
 */
uint64_t settle_popcount_kernel_avx512vl(const void *buf, size_t len);
uint64_t settle_popcount_kernel_avx512vl_popcnt(const void *buf, size_t len);

/*
 * VPOPCNTQ over 512-bit vectors with masked tail loads
 * (src/arch/x86/popcount_avx512.c); needs AVX512F, AVX512BW, AVX512VL and
 * AVX512_VPOPCNTDQ with OS support for opmask and ZMM state.
 */
uint64_t settle_popcount_kernel_avx512(const void *buf, size_t len);

/*
 * How that kernel reads buffers of SETTLE_PC512_STREAM_MIN (16 MiB) bytes
 * or more: 1 with 256-bit loads (AMD family 19h: settle_cpu_amd_19h()),
 * 0 with its 512-bit loop, as shorter ones; -1 at the start: this CPU's
 * choice, decided at the first such buffer. Tests set 0 and 1 so that
 * both paths run on any CPU; nothing else writes it.
 */
extern int settle_pc512_stream_256;

/*
 * AArch64 AdvSIMD: CNT per byte, byte counts summed over up to seven
 * 64-byte blocks, then widened by pairwise adds (UADDLP, UADALP) into
 * 64-bit lanes (src/arch/aarch64/popcount_neon.c); needs HWCAP_ASIMD.
 */
uint64_t settle_popcount_kernel_neon(const void *buf, size_t len);

/*
 * AArch64 SVE: CNT on 64-bit lanes of whole vectors of any length, four
 * accumulators, and a predicated byte count of the tail
 * (src/arch/aarch64/popcount_sve.c); needs HWCAP_SVE.
 */
uint64_t settle_popcount_kernel_sve(const void *buf, size_t len);

static inline uint64_t settle_load64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

/*
 * Byte counts of w: each byte of the result holds the number of set bits
 * (0..8) of the same byte of w. Hacker's Delight, 2nd ed., 5-1, figure 5-2,
 * first three steps, widened to 64 bits.
 */
static inline uint64_t settle_swar_bytes(uint64_t w)
{
	w = w - ((w >> 1) & 0x5555555555555555u);
	w = (w & 0x3333333333333333u) + ((w >> 2) & 0x3333333333333333u);
	return (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fu;
}

/* Sum of the eight bytes of b (each at most 31, so no byte carries): the
 * multiply adds every byte into the top one. */
static inline uint64_t settle_sum_bytes(uint64_t b)
{
	return (b * 0x0101010101010101u) >> 56;
}

/* Hamming weight of one word, portable SWAR. */
static inline uint64_t settle_swar64(uint64_t w)
{
	return settle_sum_bytes(settle_swar_bytes(w));
}

/*
 * The k bytes at p (0 <= k < 8) gathered into one word whose population
 * count is theirs (the byte order in the word is irrelevant to a count).
 * Reads exactly those k bytes, with at most three loads (4, 2, 1 bytes).
 */
static inline uint64_t settle_tail_word(const unsigned char *p, size_t k)
{
	uint64_t w = 0;
	uint32_t w4;
	uint16_t w2;

	if (k & 4) {
		memcpy(&w4, p, 4);
		w = w4;
		p += 4;
	}
	if (k & 2) {
		memcpy(&w2, p, 2);
		w |= (uint64_t)w2 << 32;
		p += 2;
	}
	if (k & 1)
		w |= (uint64_t)*p << 48;
	return w;
}

#endif
