/*
 * bswap.c - bulk byte swap of 16/32/64-bit element arrays, dispatched once
 * at run time to the best implementation this CPU and OS support
 * (include/settle_byteorder.h), and the portable scalar implementation.
 *
 * Dispatch: settle_bswap16/32/64 call through function pointers whose
 * initial values are resolvers. The first call of any of them runs
 * settle_bswap_active(), which reads cpuid and XCR0 (src/cpu/cpu.c; xgetbv
 * only when OSXSAVE is set), picks an implementation with
 * settle_bswap_choose() or takes the one forced by the environment
 * variable SETTLE_BSWAP, and stores all three kernels in the pointers with
 * atomic release stores. Later calls jump straight to the kernel. Threads
 * racing through the first call all compute and store the same choice.
 *
 * What each implementation needs (Intel SDM vol. 2A, CPUID; vol. 1, 13.2
 * "Enumerating processor extended state support", 14.3 "Detection of
 * Intel AVX instructions", 15.2 "Detection of AVX-512 foundation
 * instructions"): SSSE3 (PSHUFB) needs CPUID.1:ECX bit 9 and no OS state
 * beyond SSE; AVX2 (VPSHUFB ymm) needs AVX and AVX2 with XCR0 enabling
 * SSE and AVX state; AVX-512 needs AVX512BW (VPSHUFB zmm, byte masks) with
 * XCR0 enabling opmask and ZMM state too, and AVX512VL, because its object
 * is compiled with -mavx512vl and may contain EVEX forms on XMM/YMM
 * registers (every CPU with AVX512BW so far has VL).
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

/* The in-place loop of the scalar kernel without the swap: 8-byte words
 * loaded and stored back, then the bytes left. */
void settle_bswap_touch_scalar(void *buf, size_t nb)
{
	unsigned char *p = buf;
	size_t i = 0;

	for (; nb - i >= 8; i += 8) {
		uint64_t v;

		memcpy(&v, p + i, 8);
		__asm__("" : "+r"(v));
		memcpy(p + i, &v, 8);
	}
	for (; i < nb; i++) {
		unsigned char v = p[i];

		__asm__("" : "+r"(v));
		p[i] = v;
	}
}

static const settle_bswap_touch_fn touch_kernels[SETTLE_BSWAP_NIMPL] = {
	[SETTLE_BSWAP_SCALAR] = settle_bswap_touch_scalar,
	[SETTLE_BSWAP_SSSE3] = settle_bswap_touch_ssse3,
	[SETTLE_BSWAP_AVX2] = settle_bswap_touch_avx2,
	[SETTLE_BSWAP_AVX512] = settle_bswap_touch_avx512,
};

settle_bswap_touch_fn settle_bswap_touch_impl_fn(enum settle_bswap_impl which)
{
	if ((unsigned)which >= SETTLE_BSWAP_NIMPL)
		return NULL;
	return touch_kernels[which];
}

/* ---- the choice --------------------------------------------------------- */

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
		return FEAT(SETTLE_CPU_AVX) | FEAT(SETTLE_CPU_AVX2);
	case SETTLE_BSWAP_AVX512:
		return FEAT(SETTLE_CPU_AVX512F) | FEAT(SETTLE_CPU_AVX512BW) |
		       FEAT(SETTLE_CPU_AVX512VL);
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
	uint64_t f = settle_cpu_features_of(id);
	int which;

	for (which = SETTLE_BSWAP_NIMPL - 1; which > 0; which--)
		if (runs_with(which, f))
			return which;
	return SETTLE_BSWAP_SCALAR;
}

int settle_bswap_usable(enum settle_bswap_impl which)
{
	return runs_with(which, settle_cpu_features());
}

/* ---- names and kernels -------------------------------------------------- */

static const char *const impl_names[SETTLE_BSWAP_NIMPL] = {
	[SETTLE_BSWAP_SCALAR] = "scalar",
	[SETTLE_BSWAP_SSSE3] = "ssse3",
	[SETTLE_BSWAP_AVX2] = "avx2",
	[SETTLE_BSWAP_AVX512] = "avx512",
};

