/*
 * bswap_nt.c - when the byte-swap kernels switch to non-temporal stores
 * (see bswap_kernels.h): the threshold and a count of the calls that used
 * them. A file of its own, so that the kernels call no function of the
 * dispatcher that calls them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prim/bswap_kernels.h"

/* ---- the non-temporal threshold ----------------------------------------- */

#define NT_FALLBACK_BYTES (32ull << 20)

/* Size in bytes of "12345K"-style sysfs text; 0 if it is not one. */
static uint64_t sysfs_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s)
		return 0;
	switch (*end) {
	case 'K':
		return v << 10;
	case 'M':
		return v << 20;
	case 'G':
		return v << 30;
	default:
		return v;
	}
}

/* Read one line of a small text file into buf; 0 on success. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	return ok ? 0 : -1;
}

/*
 * Size of the highest-level data or unified cache of CPU 0 as the kernel
 * reports it (sysfs), or 0. The kernel reads the cache topology leaf
 * (CPUID 0x8000001D on AMD, 4 on Intel); glibc 2.36's sysconf reads a
 * legacy leaf instead, which on an AMD EPYC KVM guest gave 320 MiB where
 * the kernel gave the 32 MiB a core actually shares, so sysfs comes
 * first.
 */
static uint64_t sysfs_llc_bytes(void)
{
	const char *base = "/sys/devices/system/cpu/cpu0/cache/index";
	uint64_t best = 0;
	long best_level = 0;
	char path[96], buf[64];

	for (int i = 0; i < 16; i++) {
		long level;
		uint64_t size;

		snprintf(path, sizeof(path), "%s%d/type", base, i);
		if (read_line(path, buf, sizeof(buf)) != 0)
			break;
		if (strncmp(buf, "Instruction", 11) == 0)
			continue;
		snprintf(path, sizeof(path), "%s%d/level", base, i);
		if (read_line(path, buf, sizeof(buf)) != 0)
			continue;
		level = strtol(buf, NULL, 10);
		snprintf(path, sizeof(path), "%s%d/size", base, i);
		if (read_line(path, buf, sizeof(buf)) != 0)
			continue;
		size = sysfs_size(buf);
		if (size && level >= best_level) {
			best_level = level;
			best = size;
		}
	}
	return best;
}

static size_t llc_bytes(void)
{
	uint64_t b = sysfs_llc_bytes();
	long s;

	if (b)
		return b > SIZE_MAX ? SIZE_MAX : (size_t)b;
	s = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (s > 0)
		return (size_t)s;
	return NT_FALLBACK_BYTES;
}

static size_t nt_bytes; /* 0 until decided */
static uint64_t nt_calls;

size_t settle_bswap_nt_bytes(void)
{
	size_t b = __atomic_load_n(&nt_bytes, __ATOMIC_RELAXED);

	if (b)
		return b;
	b = llc_bytes();
	__atomic_store_n(&nt_bytes, b, __ATOMIC_RELAXED);
	return b;
}

uint64_t settle_bswap_nt_calls(void)
{
	return __atomic_load_n(&nt_calls, __ATOMIC_RELAXED);
}

void settle_bswap_nt_note(void)
{
	__atomic_fetch_add(&nt_calls, 1, __ATOMIC_RELAXED);
}
