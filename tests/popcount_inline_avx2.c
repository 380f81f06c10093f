/*
 * popcount_inline_avx2.c - settle_popcount_avx2_inline() as a caller
 * compiled for AVX2 and POPCNT sees it (settle_bits.h,
 * settle_popcount_avx2.h), for test_popcount.c. The Makefile compiles
 * this file alone with -mavx2 (its name ends in _avx2:
 * src/arch/x86/arch.mk) and -mpopcnt, so test_popcount.c asks the CPU
 * before calling in; built without them (another architecture,
 * ARCH=generic) it has no inline code, and says so.
 */
#include <stdlib.h>

#include "settle_bits.h"

#if defined(SETTLE_POPCOUNT_AVX2_INLINE)
const int settle_test_inline_avx2_built = 1;

uint64_t settle_test_inline_avx2_kernel(const void *buf, size_t len)
{
	return settle_popcount_avx2_inline(buf, len);
}
#else
const int settle_test_inline_avx2_built = 0;

uint64_t settle_test_inline_avx2_kernel(const void *buf, size_t len)
{
	(void)buf;
	(void)len;
	abort();
}
#endif
