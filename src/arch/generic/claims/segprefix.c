/*
 * segprefix.c - generic: the segprefix claim exists on every architecture,
 * so that `settle list` and result files name it, but a segment-prefixed
 * load (%fs:, %gs:) is an x86-64 instruction: every variant is listed as
 * unavailable, "x86-64 only". The claim itself is
 * src/arch/x86/claims/segprefix.c.
 */
#include <stddef.h>

#include "claims.h"
#include "segprefix.h"

static uint64_t not_run(void *state, const void *arg, uint64_t iters)
{
	(void)state;
	(void)arg;
	(void)iters;
	return 0;
}

static const char *x86_only(void *state, const void *arg)
{
	(void)state;
	(void)arg;
	return "x86-64 only";
}

#define VARIANT(n, d)							\
	{ .name = n, .run = not_run, .unavailable = x86_only,		\
	  .ops_per_iter = 8, .description = d }

static const struct settle_variant seg_variants[] = {
	VARIANT("plain-dep", "plain dependent loads"),
	VARIANT("plain-ind", "plain independent loads"),
	VARIANT("fs-dep", "%fs: dependent loads"),
	VARIANT("fs-ind", "%fs: independent loads"),
	VARIANT("gs0-dep", "%gs: with base 0, dependent loads"),
	VARIANT("gs0-ind", "%gs: with base 0, independent loads"),
	VARIANT("gs-dep", "%gs: with a non-zero base, dependent loads"),
	VARIANT("gs-ind", "%gs: with a non-zero base, independent loads"),
};

const struct settle_claim settle_claim_segprefix = {
	.name = "segprefix",
	.description = "user-space cost of a %fs:/%gs: prefixed load vs a "
		       "plain load (x86-64 only)",
	.title = "segprefix: loads through %fs:/%gs: against plain loads "
		 "(x86-64 only)",
	.op_name = "load",
	.variants = seg_variants,
	.nvariants = sizeof(seg_variants) / sizeof(seg_variants[0]),
	.baseline = "plain-dep",
	.conclude = settle_segprefix_conclude,
	.check_iters = 64,
	.show_cycles = 1,
};
