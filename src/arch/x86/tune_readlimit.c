/*
 * tune_readlimit.c - x86-64: below tune_below (AMD family 19h: 64 KiB)
 * the read limit reads with 256-bit or 512-bit loads, whichever read
 * 16 KiB faster when the process started (src/prim/readlimit.h,
 * settle_arch_read_limit_tune()). A file of its own: it calls the kernel
 * and the ranges, and the dispatch calls it.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prim/readlimit.h"
#include "settle.h" /* settle_median_inplace() */

#define TUNE_BYTES  ((size_t)16 << 10) /* half the L1d of Zen 3 and 4 */
#define TUNE_PASSES 64                 /* ~5 us a sample at 200 B/ns */
#define TUNE_ROUNDS 31                 /* samples of each width */

static struct settle_read_limit_timing timing;
/* kept by pointer (settle_read_limit_use_timed()): static, so that a
 * thread that took one while the tune ran never reads a dead frame */
static struct settle_read_limit_widths tuned, ymm;
static int claimed;            /* the first caller times, others return */
static volatile uint64_t kept; /* the sum of the loads */

/* ns of TUNE_PASSES passes of the avx512 kernel under *w over the
 * TUNE_BYTES at buf */
static double sample(const struct settle_read_limit_widths *w,
		     const void *buf, uint64_t *sink)
{
	struct timespec a, b;

	settle_read_limit_use_timed(w);
	clock_gettime(CLOCK_MONOTONIC, &a);
	*sink += settle_read_limit_avx512(buf, TUNE_BYTES, TUNE_PASSES);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a.tv_sec) * 1e9 +
	       (double)(b.tv_nsec - a.tv_nsec);
}

void settle_arch_read_limit_tune(enum settle_read_limit_impl which)
{
	const struct settle_read_limit_widths *base =
		settle_read_limit_widths_of(settle_cpuid_this());
	double y[TUNE_ROUNDS], z[TUNE_ROUNDS];
	uint64_t sink = 0;
	unsigned char *buf;

	if (which != SETTLE_READ_LIMIT_AVX512 || base->tune_below <= TUNE_BYTES)
		return;
	if (__atomic_exchange_n(&claimed, 1, __ATOMIC_ACQ_REL))
		return;
	buf = aligned_alloc(64, TUNE_BYTES);
	if (!buf)
		return;
	memset(buf, 1, TUNE_BYTES);
	ymm = *base;
	ymm.zmm_min = base->tune_below;
	sample(&ymm, buf, &sink); /* both warm */
	sample(base, buf, &sink);
	for (int r = 0; r < TUNE_ROUNDS; r++) {
		if (r % 2) {
			z[r] = sample(base, buf, &sink);
			y[r] = sample(&ymm, buf, &sink);
		} else {
			y[r] = sample(&ymm, buf, &sink);
			z[r] = sample(base, buf, &sink);
		}
	}
	free(buf);
	kept = sink;
	timing.bytes = TUNE_BYTES;
	timing.passes = TUNE_PASSES;
	timing.ymm_ns = settle_median_inplace(y, TUNE_ROUNDS) / TUNE_PASSES;
	timing.zmm_ns = settle_median_inplace(z, TUNE_ROUNDS) / TUNE_PASSES;
	tuned = settle_read_limit_widths_timed(base, timing.ymm_ns,
					       timing.zmm_ns);
	timing.bits = tuned.zmm_min ? 256 : 512;
	settle_read_limit_use_timed(&tuned);
	__atomic_store_n(&timing.done, 1, __ATOMIC_RELEASE);
}

const struct settle_read_limit_timing *settle_read_limit_timing(void)
{
	return __atomic_load_n(&timing.done, __ATOMIC_ACQUIRE) ? &timing :
								 NULL;
}
