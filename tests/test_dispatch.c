/*
 * test_dispatch.c - the run-time choice of the popcount implementation.
 *
 * The decision (src/prim/dispatch.h, src/arch/<arch>) is a pure function
 * of the architecture's identification words, so each rule is a case with
 * injected words. On x86-64, the cpuid words and XCR0:
 *   - models of real CPUs: Core 2 (SWAR), Nehalem (POPCNT), Haswell
 *     (AVX2), Ice Lake server (AVX-512);
 *   - leaf 0 reporting a maximum leaf below 7: leaf-7 words are ignored;
 *   - OSXSAVE clear: no AVX, AVX2 or AVX-512 whatever XCR0 holds, but
 *     POPCNT is still chosen when cpuid has it;
 *   - the AVX2 bit without the AVX bit: no AVX2; AVX2 without POPCNT:
 *     AVX2 (its kernel does not use POPCNT);
 *   - AVX512F/BW/VL/VPOPCNTDQ with XCR0 lacking any ZMM state bit
 *     (0xe0): AVX2, not AVX-512; XCR0 lacking AVX state: neither;
 *   - AVX-512 without VPOPCNTDQ or without BW: AVX2.
 * On AArch64, the words AT_HWCAP and AT_HWCAP2 of qemu's models of real
 * CPUs: Cortex-A53 (neon), "max" and A64FX (sve, which has SVE), a CPU
 * without AdvSIMD (SWAR), the SVE bit alone (sve), HWCAP2 alone (never
 * sve: SVE2 without SVE does not exist, and the decision reads HWCAP).
 * The generic build chooses SWAR whatever the words. An implementation
 * of another architecture is refused as such.
 * The environment variable SETTLE_POPCOUNT is tested in forked children
 * (the choice is made once per process): a usable forced path is taken
 * and stays; an unusable one and an unknown name are ignored by the
 * library, which counts right with the automatic choice and reports the
 * value through settle_popcount_env_refusal() (one line, exact text); the
 * settle command refuses them with that line and exit status 2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu/cpu.h"
#include "prim/dispatch.h"
#include "settle_bits.h"

#if SETTLE_ARCH_X86_64
/* cpuid bits (Intel SDM vol. 2A, CPUID, tables 3-10, 3-11, 3-8). */
#define L1C_SSE3 (1u << 0)
#define L1C_SSSE3 (1u << 9)
#define L1C_SSE41 (1u << 19)
#define L1C_SSE42 (1u << 20)
#define L1C_POPCNT (1u << 23)
#define L1C_OSXSAVE (1u << 27)
#define L1C_AVX (1u << 28)
#define L1D_SSE2 (1u << 26)
#define L7B_AVX2 (1u << 5)
#define L7B_AVX512F (1u << 16)
#define L7B_AVX512BW (1u << 30)
#define L7B_AVX512VL (1u << 31)
#define L7C_VPOPCNTDQ (1u << 14)
/* XCR0 state components (vol. 1, 13.1): x87, SSE, AVX; opmask, ZMM. */
#define XCR0_AVX 0x7u
#define XCR0_AVX512 0xe7u

static const struct settle_cpuid core2 = {
	.max_leaf = 10,
	.l1_ecx = L1C_SSE3 | L1C_SSSE3,
	.l1_edx = L1D_SSE2,
};

static const struct settle_cpuid nehalem = {
	.max_leaf = 11,
	.l1_ecx = L1C_SSE3 | L1C_SSSE3 | L1C_SSE41 | L1C_SSE42 | L1C_POPCNT,
	.l1_edx = L1D_SSE2,
};

static const struct settle_cpuid haswell = {
	.max_leaf = 13,
	.l1_ecx = L1C_SSE3 | L1C_SSSE3 | L1C_SSE41 | L1C_SSE42 | L1C_POPCNT |
		  L1C_OSXSAVE | L1C_AVX,
	.l1_edx = L1D_SSE2,
	.l7_ebx = L7B_AVX2,
	.xcr0 = XCR0_AVX,
};

/* Skylake-SP: AVX-512 F, BW, VL without VPOPCNTDQ. */
static const struct settle_cpuid skylake_x = {
	.max_leaf = 22,
	.l1_ecx = L1C_SSE3 | L1C_SSSE3 | L1C_SSE41 | L1C_SSE42 | L1C_POPCNT |
		  L1C_OSXSAVE | L1C_AVX,
	.l1_edx = L1D_SSE2,
	.l7_ebx = L7B_AVX2 | L7B_AVX512F | L7B_AVX512BW | L7B_AVX512VL,
	.xcr0 = XCR0_AVX512,
};

