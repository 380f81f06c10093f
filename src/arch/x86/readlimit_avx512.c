/*
 * readlimit_avx512.c - the read-limit kernel with 64-byte loads
 * (VMOVDQA64, VPADDQ: Intel SDM vol. 2); see readlimit.h. Compiled for
 * AVX-512 (arch.mk: *_avx512.c); called only when AVX512F, AVX512BW,
 * AVX2 and the OS's opmask and ZMM state are usable
 * (dispatch_readlimit.c). Buffers below the sizes where 512-bit loads
 * read fastest on this CPU are read with 256-bit loads (the avx2
 * kernel's loop, readlimit_ymm.h) and masked edges on YMM registers;
 * buffers above them go to the avx2 kernel (readlimit.h).
 *
 * A buffer that does not start on a 64-byte boundary begins with one
 * byte-masked load of the aligned vector that holds its first byte; one
 * that does not end on one ends with another. VMOVDQU8 with a zeroing
 * mask reads no masked-out byte and takes no fault on it (Intel SDM vol.
 * 1, 15.4 "Memory fault suppression"), so the kernel never touches a byte
 * outside the buffer, and the masked-out lanes add zero. The split of
 * the buffer and the two masks are worked out once per call; the
 * accumulators run on across the passes and are added up once, at the
 * end.
 */
#include <immintrin.h>

#include "prim/readlimit.h"
#include "readlimit_ymm.h"

static inline __m512i load(const unsigned char *p)
{
	return _mm512_load_si512((const void *)p);
}

/* The bytes of the aligned vector at q whose bits are set in k, the
 * others zero (and not read). */
static inline __m512i load_part(const unsigned char *q, __mmask64 k)
{
	return _mm512_maskz_loadu_epi8(k, (const void *)q);
}

/* Sum of the 64-bit lanes of v, modulo 2^64 (gcc's
 * _mm512_reduce_add_epi64 adds them as signed, which may overflow). */
static inline uint64_t sum_lanes(__m512i v)
{
	__m256i q = _mm256_add_epi64(_mm512_castsi512_si256(v),
				     _mm512_extracti64x4_epi64(v, 1));
	__m128i h = _mm_add_epi64(_mm256_castsi256_si128(q),
				  _mm256_extracti128_si256(q, 1));

	h = _mm_add_epi64(h, _mm_unpackhi_epi64(h, h));
	return (uint64_t)_mm_cvtsi128_si64(h);
}

#define VEC 64

/*
 * n steps of four aligned vectors from p, one into each of a[0..3]; AMD
 * family 19h's loop until 2026-12-04, no CPU's now (zmm_loads 4 in
 * settle_read_limit_widths; the tests run it): on the Zen 4 guest at
 * 1 MiB the plain reads of examples/readlimit-peers.c with four loads a
 * step had taken 0.976-0.978 of the time of this kernel with eight into
 * eight, and later eight into four read as fast as four (readlimit.h).
 */
static inline __attribute__((always_inline)) void
steps4(const unsigned char *p, size_t n, __m512i *a)
{
	for (; n; n--, p += 4 * VEC) {
		a[0] = _mm512_add_epi64(a[0], load(p));
		a[1] = _mm512_add_epi64(a[1], load(p + VEC));
		a[2] = _mm512_add_epi64(a[2], load(p + 2 * VEC));
		a[3] = _mm512_add_epi64(a[3], load(p + 3 * VEC));
	}
}

/*
 * One step of eight aligned vectors at p, the last four added into the
 * operands r4..r7 (a4..a7 for eight accumulators, a0..a3 for four), as
 * the loop of steps8() and steps8x4().
 */
#define STEP8(r4, r5, r6, r7)					\
	"vpaddq (%[p]), %[a0], %[a0]\n\t"				\
	"vpaddq 64(%[p]), %[a1], %[a1]\n\t"				\
	"vpaddq 128(%[p]), %[a2], %[a2]\n\t"				\
	"vpaddq 192(%[p]), %[a3], %[a3]\n\t"				\
	"vpaddq 256(%[p]), %[" r4 "], %[" r4 "]\n\t"			\
	"vpaddq 320(%[p]), %[" r5 "], %[" r5 "]\n\t"			\
	"vpaddq 384(%[p]), %[" r6 "], %[" r6 "]\n\t"			\
	"vpaddq 448(%[p]), %[" r7 "], %[" r7 "]\n\t"

/* The loop around a step: it starts a 64-byte line (see steps8()). */
#define LOOP8(step)							\
	".p2align 6\n"							\
	"1:\n\t"							\
	step								\
	"add $512, %[p]\n\t"						\
	"cmp %[end], %[p]\n\t"						\
	"jne 1b"

