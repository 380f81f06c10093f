/*
 * describe.c - AArch64: the CPU's identity from its Main ID Register,
 * MIDR_EL1 (Arm Architecture Reference Manual for A-profile, "MIDR_EL1,
 * Main ID Register": implementer [31:24], variant [23:20], architecture
 * [19:16], part number [15:4], revision [3:0]). There is no "model name"
 * line in /proc/cpuinfo on AArch64, so the register is read, first from
 * sysfs (/sys/devices/system/cpu/cpu0/regs/identification/midr_el1), then
 * from the "CPU implementer/variant/part/revision" lines of /proc/cpuinfo,
 * then with MRS, which Linux emulates for user space when HWCAP_CPUID is
 * set (Documentation/arch/arm64/cpu-feature-registers.rst). Under
 * emulation sysfs and /proc/cpuinfo are the host's, so only MRS is asked.
 * Names of implementers and parts: the Arm technical reference manuals and
 * Linux arch/arm64/include/asm/cputype.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"

static const struct {
	unsigned code;
	const char *name;
} implementers[] = {
	{ 0x00, "software" }, /* reserved for software use (qemu's "max") */
	{ 0x41, "Arm" }, { 0x42, "Broadcom" }, { 0x43, "Cavium" },
	{ 0x46, "Fujitsu" }, { 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" },
	{ 0x50, "APM" }, { 0x51, "Qualcomm" }, { 0x53, "Samsung" },
	{ 0x61, "Apple" }, { 0x6d, "Microsoft" }, { 0xc0, "Ampere" },
};

static const struct {
	unsigned implementer, part;
	const char *name;
} parts[] = {
	{ 0x41, 0xd03, "Cortex-A53" }, { 0x41, 0xd04, "Cortex-A35" },
	{ 0x41, 0xd05, "Cortex-A55" }, { 0x41, 0xd07, "Cortex-A57" },
	{ 0x41, 0xd08, "Cortex-A72" }, { 0x41, 0xd09, "Cortex-A73" },
	{ 0x41, 0xd0a, "Cortex-A75" }, { 0x41, 0xd0b, "Cortex-A76" },
	{ 0x41, 0xd0c, "Neoverse-N1" }, { 0x41, 0xd0d, "Cortex-A77" },
	{ 0x41, 0xd40, "Neoverse-V1" }, { 0x41, 0xd41, "Cortex-A78" },
	{ 0x41, 0xd44, "Cortex-X1" }, { 0x41, 0xd46, "Cortex-A510" },
	{ 0x41, 0xd47, "Cortex-A710" }, { 0x41, 0xd48, "Cortex-X2" },
	{ 0x41, 0xd49, "Neoverse-N2" }, { 0x41, 0xd4a, "Neoverse-E1" },
	{ 0x41, 0xd4b, "Cortex-A78C" }, { 0x41, 0xd4d, "Cortex-A715" },
	{ 0x41, 0xd4e, "Cortex-X3" }, { 0x41, 0xd4f, "Neoverse-V2" },
	{ 0x41, 0xd80, "Cortex-A520" }, { 0x41, 0xd81, "Cortex-A720" },
	{ 0x41, 0xd82, "Cortex-X4" }, { 0x41, 0xd84, "Neoverse-V3" },
	{ 0x41, 0xd8e, "Neoverse-N3" },
	{ 0x43, 0x0af, "ThunderX2" }, { 0x46, 0x001, "A64FX" },
	{ 0x48, 0xd01, "TSV110 (Kunpeng 920)" }, { 0x4e, 0x004, "Carmel" },
	{ 0xc0, 0xac3, "Ampere-1" }, { 0xc0, 0xac4, "Ampere-1A" },
};

static const char *implementer_name(unsigned code)
{
	for (size_t i = 0; i < sizeof(implementers) / sizeof(implementers[0]); i++)
		if (implementers[i].code == code)
			return implementers[i].name;
	return NULL;
}

static const char *part_name(unsigned implementer, unsigned part)
{
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].implementer == implementer && parts[i].part == part)
			return parts[i].name;
	return NULL;
}

/* MIDR_EL1 from sysfs, or 0. */
static uint64_t midr_sysfs(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/"
			"midr_el1", "r");
	unsigned long long v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%llx", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* MIDR_EL1 put together from the first CPU of /proc/cpuinfo, or 0. */
static uint64_t midr_cpuinfo(void)
{
	static const struct {
		const char *key;
		unsigned shift;
	} fields[] = {
		{ "CPU implementer", 24 }, { "CPU variant", 20 },
		{ "CPU architecture", 16 }, { "CPU part", 4 },
		{ "CPU revision", 0 },
	};
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	uint64_t v = 0;
	unsigned seen = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && seen != 0x1f) {
		const char *colon = strchr(line, ':');

		for (unsigned i = 0; colon && i < 5; i++) {
			unsigned long x;

			if (strncmp(line, fields[i].key, strlen(fields[i].key)) ||
			    (seen >> i) & 1)
				continue;
			x = strtoul(colon + 1, NULL, 0);
			if (fields[i].shift == 16)
				x = 0xf; /* "8" there; MIDR says 0xf (CPUID) */
			v |= (uint64_t)x << fields[i].shift;
			seen |= 1u << i;
		}
	}
	fclose(f);
	return (seen & 0x9) == 0x9 ? v : 0; /* implementer and part needed */
}

/* MIDR_EL1 with MRS (emulated by Linux for EL0 when HWCAP_CPUID), or 0. */
static uint64_t midr_mrs(void)
{
	uint64_t v = 0;

	if (settle_cpu_has(SETTLE_CPU_CPUID))
		__asm__ __volatile__("mrs %0, midr_el1" : "=r"(v));
	return v;
}

static void hypervisor(struct settle_machine *m)
{
	FILE *f = fopen("/sys/hypervisor/type", "r");

	if (!f)
		return;
	if (fgets(m->hypervisor_vendor, sizeof(m->hypervisor_vendor), f)) {
		m->hypervisor_vendor[strcspn(m->hypervisor_vendor, "\n")] = 0;
		m->hypervisor = m->hypervisor_vendor[0] != '\0';
	}
	fclose(f);
}

void settle_arch_describe_cpu(struct settle_machine *m)
{
	uint64_t midr = 0;
	unsigned impl, part, variant, rev;
	const char *iname, *pname;

	if (!m->emulator[0]) {
		midr = midr_sysfs();
		if (!midr)
			midr = midr_cpuinfo();
		hypervisor(m);
	}
	if (!midr)
		midr = midr_mrs();
	if (!midr)
		return;
	impl = (midr >> 24) & 0xff;
	variant = (midr >> 20) & 0xf;
	part = (midr >> 4) & 0xfff;
	rev = midr & 0xf;
	iname = implementer_name(impl);
	pname = part_name(impl, part);
	if (iname)
		snprintf(m->vendor, sizeof(m->vendor), "%s", iname);
	else
		snprintf(m->vendor, sizeof(m->vendor), "0x%02x", impl);
	if (pname)
		snprintf(m->model_name, sizeof(m->model_name), "%s %s r%up%u",
			 m->vendor, pname, variant, rev);
	else
		snprintf(m->model_name, sizeof(m->model_name),
			 "%s part 0x%03x r%up%u", m->vendor, part, variant, rev);
	m->family = impl;
	m->model = part;
	m->stepping = rev;
}
