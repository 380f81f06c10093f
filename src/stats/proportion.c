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

double settle_amdahl_saved(double p, double k)
{
	if (!(p >= 0 && p <= 1) || !(k >= 1))
		return 0;
	if (isinf(k))
		return p;
	return p * (1 - 1 / k);
}
