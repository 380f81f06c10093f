/*
 * settle_popcount_avx2.h - settle's AVX2 population count of buffers
 * below 2 KiB as inline code, for translation units compiled for AVX2
 * and POPCNT (the compiler's own flags, e.g. -march=x86-64-v3, or
 * -march=native on such a CPU). Included by settle_bits.h; elsewhere it
 * defines nothing. GNU C (gcc, clang), any -std.
 *
 * The lane count, the carry-save tree and the loop over pairs of vectors
 * are also the library's AVX2 and AVX512VL kernels
 * (src/arch/x86/popcount_hs256.h includes this header, compiled for AVX2
 * alone): a header library's count is compiled into its caller, and on
 * the AMD Zen 4 guest a call cost 3-6 % of libpopcnt's AVX2 count at 256
 * bytes to 1 KiB (docs/primitives.md, "popcount"). settle_popcount()
 * does not use it: it stays a call in such callers (settle_bits.h).
 *
 * Sources: Wojciech Mula, Nathan Kurz, Daniel Lemire, "Faster Population
 * Counts Using AVX2 Instructions", The Computer Journal 61(1), 2018
 * (arXiv:1611.07612), section 3 (VPSHUFB looks up the count of each
 * nibble, VPSADBW sums the bytes of each 64-bit lane) and section 4
 * (Harley-Seal: carry-save adders fold 16 vectors into one of weight 16,
 * so only one vector in 16 is counted with the lookup); Intel SDM vol. 2,
 * VPSHUFB, VPSADBW, POPCNT.
 */
#ifndef SETTLE_POPCOUNT_AVX2_H
#define SETTLE_POPCOUNT_AVX2_H

/*
 * The lengths where settle's AVX2 path changes method, for the inline
 * entry below and the library's kernels alike (src/arch/x86/
 * popcount_hs256.h, dispatch_popcount.c; defined for every caller, so
 * that files not compiled for AVX2 read the same numbers): below
 * SETTLE_PC256_POPCNT_MAX bytes POPCNT alone (where it overtook the
 * vectors on the Zen 4 guest: 5.95 ns each at 192 bytes); from it pairs
 * of vectors; from SETTLE_PC256_HS_MIN the carry-save tree first; from
 * SETTLE_PC256_CALL_MIN on, POPCNT beside the vectors (the library's
 * kernel: too long to inline).
 */
#define SETTLE_PC256_POPCNT_MAX 192
#define SETTLE_PC256_HS_MIN 1024
#define SETTLE_PC256_CALL_MIN 2048

