/*
 * timer.c - generic: no cycle counter (clock_gettime(CLOCK_MONOTONIC_RAW)
 * is the clock) and an add chain in C (see src/arch/interface.h).
 */
#include "cpu/cpu.h"

int settle_arch_counter_probe(struct settle_arch_counter *c)
{
	c->clock = SETTLE_CLOCK_MONOTONIC;
	c->nominal_ghz = 0;
	c->why = "no cycle counter in the generic build";
	return -1;
}

/*
 * One dependent addition: settle_keep() makes the compiler assume x
 * changed after each, so none can be merged with the next or folded.
 */
#define ADD1 x += y; settle_keep(x);
#define ADD8 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1

uint64_t settle_arch_add_chain(uint64_t n)
{
	uint64_t x = 1, y = 3;

	settle_keep(y);
	for (uint64_t i = 0; i < n; i++) {
		ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
	}
	return x;
}
