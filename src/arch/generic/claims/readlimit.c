/*
 * readlimit.c - generic: the read-limit kernel over 64-bit words, eight
 * loads per step into four accumulators (see claims/readlimit.h); the
 * compiler may vectorise it. Words are read little-endian on every host,
 * which costs a byte swap per load on a big-endian one; the generic
 * build is a fallback, not a measurement of the hardware's limit.
 */
#include "readlimit.h"

uint64_t settle_readlimit_words(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t a = 0, b = 0, c = 0, d = 0;

	for (; len >= 64; p += 64, len -= 64) {
		a += settle_load_le64(p);
		b += settle_load_le64(p + 8);
		c += settle_load_le64(p + 16);
		d += settle_load_le64(p + 24);
		a += settle_load_le64(p + 32);
		b += settle_load_le64(p + 40);
		c += settle_load_le64(p + 48);
		d += settle_load_le64(p + 56);
	}
	return a + b + c + d + settle_readlimit_tail(p, len);
}

settle_readlimit_fn settle_readlimit_choose(const char **width)
{
	if (width)
		*width = "64-bit";
	return settle_readlimit_words;
}
