/*
 * stats.c - robust summary statistics of samples.
 *
 * Median and median absolute deviation as in Hampel, "The influence curve
 * and its role in robust estimation", JASA 69 (1974); the MAD is reported
 * raw (not scaled by 1.4826 to estimate a normal sigma).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "settle.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double settle_median_inplace(double *x, size_t n)
{
	if (n == 0)
		return 0;
	qsort(x, n, sizeof(*x), cmp_double);
	if (n % 2)
		return x[n / 2];
	return x[n / 2 - 1] + (x[n / 2] - x[n / 2 - 1]) / 2;
}

double settle_safe_div(double a, double b)
{
	double q;

	if (b == 0 || !isfinite(a) || !isfinite(b))
		return 0;
	q = a / b;
	return isfinite(q) ? q : 0;
}

static double clean(double v)
{
	return (isfinite(v) && v > 0) ? v : 0;
}

/* The p-quantile (0 <= p <= 1) of sorted t[0..n), n >= 1: linear
 * between the order statistics around (n - 1) p (Hyndman and Fan, "Sample
 * Quantiles in Statistical Packages", The American Statistician 50(4),
 * 1996, definition 7). */
static double quantile_sorted(const double *t, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t i = (size_t)h;

	if (i + 1 >= n)
		return t[n - 1];
	return t[i] + (h - (double)i) * (t[i + 1] - t[i]);
}

int settle_summarize(const double *x, size_t n, struct settle_summary *s)
{
	double *t, top = 0, sum = 0, ss = 0, mean;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return 0;
	t = malloc(n * sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < n; i++) {
		t[i] = clean(x[i]);
		top = fmax(top, t[i]);
	}
	/* samples this large (no time is) in units of the largest, so that
	 * no sum overflows; others as they are, to the last bit */
	top = top > 1e150 ? top : 1;
	for (size_t i = 0; i < n; i++)
		sum += t[i] / top;
	mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (t[i] / top - mean) * (t[i] / top - mean);
	s->n = n;
	s->mean = mean * top;
	s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) * top : 0;
	s->cv = settle_safe_div(s->stddev, s->mean);
	s->median = settle_median_inplace(t, n);
	s->min = t[0];
	s->max = t[n - 1];
	s->q3 = quantile_sorted(t, n, 0.75);
	for (size_t i = 0; i < n; i++)
		t[i] = fabs(t[i] - s->median);
	s->mad = settle_median_inplace(t, n);
	free(t);
	return 0;
}
