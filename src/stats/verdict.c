/*
 * verdict.c - ratios with confidence intervals, and the verdict they
 * support: faster, slower, same (inside the equivalence band) or unclear.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "settle.h"
#include "stats/nonparam.h"
#include "stats/rules.h"

#define CONF SETTLE_CONF
/* An interval that reaches less than this (the widest one from 3 or 4
 * pairs) decides nothing. */

const char *settle_verdict_name(enum settle_verdict v)
{
	switch (v) {
	case SETTLE_SAME: return "same";
	case SETTLE_FASTER: return "faster";
	case SETTLE_SLOWER: return "slower";
	case SETTLE_INVALID: return "invalid";
	case SETTLE_UNCLEAR: return "unclear";
	default: return "?";
	}
}

int settle_interval_reached(const struct settle_comparison *c)
{
	return c->level >= SETTLE_MIN_LEVEL;
}

int settle_level_short(double level)
{
	return level < SETTLE_CONF - 1e-9;
}

int settle_interval_usable(const struct settle_comparison *c)
{
	return c->n >= SETTLE_MIN_UNITS && settle_interval_reached(c) &&
	       isfinite(c->lo) && isfinite(c->hi);
}

int settle_why_too_few(const char *why)
{
	return why && (!strcmp(why, SETTLE_WHY_TOO_FEW) ||
		       !strcmp(why, SETTLE_WHY_TOO_FEW_PROCESSES));
}

/* Processes are c's units: its reason for too few says so. */
static void units_are_processes(struct settle_comparison *c)
{
	if (settle_why_too_few(c->why))
		c->why = SETTLE_WHY_TOO_FEW_PROCESSES;
}

/* Whether band is no equivalence band: negative (its edges inside out),
 * infinite or not a number. */
static int bad_band(double band)
{
	return !(band >= 0) || !isfinite(band);
}

static const char why_bad_band[] =
	"no equivalence band (not a finite fraction >= 0)";

void settle_decide(struct settle_comparison *c, double band)
{
	/* a factor of 1 + band either way: A against B and B against A
	 * agree (with 1 - band, 0.75x was the same within 30 %, its
	 * inverse 1.333x slower) */
	double hi = 1 + band, lo = 1 / hi;

	c->why = NULL;
	if (bad_band(band)) {
		c->verdict = SETTLE_UNCLEAR;
		c->why = why_bad_band;
	} else if (c->n >= SETTLE_MIN_UNITS && settle_interval_reached(c) &&
		   !(isfinite(c->lo) && isfinite(c->hi))) {
		/* an end that is no number: no interval, whatever the units */
		c->verdict = SETTLE_UNCLEAR;
		c->why = SETTLE_WHY_TOO_WIDE;
	} else if (!settle_interval_usable(c)) {
		c->verdict = SETTLE_UNCLEAR;
		c->why = SETTLE_WHY_TOO_FEW;
	} else if (c->hi < lo) {
		c->verdict = SETTLE_FASTER;
	} else if (c->lo > hi) {
		c->verdict = SETTLE_SLOWER;
	} else if (c->lo >= lo && c->hi <= hi) {
		c->verdict = SETTLE_SAME;
	} else {
		c->verdict = SETTLE_UNCLEAR;
		c->why = c->hi - c->lo > hi - lo ? SETTLE_WHY_TOO_WIDE :
			 SETTLE_WHY_STRADDLES;
	}
}

void settle_widen_to_cpu(struct settle_comparison *c,
			 const struct settle_comparison *cpu, double band)
{
	enum settle_verdict was = c->verdict;

	if (was == SETTLE_UNCLEAR || was == SETTLE_INVALID)
		return;
	if (!cpu || !(cpu->ratio > 0) || !settle_interval_usable(cpu)) {
		c->verdict = SETTLE_UNCLEAR;
		c->why = SETTLE_WHY_SHARED_CPU;
		return;
	}
	if (cpu->lo >= c->lo && cpu->hi <= c->hi)
		return; /* inside: it stands as it is */
	c->lo = fmin(c->lo, cpu->lo);
	c->hi = fmax(c->hi, cpu->hi);
	settle_decide(c, band);
	c->why = c->verdict == was ? SETTLE_WHY_SHARED_WIDENED :
		 SETTLE_WHY_SHARED_CPU;
	if (c->verdict != was)
		c->verdict = SETTLE_UNCLEAR;
}

