/*
 * proportion.c - a binomial proportion's interval (Wilson) and Amdahl's bound;
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
