/*
 * dispatch_readlimit.c - x86-64: which read-limit kernel a CPU can run,
 * as a pure function of its cpuid words and XCR0, and the kernels (see
 * src/prim/readlimit.h). SSE2 is part of x86-64; AVX2 needs AVX and AVX2
 * usable; AVX-512 needs AVX512F, BW (byte masks) and VL (its object is
 * compiled with -mavx512vl, so EVEX forms on XMM/YMM registers may
 * appear), and AVX2 too (it hands some sizes to the avx2 kernel), with
 * XCR0 enabling their state (cpu.c).
 */
#include "prim/readlimit.h"

#define FEAT(f) (1ull << (f))

/* The features each kernel needs (all of them). */
static uint64_t needs(enum settle_read_limit_impl which)
{
	switch (which) {
	case SETTLE_READ_LIMIT_GENERIC:
	case SETTLE_READ_LIMIT_SSE2:
		return 0;
	case SETTLE_READ_LIMIT_AVX2:
		return FEAT(SETTLE_CPU_AVX) | FEAT(SETTLE_CPU_AVX2);
	case SETTLE_READ_LIMIT_AVX512:
		/* and AVX2: it reads some sizes with the avx2 kernel */
		return FEAT(SETTLE_CPU_AVX512F) | FEAT(SETTLE_CPU_AVX512BW) |
		       FEAT(SETTLE_CPU_AVX512VL) | FEAT(SETTLE_CPU_AVX) |
		       FEAT(SETTLE_CPU_AVX2);
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
	return (settle_cpu_features_of(id) & need) == need;
}

enum settle_read_limit_impl
settle_read_limit_choose(const struct settle_cpuid *id)
{
	if (settle_read_limit_runs_on(SETTLE_READ_LIMIT_AVX512, id))
		return SETTLE_READ_LIMIT_AVX512;
	if (settle_read_limit_runs_on(SETTLE_READ_LIMIT_AVX2, id))
		return SETTLE_READ_LIMIT_AVX2;
	return SETTLE_READ_LIMIT_SSE2;
}

settle_read_limit_fn settle_arch_read_limit_kernel(enum settle_read_limit_impl which)
{
	switch (which) {
	case SETTLE_READ_LIMIT_SSE2:
		return settle_read_limit_sse2;
	case SETTLE_READ_LIMIT_AVX2:
		return settle_read_limit_avx2;
	case SETTLE_READ_LIMIT_AVX512:
		return settle_read_limit_avx512;
	default:
		return NULL;
	}
}
