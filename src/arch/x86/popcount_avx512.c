/*
 * popcount_avx512.c - population count over 512-bit vectors with
 * VPOPCNTQ (AVX512_VPOPCNTDQ).
 *
 * Sources: Intel SDM vol. 2C, VPOPCNTD/VPOPCNTQ (the count of each 64-bit
 * lane) and vol. 1, 15.4 "Memory fault suppression" (a masked load reads
 * no masked-out byte, so the head and tail loads touch only the buffer's
 * bytes); the AVX-512 row of Mula, Kurz, Lemire, "Faster Population
 * Counts Using AVX2 Instructions", The Computer Journal 61(1), 2018
 * (arXiv:1611.07612).
 *
 * The loop and the entry's test are in include/settle_popcount_avx512.h,
 * shared with callers compiled for AVX-512, into whose code settle_bits.h
 * puts them (settle_popcount()); the out-of-line paths are here.
 *
 * Compiled with -mavx512f -mavx512bw -mavx512vl -mavx512vpopcntdq
 * (Makefile: *_avx512.c); called only when all four are usable and XCR0
 * enables opmask and ZMM state (src/arch/x86/dispatch_popcount.c).
 *
 * Layout of one call (below STREAM_MIN bytes; see count_stream() for
 * longer ones): a buffer of SETTLE_PC512_PROLOGUE_MIN bytes or more that does
 * not start on a 64-byte boundary begins with one byte-masked load of the
 * aligned vector that holds its first byte, so that every later load is
 * aligned and none splits a cache line (a buffer from malloc, 16 bytes
 * past a boundary, was up to 1.5x slower without it); then four vectors
 * per step, each count added into its own accumulator; then
 * single vectors; then one byte-masked load of the fewer than 64 bytes
 * left.
 *
 * Chosen on the AMD Zen 4 guest (docs/primitives.md), where VPOPCNTQ
 * plus one VPADDQ per vector keeps pace with the loads and every extra
 * vector instruction costs time: four counts then four adds into four
 * accumulators compile (gcc 12, -O2) to a loop without register copies
 * and matched libpopcnt at 32 KiB, where two accumulators with a
 * pairwise add compiled with two copies per step and were 2.3 % slower,
 * and four accumulators with each add next to its count 21 % slower; a
 * Harley-Seal stage with VPTERNLOGQ (two ternary-logic operations per
 * carry-save adder) was 1.45x slower at 32 KiB and 1.4x at 4 KiB, and one
 * that mixed it with VPOPCNTQ was 1.2x slower; four words counted with
 * scalar POPCNT next to each step's four vectors were 1.08x slower at
 * 32 KiB (two words 1.26x). The prologue gained 20-35 % from 2 KiB on;
 * below, a buffer 16 bytes past a boundary was faster without it (1 KiB:
 * 7.6 ns against 8.1; 256 bytes: 2.7 against 4.4).
 */
#include <immintrin.h>

#include "cpu/cpu.h"
#include "prim/popcount_kernels.h"
#include "settle_popcount_avx512.h" /* the loop, shared with inline callers */

#define VEC SETTLE_PC512_VEC /* bytes per vector */
/*
 * From STREAM_MIN bytes on (buffers that stream from the last-level cache
 * or from memory, not from L1/L2), on AMD family 19h only
 * (settle_cpu_amd_19h()), 256-bit loads: on the Zen 4 guest the same
 * VPOPCNTQ loop read 1 GiB at 26.9 B/ns with 256-bit loads against 23.9
 * with 512-bit ones (256 MiB: 22.7 against 19.5; 32 MiB: 42.8 against
 * 37.9; 8 MiB: the same), and libpopcnt's AVX-512 kernel, with 512-bit
 * loads, is no faster. Below it 512-bit loads win (1 MiB: 98.6 against
 * 94.5 B/ns). On the Zen 5 guest (family 1Ah) the 256-bit loads read
 * 32 MiB 1.14x slower than libpopcnt's 512-bit loop (the bench of
 * 2026-12-01), so there, and on Intel's cores, the 512-bit loop runs at
 * every size.
 */
#define STREAM_MIN SETTLE_PC512_STREAM_MIN

#define count_at settle_pc512_at
#define count_masked settle_pc512_masked

/* Sum of the eight lanes (each count is far below 2^63). */
static inline uint64_t sum_lanes(__m512i v)
{
	return (uint64_t)_mm512_reduce_add_epi64(v);
}

/* Sum of the four lanes. */
static inline uint64_t sum_lanes256(__m256i v)
{
	__m128i h = _mm_add_epi64(_mm256_castsi256_si128(v),
				  _mm256_extracti128_si256(v, 1));

	h = _mm_add_epi64(h, _mm_unpackhi_epi64(h, h));
	return (uint64_t)_mm_cvtsi128_si64(h);
}

