/* calib.c - robust rates from many short calibration windows; see calib.h. */
#include <math.h>
#include <stdlib.h>

#include "timer/calib.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The rates of the usable windows, sorted; their number in *m. */
static double *sorted_rates(const struct settle_window *w, size_t n,
			    size_t *m)
{
	double *r = malloc((n ? n : 1) * sizeof(*r));

	*m = 0;
	if (!r)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		double v = w[i].work / w[i].ns;

		if (w[i].work > 0 && w[i].ns > 0 && isfinite(v) && v > 0)
			r[(*m)++] = v;
	}
	qsort(r, *m, sizeof(*r), cmp_double);
	return r;
}

double settle_calib_rate(const struct settle_window *w, size_t n,
			 const struct settle_calib_rule *rule)
{
	size_t m, best_i = 0, best_n = 0, need;
	double *r = sorted_rates(w, n, &m), est;

	if (!r)
		return 0;
	/* r[i..j) is the group within a factor 1 + tol of r[i] */
	for (size_t i = 0, j = 0; i < m; i++) {
		if (j < i)
			j = i;
		while (j < m && r[j] <= r[i] * (1 + rule->tol))
			j++;
		if (j - i >= best_n) { /* >=: the higher group on a tie */
			best_n = j - i;
			best_i = i;
		}
	}
	need = (size_t)ceil(rule->min_share * (double)n);
	if (need < rule->min_agree)
		need = rule->min_agree;
	if (best_n == 0 || best_n < need) {
		free(r);
		return 0;
	}
	est = best_n % 2 ? r[best_i + best_n / 2] :
		(r[best_i + best_n / 2 - 1] + r[best_i + best_n / 2]) / 2;
	free(r);
	return est >= rule->lo && est <= rule->hi ? est : 0;
}

/*
 * The counter: 1 MHz to 10 GHz (x86 TSCs tick at the nominal clock, about
 * 1-5 GHz). Windows are bracketed by clock reads, so undisturbed ones
 * agree to well within 0.5 %.
 */
double settle_tsc_ghz_of(const struct settle_window *w, size_t n)
{
	static const struct settle_calib_rule rule = {
		.lo = 0.001, .hi = 10, .tol = 0.005, .min_share = 0.5,
		.min_agree = 5,
	};

	return settle_calib_rate(w, n, &rule);
}

/* Reads per ns: a pair costs between 0.01 ns and 1 ms. */
double settle_read_ns_of(const struct settle_window *w, size_t n)
{
	static const struct settle_calib_rule rule = {
		.lo = 1e-6, .hi = 100, .tol = 0.10, .min_share = 0.5,
		.min_agree = 8,
	};
	double rate = settle_calib_rate(w, n, &rule);

	return rate > 0 ? 1 / rate : 0;
}

/* Adds per ns: one add per cycle, so the core clock in GHz. */
double settle_core_ghz_of(const struct settle_window *w, size_t n,
			  double tsc_ghz)
{
	struct settle_calib_rule rule = {
		.lo = 0.2, .hi = 10, .tol = 0.02, .min_share = 1.0 / 3,
		.min_agree = SETTLE_CORE_MIN_WINDOWS,
	};

	if (tsc_ghz > 0 && rule.hi > 3 * tsc_ghz)
		rule.hi = 3 * tsc_ghz;
	return settle_calib_rate(w, n, &rule);
}
