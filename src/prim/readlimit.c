/*
 * readlimit.c - the portable read-limit kernel and the choice of the
 * widest kernel this CPU can run (see readlimit.h). The x86-64 kernels are
 * in readlimit_sse2.c, readlimit_avx2.c and readlimit_avx512.c, each
 * compiled for its ISA only (Makefile: *_avx2.c, ...).
 */
#include <string.h>

#include "prim/readlimit.h"

/* ---- generic ----------------------------------------------------------- */

/* The aligned word at p (p a multiple of 8). */
static inline uint64_t word(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

/*
 * The aligned word that holds the k bytes at p (0 < k < 8, all in one
 * aligned word), its other bytes zero: reads exactly those k bytes.
 */
static inline uint64_t part_word(const unsigned char *p, size_t k)
{
	unsigned char w[8] = { 0 };

	memcpy(w + ((uintptr_t)p & 7), p, k);
	return word(w);
}

uint64_t settle_read_limit_generic(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t head = (size_t)(-(uintptr_t)p & 7);
	uint64_t a = 0, b = 0, c = 0, d = 0;

	if (head) {
		if (head > len)
			head = len;
		a = part_word(p, head);
		p += head;
		len -= head;
	}
	for (; len >= 32; p += 32, len -= 32) {
		a += word(p);
		b += word(p + 8);
		c += word(p + 16);
		d += word(p + 24);
	}
	for (; len >= 8; p += 8, len -= 8)
		a += word(p);
	if (len)
		b += part_word(p, len);
	return (a + b) + (c + d);
}

/* ---- the choice -------------------------------------------------------- */

#if defined(__x86_64__)
#define X86 1
#else
#define X86 0
#endif

#define FEAT(f) (1ull << (f))

/* The features each kernel needs (all of them). */
static uint64_t needs(enum settle_read_limit_impl which)
{
	switch (which) {
	case SETTLE_READ_LIMIT_GENERIC:
	case SETTLE_READ_LIMIT_SSE2:
		return 0; /* SSE2 is part of x86-64 */
	case SETTLE_READ_LIMIT_AVX2:
		return FEAT(SETTLE_CPU_AVX) | FEAT(SETTLE_CPU_AVX2);
	case SETTLE_READ_LIMIT_AVX512:
		/* Byte masks (BW); its object is compiled with -mavx512vl,
		 * so EVEX forms on XMM/YMM registers may appear (VL). */
		return FEAT(SETTLE_CPU_AVX512F) | FEAT(SETTLE_CPU_AVX512BW) |
		       FEAT(SETTLE_CPU_AVX512VL);
	default:
		return ~0ull;
	}
}

int settle_read_limit_runs_on(enum settle_read_limit_impl which,
			      const struct settle_cpuid *id)
{
	uint64_t need = needs(which);

	if ((unsigned)which >= SETTLE_READ_LIMIT_NIMPL)
		return 0;
	if (which == SETTLE_READ_LIMIT_GENERIC)
		return 1;
	if (!X86)
		return 0;
	return (settle_cpu_features_of(id) & need) == need;
}

enum settle_read_limit_impl
settle_read_limit_choose(const struct settle_cpuid *id)
{
	int which;

	for (which = SETTLE_READ_LIMIT_NIMPL - 1; which > 0; which--)
		if (settle_read_limit_runs_on(which, id))
			return which;
	return SETTLE_READ_LIMIT_GENERIC;
}

int settle_read_limit_usable(enum settle_read_limit_impl which)
{
	struct settle_cpuid id;

	if (which == SETTLE_READ_LIMIT_GENERIC)
		return 1;
	if (!X86 || (unsigned)which >= SETTLE_READ_LIMIT_NIMPL)
		return 0;
	settle_cpuid_read(&id);
	return settle_read_limit_runs_on(which, &id);
}

static const settle_read_limit_fn kernels[SETTLE_READ_LIMIT_NIMPL] = {
	[SETTLE_READ_LIMIT_GENERIC] = settle_read_limit_generic,
#if X86
	[SETTLE_READ_LIMIT_SSE2] = settle_read_limit_sse2,
	[SETTLE_READ_LIMIT_AVX2] = settle_read_limit_avx2,
	[SETTLE_READ_LIMIT_AVX512] = settle_read_limit_avx512,
#endif
};

static const char *const names[SETTLE_READ_LIMIT_NIMPL] = {
	[SETTLE_READ_LIMIT_GENERIC] = "generic",
	[SETTLE_READ_LIMIT_SSE2] = "sse2",
	[SETTLE_READ_LIMIT_AVX2] = "avx2",
	[SETTLE_READ_LIMIT_AVX512] = "avx512",
};

settle_read_limit_fn settle_read_limit_impl_fn(enum settle_read_limit_impl which)
{
	if ((unsigned)which >= SETTLE_READ_LIMIT_NIMPL)
		return NULL;
	return kernels[which];
}

const char *settle_read_limit_impl_name(enum settle_read_limit_impl which)
{
	if ((unsigned)which >= SETTLE_READ_LIMIT_NIMPL)
		return "?";
	return names[which];
}

/* ---- dispatch ---------------------------------------------------------- */

static uint64_t resolve(const void *buf, size_t len);

static settle_read_limit_fn read_limit_ptr = resolve;
static int active = -1; /* enum settle_read_limit_impl once decided */

enum settle_read_limit_impl settle_read_limit_active(void)
{
	int a = __atomic_load_n(&active, __ATOMIC_ACQUIRE);
	struct settle_cpuid id = { 0 };

	if (a >= 0)
		return a;
#if X86
	settle_cpuid_read(&id);
#endif
	a = settle_read_limit_choose(&id);
	__atomic_store_n(&read_limit_ptr, kernels[a], __ATOMIC_RELEASE);
	__atomic_store_n(&active, a, __ATOMIC_RELEASE);
	return a;
}

static uint64_t resolve(const void *buf, size_t len)
{
	return kernels[settle_read_limit_active()](buf, len);
}

uint64_t settle_read_limit(const void *buf, size_t len)
{
	return __atomic_load_n(&read_limit_ptr, __ATOMIC_ACQUIRE)(buf, len);
}
