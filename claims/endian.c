/*
 * endian.c - claim "endian": what keeping a value in a fixed, non-native
 * byte order costs when every update swaps it in and out.
 *
 * The four loops of the 2009 argument (docs/founding-experiments.md,
 * "endian"): a native long, a 32-bit value stored wrong-endian, a native
 * u64 and a u64 stored wrong-endian, each incremented iters times.
 * "Wrong" is the byte order that is not the host's: big-endian on x86-64
 * and AArch64 (the original case, a little-endian host and a big-endian
 * format), little-endian on s390x (a big-endian host and a little-endian
 * format such as ext4's). Each loop is built twice
 * (claims/endian_loops.c): at -O0, as the original was measured, and at
 * -O2 with the value kept in a register. One operation is one increment;
 * throughput counts the bytes of the value converted: 8 for the 64-bit
 * ones (as the original did: its 350 MB/s is we64's 800 MB in 2.26 s), 4
 * for we32, the native unsigned long's size for long.
 *
 * The scale section gives, per variant, the seconds per 100 million
 * increments (the original loop count), the conversion rate in MB/s
 * (10^6 bytes/s) and the share of a device's time it would take at
 * --device-mbps (13 MB/s, the file system of the original, by default).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "claims.h"
#include "endian_loops.h"
#include "settle.h"

#define DEFAULT_DEVICE_MBPS 13.0

/* A loop of claims/endian_loops.c, the variant's arg. */
struct endian_loop {
	uint64_t (*fn)(uint64_t iters);
};

static uint64_t run_loop(void *state, const void *arg, uint64_t iters)
{
	(void)state;
	return ((const struct endian_loop *)arg)->fn(iters);
}

#define ENDIAN_LOOP(l, b)						\
	static const struct endian_loop l##_##b = { settle_endian_##l##_##b }

ENDIAN_LOOP(long, O0);
ENDIAN_LOOP(we32, O0);
ENDIAN_LOOP(u64, O0);
ENDIAN_LOOP(we64, O0);
ENDIAN_LOOP(long, O2);
ENDIAN_LOOP(we32, O2);
ENDIAN_LOOP(u64, O2);
ENDIAN_LOOP(we64, O2);

#define D_LONG "native unsigned long, x++"
#define D_WE32 "u32 stored wrong-endian (the other byte order): " \
	       "x = bswap32(bswap32(x) + 1)"
#define D_U64 "native u64, x++"
#define D_WE64 "u64 stored wrong-endian (the other byte order): " \
	       "x = bswap64(bswap64(x) + 1)"

#define ENDIAN_VARIANT(loop, b, desc)					\
	{								\
		.name = #loop,						\
		.build = "-" #b,					\
		.description = desc,					\
		.run = run_loop,					\
		.arg = &loop##_##b,					\
	}

static const struct settle_variant variants[] = {
	ENDIAN_VARIANT(long, O0, D_LONG),
	ENDIAN_VARIANT(we32, O0, D_WE32),
	ENDIAN_VARIANT(u64, O0, D_U64),
	ENDIAN_VARIANT(we64, O0, D_WE64),
	ENDIAN_VARIANT(long, O2, D_LONG " (value in a register)"),
	ENDIAN_VARIANT(we32, O2, D_WE32 " (in a register)"),
	ENDIAN_VARIANT(u64, O2, D_U64 " (value in a register)"),
	ENDIAN_VARIANT(we64, O2, D_WE64 " (in a register)"),
};

/* Bytes of the value variant increments: 4 for we32, the native unsigned
 * long's for long, 8 for u64 and we64 (and an unnamed one). */
static double value_bytes(const char *variant)
{
	if (variant && !strcmp(variant, "we32"))
		return 4;
	if (variant && !strcmp(variant, "long"))
		return sizeof(unsigned long);
	return 8;
}

static size_t endian_scale(const struct settle_result *r,
			   const struct settle_scale_ctx *ctx,
			   struct settle_figure *out, size_t max)
{
	double ns = r->sum.median; /* per increment */
	double dev = ctx->device_mbps;
	double mbps, share;
	char note[48];
	size_t n = 0;

