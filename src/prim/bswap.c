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
 * jump straight to the kernel. The decision is taken under a mutex, once,
 * with the copies' rule and non-temporal threshold (bswap_nt.c): threads
 * racing through the first call wait for it. A forced
 * implementation this CPU cannot run, one of another architecture, or an
 * unknown name, is ignored (the automatic choice is used) and reported by
 * settle_bswap_env_refusal(); the library never exits. What each
 * implementation needs is the architecture's
 * (src/arch/<arch>/dispatch_bswap.c).
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

/*
 * Each scalar kernel starts a 64-byte line, so that its loop (at most 22
 * bytes, from offset 16) lies in one line wherever the linker puts the
 * file: the same loop crossing a line boundary ran at 2.25 us per 32 KiB
 * instead of 1.43 (settle run bswap, 64-bit copy, AMD EPYC Zen 4 KVM
 * guest; docs/founding-experiments.md also notes a 2x effect of loop
 * placement on a byte-swap loop). This row is the claim's baseline.
 */
#define LINE_ALIGNED __attribute__((aligned(64)))

LINE_ALIGNED
void settle_bswap16_scalar(void *dst, const void *src, size_t n)
{
	settle_bswap_elems(dst, src, n * 2, 2);
}

LINE_ALIGNED
void settle_bswap32_scalar(void *dst, const void *src, size_t n)
{
	settle_bswap_elems(dst, src, n * 4, 4);
}

LINE_ALIGNED
void settle_bswap64_scalar(void *dst, const void *src, size_t n)
{
	settle_bswap_elems(dst, src, n * 8, 8);
}

/* The scalar kernel's loop without the swap, for elements of w bytes (a
 * constant once inlined): one load and one store per element, then the
 * bytes left. */
static inline __attribute__((always_inline)) void
touch_elems(unsigned char *d, const unsigned char *s, size_t nb, size_t w)
{
	size_t i = 0;

#ifdef __clang__
	_Pragma("clang loop vectorize(disable) interleave(disable)")
#endif
	for (; nb - i >= w; i += w) {
		uint64_t v = 0;

		memcpy(&v, s + i, w);
		__asm__("" : "+r"(v));
		memcpy(d + i, &v, w);
	}
	settle_bswap_touch_bytes(d + i, s + i, nb - i);
}

void settle_bswap_touch_scalar(void *dst, const void *src, size_t nb,
			       size_t esz)
{
	if (esz == 2)
		touch_elems(dst, src, nb, 2);
	else if (esz == 4)
		touch_elems(dst, src, nb, 4);
	else
		touch_elems(dst, src, nb, 8);
}

settle_bswap_touch_fn settle_bswap_touch_impl_fn(enum settle_bswap_impl which)
{
	if ((unsigned)which >= SETTLE_BSWAP_NIMPL)
		return NULL;
	if (which == SETTLE_BSWAP_SCALAR)
		return settle_bswap_touch_scalar;
	return settle_arch_bswap_touch_kernel(which);
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
static char refusal[320]; /* why SETTLE_BSWAP was ignored, or "" */

/*
 * The implementation named by env, or -1 when it is unknown, of another
 * architecture, or id cannot run it (then refusal says why).
 */
static int forced(const char *env, const struct settle_cpuid *id)
{
	char value[68], why[128];

	settle_env_value(value, sizeof(value), env);
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
		snprintf(refusal, sizeof(refusal), "SETTLE_BSWAP=%s refused: "
			 "%s", value, why);
		return -1;
	}
	list_names(why, sizeof(why));
	snprintf(refusal, sizeof(refusal), "SETTLE_BSWAP=%s refused: unknown "
		 "implementation (%s)", value, why);
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
		/* the copies' rule and threshold too, so that no later call
		 * takes a lock or reads sysfs (include/settle_byteorder.h) */
		(void)settle_bswap_copy_rule();
		__atomic_store_n(&ptr16, settle_bswap_impl_fn(a, 16),
				 __ATOMIC_RELEASE);
		__atomic_store_n(&ptr32, settle_bswap_impl_fn(a, 32),
				 __ATOMIC_RELEASE);
		__atomic_store_n(&ptr64, settle_bswap_impl_fn(a, 64),
				 __ATOMIC_RELEASE);
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
