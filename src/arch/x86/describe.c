/*
 * describe.c - x86-64: the CPU's identity from cpuid (vendor string of
 * leaf 0, family/model/stepping of leaf 1 with the extended fields, the
 * brand string of leaves 0x80000002-4, the hypervisor bit of leaf 1 ECX
 * and the signature of leaf 0x40000000; Intel SDM vol. 2A, CPUID).
 */
#include <string.h>

#include "cpu/cpu.h"
#include "util/util.h"

static void regs_to_str(char *dst, const uint32_t *regs, size_t nregs)
{
	memcpy(dst, regs, nregs * 4);
	dst[nregs * 4] = '\0';
}

void settle_arch_describe_cpu(struct settle_machine *m)
{
	uint32_t r[4], b[12], v[3];

	settle_cpuid_raw(0, 0, r);
	v[0] = r[1], v[1] = r[3], v[2] = r[2];
	regs_to_str(m->vendor, v, 3);
	settle_cpuid_raw(1, 0, r);
	m->stepping = r[0] & 0xf;
	m->model = (r[0] >> 4) & 0xf;
	m->family = (r[0] >> 8) & 0xf;
	if (m->family == 0xf)
		m->family += (r[0] >> 20) & 0xff;
	if (m->family >= 6)
		m->model |= ((r[0] >> 16) & 0xf) << 4;
	m->hypervisor = (r[2] >> 31) & 1;
	settle_cpuid_raw(0x80000000u, 0, r);
	if (r[0] >= 0x80000004u) {
		for (uint32_t i = 0; i < 3; i++)
			settle_cpuid_raw(0x80000002u + i, 0, b + 4 * i);
		regs_to_str(m->model_name, b, 12);
		settle_trim(m->model_name);
	}
	if (m->hypervisor) {
		settle_cpuid_raw(0x40000000u, 0, r);
		regs_to_str(m->hypervisor_vendor, r + 1, 3);
		settle_trim(m->hypervisor_vendor);
	}
}