static const struct settle_cpuid icelake = {
	.max_leaf = 27,
	.l1_ecx = L1C_SSE3 | L1C_SSSE3 | L1C_SSE41 | L1C_SSE42 | L1C_POPCNT |
		  L1C_OSXSAVE | L1C_AVX,
	.l1_edx = L1D_SSE2,
	.l7_ebx = L7B_AVX2 | L7B_AVX512F | L7B_AVX512BW | L7B_AVX512VL,
	.l7_ecx = L7C_VPOPCNTDQ,
	.xcr0 = XCR0_AVX512,
};

static int has(const struct settle_cpuid *id, enum settle_cpu_feature f)
{
	return (settle_cpu_features_of(id) >> f) & 1;
}

static void expect_choice(const struct settle_cpuid *id,
			  enum settle_popcount_impl want, const char *what)
{
	enum settle_popcount_impl got = settle_popcount_choose(id);

	if (got != want) {
		print_error("%s: chose %s, want %s\n", what,
			    settle_popcount_impl_name(got),
			    settle_popcount_impl_name(want));
		fail();
	}
	/* the choice can run there, and nothing better can */
	assert_true(settle_popcount_runs_on(got, id));
	for (int i = got + 1; i < SETTLE_POPCOUNT_NIMPL; i++)
		assert_false(settle_popcount_runs_on(i, id));
	assert_true(settle_popcount_runs_on(SETTLE_POPCOUNT_SWAR, id));
}

static void test_cpu_models(void **state)
{
	(void)state;
	expect_choice(&core2, SETTLE_POPCOUNT_SWAR, "Core 2");
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_POPCNT, &core2));
	expect_choice(&nehalem, SETTLE_POPCOUNT_POPCNT, "Nehalem");
	expect_choice(&haswell, SETTLE_POPCOUNT_AVX2, "Haswell");
	assert_true(settle_popcount_runs_on(SETTLE_POPCOUNT_POPCNT, &haswell));
	expect_choice(&skylake_x, SETTLE_POPCOUNT_AVX512VL, "Skylake-X");
	assert_true(settle_popcount_runs_on(SETTLE_POPCOUNT_AVX2, &skylake_x));
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_AVX512,
					     &skylake_x));
	expect_choice(&icelake, SETTLE_POPCOUNT_AVX512, "Ice Lake");
	assert_true(settle_popcount_runs_on(SETTLE_POPCOUNT_AVX512VL,
					    &icelake));
	assert_true(settle_popcount_runs_on(SETTLE_POPCOUNT_AVX2, &icelake));
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_NIMPL, &icelake));
	assert_false(settle_popcount_runs_on(-1, &icelake));
}

/* Leaf 0 says leaf 7 does not exist: its words are stale, not features. */
static void test_max_leaf_below_7(void **state)
{
	struct settle_cpuid id = icelake;

	(void)state;
	id.max_leaf = 6;
	assert_false(has(&id, SETTLE_CPU_AVX2));
	assert_false(has(&id, SETTLE_CPU_AVX512F));
	assert_false(has(&id, SETTLE_CPU_AVX512VPOPCNTDQ));
	assert_true(has(&id, SETTLE_CPU_AVX));
	expect_choice(&id, SETTLE_POPCOUNT_POPCNT, "max leaf 6");
	/* no leaf 1 either: nothing at all */
	id.max_leaf = 0;
	assert_false(has(&id, SETTLE_CPU_POPCNT));
	expect_choice(&id, SETTLE_POPCOUNT_SWAR, "max leaf 0");
}

/* OSXSAVE clear: the OS manages no extended state, so XCR0 (never read:
 * settle_cpuid_read leaves it 0) means nothing. POPCNT needs no state. */