#if defined(__x86_64__) && defined(__AVX2__)
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* clang -pedantic: GNU extern inline functions may call the intrinsics,
 * which are static (C99 6.7.4p3 forbids it of a C99 inline definition;
 * GNU C's inlines are not those) */
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wstatic-in-inline"
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* Every function here is inlined, always, and never emitted (GNU C's
 * extern inline). */
#define SETTLE_PC256_INLINE \
	extern __inline__ __attribute__((__gnu_inline__, __always_inline__))

#define SETTLE_PC256_VEC 32

/*
 * Set bits of each 64-bit lane of v: VPSHUFB looks up 4 + the count of
 * each low nibble and 4 - the count of each high nibble; VPSADBW sums the
 * absolute differences, (4 + lo) - (4 - hi) = lo + hi, over each lane
 * (one addition fewer than adding two lookups; the way libpopcnt's
 * popcnt256() does it, Kim Walisch, github.com/kimwalisch/libpopcnt).
 * The high nibbles by a 64-bit shift, not a 16-bit one: the mask drops
 * what either brings in from the next byte, and where AVX512VL is
 * enabled the compiler folds the load into the 64-bit shift's EVEX form
 * (a 16-bit shift from memory needs AVX512BW): the AVX512VL kernel, at
 * 256 and 384 bytes on the Zen 5 guest, took 0.87-0.90 of the library's
 * time against 0.95-0.97 with the 16-bit shift (the kernel's code
 * compiled into a claim and called through a pointer, each ratio
 * against the library's kernel in the same run; settle run, 3
 * processes, 2 layouts, 2026-12-05). In AVX2 code (VEX) both shifts
 * cost the same.
 */
SETTLE_PC256_INLINE __m256i settle_pc256_lanes(__m256i v)
{
	const __m256i plus = _mm256_setr_epi8(4, 5, 5, 6, 5, 6, 6, 7,
					      5, 6, 6, 7, 6, 7, 7, 8,
					      4, 5, 5, 6, 5, 6, 6, 7,
					      5, 6, 6, 7, 6, 7, 7, 8);
	const __m256i minus = _mm256_setr_epi8(4, 3, 3, 2, 3, 2, 2, 1,
					       3, 2, 2, 1, 2, 1, 1, 0,
					       4, 3, 3, 2, 3, 2, 2, 1,
					       3, 2, 2, 1, 2, 1, 1, 0);
	const __m256i nibble = _mm256_set1_epi8(0x0f);
	__m256i lo = _mm256_and_si256(v, nibble);
	__m256i hi = _mm256_and_si256(_mm256_srli_epi64(v, 4), nibble);

	return _mm256_sad_epu8(_mm256_shuffle_epi8(plus, lo),
			       _mm256_shuffle_epi8(minus, hi));
}

/*
 * Whole vectors of p[0..*lenp), two at a time into two accumulators,
 * added to the lanes of total; advances *pp and *lenp past them (fewer
 * than 32 bytes are left). No lane comes near 2^63.
 */
SETTLE_PC256_INLINE __m256i
settle_pc256_pairs(const unsigned char **pp, size_t *lenp, __m256i total)
{
	const unsigned char *p = *pp;
	size_t len = *lenp;
	__m256i b = _mm256_setzero_si256();

	for (; len >= 2 * SETTLE_PC256_VEC; p += 2 * SETTLE_PC256_VEC,
					    len -= 2 * SETTLE_PC256_VEC) {
		total = _mm256_add_epi64(total, settle_pc256_lanes(
			_mm256_loadu_si256((const __m256i *)p)));
		b = _mm256_add_epi64(b, settle_pc256_lanes(_mm256_loadu_si256(
			(const __m256i *)(p + SETTLE_PC256_VEC))));
	}
	if (len >= SETTLE_PC256_VEC) {
		total = _mm256_add_epi64(total, settle_pc256_lanes(
			_mm256_loadu_si256((const __m256i *)p)));
		p += SETTLE_PC256_VEC;
		len -= SETTLE_PC256_VEC;
	}
	*pp = p;
	*lenp = len;
	return _mm256_add_epi64(total, b);
}

#define SETTLE_PC256_BLOCK (16 * SETTLE_PC256_VEC) /* a Harley-Seal step */

SETTLE_PC256_INLINE __m256i settle_pc256_load(const unsigned char *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

/*
 * Carry-save adder (Harley-Seal, section 4 of the paper above): for every
 * bit position, a + b + c = 2 * *carry + *sum, with carry = majority(a, b,
 * c) = (a & b) | (c & (a ^ b)) and sum = a ^ b ^ c; a is the running
 * accumulator (ones, twos, ...). Compiled for AVX512VL, each of the two is
 * one ternary-logic instruction (VPTERNLOGQ, Intel SDM vol. 2C: bit i of
 * imm8 is the result for inputs with 4a + 2b + c = i; 0xe8 the majority,
 * 0x96 the parity).
 *
 * The AVX2 adder has two forms (the two give the same bits):
 * SETTLE_PC256_FOLDED starts from a ^ b, SETTLE_PC256_SHORT from b ^ c,
 * so that the accumulator's chain is one operation, not two. In a long
 * loop the short form made gcc 12 -O2/-O3 load vectors into registers
 * with separate moves where the folded one folds every load into the
 * logic operations: a block's loop of 98 instructions against 85
 * (libpopcnt's loop, written the folded way, has 85 too). On the Zen 4
 * guest the tree alone took 1.04x libpopcnt's time at 1 MiB, 1.00x
 * folded, and the hybrid kernel 1.03x against 0.99x (settle run
 * --rigorous, 9 processes, 2026-12-04; docs/primitives.md). One to three
 * blocks (1-2 KiB) wait instead on the ones' chain (two carry-save
 * adders per 64 bytes), and there the short form wins: compiled into
 * the caller (-O3 -march=x86-64-v3), 1 KiB took 0.973 of libpopcnt's
 * time short against 1.013 folded, 1536 bytes 0.965 against 1.012, 2016
 * bytes 0.948 against 0.994 (settle run, 5 processes, 4 layouts, the
 * same rounds, 2026-12-04).
 */
enum settle_pc256_form { SETTLE_PC256_FOLDED, SETTLE_PC256_SHORT };

SETTLE_PC256_INLINE void settle_pc256_csa(__m256i *carry, __m256i *sum,
					  __m256i a, __m256i b, __m256i c,
					  enum settle_pc256_form form)
{
#ifdef __AVX512VL__
	(void)form;
	*carry = _mm256_ternarylogic_epi64(a, b, c, 0xe8);
	*sum = _mm256_ternarylogic_epi64(a, b, c, 0x96);
#else
	__m256i u;

	if (form == SETTLE_PC256_SHORT) {
		u = _mm256_xor_si256(b, c);
		*carry = _mm256_or_si256(_mm256_and_si256(b, c),
					 _mm256_and_si256(u, a));
		*sum = _mm256_xor_si256(u, a);
		return;
	}
	u = _mm256_xor_si256(a, b);
	*carry = _mm256_or_si256(_mm256_and_si256(a, b),
				 _mm256_and_si256(u, c));
	*sum = _mm256_xor_si256(u, c);
#endif
}

/* Two vectors at p + 32 * i into the ones, with their carry out. */
#define SETTLE_PC256_CSA2(carry, p, i, ones, form)			\
	settle_pc256_csa(carry, ones, *(ones),				\
			 settle_pc256_load((p) + (i) * SETTLE_PC256_VEC), \
			 settle_pc256_load((p) + ((i) + 1) * SETTLE_PC256_VEC), \
			 form)

/* Adds the 16 vectors at p into the CSA tree with adders of the given
 * form; returns the weight-16 carry out. ones, twos, fours, eights hold
 * the bits of weight 1, 2, 4, 8. */
SETTLE_PC256_INLINE __m256i settle_pc256_block(const unsigned char *p,
					       __m256i *ones, __m256i *twos,
					       __m256i *fours, __m256i *eights,
					       enum settle_pc256_form form)
{
	__m256i twos_a, twos_b, fours_a, fours_b, eights_a, eights_b, sixteens;

	SETTLE_PC256_CSA2(&twos_a, p, 0, ones, form);
	SETTLE_PC256_CSA2(&twos_b, p, 2, ones, form);
	settle_pc256_csa(&fours_a, twos, *twos, twos_a, twos_b, form);
	SETTLE_PC256_CSA2(&twos_a, p, 4, ones, form);
	SETTLE_PC256_CSA2(&twos_b, p, 6, ones, form);
	settle_pc256_csa(&fours_b, twos, *twos, twos_a, twos_b, form);
	settle_pc256_csa(&eights_a, fours, *fours, fours_a, fours_b, form);
	SETTLE_PC256_CSA2(&twos_a, p, 8, ones, form);
	SETTLE_PC256_CSA2(&twos_b, p, 10, ones, form);
	settle_pc256_csa(&fours_a, twos, *twos, twos_a, twos_b, form);
	SETTLE_PC256_CSA2(&twos_a, p, 12, ones, form);
	SETTLE_PC256_CSA2(&twos_b, p, 14, ones, form);
	settle_pc256_csa(&fours_b, twos, *twos, twos_a, twos_b, form);
	settle_pc256_csa(&eights_b, fours, *fours, fours_a, fours_b, form);
	settle_pc256_csa(&sixteens, eights, *eights, eights_a, eights_b, form);
	return sixteens;
}

/* The CSA tree's state in lane counts: 16 * sixteens (the lane counts so
 * far of the weight-16 carries) + 8 * eights + ... + ones. */
SETTLE_PC256_INLINE __m256i settle_pc256_weigh(__m256i sixteens,
					       __m256i ones, __m256i twos,
					       __m256i fours, __m256i eights)
{
	__m256i e = _mm256_slli_epi64(settle_pc256_lanes(eights), 3);
	__m256i f = _mm256_slli_epi64(settle_pc256_lanes(fours), 2);
	__m256i t = _mm256_slli_epi64(settle_pc256_lanes(twos), 1);
	__m256i a = _mm256_add_epi64(_mm256_slli_epi64(sixteens, 4), e);

	return _mm256_add_epi64(_mm256_add_epi64(a, _mm256_add_epi64(f, t)),
				settle_pc256_lanes(ones));
}

/* Harley-Seal over the whole blocks of p[0..*lenp), with adders of the
 * given form (SETTLE_PC256_SHORT for a few blocks, SETTLE_PC256_FOLDED
 * for many: settle_pc256_csa()); advances *pp and *lenp past them.
 * Returns the count per 64-bit lane. */
SETTLE_PC256_INLINE __m256i settle_pc256_blocks(const unsigned char **pp,
						size_t *lenp,
						enum settle_pc256_form form)
{
	const unsigned char *p = *pp;
	size_t len = *lenp;
	__m256i total = _mm256_setzero_si256();
	__m256i ones = total, twos = total, fours = total, eights = total;

	for (; len >= SETTLE_PC256_BLOCK;
	     p += SETTLE_PC256_BLOCK, len -= SETTLE_PC256_BLOCK) {
		__m256i sixteens = settle_pc256_block(p, &ones, &twos, &fours,
						      &eights, form);

		total = _mm256_add_epi64(total, settle_pc256_lanes(sixteens));
	}
	*pp = p;
	*lenp = len;
	return settle_pc256_weigh(total, ones, twos, fours, eights);
}

/* Sum of the four 64-bit lanes of v, modulo 2^64. */
SETTLE_PC256_INLINE uint64_t settle_pc256_sum(__m256i v)
{
	__m128i h = _mm_add_epi64(_mm256_castsi256_si128(v),
				  _mm256_extracti128_si256(v, 1));

	h = _mm_add_epi64(h, _mm_unpackhi_epi64(h, h));
	return (uint64_t)_mm_cvtsi128_si64(h);
}

#ifdef __POPCNT__
#define SETTLE_POPCOUNT_AVX2_INLINE 1


/*
 * The library's AVX2 kernel with POPCNT, any length and alignment (0 ..
 * 8 * len bits). Needs AVX2, POPCNT and the OS's AVX state (SIGILL
 * without).
 */
uint64_t settle_popcount_kernel_avx2_popcnt(const void *buf, size_t len);

/* The set bits of the 8 bytes at p (any alignment), 0 .. 64. */
SETTLE_PC256_INLINE uint64_t settle_pc256_word(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return (uint64_t)_mm_popcnt_u64(w);
}

/* The count of the len < 8 bytes at p: one POPCNT of a word made of
 * them, each byte read once. */
SETTLE_PC256_INLINE uint64_t settle_pc256_bytes(const unsigned char *p,
						size_t len)
{
	uint64_t w = 0;
	uint32_t w4;
	uint16_t w2;

	if (len & 4) {
		memcpy(&w4, p, 4);
		w = w4;
		p += 4;
	}
	if (len & 2) {
		memcpy(&w2, p, 2);
		w |= (uint64_t)w2 << 32;
		p += 2;
	}
	if (len & 1)
		w |= (uint64_t)*p << 48;
	return (uint64_t)_mm_popcnt_u64(w);
}

/* The count of p[0..len) with POPCNT: four words at a time into four
 * sums (no chain of additions limits the POPCNTs), then words, then the
 * bytes left. */
SETTLE_PC256_INLINE uint64_t settle_pc256_words(const unsigned char *p,
						size_t len)
{
	uint64_t a = 0, b = 0, c = 0, d = 0;

	for (; len >= 32; p += 32, len -= 32) {
		a += settle_pc256_word(p);
		b += settle_pc256_word(p + 8);
		c += settle_pc256_word(p + 16);
		d += settle_pc256_word(p + 24);
	}
	for (; len >= 8; p += 8, len -= 8)
		a += settle_pc256_word(p);
	return (a + b) + (c + d) + settle_pc256_bytes(p, len);
}

/*
 * The number of set bits in the len bytes at buf (0 .. 8 * len), as
 * settle's AVX2 path counts them (settle_popcount_path_fn(
 * SETTLE_POPCOUNT_AVX2) on a CPU with POPCNT), compiled into the caller
 * (always inlined): below SETTLE_PC256_POPCNT_MAX bytes with POPCNT,
 * below SETTLE_PC256_CALL_MIN with the carry-save tree (from
 * SETTLE_PC256_HS_MIN), pairs of vectors and POPCNT for the last words,
 * from there by a call of settle_popcount_kernel_avx2_popcnt().
 * Any alignment. No dispatch: like the build it is compiled in, it
 * raises SIGILL on a CPU without AVX2 and POPCNT. In a caller compiled
 * for AVX512VL as well, the carry-save adders are VPTERNLOGQ (as in the
 * library's AVX512VL kernel); the kernel called from
 * SETTLE_PC256_CALL_MIN on is the AVX2 one. Never fails.
 */
SETTLE_PC256_INLINE uint64_t
settle_popcount_avx2_inline(const void *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf;
	__m256i total;

	if (__builtin_expect(len >= SETTLE_PC256_CALL_MIN, 0))
		return settle_popcount_kernel_avx2_popcnt(buf, len);
	if (len < SETTLE_PC256_POPCNT_MAX)
		return settle_pc256_words(p, len);
	total = _mm256_setzero_si256();
	if (len >= SETTLE_PC256_HS_MIN) /* one to three blocks */
		total = settle_pc256_blocks(&p, &len, SETTLE_PC256_SHORT);
	total = settle_pc256_pairs(&p, &len, total);
	return settle_pc256_sum(total) + settle_pc256_words(p, len);
}
#endif /* __POPCNT__ */

#ifdef __cplusplus
}
#endif
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
#endif /* AVX2 */
#endif
