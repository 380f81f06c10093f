/*
 * bswap.c - bulk byte swap of 16/32/64-bit element arrays, dispatched once
 * at run time to the best implementation this CPU and OS support
 * (include/settle_byteorder.h), and the portable scalar implementation.
 *
 * Dispatch: settle_bswap16/32/64 call through function pointers whose
 * initial values are resolvers. The first call of any of them runs
 * settle_bswap_active(), which reads the CPU's identification words
 * (src/arch/<arch>: cpuid and XCR0 on x86-64, the hardware capabilities
 * on AArch64), picks an implementation with settle_bswap_choose() or takes
 * the one forced by the environment variable SETTLE_BSWAP, and stores all
 * three kernels in the pointers with atomic release stores. Later calls
 * jump straight to the kernel. Threads racing through the first call all
 * compute and store the same choice. What each implementation needs is
 * the architecture's (src/arch/<arch>/dispatch.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "prim/bswap_kernels.h"
#include "prim/dispatch.h"
#include "settle_byteorder.h"

/* ---- scalar -------------------------------------------------------------- */

void settle_bswap16_scalar(void *dst, const void *src, size_t n)
{
	settle_bswap_elems(dst, src, n * 2, 2);
}

void settle_bswap32_scalar(void *dst, const void *src, size_t n)
{
	settle_bswap_elems(dst, src, n * 4, 4);
}

void settle_bswap64_scalar(void *dst, const void *src, size_t n)
{
	settle_bswap_elems(dst, src, n * 8, 8);
}

/* ---- names and kernels -------------------------------------------------- */

static const char *const impl_names[SETTLE_BSWAP_NIMPL] = {
	[SETTLE_BSWAP_SCALAR] = "scalar",
	[SETTLE_BSWAP_SSSE3] = "ssse3",
	[SETTLE_BSWAP_AVX2] = "avx2",
	[SETTLE_BSWAP_AVX512] = "avx512",
	[SETTLE_BSWAP_NEON] = "neon",
};

/* The architecture each implementation belongs to (NULL: portable). */
static const char *const impl_home[SETTLE_BSWAP_NIMPL] = {
	[SETTLE_BSWAP_SSSE3] = "x86-64",
	[SETTLE_BSWAP_AVX2] = "x86-64",
	[SETTLE_BSWAP_AVX512] = "x86-64",
	[SETTLE_BSWAP_NEON] = "AArch64",
};

const char *settle_bswap_impl_name(enum settle_bswap_impl which)
{
	if ((unsigned)which >= SETTLE_BSWAP_NIMPL)
		return "?";
	return impl_names[which];
}

settle_bswap_fn settle_bswap_impl_fn(enum settle_bswap_impl which,
				     unsigned elem_bits)
{
	if ((unsigned)which >= SETTLE_BSWAP_NIMPL)
		return NULL;
	if (which != SETTLE_BSWAP_SCALAR)
		return settle_arch_bswap_kernel(which, elem_bits);
	switch (elem_bits) {
	case 16:
		return settle_bswap16_scalar;
	case 32:
		return settle_bswap32_scalar;
	case 64:
		return settle_bswap64_scalar;
	default:
		return NULL;
	}
}

int settle_bswap_usable(enum settle_bswap_impl which)
{
	if (!settle_bswap_impl_fn(which, 32))
		return 0;
	return settle_bswap_runs_on(which, settle_cpuid_this());
}

/* ---- forcing with SETTLE_BSWAP ------------------------------------------ */

/* "scalar, ssse3, avx2 or avx512": the implementations of this build. */
static void list_names(char *buf, size_t len)
{
	int n = 0, k = 0;
	size_t used = 0;

	for (int w = 0; w < SETTLE_BSWAP_NIMPL; w++)
		n += settle_bswap_impl_fn(w, 32) != NULL;
	buf[0] = '\0';
	for (int w = 0; w < SETTLE_BSWAP_NIMPL && used < len; w++) {
		if (!settle_bswap_impl_fn(w, 32))
			continue;
		k++;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 k == 1 ? "" : k == n ? " or " : ", ",
					 impl_names[w]);
	}
}