static int all_zero(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] > 0 && isfinite(x[i]))
			return 0;
	return 1;
}

/* c unclear because of a bad band; returns -1. */
static int no_band(struct settle_comparison *c)
{
	*c = (struct settle_comparison){ .verdict = SETTLE_UNCLEAR,
		.why = why_bad_band };
	return -1;
}

static int no_time(struct settle_comparison *c)
{
	*c = (struct settle_comparison){ .verdict = SETTLE_UNCLEAR,
		.why = "no time measured (no sample above 0 ns)" };
	return -1;
}

static void from_log(struct settle_comparison *c,
		     const struct settle_interval *iv, size_t n)
{
	c->ratio = exp(iv->est);
	c->lo = exp(iv->lo);
	c->hi = exp(iv->hi);
	c->level = iv->level;
	c->n = n;
}

int settle_compare_paired(const double *base, const double *x, size_t n,
			  double band, struct settle_comparison *c)
{
	struct settle_interval iv;
	double *d;
	size_t k = 0;

	if (bad_band(band))
		return no_band(c);
	if (all_zero(base, n) || all_zero(x, n))
		return no_time(c);
	*c = (struct settle_comparison){ .method =
		"paired rounds, Hodges-Lehmann, Wilcoxon signed-rank interval" };
	d = malloc(n * sizeof(*d));
	if (!d)
		return no_time(c);
	for (size_t i = 0; i < n; i++)
		if (base[i] > 0 && x[i] > 0 && isfinite(base[i]) &&
		    isfinite(x[i]))
			d[k++] = log(x[i] / base[i]);
	if (settle_signed_rank_interval(d, k, CONF, &iv) == 0)
		from_log(c, &iv, k);
	free(d);
	settle_decide(c, band);
	return 0;
}

/* log of the positive, finite values of x into a new array. */
static double *logs(const double *x, size_t n, size_t *k)
{
	double *l = malloc((n ? n : 1) * sizeof(*l));

	*k = 0;
	if (!l)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (x[i] > 0 && isfinite(x[i]))
			l[(*k)++] = log(x[i]);
	return l;
}

int settle_compare_unpaired(const double *old, size_t n, const double *new_,
			    size_t m, double band, struct settle_comparison *c)
{
	struct settle_interval iv;
	size_t a, b;
	double *lo, *ln;

	if (bad_band(band))
		return no_band(c);
	if (all_zero(old, n) || all_zero(new_, m))
		return no_time(c);
	*c = (struct settle_comparison){ .method =
		"two-sample Hodges-Lehmann, Mann-Whitney interval" };
	lo = logs(old, n, &a);
	ln = logs(new_, m, &b);
	if (lo && ln && settle_shift_interval(lo, a, ln, b, CONF, &iv) == 0)
		from_log(c, &iv, a < b ? a : b);
	free(lo);
	free(ln);
	settle_decide(c, band);
	return 0;
}

