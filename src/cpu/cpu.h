/*
 * cpu.h - what the CPU and the OS let us execute (private to settle).
 *
 * Detection reads cpuid leaves 0, 1, 7 and 0x80000001/7 once, and XCR0 via
 * xgetbv only when cpuid leaf 1 reports OSXSAVE (Intel SDM vol. 2A, CPUID;
 * vol. 1, 13.2 "Enumerating processor extended state support").
 */
#ifndef SETTLE_CPU_H
#define SETTLE_CPU_H

#include <stdint.h>

/* Raw cpuid words and XCR0, as read from the CPU (or injected by tests). */
struct settle_cpuid {
	uint32_t max_leaf;          /* leaf 0 EAX */
	uint32_t max_ext_leaf;      /* leaf 0x80000000 EAX */
	uint32_t l1_ecx, l1_edx;    /* leaf 1 */
	uint32_t l7_ebx, l7_ecx;    /* leaf 7 subleaf 0; 0 if max_leaf < 7 */
	uint32_t e1_ecx, e1_edx;    /* leaf 0x80000001 */
	uint32_t e7_edx;            /* leaf 0x80000007 */
	uint64_t xcr0;              /* 0 unless OSXSAVE */
};

/* Usable features: cpuid bit set and, for AVX-class state, enabled by the
 * OS in XCR0. */
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

/* Read the raw words from this CPU (xgetbv only when OSXSAVE is set). */
void settle_cpuid_read(struct settle_cpuid *id);

/*
 * Pure decision: the usable feature set of id, one bit per
 * enum settle_cpu_feature. Leaf-7 bits count only when max_leaf >= 7;
 * AVX, FMA, AVX2 need OSXSAVE and XCR0 bits 1-2 (SSE, AVX state); AVX2
 * also needs AVX; AVX-512 needs XCR0 bits 5-7 (opmask, ZMM) as well.
 */
uint64_t settle_cpu_features_of(const struct settle_cpuid *id);

/* Features of this CPU, detected once; safe to call from any thread. */
uint64_t settle_cpu_features(void);

static inline int settle_cpu_has(enum settle_cpu_feature f)
{
	return (settle_cpu_features() >> f) & 1;
}

/* Lower-case name of a feature ("avx512vpopcntdq"). */
const char *settle_cpu_feature_name(enum settle_cpu_feature f);

/* Execute cpuid leaf/subleaf; regs = EAX, EBX, ECX, EDX. */
void settle_cpuid_raw(uint32_t leaf, uint32_t sub, uint32_t regs[4]);

#endif