static void test_osxsave_clear(void **state)
{
	struct settle_cpuid id = icelake;

	(void)state;
	id.l1_ecx &= ~L1C_OSXSAVE;
	id.xcr0 = 0;
	assert_false(has(&id, SETTLE_CPU_AVX));
	assert_false(has(&id, SETTLE_CPU_AVX2));
	assert_false(has(&id, SETTLE_CPU_AVX512F));
	assert_true(has(&id, SETTLE_CPU_POPCNT));
	expect_choice(&id, SETTLE_POPCOUNT_POPCNT, "OSXSAVE clear");
	/* a stale XCR0 value is ignored too */
	id.xcr0 = XCR0_AVX512;
	assert_false(has(&id, SETTLE_CPU_AVX));
	expect_choice(&id, SETTLE_POPCOUNT_POPCNT, "OSXSAVE clear, XCR0 set");
	/* and without POPCNT: SWAR */
	id.l1_ecx &= ~L1C_POPCNT;
	expect_choice(&id, SETTLE_POPCOUNT_SWAR, "OSXSAVE and POPCNT clear");
}

static void test_avx2_without_avx(void **state)
{
	struct settle_cpuid id = haswell;

	(void)state;
	id.l1_ecx &= ~L1C_AVX;
	assert_false(has(&id, SETTLE_CPU_AVX2));
	expect_choice(&id, SETTLE_POPCOUNT_POPCNT, "AVX2 without AVX");
	id = icelake;
	id.l1_ecx &= ~L1C_AVX;
	assert_false(has(&id, SETTLE_CPU_AVX512F));
	expect_choice(&id, SETTLE_POPCOUNT_POPCNT, "AVX-512 without AVX");
}

/* The AVX2 kernel counts its tails with SWAR: it does not need POPCNT. */
static void test_avx2_without_popcnt(void **state)
{
	struct settle_cpuid id = haswell;

	(void)state;
	id.l1_ecx &= ~L1C_POPCNT;
	expect_choice(&id, SETTLE_POPCOUNT_AVX2, "AVX2 without POPCNT");
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_POPCNT, &id));
}

/* VPSHUFB needs SSSE3 as well as AVX2 under qemu (-cpu Haswell,-ssse3
 * raised SIGILL in the AVX2 kernel): no AVX2 kernel without it. */
static void test_avx2_without_ssse3(void **state)
{
	struct settle_cpuid id = haswell;

	(void)state;
	id.l1_ecx &= ~L1C_SSSE3;
	expect_choice(&id, SETTLE_POPCOUNT_POPCNT, "AVX2 without SSSE3");
	id = icelake;
	id.l1_ecx &= ~L1C_SSSE3;
	expect_choice(&id, SETTLE_POPCOUNT_AVX512, "AVX-512 without SSSE3");
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_AVX2, &id));
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_AVX512VL, &id));
}

/* XCR0 must enable opmask (bit 5), ZMM_Hi256 (6) and Hi16_ZMM (7). */
static void test_xcr0_without_zmm(void **state)
{
	static const uint64_t partial[] = {
		XCR0_AVX, XCR0_AVX | 0x20, XCR0_AVX | 0x40, XCR0_AVX | 0x80,
		XCR0_AVX | 0x60, XCR0_AVX | 0xa0, XCR0_AVX | 0xc0,
	};
	struct settle_cpuid id = icelake;

	(void)state;
	for (size_t i = 0; i < sizeof(partial) / sizeof(partial[0]); i++) {
		char what[48];

		id.xcr0 = partial[i];
		snprintf(what, sizeof(what), "XCR0 %#llx",
			 (unsigned long long)partial[i]);
		assert_false(has(&id, SETTLE_CPU_AVX512F));
		assert_true(has(&id, SETTLE_CPU_AVX2));
		expect_choice(&id, SETTLE_POPCOUNT_AVX2, what);
	}
	/* ZMM state without AVX (YMM) state: no AVX-class path at all */
	id.xcr0 = 0xe3;
	assert_false(has(&id, SETTLE_CPU_AVX));
	expect_choice(&id, SETTLE_POPCOUNT_POPCNT, "XCR0 0xe3");
	/* nor without SSE state */
	id.xcr0 = 0xe5;
	expect_choice(&id, SETTLE_POPCOUNT_POPCNT, "XCR0 0xe5");
}

/* A refusal names the first feature the kernel needs that the CPU lacks
 * (it said "AVX2 or SSSE3" of a CPU without SSSE3, and "AVX-512
 * VPOPCNTDQ" of one without AVX2), or the state the OS has not enabled. */
