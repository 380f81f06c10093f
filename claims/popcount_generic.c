/*
 * popcount_generic.c - the "builtin-generic" kernel of the popcount claim:
 * what __builtin_popcountll costs when the compiler may not use the POPCNT
 * instruction.
 *
 * This file is built without -mpopcnt and with the vectoriser off (see the
 * Makefile), so it measures the compiler's generic popcount: gcc emits a
 * call to the runtime library's __popcountdi2 for each word (libgcc,
 * libgcc2.c), clang expands an inline bit-twiddling sequence. Nothing else
 * belongs in this file: every function here gets those flags.
 */
#include <string.h>

#include "popcount_variants.h"

uint64_t settle_popcount_builtin_generic(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t n = 0;
	size_t i = 0;

	for (; len - i >= 8; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		n += (uint64_t)__builtin_popcountll(w);
	}
	for (; i < len; i++)
		n += (uint64_t)__builtin_popcountll(p[i]);
	return n;
}
