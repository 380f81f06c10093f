/*
 * proportion.h - the share of a program's time spent in one function, and what
 * making that function faster can save (private to settle; used by the
 * --share report of whole commands).
 */
#ifndef SETTLE_STATS_PROPORTION_H
#define SETTLE_STATS_PROPORTION_H

#include <stdint.h>

/* z for a two-sided 95 % interval: the 0.975 quantile of N(0, 1). */
#define SETTLE_Z95 1.959963984540054

/*
 * Wilson score interval for a binomial proportion: k successes in n
 * trials, at the normal quantile z (SETTLE_Z95 for 95 %). Writes the
 * interval, within [0, 1], to *lo and *hi: lo is exactly 0 for k = 0 and
 * hi exactly 1 for k = n, where the normal approximation of the Wald
 * interval fails. Returns 0, or -1 (lo = hi = 0) for n = 0, k > n or a z
 * that is not positive and finite.
 *
 * Source: E. B. Wilson, "Probable inference, the law of succession, and
 * statistical inference", J. Amer. Statist. Assoc. 22 (1927) 209-212;
 * R. G. Newcombe, "Two-sided confidence intervals for the single
 * proportion: comparison of seven methods", Statistics in Medicine 17
 * (1998) 857-872, method 3 (its Table II gives the values the tests use).
 * The interval assumes independent trials; profiler samples taken close
 * together are correlated, so it is a lower bound on the uncertainty.
 */
int settle_wilson_interval(uint64_t k, uint64_t n, double z, double *lo,
			   double *hi);

/*
 * Amdahl's bound: the fraction of a program's time saved when a part that
 * takes the fraction p (0..1) of it runs k times faster (k >= 1; INFINITY:
 * the part takes no time at all), the rest unchanged: p * (1 - 1/k). The
 * whole then takes 1 - p * (1 - 1/k) of its time (a speed-up of
 * 1 / (1 - p + p/k)). Returns 0 for p outside [0, 1], k < 1 or a NaN.
 *
 * Source: G. M. Amdahl, "Validity of the single processor approach to
 * achieving large scale computing capabilities", AFIPS Spring Joint
 * Computer Conference 1967, 483-485.
 */
double settle_amdahl_saved(double p, double k);

#endif
