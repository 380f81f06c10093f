/*
 * compare.c - result file against result file: per claim/variant/params,
 * the change of the median time with its interval and verdict, and a
 * geometric-mean row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "stats/nonparam.h"

#define BOOTSTRAP_B 1000
#define BOOTSTRAP_SEED 0x5e771eull

/* Same claim, variant, size, build and parameters. */
static int same_key(const struct settle_result *a, const struct settle_result *b)
{
	return strcmp(a->claim->name, b->claim->name) == 0 &&
	       strcmp(a->variant, b->variant) == 0 &&
	       a->size_bytes == b->size_bytes &&
	       settle_result_same_group(a, b);
}

/* Every sample of every result of rep with r's key, pooled. */
static double *pool(const struct settle_report *rep,
		    const struct settle_result *r, size_t *n)
{
	size_t total = 0, k = 0;
	double *x;

	for (size_t i = 0; i < rep->nresults; i++)
		if (same_key(&rep->results[i], r))
			total += rep->results[i].nsamples;
	*n = total;
	if (total == 0)
		return NULL;
	x = malloc(total * sizeof(*x));
	if (!x)
		return NULL;
	for (size_t i = 0; i < rep->nresults; i++)
		if (same_key(&rep->results[i], r))
			for (size_t j = 0; j < rep->results[i].nsamples; j++)
				x[k++] = rep->results[i].samples_ns[j];
	return x;
}

/* First occurrence of r's key in rep at or before index i? */
static int first_of_key(const struct settle_report *rep, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (same_key(&rep->results[j], &rep->results[i]))
			return 0;
	return 1;
}

/* The noise a file recorded, said again where it matters. */
static void warn_noise(FILE *f, const struct settle_report *r)
{
	const struct settle_noise *n = &r->noise;

	if (n->loadavg > 0.5)
		fprintf(f, "warning: %s was measured under other load (load "
			"average %.2f)\n", r->source, n->loadavg);
	if (n->steal_pct > 1)
		fprintf(f, "warning: %s: the hypervisor stole %.1f%% of the "
			"CPU time\n", r->source, n->steal_pct);
	if (n->drift_pct > 1 || n->drift_pct < -1)
		fprintf(f, "warning: %s: the core clock drifted by %+.1f%%\n",
			r->source, n->drift_pct);
}

/* Unstable by the rule of settle_analyze(), on pooled samples. */
static int unstable(const double *x, size_t n)
{
	struct settle_summary s;

	settle_summarize(x, n, &s);
	return s.mad > 0.05 * s.median || s.min < 0.8 * s.median;
}

/* Rows of a that b lacks, named. */
static void only_in(FILE *f, const struct settle_report *a,
		    const struct settle_report *b, const char *side)
{
	char sz[32];

	for (size_t i = 0; i < a->nresults; i++) {
		const struct settle_result *r = &a->results[i];
		size_t j;

		if (r->skipped || !first_of_key(a, i))
			continue;
		for (j = 0; j < b->nresults && !same_key(&b->results[j], r); j++)
			;
		if (j < b->nresults)
			continue;
		fprintf(f, "  only in %s: %s %s%s%s", side,
			r->claim->name, r->size_bytes ?
			settle_format_size(r->size_bytes, sz, sizeof(sz)) : "",
			r->size_bytes ? " " : "",
			r->label);
		fputc('\n', f);
	}
}

static void warn_differences(FILE *f, const struct settle_report *a,
			     const struct settle_report *b)
{
	const struct { const char *what, *x, *y; } fields[] = {
		{ "CPU models", a->machine.model_name, b->machine.model_name },
		{ "ISA extensions", a->machine.isa, b->machine.isa },
		{ "kernels", a->machine.kernel, b->machine.kernel },
		{ "compilers", a->compiler, b->compiler },
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strcmp(fields[i].x, fields[i].y) != 0)
			fprintf(f, "warning: the files come from different %s:"
				"\n  %s: %s\n  %s: %s\n", fields[i].what,
				a->source, fields[i].x, b->source, fields[i].y);
}

