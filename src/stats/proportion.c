/*
 * proportion.c - a binomial proportion's interval (Wilson) and exact bounds
 * (Clopper-Pearson), and Amdahl's law;
 * see proportion.h for the contracts and sources.
 */
#include <math.h>

#include "stats/proportion.h"

int settle_wilson_interval(uint64_t k, uint64_t n, double z, double *lo,
			   double *hi)
{
	double p, d, c, h;

	*lo = *hi = 0;
	if (n == 0 || k > n || !(z > 0) || !isfinite(z))
		return -1;
	p = (double)k / (double)n;
	d = 1 + z * z / (double)n;
	c = (p + z * z / (2 * (double)n)) / d;
	h = z / d * sqrt(p * (1 - p) / (double)n +
			 z * z / (4 * (double)n * (double)n));
	*lo = k == 0 ? 0 : c - h;
	*hi = k == n ? 1 : c + h;
	if (*lo < 0)
		*lo = 0;
	if (*hi > 1)
		*hi = 1;
	return 0;
}

/* Non-zero when lo <= x <= hi within [0, 1] (no NaN). */
/* P(X <= k) for X binomial(n, p), 0 < p < 1; each term from lgamma, so
 * that no factorial overflows. */
static double binomial_cdf(uint64_t k, uint64_t n, double p)
{
	double s = 0, lp = log(p), lq = log1p(-p);
	double ln = lgamma((double)n + 1);

	for (uint64_t i = 0; i <= k; i++)
		s += exp(ln - lgamma((double)i + 1) -
			 lgamma((double)(n - i) + 1) + (double)i * lp +
			 (double)(n - i) * lq);
	return s > 1 ? 1 : s;
}

/* The p in (0, 1) at which P(X <= k) = target (it falls as p grows). */
static double solve_cdf(uint64_t k, uint64_t n, double target)
{
	double a = 0, b = 1;

	while (b - a > 1e-12) {
		double m = (a + b) / 2;

		if (binomial_cdf(k, n, m) > target)
			a = m;
		else
			b = m;
	}
	return (a + b) / 2;
}

int settle_binomial_bounds(uint64_t k, uint64_t n, double alpha, double *lo,
			   double *hi)
{
	*lo = *hi = 0;
	if (n == 0 || k > n || !(alpha > 0 && alpha <= 0.5))
		return -1;
	/* P(X >= k) = alpha, that is P(X <= k - 1) = 1 - alpha */
	*lo = k == 0 ? 0 : solve_cdf(k - 1, n, 1 - alpha);
	*hi = k == n ? 1 : solve_cdf(k, n, alpha);
	return 0;
}

static int ordered(double lo, double x, double hi)
{
	return lo >= 0 && lo <= x && x <= hi && hi <= 1;
}

double settle_proportion_difference(double a, double alo, double ahi,
				    double b, double blo, double bhi,
				    double *lo, double *hi)
{
	double d = b - a;

	if (!ordered(alo, a, ahi) || !ordered(blo, b, bhi)) {
		*lo = *hi = NAN;
		return NAN;
	}
	*lo = d - sqrt((b - blo) * (b - blo) + (ahi - a) * (ahi - a));
	*hi = d + sqrt((bhi - b) * (bhi - b) + (a - alo) * (a - alo));
	*lo = *lo < -1 ? -1 : *lo;
	*hi = *hi > 1 ? 1 : *hi;
	return d;
}

double settle_amdahl_saved(double p, double k)
{
	if (!(p >= 0 && p <= 1) || !(k >= 1))
		return 0;
	if (isinf(k))
		return p;
	return p * (1 - 1 / k);
}
