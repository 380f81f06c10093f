/*
 * dispatch_bswap.c - AArch64: which byte-swap implementation a CPU can
 * run, as a pure function of its hardware capability words, the kernels
 * and the reason a forced one is refused (see dispatch_popcount.c).
 *
 * neon needs AdvSIMD (HWCAP_ASIMD), which every Linux AArch64 CPU has
 * (the ABI assumes it) but which the word still decides. Choice: neon,
 * else the portable scalar swap.
 */
#include <stdio.h>

#include "cpu/cpu.h"
#include "prim/bswap_kernels.h"
#include "prim/dispatch.h"

int settle_bswap_runs_on(enum settle_bswap_impl which,
			 const struct settle_cpuid *id)
{
	if (which == SETTLE_BSWAP_SCALAR)
		return 1;
	if (which == SETTLE_BSWAP_NEON)
		return (id->hwcap & SETTLE_HWCAP_ASIMD) != 0;
	return 0;
}

enum settle_bswap_impl settle_bswap_choose(const struct settle_cpuid *id)
{
	if (settle_bswap_runs_on(SETTLE_BSWAP_NEON, id))
		return SETTLE_BSWAP_NEON;
	return SETTLE_BSWAP_SCALAR;
}

settle_bswap_fn settle_arch_bswap_kernel(enum settle_bswap_impl which,
					 unsigned elem_bits)
{
	if (which != SETTLE_BSWAP_NEON)
		return NULL;
	switch (elem_bits) {
	case 16:
		return settle_bswap16_neon;
	case 32:
		return settle_bswap32_neon;
	case 64:
		return settle_bswap64_neon;
	default:
		return NULL;
	}
}

settle_bswap_touch_fn settle_arch_bswap_touch_kernel(enum settle_bswap_impl which)
{
	return which == SETTLE_BSWAP_NEON ? settle_bswap_touch_neon : NULL;
}

void settle_arch_bswap_refusal(enum settle_bswap_impl which,
			       const struct settle_cpuid *id, char *buf,
			       size_t len)
{
	(void)which;
	(void)id;
	snprintf(buf, len, "this CPU or kernel lacks AdvSIMD (HWCAP_ASIMD)");
}
