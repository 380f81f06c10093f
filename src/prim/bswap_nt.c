/*
 * bswap_nt.c - when the byte-swap kernels switch to non-temporal stores
 * and which loop copies at which size (see bswap_kernels.h): the
 * threshold, the copy rule, and a count of the calls that used
 * non-temporal stores. A file of its own, so that the kernels call no
 * function of the dispatcher that calls them.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "prim/bswap_kernels.h"
#include "prim/size.h"

/* ---- which loop copies at which size ----------------------------------- */

/* num/den of the L1d (SETTLE_BSWAP_L1D_DEFAULT's when l1d is 0 or no real
 * L1d size: a hypervisor's report may be wrong), rounded down to 64
 * bytes, never below SETTLE_BSWAP_NARROW_COPY_MIN. */
static size_t l1d_share(uint64_t l1d, unsigned num, unsigned den)
{
	size_t b;

	if (l1d < SETTLE_BSWAP_L1D_MIN || l1d > SETTLE_BSWAP_L1D_MAX)
		l1d = SETTLE_BSWAP_L1D_DEFAULT;
	b = (size_t)(l1d / den * num) & ~(size_t)63;
	return b < SETTLE_BSWAP_NARROW_COPY_MIN ? SETTLE_BSWAP_NARROW_COPY_MIN :
						  b;
}

size_t settle_bswap_narrow_copy_decide(uint64_t l1d)
{
	return l1d_share(l1d, 3, 4);
}

struct settle_bswap_copy_rule settle_bswap_copy_rule_decide(uint64_t l1d,
							    size_t nt_bytes,
							    int amd_19h,
							    int intel)
{
	struct settle_bswap_copy_rule r;

	r.nt_interleave = intel && !amd_19h;
	if (amd_19h) {
		r.zmm_end = settle_bswap_narrow_copy_decide(l1d);
		r.narrow_from = r.zmm_end;
		r.backward = 1;
		r.ymm_inplace_to = l1d_share(l1d, 1, 1);
		return r;
	}
	r.ymm_inplace_to = 0;
	r.zmm_end = l1d_share(l1d, 9, 16);
	r.narrow_from = nt_bytes < SIZE_MAX ? nt_bytes + 1 : SIZE_MAX;
	if (r.narrow_from < SETTLE_BSWAP_NT_MIN_BYTES)
		r.narrow_from = SETTLE_BSWAP_NT_MIN_BYTES;
	r.backward = 0;
	return r;
}

/* Is this CPU AMD family 19h? (never off x86-64) */
static int this_amd_19h(void)
{
#if SETTLE_ARCH_X86_64
	return settle_cpu_amd_19h(settle_cpuid_this());
#else
	return 0;
#endif
}

/* Is this CPU an Intel one? (never off x86-64) */
static int this_intel(void)
{
#if SETTLE_ARCH_X86_64
	return settle_cpu_intel(settle_cpuid_this());
#else
	return 0;
#endif
}

static struct settle_bswap_copy_rule this_rule;
/* NULL: undecided */
const struct settle_bswap_copy_rule *settle_bswap_copy_rule_ptr;

/* Decided once under its own lock; threads racing through the first call
 * wait, and every one returns the same pointer. */
static pthread_mutex_t rule_lock = PTHREAD_MUTEX_INITIALIZER;

