/*
 * readlimit_neon.c - the read-limit kernel with AdvSIMD loads (LD1 of 16
 * aligned bytes, ADD on 64-bit lanes; Arm Architecture Reference Manual
 * for A-profile); see src/prim/readlimit.h. The head up to 16-byte
 * alignment and the tail are read with scalar loads inline in every pass
 * (src/prim/readlimit_span.h, the generic kernel's code), so it returns
 * the generic kernel's value; the vectors after the last step are spread
 * over the accumulators (as in the x86 kernels). Eight loads per
 * step into four accumulators: one addition per load, so the loop is
 * bound by the loads. The split of the buffer is worked out once per
 * call; the accumulators run on across the passes and are added up once,
 * at the end.
 */
#include <arm_neon.h>

#include "prim/readlimit.h"
#include "prim/readlimit_span.h"

static inline uint64x2_t load(const unsigned char *p)
{
	return vreinterpretq_u64_u8(vld1q_u8(p));
}

uint64_t settle_read_limit_neon(const void *buf, size_t len, uint64_t passes)
{
	size_t head = (size_t)(-(uintptr_t)buf & 15);
	size_t steps, vecs, tail;
	uint64x2_t a = vdupq_n_u64(0), b = a, c = a, d = a;
	uint64_t s = 0;
	struct settle_rl_edges e;

	if (head > len)
		head = len;
	steps = (len - head) / 128;
	vecs = (len - head) % 128 / 16;
	tail = (len - head) % 16;
	e = settle_rl_edges_plan(buf, len, head, tail);
	while (passes--) {
		const unsigned char *p = buf;

		SETTLE_READ_LIMIT_LAUNDER(p);
		if (head)
			s += settle_rl_span_read(p, &e.head);
		p += head;
		for (size_t i = steps; i; i--, p += 128) {
			a = vaddq_u64(a, load(p));
			b = vaddq_u64(b, load(p + 16));
			c = vaddq_u64(c, load(p + 32));
			d = vaddq_u64(d, load(p + 48));
			a = vaddq_u64(a, load(p + 64));
			b = vaddq_u64(b, load(p + 80));
			c = vaddq_u64(c, load(p + 96));
			d = vaddq_u64(d, load(p + 112));
		}
		if (vecs & 4) {
			a = vaddq_u64(a, load(p));
			b = vaddq_u64(b, load(p + 16));
			c = vaddq_u64(c, load(p + 32));
			d = vaddq_u64(d, load(p + 48));
			p += 64;
		}
		if (vecs & 2) {
			a = vaddq_u64(a, load(p));
			b = vaddq_u64(b, load(p + 16));
			p += 32;
		}
		if (vecs & 1) {
			c = vaddq_u64(c, load(p));
			p += 16;
		}
		if (tail)
			s += settle_rl_span_read(p, &e.tail);
	}
	a = vaddq_u64(vaddq_u64(a, b), vaddq_u64(c, d));
	return s + vaddvq_u64(a);
}
