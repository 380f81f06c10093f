/*
 * dispatch_bswap.c - x86-64: the byte-swap choice, its kernels and the
 * reasons a forced implementation is refused (see src/arch/interface.h
 * and src/prim/dispatch.h; popcount's are in dispatch_popcount.c).
 *
 * What each byte-swap implementation needs (Intel SDM vol. 2A, CPUID;
 * vol. 1, 13.2 "Enumerating processor extended state support", 14.3
 * "Detection of Intel AVX instructions", 15.2 "Detection of AVX-512
 * foundation instructions"): SSSE3 (PSHUFB) needs CPUID.1:ECX bit 9 and no
 * OS state beyond SSE; AVX2 (VPSHUFB ymm) needs AVX and AVX2 with XCR0
 * enabling SSE and AVX state; AVX-512 needs AVX512BW (VPSHUFB zmm, byte
 * masks) with XCR0 enabling opmask and ZMM state too, and AVX512VL,
 * because its object is compiled with -mavx512vl and may contain EVEX
 * forms on XMM/YMM registers (every CPU with AVX512BW so far has VL), and
 * AVX2, because it hands some copies to the AVX2 kernel (every CPU with
 * AVX-512 so far has AVX2).
 */
#include <stdio.h>

#include "cpu/cpu.h"
#include "prim/bswap_kernels.h"
#include "prim/dispatch.h"

/* ---- byte swap ---------------------------------------------------------- */

#define FEAT(f) (1ull << (f))

/* The features each implementation needs (all of them). */
static uint64_t bswap_needs(enum settle_bswap_impl which)
{
	switch (which) {
	case SETTLE_BSWAP_SCALAR:
		return 0;
	case SETTLE_BSWAP_SSSE3:
		return FEAT(SETTLE_CPU_SSSE3);
	case SETTLE_BSWAP_AVX2:
		/* large copies go to the SSSE3 kernel (bswap_avx2.c) */
		return FEAT(SETTLE_CPU_AVX) | FEAT(SETTLE_CPU_AVX2) |
		       FEAT(SETTLE_CPU_SSSE3);
	case SETTLE_BSWAP_AVX512:
		/* and some copies go to the AVX2 kernel (bswap_avx512.c) */
		return FEAT(SETTLE_CPU_AVX512F) | FEAT(SETTLE_CPU_AVX512BW) |
		       FEAT(SETTLE_CPU_AVX512VL) | FEAT(SETTLE_CPU_AVX) |
		       FEAT(SETTLE_CPU_AVX2) | FEAT(SETTLE_CPU_SSSE3);
	default:
		return ~0ull;
	}
}

static int runs_with(enum settle_bswap_impl which, uint64_t features)
{
	uint64_t need = bswap_needs(which);

	if ((unsigned)which >= SETTLE_BSWAP_NIMPL)
		return 0;
	return (features & need) == need;
}

int settle_bswap_runs_on(enum settle_bswap_impl which,
			 const struct settle_cpuid *id)
{
	return runs_with(which, settle_cpu_features_of(id));
}

enum settle_bswap_impl settle_bswap_choose(const struct settle_cpuid *id)
{
	static const enum settle_bswap_impl best_first[] = {
		SETTLE_BSWAP_AVX512, SETTLE_BSWAP_AVX2, SETTLE_BSWAP_SSSE3,
	};
	uint64_t f = settle_cpu_features_of(id);

	for (size_t i = 0; i < sizeof(best_first) / sizeof(best_first[0]); i++)
		if (runs_with(best_first[i], f))
			return best_first[i];
	return SETTLE_BSWAP_SCALAR;
}

settle_bswap_fn settle_arch_bswap_kernel(enum settle_bswap_impl which,
					 unsigned elem_bits)
{
	/* [impl][0, 1, 2] for 16, 32, 64-bit elements */
	static const settle_bswap_fn k[][3] = {
		[SETTLE_BSWAP_SSSE3] = { settle_bswap16_ssse3,
					 settle_bswap32_ssse3,
					 settle_bswap64_ssse3 },
		[SETTLE_BSWAP_AVX2] = { settle_bswap16_avx2,
					settle_bswap32_avx2,
					settle_bswap64_avx2 },
		[SETTLE_BSWAP_AVX512] = { settle_bswap16_avx512,
					  settle_bswap32_avx512,
					  settle_bswap64_avx512 },
	};
	unsigned b = elem_bits == 16 ? 0 : elem_bits == 32 ? 1 : 2;

	if ((unsigned)which >= sizeof(k) / sizeof(k[0]) ||
	    (elem_bits != 16 && elem_bits != 32 && elem_bits != 64))
		return NULL;
	return k[which][b];
}

settle_bswap_touch_fn settle_arch_bswap_touch_kernel(enum settle_bswap_impl which)
{
	switch (which) {
	case SETTLE_BSWAP_SSSE3:
		return settle_bswap_touch_ssse3;
	case SETTLE_BSWAP_AVX2:
		return settle_bswap_touch_avx2;
	case SETTLE_BSWAP_AVX512:
		return settle_bswap_touch_avx512;
	default:
		return NULL;
	}
}

#define L1_OSXSAVE (1u << 27)
#define L1_AVX (1u << 28)
#define L7_AVX2 (1u << 5)
#define L7_AVX512BW (1u << 30)
#define L7_AVX512VL (1u << 31)

static const char *bswap_reason(enum settle_bswap_impl which,
				const struct settle_cpuid *id)
{
	uint32_t b7 = id->max_leaf >= 7 ? id->l7_ebx : 0;
	int osxsave = id->max_leaf >= 1 && (id->l1_ecx & L1_OSXSAVE);

	switch (which) {
	case SETTLE_BSWAP_SSSE3:
		return "this CPU lacks SSSE3";
	case SETTLE_BSWAP_AVX2:
		if (!(id->l1_ecx & L1_AVX) || !(b7 & L7_AVX2))
			return "this CPU lacks AVX2";
		return "the OS does not enable AVX state (XCR0)";
	case SETTLE_BSWAP_AVX512:
		if (!(b7 & L7_AVX512BW))
			return "this CPU lacks AVX-512BW";
		if (!(b7 & L7_AVX512VL))
			return "this CPU lacks AVX-512VL";
		if (!osxsave || (id->xcr0 & 0xe6) != 0xe6)
			return "the OS does not enable AVX-512 state (XCR0)";
		if (!(id->l1_ecx & L1_AVX) || !(b7 & L7_AVX2))
			return "this CPU lacks AVX2";
		return "this CPU lacks AVX-512F";
	default:
		return "this CPU cannot run it";
	}
}

void settle_arch_bswap_refusal(enum settle_bswap_impl which,
			       const struct settle_cpuid *id, char *buf,
			       size_t len)
{
	snprintf(buf, len, "%s", bswap_reason(which, id));
}
