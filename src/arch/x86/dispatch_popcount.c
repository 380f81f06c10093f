/*
 * dispatch_popcount.c - which popcount implementation a CPU can run, as a
 * pure function of its cpuid words and XCR0 (see dispatch.h).
 *
 * The usable features come from settle_cpu_features_of() (src/cpu/cpu.c),
 * which applies the rules of the Intel SDM: leaf-7 bits only when leaf 0
 * reports a maximum leaf of 7 or more (vol. 2A, CPUID); AVX-class
 * instructions only when OSXSAVE is set and XCR0 enables their state
 * (vol. 1, 13.2 and 14.3 "Detection of Intel AVX instructions"); AVX-512
 * only when XCR0 also enables opmask and ZMM state, bits 5-7 (vol. 1,
 * 15.2 "Detection of AVX-512 foundation instructions"). POPCNT needs no
 * OS-managed state, so it counts even when OSXSAVE is clear.
 */
#include "prim/dispatch.h"

#define FEAT(f) (1ull << (f))

/* The features each implementation needs (all of them). */
static uint64_t popcount_needs(enum settle_popcount_impl which)
{
	switch (which) {
	case SETTLE_POPCOUNT_SWAR:
		return 0;
	case SETTLE_POPCOUNT_POPCNT:
		return FEAT(SETTLE_CPU_POPCNT);
	case SETTLE_POPCOUNT_AVX2:
		/* Its tails use SWAR, not POPCNT (popcount_avx2.c). */
		return FEAT(SETTLE_CPU_AVX) | FEAT(SETTLE_CPU_AVX2);
	case SETTLE_POPCOUNT_AVX512:
		/*
		 * VPOPCNTQ on ZMM (F, VPOPCNTDQ), byte-masked tail loads
		 * (BW); the object is compiled with -mavx512vl, so the
		 * compiler may use EVEX forms on XMM/YMM registers (VL).
		 */
		return FEAT(SETTLE_CPU_AVX512F) | FEAT(SETTLE_CPU_AVX512BW) |
		       FEAT(SETTLE_CPU_AVX512VL) |
		       FEAT(SETTLE_CPU_AVX512VPOPCNTDQ);
	default:
		return ~0ull;
	}
}

int settle_popcount_runs_on(enum settle_popcount_impl which,
			    const struct settle_cpuid *id)
{
	uint64_t need = popcount_needs(which);

	if ((unsigned)which >= SETTLE_POPCOUNT_NIMPL)
		return 0;
	return (settle_cpu_features_of(id) & need) == need;
}

enum settle_popcount_impl settle_popcount_choose(const struct settle_cpuid *id)
{
	int which;

	for (which = SETTLE_POPCOUNT_NIMPL - 1; which > 0; which--)
		if (settle_popcount_runs_on(which, id))
			return which;
	return SETTLE_POPCOUNT_SWAR;
}
