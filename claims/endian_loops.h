/*
 * endian_loops.h - the increment loops of the endian claim, each built
 * twice from claims/endian_loops.c: once at -O0 (suffix _O0) and once at
 * -O2 (suffix _O2).
 *
 * Every loop starts from 0 and performs iters increments of one value:
 *   long: a native unsigned long;
 *   we32: a 32-bit value stored in the other byte order (the one that is
 *         not the host's: big-endian on x86-64, little-endian on s390x),
 *         x = bswap32(bswap32(x) + 1);
 *   u64:  a native 64-bit value;
 *   we64: a 64-bit value stored in the other byte order,
 *         x = bswap64(bswap64(x) + 1).
 * Each returns the final value in native order, reduced to its low 32 bits
 * (final & 0xffffffff), so that every loop returns iters mod 2^32.
 */
#ifndef SETTLE_ENDIAN_LOOPS_H
#define SETTLE_ENDIAN_LOOPS_H

#include <stdint.h>

uint64_t settle_endian_long_O0(uint64_t iters);
uint64_t settle_endian_we32_O0(uint64_t iters);
uint64_t settle_endian_u64_O0(uint64_t iters);
uint64_t settle_endian_we64_O0(uint64_t iters);

uint64_t settle_endian_long_O2(uint64_t iters);
uint64_t settle_endian_we32_O2(uint64_t iters);
uint64_t settle_endian_u64_O2(uint64_t iters);
uint64_t settle_endian_we64_O2(uint64_t iters);

/*
 * The we32 and we64 loops, returning the value as they keep it, in the
 * byte order that is not the host's: stored to memory, its bytes read
 * with the other order's load (settle_load_be32 on a little-endian host,
 * settle_load_le32 on a big-endian one) give iters mod 2^32 (2^64).
 */
uint32_t settle_endian_we32_stored_O0(uint64_t iters);
uint64_t settle_endian_we64_stored_O0(uint64_t iters);
uint32_t settle_endian_we32_stored_O2(uint64_t iters);
uint64_t settle_endian_we64_stored_O2(uint64_t iters);

#endif