static inline __m256i count256(const unsigned char *p)
{
	return _mm256_popcnt_epi64(_mm256_load_si256((const __m256i *)p));
}

/*
 * Long buffers (STREAM_MIN bytes or more): a masked head up to a 64-byte
 * boundary, then aligned 256-bit loads, four per step into two
 * accumulators, then the fewer than 128 bytes left with the masked tail.
 */
static __attribute__((noinline)) uint64_t
count_stream(const unsigned char *p, size_t len)
{
	size_t off = (uintptr_t)p & (VEC - 1);
	__m256i a = _mm256_setzero_si256(), b = a;
	__mmask64 k;
	__m512i t;

	t = off ? count_masked(p - off, ~0ull << off) : _mm512_setzero_si512();
	if (off) {
		p += VEC - off;
		len -= VEC - off;
	}
	for (; len >= 128; p += 128, len -= 128) {
		__m256i w = count256(p), x = count256(p + 32);
		__m256i y = count256(p + 64), z = count256(p + 96);

		a = _mm256_add_epi64(a, _mm256_add_epi64(w, y));
		b = _mm256_add_epi64(b, _mm256_add_epi64(x, z));
	}
	if (len >= VEC) {
		t = _mm512_add_epi64(t, count_at(p));
		p += VEC;
		len -= VEC;
	}
	k = (1ull << len) - 1; /* len < 64 */
	if (len)
		t = _mm512_add_epi64(t, count_masked(p, k));
	return sum_lanes256(_mm256_add_epi64(a, b)) + sum_lanes(t);
}

/* A buffer that does not start on a 64-byte boundary: bytes off..63 of
 * the aligned vector that holds p[0], then aligned loads only. */
static __attribute__((noinline)) uint64_t
count_unaligned(const unsigned char *p, size_t len)
{
	size_t off = (uintptr_t)p & (VEC - 1);
	__m512i head = count_masked(p - off, ~0ull << off);

	return settle_pc512_from(p + VEC - off, len - (VEC - off), head);
}

int settle_pc512_stream_256 = -1;

/* Read STREAM_MIN bytes and more with 256-bit loads (see above)? */
static int stream_256(void)
{
	int s = __atomic_load_n(&settle_pc512_stream_256, __ATOMIC_RELAXED);

	if (s < 0) {
		s = settle_cpu_amd_19h(settle_cpuid_this());
		__atomic_store_n(&settle_pc512_stream_256, s, __ATOMIC_RELAXED);
	}
	return s;
}

/* Buffers the entry sends out of line: STREAM_MIN bytes or more, or
 * SETTLE_PC512_PROLOGUE_MIN bytes or more that do not start on a 64-byte
 * boundary (settle_pc512_out_of_line()). count_unaligned() also takes an
 * aligned buffer (its head is then a whole vector). */
static __attribute__((noinline)) uint64_t
count_long(const unsigned char *p, size_t len)
{
	if (len >= STREAM_MIN && stream_256())
		return count_stream(p, len);
	return count_unaligned(p, len);
}

/*
 * Aligned buffers below STREAM_MIN, and short ones however aligned, run
 * straight into the loop: the out-of-line cases are tested first, each
 * with a branch not taken for them (settle_pc512_out_of_line(): one
 * branch-free test of both ran 32 KiB 9 % slower on the Zen 5 guest).
 * On the Zen 4 guest, with the tests in front (two taken jumps before
 * the loop) and a single-vector loop after it, 256 bytes took 3.82 ns
 * against 3.00 ns; with the length test first and the others behind it
 * (a taken jump there and one back for aligned buffers of 2 KiB or
 * more), 32 KiB took 1.011-1.016 of libpopcnt's time, against 0.999
 * with the tests in front (settle run, 5 processes, 4 layouts).
 * Then below SETTLE_PC512_PROLOGUE_MIN bytes a copy of the loop that has
 * at most seven steps, which gcc -O3 (this file's flags, Makefile)
 * unrolls completely: 1 KiB took 0.93 of libpopcnt's time called (the
 * -march=x86-64-v3 build of examples/popcount-peers.c), against 1.05-1.08
 * with the loop; 32 KiB the same as before (docs/primitives.md).
 */
uint64_t settle_popcount_kernel_avx512(const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (settle_pc512_out_of_line(buf, len))
		return count_long(p, len);
	/* the same call twice on purpose: in the first the bound is known
	 * (at most seven steps) and the loop is unrolled; marked unlikely so
	 * that longer buffers fall through into the loop without a jump */
	if (__builtin_expect(len < SETTLE_PC512_PROLOGUE_MIN, 0)) {
		if (len <= SETTLE_PC512_VEC)
			return settle_pc512_one(p, len);
		return settle_pc512_from(p, len, _mm512_setzero_si512());
	}
	return settle_pc512_from(p, len, _mm512_setzero_si512());
}
