/*
 * cpu.c - AArch64: the hardware capabilities of the auxiliary vector
 * (getauxval(3) AT_HWCAP, AT_HWCAP2) and the features they name (see
 * arch.h and src/arch/interface.h).
 */
#include <sys/auxv.h>

#include "cpu/cpu.h"

void settle_cpuid_read(struct settle_cpuid *id)
{
	id->hwcap = getauxval(AT_HWCAP);
	id->hwcap2 = getauxval(AT_HWCAP2);
}

/* Each feature's word (0: AT_HWCAP, 1: AT_HWCAP2), bit and name. */
static const struct {
	unsigned word;
	uint64_t bit;
	const char *name;
} table[SETTLE_CPU_NFEATURES] = {
	[SETTLE_CPU_FP] = { 0, SETTLE_HWCAP_FP, "fp" },
	[SETTLE_CPU_ASIMD] = { 0, SETTLE_HWCAP_ASIMD, "asimd" },
	[SETTLE_CPU_AES] = { 0, SETTLE_HWCAP_AES, "aes" },
	[SETTLE_CPU_PMULL] = { 0, SETTLE_HWCAP_PMULL, "pmull" },
	[SETTLE_CPU_SHA1] = { 0, SETTLE_HWCAP_SHA1, "sha1" },
	[SETTLE_CPU_SHA2] = { 0, SETTLE_HWCAP_SHA2, "sha2" },
	[SETTLE_CPU_CRC32] = { 0, SETTLE_HWCAP_CRC32, "crc32" },
	[SETTLE_CPU_ATOMICS] = { 0, SETTLE_HWCAP_ATOMICS, "atomics" },
	[SETTLE_CPU_CPUID] = { 0, SETTLE_HWCAP_CPUID, "cpuid" },
	[SETTLE_CPU_ASIMDRDM] = { 0, SETTLE_HWCAP_ASIMDRDM, "asimdrdm" },
	[SETTLE_CPU_SHA3] = { 0, SETTLE_HWCAP_SHA3, "sha3" },
	[SETTLE_CPU_ASIMDDP] = { 0, SETTLE_HWCAP_ASIMDDP, "asimddp" },
	[SETTLE_CPU_SHA512] = { 0, SETTLE_HWCAP_SHA512, "sha512" },
	[SETTLE_CPU_SVE] = { 0, SETTLE_HWCAP_SVE, "sve" },
	[SETTLE_CPU_SVE2] = { 1, SETTLE_HWCAP2_SVE2, "sve2" },
	[SETTLE_CPU_SVEBITPERM] = { 1, SETTLE_HWCAP2_SVEBITPERM, "svebitperm" },
	[SETTLE_CPU_I8MM] = { 1, SETTLE_HWCAP2_I8MM, "i8mm" },
	[SETTLE_CPU_BF16] = { 1, SETTLE_HWCAP2_BF16, "bf16" },
};

uint64_t settle_cpu_features_of(const struct settle_cpuid *id)
{
	uint64_t f = 0;

	for (int i = 0; i < SETTLE_CPU_NFEATURES; i++) {
		uint64_t w = table[i].word ? id->hwcap2 : id->hwcap;

		if (w & table[i].bit)
			f |= 1ull << i;
	}
	return f;
}

const char *settle_cpu_feature_name(enum settle_cpu_feature f)
{
	return (unsigned)f < SETTLE_CPU_NFEATURES ? table[f].name : "?";
}
