/*
 * segprefix.c - the user-space cost of a segment-prefixed load (%fs:, %gs:)
 * against a plain load, dependent and independent.
 *
 * The syscall argument (docs/founding-experiments.md, "syscall") was about
 * one more segment-prefixed access on a hot path. On x86-64 the prefix
 * only adds the segment base to the address (Intel SDM vol. 1, 3.3.4
 * "Segmentation in 64-bit mode"; AMD APM vol. 2, 4.5.3): with a base of 0
 * the load is a plain load, with a non-zero base the address needs one
 * more addition. Measured on the first machine (docs/founding-experiments.md,
 * "Facts measured on the first machine"): a dependent load takes 5.05 core
 * cycles plain or through %gs: with base 0, 7.07 through %fs: or %gs: with
 * a non-zero base; independent loads run 3 per cycle either way.
 *
 * Every variant runs the same loop, written in assembly so that only the
 * eight loads differ: for a base b in the segment, slot i at b + 8 i (one
 * 64-byte line) holds the value b + 8 i.
 *
 *   *-dep  mov seg:(r), r eight times from r = b: each load needs the
 *          previous one's value, so the loop runs at the load latency.
 *   *-ind  mov seg:8i(b), r_i for i = 0..7 into eight registers: the loads
 *          are independent, so the loop runs at the load throughput.
 *
 *   plain  no prefix; b is the absolute address of a buffer line.
 *   fs     %fs:, whose base is the thread pointer. The %fs: base is never
 *          changed: glibc's thread-local storage and the stack protector's
 *          canary live there. b is the offset of a _Thread_local array from
 *          the thread pointer, found at %fs:0 (the x86-64 psABI TLS layout
 *          puts a pointer to the thread control block at its own address;
 *          U. Drepper, "ELF Handling For Thread-Local Storage", 3.4.6).
 *   gs0    %gs: with base 0, the Linux default in user space; b is the
 *          absolute address, as for plain.
 *   gs     %gs: with its base set to the buffer; b is the line's offset.
 *          The base is written with wrgsbase when the kernel enables it
 *          (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE; without that bit the
 *          instruction raises SIGILL), otherwise with arch_prctl(2). The gs0
 *          variants need base 0, so a gs run sets the base on entry and puts
 *          0 back before it returns; the GS base is 0 between runs.
 *
 * Check value: iters when the final registers hold the expected values,
 * 0 otherwise.
 */
#if !defined(__x86_64__)
#error "segprefix.c measures x86-64 segment prefixes"
#endif

#include <math.h>
#include <asm/prctl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "claims.h"
#include "segprefix.h"

#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1ul << 1) /* Linux arch/x86 uapi asm/hwcap2.h */
#endif

#define LINE 64 /* bytes: 8 slots of 8 bytes */

/* The %fs: target: one line of this thread's TLS. */
static _Thread_local _Alignas(LINE) uint64_t seg_tls[8];

struct seg_state {
	uint64_t *buf;        /* two lines: [0..8) absolute, [8..16) offsets */
	uint64_t fs_base;     /* thread pointer at set-up */
	int gs_wr;            /* 1: wrgsbase, 0: arch_prctl */
	const char *gs0_why;  /* why the gs0 variants cannot run */
	const char *gs_why;   /* why the gs variants cannot run */
};

/* ------------------------------------------------------------------ */
/* The loops.                                                          */

#define DEP1(seg) "movq " seg "(%0), %0\n\t"
#define DEP8(seg) DEP1(seg) DEP1(seg) DEP1(seg) DEP1(seg) \
		  DEP1(seg) DEP1(seg) DEP1(seg) DEP1(seg)

/* r = b; iters times: r = seg:[r], 8 times. Returns r (b when correct). */
#define DEP_LOOP(fn, seg)						\
static uint64_t fn(uint64_t b, uint64_t iters)				\
{									\
	uint64_t r = b;							\
									\
	if (iters == 0)							\
		return b;						\
	__asm__ __volatile__(".p2align 6\n"				\
			     "1:\n\t"					\
			     DEP8(seg)					\
			     "decq %1\n\t"				\
			     "jnz 1b"					\
			     : "+r"(r), "+r"(iters) : : "memory", "cc");\
	return r;							\
}

/* iters times: r_i = seg:[b + 8 i] for i = 0..7. Returns 1 when the last
 * repetition loaded the expected values. */
