/*
 * nonparam.h - distribution-free statistics for comparing timings
 * (private to settle; used by the runner's verdicts and by compare).
 *
 * Sources:
 *   Hollander, Wolfe, Chicken, "Nonparametric Statistical Methods", 3rd ed.
 *   (2014): section 3.2 (Hodges-Lehmann estimator from Walsh averages),
 *   3.3 (confidence interval from the signed-rank distribution), 4.1
 *   (Wilcoxon rank sum / Mann-Whitney U, mid-ranks for ties), 4.3 (two-sample
 *   shift estimator and its interval).
 *   Efron, Tibshirani, "An Introduction to the Bootstrap" (1993), ch. 13
 *   (percentile interval).
 */
#ifndef SETTLE_NONPARAM_H
#define SETTLE_NONPARAM_H

#include <stddef.h>
#include <stdint.h>

/* A point estimate with a confidence interval. */
struct settle_interval {
	double est, lo, hi;
	double level; /* confidence actually achieved (0..1); 0 if none */
};

/*
 * One-sample (paired) location: the Hodges-Lehmann estimate (median of the
 * n(n+1)/2 Walsh averages (d_i + d_j) / 2, i <= j) of d[0..n) and the
 * interval between Walsh averages k and M + 1 - k, k from the exact
 * signed-rank distribution (n <= 300; normal approximation above; more
 * than 1000 values are first reduced to 1000 evenly spaced order
 * statistics, which bounds time and memory and widens the interval). When
 * no interval reaches conf (n <= 5 at 95 %), the widest one is returned
 * and level says what it reaches. Returns 0, or -1 for n = 0 or no memory.
 */
int settle_signed_rank_interval(const double *d, size_t n, double conf,
				struct settle_interval *out);

/*
 * Two-sample shift y - x: the Hodges-Lehmann estimate (median of the n*m
 * differences y_j - x_i) and its interval from the Mann-Whitney U
 * distribution (exact while n*m <= 10000, else normal; each sample
 * reduced to at most 1000 order statistics first). Same conventions
 * as above. Returns 0, or -1 for an empty sample or no memory.
 */
int settle_shift_interval(const double *x, size_t n, const double *y,
			  size_t m, double conf, struct settle_interval *out);

/*
 * Wilcoxon rank sum W of x (mid-ranks over the pooled sample for ties),
 * Mann-Whitney U = W - n(n+1)/2 (the number of pairs with x_i > y_j,
 * counting ties as 1/2), and the two-sided p-value from the normal
 * approximation with tie correction (and continuity correction 0.5).
 * Returns 0, or -1 for an empty sample or no memory.
 */
int settle_rank_sum(const double *x, size_t n, const double *y, size_t m,
		    double *w, double *u, double *p);

/*
 * A new array (free it) holding x[0..n) when n <= 1000, else 1000 evenly
 * spaced order statistics of x (sorted); *k receives the count. Used to
 * bound the cost of the rank intervals and of bootstraps on large
 * samples. NULL when out of memory.
 */
double *settle_reduce_sample(const double *x, size_t n, size_t *k);

/*
 * Percentile bootstrap interval of the median of x[0..n): B resamples with
 * replacement drawn from a generator seeded with seed (the same seed gives
 * the same interval). est is the sample median. Returns 0 or -1.
 */
int settle_bootstrap_median(const double *x, size_t n, unsigned b,
			    uint64_t seed, double conf,
			    struct settle_interval *out);

/*
 * Geometric mean over k rows of the ratio of medians median(y_r) /
 * median(x_r) (x[r][0..nx[r]), y[r][0..ny[r])), with a percentile
 * bootstrap interval: B = 1000 replicates, each row's two samples
 * resampled within (with replacement, from at most 1000 order statistics
 * of each, see settle_reduce_sample), seeded with seed. est is the
 * geometric mean of the observed ratios. Returns 0, or -1 for k = 0, an
 * empty sample or no memory.
 */
int settle_geomean_bootstrap(const double *const *x, const size_t *nx,
			     const double *const *y, const size_t *ny,
			     size_t k, uint64_t seed, double conf,
			     struct settle_interval *out);

/* Student t quantile: t with P(T_df <= t) = p, df >= 1, 0 < p < 1
 * (the t density integrated by Simpson's rule, inverted by bisection;
 * error below 1e-6). NaN for p or df outside those ranges (an interval
 * of NaN ends decides nothing: settle_interval_usable()). */
double settle_t_quantile(double p, double df);

/* P(F > f) for Fisher's F distribution with d1 and d2 degrees of
 * freedom (the regularized incomplete beta function, DLMF 8.17, by its
 * continued fraction); NaN for d1 or d2 <= 0. */
double settle_f_sf(double f, double d1, double d2);

/* Standard normal quantile: z with Phi(z) = p, found by bisection on
 * 0.5 * erfc(-z / sqrt 2) to double precision; 0 < p < 1. */
double settle_normal_quantile(double p);

#endif
