/*
 * readlimit.c - the choice of the widest read-limit kernel this CPU can
 * run, and settle_read_limit() dispatched to it (see readlimit.h). The
 * kernels are in readlimit_generic.c (portable) and readlimit_sse2.c,
 * readlimit_avx2.c, readlimit_avx512.c (x86-64, each compiled for its ISA
 * only: Makefile, *_avx2.c, ...), files of their own so that no kernel
 * calls into the file that chooses it.
 */

#include "prim/readlimit.h"

/* ---- the choice -------------------------------------------------------- */

#if defined(__x86_64__)
#define X86 1
#else
#define X86 0
#endif

#define FEAT(f) (1ull << (f))

/* The features each kernel needs (all of them). */
static uint64_t needs(enum settle_read_limit_impl which)
{
	switch (which) {
	case SETTLE_READ_LIMIT_GENERIC:
	case SETTLE_READ_LIMIT_SSE2:
		return 0; /* SSE2 is part of x86-64 */
	case SETTLE_READ_LIMIT_AVX2:
		return FEAT(SETTLE_CPU_AVX) | FEAT(SETTLE_CPU_AVX2);
	case SETTLE_READ_LIMIT_AVX512:
		/* Byte masks (BW); its object is compiled with -mavx512vl,
		 * so EVEX forms on XMM/YMM registers may appear (VL). */
		return FEAT(SETTLE_CPU_AVX512F) | FEAT(SETTLE_CPU_AVX512BW) |
		       FEAT(SETTLE_CPU_AVX512VL);
	default:
		return ~0ull;
	}
}

int settle_read_limit_runs_on(enum settle_read_limit_impl which,
			      const struct settle_cpuid *id)
{
	uint64_t need = needs(which);

	if ((unsigned)which >= SETTLE_READ_LIMIT_NIMPL)
		return 0;
	if (which == SETTLE_READ_LIMIT_GENERIC)
		return 1;
	if (!X86)
		return 0;
	return (settle_cpu_features_of(id) & need) == need;
}

enum settle_read_limit_impl
settle_read_limit_choose(const struct settle_cpuid *id)
{
	int which;

	for (which = SETTLE_READ_LIMIT_NIMPL - 1; which > 0; which--)
		if (settle_read_limit_runs_on(which, id))
			return which;
	return SETTLE_READ_LIMIT_GENERIC;
}

int settle_read_limit_usable(enum settle_read_limit_impl which)
{
	struct settle_cpuid id;

	if (which == SETTLE_READ_LIMIT_GENERIC)
		return 1;
	if (!X86 || (unsigned)which >= SETTLE_READ_LIMIT_NIMPL)
		return 0;
	settle_cpuid_read(&id);
	return settle_read_limit_runs_on(which, &id);
}

static const settle_read_limit_fn kernels[SETTLE_READ_LIMIT_NIMPL] = {
	[SETTLE_READ_LIMIT_GENERIC] = settle_read_limit_generic,
#if X86
	[SETTLE_READ_LIMIT_SSE2] = settle_read_limit_sse2,
	[SETTLE_READ_LIMIT_AVX2] = settle_read_limit_avx2,
	[SETTLE_READ_LIMIT_AVX512] = settle_read_limit_avx512,
#endif
};

static const char *const names[SETTLE_READ_LIMIT_NIMPL] = {
	[SETTLE_READ_LIMIT_GENERIC] = "generic",
	[SETTLE_READ_LIMIT_SSE2] = "sse2",
	[SETTLE_READ_LIMIT_AVX2] = "avx2",
	[SETTLE_READ_LIMIT_AVX512] = "avx512",
};

settle_read_limit_fn settle_read_limit_impl_fn(enum settle_read_limit_impl which)
{
	if ((unsigned)which >= SETTLE_READ_LIMIT_NIMPL)
		return NULL;
	return kernels[which];
}

const char *settle_read_limit_impl_name(enum settle_read_limit_impl which)
{
	if ((unsigned)which >= SETTLE_READ_LIMIT_NIMPL)
		return "?";
	return names[which];
}

/* ---- dispatch ---------------------------------------------------------- */

static uint64_t resolve(const void *buf, size_t len);

static settle_read_limit_fn read_limit_ptr = resolve;
static int active = -1; /* enum settle_read_limit_impl once decided */

enum settle_read_limit_impl settle_read_limit_active(void)
{
	int a = __atomic_load_n(&active, __ATOMIC_ACQUIRE);
	struct settle_cpuid id = { 0 };

	if (a >= 0)
		return a;
#if X86
	settle_cpuid_read(&id);
#endif
	a = settle_read_limit_choose(&id);
	__atomic_store_n(&read_limit_ptr, kernels[a], __ATOMIC_RELEASE);
	__atomic_store_n(&active, a, __ATOMIC_RELEASE);
	return a;
}

settle_read_limit_fn settle_read_limit_kernel(void)
{
	return kernels[settle_read_limit_active()];
}

static uint64_t resolve(const void *buf, size_t len)
{
	return kernels[settle_read_limit_active()](buf, len);
}

uint64_t settle_read_limit(const void *buf, size_t len)
{
	return __atomic_load_n(&read_limit_ptr, __ATOMIC_ACQUIRE)(buf, len);
}
