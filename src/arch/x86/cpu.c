/*
 * cpu.c - x86-64 feature detection from cpuid and XCR0 (xgetbv); see
 * src/arch/interface.h and arch.h.
 */
#include "cpu/cpu.h"

#include <cpuid.h>

void settle_cpuid_raw(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static uint64_t read_xcr0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

#define OSXSAVE_BIT (1u << 27) /* leaf 1 ECX */

void settle_cpuid_read(struct settle_cpuid *id)
{
	uint32_t r[4];

	*id = (struct settle_cpuid){ 0 };
	settle_cpuid_raw(0, 0, r);
	id->max_leaf = r[0];
	id->vendor_ebx = r[1];
	if (id->max_leaf >= 1) {
		settle_cpuid_raw(1, 0, r);
		id->l1_eax = r[0];
		id->l1_ecx = r[2];
		id->l1_edx = r[3];
	}
	if (id->max_leaf >= 7) {
		settle_cpuid_raw(7, 0, r);
		id->l7_ebx = r[1];
		id->l7_ecx = r[2];
	}
	settle_cpuid_raw(0x80000000u, 0, r);
	id->max_ext_leaf = r[0];
	if (id->max_ext_leaf >= 0x80000001u) {
		settle_cpuid_raw(0x80000001u, 0, r);
		id->e1_ecx = r[2];
		id->e1_edx = r[3];
	}
	if (id->max_ext_leaf >= 0x80000007u) {
		settle_cpuid_raw(0x80000007u, 0, r);
		id->e7_edx = r[3];
	}
	if (id->l1_ecx & OSXSAVE_BIT)
		id->xcr0 = read_xcr0();
}

#define AMD_EBX 0x68747541u /* "Auth" */

int settle_cpu_amd_19h(const struct settle_cpuid *id)
{
	unsigned family = (id->l1_eax >> 8) & 0xf;

	if (id->vendor_ebx != AMD_EBX || id->max_leaf < 1)
		return 0;
	if (family == 0xf) /* AMD: the extended family adds to 0xf */
		family += (id->l1_eax >> 20) & 0xff;
	return family == 0x19;
}

#define INTEL_EBX 0x756e6547u /* "Genu" */

int settle_cpu_intel(const struct settle_cpuid *id)
{
	return id->vendor_ebx == INTEL_EBX;
}

#define BIT(f) (1ull << (f))

uint64_t settle_cpu_features_of(const struct settle_cpuid *id)
{
	uint64_t f = 0;
	uint32_t c1 = id->max_leaf >= 1 ? id->l1_ecx : 0;
	uint32_t d1 = id->max_leaf >= 1 ? id->l1_edx : 0;
	uint32_t b7 = id->max_leaf >= 7 ? id->l7_ebx : 0;
	uint32_t c7 = id->max_leaf >= 7 ? id->l7_ecx : 0;
	int os_avx = (c1 & OSXSAVE_BIT) && (id->xcr0 & 0x6) == 0x6;
	int os_avx512 = os_avx && (id->xcr0 & 0xe0) == 0xe0;

	if (d1 & (1u << 26)) f |= BIT(SETTLE_CPU_SSE2);
	if (c1 & (1u << 0))  f |= BIT(SETTLE_CPU_SSE3);
	if (c1 & (1u << 9))  f |= BIT(SETTLE_CPU_SSSE3);
	if (c1 & (1u << 19)) f |= BIT(SETTLE_CPU_SSE41);
	if (c1 & (1u << 20)) f |= BIT(SETTLE_CPU_SSE42);
	if (c1 & (1u << 23)) f |= BIT(SETTLE_CPU_POPCNT);
	if (c1 & (1u << 22)) f |= BIT(SETTLE_CPU_MOVBE);
	if (c1 & (1u << 31)) f |= BIT(SETTLE_CPU_HYPERVISOR);
	if (b7 & (1u << 3))  f |= BIT(SETTLE_CPU_BMI1);
	if (b7 & (1u << 8))  f |= BIT(SETTLE_CPU_BMI2);
	if (b7 & (1u << 0))  f |= BIT(SETTLE_CPU_FSGSBASE);
	if (id->max_ext_leaf >= 0x80000001u && (id->e1_edx & (1u << 27)))
		f |= BIT(SETTLE_CPU_RDTSCP);
	if (id->max_ext_leaf >= 0x80000007u && (id->e7_edx & (1u << 8)))
		f |= BIT(SETTLE_CPU_INVARIANT_TSC);
	if (!os_avx)
		return f;
	if (c1 & (1u << 28)) f |= BIT(SETTLE_CPU_AVX);
	if (!(f & BIT(SETTLE_CPU_AVX)))
		return f;
	if (c1 & (1u << 12)) f |= BIT(SETTLE_CPU_FMA);
	if (b7 & (1u << 5))  f |= BIT(SETTLE_CPU_AVX2);
	if (!os_avx512 || !(b7 & (1u << 16)))
		return f;
	f |= BIT(SETTLE_CPU_AVX512F);
	if (b7 & (1u << 30)) f |= BIT(SETTLE_CPU_AVX512BW);
	if (b7 & (1u << 31)) f |= BIT(SETTLE_CPU_AVX512VL);
	if (c7 & (1u << 14)) f |= BIT(SETTLE_CPU_AVX512VPOPCNTDQ);
	if (c7 & (1u << 12)) f |= BIT(SETTLE_CPU_AVX512BITALG);
	return f;
}

static const char *const names[SETTLE_CPU_NFEATURES] = {
	[SETTLE_CPU_SSE2] = "sse2", [SETTLE_CPU_SSE3] = "sse3",
	[SETTLE_CPU_SSSE3] = "ssse3", [SETTLE_CPU_SSE41] = "sse4.1",
	[SETTLE_CPU_SSE42] = "sse4.2", [SETTLE_CPU_POPCNT] = "popcnt",
	[SETTLE_CPU_MOVBE] = "movbe", [SETTLE_CPU_AVX] = "avx",
	[SETTLE_CPU_FMA] = "fma", [SETTLE_CPU_BMI1] = "bmi1",
	[SETTLE_CPU_BMI2] = "bmi2", [SETTLE_CPU_AVX2] = "avx2",
	[SETTLE_CPU_AVX512F] = "avx512f", [SETTLE_CPU_AVX512BW] = "avx512bw",
	[SETTLE_CPU_AVX512VL] = "avx512vl",
	[SETTLE_CPU_AVX512VPOPCNTDQ] = "avx512vpopcntdq",
	[SETTLE_CPU_AVX512BITALG] = "avx512bitalg",
	[SETTLE_CPU_FSGSBASE] = "fsgsbase", [SETTLE_CPU_RDTSCP] = "rdtscp",
	[SETTLE_CPU_INVARIANT_TSC] = "invariant-tsc",
	[SETTLE_CPU_HYPERVISOR] = "hypervisor",
};

const char *settle_cpu_feature_name(enum settle_cpu_feature f)
{
	return (unsigned)f < SETTLE_CPU_NFEATURES ? names[f] : "?";
}