struct row {
	double *x, *y;
	size_t n, m;
	int below; /* a result of this key was below the clock's resolution */
};

static int below_resolution(const struct settle_report *rep,
			    const struct settle_result *r)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (same_key(&rep->results[i], r) &&
		    rep->results[i].below_resolution)
			return 1;
	return 0;
}

/*
 * Median of a resample (with replacement) of x[0..n), drawn into t. Large
 * samples are resampled from at most 1000 of their order statistics
 * (settle_reduce_sample was applied when the row was made), so that the
 * bootstrap stays cheap; that widens the interval a little.
 */
static double resampled_median(const double *x, size_t n, double *t,
			       uint64_t *seed)
{
	for (size_t k = 0; k < n; k++)
		t[k] = x[settle_random_next(seed) % n];
	return settle_median_inplace(t, n);
}

/* Geometric mean of the median ratios, with a percentile bootstrap
 * interval (rows resampled within, fixed seed). */
static void geomean(const struct row *rows, size_t nrows, double *est,
		    double *lo, double *hi)
{
	uint64_t seed = BOOTSTRAP_SEED;
	double *g = malloc(BOOTSTRAP_B * sizeof(*g)), *t = NULL, sum = 0;
	struct row *red = calloc(nrows + 1, sizeof(*red));

	*est = *lo = *hi = 0;
	if (!g || !red || nrows == 0)
		goto out;
	for (size_t r = 0; r < nrows; r++) {
		red[r].x = settle_reduce_sample(rows[r].x, rows[r].n, &red[r].n);
		red[r].y = settle_reduce_sample(rows[r].y, rows[r].m, &red[r].m);
		if (!red[r].x || !red[r].y)
			goto out;
	}
	t = malloc(1000 * sizeof(*t)); /* reduced samples hold at most 1000 */
	if (!t)
		goto out;
	for (size_t r = 0; r < nrows; r++) {
		memcpy(t, red[r].x, red[r].n * sizeof(*t));
		double a = settle_median_inplace(t, red[r].n);
		memcpy(t, red[r].y, red[r].m * sizeof(*t));
		sum += log(settle_median_inplace(t, red[r].m) / a);
	}
	*est = exp(sum / (double)nrows);
	for (unsigned b = 0; b < BOOTSTRAP_B; b++) {
		double s = 0;

		for (size_t r = 0; r < nrows; r++)
			s += log(resampled_median(red[r].y, red[r].m, t, &seed) /
				 resampled_median(red[r].x, red[r].n, t, &seed));
		g[b] = s / (double)nrows;
	}
	settle_median_inplace(g, BOOTSTRAP_B); /* sorts */
	*lo = exp(g[(size_t)(0.025 * BOOTSTRAP_B)]);
	*hi = exp(g[(size_t)(0.975 * BOOTSTRAP_B) - 1]);
out:
	for (size_t r = 0; red && r < nrows; r++) {
		free(red[r].x);
		free(red[r].y);
	}
	free(red);
	free(g);
	free(t);
}