size_t settle_process_trim(size_t p)
{
	return p / 5;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The 20 % trimmed mean of x[0..p) (settle_process_trim() values cut
 * from each end) into *mean and the sum of squared deviations of the
 * winsorized values (those g at each end set to their neighbours) about
 * their mean into *ss; x is sorted and winsorized in place. Returns g.
 */
static size_t trim(double *x, size_t p, double *mean, double *ss)
{
	size_t g = settle_process_trim(p);
	double wmean = 0;

	qsort(x, p, sizeof(*x), by_value);
	*mean = 0;
	*ss = 0;
	for (size_t i = g; i < p - g; i++)
		*mean += x[i] / (double)(p - 2 * g);
	for (size_t i = 0; i < g; i++) {
		x[i] = x[g];
		x[p - 1 - i] = x[p - 1 - g];
	}
	for (size_t i = 0; i < p; i++)
		wmean += x[i] / (double)p;
	for (size_t i = 0; i < p; i++)
		*ss += (x[i] - wmean) * (x[i] - wmean);
	return g;
}

int settle_compare_processes(const double *est, size_t p, double band,
			     struct settle_comparison *c)
{
	size_t g = settle_process_trim(p);
	double *x, mean, ss, half;

	if (bad_band(band))
		return no_band(c);
	x = malloc((p ? p : 1) * sizeof(*x));
	*c = (struct settle_comparison){ .method = g ?
		"per-process estimates, 20% trimmed mean, Yuen interval" :
		"per-process estimates, Student t interval" };
	if (!x)
		return -1;
	memcpy(x, est, p * sizeof(*x));
	trim(x, p, &mean, &ss);
	free(x);
	c->n = p;
	c->ratio = exp(mean);
	if (p >= 2) {
		half = settle_t_quantile(1 - (1 - CONF) / 2,
					 (double)(p - 2 * g) - 1) *
		       sqrt(ss / (double)(p - 1) / (double)p) /
		       (1 - 2 * (double)g / (double)p);
		c->lo = exp(mean - half);
		c->hi = exp(mean + half);
		c->level = CONF;
	} else {
		c->lo = c->hi = c->ratio;
	}
	settle_decide(c, band);
	units_are_processes(c);
	if (p < 2) {
		c->verdict = SETTLE_UNCLEAR;
		c->why = SETTLE_WHY_TOO_FEW_PROCESSES;
	}
	return 0;
}

/* One side of a two-sample Yuen comparison: the trimmed mean of the logs
 * of x[0..n), its squared standard error d = (n - 1) s_w^2 / (h (h - 1))
 * and h, the values kept (fewer than the logs' count when trimmed). -1
 * when memory runs out. */
static int yuen_side(const double *x, size_t n, double *mean, double *d,
		     size_t *h, int *trimmed)
{
	size_t k, g;
	double *l = logs(x, n, &k), ss;

	if (!l)
		return -1;
	g = trim(l, k, mean, &ss);
	*h = k - 2 * g;
	*trimmed |= g > 0;
	*d = *h > 1 ? ss / (double)(*h * (*h - 1)) : 0;
	free(l);
	return 0;
}

int settle_compare_levels(const double *old, size_t n, const double *new_,
			  size_t m, double band, struct settle_comparison *c)
{
	double mo, mn, dx, dy, df, half = 0;
	size_t hx, hy;
	int trimmed = 0;

	if (bad_band(band))
		return no_band(c);
	if (all_zero(old, n) || all_zero(new_, m))
		return no_time(c);
	*c = (struct settle_comparison){ .method = SETTLE_METHOD_LEVELS_WELCH };
	if (yuen_side(old, n, &mo, &dx, &hx, &trimmed) < 0 ||
	    yuen_side(new_, m, &mn, &dy, &hy, &trimmed) < 0)
		return -1;
	/* Yuen's as soon as either side is trimmed (5 levels or more) */
	c->method = trimmed ? SETTLE_METHOD_LEVELS_YUEN :
			      SETTLE_METHOD_LEVELS_WELCH;
	c->n = hx < hy ? hx : hy;
	c->ratio = exp(mn - mo);
	c->lo = c->hi = c->ratio;
	if (hx < 2 || hy < 2) {
		settle_decide(c, band);
		c->verdict = SETTLE_UNCLEAR;
		c->why = SETTLE_WHY_TOO_FEW_PROCESSES;
		return 0;
	}
	/* Welch-Satterthwaite degrees of freedom (none needed when every
	 * level of both sides is one value) */
	if (dx + dy > 0) {
		df = (dx + dy) * (dx + dy) /
		     (dx * dx / (double)(hx - 1) + dy * dy / (double)(hy - 1));
		half = settle_t_quantile(1 - (1 - CONF) / 2, df) *
		       sqrt(dx + dy);
	}
	c->lo = exp(mn - mo - half);
	c->hi = exp(mn - mo + half);
	c->level = CONF;
	settle_decide(c, band);
	units_are_processes(c);
	return 0;
}

static int usable(double v)
{
	return isfinite(v) && v >= 0;
}

double settle_mean_ratio(const double *x, const double *base, size_t n,
			 double *lo, double *hi)
{
	double sx = 0, sb = 0, q, ss = 0, half;
	size_t k = 0;

	*lo = *hi = 0;
	for (size_t i = 0; i < n; i++)
		if (usable(x[i]) && usable(base[i])) {
			sx += x[i];
			sb += base[i];
			k++;
		}
	if (k < 2 || !(sb > 0))
		return 0;
	q = sx / sb;
	for (size_t i = 0; i < n; i++)
		if (usable(x[i]) && usable(base[i]))
			ss += (x[i] - q * base[i]) * (x[i] - q * base[i]);
	half = settle_t_quantile(1 - (1 - CONF) / 2, (double)k - 1) *
	       sqrt(ss / (double)(k - 1) / (double)k) / (sb / (double)k);
	*lo = q - half;
	*hi = q + half;
	return q;
}

/* Mean and sample variance of the usable values of x[0..n), their count
 * in *k. */
static double mean_var(const double *x, size_t n, double *var, size_t *k)
{
	double s = 0, ss = 0, m;

	*k = 0;
	for (size_t i = 0; i < n; i++)
		if (usable(x[i])) {
			s += x[i];
			(*k)++;
		}
	m = *k ? s / (double)*k : 0;
	for (size_t i = 0; i < n; i++)
		if (usable(x[i]))
			ss += (x[i] - m) * (x[i] - m);
	*var = *k > 1 ? ss / (double)(*k - 1) : 0;
	return m;
}

double settle_mean_ratio_unpaired(const double *x, size_t n,
				  const double *base, size_t m, double *lo,
				  double *hi)
{
	double sx, sb, mx, mb, q, vx, vb, df, half = 0;
	size_t kx, kb;

	*lo = *hi = 0;
	mx = mean_var(x, n, &sx, &kx);
	mb = mean_var(base, m, &sb, &kb);
	if (kx < 2 || kb < 2 || !(mb > 0))
		return 0;
	q = mx / mb;
	vx = mx > 0 ? q * q * sx / ((double)kx * mx * mx) : 0;
	vb = q * q * sb / ((double)kb * mb * mb);
	if (vx + vb > 0) {
		df = (vx + vb) * (vx + vb) /
		     (vx * vx / (double)(kx - 1) + vb * vb / (double)(kb - 1));
		half = settle_t_quantile(1 - (1 - CONF) / 2, df) *
		       sqrt(vx + vb);
	}
	*lo = q - half;
	*hi = q + half;
	return q;
}

int settle_means_contradict(enum settle_verdict v, double q, double lo,
			    double hi, double band)
{
	double up = 1 + band;

	if (!(q > 0))
		return 0;
	switch (v) {
	case SETTLE_FASTER:
		return q >= 1;
	case SETTLE_SLOWER:
		return q <= 1;
	case SETTLE_SAME:
		return fabs(log(q)) > log1p(fmax(SETTLE_QUOTE_SPREAD, band)) ||
		       ((q > up || q < 1 / up) && (lo > 1 || hi < 1));
	default:
		return 0;
	}
}

int settle_intervals_overlap(const struct settle_comparison *a,
			     const struct settle_comparison *b)
{
	return a->lo <= b->hi && b->lo <= a->hi;
}
