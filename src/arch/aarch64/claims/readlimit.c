/*
 * readlimit.c - AArch64: the read-limit kernel with AdvSIMD loads (LD1
 * of 16 bytes, ADD on 64-bit lanes) and its choice; see claims/readlimit.h.
 * Eight loads per step into four accumulators: one addition per load, so
 * the loop is bounded by the loads, not by the additions.
 */
#include <arm_neon.h>

#include "readlimit.h"

static inline uint64x2_t load(const unsigned char *p)
{
	return vreinterpretq_u64_u8(vld1q_u8(p));
}

uint64_t settle_readlimit_neon(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64x2_t a = vdupq_n_u64(0), b = a, c = a, d = a;

	for (; len >= 128; p += 128, len -= 128) {
		a = vaddq_u64(a, load(p));
		b = vaddq_u64(b, load(p + 16));
		c = vaddq_u64(c, load(p + 32));
		d = vaddq_u64(d, load(p + 48));
		a = vaddq_u64(a, load(p + 64));
		b = vaddq_u64(b, load(p + 80));
		c = vaddq_u64(c, load(p + 96));
		d = vaddq_u64(d, load(p + 112));
	}
	for (; len >= 16; p += 16, len -= 16)
		a = vaddq_u64(a, load(p));
	a = vaddq_u64(vaddq_u64(a, b), vaddq_u64(c, d));
	return vaddvq_u64(a) + settle_readlimit_tail(p, len);
}

settle_readlimit_fn settle_readlimit_choose(const char **width)
{
	if (width)
		*width = "neon";
	return settle_readlimit_neon;
}
