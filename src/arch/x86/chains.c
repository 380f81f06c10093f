/*
 * chains.c - x86-64: the dependent chains of settle selftest (see
 * src/arch/interface.h and src/runner/selftest.c).
 *
 * Each is written in asm, unrolled so that the loop's own branch is not
 * the bottleneck, and aligned to 64 bytes: on some cores a tight loop runs
 * at one or two cycles per iteration depending on where it sits, and
 * chains with their own copies of the loop would differ by their
 * placement, not by their work. Published latencies (Agner Fog,
 * "Instruction tables"; Intel optimization manual): add 1 cycle, imul 3,
 * popcnt 3 on recent Intel cores and 1 on AMD Zen.
 */
#include "cpu/cpu.h"

__attribute__((noinline))
uint64_t settle_arch_work_chain(uint64_t blocks)
{
	uint64_t x = 0;

	if (blocks == 0)
		return 0;
	__asm__ __volatile__(
		"jmp 2f\n\t"
		".p2align 6\n"
		"2:\n\t"
		".rept 16\n\t"
		"add %[n], %[x]\n\t"
		".endr\n\t"
		"dec %[n]\n\t"
		"jnz 2b\n\t"
		: [x] "+r"(x), [n] "+r"(blocks) :: "cc");
	return x;
}

#define CHAIN(insn) \
	"jmp 2f\n\t" ".p2align 6\n" "2:\n\t" \
	".rept 64\n\t" insn "\n\t" ".endr\n\t" \
	"dec %[n]\n\t" "jnz 2b\n\t"

static uint64_t add_chain(uint64_t n)
{
	uint64_t x = 1, y = 1, k = n;

	if (n)
		__asm__ __volatile__(CHAIN("add %[y], %[x]")
				     : [x] "+r"(x), [n] "+r"(k) : [y] "r"(y)
				     : "cc");
	return x;
}

static uint64_t imul_chain(uint64_t n)
{
	uint64_t x = 3, k = n;

	if (n)
		__asm__ __volatile__(CHAIN("imul %[x], %[x]")
				     : [x] "+r"(x), [n] "+r"(k) :: "cc");
	return x;
}

__attribute__((target("popcnt")))
static uint64_t popcnt_chain(uint64_t n)
{
	uint64_t x = 0xff, k = n;

	if (n)
		__asm__ __volatile__(CHAIN("popcnt %[x], %[x]")
				     : [x] "+r"(x), [n] "+r"(k) :: "cc");
	return x;
}

static const char *no_popcnt(void)
{
	return settle_cpu_has(SETTLE_CPU_POPCNT) ? NULL : "CPU lacks POPCNT";
}

void settle_arch_latency_chains(struct settle_arch_chain *add,
				struct settle_arch_chain *mul,
				struct settle_arch_chain *count)
{
	*add = (struct settle_arch_chain){ "add", add_chain, NULL };
	*mul = (struct settle_arch_chain){ "imul", imul_chain, NULL };
	*count = (struct settle_arch_chain){ "popcnt", popcnt_chain,
					     no_popcnt };
}

const char *settle_arch_placed_unavailable(void)
{
	return no_popcnt();
}
