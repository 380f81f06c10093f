/*
 * chains.c - AArch64: the dependent chains of settle selftest (see
 * src/arch/interface.h and src/runner/selftest.c): register additions
 * (ADD, 1 cycle), a multiply (MUL, 64-bit) and a bit count (CNT on the
 * eight bytes of a vector register, AdvSIMD: the count that AArch64 has
 * without SVE, used by settle's neon popcount). Each is written in asm,
 * unrolled, and aligned to 64 bytes, so that the loop's branch and its
 * placement do not change its speed. Published latencies (Arm Cortex-A72
 * software optimization guide): MUL 3 cycles (X-form), CNT 3.
 */
#include <arm_neon.h>

#include "cpu/cpu.h"

__attribute__((noinline))
uint64_t settle_arch_work_chain(uint64_t blocks)
{
	uint64_t x = 0;

	if (blocks == 0)
		return 0;
	__asm__ __volatile__(
		"b 2f\n\t"
		".p2align 6\n"
		"2:\n\t"
		".rept 16\n\t"
		"add %[x], %[x], %[n]\n\t"
		".endr\n\t"
		"subs %[n], %[n], #1\n\t"
		"b.ne 2b\n\t"
		: [x] "+r"(x), [n] "+r"(blocks) :: "cc");
	return x;
}

#define CHAIN(insn) \
	"b 2f\n\t" ".p2align 6\n" "2:\n\t" \
	".rept 64\n\t" insn "\n\t" ".endr\n\t" \
	"subs %[n], %[n], #1\n\t" "b.ne 2b\n\t"

static uint64_t add_chain(uint64_t n)
{
	uint64_t x = 1, y = 1, k = n;

	if (n)
		__asm__ __volatile__(CHAIN("add %[x], %[x], %[y]")
				     : [x] "+r"(x), [n] "+r"(k) : [y] "r"(y)
				     : "cc");
	return x;
}

static uint64_t mul_chain(uint64_t n)
{
	uint64_t x = 3, k = n;

	if (n)
		__asm__ __volatile__(CHAIN("mul %[x], %[x], %[x]")
				     : [x] "+r"(x), [n] "+r"(k) :: "cc");
	return x;
}

static uint64_t cnt_chain(uint64_t n)
{
	uint8x8_t v = vdup_n_u8(0xff);
	uint64_t k = n;

	if (n)
		__asm__ __volatile__(CHAIN("cnt %[v].8b, %[v].8b")
				     : [v] "+w"(v), [n] "+r"(k) :: "cc");
	return vget_lane_u8(v, 0);
}

void settle_arch_latency_chains(struct settle_arch_chain *add,
				struct settle_arch_chain *mul,
				struct settle_arch_chain *count)
{
	*add = (struct settle_arch_chain){ "add", add_chain, NULL };
	*mul = (struct settle_arch_chain){ "mul", mul_chain, NULL };
	*count = (struct settle_arch_chain){ "cnt", cnt_chain, NULL };
}

const char *settle_arch_placed_unavailable(void)
{
	return "the placed loop is timed on x86-64 only: docs/layouts.md";
}