static void test_refusal_names(void **state)
{
	struct settle_cpuid id = haswell;
	char why[160];

	(void)state;
	id.l1_ecx &= ~L1C_SSSE3;
	settle_arch_popcount_refusal(SETTLE_POPCOUNT_AVX2, &id, why,
				     sizeof(why));
	assert_string_equal(why, "this CPU lacks ssse3");
	id = icelake;
	id.l7_ebx &= ~L7B_AVX2;
	settle_arch_popcount_refusal(SETTLE_POPCOUNT_AVX512, &id, why,
				     sizeof(why));
	assert_string_equal(why, "this CPU lacks avx2");
	settle_arch_popcount_refusal(SETTLE_POPCOUNT_AVX512, &skylake_x, why,
				     sizeof(why));
	assert_string_equal(why, "this CPU lacks avx512vpopcntdq");
	settle_arch_popcount_refusal(SETTLE_POPCOUNT_POPCNT, &core2, why,
				     sizeof(why));
	assert_string_equal(why, "this CPU lacks popcnt");
	id = icelake;
	id.xcr0 = XCR0_AVX;
	settle_arch_popcount_refusal(SETTLE_POPCOUNT_AVX512, &id, why,
				     sizeof(why));
	assert_string_equal(why, "the OS has not enabled avx512f register "
			    "state (XCR0 0x7)");
}

/* The AVX-512 kernel needs F, BW, VL and VPOPCNTDQ; the AVX512VL one F
 * and VL (and AVX2). */
static void test_avx512_subsets(void **state)
{
	static const struct {
		uint32_t ebx_off, ecx_off;
		enum settle_popcount_impl want;
		const char *what;
	} drop[] = {
		{ 0, L7C_VPOPCNTDQ, SETTLE_POPCOUNT_AVX512VL,
		  "AVX-512 without VPOPCNTDQ (Skylake-X)" },
		{ L7B_AVX512BW | L7B_AVX512VL, 0, SETTLE_POPCOUNT_AVX2,
		  "VPOPCNTDQ without BW, VL (Knights Mill)" },
		{ L7B_AVX512BW, 0, SETTLE_POPCOUNT_AVX512VL,
		  "AVX-512 without BW" },
		{ L7B_AVX512VL, 0, SETTLE_POPCOUNT_AVX2, "AVX-512 without VL" },
		{ L7B_AVX512F, 0, SETTLE_POPCOUNT_AVX2, "AVX-512 without F" },
		{ L7B_AVX2, L7C_VPOPCNTDQ, SETTLE_POPCOUNT_POPCNT,
		  "AVX512VL without AVX2 or VPOPCNTDQ" },
		/* its VEX VPADDQ on YMM is AVX2's */
		{ L7B_AVX2, 0, SETTLE_POPCOUNT_POPCNT,
		  "AVX-512 VPOPCNTDQ without AVX2" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++) {
		struct settle_cpuid id = icelake;

		id.l7_ebx &= ~drop[i].ebx_off;
		id.l7_ecx &= ~drop[i].ecx_off;
		expect_choice(&id, drop[i].want, drop[i].what);
	}
}

#elif SETTLE_ARCH_AARCH64
/* The words qemu 7.2 gives its models (qemu-aarch64 -cpu NAME; getauxval
 * printed by a probe program), and a CPU without AdvSIMD. */
static const struct settle_cpuid a53 = { .hwcap = 0x8fb };
static const struct settle_cpuid qemu_max = { .hwcap = 0xecfffffb,
					      .hwcap2 = 0x7f877fff };
static const struct settle_cpuid a64fx = { .hwcap = 0x415ffb };
static const struct settle_cpuid neoverse_n1 = { .hwcap = 0x119ffb };
static const struct settle_cpuid no_simd = { .hwcap = SETTLE_HWCAP_FP };

static void expect_choice(const struct settle_cpuid *id,
			  enum settle_popcount_impl want, const char *what)
{
	enum settle_popcount_impl got = settle_popcount_choose(id);

	if (got != want) {
		print_error("%s: chose %s, want %s\n", what,
			    settle_popcount_impl_name(got),
			    settle_popcount_impl_name(want));
		fail();
	}
	assert_true(settle_popcount_runs_on(got, id));
	assert_true(settle_popcount_runs_on(SETTLE_POPCOUNT_SWAR, id));
	/* nothing of another architecture, ever */
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_POPCNT, id));
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_AVX2, id));
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_AVX512, id));
}

