/*
 * readlimit_generic.c - the portable read-limit kernel (see readlimit.h):
 * 64-bit words, four per step into four accumulators; the head up to
 * word alignment and the rest after the last step with the code the
 * vector kernels inline for their edges (readlimit_span.h). The split is
 * worked out once per call; the accumulators run on across the passes.
 */
#include "prim/readlimit.h"
#include "prim/readlimit_span.h"

/* The aligned 8 bytes at p. */
static inline uint64_t word(const unsigned char *p)
{
	return settle_rl_load(p, 8);
}

uint64_t settle_read_limit_generic(const void *buf, size_t len,
				   uint64_t passes)
{
	size_t head = (size_t)(-(uintptr_t)buf & 7);
	size_t n, rest;
	struct settle_rl_edges e;
	uint64_t a = 0, b = 0, c = 0, d = 0, s = 0;

	if (head > len)
		head = len;
	n = (len - head) / 32;
	rest = (len - head) % 32;
	e = settle_rl_edges_plan(buf, len, head, rest);
	while (passes--) {
		const unsigned char *p = buf;

		SETTLE_READ_LIMIT_LAUNDER(p);
		if (head)
			s += settle_rl_span_read(p, &e.head);
		p += head;
		for (size_t i = n; i; i--, p += 32) {
			a += word(p);
			b += word(p + 8);
			c += word(p + 16);
			d += word(p + 24);
		}
		if (rest)
			s += settle_rl_span_read(p, &e.tail);
	}
	return s + (a + b) + (c + d);
}
