/*
 * popcount_variants.h - the bit-counting kernels of the popcount claim.
 *
 * Every kernel counts the set bits of len bytes starting at buf. buf may
 * have any alignment and len may be any number of bytes, including 0:
 * whole words are loaded with memcpy (no alignment or aliasing
 * assumption), and the len % word-size tail bytes are counted one byte at
 * a time with the kernel's own method. Every kernel returns the number of
 * set *bits* as a 64-bit count (a 32-bit count would wrap at 512 MiB).
 *
 * The kernels are exported so that tests can check each of them against a
 * reference; the claim (claims/popcount.c) times them.
 */
#ifndef SETTLE_POPCOUNT_VARIANTS_H
#define SETTLE_POPCOUNT_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

/* Byte lookup table of 256 entries: one load per byte. */
uint64_t settle_popcount_table8(const void *buf, size_t len);

/*
 * __builtin_popcountll over 64-bit words, built without -mpopcnt and with
 * the vectoriser off (claims/popcount_generic.c): on gcc a call to the
 * runtime library's generic helper per word.
 */
uint64_t settle_popcount_builtin_generic(const void *buf, size_t len);

/* Non-looping 32-bit SWAR count per 32-bit word (Hacker's Delight 5-1). */
uint64_t settle_popcount_swar32(const void *buf, size_t len);

/* 64-bit SWAR count per 64-bit word, bytes summed by one multiply. */
uint64_t settle_popcount_swar64(const void *buf, size_t len);

/*
 * x86-64 only: the POPCNT instruction per 64-bit word. Call it only when
 * settle_cpu_has(SETTLE_CPU_POPCNT) (src/cpu/cpu.h): on a CPU without
 * POPCNT it raises SIGILL.
 */
uint64_t settle_popcount_popcnt(const void *buf, size_t len);

#endif
