/*
 * popcount.c - population count (Hamming weight) of byte buffers and of
 * bitmap ranges, dispatched once at run time to the best implementation
 * this CPU and OS support (include/settle_bits.h).
 *
 * Dispatch: settle_popcount() calls through a function pointer whose
 * initial value is a resolver. The first call runs the resolver, which
 * reads the CPU's identification words (src/arch/<arch>: cpuid and XCR0
 * on x86-64, the hardware capabilities on AArch64), picks an
 * implementation with settle_popcount_choose() or takes the one forced by
 * the environment variable SETTLE_POPCOUNT, stores the chosen kernel in
 * the pointer with an atomic release store and calls it. Later calls jump
 * straight to the kernel. The decision is taken under a mutex, once:
 * threads racing through the first call wait for it. A forced
 * implementation this CPU cannot run, one of another architecture, or an
 * unknown name, is ignored (the automatic choice is used) and reported by
 * settle_popcount_env_refusal(); the library never exits.
 *
 * When AVX2 is chosen (automatically or forced) and the CPU also has
 * POPCNT, settle_popcount() takes the path of settle_popcount_path_fn()
 * (settle_arch_popcount_path(): on x86-64, the POPCNT kernel for short
 * buffers and the AVX2 kernel that also uses POPCNT for longer ones); the
 * active implementation is still reported as avx2.
 * settle_popcount_impl_fn(SETTLE_POPCOUNT_AVX2) runs the plain AVX2
 * kernel at every length, which needs no POPCNT.
 *
 * The portable kernel is 64-bit SWAR (Henry S. Warren, "Hacker's
 * Delight", 2nd ed., section 5-1, figure 5-2) with the per-byte counts of
 * up to SWAR_BLOCK words summed before one horizontal add (the same
 * section, "counting 1-bits in an array").
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "prim/dispatch.h"
#include "prim/popcount_kernels.h"
#include "util/env_value.h"
#include "settle_bits.h"

/* ---- portable SWAR ------------------------------------------------------ */

/* Words whose byte counts (at most 8 each) are summed per byte before the
 * horizontal add: 31 * 8 = 248 still fits in a byte. */
#define SWAR_BLOCK 31

/* Sum of the eight bytes of b, each up to 255: pairs of bytes are added
 * into 16-bit lanes, then a multiply adds the lanes into the top one. */
static uint64_t sum_bytes_wide(uint64_t b)
{
	const uint64_t m = 0x00ff00ff00ff00ffu;

	b = (b & m) + ((b >> 8) & m);
	return (b * 0x0001000100010001u) >> 48;
}

uint64_t settle_popcount_kernel_swar(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t n = 0;

	while (len >= 8) {
		size_t words = len / 8 < SWAR_BLOCK ? len / 8 : SWAR_BLOCK;
		uint64_t acc = 0;

		for (size_t i = 0; i < words; i++)
			acc += settle_swar_bytes(settle_load64(p + 8 * i));
		n += sum_bytes_wide(acc);
		p += 8 * words;
		len -= 8 * words;
	}
	return n + settle_swar64(settle_tail_word(p, len));
}

uint64_t settle_popcount64(uint64_t w)
{
	return settle_swar64(w);
}

/* ---- implementations and names ----------------------------------------- */

static const char *const names[SETTLE_POPCOUNT_NIMPL] = {
	[SETTLE_POPCOUNT_SWAR] = "swar",
	[SETTLE_POPCOUNT_POPCNT] = "popcnt",
	[SETTLE_POPCOUNT_AVX2] = "avx2",
	[SETTLE_POPCOUNT_AVX512VL] = "avx512vl",
	[SETTLE_POPCOUNT_AVX512] = "avx512",
	[SETTLE_POPCOUNT_NEON] = "neon",
	[SETTLE_POPCOUNT_SVE] = "sve",
};

