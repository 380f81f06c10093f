/* common.c - what every output format derives from a report. */
#include <math.h>
#include <string.h>
#include <stdio.h>

#include "report/report.h"

uint64_t settle_largest_size(const struct settle_report *rep,
			     const struct settle_claim *c)
{
	uint64_t big = 0;

	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c &&
		    rep->results[i].size_bytes > big)
			big = rep->results[i].size_bytes;
	return big;
}

size_t settle_scale_of(const struct settle_report *rep,
		       const struct settle_result *r,
		       struct settle_figure *out, size_t max)
{
	size_t n = r->nfigures < max ? r->nfigures : max;

	(void)rep;
	for (size_t i = 0; i < n; i++)
		out[i] = r->figures[i];
	return n;
}

char *settle_format_ns(double ns, char *buf, size_t len)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i = 0;

	if (!isfinite(ns) || ns < 0)
		ns = 0;
	while (i < 3 && ns < u[i].div)
		i++;
	double v = ns / u[i].div;
	snprintf(buf, len, "%.*f %s", v >= 100 ? 1 : v >= 10 ? 2 : 3, v,
		 u[i].unit);
	return buf;
}
