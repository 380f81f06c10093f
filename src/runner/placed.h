/*
 * placed.h - the selftest's placed popcount loops (src/runner/
 * placed_popcnt.c): the same loop at the code offsets of layouts 0 to
 * SETTLE_PLACED_COPIES - 1. Private to settle; the CPU must have POPCNT.
 */
#ifndef SETTLE_PLACED_H
#define SETTLE_PLACED_H

#include <stddef.h>
#include <stdint.h>

#define SETTLE_PLACED_COPIES 4

/* The set bits of w[0..n) (64-bit words), counted passes times over;
 * returns their sum over the passes. */
typedef uint64_t (*settle_placed_fn)(const uint64_t *w, size_t n,
				     uint64_t passes);

uint64_t settle_placed_popcount0(const uint64_t *w, size_t n, uint64_t passes);
uint64_t settle_placed_popcount1(const uint64_t *w, size_t n, uint64_t passes);
uint64_t settle_placed_popcount2(const uint64_t *w, size_t n, uint64_t passes);
uint64_t settle_placed_popcount3(const uint64_t *w, size_t n, uint64_t passes);

#endif
