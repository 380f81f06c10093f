/*
 * dispatch.h - the choice of implementation for the dispatched primitives
 * (private). The choice is a pure function of the cpuid words and XCR0
 * (struct settle_cpuid), so tests can inject any CPU; the library calls it
 * once with the words read from this CPU.
 */
#ifndef SETTLE_DISPATCH_H
#define SETTLE_DISPATCH_H

#include "cpu/cpu.h"
#include "settle_bits.h"
#include "settle_byteorder.h"

/*
 * Best popcount implementation for id (src/prim/dispatch_popcount.c):
 * AVX512 when AVX512F, AVX512BW, AVX512VL and AVX512_VPOPCNTDQ are usable
 * (XCR0 has opmask and ZMM state), else AVX2 when AVX and AVX2 are usable
 * (XCR0 has SSE and AVX state; POPCNT is not needed), else POPCNT when
 * cpuid leaf 1 ECX bit 23 is set (no OS state needed, so also with OSXSAVE
 * clear), else SWAR. Leaf-7 words count only when leaf 0 reports a
 * maximum leaf of 7 or more.
 */
enum settle_popcount_impl settle_popcount_choose(const struct settle_cpuid *id);

/* Best byte-swap implementation for id: AVX512 (AVX512BW usable), AVX2,
 * SSSE3, scalar. */
enum settle_bswap_impl settle_bswap_choose(const struct settle_cpuid *id);

/* Usable features of id needed by one implementation: non-zero if it can
 * run there. */
int settle_popcount_runs_on(enum settle_popcount_impl which,
			    const struct settle_cpuid *id);
int settle_bswap_runs_on(enum settle_bswap_impl which,
			 const struct settle_cpuid *id);

#endif
