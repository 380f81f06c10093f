/*
 * readlimit_generic.c - the portable read-limit kernel (see readlimit.h):
 * 64-bit words, four per step into four accumulators; the partial words
 * at the head and the tail are read byte by byte, each pass on its own.
 * The x86-64 kernels use it (one pass) for their edges.
 */
#include <string.h>

#include "prim/readlimit.h"

/* The aligned word at p (p a multiple of 8). */
static inline uint64_t word(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

/*
 * The aligned word that holds the k bytes at p (0 < k < 8, all in one
 * aligned word), its other bytes zero: reads exactly those k bytes.
 */
static inline uint64_t part_word(const unsigned char *p, size_t k)
{
	unsigned char w[8] = { 0 };

	memcpy(w + ((uintptr_t)p & 7), p, k);
	return word(w);
}

/* One pass over the len bytes at p: their aligned-word sum. */
static inline uint64_t one_pass(const unsigned char *p, size_t len)
{
	size_t head = (size_t)(-(uintptr_t)p & 7);
	uint64_t a = 0, b = 0, c = 0, d = 0;

	if (head) {
		if (head > len)
			head = len;
		a = part_word(p, head);
		p += head;
		len -= head;
	}
	for (; len >= 32; p += 32, len -= 32) {
		a += word(p);
		b += word(p + 8);
		c += word(p + 16);
		d += word(p + 24);
	}
	for (; len >= 8; p += 8, len -= 8)
		a += word(p);
	if (len)
		b += part_word(p, len);
	return (a + b) + (c + d);
}

uint64_t settle_read_limit_generic(const void *buf, size_t len,
				   uint64_t passes)
{
	uint64_t s = 0;

	while (passes--) {
		const unsigned char *p = buf;

		SETTLE_READ_LIMIT_LAUNDER(p);
		s += one_pass(p, len);
	}
	return s;
}
