/*
 * timer.c - x86-64: the time-stamp counter as the clock, and the add
 * chain of the core-clock estimate (see src/arch/interface.h).
 *
 * The TSC is used when cpuid says it is invariant (constant rate in every
 * P-/C-state: leaf 0x80000007 EDX bit 8) and RDTSCP exists (leaf 0x80000001
 * EDX bit 27). Its rate is not stated anywhere reliable, so the portable
 * timer (src/timer/timer.c) calibrates it against CLOCK_MONOTONIC_RAW.
 */
#include "cpu/cpu.h"

int settle_arch_counter_probe(struct settle_arch_counter *c)
{
	c->clock = SETTLE_CLOCK_TSC;
	c->nominal_ghz = 0;
	if (!settle_cpu_has(SETTLE_CPU_RDTSCP)) {
		c->why = "CPU lacks RDTSCP";
		return -1;
	}
	if (!settle_cpu_has(SETTLE_CPU_INVARIANT_TSC)) {
		c->why = "TSC not invariant";
		return -1;
	}
	c->why = "invariant TSC with RDTSCP";
	return 0;
}

/* 64 dependent `add reg, reg` (latency 1 cycle on every x86-64 core;
 * Agner Fog's instruction tables): each needs the previous result. */
uint64_t settle_arch_add_chain(uint64_t n)
{
	uint64_t x = 1, y = 3;

	for (uint64_t i = 0; i < n; i++) {
		__asm__ __volatile__(
#define A8 "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t" \
	   "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
			A8 A8 A8 A8 A8 A8 A8 A8
#undef A8
			: "+r"(x) : "r"(y));
	}
	return x;
}
