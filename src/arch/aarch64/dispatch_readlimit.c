/* dispatch_readlimit.c - AArch64: the read-limit kernel with AdvSIMD
 * loads when HWCAP_ASIMD is set, else the portable one (see
 * src/prim/readlimit.h). */
#include "prim/readlimit.h"

int settle_read_limit_runs_on(enum settle_read_limit_impl which,
			      const struct settle_cpuid *id)
{
	if (which == SETTLE_READ_LIMIT_GENERIC)
		return 1;
	if (which == SETTLE_READ_LIMIT_NEON)
		return (id->hwcap & SETTLE_HWCAP_ASIMD) != 0;
	return 0;
}

enum settle_read_limit_impl
settle_read_limit_choose(const struct settle_cpuid *id)
{
	if (settle_read_limit_runs_on(SETTLE_READ_LIMIT_NEON, id))
		return SETTLE_READ_LIMIT_NEON;
	return SETTLE_READ_LIMIT_GENERIC;
}

settle_read_limit_fn settle_arch_read_limit_kernel(enum settle_read_limit_impl which)
{
	return which == SETTLE_READ_LIMIT_NEON ? settle_read_limit_neon : NULL;
}
