/*
 * dispatch_popcount.c - generic: the portable popcount only (SWAR,
 * src/prim/popcount.c), on every CPU.
 */
#include <stdio.h>

#include "cpu/cpu.h"
#include "prim/dispatch.h"

enum settle_popcount_impl settle_popcount_choose(const struct settle_cpuid *id)
{
	(void)id;
	return SETTLE_POPCOUNT_SWAR;
}

int settle_popcount_runs_on(enum settle_popcount_impl which,
			    const struct settle_cpuid *id)
{
	(void)id;
	return which == SETTLE_POPCOUNT_SWAR;
}

settle_popcount_fn settle_arch_popcount_kernel(enum settle_popcount_impl which)
{
	(void)which;
	return NULL;
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
	(void)which;
	(void)id;
	snprintf(buf, len, "not in the generic build");
}