/* The architecture each implementation belongs to (NULL: portable). */
static const char *const home[SETTLE_POPCOUNT_NIMPL] = {
	[SETTLE_POPCOUNT_POPCNT] = "x86-64",
	[SETTLE_POPCOUNT_AVX2] = "x86-64",
	[SETTLE_POPCOUNT_AVX512VL] = "x86-64",
	[SETTLE_POPCOUNT_AVX512] = "x86-64",
	[SETTLE_POPCOUNT_NEON] = "AArch64",
	[SETTLE_POPCOUNT_SVE] = "AArch64",
};

const char *settle_popcount_impl_name(enum settle_popcount_impl which)
{
	return (unsigned)which < SETTLE_POPCOUNT_NIMPL ? names[which] : "?";
}

settle_popcount_fn settle_popcount_impl_fn(enum settle_popcount_impl which)
{
	if ((unsigned)which >= SETTLE_POPCOUNT_NIMPL)
		return NULL;
	if (which == SETTLE_POPCOUNT_SWAR)
		return settle_popcount_kernel_swar;
	return settle_arch_popcount_kernel(which);
}

int settle_popcount_usable(enum settle_popcount_impl which)
{
	if (!settle_popcount_impl_fn(which))
		return 0;
	return settle_popcount_runs_on(which, settle_cpuid_this());
}

/* ---- dispatch ---------------------------------------------------------- */

settle_popcount_fn settle_popcount_path_fn(enum settle_popcount_impl which)
{
	if (which == SETTLE_POPCOUNT_SWAR || !settle_popcount_impl_fn(which))
		return settle_popcount_impl_fn(which);
	return settle_arch_popcount_path(which, settle_cpuid_this());
}

static uint64_t popcount_resolve(const void *buf, size_t len);

/*
 * The decision, made once under decide_lock: refusal is written before
 * popcount_active is published (release), and read only after it is seen
 * (acquire), so every thread sees one decision.
 */
static settle_popcount_fn popcount_ptr = popcount_resolve;
static int popcount_active = -1; /* enum settle_popcount_impl once known */
static pthread_mutex_t decide_lock = PTHREAD_MUTEX_INITIALIZER;
static char refusal[320]; /* why SETTLE_POPCOUNT was ignored, or "" */

/* "swar, neon or sve": the implementations built for this architecture. */
static void list_names(char *buf, size_t len)
{
	int n = 0, k = 0;
	size_t used = 0;

	for (int i = 0; i < SETTLE_POPCOUNT_NIMPL; i++)
		n += settle_popcount_impl_fn(i) != NULL;
	buf[0] = '\0';
	for (int i = 0; i < SETTLE_POPCOUNT_NIMPL && used < len; i++) {
		if (!settle_popcount_impl_fn(i))
			continue;
		k++;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 k == 1 ? "" : k == n ? " or " : ", ",
					 names[i]);
	}
}

/*
 * Why a forced implementation cannot be used, as one line without the
 * newline: an unknown name, one of another architecture, or the
 * architecture's reason (on x86-64, when cpuid has the instructions but
 * XCR0 lacks their state, it says so).
 */
static void refuse(const char *forced, int which,
		   const struct settle_cpuid *id)
{
	char value[68], why[128];

	settle_env_value(value, sizeof(value), forced);
	if (which < 0) {
		list_names(why, sizeof(why));
		snprintf(refusal, sizeof(refusal), "SETTLE_POPCOUNT=%s "
			 "refused: unknown implementation (%s)", value, why);
		return;
	}
	if (!settle_popcount_impl_fn(which))
		snprintf(why, sizeof(why), "%s only, this build is for %s",
			 home[which], SETTLE_ARCH_NAME);
	else
		settle_arch_popcount_refusal(which, id, why, sizeof(why));
	snprintf(refusal, sizeof(refusal), "SETTLE_POPCOUNT=%s refused: %s",
		 value, why);
}

/*
 * The implementation named by SETTLE_POPCOUNT, or -1 when it is unset,
 * empty or unusable here (then refusal says why).
 */