/* kernels[impl][0, 1, 2] for 16, 32, 64-bit elements. */
static const settle_bswap_fn kernels[SETTLE_BSWAP_NIMPL][3] = {
	[SETTLE_BSWAP_SCALAR] = { settle_bswap16_scalar, settle_bswap32_scalar,
				  settle_bswap64_scalar },
	[SETTLE_BSWAP_SSSE3] = { settle_bswap16_ssse3, settle_bswap32_ssse3,
				 settle_bswap64_ssse3 },
	[SETTLE_BSWAP_AVX2] = { settle_bswap16_avx2, settle_bswap32_avx2,
				settle_bswap64_avx2 },
	[SETTLE_BSWAP_AVX512] = { settle_bswap16_avx512,
				  settle_bswap32_avx512,
				  settle_bswap64_avx512 },
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
	switch (elem_bits) {
	case 16:
		return kernels[which][0];
	case 32:
		return kernels[which][1];
	case 64:
		return kernels[which][2];
	default:
		return NULL;
	}
}

/* ---- forcing with SETTLE_BSWAP ------------------------------------------ */

#define L1_SSSE3 (1u << 9)
#define L1_OSXSAVE (1u << 27)
#define L1_AVX (1u << 28)
#define L7_AVX2 (1u << 5)
#define L7_AVX512BW (1u << 30)
#define L7_AVX512VL (1u << 31)

/* Why id cannot run which (which is known not to run there). */
static const char *refusal(enum settle_bswap_impl which,
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
		return "this CPU lacks AVX-512F";
	default:
		return "this CPU cannot run it";
	}
}

/* The implementation named by env; refuses (exit 2) an unknown name or
 * one that id cannot run. */
static enum settle_bswap_impl forced(const char *env,
				     const struct settle_cpuid *id)
{
	for (int w = 0; w < SETTLE_BSWAP_NIMPL; w++) {
		if (strcmp(env, impl_names[w]) != 0)
			continue;
		if (settle_bswap_runs_on(w, id))
			return w;
		fprintf(stderr, "settle: SETTLE_BSWAP=%s refused: %s\n", env,
			refusal(w, id));
		exit(2);
	}
	fprintf(stderr, "settle: SETTLE_BSWAP=%s refused: unknown "
		"implementation (scalar, ssse3, avx2 or avx512)\n", env);
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
	__atomic_store_n(&ptr16, kernels[a][0], __ATOMIC_RELEASE);
	__atomic_store_n(&ptr32, kernels[a][1], __ATOMIC_RELEASE);
	__atomic_store_n(&ptr64, kernels[a][2], __ATOMIC_RELEASE);
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
	kernels[settle_bswap_active()][0](dst, src, n);
}

static void resolve32(void *dst, const void *src, size_t n)
{
	kernels[settle_bswap_active()][1](dst, src, n);
}

static void resolve64(void *dst, const void *src, size_t n)
{
	kernels[settle_bswap_active()][2](dst, src, n);
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

/*
 * NT_CAP_BYTES: the threshold is never above this, whatever cache size the
 * machine reports, because a hypervisor may report a cache the guest does
 * not have to itself (480 MiB on the Intel family 6 model 167 guest of
 * DESIGN.md, 320 MiB from a legacy cpuid leaf on the AMD EPYC guest).
 * Measured with `settle run bswap` and SETTLE_BSWAP_NT_BYTES on the AMD
 * EPYC Zen 4 guest (32 MiB L3 per core complex; README, "Performance"):
 * see the comment at settle_bswap_nt_decide() in bswap_kernels.h for the
 * figures. On the Intel guests non-temporal stores were already faster at
 * 256 MiB (issue 11: 0.63 of memcpy with ordinary stores, 480 MiB
 * reported) and at 1 GiB (DESIGN.md: 10.5 against 6.7 B/ns).
 */
#define NT_CAP_BYTES (32ull << 20)

/* "123", "64K", "32M", "1G" (binary units) in bytes; 0 if s is not such a
 * positive size or it does not fit in size_t. */
static uint64_t parse_size(const char *s)
{
	unsigned shift = 0;
	uint64_t v = 0;

	if (!s || *s < '0' || *s > '9')
		return 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (*s == 'K')
		shift = 10;
	else if (*s == 'M')
		shift = 20;
	else if (*s == 'G')
		shift = 30;
	if (shift)
		s++;
	if (*s != '\0' || v == 0 || v > (SIZE_MAX >> shift))
		return 0;
	return v << shift;
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

size_t settle_bswap_nt_decide(const char *env, uint64_t llc,
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
	if (llc && llc <= NT_CAP_BYTES) {
		b = llc;
		why = "last-level cache";
	} else {
		b = NT_CAP_BYTES;
		why = llc ? "cap (the reported last-level cache is larger)" :
			    "cap (no last-level cache size reported)";
	}
	if (source)
		*source = env && *env ? "SETTLE_BSWAP_NT_BYTES ignored (not a "
					"positive size)" : why;
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
				   reported_llc_bytes(), &why);
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
