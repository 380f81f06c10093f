/*
 * popcount_inline_avx512.c - settle_popcount() and
 * settle_popcount_avx512_inline() as a caller compiled for AVX-512 sees
 * them (settle_bits.h, settle_popcount_avx512.h), for test_popcount.c.
 * The Makefile compiles this file alone with the AVX-512 flags of
 * src/arch/x86/arch.mk (its name ends in _avx512), so test_popcount.c
 * asks the CPU before calling in; built without them (another
 * architecture, ARCH=generic) it has no inline code, and says so.
 * Compiled twice: with the library's flags, and with -O3
 * -DSETTLE_TEST_INLINE_O3 (names ending in _o3), where gcc unrolls the
 * loop below 2 KiB completely: other code from the same source.
 */
#include <stdlib.h>

#include "settle_bits.h"

#ifdef SETTLE_TEST_INLINE_O3
#define T(name) name##_o3
#else
#define T(name) name
#endif

#if defined(SETTLE_POPCOUNT_INLINE)
const int T(settle_test_inline_built) = 1;

uint64_t T(settle_test_inline_dispatched)(const void *buf, size_t len)
{
	return settle_popcount(buf, len); /* the inline definition */
}

uint64_t T(settle_test_inline_kernel)(const void *buf, size_t len)
{
	return settle_popcount_avx512_inline(buf, len);
}
#else
const int T(settle_test_inline_built) = 0;

uint64_t T(settle_test_inline_dispatched)(const void *buf, size_t len)
{
	(void)buf;
	(void)len;
	abort();
}

uint64_t T(settle_test_inline_kernel)(const void *buf, size_t len)
{
	(void)buf;
	(void)len;
	abort();
}
#endif
