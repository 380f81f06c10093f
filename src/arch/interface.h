/*
 * interface.h - what an architecture provides to the portable code
 * (private to settle). The portable code (src/cpu, src/prim, src/timer,
 * src/env, src/runner) calls only these, and holds no #if on the target.
 *
 * One folder per architecture, src/arch/<arch>/, chosen by the Makefile
 * from `$(CC) -dumpmachine` (or ARCH=<arch>). It holds:
 *   arch.h      the types and inline functions below that differ per
 *               architecture (struct settle_cpuid, enum settle_cpu_feature,
 *               the counter reads, SETTLE_ARCH_NAME); every folder has one;
 *   *.c         the library's architecture-specific code (libsettle);
 *   claims/X.c  the claims' architecture-specific code;
 *   test_*.sh   shell tests of that architecture (make test).
 * src/arch/generic/ holds the portable fallbacks, built with no
 * architecture-specific code: a file of the architecture's folder replaces
 * the generic file of the same name, so a new architecture starts as a
 * folder with an arch.h and grows file by file. ARCH=generic builds the
 * fallbacks alone on any Linux target.
 *
 * Include this header (or src/cpu/cpu.h), never "arch.h" directly from a
 * .c file: the include path (-Isrc/arch/<arch> -Isrc/arch/generic) finds
 * the right arch.h only from a header outside the architecture folders.
 */
#ifndef SETTLE_ARCH_INTERFACE_H
#define SETTLE_ARCH_INTERFACE_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "settle.h"
#include "settle_bits.h"
#include "settle_byteorder.h"

/*
 * Which architecture this build is for: SETTLE_ARCH_NAME ("x86-64",
 * "AArch64", "generic"), and exactly one of SETTLE_ARCH_X86_64,
 * SETTLE_ARCH_AARCH64, SETTLE_ARCH_GENERIC is 1, the others 0 (for the
 * rows of claims and the cases of tests that exist on one architecture).
 */
#ifndef SETTLE_ARCH_X86_64
#define SETTLE_ARCH_X86_64 0
#endif
#ifndef SETTLE_ARCH_AARCH64
#define SETTLE_ARCH_AARCH64 0
#endif
#ifndef SETTLE_ARCH_GENERIC
#define SETTLE_ARCH_GENERIC 0
#endif

/* ---- CPU identity and features (arch cpu.c) ------------------------------ */

/*
 * Read this CPU's identification words into *id (x86-64: cpuid leaves and
 * XCR0; AArch64: getauxval(AT_HWCAP) and AT_HWCAP2; generic: nothing).
 * Never fails.
 */
void settle_cpuid_read(struct settle_cpuid *id);

/*
 * Pure decision: the usable features of id, one bit per
 * enum settle_cpu_feature (the architecture's list in its arch.h).
 */
uint64_t settle_cpu_features_of(const struct settle_cpuid *id);

/* Lower-case name of a feature ("avx512vpopcntdq", "sve"), or "?". */
const char *settle_cpu_feature_name(enum settle_cpu_feature f);

/*
 * Fill the CPU identity of m: vendor, model_name, family, model, stepping
 * (x86-64: cpuid; AArch64: MIDR_EL1 implementer, part number, revision),
 * hypervisor and hypervisor_vendor. m->emulator is already set (qemu-user
 * shows the host's /proc/cpuinfo, which then names the wrong CPU). Fields
 * it cannot read stay empty or 0. Never fails.
 */
void settle_arch_describe_cpu(struct settle_machine *m);

/* ---- the cycle counter (arch timer.c, inline reads in arch.h) ------------ */

struct settle_arch_counter {
	enum settle_clock clock; /* SETTLE_CLOCK_TSC, _CNTVCT */
	double nominal_ghz;      /* ticks per ns the architecture states
				    (CNTFRQ_EL0), or 0: calibrate only */
	const char *why;         /* why it can or cannot be used (static) */
};

/*
 * Can this CPU's counter time samples (fixed rate, readable from user
 * space)? Returns 0 and fills *c when it can; -1 with c->why saying why
 * not (then CLOCK_MONOTONIC_RAW is the clock).
 * settle_arch_counter_start() and _stop() (inline, arch.h) read it in
 * ticks, ordered so that start is not taken before the code before it
 * and stop not after the code after it.
 */
