/*
 * readlimit.h - the "read-limit" reference row of the popcount claim: a
 * plain streaming read of the buffer with the widest vector loads of this
 * CPU, unrolled, every 64-bit lane added into accumulators so that no
 * load can be dropped. It bounds what any bit count of the same buffer can
 * reach.
 *
 * Each kernel reads the len bytes at buf (any alignment, any len) and
 * returns the 64-bit sum of its 8-byte words read little-endian (the tail
 * bytes are added as a little-endian partial word; the vector kernels add
 * native lanes, so on a big-endian host their sum differs). The value is
 * only a sink for the loads; it is not a bit count, so the variant is a
 * reference excluded from the claim's check.
 *
 * The kernels and the choice are the architecture's
 * (src/arch/<arch>/claims/readlimit*.c): x86-64 SSE2, AVX2, AVX-512;
 * AArch64 AdvSIMD; generic 64-bit words.
 */
#ifndef SETTLE_READLIMIT_H
#define SETTLE_READLIMIT_H

#include <stddef.h>
#include <stdint.h>

#include "settle_byteorder.h"

typedef uint64_t (*settle_readlimit_fn)(const void *buf, size_t len);

/* x86-64: 128-bit SSE2 loads (baseline), 256-bit loads (needs AVX2) and
 * 512-bit loads (needs AVX512F). */
uint64_t settle_readlimit_sse2(const void *buf, size_t len);
uint64_t settle_readlimit_avx2(const void *buf, size_t len);
uint64_t settle_readlimit_avx512(const void *buf, size_t len);

/* AArch64: 128-bit AdvSIMD loads (LDP of Q registers). */
uint64_t settle_readlimit_neon(const void *buf, size_t len);

/* Generic: 64-bit words, four accumulators. */
uint64_t settle_readlimit_words(const void *buf, size_t len);

/*
 * The widest kernel this CPU and OS can run; *width receives its name
 * ("avx512", "avx2", "sse2", "neon", "64-bit") when width is not NULL.
 */
settle_readlimit_fn settle_readlimit_choose(const char **width);

/* Sum of the little-endian 8-byte words of the len bytes at p, the last
 * one partial: the kernels' tail. */
static inline uint64_t settle_readlimit_tail(const unsigned char *p,
					     size_t len)
{
	unsigned char w[8] = { 0 };
	uint64_t s = 0;

	for (; len >= 8; p += 8, len -= 8)
		s += settle_load_le64(p);
	if (len) {
		memcpy(w, p, len);
		s += settle_load_le64(w);
	}
	return s;
}

#endif
