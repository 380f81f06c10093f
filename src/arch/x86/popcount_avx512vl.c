/*
 * popcount_avx512vl.c - the AVX2 kernels' 256-bit Harley-Seal with each
 * carry-save adder as two VPTERNLOGQ (AVX512VL: EVEX forms on YMM
 * registers), for CPUs with AVX512VL but without AVX512_VPOPCNTDQ
 * (Skylake-SP, Cascade Lake, Cooper Lake). The body is popcount_hs256.h;
 * popcount_avx2.c has the algorithm, its sources and its constants.
 *
 * Source: Mula, Kurz, Lemire, "Faster Population Counts Using AVX2
 * Instructions", The Computer Journal 61(1), 2018 (arXiv:1611.07612),
 * section 4 and its AVX-512 variant (a carry-save adder as two ternary-
 * logic operations); Intel SDM vol. 2C, VPTERNLOGD/VPTERNLOGQ.
 *
 * Compiled with -mavx2 -mavx512f -mavx512vl (arch.mk: *_avx512vl.c);
 * called only when AVX2, AVX512F, AVX512VL and the OS's AVX, opmask and
 * ZMM state are usable (src/arch/x86/dispatch_popcount.c). It is the
 * counterpart of libpopcnt's AVX2 code built with -march=native on an
 * AVX-512 CPU, where the compiler folds the same adders into VPTERNLOGQ
 * (examples/popcount-peers.c).
 */
/*
 * The carry-save tree from one block (512 bytes) on, not from two as in
 * the AVX2 kernel: with two VPTERNLOGQ per adder instead of five logical
 * operations it pays from the first block. On the AMD Zen 4 guest
 * (examples/popcount-peers.c, cc -O3 -march=native, 3 processes,
 * 2026-12-04; time of settle's row over libpopcnt's AVX512VL row in the
 * same run) with the tree from 1 KiB: 0.990 at 512 B, 1.046 at 768 B,
 * 1.071 at 1000 B; from 512 B: 0.814, 0.866, 0.899 (1 KiB: 0.78-0.79
 * both).
 */
#define HS_MIN 512
#define HS_PLAIN settle_popcount_kernel_avx512vl
#define HS_POPCNT settle_popcount_kernel_avx512vl_popcnt
#include "popcount_hs256.h"
