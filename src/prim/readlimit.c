/*
 * readlimit.c - settle_read_limit() dispatched to the widest read-limit
 * kernel this CPU can run, the names, and the kernels by implementation
 * (see readlimit.h). The choice and the kernels of an architecture are in
 * its folder (src/arch/<arch>/dispatch_readlimit.c, readlimit_*.c); the
 * portable kernel is in readlimit_generic.c. Files of their own, so that
 * no kernel calls into the file that chooses it.
 */
#include "prim/readlimit.h"

static const char *const names[SETTLE_READ_LIMIT_NIMPL] = {
	[SETTLE_READ_LIMIT_GENERIC] = "generic",
	[SETTLE_READ_LIMIT_SSE2] = "sse2",
	[SETTLE_READ_LIMIT_AVX2] = "avx2",
	[SETTLE_READ_LIMIT_AVX512] = "avx512",
	[SETTLE_READ_LIMIT_NEON] = "neon",
};

settle_read_limit_fn settle_read_limit_impl_fn(enum settle_read_limit_impl which)
{
	if ((unsigned)which >= SETTLE_READ_LIMIT_NIMPL)
		return NULL;
	if (which == SETTLE_READ_LIMIT_GENERIC)
		return settle_read_limit_generic;
	return settle_arch_read_limit_kernel(which);
}

const char *settle_read_limit_impl_name(enum settle_read_limit_impl which)
{
	if ((unsigned)which >= SETTLE_READ_LIMIT_NIMPL)
		return "?";
	return names[which];
}

int settle_read_limit_usable(enum settle_read_limit_impl which)
{
	if (!settle_read_limit_impl_fn(which))
		return 0;
	return settle_read_limit_runs_on(which, settle_cpuid_this());
}

/* ---- dispatch ---------------------------------------------------------- */

static uint64_t resolve(const void *buf, size_t len, uint64_t passes);

static settle_read_limit_fn read_limit_ptr = resolve;
static int active = -1; /* enum settle_read_limit_impl once decided */

enum settle_read_limit_impl settle_read_limit_active(void)
{
	int a = __atomic_load_n(&active, __ATOMIC_ACQUIRE);

	if (a >= 0)
		return a;
	a = settle_read_limit_choose(settle_cpuid_this());
	settle_arch_read_limit_tune(a);
	__atomic_store_n(&read_limit_ptr, settle_read_limit_impl_fn(a),
			 __ATOMIC_RELEASE);
	__atomic_store_n(&active, a, __ATOMIC_RELEASE);
	return a;
}

settle_read_limit_fn settle_read_limit_kernel(void)
{
	return settle_read_limit_impl_fn(settle_read_limit_active());
}

static uint64_t resolve(const void *buf, size_t len, uint64_t passes)
{
	return settle_read_limit_kernel()(buf, len, passes);
}

uint64_t settle_read_limit_passes(const void *buf, size_t len,
				  uint64_t passes)
{
	return __atomic_load_n(&read_limit_ptr, __ATOMIC_ACQUIRE)(buf, len,
								  passes);
}

uint64_t settle_read_limit(const void *buf, size_t len)
{
	return settle_read_limit_passes(buf, len, 1);
}
