/*
 * arch.h - x86-64: the identification words, the feature list and the
 * time-stamp counter reads (see src/arch/interface.h; include that, not
 * this file).
 */
#ifndef SETTLE_ARCH_H
#define SETTLE_ARCH_H

#include <stdint.h>

#define SETTLE_ARCH_NAME "x86-64"
#define SETTLE_ARCH_X86_64 1

/* Raw cpuid words and XCR0, as read from the CPU (or injected by tests). */
struct settle_cpuid {
	uint32_t max_leaf;          /* leaf 0 EAX */
	uint32_t vendor_ebx;        /* leaf 0 EBX: "Auth" of AuthenticAMD,
				       "Genu" of GenuineIntel */
	uint32_t l1_eax;            /* leaf 1: family, model, stepping */
	uint32_t max_ext_leaf;      /* leaf 0x80000000 EAX */
	uint32_t l1_ecx, l1_edx;    /* leaf 1 */
	uint32_t l7_ebx, l7_ecx;    /* leaf 7 subleaf 0; 0 if max_leaf < 7 */
	uint32_t e1_ecx, e1_edx;    /* leaf 0x80000001 */
	uint32_t e7_edx;            /* leaf 0x80000007 */
	uint64_t xcr0;              /* 0 unless OSXSAVE */
};

/*
 * Usable features: cpuid bit set and, for AVX-class state, enabled by the
 * OS in XCR0. settle_cpu_features_of(): leaf-7 bits count only when
 * max_leaf >= 7; AVX, FMA, AVX2 need OSXSAVE and XCR0 bits 1-2 (SSE, AVX
 * state); AVX2 also needs AVX; AVX-512 needs XCR0 bits 5-7 (opmask, ZMM)
 * as well.
 */
enum settle_cpu_feature {
	SETTLE_CPU_SSE2, SETTLE_CPU_SSE3, SETTLE_CPU_SSSE3, SETTLE_CPU_SSE41,
	SETTLE_CPU_SSE42, SETTLE_CPU_POPCNT, SETTLE_CPU_MOVBE, SETTLE_CPU_AVX,
	SETTLE_CPU_FMA, SETTLE_CPU_BMI1, SETTLE_CPU_BMI2, SETTLE_CPU_AVX2,
	SETTLE_CPU_AVX512F, SETTLE_CPU_AVX512BW, SETTLE_CPU_AVX512VL,
	SETTLE_CPU_AVX512VPOPCNTDQ, SETTLE_CPU_AVX512BITALG,
	SETTLE_CPU_FSGSBASE, SETTLE_CPU_RDTSCP, SETTLE_CPU_INVARIANT_TSC,
	SETTLE_CPU_HYPERVISOR,
	SETTLE_CPU_NFEATURES
};

/*
 * 1 on AMD family 19h (Zen 3, Zen 4), 0 elsewhere: the CPUs of the size
 * ranges that the read-limit and AVX-512 popcount kernels measured on
 * the Zen 4 guest (docs/primitives.md, "Ranges by CPU family"). Zen 4
 * runs each 512-bit vector instruction as two 256-bit halves (AMD,
 * "Software Optimization Guide for AMD Family 19h Processors",
 * publication 56665), and there 256-bit loads read L1 and memory as fast
 * as 512-bit ones or faster; Intel's AVX-512 cores and AMD family 1Ah
 * (Zen 5) load and add 512 bits at once, and read fastest with 512-bit
 * loads at every size (the Zen 5 guest, docs/primitives.md).
 */
int settle_cpu_amd_19h(const struct settle_cpuid *id);

/* 1 on an Intel CPU (cpuid leaf 0 vendor "GenuineIntel"), 0 elsewhere:
 * the CPUs of what was measured on the Intel family 6 model 167 guest:
 * the read-limit widths (src/prim/readlimit.h), the byte swap's
 * non-temporal cap and its interleaved non-temporal copies
 * (src/prim/bswap_kernels.h). */
int settle_cpu_intel(const struct settle_cpuid *id);

/* Execute cpuid leaf/subleaf; regs = EAX, EBX, ECX, EDX. */
void settle_cpuid_raw(uint32_t leaf, uint32_t sub, uint32_t regs[4]);

/*
 * The TSC, read as the Intel white paper "How to Benchmark Code Execution
 * Times on Intel IA-32 and IA-64 Instruction Set Architectures" (Paoloni,
 * 2010) recommends, with lfence in place of cpuid: start = lfence; rdtsc,
 * stop = rdtscp; lfence.
 */
static inline uint64_t settle_arch_counter_start(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t settle_arch_counter_stop(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence"
			     : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

#endif
