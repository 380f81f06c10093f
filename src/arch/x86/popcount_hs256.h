/*
 * popcount_hs256.h - the body of the two 256-bit Harley-Seal popcount
 * kernels, included by popcount_avx2.c and popcount_avx512vl.c (see the
 * first for the algorithm, its sources and the measurements behind its
 * constants). The includer defines HS_PLAIN and HS_POPCNT, the names of
 * the kernel without and with scalar POPCNT, and is compiled for its ISA:
 * with AVX512VL (__AVX512VL__) each carry-save adder is two VPTERNLOGQ
 * instead of five logical operations; nothing else differs but the
 * length from which the tree runs (HS_MIN, which the includer may set).
 * Its carry-save adders are the folded form at every length: the short
 * one, faster in inline callers' 1-2 KiB (settle_pc256_csa()), made
 * these kernels (-O2) keep vectors on the stack (1.16x libpopcnt's
 * time at 1 KiB), and in a separate function called for 1-2 KiB 1.07x;
 * the folded kernel took 1.01x in a run of its own, the same claim
 * (Zen 4 guest, settle run, 5 processes, 4 layouts, 2026-12-04: each
 * ratio against libpopcnt in its own run, the kernels being two builds
 * of the library).
 */
#ifndef HS_PLAIN
#error "define HS_PLAIN and HS_POPCNT before including popcount_hs256.h"
#endif
#include <immintrin.h>

#include "prim/popcount_kernels.h"
#include "settle_popcount_avx2.h" /* the lane count and the pairs, shared
				    * with inline callers */

#define BLOCK SETTLE_PC256_BLOCK /* bytes per Harley-Seal step */
#ifndef HS_MIN
#define HS_MIN SETTLE_PC256_HS_MIN /* shortest buffer for the CSA tree */
#endif


/* The fewer than 32 bytes at p with SWAR: at most 3 words and a 7-byte
 * word, byte counts up to 32 and at most 248 bits, so one
 * settle_sum_bytes() is exact. */
static inline uint64_t tail_swar(const unsigned char *p, size_t len)
{
	uint64_t acc = 0;

	for (; len >= 8; p += 8, len -= 8)
		acc += settle_swar_bytes(settle_load64(p));
	acc += settle_swar_bytes(settle_tail_word(p, len));
	return settle_sum_bytes(acc);
}

uint64_t HS_PLAIN(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	__m256i total = _mm256_setzero_si256();

	if (len >= HS_MIN)
		total = settle_pc256_blocks(&p, &len, SETTLE_PC256_FOLDED);
	total = settle_pc256_pairs(&p, &len, total);
	return settle_pc256_sum(total) + tail_swar(p, len);
}

/*
 * With POPCNT as well: from HYBRID_MIN bytes on, each step adds 16
 * vectors into the CSA tree and counts HYBRID_WORDS more 64-bit words with
 * scalar POPCNT. The CSA tree keeps the vector pipes busy (five logical
 * operations per vector) but leaves issue slots, integer ALUs and load
 * ports idle; the scalar words use them. On the AMD Zen 4 guest where
 * settle is developed, 16 words per 16 vectors counted 1 MiB about 20 %
 * faster than the AVX2 kernel alone (8 and 24 words gained less).
 */
#define HYBRID_MIN SETTLE_PC256_CALL_MIN /* where inline callers call */
/*
 * From STREAM_MIN bytes on (streaming from the last-level cache or from
 * memory) the CSA tree alone: on the Zen 4 guest it read 1 GiB at 26.1
 * B/ns against 24.4 with the scalar share (256 MiB: 23.3 against 22.1;
 * 32 MiB: 38.4 against 34.1), where at 4-8 MiB the share still gains.
 */
#define STREAM_MIN (16u << 20)
#define HYBRID_WORDS 16 /* four popcnt4() calls per step */
#define HYBRID_STEP (BLOCK + 8 * HYBRID_WORDS)

__attribute__((target("popcnt")))
static inline uint64_t popcnt64(uint64_t w)
{
	return (uint64_t)__builtin_popcountll(w);
}

/* Four words into four accumulators, so that no chain of additions
 * limits the POPCNTs. */
__attribute__((target("popcnt"), always_inline))
static inline void popcnt4(const unsigned char *q, uint64_t *a, uint64_t *b,
			   uint64_t *c, uint64_t *d)
{
	*a += popcnt64(settle_load64(q));
	*b += popcnt64(settle_load64(q + 8));
	*c += popcnt64(settle_load64(q + 16));
	*d += popcnt64(settle_load64(q + 24));
}

/* The fewer than 32 bytes at p with POPCNT. */
__attribute__((target("popcnt")))
static inline uint64_t tail_popcnt(const unsigned char *p, size_t len)
{
	uint64_t n = 0;

	for (; len >= 8; p += 8, len -= 8)
		n += popcnt64(settle_load64(p));
	return n + popcnt64(settle_tail_word(p, len));
}

__attribute__((target("popcnt")))
uint64_t HS_POPCNT(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	__m256i total = _mm256_setzero_si256();
	__m256i ones = total, twos = total, fours = total, eights = total;
	uint64_t a = 0, b = 0, c = 0, d = 0;

	/* POPCNT alone, where it is faster than the vectors (the length is
	 * the inline entry's, settle_popcount_avx2.h) */
	if (len < SETTLE_PC256_POPCNT_MAX)
		return settle_popcount_kernel_popcnt(buf, len);
	if (len < HYBRID_MIN || len >= STREAM_MIN) {
		if (len >= HS_MIN)
			total = settle_pc256_blocks(&p, &len, SETTLE_PC256_FOLDED);
		total = settle_pc256_pairs(&p, &len, total);
		return settle_pc256_sum(total) + tail_popcnt(p, len);
	}
	for (; len >= HYBRID_STEP; p += HYBRID_STEP, len -= HYBRID_STEP) {
		__m256i sixteens = settle_pc256_block(p, &ones, &twos, &fours,
						      &eights,
						      SETTLE_PC256_FOLDED);
		const unsigned char *q = p + BLOCK;

		total = _mm256_add_epi64(total, settle_pc256_lanes(sixteens));
		popcnt4(q, &a, &b, &c, &d);
		popcnt4(q + 32, &a, &b, &c, &d);
		popcnt4(q + 64, &a, &b, &c, &d);
		popcnt4(q + 96, &a, &b, &c, &d);
	}
	total = settle_pc256_weigh(total, ones, twos, fours, eights);
	if (len >= BLOCK)
		total = _mm256_add_epi64(total, settle_pc256_blocks(
			&p, &len, SETTLE_PC256_FOLDED));
	total = settle_pc256_pairs(&p, &len, total);
	return (a + b) + (c + d) + settle_pc256_sum(total) +
	       tail_popcnt(p, len);
}
