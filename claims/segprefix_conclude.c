/*
 * segprefix_conclude.c - the segprefix claim's conclusion (see
 * segprefix.h). It reads results only, so it is portable: the claim is
 * measured on x86-64 (src/arch/x86/claims/segprefix.c), but a result file
 * of it is concluded on any architecture (settle show, compare).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "segprefix.h"
#include "stats/rules.h"

/*
 * Where the core clock estimate moved during the run by more than
 * settle_noise_drifted() allows, and r's cycles are that estimate's (not
 * counted): ns extra nanoseconds in cycles at the run's last estimate;
 * NAN otherwise.
 */
static double cycles_at_end(const struct settle_result *r, double ns,
			    const struct settle_conclude_ctx *ctx)
{
	double drift;

	if (!(ctx->core_ghz_start > 0) || !(ctx->core_ghz_end > 0) ||
	    (r->cycles_source && !strcmp(r->cycles_source, "perf_event_open")))
		return NAN;
	drift = (ctx->core_ghz_end / ctx->core_ghz_start - 1) * 100;
	return settle_noise_drifted(drift) ? ns * ctx->core_ghz_end : NAN;
}

/*
 * The extra cost of one prefixed dependent load over a plain one, in core
 * cycles where the core clock is known (from the estimates at both ends of
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
	double ns, cyc, end;
	char cycles[160] = "";

	if (!plain || !fs || !fs->has_cmp)
		return 0;
	ns = fs->sum.median - plain->sum.median;
	cyc = fs->cycles_per_op > 0 && plain->cycles_per_op > 0 ?
	      fs->cycles_per_op - plain->cycles_per_op : NAN;
	end = isfinite(cyc) ? cycles_at_end(fs, ns, ctx) : NAN;
	if (isfinite(end))
		snprintf(cycles, sizeof(cycles), "%+.2f to %+.2f core cycles "
			 "(the core clock estimate moved from %.2f to %.2f GHz "
			 "during the run; ", fmin(cyc, end), fmax(cyc, end),
			 ctx->core_ghz_start, ctx->core_ghz_end);
	else if (isfinite(cyc))
		snprintf(cycles, sizeof(cycles), "%+.2f core cycles (", cyc);
	snprintf(out->sentence, sizeof(out->sentence), "a dependent %%fs: "
		 "load takes %s%+.3f ns%s%.3fx%s over a plain one; one more per "
		 "system call adds %.3g ms to 10 M of them", cycles, ns,
		 cycles[0] ? ", " : " (", fs->cmp.ratio, ")",
		 ns * 1e7 / 1e6);
	settle_conclusion_number(out, "extra_ns", ns, "ns");
	if (isfinite(cyc))
		settle_conclusion_number(out, "extra_cycles", cyc, "cycles");
	if (isfinite(end))
		settle_conclusion_number(out, "extra_cycles_at_end", end,
					 "cycles");
	settle_conclusion_number(out, "ratio", fs->cmp.ratio, "x");
	settle_conclusion_number(out, "per_10m_syscalls", ns * 1e7 / 1e6, "ms");
	settle_conclusion_row(out, fs);
	return 1;
}
