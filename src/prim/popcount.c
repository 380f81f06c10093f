/*
 * popcount.c - population count (Hamming weight) of byte buffers and of
 * bitmap ranges, dispatched once at run time to the best implementation
 * this CPU and OS support (include/settle_bits.h).
 *
 * Dispatch: settle_popcount() calls through a function pointer whose
 * initial value is a resolver. The first call runs the resolver, which
 * reads cpuid and XCR0 (src/cpu/cpu.c; xgetbv only when OSXSAVE is set),
 * picks an implementation with settle_popcount_choose() or takes the one
 * forced by the environment variable SETTLE_POPCOUNT, stores the chosen
 * kernel in the pointer with an atomic release store and calls it. Later
 * calls jump straight to the kernel. The decision is taken under a mutex,
 * once: threads racing through the first call wait for it. A forced
 * implementation this CPU cannot run, or an unknown name, is ignored (the
 * automatic choice is used) and reported by settle_popcount_env_refusal();
 * the library never exits.
 *
 * When AVX2 is chosen (automatically or forced) and the CPU also has
 * POPCNT (every AVX2 CPU made so far does), buffers shorter than
 * POPCOUNT_AVX2_MIN bytes go to the POPCNT kernel, which beats the vector
 * code there, and longer ones to the AVX2 kernel that also uses POPCNT
 * (popcount_avx2.c): the same path as settle_popcount_path_fn(); the
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

static const settle_popcount_fn kernels[SETTLE_POPCOUNT_NIMPL] = {
	[SETTLE_POPCOUNT_SWAR] = settle_popcount_kernel_swar,
	[SETTLE_POPCOUNT_POPCNT] = settle_popcount_kernel_popcnt,
	[SETTLE_POPCOUNT_AVX2] = settle_popcount_kernel_avx2,
	[SETTLE_POPCOUNT_AVX512] = settle_popcount_kernel_avx512,
};

static const char *const names[SETTLE_POPCOUNT_NIMPL] = {
	[SETTLE_POPCOUNT_SWAR] = "swar",
	[SETTLE_POPCOUNT_POPCNT] = "popcnt",
	[SETTLE_POPCOUNT_AVX2] = "avx2",
	[SETTLE_POPCOUNT_AVX512] = "avx512",
};

/* What a CPU that cannot run an implementation lacks, for messages. */
static const char *const needs_text[SETTLE_POPCOUNT_NIMPL] = {
	[SETTLE_POPCOUNT_SWAR] = "nothing",
	[SETTLE_POPCOUNT_POPCNT] = "POPCNT",
	[SETTLE_POPCOUNT_AVX2] = "AVX2",
	[SETTLE_POPCOUNT_AVX512] = "AVX-512 VPOPCNTDQ",
};

const char *settle_popcount_impl_name(enum settle_popcount_impl which)
{
	return (unsigned)which < SETTLE_POPCOUNT_NIMPL ? names[which] : "?";
}

settle_popcount_fn settle_popcount_impl_fn(enum settle_popcount_impl which)
{
	return (unsigned)which < SETTLE_POPCOUNT_NIMPL ? kernels[which] : NULL;
}

int settle_popcount_usable(enum settle_popcount_impl which)
{
	struct settle_cpuid id;

	settle_cpuid_read(&id);
	return settle_popcount_runs_on(which, &id);
}

/* ---- dispatch ---------------------------------------------------------- */

/*
 * The automatic AVX2 choice, when the CPU also has POPCNT: POPCNT alone
 * below POPCOUNT_AVX2_MIN bytes, above it the AVX2 kernel that also uses
 * POPCNT (for its last words, and side by side with the vectors for long
 * buffers: popcount_avx2.c). The length is where one overtook the other on
 * the Zen 4 guest settle is developed on (5.95 ns each at 192 bytes).
 */
#define POPCOUNT_AVX2_MIN 192

static uint64_t popcount_avx2_auto(const void *buf, size_t len)
{
	if (len < POPCOUNT_AVX2_MIN)
		return settle_popcount_kernel_popcnt(buf, len);
	return settle_popcount_kernel_avx2_popcnt(buf, len);
}

settle_popcount_fn settle_popcount_path_fn(enum settle_popcount_impl which)
{
	if (which == SETTLE_POPCOUNT_AVX2 && settle_cpu_has(SETTLE_CPU_POPCNT))
		return popcount_avx2_auto;
	return settle_popcount_impl_fn(which);
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
static char refusal[192]; /* why SETTLE_POPCOUNT was ignored, or "" */

/*
 * Why a forced implementation cannot be used, as one line without the
 * newline. When cpuid has the instructions but XCR0 lacks their state,
 * say so.
 */
static void refuse(const char *forced, int which,
		   const struct settle_cpuid *id)
{
	struct settle_cpuid os_on = *id;
	char value[68];

	settle_env_value(value, sizeof(value), forced);
	if (which < 0) {
		snprintf(refusal, sizeof(refusal), "SETTLE_POPCOUNT=%s "
			 "refused: unknown implementation (swar, popcnt, avx2 "
			 "or avx512)", value);
		return;
	}
	os_on.l1_ecx |= 1u << 27; /* OSXSAVE */
	os_on.xcr0 = ~0ull;
	if (settle_popcount_runs_on(which, &os_on))
		snprintf(refusal, sizeof(refusal), "SETTLE_POPCOUNT=%s "
			 "refused: the OS has not enabled %s register state "
			 "(XCR0 %#llx)", value, needs_text[which],
			 (unsigned long long)id->xcr0);
	else
		snprintf(refusal, sizeof(refusal), "SETTLE_POPCOUNT=%s "
			 "refused: this CPU lacks %s", value,
			 needs_text[which]);
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
	if (which < 0 || !settle_popcount_runs_on(which, id)) {
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
	which = forced_impl(&id);
	if (which < 0)
		which = settle_popcount_choose(&id);
	fn = kernels[which];
	if (which == SETTLE_POPCOUNT_AVX2 &&
	    settle_popcount_runs_on(SETTLE_POPCOUNT_POPCNT, &id))
		fn = popcount_avx2_auto;
	__atomic_store_n(&popcount_ptr, fn, __ATOMIC_RELEASE);
	__atomic_store_n(&popcount_active, which, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&decide_lock);
	return fn;
}

static uint64_t popcount_resolve(const void *buf, size_t len)
{
	return popcount_decide()(buf, len);
}

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