int settle_arch_counter_probe(struct settle_arch_counter *c);

/*
 * n repetitions of 64 dependent register additions (one cycle each on
 * every core of the architecture; 64 additions of a C loop through
 * settle_keep() in the generic build). Returns a value that depends on
 * every addition. The core-clock estimate divides 64 n by its time.
 */
uint64_t settle_arch_add_chain(uint64_t n);

/* ---- selftest chains (arch chains.c) ------------------------------------- */

/*
 * The selftest's work: blocks repetitions of 16 dependent register
 * additions in one loop, aligned so that its placement does not change
 * its speed. Returns a value that depends on every addition.
 */
uint64_t settle_arch_work_chain(uint64_t blocks);

/* A dependent chain of one instruction: 64 of them per repetition. */
struct settle_arch_chain {
	const char *insn;                /* "imul", "mul", "popcnt", "cnt" */
	uint64_t (*run)(uint64_t n);     /* n x 64 dependent instructions;
					    NULL: not measurable here */
	const char *(*unavailable)(void);/* NULL, or why this CPU cannot run
					    it now ("CPU lacks POPCNT") */
};

/*
 * The latency chains of settle selftest: *add the reference (register
 * additions, 1 cycle each), *mul a multiply, *count a bit count, each of
 * the others timed against *add in the same process. A chain with run
 * NULL is not measured here (printed as n/a); *add always has one.
 */
void settle_arch_latency_chains(struct settle_arch_chain *add,
				struct settle_arch_chain *mul,
				struct settle_arch_chain *count);

/*
 * NULL when the selftest's layout trials can run here, or why not (a
 * static string). Their workload, the placed popcount loops of
 * src/runner/placed_popcnt.c, is compiled into every build, but only on
 * x86-64 is it the POPCNT instruction whose cost with its place is
 * documented (docs/layouts.md); elsewhere the trials are not run.
 */
const char *settle_arch_placed_unavailable(void);

/* ---- dispatch (arch dispatch_popcount.c, dispatch_bswap.c) -------------- */

/*
 * Pure decisions (see src/prim/dispatch.h): settle_popcount_choose(),
 * settle_popcount_runs_on(), settle_bswap_choose(),
 * settle_bswap_runs_on(), as functions of *id only.
 */

/* The kernel of implementation which, or NULL when this architecture has
 * none (SWAR is portable: src/prim/popcount.c). */
settle_popcount_fn settle_arch_popcount_kernel(enum settle_popcount_impl which);

/*
 * What settle_popcount() calls when which, an implementation of this
 * architecture, is chosen or forced on id (and settle_popcount_path_fn()
 * returns): its kernel, or a blend (x86-64: AVX2 with POPCNT, POPCNT
 * below a length).
 */
settle_popcount_fn settle_arch_popcount_path(enum settle_popcount_impl which,
					     const struct settle_cpuid *id);

/* Why id cannot run which, an implementation of this architecture that it
 * cannot run ("this CPU lacks SVE"), written to buf (len bytes). */
void settle_arch_popcount_refusal(enum settle_popcount_impl which,
				  const struct settle_cpuid *id, char *buf,
				  size_t len);

/* The byte-swap kernel of which for elem_bits 16, 32 or 64, or NULL when
 * this architecture has none (scalar is portable: src/prim/bswap.c). */
settle_bswap_fn settle_arch_bswap_kernel(enum settle_bswap_impl which,
					 unsigned elem_bits);

/* The loop of which without its swap, in place or a copy (the bswap
 * claim's load-store references, src/prim/bswap_kernels.h), or NULL when
 * this architecture has none. */
typedef void (*settle_bswap_touch_fn)(void *dst, const void *src,
				      size_t nbytes, size_t esz);
settle_bswap_touch_fn settle_arch_bswap_touch_kernel(enum settle_bswap_impl which);

/* Why id cannot run which (as for popcount). */
void settle_arch_bswap_refusal(enum settle_bswap_impl which,
			       const struct settle_cpuid *id, char *buf,
			       size_t len);

#endif