static size_t compare_one(FILE *f, const struct settle_report *old,
			  const struct settle_report *nw, double fail_pct)
{
	struct row *rows = calloc(nw->nresults + 1, sizeof(*rows));
	struct settle_summary so, sn;
	size_t nrows = 0, slower = 0;
	char name[160], a[32], b[32], sz[32], counts[48];
	double est, lo, hi;

	if (!rows)
		return 0;
	fprintf(f, "\n%s -> %s\n", old->source, nw->source);
	fprintf(f, "  %-40s %11s %11s %9s  %-19s %-9s %s\n", "claim / variant",
		"old", "new", "change", "95% interval", "samples", "verdict");
	for (size_t i = 0; i < nw->nresults; i++) {
		const struct settle_result *r = &nw->results[i];
		struct settle_comparison c;
		struct row *w = &rows[nrows];

		if (!first_of_key(nw, i))
			continue;
		w->y = pool(nw, r, &w->m);
		w->x = pool(old, r, &w->n);
		w->below = below_resolution(nw, r) || below_resolution(old, r);
		if (!w->x || !w->y) {
			free(w->x);
			free(w->y);
			continue;
		}
		snprintf(name, sizeof(name), "%s %s%s%s", r->claim->name,
			 r->size_bytes ? settle_format_size(r->size_bytes, sz,
							    sizeof(sz)) : "",
			 r->size_bytes ? " " : "",
			 r->label);
		if (settle_compare_unpaired(w->x, w->n, w->y, w->m,
					    nw->options.band, &c) < 0) {
			fprintf(f, "  %-40s no time measured (every sample 0)\n",
				name);
			free(w->x);
			free(w->y);
			continue;
		}
		if (w->below) {
			c.verdict = SETTLE_UNCLEAR;
			c.why = "below resolution";
		}
		nrows++;
		settle_summarize(w->x, w->n, &so);
		settle_summarize(w->y, w->m, &sn);
		snprintf(counts, sizeof(counts), "%zu/%zu", w->n, w->m);
		fprintf(f, "  %-40s %11s %11s %+8.2f%%%s [%+7.2f%%, %+7.2f%%]  "
			"%-9s %s", name, settle_format_ns(so.median, a, sizeof(a)),
			settle_format_ns(sn.median, b, sizeof(b)),
			(c.ratio - 1) * 100,
			unstable(w->x, w->n) || unstable(w->y, w->m) ? "!" : " ",
			(c.lo - 1) * 100, (c.hi - 1) * 100,
			counts, settle_verdict_name(c.verdict));
		if (c.why)
			fprintf(f, " (%s)", c.why);
		fprintf(f, "\n");
		if (c.verdict == SETTLE_SLOWER &&
		    (fail_pct <= 0 || (c.ratio - 1) * 100 >= fail_pct))
			slower++;
	}
	if (nrows == 0)
		fprintf(f, "  no claim/variant/params in common\n");
	only_in(f, old, nw, "old");
	only_in(f, nw, old, "new");
	if (nrows > 1) {
		geomean(rows, nrows, &est, &lo, &hi);
		fprintf(f, "  %-40s %11s %11s %+8.2f%%  [%+7.2f%%, %+7.2f%%]  "
			"(bootstrap)\n", "geometric mean", "", "",
			(est - 1) * 100, (lo - 1) * 100, (hi - 1) * 100);
	}
	for (size_t i = 0; i < nrows; i++) {
		free(rows[i].x);
		free(rows[i].y);
	}
	free(rows);
	return slower;
}

size_t settle_print_compare(FILE *f, const struct settle_report *old,
			    const struct settle_report *const *news,
			    size_t nnew, double fail_pct)
{
	size_t slower = 0;

	for (size_t k = 0; k < nnew; k++)
		warn_differences(f, old, news[k]);
	for (size_t k = 0; k < nnew; k++)
		slower += compare_one(f, old, news[k], fail_pct);
	fprintf(f, "  change: new time / old time - 1, the Hodges-Lehmann "
		"estimate (the median of\n  every new/old pair of samples, "
		"not the ratio of the two medians shown), 95%%\n  Mann-Whitney "
		"interval; every repetition of a name pooled; band +-%g%%\n",
		nnew ? news[0]->options.band * 100 : 1.0);
	fprintf(f, "  ! unstable on either side (MAD above 5%% of the median, or "
		"the best sample\n  more than 20%% below it): do not trust "
		"that row\n");
	warn_noise(f, old);
	for (size_t k = 0; k < nnew; k++)
		warn_noise(f, news[k]);
	return slower;
}
