/*
 * dispatch.c - AArch64: which popcount and byte-swap implementations a
 * CPU can run, as pure functions of its hardware capability words
 * (struct settle_cpuid: AT_HWCAP, AT_HWCAP2), their kernels and the
 * reasons a forced one is refused (see src/arch/interface.h and
 * src/prim/dispatch.h).
 *
 * neon needs AdvSIMD (HWCAP_ASIMD), which every Linux AArch64 CPU has
 * (the ABI assumes it) but which the word still decides; sve needs
 * HWCAP_SVE, set only when the CPU has SVE and the kernel saves its
 * state. Choice: sve, else neon, else the portable SWAR and scalar.
 */
#include <stdio.h>

#include "cpu/cpu.h"
#include "prim/bswap_kernels.h"
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

settle_popcount_fn settle_arch_popcount_auto(enum settle_popcount_impl which,
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

void settle_arch_bswap_refusal(enum settle_bswap_impl which,
			       const struct settle_cpuid *id, char *buf,
			       size_t len)
{
	(void)which;
	(void)id;
	snprintf(buf, len, "this CPU or kernel lacks AdvSIMD (HWCAP_ASIMD)");
}
