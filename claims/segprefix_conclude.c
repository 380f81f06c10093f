/*
 * segprefix_conclude.c - the segprefix claim's conclusion (see
 * segprefix.h). It reads results only, so it is portable: the claim is
 * measured on x86-64 (src/arch/x86/claims/segprefix.c), but a result file
 * of it is concluded on any architecture (settle show, compare).
 */
#include <math.h>
#include <stdio.h>

#include "segprefix.h"

/*
 * The extra cost of one prefixed dependent load over a plain one, in core
 * cycles where the core clock is known, and what one more per system call
 * would add to 10 M of them.
 */
int settle_segprefix_conclude(const struct settle_result *res, size_t n,
			      const struct settle_conclude_ctx *ctx,
			      struct settle_conclusion *out)
{
	const struct settle_result *plain = settle_result_find(res, n,
							       "plain-dep", 0);
	const struct settle_result *fs = settle_result_find(res, n, "fs-dep", 0);
	double ns, cyc;

	(void)ctx;
	if (!plain || !fs || !fs->has_cmp)
		return 0;
	ns = fs->sum.median - plain->sum.median;
	cyc = fs->cycles_per_op > 0 && plain->cycles_per_op > 0 ?
	      fs->cycles_per_op - plain->cycles_per_op : NAN;
	if (isfinite(cyc))
		snprintf(out->sentence, sizeof(out->sentence), "a dependent "
			 "%%fs: load takes %+.2f core cycles (%+.3f ns, %.3fx) "
			 "over a plain one; one more per system call adds %.3g "
			 "ms to 10 M of them", cyc, ns, fs->cmp.ratio,
			 ns * 1e7 / 1e6);
	else
		snprintf(out->sentence, sizeof(out->sentence), "a dependent "
			 "%%fs: load takes %+.3f ns (%.3fx) over a plain one; "
			 "one more per system call adds %.3g ms to 10 M of them",
			 ns, fs->cmp.ratio, ns * 1e7 / 1e6);
	settle_conclusion_number(out, "extra_ns", ns, "ns");
	if (isfinite(cyc))
		settle_conclusion_number(out, "extra_cycles", cyc, "cycles");
	settle_conclusion_number(out, "ratio", fs->cmp.ratio, "x");
	settle_conclusion_number(out, "per_10m_syscalls", ns * 1e7 / 1e6, "ms");
	settle_conclusion_row(out, fs);
	return 1;
}