#define IND_LOOP(fn, seg)						\
static int fn(uint64_t b, uint64_t iters)				\
{									\
	uint64_t r[8];							\
									\
	if (iters == 0)							\
		return 1;						\
	__asm__ __volatile__(".p2align 6\n"				\
			     "1:\n\t"					\
			     "movq " seg "0(%9), %0\n\t"		\
			     "movq " seg "8(%9), %1\n\t"		\
			     "movq " seg "16(%9), %2\n\t"		\
			     "movq " seg "24(%9), %3\n\t"		\
			     "movq " seg "32(%9), %4\n\t"		\
			     "movq " seg "40(%9), %5\n\t"		\
			     "movq " seg "48(%9), %6\n\t"		\
			     "movq " seg "56(%9), %7\n\t"		\
			     "decq %8\n\t"				\
			     "jnz 1b"					\
			     : "=&r"(r[0]), "=&r"(r[1]), "=&r"(r[2]),	\
			       "=&r"(r[3]), "=&r"(r[4]), "=&r"(r[5]),	\
			       "=&r"(r[6]), "=&r"(r[7]), "+r"(iters)	\
			     : "r"(b) : "memory", "cc");		\
	for (int i = 0; i < 8; i++)					\
		if (r[i] != b + 8 * (uint64_t)i)			\
			return 0;					\
	return 1;							\
}

DEP_LOOP(dep_plain, "")
DEP_LOOP(dep_fs, "%%fs:")
DEP_LOOP(dep_gs, "%%gs:")
IND_LOOP(ind_plain, "")
IND_LOOP(ind_fs, "%%fs:")
IND_LOOP(ind_gs, "%%gs:")

/* ------------------------------------------------------------------ */
/* Segment bases.                                                      */

/* The thread pointer: the word at %fs:0 holds its own address. */
static uint64_t fs_base(void)
{
	uint64_t tp;

	__asm__ __volatile__("movq %%fs:0, %0" : "=r"(tp));
	return tp;
}

static int gs_get(const struct seg_state *s, uint64_t *base)
{
	unsigned long v;

	if (s->gs_wr) {
		__asm__ __volatile__("rdgsbase %0" : "=r"(*base));
		return 0;
	}
	if (syscall(SYS_arch_prctl, ARCH_GET_GS, &v))
		return -1;
	*base = v;
	return 0;
}

static int gs_set(const struct seg_state *s, uint64_t base)
{
	if (s->gs_wr) {
		__asm__ __volatile__("wrgsbase %0" : : "r"(base) : "memory");
		return 0;
	}
	return syscall(SYS_arch_prctl, ARCH_SET_GS, base) ? -1 : 0;
}

/* Decide how the GS base is written and check that it can be. */
static void gs_probe(struct seg_state *s)
{
	uint64_t base;

	s->gs_wr = (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) != 0;
	if (gs_get(s, &base)) {
		s->gs0_why = s->gs_why = "cannot read the GS base";
		return;
	}
	if (base != 0) {
		s->gs0_why = s->gs_why = "GS base already in use";
		return;
	}
	if (gs_set(s, (uintptr_t)s->buf) || gs_get(s, &base) ||
	    base != (uintptr_t)s->buf)
		s->gs_why = "cannot set the GS base";
	if (gs_set(s, 0) || gs_get(s, &base) || base != 0)
		s->gs0_why = s->gs_why = "cannot restore GS base 0";
}

/* ------------------------------------------------------------------ */
/* Variants.                                                           */

static uint64_t abs_b(const struct seg_state *s)
{
	return (uintptr_t)s->buf;
}

static uint64_t off_b(void)
{
	return LINE; /* the second line of buf, relative to buf */
}

/* The thread-local line's offset from the thread pointer, or 0 when run
 * on another thread than set-up (its seg_tls is not filled in). */
static uint64_t tls_b(const struct seg_state *s)
{
	if (fs_base() != s->fs_base)
		return 0;
	return (uintptr_t)&seg_tls[0] - s->fs_base;
}

static uint64_t run_plain_dep(void *p, const void *arg, uint64_t iters)
{
	uint64_t b = abs_b(p);
	(void)arg;

	return dep_plain(b, iters) == b ? iters : 0;
}

static uint64_t run_plain_ind(void *p, const void *arg, uint64_t iters)
{
	(void)arg;
	return ind_plain(abs_b(p), iters) ? iters : 0;
}

static uint64_t run_fs_dep(void *p, const void *arg, uint64_t iters)
{
	uint64_t b = tls_b(p);
	(void)arg;

	if (b == 0)
		return 0;
	return dep_fs(b, iters) == b ? iters : 0;
}

static uint64_t run_fs_ind(void *p, const void *arg, uint64_t iters)
{
	uint64_t b = tls_b(p);
	(void)arg;

	if (b == 0)
		return 0;
	return ind_fs(b, iters) ? iters : 0;
}

/* Run with GS base 0 (checked: another base would fault). */
static uint64_t run_gs0(void *p, uint64_t iters, int dep)
{
	struct seg_state *s = p;
	uint64_t base, b = abs_b(s);

	if (gs_get(s, &base) || base != 0)
		return 0;
	if (dep)
		return dep_gs(b, iters) == b ? iters : 0;
	return ind_gs(b, iters) ? iters : 0;
}

static uint64_t run_gs0_dep(void *p, const void *arg, uint64_t iters)
{
	(void)arg;
	return run_gs0(p, iters, 1);
}

static uint64_t run_gs0_ind(void *p, const void *arg, uint64_t iters)
{
	(void)arg;
	return run_gs0(p, iters, 0);
}

