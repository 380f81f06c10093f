/* dispatch_readlimit.c - generic: the portable read-limit kernel only
 * (src/prim/readlimit_generic.c), on every CPU. */
#include "prim/readlimit.h"

int settle_read_limit_runs_on(enum settle_read_limit_impl which,
			      const struct settle_cpuid *id)
{
	(void)id;
	return which == SETTLE_READ_LIMIT_GENERIC;
}

enum settle_read_limit_impl
settle_read_limit_choose(const struct settle_cpuid *id)
{
	(void)id;
	return SETTLE_READ_LIMIT_GENERIC;
}

settle_read_limit_fn settle_arch_read_limit_kernel(enum settle_read_limit_impl which)
{
	(void)which;
	return NULL;
}
