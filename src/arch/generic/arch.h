/*
 * arch.h - the generic build: no architecture-specific code at all (see
 * src/arch/interface.h; include that, not this file). It builds and runs
 * on any Linux target (ARCH=generic, or a target without a folder under
 * src/arch/): portable SWAR popcount, scalar byte swap,
 * CLOCK_MONOTONIC_RAW, and no feature detection.
 */
#ifndef SETTLE_ARCH_H
#define SETTLE_ARCH_H

#include <stdint.h>

#define SETTLE_ARCH_NAME "generic"
#define SETTLE_ARCH_GENERIC 1

/* No identification words. */
struct settle_cpuid {
	uint32_t none;
};

/* No features. */
enum settle_cpu_feature {
	SETTLE_CPU_NFEATURES
};

/* No counter: settle_arch_counter_probe() refuses, so these are never
 * called. */
static inline uint64_t settle_arch_counter_start(void)
{
	return 0;
}

static inline uint64_t settle_arch_counter_stop(void)
{
	return 0;
}

#endif
