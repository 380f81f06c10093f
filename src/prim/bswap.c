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
 * atomic release stores. Later calls jump straight to the kernel. The
 * decision is taken under a mutex, once: threads racing through the first
 * call wait for it. A forced implementation this CPU cannot run, or an
 * unknown name, is ignored (the automatic choice is used) and reported by
 * settle_bswap_env_refusal(); the library never exits.
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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "prim/bswap_kernels.h"
#include "prim/dispatch.h"
#include "settle_byteorder.h"
#include "util/env_value.h"

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
		/* large copies go to the SSSE3 kernel (bswap_avx2.c) */
		return FEAT(SETTLE_CPU_AVX) | FEAT(SETTLE_CPU_AVX2) |
		       FEAT(SETTLE_CPU_SSSE3);
	case SETTLE_BSWAP_AVX512:
		return FEAT(SETTLE_CPU_AVX512F) | FEAT(SETTLE_CPU_AVX512BW) |
		       FEAT(SETTLE_CPU_AVX512VL) | FEAT(SETTLE_CPU_SSSE3);
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
static const char *why_not(enum settle_bswap_impl which,
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

/* ---- dispatch ----------------------------------------------------------- */

static void resolve16(void *dst, const void *src, size_t n);
static void resolve32(void *dst, const void *src, size_t n);
static void resolve64(void *dst, const void *src, size_t n);

/*
 * The decision, made once under decide_lock: the kernels and refusal are
 * written before active is published (release), and refusal is read only
 * after active is seen (acquire), so every thread sees one decision.
 */
static settle_bswap_fn ptr16 = resolve16;
static settle_bswap_fn ptr32 = resolve32;
static settle_bswap_fn ptr64 = resolve64;
static int active = -1; /* enum settle_bswap_impl once decided */
static pthread_mutex_t decide_lock = PTHREAD_MUTEX_INITIALIZER;
static char refusal[160]; /* why SETTLE_BSWAP was ignored, or "" */

/*
 * The implementation named by env, or -1 when it is unknown or id cannot
 * run it (then refusal says why).
 */
static int forced(const char *env, const struct settle_cpuid *id)
{
	char value[68];

	settle_env_value(value, sizeof(value), env);
	for (int w = 0; w < SETTLE_BSWAP_NIMPL; w++) {
		if (strcmp(env, impl_names[w]) != 0)
			continue;
		if (settle_bswap_runs_on(w, id))
			return w;
		snprintf(refusal, sizeof(refusal), "SETTLE_BSWAP=%s refused: "
			 "%s", value, why_not(w, id));
		return -1;
	}
	snprintf(refusal, sizeof(refusal), "SETTLE_BSWAP=%s refused: unknown "
		 "implementation (scalar, ssse3, avx2 or avx512)", value);
	return -1;
}

static int decide(void)
{
	struct settle_cpuid id;
	const char *env;
	int a;

	settle_cpuid_read(&id);
	env = getenv("SETTLE_BSWAP");
	a = env && *env ? forced(env, &id) : -1;
	if (a < 0)
		a = settle_bswap_choose(&id);
	return a;
}

enum settle_bswap_impl settle_bswap_active(void)
{
	int a = __atomic_load_n(&active, __ATOMIC_ACQUIRE);

	if (a >= 0)
		return a;
	pthread_mutex_lock(&decide_lock);
	a = __atomic_load_n(&active, __ATOMIC_ACQUIRE);
	if (a < 0) {
		a = decide();
		__atomic_store_n(&ptr16, kernels[a][0], __ATOMIC_RELEASE);
		__atomic_store_n(&ptr32, kernels[a][1], __ATOMIC_RELEASE);
		__atomic_store_n(&ptr64, kernels[a][2], __ATOMIC_RELEASE);
		__atomic_store_n(&active, a, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&decide_lock);
	return a;
}

const char *settle_bswap_env_refusal(void)
{
	settle_bswap_active();
	return refusal[0] ? refusal : NULL;
}

void settle_bswap_forget(void)
{
	pthread_mutex_lock(&decide_lock);
	refusal[0] = '\0';
	__atomic_store_n(&active, -1, __ATOMIC_RELEASE);
	__atomic_store_n(&ptr16, resolve16, __ATOMIC_RELEASE);
	__atomic_store_n(&ptr32, resolve32, __ATOMIC_RELEASE);
	__atomic_store_n(&ptr64, resolve64, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&decide_lock);
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
