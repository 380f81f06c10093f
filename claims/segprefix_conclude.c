/*
 * segprefix_conclude.c - the segprefix claim's conclusion (see
 * segprefix.h). It reads results only, so it is portable: the claim is
 * measured on x86-64 (src/arch/x86/claims/segprefix.c), but a result file
 * of it is concluded on any architecture (settle show, compare).
 */
#include <math.h>
#include <stdio.h>

#include "segprefix.h"
#include "stats/rules.h"

/*
 * Whether the extra cycles are estimated (not counted) from a core clock
 * whose two estimates, at the start and at the end of the run, differ by
 * more than settle_noise_drifted() allows: then they are given at both.
 */
static int drifted(const struct settle_result *fs,
		   const struct settle_conclude_ctx *ctx)
{
	return !settle_result_cycles_counted(fs) &&
	       settle_noise_drifted(settle_clock_drift(ctx->core_ghz_before,
						       ctx->core_ghz_after));
}

/*
 * The extra cost of one prefixed dependent load over a plain one (the
 * ratio to it less one, times its time), in core cycles where the core
 * clock is known (from the estimates at both ends of
 * the run, where they differ), and what one more per system call would
 * add to 10 M of them.
 */
int settle_segprefix_conclude(const struct settle_result *res, size_t n,
			      const struct settle_conclude_ctx *ctx,
			      struct settle_conclusion *out)
{
	const struct settle_result *plain = settle_result_find(res, n,
							       "plain-dep", 0);
	const struct settle_result *fs = settle_result_find(res, n, "fs-dep", 0);
	double ns, cyc, lo = NAN, hi = NAN;
	char cycles[160] = "";

	if (!plain || !fs || !fs->has_cmp)
		return 0;
	/* from the ratio measured in the same rounds, applied to the plain
	 * load's time: a difference of the two medians, each with its own
	 * noise, once gave -1.91 cycles beside a ratio of 1.251x */
	ns = (fs->cmp.ratio - 1) * plain->sum.median;
	/* no difference of a counted and an estimated figure */
	cyc = fs->cycles_per_op > 0 && plain->cycles_per_op > 0 &&
	      settle_result_cycles_counted(fs) ==
	      settle_result_cycles_counted(plain) ?
	      (fs->cmp.ratio - 1) * plain->cycles_per_op : NAN;
	if (isfinite(cyc) && drifted(fs, ctx)) {
		lo = ns * fmin(ctx->core_ghz_before, ctx->core_ghz_after);
		hi = ns * fmax(ctx->core_ghz_before, ctx->core_ghz_after);
		snprintf(cycles, sizeof(cycles), "%+.2f to %+.2f core cycles "
			 "(the core clock estimate moved from %.2f to %.2f GHz "
			 "during the run; ", lo, hi, ctx->core_ghz_before,
			 ctx->core_ghz_after);
	} else if (isfinite(cyc)) {
		snprintf(cycles, sizeof(cycles), "%+.2f core cycles (", cyc);
	}
	snprintf(out->sentence, sizeof(out->sentence), "a dependent %%fs: "
		 "load takes %s%+.3f ns%s%.3fx%s over a plain one; one more per "
		 "system call adds %.3g ms to 10 M of them", cycles, ns,
		 cycles[0] ? ", " : " (", fs->cmp.ratio, ")",
		 ns * 1e7 / 1e6);
	settle_conclusion_number(out, "extra_ns", ns, "ns");
	if (isfinite(cyc))
		settle_conclusion_number(out, "extra_cycles", cyc, "cycles");
	if (isfinite(lo)) {
		settle_conclusion_number(out, "extra_cycles_low", lo, "cycles");
		settle_conclusion_number(out, "extra_cycles_high", hi, "cycles");
	}
	settle_conclusion_number(out, "ratio", fs->cmp.ratio, "x");
	settle_conclusion_number(out, "per_10m_syscalls", ns * 1e7 / 1e6, "ms");
	settle_conclusion_row(out, fs);
	return 1;
}
