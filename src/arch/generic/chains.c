/*
 * chains.c - generic: the selftest's work and add chains in C, dependent
 * through settle_keep(); no multiply or bit-count chain (which
 * instruction C gives is the compiler's choice, so its latency would
 * describe nothing).
 */
#include "cpu/cpu.h"

#define ADD1(x, y) x += y; settle_keep(x);
#define ADD4(x, y) ADD1(x, y) ADD1(x, y) ADD1(x, y) ADD1(x, y)
#define ADD16(x, y) ADD4(x, y) ADD4(x, y) ADD4(x, y) ADD4(x, y)

__attribute__((noinline, aligned(64)))
uint64_t settle_arch_work_chain(uint64_t blocks)
{
	uint64_t x = 0;

	for (uint64_t b = blocks; b; b--) {
		ADD16(x, b)
	}
	return x;
}

__attribute__((aligned(64)))
static uint64_t add_chain(uint64_t n)
{
	uint64_t x = 1, y = 1;

	settle_keep(y);
	for (uint64_t i = 0; i < n; i++) {
		ADD16(x, y) ADD16(x, y) ADD16(x, y) ADD16(x, y)
	}
	return x;
}

void settle_arch_latency_chains(struct settle_arch_chain *add,
				struct settle_arch_chain *mul,
				struct settle_arch_chain *count)
{
	*add = (struct settle_arch_chain){ "add", add_chain, NULL };
	*mul = (struct settle_arch_chain){ "mul", NULL, NULL };
	*count = (struct settle_arch_chain){ "popcount", NULL, NULL };
}

const char *settle_arch_placed_unavailable(void)
{
	return "the placed loop is timed on x86-64 only: docs/layouts.md";
}
