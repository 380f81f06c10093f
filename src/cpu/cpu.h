/*
 * cpu.h - what the CPU and the OS let us execute (private to settle).
 *
 * The identification words (struct settle_cpuid) and the feature list
 * (enum settle_cpu_feature) are the architecture's (src/arch/<arch>/arch.h):
 * on x86-64 cpuid leaves 0, 1, 7, 0x80000001/7 and XCR0 (read with xgetbv
 * only when cpuid leaf 1 reports OSXSAVE; Intel SDM vol. 2A, CPUID;
 * vol. 1, 13.2 "Enumerating processor extended state support"); on AArch64
 * the hardware capability words of the auxiliary vector (getauxval(3)
 * AT_HWCAP and AT_HWCAP2; Linux Documentation/arch/arm64/elf_hwcaps.rst).
 * Reading them and deciding from them is the architecture's
 * (src/arch/interface.h); this file caches the decision for this CPU.
 */
#ifndef SETTLE_CPU_H
#define SETTLE_CPU_H

#include <stdint.h>

#include "arch/interface.h"

/* This CPU's identification words, read once (the same every call);
 * safe to call from any thread. */
const struct settle_cpuid *settle_cpuid_this(void);

/* Features of this CPU (settle_cpu_features_of() of this CPU's words),
 * detected once; safe to call from any thread. */
uint64_t settle_cpu_features(void);

static inline int settle_cpu_has(enum settle_cpu_feature f)
{
	return (settle_cpu_features() >> f) & 1;
}

#endif