static int forced_impl(const struct settle_cpuid *id)
{
	const char *env = getenv("SETTLE_POPCOUNT");
	int which = -1;

	if (!env || !*env)
		return -1;
	for (int i = 0; i < SETTLE_POPCOUNT_NIMPL; i++)
		if (strcmp(env, names[i]) == 0)
			which = i;
	if (which < 0 || !settle_popcount_impl_fn(which) ||
	    !settle_popcount_runs_on(which, id)) {
		refuse(env, which, id);
		return -1;
	}
	return which;
}

/* Decide once; publish the kernel for every later call. */
static settle_popcount_fn popcount_decide(void)
{
	struct settle_cpuid id;
	settle_popcount_fn fn;
	int which;

	pthread_mutex_lock(&decide_lock);
	if (__atomic_load_n(&popcount_active, __ATOMIC_ACQUIRE) >= 0) {
		fn = __atomic_load_n(&popcount_ptr, __ATOMIC_ACQUIRE);
		pthread_mutex_unlock(&decide_lock);
		return fn;
	}
	settle_cpuid_read(&id);
	/* the kernels' own look at the CPU (settle_cpuid_this(), once), so
	 * that no later call waits on anything (include/settle_bits.h) */
	(void)settle_cpuid_this();
	which = forced_impl(&id);
	if (which < 0)
		which = settle_popcount_choose(&id);
	fn = which == SETTLE_POPCOUNT_SWAR ? settle_popcount_kernel_swar :
	     settle_arch_popcount_path(which, &id);
	__atomic_store_n(&settle_popcount_avx512_chosen,
			 which == SETTLE_POPCOUNT_AVX512, __ATOMIC_RELAXED);
	__atomic_store_n(&popcount_ptr, fn, __ATOMIC_RELEASE);
	__atomic_store_n(&popcount_active, which, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&decide_lock);
	return fn;
}

static uint64_t popcount_resolve(const void *buf, size_t len)
{
	return popcount_decide()(buf, len);
}

int settle_popcount_avx512_chosen;

/* The definition; compiled with AVX-512 flags, settle_bits.h also has
 * an inline one for callers (GNU extern inline, never emitted). */
uint64_t settle_popcount(const void *buf, size_t len)
{
	return __atomic_load_n(&popcount_ptr, __ATOMIC_ACQUIRE)(buf, len);
}

enum settle_popcount_impl settle_popcount_active(void)
{
	int which = __atomic_load_n(&popcount_active, __ATOMIC_ACQUIRE);

	if (which < 0) {
		popcount_decide();
		which = __atomic_load_n(&popcount_active, __ATOMIC_ACQUIRE);
	}
	return which;
}

const char *settle_popcount_env_refusal(void)
{
	settle_popcount_active();
	return refusal[0] ? refusal : NULL;
}

/* ---- bitmap ranges ----------------------------------------------------- */

/*
 * Bits [first, first + nbits): the partial first and last bytes are
 * masked, the whole bytes between them go to settle_popcount(). Reads
 * exactly bytes first / 8 .. (first + nbits - 1) / 8.
 */
uint64_t settle_popcount_range(const void *bitmap, uint64_t first,
			       uint64_t nbits)
{
	const unsigned char *p;
	uint64_t last;
	unsigned lo, head, tail;

	if (nbits == 0)
		return 0;
	p = (const unsigned char *)bitmap + first / 8;
	lo = first % 8;
	last = lo + (nbits - 1); /* last bit, counted from bit 0 of p[0] */
	if (last < 8)
		return settle_swar64(p[0] & ((2u << last) - (1u << lo)));
	head = p[0] >> lo;
	tail = p[last / 8] & ((2u << (last % 8)) - 1);
	return settle_swar64(head) + settle_swar64(tail) +
	       settle_popcount(p + 1, (size_t)(last / 8 - 1));
}