	if (r->skipped || !isfinite(ns) || ns <= 0)
		return 0;
	if (!isfinite(dev) || dev <= 0)
		dev = DEFAULT_DEVICE_MBPS;
	/* bytes per ns = 10^9 bytes/s = 10^3 MB/s */
	mbps = value_bytes(r->variant) / ns * 1e3;
	share = dev / mbps * 100;
	snprintf(note, sizeof(note), "of a %g MB/s device", dev);

	if (n < max)
		settle_figure_set(&out[n++], "per 100 M", "s", ns * 1e8 / 1e9, "");
	if (n < max)
		settle_figure_set(&out[n++], "MB/s", "MB/s", mbps,
		       "the value's bytes per increment (we32: 4)");
	if (n < max)
		settle_figure_set(&out[n++], "device share", "%", share, note);
	return n;
}

/*
 * What the fixed byte order costs: we32 and we64 against the native long
 * at -O0 and -O2, and the slowest conversion in MB/s (the value's bytes)
 * against the device.
 */
static int endian_conclude(const struct settle_result *res, size_t n,
			   const struct settle_conclude_ctx *ctx,
			   struct settle_conclusion *out)
{
	static const char *const lb[4] = { "-O0 we32", "-O0 we64", "-O2 we32",
					   "-O2 we64" };
	static const char *const num[4] = { "O0_we32", "O0_we64", "O2_we32",
					    "O2_we64" };
	const struct settle_result *r[4];
	double dev = ctx->device_mbps > 0 ? ctx->device_mbps : DEFAULT_DEVICE_MBPS;
	double mbps = INFINITY;

	/* the ratios are to the native loops: none to one whose time is
	 * not the work's (a ratio to an invalid baseline was quoted) */
	if (!settle_result_find(res, n, "-O0 long", 0) ||
	    !settle_result_find(res, n, "-O2 long", 0))
		return 0;
	for (int k = 0; k < 4; k++) {
		r[k] = settle_result_find(res, n, lb[k], 0);
		if (!r[k] || !r[k]->has_cmp || !(r[k]->cmp.ratio > 0))
			return 0;
		if (value_bytes(r[k]->variant) / r[k]->sum.median * 1e3 < mbps)
			mbps = value_bytes(r[k]->variant) / r[k]->sum.median *
			       1e3;
		settle_conclusion_number(out, num[k], r[k]->cmp.ratio, "x");
		settle_conclusion_row(out, r[k]);
	}
	snprintf(out->sentence, sizeof(out->sentence), "keeping the value in "
		 "the other byte order costs %.2fx (we32) and %.2fx (we64) "
		 "the native loop at -O0, %.2fx and %.2fx at -O2; the slowest "
		 "conversion still runs at %.0f MB/s, %.0f times the %g MB/s "
		 "device", r[0]->cmp.ratio, r[1]->cmp.ratio, r[2]->cmp.ratio,
		 r[3]->cmp.ratio, mbps, mbps / dev, dev);
	settle_conclusion_number(out, "slowest_mbps", mbps, "MB/s");
	settle_conclusion_number(out, "device_mbps", dev, "MB/s");
	return 1;
}

const struct settle_claim settle_claim_endian = {
	.name = "endian",
	.description = "cost of a fixed on-media byte order (2009 loops)",
	.title = "endian: increment a value stored native or wrong-endian",
	.op_name = "increment",
	.variants = variants,
	.nvariants = sizeof(variants) / sizeof(variants[0]),
	.baseline = "long",
	.conclude = endian_conclude,
	.bytes_per_op = 0, /* per variant: the scale's MB/s */
	.original = "i386 notebook, -O0, per 100 M: long 0.454 s, we32 "
		    "0.880 s, u64 0.504 s, we64 2.260 s",
	.check_iters = 1000,
	.show_cycles = 1,
	.scale = endian_scale,
};
