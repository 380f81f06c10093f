/*
 * dispatch_popcount.c - AArch64: which popcount implementation a CPU can
 * run, as a pure function of its hardware capability words (struct
 * settle_cpuid: AT_HWCAP, AT_HWCAP2), the kernels and the reasons a
 * forced one is refused (see src/arch/interface.h and
 * src/prim/dispatch.h; byte swap's are in dispatch_bswap.c).
 *
 * neon needs AdvSIMD (HWCAP_ASIMD), which every Linux AArch64 CPU has
 * (the ABI assumes it) but which the word still decides; sve needs
 * HWCAP_SVE, set only when the CPU has SVE and the kernel saves its
 * state. Choice: sve, else neon, else the portable SWAR and scalar.
 */
#include <stdio.h>

#include "cpu/cpu.h"
#include "prim/dispatch.h"
#include "prim/popcount_kernels.h"

/* The capability each implementation needs (0: none). */
static uint64_t popcount_needs(enum settle_popcount_impl which)
{
	switch (which) {
	case SETTLE_POPCOUNT_SWAR:
		return 0;
	case SETTLE_POPCOUNT_NEON:
		return SETTLE_HWCAP_ASIMD;
	case SETTLE_POPCOUNT_SVE:
		return SETTLE_HWCAP_SVE;
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
	return (id->hwcap & need) == need;
}

enum settle_popcount_impl settle_popcount_choose(const struct settle_cpuid *id)
{
	if (settle_popcount_runs_on(SETTLE_POPCOUNT_SVE, id))
		return SETTLE_POPCOUNT_SVE;
	if (settle_popcount_runs_on(SETTLE_POPCOUNT_NEON, id))
		return SETTLE_POPCOUNT_NEON;
	return SETTLE_POPCOUNT_SWAR;
}

settle_popcount_fn settle_arch_popcount_kernel(enum settle_popcount_impl which)
{
	switch (which) {
	case SETTLE_POPCOUNT_NEON:
		return settle_popcount_kernel_neon;
	case SETTLE_POPCOUNT_SVE:
		return settle_popcount_kernel_sve;
	default:
		return NULL;
	}
}

settle_popcount_fn settle_arch_popcount_path(enum settle_popcount_impl which,
					     const struct settle_cpuid *id)
{
	(void)id;
	return settle_arch_popcount_kernel(which);
}

void settle_arch_popcount_refusal(enum settle_popcount_impl which,
				  const struct settle_cpuid *id, char *buf,
				  size_t len)
{
	(void)id;
	snprintf(buf, len, "this CPU or kernel lacks %s",
		 which == SETTLE_POPCOUNT_SVE ? "SVE (HWCAP_SVE)" :
		 "AdvSIMD (HWCAP_ASIMD)");
}
