/*
 * placement.h - where layout k puts code, data and the stack (private to
 * settle; docs/layouts.md). Layout 0 is settle's plain placement: no code
 * padding, buffers at the start of a page, the stack as it comes.
 *
 * Code: a build of FILE.c for layout k (src/byob) starts its .text with
 * SETTLE_LAYOUT_CODE_PAD(k) bytes after a page boundary, so its functions
 * sit at another 16-byte slot of their 64-byte cache line (k mod 4:
 * every slot once in any 4 consecutive layouts) and at another line of
 * their page. The selftest's placed popcount loops are compiled with the
 * same pads (src/runner/placed_popcnt.c), and so are a build's static
 * data (SETTLE_LAYOUT_DATA_PAD: whole cache lines).
 *
 * The formulas are macros because the assembler evaluates them too
 * (".skip" takes an expression; GNU as knows % and *).
 */
#ifndef SETTLE_PLACEMENT_H
#define SETTLE_PLACEMENT_H

#include <stddef.h>

/* Bytes of padding before the code of layout k: 16 x (k mod 4) plus
 * 64 x ((37 k) mod 64), under 4 KiB, a multiple of 16. */
#define SETTLE_LAYOUT_CODE_PAD(k) (16 * ((k) % 4) + 64 * (((k) * 37) % 64))

/* The local symbols a FILE.c build's layout header puts at the end of
 * the code padding of .text, where the build's own functions begin, and
 * of .text.hot, .text.unlikely (cold code, not checked) and
 * .text.startup (src/byob checks that the functions start on 16-byte
 * boundaries, SETTLE_CODE_SLOT bytes). */
#define SETTLE_LAYOUT_MARK "settle_layout_"
#define SETTLE_LAYOUT_CODE_MARK SETTLE_LAYOUT_MARK "code"
#define SETTLE_LAYOUT_COLD_MARK SETTLE_LAYOUT_MARK "cold"
#define SETTLE_CODE_SLOT 16

/* Bytes of padding before the static data of layout k: whole lines. */
#define SETTLE_LAYOUT_DATA_PAD(k) (64 * (((k) * 13) % 64))

/* The most layouts a run takes (--layouts). */
#define SETTLE_MAX_LAYOUTS 64

/* Bytes the stack pointer is moved down by at the entry of a variant's
 * run() in layout k: 16 x (k mod 4) plus 64 x ((29 k) mod 64), under
 * 4 KiB, a multiple of 16 (the ABI's alignment is kept). */
size_t settle_layout_stack(unsigned k);

/*
 * Offset of the start of the n-th buffer settle_alloc() hands out in one
 * set-up (n from 0) in layout k, from the start of a page: whole cache
 * lines (0 to 63), rounded down to a multiple of align, plus 0 to 15
 * pages (the page colour); 0 in layout 0. align is a power of two.
 */
size_t settle_layout_data_offset(unsigned k, unsigned n, size_t align);

/*
 * Start a set-up's allocations (the runner calls it before each setup):
 * settle_alloc() numbers its buffers from 0 again, so that a claim's
 * buffers land at the same places whenever it is set up in the same
 * layout. Per thread.
 */
void settle_layout_begin(void);

#endif