/*
 * n steps of eight aligned vectors from p, one into each of a[0..7]; the
 * loop below acc4_min (AMD family 1Ah and others; Intel below 64 KiB).
 * Written out in
 * assembly: gcc 12 moves the pointer after the first load of a step and
 * addresses the others backwards, and for one of the two copies of the
 * loop adds register moves; on the Zen 5 guest a loop with the pointer moved after the first load read 32 KiB
 * 5-7 % slower than one that moves it after the second or the last
 * (stand-alone loops, 2026-12-02). The loop starts a 64-byte line (it
 * is 66-67 bytes long, by register, so its last jump lies in the next);
 * at 1 KiB the same loop 48 bytes into a line read 15-20 % slower
 * there.
 */
static inline __attribute__((always_inline)) void
steps8(const unsigned char *p, size_t n, __m512i *a)
{
	const unsigned char *end = p + n * 8 * VEC;

	if (!n)
		return;
	__asm__(LOOP8(STEP8("a4", "a5", "a6", "a7"))
		: [p] "+r"(p), [a0] "+v"(a[0]), [a1] "+v"(a[1]),
		  [a2] "+v"(a[2]), [a3] "+v"(a[3]), [a4] "+v"(a[4]),
		  [a5] "+v"(a[5]), [a6] "+v"(a[6]), [a7] "+v"(a[7])
		: [end] "r"(end)
		: "cc", "memory");
}

/*
 * n steps of eight aligned vectors from p into a[0..3], two each; Intel's
 * loop from acc4_min on (readlimit.h: beyond the L1d, where it read 6-7 %
 * faster than steps8() on the Intel guest).
 */
static inline __attribute__((always_inline)) void
steps8x4(const unsigned char *p, size_t n, __m512i *a)
{
	const unsigned char *end = p + n * 8 * VEC;

	if (!n)
		return;
	__asm__(LOOP8(STEP8("a0", "a1", "a2", "a3"))
		: [p] "+r"(p), [a0] "+v"(a[0]), [a1] "+v"(a[1]),
		  [a2] "+v"(a[2]), [a3] "+v"(a[3])
		: [end] "r"(end)
		: "cc", "memory");
}

/*
 * vecs (0-7) aligned vectors from p, after the steps: spread over the
 * accumulators a[0..3], so that none takes more than two of them.
 */
static inline __attribute__((always_inline)) void
rest(const unsigned char *p, size_t vecs, __m512i *a)
{
	if (vecs & 4) {
		a[0] = _mm512_add_epi64(a[0], load(p));
		a[1] = _mm512_add_epi64(a[1], load(p + VEC));
		a[2] = _mm512_add_epi64(a[2], load(p + 2 * VEC));
		a[3] = _mm512_add_epi64(a[3], load(p + 3 * VEC));
		p += 4 * VEC;
	}
	if (vecs & 2) {
		a[0] = _mm512_add_epi64(a[0], load(p));
		a[1] = _mm512_add_epi64(a[1], load(p + VEC));
		p += 2 * VEC;
	}
	if (vecs & 1)
		a[2] = _mm512_add_epi64(a[2], load(p));
}

/* n steps of k vectors (4, or 8 into four accumulators when acc4, else
 * into eight) from p. */
static inline __attribute__((always_inline)) void
steps(const unsigned char *p, size_t n, __m512i *a, unsigned k, int acc4)
{
	if (k == 4)
		steps4(p, n, a);
	else if (acc4)
		steps8x4(p, n, a);
	else
		steps8(p, n, a);
}

/*
 * passes passes of n steps of eight aligned vectors over buf, as
 * steps8() (acc4: steps8x4()): the pass loop of a buffer of whole steps
 * only, written out, so that a pass runs the steps, a pointer reset and
 * a count. With the pass loop in C, each pass also ran a size check, a
 * pointer sum and the NOPs that align the loop (48 bytes, five
 * instructions, in the build looked at). On the Zen 4 guest, which does not choose this loop,
 * both read the same when forced (the library linked into a claim
 * before and after, widths forced, 3 processes, 2 layouts, 2026-12-04:
 * 1 KiB 4.56 against 4.52 ns, 32 KiB 149.8 against 148.6, 1 MiB 10.52
 * against 10.44 us, within the noise); not measured on the CPUs that
 * run it (Intel, AMD family 1Ah), where eight loads take half the
 * cycles and a pass of 1 KiB lasts about eight.
 */
