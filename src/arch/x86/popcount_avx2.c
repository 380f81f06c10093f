/*
 * popcount_avx2.c - population count over 256-bit vectors: Harley-Seal
 * carry-save adders with the nibble-lookup count, and, on CPUs that also
 * have POPCNT, scalar POPCNT side by side with the vectors.
 *
 * Source: Wojciech Mula, Nathan Kurz, Daniel Lemire, "Faster Population
 * Counts Using AVX2 Instructions", The Computer Journal 61(1), 2018
 * (arXiv:1611.07612): section 3 (the in-register lookup: VPSHUFB maps each
 * nibble to its count, VPSADBW sums the bytes of each 64-bit lane) and
 * section 4 (Harley-Seal: a carry-save adder, CSA, adds three bit vectors
 * into a "sum" and a "carry" vector with five logical operations; a tree
 * of CSAs folds 16 input vectors into one vector of weight 16, so only one
 * vector in 16 is counted with the lookup). Instruction semantics: Intel
 * SDM vol. 2, VPSHUFB, VPSADBW. The lane count takes one VPSADBW of two
 * lookups, 4 + count(low nibble) and 4 - count(high nibble), whose
 * absolute difference is the byte's count (the way libpopcnt's
 * popcnt256() saves the byte addition; Kim Walisch,
 * github.com/kimwalisch/libpopcnt).
 *
 * Layout of one call: below HS_MIN bytes, pairs of vectors counted one by
 * one into two lane accumulators (more independent work than the CSA
 * tree's chain, which wins for short buffers); from HS_MIN on, blocks of
 * 16 vectors through the CSA tree, then the same pairs; the fewer than 32
 * bytes left as words.
 *
 * Compiled with -mavx2 (Makefile: *_avx2.c); called only when AVX2 and the
 * OS's AVX state are usable (src/arch/x86/dispatch_popcount.c).
 * settle_popcount_kernel_avx2() counts the words left with portable SWAR,
 * so it needs nothing beyond AVX2. settle_popcount_kernel_avx2_popcnt()
 * (a function target attribute) counts them with POPCNT and, from
 * HYBRID_MIN bytes on (up to STREAM_MIN), adds HYBRID_WORDS words counted
 * with scalar POPCNT to every block of 16 vectors; it is called only when
 * the CPU has both.
 *
 * Chosen on the AMD Zen 4 guest (docs/primitives.md; settle run, tests and
 * /tmp harnesses under flock, README's performance section): pairs were
 * 5 % faster than the CSA tree at 512 bytes and 6 % slower at 1 KiB;
 * the hybrid is 5-10 % faster than the CSA tree alone from 2 KiB to 8 MiB.
 */
#define HS_PLAIN settle_popcount_kernel_avx2
#define HS_POPCNT settle_popcount_kernel_avx2_popcnt
#include "popcount_hs256.h"