static void test_cpu_models(void **state)
{
	struct settle_cpuid id;

	(void)state;
	expect_choice(&a53, SETTLE_POPCOUNT_NEON, "Cortex-A53");
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_SVE, &a53));
	expect_choice(&neoverse_n1, SETTLE_POPCOUNT_NEON, "Neoverse-N1");
	expect_choice(&qemu_max, SETTLE_POPCOUNT_SVE, "qemu max");
	assert_true(settle_popcount_runs_on(SETTLE_POPCOUNT_NEON, &qemu_max));
	expect_choice(&a64fx, SETTLE_POPCOUNT_SVE, "A64FX");
	expect_choice(&no_simd, SETTLE_POPCOUNT_SWAR, "no AdvSIMD");
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_NEON, &no_simd));
	/* the SVE bit decides sve, AdvSIMD or not */
	id = (struct settle_cpuid){ .hwcap = SETTLE_HWCAP_SVE };
	expect_choice(&id, SETTLE_POPCOUNT_SVE, "SVE bit alone");
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_NEON, &id));
	/* HWCAP2 (SVE2 and the rest) without HWCAP_SVE: no sve */
	id = (struct settle_cpuid){ .hwcap = a53.hwcap, .hwcap2 = ~0ull };
	expect_choice(&id, SETTLE_POPCOUNT_NEON, "HWCAP2 without HWCAP_SVE");
	id = (struct settle_cpuid){ 0 };
	expect_choice(&id, SETTLE_POPCOUNT_SWAR, "no capabilities");
	assert_false(settle_popcount_runs_on(SETTLE_POPCOUNT_NIMPL, &qemu_max));
	assert_false(settle_popcount_runs_on(-1, &qemu_max));
}

/* The feature list follows the words bit by bit (Linux uapi hwcap.h). */
static void test_features(void **state)
{
	struct settle_cpuid id = { 0 };
	uint64_t f;

	(void)state;
	assert_int_equal(settle_cpu_features_of(&id), 0);
	f = settle_cpu_features_of(&a53);
	assert_true((f >> SETTLE_CPU_ASIMD) & 1);
	assert_true((f >> SETTLE_CPU_CPUID) & 1);
	assert_false((f >> SETTLE_CPU_SVE) & 1);
	assert_false((f >> SETTLE_CPU_ATOMICS) & 1);
	f = settle_cpu_features_of(&qemu_max);
	assert_true((f >> SETTLE_CPU_SVE) & 1);
	assert_true((f >> SETTLE_CPU_SVE2) & 1);   /* HWCAP2 bit 1 */
	assert_true((f >> SETTLE_CPU_I8MM) & 1);   /* HWCAP2 bit 13 */
	id.hwcap2 = SETTLE_HWCAP2_SVE2;
	assert_int_equal(settle_cpu_features_of(&id), 1ull << SETTLE_CPU_SVE2);
	id = (struct settle_cpuid){ .hwcap = SETTLE_HWCAP2_SVE2 }; /* bit 1 */
	assert_int_equal(settle_cpu_features_of(&id), 1ull << SETTLE_CPU_ASIMD);
	assert_string_equal(settle_cpu_feature_name(SETTLE_CPU_SVE), "sve");
	assert_string_equal(settle_cpu_feature_name(SETTLE_CPU_ASIMD), "asimd");
	assert_string_equal(settle_cpu_feature_name(SETTLE_CPU_NFEATURES), "?");
}

#else
static void test_cpu_models(void **state)
{
	struct settle_cpuid id = { 0 };

	(void)state;
	assert_int_equal(settle_popcount_choose(&id), SETTLE_POPCOUNT_SWAR);
	memset(&id, 0xff, sizeof(id));
	assert_int_equal(settle_popcount_choose(&id), SETTLE_POPCOUNT_SWAR);
	for (int i = 1; i < SETTLE_POPCOUNT_NIMPL; i++)
		assert_false(settle_popcount_runs_on(i, &id));
	assert_int_equal(settle_cpu_features_of(&id), 0);
}

#endif

/* ---- the environment variable, in forked children ---------------------- */

struct child {
	int status;      /* exit status, or -1 when killed */
	char err[512];   /* what it wrote to stderr */
};

#define CHILD_BAD_COUNT 100 /* exit status: the dispatched count was wrong */
#define CHILD_CHANGED 101   /* exit status: the choice changed */

