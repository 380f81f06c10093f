/*
 * endian_loops.c - the four increment loops of the endian claim: what a
 * fixed on-media byte order costs when every update of a value is swapped
 * in and out (docs/founding-experiments.md, "endian"; the 2009 loops,
 * 100 million increments compiled without optimisation).
 *
 * This file is built twice (see the Makefile): with -O0 -DENDIAN_BUILD=O0,
 * as the original was, and with -O2 -DENDIAN_BUILD=O2. Token pasting gives
 * the two objects distinct names (settle_endian_long_O0, ..._O2).
 *
 * At -O0 the loops are plain C and the value lives on the stack, as in the
 * original. When optimising, settle_keep() in the body keeps the value in a
 * register and makes the compiler assume the asm changed it, so every
 * increment (and swap) is really executed and the loop is not folded into
 * one addition. It is left out at -O0, where it would only add a store and
 * a reload per iteration that the original loop did not have. volatile
 * would be wrong at -O2: it forces the value to memory, giving back the
 * -O0 loop.
 *
 * Byte swaps are __builtin_bswap32/64 (one BSWAP instruction on x86-64,
 * REV on AArch64, LRVR on s390x). A swap reverses the bytes whatever the
 * host's order, so the we loops keep their value in the byte order that
 * is not the host's on every host: big-endian on x86-64 and AArch64 (the
 * original's case), little-endian on s390x (a big-endian host reading a
 * little-endian format, e.g. ext4). The *_stored functions run the same
 * loop and return the value as stored, for the test that checks this.
 */
#include <stdint.h>

#include "endian_loops.h"
#include "settle.h"

#ifndef ENDIAN_BUILD
#error "build with -DENDIAN_BUILD=O0 or -DENDIAN_BUILD=O2"
#endif

#define PASTE2(a, b) a##_##b
#define PASTE(a, b) PASTE2(a, b)
#define ENDIAN_FN(name) PASTE(settle_endian_##name, ENDIAN_BUILD)

#ifdef __OPTIMIZE__
#define KEEP(x) settle_keep(x)
#else
#define KEEP(x) ((void)0)
#endif

/* "long": unsigned, so that a wrap is defined; the same code as long. */
uint64_t ENDIAN_FN(long)(uint64_t iters)
{
	unsigned long x = 0;

	for (uint64_t i = 0; i < iters; i++) {
		x++;
		KEEP(x);
	}
	return x & 0xffffffffu;
}

/* The loops of the values kept in the other byte order: one macro, so
 * that the timed function and the one that returns the stored form run
 * the same code. */
#define WE32_LOOP(x, iters)						\
	for (uint64_t i = 0; i < (iters); i++) {			\
		x = __builtin_bswap32(__builtin_bswap32(x) + 1);	\
		KEEP(x);						\
	}
#define WE64_LOOP(x, iters)						\
	for (uint64_t i = 0; i < (iters); i++) {			\
		x = __builtin_bswap64(__builtin_bswap64(x) + 1);	\
		KEEP(x);						\
	}

uint64_t ENDIAN_FN(we32)(uint64_t iters)
{
	uint32_t x = 0;

	WE32_LOOP(x, iters)
	return __builtin_bswap32(x);
}

uint32_t ENDIAN_FN(we32_stored)(uint64_t iters)
{
	uint32_t x = 0;

	WE32_LOOP(x, iters)
	return x;
}

uint64_t ENDIAN_FN(u64)(uint64_t iters)
{
	uint64_t x = 0;

	for (uint64_t i = 0; i < iters; i++) {
		x++;
		KEEP(x);
	}
	return x & 0xffffffffu;
}

uint64_t ENDIAN_FN(we64)(uint64_t iters)
{
	uint64_t x = 0;

	WE64_LOOP(x, iters)
	return __builtin_bswap64(x) & 0xffffffffu;
}

uint64_t ENDIAN_FN(we64_stored)(uint64_t iters)
{
	uint64_t x = 0;

	WE64_LOOP(x, iters)
	return x;
}
