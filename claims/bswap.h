/*
 * bswap.h - a test hook of the bswap claim (claims/bswap.c): run any
 * byte-swap function over the claim's state exactly as its variants do,
 * so a test can show that a wrong function yields a different check value.
 */
#ifndef SETTLE_CLAIM_BSWAP_H
#define SETTLE_CLAIM_BSWAP_H

#include <stdint.h>

#include "settle_byteorder.h"

/*
 * iters passes of fn over state (made by settle_claim_bswap.setup) with
 * elem_bits-bit elements (16, 32 or 64), from the source buffer to the
 * destination (in_place 0) or over the in-place buffer (in_place 1); fn
 * is called with a count of elements. Returns the check value, as a
 * variant's run callback does; 0 for a bad elem_bits.
 */
uint64_t settle_bswap_claim_passes(void *state, uint64_t iters,
				   settle_bswap_fn fn, unsigned elem_bits,
				   int in_place);

#endif
