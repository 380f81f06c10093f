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
 * Exact one-sided bounds for a binomial proportion: k successes in n
 * independent trials. *lo is the p at which k or more successes have
 * probability alpha (0 for k = 0), *hi the p at which k or fewer have
 * probability alpha (1 for k = n): each a one-sided 1 - alpha bound, the
 * two a two-sided 1 - 2 alpha interval, never narrower than it should be
 * (unlike Wilson's at a few trials: 0 of 1 gives an upper 95 % bound of
 * 0.73 there, 0.95 here). Found by bisection on the binomial tail, to
 * within 1e-12. Returns 0, or -1 (lo = hi = 0) for n = 0, k > n or alpha
 * outside (0, 0.5].
 *
 * Source: C. J. Clopper, E. S. Pearson, "The use of confidence or fiducial
 * limits illustrated in the case of the binomial", Biometrika 26 (1934)
 * 404-413 (4 of 20 at 2.5 % each side: [0.0573, 0.4366]; the tests check
 * it).
 */
int settle_binomial_bounds(uint64_t k, uint64_t n, double alpha, double *lo,
			   double *hi);

/*
 * Interval for the difference b - a of two independent proportions, each
 * given with its own interval (a in [alo, ahi], b in [blo, bhi], all in
 * [0, 1], lo <= estimate <= hi): Newcombe's hybrid score interval,
 *   lo = (b - a) - sqrt((b - blo)^2 + (ahi - a)^2),
 *   hi = (b - a) + sqrt((bhi - b)^2 + (a - alo)^2).
 * With 95 % Wilson intervals it is a 95 % interval for the difference;
 * a side's wider bound (an upper end widened by samples that may belong
 * to it) widens the difference's interval on that side. Writes *lo and
 * *hi (within [-1, 1]) and returns b - a; NaN (lo = hi = NaN) for an
 * argument outside [0, 1] or bounds out of order.
 *
 * Source: R. G. Newcombe, "Interval estimation for the difference
 * between independent proportions: comparison of eleven methods",
 * Statistics in Medicine 17 (1998) 873-890, method 10 (its example,
 * 56/70 against 48/80, gives [0.0524, 0.3339]; the tests check it).
 */
double settle_proportion_difference(double a, double alo, double ahi,
				    double b, double blo, double bhi,
				    double *lo, double *hi);

/*
 * Amdahl's law: the fraction of a program's time saved when a part that
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
