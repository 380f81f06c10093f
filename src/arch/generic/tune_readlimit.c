/* tune_readlimit.c - every architecture but x86-64: the read limit's
 * loads are the same at every size, nothing to time
 * (src/prim/readlimit.h, settle_arch_read_limit_tune()). */
#include <stddef.h>

#include "prim/readlimit.h"

void settle_arch_read_limit_tune(enum settle_read_limit_impl which)
{
	(void)which;
}

const struct settle_read_limit_timing *settle_read_limit_timing(void)
{
	return NULL;
}
