/*
 * readlimit_neon.c - the read-limit kernel with AdvSIMD loads (LD1 of 16
 * aligned bytes, ADD on 64-bit lanes; Arm Architecture Reference Manual
 * for A-profile); see src/prim/readlimit.h. The head up to 16-byte
 * alignment and the tail go to the generic kernel, so it returns the
 * generic kernel's value. Eight loads per step into four accumulators:
 * one addition per load, so the loop is bound by the loads.
 */
#include <arm_neon.h>

#include "prim/readlimit.h"

static inline uint64x2_t load(const unsigned char *p)
{
	return vreinterpretq_u64_u8(vld1q_u8(p));
}

uint64_t settle_read_limit_neon(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t head = (size_t)(-(uintptr_t)p & 15);
	uint64x2_t a = vdupq_n_u64(0), b = a, c = a, d = a;
	uint64_t s = 0;

	if (head) {
		if (head > len)
			head = len;
		s = settle_read_limit_generic(p, head);
		p += head;
		len -= head;
	}
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
	if (len)
		s += settle_read_limit_generic(p, len);
	a = vaddq_u64(vaddq_u64(a, b), vaddq_u64(c, d));
	return s + vaddvq_u64(a);
}
