/*
 * placed_popcnt.c - one plain popcount loop (the POPCNT instruction, one
 * word per iteration, neither unrolled nor vectorised), compiled into
 * settle SETTLE_PLACED_COPIES times (Makefile: -DCOPY=0..3, objects
 * placed<k>_popcnt.o), copy k at the code offset of layout k:
 * SETTLE_LAYOUT_CODE_PAD(k) bytes after a page boundary, the offset a
 * build of FILE.c gets in layout k (src/byob). The copies are the same
 * instructions in four places; what one costs more than another is what
 * its place costs. On an AMD Zen 4 guest the copy whose loop crosses a
 * 64-byte line runs at half the speed of the others (docs/layouts.md).
 * The selftest's layout trials time them (src/runner/selftest.c); only
 * called after a cpuid check for POPCNT.
 *
 * Compiled with -fno-toplevel-reorder, so that the padding comes before
 * the function in .text.
 */
#include "runner/placed.h"
#include "settle.h"
#include "util/placement.h"
#include "util/util.h"

#ifndef COPY
#error "compile with -DCOPY=k (0 to SETTLE_PLACED_COPIES - 1)"
#endif

#define NAME_(k) settle_placed_popcount##k
#define NAME(k) NAME_(k)

#if SETTLE_LAYOUT_CODE_PAD(COPY) > 0
__asm__(".pushsection .text\n\t.p2align 12\n\t.skip "
	SETTLE_STR(SETTLE_LAYOUT_CODE_PAD(COPY)) ", 0xcc\n\t.popsection");
#else
__asm__(".pushsection .text\n\t.p2align 12\n\t.popsection");
#endif

uint64_t NAME(COPY)(const uint64_t *w, size_t n, uint64_t passes)
{
	uint64_t set = 0;

	while (passes--) {
		settle_keep(w); /* every pass is made */
		for (size_t j = 0; j < n; j++)
			set += (uint64_t)__builtin_popcountll(w[j]);
	}
	return set;
}
