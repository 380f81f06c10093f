/*
 * popcount_popcnt.c - population count with the POPCNT instruction
 * (Intel SDM vol. 2B, POPCNT; cpuid leaf 1 ECX bit 23).
 *
 * Compiled with -mpopcnt (Makefile: *_popcnt.c); called only when the CPU
 * reports POPCNT (src/arch/x86/dispatch_popcount.c). Four words per step into
 * four accumulators, so that the additions of consecutive words do not
 * form one dependent chain; loads go through memcpy, so any alignment is
 * fine. The last len % 8 bytes are gathered into one word and counted with
 * one more POPCNT.
 */
#include "prim/popcount_kernels.h"

static inline uint64_t popcnt64(uint64_t w)
{
	return (uint64_t)__builtin_popcountll(w);
}

uint64_t settle_popcount_kernel_popcnt(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t a = 0, b = 0, c = 0, d = 0;

	for (; len >= 32; p += 32, len -= 32) {
		a += popcnt64(settle_load64(p));
		b += popcnt64(settle_load64(p + 8));
		c += popcnt64(settle_load64(p + 16));
		d += popcnt64(settle_load64(p + 24));
	}
	for (; len >= 8; p += 8, len -= 8)
		a += popcnt64(settle_load64(p));
	return a + b + c + d + popcnt64(settle_tail_word(p, len));
}