const struct settle_bswap_copy_rule *settle_bswap_copy_rule_decided(void)
{
	const struct settle_bswap_copy_rule *r;
	long l1d;

	pthread_mutex_lock(&rule_lock);
	r = __atomic_load_n(&settle_bswap_copy_rule_ptr, __ATOMIC_ACQUIRE);
	if (!r) {
		l1d = sysconf(_SC_LEVEL1_DCACHE_SIZE);
		this_rule = settle_bswap_copy_rule_decide(
			l1d > 0 ? (uint64_t)l1d : 0, settle_bswap_nt_bytes(),
			this_amd_19h(), this_intel());
		r = &this_rule;
		__atomic_store_n(&settle_bswap_copy_rule_ptr, r,
				 __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&rule_lock);
	return r;
}

void settle_bswap_set_copy_rule(const struct settle_bswap_copy_rule *r)
{
	/* NULL: this machine's, decided again at the next call */
	pthread_mutex_lock(&rule_lock);
	__atomic_store_n(&settle_bswap_copy_rule_ptr, r, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&rule_lock);
}

/* ---- the non-temporal threshold ----------------------------------------- */

/*
 * NT_CAP_BYTES (NT_CAP_INTEL_BYTES on Intel): the threshold is never
 * above this, whatever cache size the machine reports, because a
 * hypervisor may report a cache the guest does not have to itself (480 MiB
 * on the Intel family 6 model 167 guest of docs/founding-experiments.md,
 * 320 MiB from a legacy cpuid leaf on the AMD EPYC guest), and a guest
 * shares the cache it has with other tenants. Measured on the AMD
 * EPYC Zen 4 guest (32 MiB L3 reported by sysfs) with `settle run bswap
 * --variant avx2 --variant avx512 --variant memcpy --processes 3` and
 * SETTLE_BSWAP_NT_BYTES=64K (always) or 64G (never), as the fraction of
 * memcpy's speed in the same run (AVX2, 32-bit copies): 8 MiB 0.89
 * non-temporal against 1.06 ordinary; 10 MiB 1.10 against 1.04; 12 MiB
 * 1.41 against 1.00; 16 MiB 1.38 against 1.05; 32 MiB 1.34 against 1.03;
 * 64 MiB 1.43 against 0.99 (README, "Performance"). So the switch lies
 * between 8 and 10 MiB there, a quarter of the reported cache: a copy
 * touches twice its size. On the Intel guests non-temporal stores were
 * faster at 256 MiB (0.63 of memcpy with ordinary stores, 480 MiB
 * reported: README, "Performance") and at 1 GiB (10.5 against 6.7 B/ns:
 * docs/founding-experiments.md).
 *
 * NT_CAP_INTEL_BYTES: where they start to win on the Intel family 6 model
 * 167 guest (48 KiB L1d, 2 MiB L2, 480 MiB L3 reported; 2026-12-03,
 * settle run bswap --variant avx512 --variant memcpy, 3 processes, 2
 * layouts, SETTLE_BSWAP_NT_BYTES=64K or 64G; 32-bit copies, fraction of
 * memcpy's speed, non-temporal against ordinary): 4 MiB 0.92 against
 * 1.01; 16 MiB 0.77 against 0.99; 24 MiB 0.79 against 1.00; 32 MiB 0.81
 * against 0.95; 48 MiB 1.16 against 1.01; 64 MiB 1.26 against 0.97;
 * 256 MiB 0.84 against 0.60; 1 GiB 0.89 against 0.59 (B/ns with
 * ordinary stores: 14.4 at 4 MiB, 11.4 at 32 MiB, 9.0 at 48 MiB, 6.6 at
 * 64 MiB). So the switch lies between 32 and 48 MiB there, and the
 * 8 MiB cap made 16 MiB copies 1.3x slower than ordinary stores.
 */
#define NT_CAP_BYTES (8ull << 20)
#define NT_CAP_INTEL_BYTES (32ull << 20)

uint64_t settle_bswap_nt_cap(int intel)
{
	return intel ? NT_CAP_INTEL_BYTES : NT_CAP_BYTES;
}

/* The bytes of s, a size as settle run --size takes it (settle_parse_size());
 * 0 if s is not a positive size or it does not fit in size_t. */
static uint64_t parse_size(const char *s)
{
	uint64_t v;

	if (settle_parse_size(s, &v) != 0 || v > SIZE_MAX)
		return 0;
	return v;
}

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

/* The last-level cache size as the system reports it (sysfs, then
 * sysconf), or 0 when neither knows. */
static uint64_t reported_llc_bytes(void)
{
	uint64_t b = sysfs_llc_bytes();
	long s;

	if (b)
		return b;
	s = sysconf(_SC_LEVEL3_CACHE_SIZE);
	return s > 0 ? (uint64_t)s : 0;
}

size_t settle_bswap_nt_decide(const char *env, uint64_t llc, uint64_t cap,
			      const char **source)
{
	const char *why;
	uint64_t b;

	if (env && *env) {
		b = parse_size(env);
		if (b) {
			if (source)
				*source = "SETTLE_BSWAP_NT_BYTES";
			return (size_t)b;
		}
	}
	if (llc && llc <= cap) {
		b = llc;
		why = "last-level cache";
	} else {
		b = cap;
		why = llc ? "cap (the reported last-level cache is larger)" :
			    "cap (no last-level cache size reported)";
	}
	if (source)
		*source = env && *env ? "SETTLE_BSWAP_NT_BYTES ignored (not a "
					"positive size below 2^64 bytes)" : why;
	return (size_t)(b > SIZE_MAX ? SIZE_MAX : b);
}

static size_t nt_bytes; /* 0 until decided */
static const char *nt_source;
static uint64_t nt_calls;

size_t settle_bswap_nt_bytes(void)
{
	size_t b = __atomic_load_n(&nt_bytes, __ATOMIC_ACQUIRE);
	const char *why;

	if (b)
		return b;
	b = settle_bswap_nt_decide(getenv("SETTLE_BSWAP_NT_BYTES"),
				   reported_llc_bytes(),
				   settle_bswap_nt_cap(this_intel()), &why);
	__atomic_store_n(&nt_source, why, __ATOMIC_RELAXED);
	__atomic_store_n(&nt_bytes, b, __ATOMIC_RELEASE);
	return b;
}

const char *settle_bswap_nt_source(void)
{
	settle_bswap_nt_bytes();
	return __atomic_load_n(&nt_source, __ATOMIC_RELAXED);
}

uint64_t settle_bswap_nt_calls(void)
{
	return __atomic_load_n(&nt_calls, __ATOMIC_RELAXED);
}

void settle_bswap_nt_note(void)
{
	__atomic_fetch_add(&nt_calls, 1, __ATOMIC_RELAXED);
}
