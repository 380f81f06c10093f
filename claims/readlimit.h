/*
 * readlimit.h - the "read-limit" reference row of the popcount claim: a
 * plain streaming read of the buffer with vector loads, unrolled, every
 * 64-bit lane added into accumulators so that no load can be dropped. It
 * bounds what any bit count of the same buffer can reach.
 *
 * Each kernel reads the len bytes at buf (any alignment, any len) and
 * returns the 64-bit sum of its 8-byte words (the tail bytes are added as
 * a little-endian partial word). The value is only a sink for the loads;
 * it is not a bit count, so the variant is a reference excluded from the
 * claim's check.
 */
#ifndef SETTLE_READLIMIT_H
#define SETTLE_READLIMIT_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t (*settle_readlimit_fn)(const void *buf, size_t len);

/* 128-bit SSE2 loads (baseline x86-64): claims/readlimit.c. */
uint64_t settle_readlimit_sse2(const void *buf, size_t len);
/* 256-bit loads; needs AVX2 (claims/readlimit_avx2.c). */
uint64_t settle_readlimit_avx2(const void *buf, size_t len);
/* 512-bit loads; needs AVX512F (claims/readlimit_avx512.c). */
uint64_t settle_readlimit_avx512(const void *buf, size_t len);

/*
 * The widest kernel this CPU and OS can run; *width receives its name
 * ("avx512", "avx2", "sse2") when width is not NULL.
 */
settle_readlimit_fn settle_readlimit_choose(const char **width);

/* Sum of the 8-byte words of the len < 8 + 8k bytes at p, scalar: the
 * kernels' tail (inline, so that no kernel calls back into the file that
 * chooses it). */
static inline uint64_t settle_readlimit_tail(const unsigned char *p,
					     size_t len)
{
	uint64_t s = 0, w;

	for (; len >= 8; p += 8, len -= 8) {
		__builtin_memcpy(&w, p, 8);
		s += w;
	}
	if (len) {
		w = 0;
		__builtin_memcpy(&w, p, len);
		s += w;
	}
	return s;
}

#endif
