/*
 * dispatch.h - the choice of implementation for the dispatched primitives
 * (private). The choice is a pure function of the architecture's
 * identification words (struct settle_cpuid: cpuid and XCR0 on x86-64,
 * AT_HWCAP and AT_HWCAP2 on AArch64), so tests can inject any CPU; the
 * library calls it once with the words read from this CPU. Each
 * architecture implements these (src/arch/<arch>/dispatch*.c; the generic
 * build always chooses the portable SWAR and scalar).
 */
#ifndef SETTLE_DISPATCH_H
#define SETTLE_DISPATCH_H

#include "cpu/cpu.h"
#include "settle_bits.h"
#include "settle_byteorder.h"

/*
 * Best popcount implementation for id. x86-64
 * (src/arch/x86/dispatch_popcount.c): AVX512 when AVX512F, AVX512BW, AVX512VL and AVX512_VPOPCNTDQ are usable
 * (XCR0 has opmask and ZMM state), else AVX2 when AVX and AVX2 are usable
 * (XCR0 has SSE and AVX state; POPCNT is not needed), else POPCNT when
 * cpuid leaf 1 ECX bit 23 is set (no OS state needed, so also with OSXSAVE
 * clear), else SWAR. Leaf-7 words count only when leaf 0 reports a
 * maximum leaf of 7 or more. AArch64 (src/arch/aarch64/dispatch_popcount.c): SVE
 * when HWCAP_SVE is set, else NEON when HWCAP_ASIMD is, else SWAR.
 */
enum settle_popcount_impl settle_popcount_choose(const struct settle_cpuid *id);

/* Best byte-swap implementation for id: x86-64 AVX512 (AVX512BW usable),
 * AVX2, SSSE3, scalar; AArch64 NEON (HWCAP_ASIMD), scalar. */
enum settle_bswap_impl settle_bswap_choose(const struct settle_cpuid *id);

/* Non-zero when id has the usable features implementation which needs;
 * 0 for an implementation of another architecture or out of range. */
int settle_popcount_runs_on(enum settle_popcount_impl which,
			    const struct settle_cpuid *id);
int settle_bswap_runs_on(enum settle_bswap_impl which,
			 const struct settle_cpuid *id);

#endif