/*
 * In the child: set SETTLE_POPCOUNT (unset for NULL), then take the
 * choice, count a known buffer through settle_popcount(), change the
 * variable and check that the choice and the refusal stay. The refusal,
 * if any, goes to stderr with a newline. Exit status: 10 + the
 * implementation.
 */
static void child_main(const char *value)
{
	unsigned char buf[1000];
	enum settle_popcount_impl a, b;
	const char *why;

	if (value)
		setenv("SETTLE_POPCOUNT", value, 1);
	else
		unsetenv("SETTLE_POPCOUNT");
	memset(buf, 0x5a, sizeof(buf)); /* 4 bits per byte */
	a = settle_popcount_active();
	why = settle_popcount_env_refusal();
	if (why)
		fprintf(stderr, "%s\n", why);
	if (settle_popcount(buf, sizeof(buf)) != 4 * sizeof(buf))
		_exit(CHILD_BAD_COUNT);
	setenv("SETTLE_POPCOUNT", "swar", 1);
	if (settle_popcount(buf, 999) != 4 * 999)
		_exit(CHILD_BAD_COUNT);
	b = settle_popcount_active();
	if (a != b || settle_popcount_env_refusal() != why)
		_exit(CHILD_CHANGED);
	_exit(10 + (int)a);
}

static void run_child(const char *value, struct child *c)
{
	int fd[2], st;
	pid_t pid;
	size_t n = 0;
	ssize_t r;

	assert_int_equal(pipe(fd), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 2);
		child_main(value);
	}
	close(fd[1]);
	while (n < sizeof(c->err) - 1 &&
	       (r = read(fd[0], c->err + n, sizeof(c->err) - 1 - n)) > 0)
		n += (size_t)r;
	c->err[n] = '\0';
	close(fd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	c->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static enum settle_popcount_impl this_cpu_choice(void)
{
	struct settle_cpuid id;

	settle_cpuid_read(&id);
	return settle_popcount_choose(&id);
}

static void test_env_unset(void **state)
{
	struct child c;

	(void)state;
	run_child(NULL, &c);
	assert_string_equal(c.err, "");
	assert_int_equal(c.status, 10 + (int)this_cpu_choice());
	run_child("", &c); /* empty: as unset */
	assert_string_equal(c.err, "");
	assert_int_equal(c.status, 10 + (int)this_cpu_choice());
}

/* The architecture each implementation belongs to. */
static const char *home(enum settle_popcount_impl which)
{
	switch (which) {
	case SETTLE_POPCOUNT_POPCNT:
	case SETTLE_POPCOUNT_AVX2:
	case SETTLE_POPCOUNT_AVX512VL:
	case SETTLE_POPCOUNT_AVX512:
		return "x86-64";
	case SETTLE_POPCOUNT_NEON:
	case SETTLE_POPCOUNT_SVE:
		return "AArch64";
	default:
		return NULL;
	}
}

/* The one-line refusal expected for implementation which on this CPU,
 * with a newline. */
static void refusal(enum settle_popcount_impl which, char *buf, size_t len)
{
	const char *name = settle_popcount_impl_name(which);
	const char *h = home(which);

	if (h && strcmp(h, SETTLE_ARCH_NAME) != 0) {
		snprintf(buf, len, "SETTLE_POPCOUNT=%s refused: %s only, this "
			 "build is for %s\n", name, h, SETTLE_ARCH_NAME);
		return;
	}
#if SETTLE_ARCH_X86_64
	struct settle_cpuid id;
	char why[160];

	/* the text as the library makes it for this CPU: this checks the
	 * plumbing and the prefix; which feature it names is
	 * test_refusal_names()'s to check */
	settle_cpuid_read(&id);
	settle_arch_popcount_refusal(which, &id, why, sizeof(why));
	snprintf(buf, len, "SETTLE_POPCOUNT=%s refused: %s\n", name, why);
#elif SETTLE_ARCH_AARCH64
	snprintf(buf, len, "SETTLE_POPCOUNT=%s refused: this CPU or kernel "
		 "lacks %s\n", name, which == SETTLE_POPCOUNT_SVE ?
		 "SVE (HWCAP_SVE)" : "AdvSIMD (HWCAP_ASIMD)");
#else
	snprintf(buf, len, "(%s runs everywhere)\n", name);
#endif
}

/* The implementations of this build, as an unknown name's refusal lists
 * them. */
#if SETTLE_ARCH_X86_64
#define THIS_ARCH_IMPLS "swar, popcnt, avx2, avx512vl or avx512"
#elif SETTLE_ARCH_AARCH64
#define THIS_ARCH_IMPLS "swar, neon or sve"
#else
#define THIS_ARCH_IMPLS "swar"
#endif

static void test_env_forced(void **state)
{
	(void)state;
	for (int i = 0; i < SETTLE_POPCOUNT_NIMPL; i++) {
		const char *name = settle_popcount_impl_name(i);
		char want[320];
		struct child c;

		run_child(name, &c);
		if (settle_popcount_usable(i)) {
			if (c.status != 10 + i || c.err[0])
				print_error("SETTLE_POPCOUNT=%s: status %d, "
					    "stderr '%s'\n", name, c.status,
					    c.err);
			assert_int_equal(c.status, 10 + i);
			assert_string_equal(c.err, "");
			continue;
		}
		print_message("SETTLE_POPCOUNT=%s refused here, as it must "
			      "be: %s", name, c.err);
		/* ignored: the automatic choice counts */
		assert_int_equal(c.status, 10 + (int)this_cpu_choice());
		refusal(i, want, sizeof(want));
		assert_string_equal(c.err, want);
	}
}

static void test_env_unknown(void **state)
{
	static const char *const bad[] = { "avx3", "AVX2", "sse", " swar" };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct child c;
		char want[160];

		run_child(bad[i], &c);
		snprintf(want, sizeof(want), "SETTLE_POPCOUNT=%s "
			 "refused: unknown implementation (" THIS_ARCH_IMPLS
			 ")\n", bad[i]);
		assert_int_equal(c.status, 10 + (int)this_cpu_choice());
		assert_string_equal(c.err, want);
	}
}