/* The implementation named by env; refuses (exit 2) an unknown name or
 * one that id cannot run. */
static enum settle_bswap_impl forced(const char *env,
				     const struct settle_cpuid *id)
{
	char why[160];

	for (int w = 0; w < SETTLE_BSWAP_NIMPL; w++) {
		if (strcmp(env, impl_names[w]) != 0)
			continue;
		if (!settle_bswap_impl_fn(w, 32))
			snprintf(why, sizeof(why), "%s only, this build is "
				 "for %s", impl_home[w], SETTLE_ARCH_NAME);
		else if (settle_bswap_runs_on(w, id))
			return w;
		else
			settle_arch_bswap_refusal(w, id, why, sizeof(why));
		fprintf(stderr, "settle: SETTLE_BSWAP=%s refused: %s\n", env,
			why);
		exit(2);
	}
	list_names(why, sizeof(why));
	fprintf(stderr, "settle: SETTLE_BSWAP=%s refused: unknown "
		"implementation (%s)\n", env, why);
	exit(2);
}

/* ---- dispatch ----------------------------------------------------------- */

static void resolve16(void *dst, const void *src, size_t n);
static void resolve32(void *dst, const void *src, size_t n);
static void resolve64(void *dst, const void *src, size_t n);

static settle_bswap_fn ptr16 = resolve16;
static settle_bswap_fn ptr32 = resolve32;
static settle_bswap_fn ptr64 = resolve64;
static int active = -1; /* enum settle_bswap_impl once decided */

enum settle_bswap_impl settle_bswap_active(void)
{
	int a = __atomic_load_n(&active, __ATOMIC_ACQUIRE);
	struct settle_cpuid id;
	const char *env;

	if (a >= 0)
		return a;
	settle_cpuid_read(&id);
	env = getenv("SETTLE_BSWAP");
	a = env && *env ? forced(env, &id) : settle_bswap_choose(&id);
	__atomic_store_n(&ptr16, settle_bswap_impl_fn(a, 16), __ATOMIC_RELEASE);
	__atomic_store_n(&ptr32, settle_bswap_impl_fn(a, 32), __ATOMIC_RELEASE);
	__atomic_store_n(&ptr64, settle_bswap_impl_fn(a, 64), __ATOMIC_RELEASE);
	__atomic_store_n(&active, a, __ATOMIC_RELEASE);
	return a;
}

void settle_bswap_forget(void)
{
	__atomic_store_n(&active, -1, __ATOMIC_RELEASE);
	__atomic_store_n(&ptr16, resolve16, __ATOMIC_RELEASE);
	__atomic_store_n(&ptr32, resolve32, __ATOMIC_RELEASE);
	__atomic_store_n(&ptr64, resolve64, __ATOMIC_RELEASE);
}

static void resolve16(void *dst, const void *src, size_t n)
{
	settle_bswap_impl_fn(settle_bswap_active(), 16)(dst, src, n);
}

static void resolve32(void *dst, const void *src, size_t n)
{
	settle_bswap_impl_fn(settle_bswap_active(), 32)(dst, src, n);
}

static void resolve64(void *dst, const void *src, size_t n)
{
	settle_bswap_impl_fn(settle_bswap_active(), 64)(dst, src, n);
}

void settle_bswap16(void *dst, const void *src, size_t n)
{
	__atomic_load_n(&ptr16, __ATOMIC_ACQUIRE)(dst, src, n);
}

void settle_bswap32(void *dst, const void *src, size_t n)
{
	__atomic_load_n(&ptr32, __ATOMIC_ACQUIRE)(dst, src, n);
}

void settle_bswap64(void *dst, const void *src, size_t n)
{
	__atomic_load_n(&ptr64, __ATOMIC_ACQUIRE)(dst, src, n);
}

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
