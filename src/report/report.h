/* report.h - helpers shared by the output formats (private). */
#ifndef SETTLE_REPORT_H
#define SETTLE_REPORT_H

#include "settle.h"


/* Largest size measured for claim c in rep (0 for a claim without sizes). */
uint64_t settle_largest_size(const struct settle_report *rep,
			     const struct settle_claim *c);

/* Scale figures of result r (0 when the claim has none for it). */
size_t settle_scale_of(const struct settle_report *rep,
		       const struct settle_result *r,
		       struct settle_figure *out, size_t max);

/* Format a time in ns with an adaptive unit ("812 ps", "3.21 us"). */
char *settle_format_ns(double ns, char *buf, size_t len);

#endif
