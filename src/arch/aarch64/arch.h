/*
 * arch.h - AArch64: the identification words, the feature list and the
 * virtual counter reads (see src/arch/interface.h; include that, not this
 * file).
 */
#ifndef SETTLE_ARCH_H
#define SETTLE_ARCH_H

#include <stdint.h>

#define SETTLE_ARCH_NAME "AArch64"
#define SETTLE_ARCH_AARCH64 1

/*
 * The hardware capabilities the kernel passes in the auxiliary vector
 * (getauxval(3) AT_HWCAP, AT_HWCAP2), as read (or injected by tests). A
 * bit is set only when the CPU has the feature and the kernel supports
 * it, state included (SVE registers), so the words alone decide
 * (Linux Documentation/arch/arm64/elf_hwcaps.rst).
 */
struct settle_cpuid {
	uint64_t hwcap;
	uint64_t hwcap2;
};

/* HWCAP and HWCAP2 bits (Linux arch/arm64/include/uapi/asm/hwcap.h). */
#define SETTLE_HWCAP_FP (1ull << 0)
#define SETTLE_HWCAP_ASIMD (1ull << 1)
#define SETTLE_HWCAP_AES (1ull << 3)
#define SETTLE_HWCAP_PMULL (1ull << 4)
#define SETTLE_HWCAP_SHA1 (1ull << 5)
#define SETTLE_HWCAP_SHA2 (1ull << 6)
#define SETTLE_HWCAP_CRC32 (1ull << 7)
#define SETTLE_HWCAP_ATOMICS (1ull << 8)
#define SETTLE_HWCAP_CPUID (1ull << 11)
#define SETTLE_HWCAP_ASIMDRDM (1ull << 12)
#define SETTLE_HWCAP_SHA3 (1ull << 17)
#define SETTLE_HWCAP_ASIMDDP (1ull << 20)
#define SETTLE_HWCAP_SHA512 (1ull << 21)
#define SETTLE_HWCAP_SVE (1ull << 22)
#define SETTLE_HWCAP2_SVE2 (1ull << 1)
#define SETTLE_HWCAP2_SVEBITPERM (1ull << 4)
#define SETTLE_HWCAP2_I8MM (1ull << 13)
#define SETTLE_HWCAP2_BF16 (1ull << 14)
#define SETTLE_HWCAP2_ECV (1ull << 19)

/* Usable features: one HWCAP or HWCAP2 bit each. */
enum settle_cpu_feature {
	SETTLE_CPU_FP, SETTLE_CPU_ASIMD, SETTLE_CPU_AES, SETTLE_CPU_PMULL,
	SETTLE_CPU_SHA1, SETTLE_CPU_SHA2, SETTLE_CPU_CRC32, SETTLE_CPU_ATOMICS,
	SETTLE_CPU_CPUID, SETTLE_CPU_ASIMDRDM, SETTLE_CPU_SHA3,
	SETTLE_CPU_ASIMDDP, SETTLE_CPU_SHA512, SETTLE_CPU_SVE, SETTLE_CPU_SVE2,
	SETTLE_CPU_SVEBITPERM, SETTLE_CPU_I8MM, SETTLE_CPU_BF16,
	SETTLE_CPU_NFEATURES
};

/*
 * The virtual counter CNTVCT_EL0, which Linux lets user space read, at the
 * fixed rate of CNTFRQ_EL0 (Arm Architecture Reference Manual for
 * A-profile, "The Generic Timer in AArch64 state"). A counter read may be
 * performed early, out of order with the instructions around it; an ISB
 * before it waits for the code before, and for stop an ISB after it keeps
 * the code after from starting first (the same pattern as Linux's
 * arch_timer reads).
 */
static inline uint64_t settle_arch_counter_start(void)
{
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

static inline uint64_t settle_arch_counter_stop(void)
{
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb"
			     : "=r"(v) :: "memory");
	return v;
}

#endif
