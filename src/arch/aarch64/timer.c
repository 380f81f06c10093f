/*
 * timer.c - AArch64: the virtual counter CNTVCT_EL0 as the clock, and the
 * add chain of the core-clock estimate (see src/arch/interface.h).
 *
 * The counter runs at a fixed rate, the one CNTFRQ_EL0 states (firmware
 * writes it; Arm Architecture Reference Manual for A-profile, "The Generic
 * Timer in AArch64 state"): typically tens of MHz, 1 GHz from Armv8.6 on.
 * Firmware has been known to write a wrong value, so the portable timer
 * calibrates the counter against CLOCK_MONOTONIC_RAW anyway and uses the
 * stated rate only when the two agree.
 */
#include <stdio.h>

#include "cpu/cpu.h"

int settle_arch_counter_probe(struct settle_arch_counter *c)
{
	static char why[96];
	uint64_t frq;

	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(frq));
	c->clock = SETTLE_CLOCK_CNTVCT;
	c->nominal_ghz = (double)(frq & 0xffffffffu) / 1e9;
	if (!(c->nominal_ghz > 0)) {
		c->why = "CNTFRQ_EL0 is 0: the counter's rate is unknown";
		return -1;
	}
	snprintf(why, sizeof(why), "virtual counter, CNTFRQ_EL0 %.6g MHz",
		 c->nominal_ghz * 1e3);
	c->why = why;
	return 0;
}

/* 64 dependent `add xd, xd, xm` (1 cycle each on every AArch64 core;
 * the Arm Cortex and Neoverse software optimization guides). */
uint64_t settle_arch_add_chain(uint64_t n)
{
	uint64_t x = 1, y = 3;

	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__(".rept 64\n\tadd %0, %0, %1\n\t.endr"
				     : "+r"(x) : "r"(y));
	return x;
}