#define PASSES8(step)							\
	LOOP8(step) "\n\t"						\
	"mov %[buf], %[p]\n\t"						\
	"sub $1, %[passes]\n\t"						\
	"jne 1b"

static inline __attribute__((always_inline)) void
passes8(const unsigned char *buf, size_t n, uint64_t passes, __m512i *a,
	int acc4)
{
	const unsigned char *p = buf, *end = buf + n * 8 * VEC;

	if (!n || !passes)
		return;
	if (acc4)
		__asm__(PASSES8(STEP8("a0", "a1", "a2", "a3"))
			: [p] "+&r"(p), [passes] "+&r"(passes),
			  [a0] "+v"(a[0]), [a1] "+v"(a[1]), [a2] "+v"(a[2]),
			  [a3] "+v"(a[3])
			: [end] "r"(end), [buf] "r"(buf)
			: "cc", "memory");
	else
		__asm__(PASSES8(STEP8("a4", "a5", "a6", "a7"))
			: [p] "+&r"(p), [passes] "+&r"(passes),
			  [a0] "+v"(a[0]), [a1] "+v"(a[1]), [a2] "+v"(a[2]),
			  [a3] "+v"(a[3]), [a4] "+v"(a[4]), [a5] "+v"(a[5]),
			  [a6] "+v"(a[6]), [a7] "+v"(a[7])
			: [end] "r"(end), [buf] "r"(buf)
			: "cc", "memory");
}

/*
 * passes over the len bytes at buf, off = buf mod 64 (below 64) and head
 * = its bytes before the first aligned vector, with k vectors a step
 * (8 into four accumulators when acc4: steps());
 * returns the sum of the accumulators.
 */
static inline __attribute__((always_inline)) uint64_t
read_passes(const void *buf, size_t len, size_t off, size_t head,
	    uint64_t passes, unsigned k, int acc4)
{
	size_t n, vecs, tail;
	__mmask64 hk = 0, tk;
	__m512i acc[8];

#pragma GCC unroll 8
	for (unsigned j = 0; j < k; j++)
		acc[j] = _mm512_setzero_si512();
	if (head > len)
		head = len;
	if (head)
		hk = (~0ull >> (64 - head)) << off;
	n = (len - head) / (k * VEC);
	vecs = (len - head) % (k * VEC) / VEC;
	tail = (len - head) % VEC;
	tk = tail ? ~0ull >> (64 - tail) : 0;
	if (!head && !vecs && !tail && k == 8) {
		/* whole steps only: nothing else in a pass */
		passes8(buf, n, passes, acc, acc4);
		passes = 0;
	}
	if (!head && !vecs && !tail) {
		while (passes--) {
			const unsigned char *p = buf;

			SETTLE_READ_LIMIT_LAUNDER(p);
			steps(p, n, acc, k, acc4);
		}
		passes = 0;
	}
	while (passes--) {
		const unsigned char *p = buf;

		SETTLE_READ_LIMIT_LAUNDER(p);
		if (head) {
			acc[3] = _mm512_add_epi64(acc[3],
						  load_part(p - off, hk));
			p += head;
		}
		steps(p, n, acc, k, acc4);
		p += n * k * VEC;
		rest(p, vecs, acc);
		p += vecs * VEC;
		if (tail)
			acc[3] = _mm512_add_epi64(acc[3], load_part(p, tk));
	}
#pragma GCC unroll 8
	for (unsigned j = 1; j < k; j++)
		acc[0] = _mm512_add_epi64(acc[0], acc[j]);
	return sum_lanes(acc[0]);
}

uint64_t settle_read_limit_avx512(const void *buf, size_t len,
				  uint64_t passes)
{
	size_t off = (uintptr_t)buf & 63;
	size_t head = off ? 64 - off : 0;
	const struct settle_read_limit_widths *w = settle_read_limit_widths();

	/*
	 * 512-bit loads in [zmm_min, zmm_end) only (readlimit.h): below,
	 * 256-bit loads with masked edges; from zmm_end on, the avx2 kernel
	 * (its scalar edges cost nothing there, and it hands the largest
	 * buffers to the sse2 kernel).
	 */
	if (len < w->zmm_min)
		return settle_rl_ymm_read(buf, len, passes);
	if (len >= w->zmm_end)
		return settle_read_limit_avx2(buf, len, passes);

	if (w->zmm_loads == 4)
		return read_passes(buf, len, off, head, passes, 4, 0);
	if (len >= w->acc4_min)
		return read_passes(buf, len, off, head, passes, 8, 1);
	return read_passes(buf, len, off, head, passes, 8, 0);
}
