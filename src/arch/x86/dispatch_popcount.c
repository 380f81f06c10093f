/*
 * dispatch_popcount.c - x86-64: which popcount implementation a CPU can
 * run, as a pure function of its cpuid words and XCR0 (see dispatch.h);
 * the kernels, the blend settle_popcount() uses when AVX2 is chosen, and
 * the reasons a forced implementation is refused (src/arch/interface.h).
 *
 * The usable features come from settle_cpu_features_of() (cpu.c),
 * which applies the rules of the Intel SDM: leaf-7 bits only when leaf 0
 * reports a maximum leaf of 7 or more (vol. 2A, CPUID); AVX-class
 * instructions only when OSXSAVE is set and XCR0 enables their state
 * (vol. 1, 13.2 and 14.3 "Detection of Intel AVX instructions"); AVX-512
 * only when XCR0 also enables opmask and ZMM state, bits 5-7 (vol. 1,
 * 15.2 "Detection of AVX-512 foundation instructions"). POPCNT needs no
 * OS-managed state, so it counts even when OSXSAVE is clear.
 */
#include <stdio.h>

#include "prim/dispatch.h"
#include "prim/popcount_kernels.h"
#include "settle_popcount_avx2.h" /* SETTLE_PC256_POPCNT_MAX */

#define FEAT(f) (1ull << (f))

/* The features each implementation needs (all of them). */
static uint64_t popcount_needs(enum settle_popcount_impl which)
{
	switch (which) {
	case SETTLE_POPCOUNT_SWAR:
		return 0;
	case SETTLE_POPCOUNT_POPCNT:
		return FEAT(SETTLE_CPU_POPCNT);
	case SETTLE_POPCOUNT_AVX2:
		/* Its tails use SWAR, not POPCNT (popcount_avx2.c). VPSHUFB
		 * on YMM is AVX2's; SSSE3 too, as the byte swap's AVX2
		 * kernel: every AVX2 CPU has it, and qemu's -cpu
		 * Haswell,-ssse3 refuses the instruction without it */
		return FEAT(SETTLE_CPU_AVX) | FEAT(SETTLE_CPU_AVX2) |
		       FEAT(SETTLE_CPU_SSSE3);
	case SETTLE_POPCOUNT_AVX512VL:
		/* EVEX VPTERNLOGQ on YMM (F, VL) in AVX2 code */
		return FEAT(SETTLE_CPU_AVX) | FEAT(SETTLE_CPU_AVX2) |
		       FEAT(SETTLE_CPU_SSSE3) |
		       FEAT(SETTLE_CPU_AVX512F) | FEAT(SETTLE_CPU_AVX512VL);
	case SETTLE_POPCOUNT_AVX512:
		/*
		 * VPOPCNTQ on ZMM (F, VPOPCNTDQ), byte-masked tail loads
		 * (BW); the object is compiled with -mavx512vl, so the
		 * compiler may use EVEX forms on XMM/YMM registers (VL),
		 * and -mavx512f implies -mavx2: its VEX VPADDQ on YMM
		 * (count_stream(), count_unaligned()) is AVX2's (every CPU
		 * with AVX-512 so far has AVX2).
		 */
		return FEAT(SETTLE_CPU_AVX) | FEAT(SETTLE_CPU_AVX2) |
		       FEAT(SETTLE_CPU_AVX512F) | FEAT(SETTLE_CPU_AVX512BW) |
		       FEAT(SETTLE_CPU_AVX512VL) |
		       FEAT(SETTLE_CPU_AVX512VPOPCNTDQ);
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
	return (settle_cpu_features_of(id) & need) == need;
}

enum settle_popcount_impl settle_popcount_choose(const struct settle_cpuid *id)
{
	int which;

	for (which = SETTLE_POPCOUNT_NIMPL - 1; which > 0; which--)
		if (settle_popcount_runs_on(which, id))
			return which;
	return SETTLE_POPCOUNT_SWAR;
}

/* ---- kernels, the automatic blend, refusals (src/arch/interface.h) ---- */

settle_popcount_fn settle_arch_popcount_kernel(enum settle_popcount_impl which)
{
	switch (which) {
	case SETTLE_POPCOUNT_POPCNT:
		return settle_popcount_kernel_popcnt;
	case SETTLE_POPCOUNT_AVX2:
		return settle_popcount_kernel_avx2;
	case SETTLE_POPCOUNT_AVX512VL:
		return settle_popcount_kernel_avx512vl;
	case SETTLE_POPCOUNT_AVX512:
		return settle_popcount_kernel_avx512;
	default:
		return NULL;
	}
}

/*
 * AVX2 or AVX512VL (chosen or forced) when the CPU also has POPCNT (every
 * AVX2 CPU made so far does): the kernel that uses POPCNT as well, alone
 * below SETTLE_PC256_POPCNT_MAX bytes, for its last words, and side by
 * side with the vectors for long buffers (popcount_hs256.h). Called
 * directly, not through a function that picks POPCNT for short buffers:
 * that one more jump cost the AVX512VL path 3-5 % at 256 and 384 bytes on
 * the Zen 5 guest. It is still reported as avx2 or avx512vl.
 */
settle_popcount_fn settle_arch_popcount_path(enum settle_popcount_impl which,
					     const struct settle_cpuid *id)
{
	int popcnt = settle_popcount_runs_on(SETTLE_POPCOUNT_POPCNT, id);

	if (which == SETTLE_POPCOUNT_AVX2 && popcnt)
		return settle_popcount_kernel_avx2_popcnt;
	if (which == SETTLE_POPCOUNT_AVX512VL && popcnt)
		return settle_popcount_kernel_avx512vl_popcnt;
	return settle_arch_popcount_kernel(which);
}

/* The first feature implementation which needs that features lacks, by
 * its name ("avx2", "ssse3", "avx512vpopcntdq"), for messages. */
static const char *first_missing(enum settle_popcount_impl which,
				 uint64_t features)
{
	uint64_t missing = popcount_needs(which) & ~features;

	for (int f = 0; f < 64; f++)
		if (missing >> f & 1)
			return settle_cpu_feature_name(f);
	return "nothing";
}

/* When cpuid has the instructions but XCR0 lacks their state, say so. */
void settle_arch_popcount_refusal(enum settle_popcount_impl which,
				  const struct settle_cpuid *id, char *buf,
				  size_t len)
{
	struct settle_cpuid os_on = *id;

	os_on.l1_ecx |= 1u << 27; /* OSXSAVE */
	os_on.xcr0 = ~0ull;
	if (settle_popcount_runs_on(which, &os_on))
		snprintf(buf, len, "the OS has not enabled %s register state "
			 "(XCR0 %#llx)",
			 first_missing(which, settle_cpu_features_of(id)),
			 (unsigned long long)id->xcr0);
	else
		snprintf(buf, len, "this CPU lacks %s",
			 first_missing(which, settle_cpu_features_of(&os_on)));
}