/* The refusal stays one line whatever the value: control characters as
 * '?', a value over 67 characters cut to 64 and "...". */
static void test_env_odd_values(void **state)
{
	char value[3][101], shown[3][68];

	(void)state;
	strcpy(value[0], "sw\nar");
	strcpy(shown[0], "sw?ar");
	strcpy(value[1], "\033[2J\377");
	strcpy(shown[1], "?[2J?");
	memset(value[2], 'x', 100);
	value[2][100] = '\0';
	memset(shown[2], 'x', 64);
	strcpy(shown[2] + 64, "...");
	for (int i = 0; i < 3; i++) {
		struct child c;
		char want[320];

		run_child(value[i], &c);
		snprintf(want, sizeof(want), "SETTLE_POPCOUNT=%s refused: "
			 "unknown implementation (" THIS_ARCH_IMPLS ")\n",
			 shown[i]);
		assert_int_equal(c.status, 10 + (int)this_cpu_choice());
		assert_string_equal(c.err, want);
	}
}

/* settle info names the active implementations ("  primitives: popcount
 * NAME, bswap NAME"). */
static void test_settle_info(void **state)
{
	const char *settle = getenv("SETTLE");
	char cmd[512], line[512];
	FILE *f;
	int seen = 0, ok = 0;

	(void)state;
	if (!settle || !*settle) {
		print_message("SETTLE not set: settle info not checked\n");
		skip();
	}
	snprintf(cmd, sizeof(cmd), "SETTLE_POPCOUNT=swar '%s' info 2>&1",
		 settle);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "primitives:"))
			continue;
		seen = 1;
		ok = strstr(line, "popcount swar") != NULL;
	}
	assert_int_equal(pclose(f), 0);
	assert_true(seen);
	assert_true(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_models),
#if SETTLE_ARCH_X86_64
		cmocka_unit_test(test_max_leaf_below_7),
		cmocka_unit_test(test_osxsave_clear),
		cmocka_unit_test(test_avx2_without_avx),
		cmocka_unit_test(test_avx2_without_popcnt),
		cmocka_unit_test(test_avx2_without_ssse3),
		cmocka_unit_test(test_refusal_names),
		cmocka_unit_test(test_xcr0_without_zmm),
		cmocka_unit_test(test_avx512_subsets),
#elif SETTLE_ARCH_AARCH64
		cmocka_unit_test(test_features),
#endif
		cmocka_unit_test(test_env_unset),
		cmocka_unit_test(test_env_forced),
		cmocka_unit_test(test_env_unknown),
		cmocka_unit_test(test_env_odd_values),
		cmocka_unit_test(test_settle_info),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
