/*
 * dispatch_bswap.c - generic: the portable byte swap only (scalar,
 * src/prim/bswap.c), on every CPU.
 */
#include <stdio.h>

#include "cpu/cpu.h"
#include "prim/dispatch.h"

enum settle_bswap_impl settle_bswap_choose(const struct settle_cpuid *id)
{
	(void)id;
	return SETTLE_BSWAP_SCALAR;
}

int settle_bswap_runs_on(enum settle_bswap_impl which,
			 const struct settle_cpuid *id)
{
	(void)id;
	return which == SETTLE_BSWAP_SCALAR;
}

settle_bswap_fn settle_arch_bswap_kernel(enum settle_bswap_impl which,
					 unsigned elem_bits)
{
	(void)which;
	(void)elem_bits;
	return NULL;
}

settle_bswap_touch_fn settle_arch_bswap_touch_kernel(enum settle_bswap_impl which)
{
	(void)which;
	return NULL;
}

void settle_arch_bswap_refusal(enum settle_bswap_impl which,
			       const struct settle_cpuid *id, char *buf,
			       size_t len)
{
	(void)which;
	(void)id;
	snprintf(buf, len, "not in the generic build");
}