/* Run with GS base = buf, then put base 0 back. */
static uint64_t run_gs(void *p, uint64_t iters, int dep)
{
	struct seg_state *s = p;
	uint64_t b = off_b();
	int ok;

	if (gs_set(s, (uintptr_t)s->buf))
		return 0;
	if (dep)
		ok = dep_gs(b, iters) == b;
	else
		ok = ind_gs(b, iters);
	if (gs_set(s, 0))
		return 0;
	return ok ? iters : 0;
}

static uint64_t run_gs_dep(void *p, const void *arg, uint64_t iters)
{
	(void)arg;
	return run_gs(p, iters, 1);
}

static uint64_t run_gs_ind(void *p, const void *arg, uint64_t iters)
{
	(void)arg;
	return run_gs(p, iters, 0);
}

static const char *gs0_unavailable(void *p, const void *arg)
{
	(void)arg;
	return ((struct seg_state *)p)->gs0_why;
}

static const char *gs_unavailable(void *p, const void *arg)
{
	(void)arg;
	return ((struct seg_state *)p)->gs_why;
}

/* ------------------------------------------------------------------ */
/* Set-up and tear-down.                                               */

static void *seg_setup(const struct settle_params *prm, char *err, size_t len)
{
	struct seg_state *s = calloc(1, sizeof(*s));

	if (s) /* placed by the layout being measured (docs/layouts.md) */
		s->buf = settle_alloc(prm, 4096, LINE);
	if (!s || !s->buf) {
		free(s);
		snprintf(err, len, "out of memory");
		return NULL;
	}
	memset(s->buf, 0, 4096);
	s->fs_base = fs_base();
	for (int i = 0; i < 8; i++) {
		s->buf[i] = abs_b(s) + 8 * (uint64_t)i;
		s->buf[8 + i] = off_b() + 8 * (uint64_t)i;
		seg_tls[i] = tls_b(s) + 8 * (uint64_t)i;
	}
	gs_probe(s);
	return s;
}

static void seg_teardown(void *p)
{
	struct seg_state *s = p;
	uint64_t base;

	if (!s)
		return;
	/* Runs leave base 0; make sure, unless the base was not ours. */
	if (!s->gs0_why && !gs_get(s, &base) && base != 0)
		gs_set(s, 0);
	memset(seg_tls, 0, sizeof(seg_tls));
	settle_free(s->buf);
	free(s);
}

#define DEP_DESC " loads, each from the address the previous one loaded"
#define IND_DESC ": 8 independent loads into 8 registers"

static const struct settle_variant seg_variants[] = {
	{ .name = "plain-dep", .run = run_plain_dep, .ops_per_iter = 8,
	  .description = "plain" DEP_DESC },
	{ .name = "plain-ind", .run = run_plain_ind, .ops_per_iter = 8,
	  .description = "plain" IND_DESC },
	{ .name = "fs-dep", .run = run_fs_dep, .ops_per_iter = 8,
	  .description = "%fs: (thread pointer base)" DEP_DESC },
	{ .name = "fs-ind", .run = run_fs_ind, .ops_per_iter = 8,
	  .description = "%fs: (thread pointer base)" IND_DESC },
	{ .name = "gs0-dep", .run = run_gs0_dep, .ops_per_iter = 8,
	  .unavailable = gs0_unavailable,
	  .description = "%gs: with base 0" DEP_DESC },
	{ .name = "gs0-ind", .run = run_gs0_ind, .ops_per_iter = 8,
	  .unavailable = gs0_unavailable,
	  .description = "%gs: with base 0" IND_DESC },
	{ .name = "gs-dep", .run = run_gs_dep, .ops_per_iter = 8,
	  .unavailable = gs_unavailable,
	  .description = "%gs: with a non-zero base" DEP_DESC },
	{ .name = "gs-ind", .run = run_gs_ind, .ops_per_iter = 8,
	  .unavailable = gs_unavailable,
	  .description = "%gs: with a non-zero base" IND_DESC },
};

const struct settle_claim settle_claim_segprefix = {
	.name = "segprefix",
	.description = "user-space cost of a %fs:/%gs: prefixed load vs a "
		       "plain load",
	.title = "segprefix: loads through %fs:/%gs: against plain loads, "
		 "dependent and independent",
	.op_name = "load",
	.variants = seg_variants,
	.nvariants = sizeof(seg_variants) / sizeof(seg_variants[0]),
	.baseline = "plain-dep",
	.original = "no posted figure (the argument was about the syscall "
		    "path); on the reference machine a dependent load took "
		    "5.05 core cycles plain or through %gs: with base 0, "
		    "7.07 through %fs: or %gs: with a non-zero base; "
		    "independent loads ran 3 per cycle either way",
	.conclude = settle_segprefix_conclude,
	.check_iters = 64,
	.show_cycles = 1,
	.setup = seg_setup,
	.teardown = seg_teardown,
};
