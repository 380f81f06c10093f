/*
 * compare.c - the view of result files compared (see view.h): per
 * claim/variant/params, the change of the pooled time with its interval
 * and verdict, a geometric-mean row, the rows only one file has, and
 * what differs between the files' machines, builds and noise.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/command.h"
#include "model/model.h"
#include "stats/nonparam.h"
#include "stats/rules.h"
#include "util/util.h"
#include "view/command.h"
#include "view/view.h"

#define GEOMEAN_SEED 0x5e771eull


/* Why a row is unclear for a reason other than noise (the summary counts
 * them apart). */
static const char why_other_layouts[] =
	"the files measured it in other layouts";
static const char why_no_process[] =
	"no process of a file measured it in every layout";
static const char why_no_round[] = "no round of every layout";
static const char why_below_resolution[] =
	"undefined (below the clock's resolution in a file)";
static const char why_uneven[] =
	"its samples do not split evenly into the file's processes";
static const char why_failed[] =
	"runs failed in a file (--ignore-failure): they may skip the work";
/* Every sample of every result of rep with r's key, pooled (NULL when
 * there are none or memory runs out). */
static double *pool(const struct settle_report *rep,
		    const struct settle_result *r, size_t *n)
{
	size_t total = 0, k = 0;
	double *x;

	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r))
			total += rep->results[i].nsamples;
	*n = total;
	if (total == 0)
		return NULL;
	x = malloc(total * sizeof(*x));
	if (!x)
		return NULL;
	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r))
			for (size_t j = 0; j < rep->results[i].nsamples; j++)
				x[k++] = rep->results[i].samples_ns[j];
	return x;
}

/* Whether every repetition of r's key in rep is a claim's that ran on the
 * CPU (settle_result_on_cpu()). */
static int key_on_cpu(const struct settle_report *rep,
		      const struct settle_result *r)
{
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *s = &rep->results[i];

		if (settle_result_same_key(s, r) &&
		    (s->command || !settle_result_on_cpu(s)))
			return 0;
	}
	return 1;
}

/*
 * The times of every repetition of r's key in rep whose mean a verdict
 * must agree with (settle_means_contradict()): the samples' CPU times
 * with cpu set, else their times (a command's run times; a claim's
 * samples' times, as the run's own check takes them). NULL (with *n 0)
 * when there are none or memory runs out.
 */
static double *pool_means(const struct settle_report *rep,
			  const struct settle_result *r, int cpu, size_t *n)
{
	size_t total = 0, k = 0;
	double *x;

	*n = 0;
	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r))
			total += rep->results[i].nsamples;
	if (!total || !(x = malloc(total * sizeof(*x))))
		return NULL;
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *s = &rep->results[i];

		if (settle_result_same_key(s, r))
			for (size_t j = 0; j < s->nsamples; j++)
				x[k++] = cpu ? s->samples_cpu_ns[j] :
					 s->samples_ns[j];
	}
	*n = total;
	return x;
}

/* The ratio of the mean times of r's key, new over old (CPU times with
 * cpu set), its 95 % interval in *lo, *hi; 0 when it cannot be had. */
static double key_mean_ratio(const struct settle_report *old,
			     const struct settle_report *nw,
			     const struct settle_result *r, int cpu,
			     double *lo, double *hi)
{
	size_t nx, ny;
	double *x = pool_means(old, r, cpu, &nx), *y = pool_means(nw, r, cpu,
								   &ny);
	double q = 0;

	*lo = *hi = 0;
	if (x && y)
		q = settle_mean_ratio_unpaired(y, ny, x, nx, lo, hi);
	free(x);
	free(y);
	return q;
}

/* Whether a repetition of r's key in rep had a sample another task
 * preempted (settle_result.preempted). */
static int key_preempted(const struct settle_report *rep,
			 const struct settle_result *r)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r) &&
		    rep->results[i].preempted)
			return 1;
	return 0;
}

/* c made unclear when its verdict contradicts the ratio of the mean
 * times of r's key, new over old, or of their CPU times where every
 * repetition ran on the CPU (as the run's own check: means_agree() in
 * src/model/report.c); the reason, with the ratio, in why. */
static void means_agree(const struct settle_report *old,
			const struct settle_report *nw,
			const struct settle_result *r, double band,
			struct settle_comparison *c, char *why, size_t whylen)
{
	double lo, hi, q = key_mean_ratio(old, nw, r, 0, &lo, &hi);
	char qs[24];

	if (!settle_means_contradict(c->verdict, q, lo, hi, band) &&
	    key_on_cpu(old, r) && key_on_cpu(nw, r))
		q = key_mean_ratio(old, nw, r, 1, &lo, &hi);
	if (!settle_means_contradict(c->verdict, q, lo, hi, band))
		return;
	c->verdict = SETTLE_UNCLEAR;
	c->mean_ratio = q;
	settle_format_ratio(q, qs, sizeof(qs));
	snprintf(why, whylen, "the mean times disagree (%sx): a slow mode in "
		 "some %s%s", qs, r->command ? "runs" : "samples",
		 key_preempted(old, r) || key_preempted(nw, r) ? ", or other "
		 "tasks' time slices in preempted ones" : "");
	c->why = why;
}

/* Whether a repetition of r's key in rep shared its CPU with another
 * task (settle_result_shared_cpu()), and every one has CPU times
 * (*cpu). */
static int key_shared(const struct settle_report *rep,
		      const struct settle_result *r, int *cpu)
{
	int shared = 0;

	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *s = &rep->results[i];

		if (!settle_result_same_key(s, r))
			continue;
		shared |= settle_result_shared_cpu(s);
		*cpu &= s->samples_cpu_ns != NULL;
	}
	return shared;
}

/* When a side's times hold another task's time slices (most samples
 * preempted, under 90 % on the CPU): c's interval widened to span that of
 * the two files' CPU times, compared as pooled samples (pooled: so were
 * the times), and its verdict what the wider one decides, unclear where
 * they disagree, and for rows compared otherwise (per process, in layout
 * units); as the run's own rule: shared_widen() in src/model/report.c. */
static void shared_agree(const struct settle_report *old,
			 const struct settle_report *nw,
			 const struct settle_result *r, double band,
			 int pooled, struct settle_comparison *c)
{
	struct settle_comparison cpu;
	int have = 1, shared, made;
	double *x, *y;
	size_t nx, ny;

	shared = key_shared(old, r, &have) | key_shared(nw, r, &have);
	if (!shared)
		return;
	/* rows compared per process or in layout units: the pooled CPU
	 * times' interval is narrower than theirs (a wrong one stood) */
	x = have && pooled ? pool_means(old, r, 1, &nx) : NULL;
	y = have && pooled ? pool_means(nw, r, 1, &ny) : NULL;
	made = x && y && settle_compare_unpaired(x, nx, y, ny, band, &cpu) == 0;
	settle_widen_to_cpu(c, made ? &cpu : NULL, band);
	free(x);
	free(y);
}

/* How many layouts the results of rep with r's key were measured in (the
 * most of any of them). */
static unsigned layouts_of(const struct settle_report *rep,
			   const struct settle_result *r)
{
	unsigned n = 0;

	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r) &&
		    rep->results[i].nlayouts > n)
			n = rep->results[i].nlayouts;
	return n;
}

/* The processes of rep (1 for a run of one process). */
static unsigned processes_of(const struct settle_report *rep)
{
	return rep->options.processes > 1 ? rep->options.processes : 1;
}

/* The layouts the results of rep with r's key were measured in: set[l]
 * is 1 for each. */
static void key_layouts(const struct settle_report *rep,
			const struct settle_result *r, unsigned char set[256])
{
	memset(set, 0, 256);
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *x = &rep->results[i];

		if (settle_result_same_key(x, r))
			for (size_t j = 0; j < x->nsamples; j++)
				set[x->sample_layouts ?
				    x->sample_layouts[j] : 0] = 1;
	}
}

/* Were r's samples [from, to) measured in every layout of set and in no
 * other? A process that lacks one would average other placements. */
static int chunk_in(const struct settle_result *r, size_t from, size_t to,
		    const unsigned char set[256])
{
	unsigned char seen[256] = { 0 };

	for (size_t j = from; j < to; j++)
		seen[r->sample_layouts ? r->sample_layouts[j] : 0] = 1;
	return memcmp(seen, set, sizeof(seen)) == 0;
}

/* The balanced units (settle_layout_units()) of every result of rep with
 * r's key, each process on its own, as times (exp of the units) in a new
 * array; *n their number. NULL when out of memory. */
static double *units(const struct settle_report *rep,
		     const struct settle_result *r, const unsigned char set[256],
		     size_t *n)
{
	unsigned np = processes_of(rep);
	size_t total = 0;
	double *u;

	*n = 0;
	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r))
			total += rep->results[i].nsamples;
	u = malloc((total + 1) * sizeof(*u));
	for (size_t i = 0; u && i < rep->nresults; i++) {
		const struct settle_result *x = &rep->results[i];
		size_t chunk = x->nsamples / np;

		if (!settle_result_same_key(x, r))
			continue;
		for (unsigned p = 0; p < np && chunk; p++)
			if (chunk_in(x, p * chunk, (p + 1) * chunk, set))
				*n += settle_layout_units(NULL, x, p * chunk,
							  (p + 1) * chunk,
							  u + *n);
	}
	for (size_t k = 0; u && k < *n; k++)
		u[k] = exp(u[k]);
	return u;
}

/* Does every result of rep with r's key split into its processes
 * evenly? Else no sample is known to be whose. */
static int splits_evenly(const struct settle_report *rep,
			 const struct settle_result *r)
{
	unsigned np = processes_of(rep);

	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r) &&
		    rep->results[i].nsamples % np)
			return 0;
	return 1;
}

/* One level per process (settle_layout_level()) of every result of rep
 * with r's key, as times (ns) in a new array; *n their number. NULL when
 * out of memory. */
static double *levels(const struct settle_report *rep,
		      const struct settle_result *r, const unsigned char set[256],
		      size_t *n)
{
	unsigned np = processes_of(rep);
	double *u = malloc((rep->nresults * np + 1) * sizeof(*u));

	*n = 0;
	for (size_t i = 0; u && i < rep->nresults; i++) {
		const struct settle_result *x = &rep->results[i];
		size_t chunk = x->nsamples / np;

		if (!settle_result_same_key(x, r))
			continue;
		for (unsigned p = 0; p < np && chunk; p++) {
			if (!chunk_in(x, p * chunk, (p + 1) * chunk, set) ||
			    settle_layout_level(x, p * chunk, (p + 1) * chunk,
						&u[*n]) < 0)
				continue;
			u[*n] = exp(u[*n]);
			(*n)++;
		}
	}
	return u;
}

/* The units a row was compared by on each side (times, ns). */
struct units {
	double *x;
	size_t nx;
	double *y;
	size_t ny;
	int levels; /* one level per process (settle_compare_levels()) */
};

/*
 * Both files measured r's key in two layouts or more, or both by 3
 * processes or more without layouts. With 3 processes or more in each,
 * the process is the unit: one level per process (the mean over the
 * layouts of the log of each layout's median; without layouts, the log
 * of its median), the
 * two files' levels compared by their trimmed means with Yuen's interval
 * (settle_compare_levels(): Welch's t below 5 processes a file, 95 %
 * with 3 a file where the Mann-Whitney interval reached 90 %: an A/A
 * pair of 3-process files read -4.31 %). Two runs apart in time differ by more than
 * the rounds of one process show (the machine's state, where the process
 * and its memory landed), so rounds pooled from one process are no
 * replicates of a run. With fewer processes in either file: the balanced
 * units of each process (one round of every layout, averaged over the layouts).
 * Only processes (units) measured in every layout the file measured the
 * key in count, and both files must have measured it in the same
 * layouts. Returns SETTLE_BY_PROCESS (c set, per process) or
 * SETTLE_BY_UNITS (c set, balanced units),
 * with the units compared in *u (as times, the caller's to free),
 * 0 when not both have layouts, -2 when c is made unclear (other layouts
 * in each file, or no process or unit with every layout; c->why says
 * which), -1 when out of memory.
 */
static int by_layout(const struct settle_report *old,
		     const struct settle_report *nw,
		     const struct settle_result *r, double band,
		     struct settle_comparison *c, struct units *u)
{
	int per_process = processes_of(old) >= SETTLE_MIN_UNITS &&
			  processes_of(nw) >= SETTLE_MIN_UNITS;
	unsigned lo = layouts_of(old, r), ln = layouts_of(nw, r);
	unsigned char so[256], sn[256];
	double *x, *y;
	size_t nx, ny;
	int rc = per_process ? SETTLE_BY_PROCESS : SETTLE_BY_UNITS;

	if ((lo < 2) != (ln < 2) || (lo < 2 && !per_process))
		return 0; /* pooled */
	if (!splits_evenly(old, r) || !splits_evenly(nw, r)) {
		c->verdict = SETTLE_UNCLEAR;
		c->why = why_uneven;
		return -2;
	}
	/* the mean over other placements is another quantity: no change
	 * of the code's, and no verdict from the pooled samples either */
	key_layouts(old, r, so);
	key_layouts(nw, r, sn);
	if (memcmp(so, sn, sizeof(so))) {
		c->verdict = SETTLE_UNCLEAR;
		c->why = why_other_layouts;
		return -2;
	}
	x = per_process ? levels(old, r, so, &nx) : units(old, r, so, &nx);
	y = per_process ? levels(nw, r, sn, &ny) : units(nw, r, sn, &ny);
	if (!x || !y) {
		rc = -1;
	} else if (!nx || !ny) {
		c->verdict = SETTLE_UNCLEAR;
		c->why = per_process ? why_no_process : why_no_round;
		rc = -2;
	} else if (per_process) {
		rc = settle_compare_levels(x, nx, y, ny, band, c) < 0 ? 0 :
		     SETTLE_BY_PROCESS;
		if (rc)
			c->method = !strcmp(c->method,
					    SETTLE_METHOD_LEVELS_YUEN) ?
				"one level per process (the mean over the "
				"layouts of each layout's log median), 20% "
				"trimmed means, Yuen-Welch interval" :
				"one level per process (the mean over the "
				"layouts of each layout's log median), Welch t "
				"interval";
	} else if (settle_compare_unpaired(x, nx, y, ny, band, c) < 0) {
		rc = 0;
	} else {
		c->method = "balanced units (one round of every layout, the "
			"mean over the layouts), two-sample "
			"Hodges-Lehmann, Mann-Whitney interval";
	}
	if (rc > 0) { /* the units compared, for the geometric mean */
		*u = (struct units){ x, nx, y, ny, rc == SETTLE_BY_PROCESS };
		return rc;
	}
	free(x);
	free(y);
	return rc;
}

/* One file's block-by-layout table of r's key: y[p * nl + i], the log
 * median of layout ls[i] in block p (a process, or one process's pass:
 * settle_layout_blocks()), for the blocks of every result of rep with
 * r's key measured in every layout of set (malloc'ed, the caller's to
 * free). Returns the blocks, 0 when none or out of memory. */
static unsigned key_table(const struct settle_report *rep,
			  const struct settle_result *r,
			  const unsigned char set[256], const unsigned *ls,
			  unsigned nl, double **y)
{
	unsigned np = settle_layout_blocks(processes_of(rep)), n = 0;

	*y = malloc((rep->nresults * np + 1) * nl * sizeof(**y));
	for (size_t i = 0; *y && i < rep->nresults; i++) {
		const struct settle_result *x = &rep->results[i];
		size_t chunk = x->nsamples / np;

		if (!settle_result_same_key(x, r))
			continue;
		for (unsigned p = 0; p < np && chunk; p++) {
			unsigned j = 0;

			if (!chunk_in(x, p * chunk, (p + 1) * chunk, set))
				continue;
			while (j < nl &&
			       settle_layout_median(x, p * chunk,
						    (p + 1) * chunk, ls[j],
						    &(*y)[n * nl + j]) == 0)
				j++;
			n += j == nl;
		}
	}
	return n;
}

/*
 * Whether the change of a FILE.c row between the files moves with the
 * layout, as a run's ratio to its baseline may (src/model/report.c,
 * placement_check(): the mean over a set of 4 layouts is free of the
 * slot a function starts in, not of where it sits beside the functions
 * it calls): the layouts' changes d_l (the new file's mean log median in
 * layout l less the old file's) differ beyond the noise of the
 * processes, F = (sum (d_l - mean d)^2 / (1/P_old + 1/P_new)) / (nl - 1)
 * over the two files' pooled residual variance (each file's
 * process-by-layout table), p below SETTLE_LAYOUT_ALPHA, and spread by
 * more than twice the band. *lo and *hi: the smallest and the largest
 * layout's ratio.
 */
static int change_moves(const struct settle_report *old,
			const struct settle_report *nw,
			const struct settle_result *r, double band,
			double *lo, double *hi)
{
	unsigned char set[256];
	unsigned ls[256], nl = 0, no, nn;
	double *yo = NULL, *yn = NULL, mo[256], mn[256], sso, ssn, dfo, dfn;
	double mean = 0, ssi = 0, s2, p;

	key_layouts(old, r, set);
	for (unsigned l = 0; l < 256; l++)
		if (set[l])
			ls[nl++] = l;
	no = key_table(old, r, set, ls, nl, &yo);
	nn = key_table(nw, r, set, ls, nl, &yn);
	if (nl < 2 || no < 2 || nn < 2) {
		free(yo);
		free(yn);
		return 0;
	}
	settle_table_moves(yo, no, nl, band, mo, &sso, &dfo);
	settle_table_moves(yn, nn, nl, band, mn, &ssn, &dfn);
	free(yo);
	free(yn);
	*lo = INFINITY;
	*hi = 0;
	for (unsigned i = 0; i < nl; i++) {
		mean += (mn[i] - mo[i]) / nl;
		*lo = fmin(*lo, exp(mn[i] - mo[i]));
		*hi = fmax(*hi, exp(mn[i] - mo[i]));
	}
	for (unsigned i = 0; i < nl; i++)
		ssi += (mn[i] - mo[i] - mean) * (mn[i] - mo[i] - mean) /
		       (1.0 / no + 1.0 / nn);
	s2 = (sso + ssn) / (dfo + dfn);
	if (s2 > 1e-12 * fmax(ssi, 1e-12))
		p = settle_f_sf(ssi / (nl - 1) / s2, nl - 1, dfo + dfn);
	else /* no residual: the layouts differ if their changes do */
		p = ssi > 1e-12 ? 0 : 1;
	return settle_layout_sensitive(*hi / *lo - 1, p, band);
}

/* Is a result of rep with r's key layout-sensitive? Its spread, or 0. */
static double moves(const struct settle_report *rep,
		    const struct settle_result *r)
{
	double s = 0;

	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r) &&
		    rep->results[i].layout_sensitive &&
		    rep->results[i].layout_spread > s)
			s = rep->results[i].layout_spread;
	return s;
}

/* The first result of rep with r's key, or NULL. */
static const struct settle_result *find(const struct settle_report *rep,
					const struct settle_result *r)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r))
			return &rep->results[i];
	return NULL;
}

/* The first invalid result of rep with r's key, or NULL. */
static const struct settle_result *invalid(const struct settle_report *rep,
					   const struct settle_result *r)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r) &&
		    rep->results[i].invalid[0])
			return &rep->results[i];
	return NULL;
}

static int below_resolution(const struct settle_report *rep,
			    const struct settle_result *r)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (settle_result_same_key(&rep->results[i], r) &&
		    rep->results[i].below_resolution)
			return 1;
	return 0;
}

/* Whether a whole command of r's key in rep had runs that failed
 * (--ignore-failure: timed, warm-up or profiled). */
static int runs_failed(const struct settle_report *rep,
		       const struct settle_result *r)
{
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_command_data *d = rep->results[i].command;

		if (settle_result_same_key(&rep->results[i], r) && d &&
		    (d->failed || d->failed_untimed))
			return 1;
	}
	return 0;
}

static int unstable(const double *x, size_t n)
{
	struct settle_summary s;

	settle_summarize(x, n, &s);
	return settle_summary_unstable(&s);
}

/* "popcount 4 KiB table8" */
static void key_name(const struct settle_result *r, char *buf, size_t len)
{
	char sz[32];

	snprintf(buf, len, "%s %s%s%s", r->claim->name, r->size_bytes ?
		 settle_format_size(r->size_bytes, sz, sizeof(sz)) : "",
		 r->size_bytes ? " " : "", r->label);
	settle_escape_in(buf, len);
}

/* Whether every row has SETTLE_MIN_UNITS samples a side, so that the
 * geometric mean's bootstrap interval shows a spread, not one value. */
static int enough_to_resample(const size_t *nx, const size_t *ny, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (nx[i] < SETTLE_MIN_UNITS || ny[i] < SETTLE_MIN_UNITS)
			return 0;
	return 1;
}

/* A change in per cent, two decimals: "+3.10%", "-0.25%"; below 0.005 %
 * "+0.00%" (equal samples leave a rounding error, "+3.1e-10%"). */
static void pct(double ratio, char *buf, size_t len)
{
	double c = (ratio - 1) * 100;

	if (fabs(c) < 0.005)
		c = 0;
	settle_format_num(c, 2, buf + 1, len - 2);
	buf[0] = c < 0 ? '-' : '+';
	if (buf[1] == '-')
		memmove(buf + 1, buf + 2, strlen(buf + 2) + 1);
	strcat(buf, "%");
}

/*
 * An unstable row (either side) is called faster or slower only when its
 * whole interval also lies beyond the row's spread, the larger side's
 * MAD over its median. The two files were measured apart in time; samples
 * that spread say the machine itself moved by as much (a memory-bound row
 * on a shared host), and the interval of pooled samples does not see
 * that, so a smaller change is not called the code's.
 */
static void within_spread(struct settle_comparison *c,
			  const struct settle_summary *so,
			  const struct settle_summary *sn)
{
	double s = fmax(settle_safe_div(so->mad, so->median),
			settle_safe_div(sn->mad, sn->median));

	if (c->verdict != SETTLE_SLOWER && c->verdict != SETTLE_FASTER)
		return;
	/* a factor either way, as the band (settle_decide()) */
	if (c->lo > 1 + s || c->hi < 1 / (1 + s))
		return;
	c->verdict = SETTLE_UNCLEAR;
	c->why = "within the spread of an unstable row";
}

/* The row's medians (ns), change and interval (%), and their texts. */
static void row_numbers(struct settle_compare_row *w, double old_median,
			double new_median, const struct settle_comparison *c)
{
	w->old_median = old_median;
	w->new_median = new_median;
	settle_format_ns(w->old_median, w->old_text, sizeof(w->old_text));
	settle_format_ns(w->new_median, w->new_text, sizeof(w->new_text));
	w->change = (c->ratio - 1) * 100;
	w->level = c->level;
	w->ci = settle_interval_reached(c);
	w->lo = (c->lo - 1) * 100;
	w->hi = (c->hi - 1) * 100;
	pct(c->ratio, w->change_text, sizeof(w->change_text));
	if (w->ci) {
		pct(c->lo, w->lo_text, sizeof(w->lo_text));
		pct(c->hi, w->hi_text, sizeof(w->hi_text));
	} else { /* no interval to speak of: too few samples */
		snprintf(w->lo_text, sizeof(w->lo_text), "-");
		snprintf(w->hi_text, sizeof(w->hi_text), "-");
	}
}

/*
 * A row that a file has no time of the work's for (invalid in the new or
 * the old file, else below the clock's resolution): as in the run's
 * table, no time and no change (the times of a body the compiler removed
 * read 8.74e-10 ns and a change with its interval). 1.
 */
static int no_work_time(struct settle_compare_row *w, int invalid_new,
			int invalid_old)
{
	w->status = SETTLE_CMP_NO_TIME;
	w->invalid_new = invalid_new;
	w->invalid_old = invalid_old;
	if (!invalid_new && !invalid_old) {
		w->verdict = ""; /* undefined, as a side without samples */
		w->why = why_below_resolution;
		return 1;
	}
	/* work that was not repeated is never a change */
	w->verdict = settle_verdict_name(SETTLE_INVALID);
	w->why = invalid_new ? "undefined (invalid in the new file: its "
			       "time is not the work's)" :
			       "undefined (invalid in the old file: its "
			       "time is not the work's)";
	return 1;
}

/*
 * The row of key r (a result of nw): -1 when out of memory, 0 when old
 * lacks it, 1 when made. u receives what the row was compared by, the
 * caller's to free: each file's units (per process, or balanced units)
 * when it was compared by them, else the pooled samples; the geometric
 * mean resamples the same.
 */
static int make_row(const struct settle_report *old,
		    const struct settle_report *nw,
		    const struct settle_result *r, double band,
		    struct settle_compare_row *w, struct units *u,
		    int *layouts, char *why, size_t whylen)
{
	struct settle_comparison c;
	struct settle_summary so, sn;
	struct units lu = { 0 };
	double **x = &u->x, **y = &u->y;
	double spread, lo, hi;
	int k, inv_new, inv_old;

	memset(w, 0, sizeof(*w));
	*u = (struct units){ 0 };
	w->old_r = find(old, r);
	if (!w->old_r || (w->old_r->skipped && r->skipped))
		return 0; /* not in both, or measured in neither */
	w->new_r = r;
	key_name(r, w->name, sizeof(w->name));
	w->claim = r->claim->name;
	w->label = r->label;
	if (r->claim->sized)
		settle_format_size(r->size_bytes, w->size, sizeof(w->size));
	w->mark = "";
	w->lmark = "";
	w->verdict = "";
	*y = pool(nw, r, &w->n_new);
	*x = pool(old, r, &w->n_old);
	if (!*x || !*y) {
		free(*x);
		free(*y);
		*x = *y = NULL;
		if (w->n_old && w->n_new)
			return -1; /* out of memory */
		/* a row both files have, one without a sample: said, never
		 * dropped */
		w->status = SETTLE_CMP_NO_TIME;
		w->why = w->n_new ? "undefined (no samples in the old file)" :
			 "undefined (no samples in the new file)";
		w->empty_new = !w->n_new && !r->skipped;
		return 1;
	}
	inv_new = invalid(nw, r) != NULL;
	inv_old = invalid(old, r) != NULL;
	if (inv_new || inv_old || below_resolution(nw, r) ||
	    below_resolution(old, r))
		return no_work_time(w, inv_new, inv_old);
	settle_summarize(*x, w->n_old, &so);
	settle_summarize(*y, w->n_new, &sn);
	if (!(so.median > 0) || !(sn.median > 0) ||
	    settle_compare_unpaired(*x, w->n_old, *y, w->n_new, band, &c) < 0) {
		/* a change from or to nothing is no percentage */
		w->status = SETTLE_CMP_NO_TIME;
		w->why = !(so.median > 0) ? "undefined (old median 0)" :
			 "undefined (new median 0)";
		return 1;
	}
	u->nx = w->n_old;
	u->ny = w->n_new;
	k = by_layout(old, nw, r, band, &c, &lu);
	if (k == -1)
		return -1;
	if (k > 0) {
		*layouts |= k; /* SETTLE_BY_UNITS or SETTLE_BY_PROCESS */
		free(u->x); /* the units stand for the row from here on */
		free(u->y);
		*u = lu;
	}
	else if (k == 0) /* pooled samples */
		*layouts |= SETTLE_BY_POOLED |
			    (r->command ? 0 :
			     old->gbench == 1 || nw->gbench == 1 ?
			     SETTLE_BY_POOLED_GBENCH : SETTLE_BY_POOLED_CLAIM);
	spread = fmax(moves(old, r), moves(nw, r));
	w->lmark = spread > 0 ? "~" : "";
	if (runs_failed(nw, r) || runs_failed(old, w->old_r)) {
		/* gzip of a missing file read "settled: ... faster
		 * (command g -87.66 %)" */
		c.verdict = SETTLE_UNCLEAR;
		c.why = why_failed;
	} else if (k > 0 && (settle_slots_why(old, w->old_r) ||
		    settle_slots_why(nw, r))) {
		c.verdict = SETTLE_UNCLEAR;
		c.why = settle_slots_why(old, w->old_r) ?
			settle_slots_why(old, w->old_r) :
			settle_slots_why(nw, r);
	} else if (k > 0 && c.verdict != SETTLE_UNCLEAR &&
		   (old->claims_built[0] || nw->claims_built[0]) &&
		   change_moves(old, nw, r, band, &lo, &hi) &&
		   !settle_layouts_agree(c.verdict, lo, hi, band)) {
		/* a FILE.c row's change that moves with the layout stands
		 * only where every layout's says it */
		c.verdict = SETTLE_UNCLEAR;
		c.why = settle_moves_why(hi / lo - 1, why, whylen);
	} else if (c.verdict == SETTLE_UNCLEAR && spread > 0 && k >= 0) {
		c.why = settle_layout_why(spread, why, whylen);
	} else {
		means_agree(old, nw, r, band, &c, why, whylen);
		shared_agree(old, nw, r, band, k == 0, &c);
	}
	row_numbers(w, so.median, sn.median, &c);
	if (k) { /* with layouts, the spread within them (the results') */
		w->mark = w->old_r->unstable || r->unstable ? "!" : "";
		so.mad = w->old_r->within_mad;
		so.median = w->old_r->sum.median;
		sn.mad = r->within_mad;
		sn.median = r->sum.median;
	} else {
		w->mark = unstable(*x, u->nx) || unstable(*y, u->ny) ?
			  "!" : "";
	}
	if (w->mark[0])
		within_spread(&c, &so, &sn);
	w->verdict = settle_verdict_name(c.verdict);
	w->why = c.why;
	w->slower = c.verdict == SETTLE_SLOWER;
	return 1;
}

/* The names of the rows of a that b lacks. */
static int only_in(const struct settle_report *a, const struct settle_report *b,
		   char (**out)[400], size_t *n)
{
	*out = calloc(a->nresults + 1, sizeof(**out));
	*n = 0;
	if (!*out)
		return -1;
	for (size_t i = 0; i < a->nresults; i++) {
		const struct settle_result *r = &a->results[i];

		if (r->skipped || find(a, r) != r || find(b, r))
			continue;
		key_name(r, (*out)[(*n)++], sizeof(**out));
	}
	return 0;
}

/* A whole command whose shell text differs between the files: what it
 * measures changed, which explains a move. */
static int command_changed(const struct settle_compare_row *w)
{
	const struct settle_command_data *a = w->old_r->command;
	const struct settle_command_data *b = w->new_r->command;

	return a && b && a->shell && b->shell && strcmp(a->shell, b->shell);
}

/* The --share symbols of the whole commands of s's rows, in both files
 * (settle_share_changes()). Returns 0, or -1 when out of memory. */
static int shares(struct settle_compare_section *s)
{
	for (size_t i = 0; i < s->nrows; i++) {
		const struct settle_compare_row *w = &s->rows[i];
		struct settle_compare_share *more;
		const struct settle_command_data *d = w->new_r->command;
		const struct settle_command_data *o = w->old_r->command;
		size_t n = (d ? d->nshare : 0) + (o ? o->nshare : 0);

		if (!n)
			continue;
		more = realloc(s->shares, (s->nshares + n) * sizeof(*more));
		if (!more)
			return -1;
		s->shares = more;
		s->nshares += settle_share_changes(w->old_r, w->new_r, w->name,
						   more + s->nshares, n);
	}
	return 0;
}

/* The geometric-mean row of s: ratios est [lo, hi] by method; the bounds
 * shown as "-" unless shown (the interval reaches a level worth one). */
static void set_geomean(struct settle_compare_section *s, const char *method,
			double est, double lo, double hi, int shown)
{
	s->has_geomean = 1;
	s->gm_method = method;
	s->gm = (est - 1) * 100;
	s->gm_lo = (lo - 1) * 100;
	s->gm_hi = (hi - 1) * 100;
	pct(est, s->gm_text, sizeof(s->gm_text));
	pct(lo, s->gm_lo_text, sizeof(s->gm_lo_text));
	pct(hi, s->gm_hi_text, sizeof(s->gm_hi_text));
	if (!shown) {
		snprintf(s->gm_lo_text, sizeof(s->gm_lo_text), "-");
		snprintf(s->gm_hi_text, sizeof(s->gm_hi_text), "-");
	}
}

/*
 * The geometric mean's change with the unit as the replicate, when every
 * row has the same number of units a side: unit j of every row of a file
 * comes from the same process (or round), so the mean over the rows of
 * the log units is one value per unit, and a process that ran slow moves
 * its rows together and stays one unit. The two files' values are
 * compared as the rows' are: levels of processes as levels
 * (settle_compare_levels(): a geometric mean of -19 % [-32 %, -11 %] by
 * the Hodges-Lehmann shift, with a Mann-Whitney interval of 90 % for 3
 * processes a file, sat under rows whose changes averaged -21 %), other
 * units by settle_compare_unpaired(). levels[r]: row r's units are
 * levels. Returns 0 with s set, -1 when the counts or the kinds of unit
 * differ or memory runs out.
 */
static int geomean_by_unit(double **x, const size_t *nx, double **y,
			   const size_t *ny, const int *levels, size_t k,
			   double band, struct settle_compare_section *s)
{
	size_t n = nx[0], m = ny[0];
	double *gx, *gy;
	struct settle_comparison c;
	int rc = -1;

	for (size_t r = 1; r < k; r++)
		if (nx[r] != n || ny[r] != m || levels[r] != levels[0])
			return -1;
	gx = calloc(n + 1, sizeof(*gx));
	gy = calloc(m + 1, sizeof(*gy));
	if (!gx || !gy || !n || !m)
		goto out;
	for (size_t r = 0; r < k; r++) {
		for (size_t j = 0; j < n; j++)
			gx[j] += log(x[r][j]) / (double)k;
		for (size_t j = 0; j < m; j++)
			gy[j] += log(y[r][j]) / (double)k;
	}
	for (size_t j = 0; j < n; j++)
		gx[j] = exp(gx[j]);
	for (size_t j = 0; j < m; j++)
		gy[j] = exp(gy[j]);
	if ((levels[0] ? settle_compare_levels(gx, n, gy, m, band, &c) :
			 settle_compare_unpaired(gx, n, gy, m, band, &c)) < 0)
		goto out;
	set_geomean(s, "per unit", c.ratio, c.lo, c.hi,
		    settle_interval_reached(&c));
	rc = 0;
out:
	free(gx);
	free(gy);
	return rc;
}

static int section(const struct settle_report *old,
		   const struct settle_report *nw, double fail_pct,
		   struct settle_compare_section *s, size_t *slower,
		   int *layouts)
{
	double **x = calloc(nw->nresults + 1, sizeof(*x));
	double **y = calloc(nw->nresults + 1, sizeof(*y));
	size_t *nx = calloc(nw->nresults + 1, sizeof(*nx));
	size_t *ny = calloc(nw->nresults + 1, sizeof(*ny));
	int *lv = calloc(nw->nresults + 1, sizeof(*lv));
	size_t ng = 0; /* rows of the geometric mean: x[0..ng), y[0..ng) */
	int rc = -1;

	s->old = old;
	s->nw = nw;
	snprintf(s->old_name, sizeof(s->old_name), "%s", old->source);
	snprintf(s->new_name, sizeof(s->new_name), "%s", nw->source);
	settle_escape_in(s->old_name, sizeof(s->old_name));
	settle_escape_in(s->new_name, sizeof(s->new_name));
	s->rows = calloc(nw->nresults + 1, sizeof(*s->rows));
	if (!x || !y || !nx || !ny || !lv || !s->rows)
		goto out;
	for (size_t i = 0; i < nw->nresults; i++) {
		const struct settle_result *r = &nw->results[i];
		struct settle_compare_row *w = &s->rows[s->nrows];
		struct units u = { 0 };
		int k;

		if (find(nw, r) != r)
			continue;
		k = make_row(old, nw, r, nw->options.band, w, &u, layouts,
			     w->why_buf, sizeof(w->why_buf));
		if (k < 0)
			goto out;
		if (k == 0)
			continue;
		s->nrows++;
		/* an invalid row has no time to count in the geometric mean
		 * (a file's row of 1 ns samples once made all of it) */
		if (w->status != SETTLE_CMP_MEASURED || w->invalid_new ||
		    w->invalid_old) {
			free(u.x);
			free(u.y);
			continue;
		}
		if (w->slower && (fail_pct <= 0 || w->change >= fail_pct))
			(*slower)++;
		s->nmeasured++;
		/* a command whose text changed moved with it: not the
		 * change the mean is about (commands_changed() says so);
		 * nor are times another task's slices lengthened (the
		 * row's verdict says so) */
		if (command_changed(w) || (w->why &&
		    (!strcmp(w->why, SETTLE_WHY_SHARED_CPU) ||
		     !strcmp(w->why, SETTLE_WHY_SHARED_WIDENED)))) {
			free(u.x);
			free(u.y);
			continue;
		}
		x[ng] = u.x;
		nx[ng] = u.nx;
		y[ng] = u.y;
		ny[ng] = u.ny;
		lv[ng] = u.levels;
		ng++;
	}
	if (ng > 1 &&
	    geomean_by_unit(x, nx, y, ny, lv, ng, nw->options.band, s) == 0) {
		/* s set */
	} else if (ng > 1) {
		struct settle_interval gm;

		if (settle_geomean_bootstrap((const double *const *)x, nx,
					     (const double *const *)y, ny,
					     ng, GEOMEAN_SEED, SETTLE_CONF,
					     &gm) == 0) {
			set_geomean(s, "bootstrap", gm.est, gm.lo, gm.hi,
				    enough_to_resample(nx, ny, ng));
		}
	}
	if (shares(s) < 0)
		goto out;
	if (only_in(old, nw, &s->only_old, &s->nonly_old) < 0 ||
	    only_in(nw, old, &s->only_new, &s->nonly_new) < 0)
		goto out;
	rc = 0;
out:
	for (size_t i = 0; x && y && i < ng; i++) {
		free(x[i]);
		free(y[i]);
	}
	free(x);
	free(y);
	free(nx);
	free(ny);
	free(lv);
	return rc;
}

/* Whether r holds whole commands (settle run --command), not claims. */
static int of_commands(const struct settle_report *r)
{
	return r->nresults && r->results[0].command;
}

/*
 * How r was measured, in buf: samples (a whole command's: runs), the
 * minimum time asked of each (a setting: what the samples lasted is each
 * file's own header; a command's sample is one run), processes, layouts
 * and the CPU (a claim's: a command's runs are not pinned), a command's
 * standard output when a pipe (--stdout pipe); "" when the file does not
 * say (a Google Benchmark file).
 */
static void settings(const struct settle_report *r, char *buf, size_t len)
{
	const struct settle_options *o = &r->options;
	int command = of_commands(r);
	char cpu[32] = "", lay[32] = "", min[32] = "";

	buf[0] = '\0';
	if (!o->samples || !(o->min_sample_ns > 0 || command))
		return;
	if (r->cpu >= 0 && !command) /* a command's runs are not pinned */
		snprintf(cpu, sizeof(cpu), ", pinned to CPU %d", r->cpu);
	if (o->layouts > 1)
		snprintf(lay, sizeof(lay), ", %u layouts", o->layouts);
	if (!command) /* a command's sample is one run, however long */
		snprintf(min, sizeof(min), " at --min-time %g",
			 o->min_sample_ns / 1e6);
	snprintf(buf, len, "%u %s%s%s in %u process%s%s%s%s", o->samples,
		 command ? "run" : "sample", o->samples == 1 ? "" : "s", min,
		 o->processes ? o->processes : 1,
		 o->processes > 1 ? "es" : "", lay, cpu,
		 command && r->results[0].command->stdout_pipe ?
		 ", standard output to a pipe" : "");
}

/* What two files record side by side: the machine (the first three,
 * cv->caveats), then the build, what settle's read limit reads with (its
 * widths follow the CPU and settle's version) and the primitives'
 * dispatch (which kernels, which loop for which sizes, where the
 * non-temporal stores start: these follow the CPU, settle's version and
 * SETTLE_POPCOUNT, SETTLE_BSWAP, SETTLE_BSWAP_NT_BYTES); then how they
 * were measured. */
struct recorded {
	const char *what, *x, *y;
};
#define RECORDED_BUILD 9 /* the machine and the build: fields [0, 9) */

static void recorded(const struct settle_report *a,
		     const struct settle_report *b, const char *sa,
		     const char *sb, struct recorded f[RECORDED_BUILD + 1])
{
	f[0] = (struct recorded){ "CPU models", a->machine.model_name,
				  b->machine.model_name };
	f[1] = (struct recorded){ "ISA extensions", a->machine.isa,
				  b->machine.isa };
	f[2] = (struct recorded){ "kernels", a->machine.kernel,
				  b->machine.kernel };
	f[3] = (struct recorded){ "compilers", a->compiler, b->compiler };
	f[4] = (struct recorded){ "build flags of settle", a->build_flags,
				  b->build_flags };
	f[5] = (struct recorded){ "read limits", a->machine.read_limit,
				  b->machine.read_limit };
	f[6] = (struct recorded){ "popcount kernels", a->machine.popcount_impl,
				  b->machine.popcount_impl };
	f[7] = (struct recorded){ "byte-swap kernels", a->machine.bswap_impl,
				  b->machine.bswap_impl };
	f[8] = (struct recorded){ "byte-swap size ranges",
				  a->machine.bswap_sizes,
				  b->machine.bswap_sizes };
	f[9] = (struct recorded){ "settings", sa, sb };
}

/* Both files say, and say differently ("" is not said). */
static int recorded_differs(const struct recorded *f)
{
	return f->x[0] && f->y[0] && strcmp(f->x, f->y) != 0;
}

/* A text snprintf() cut at size bytes ends in "..." at a character's
 * start (no UTF-8 sequence left half), so that the cut shows. */
static void cut_visibly(char *d, size_t size)
{
	size_t at = size - 4;

	while (at > 0 && ((unsigned char)d[at] & 0xc0) == 0x80)
		at--;
	memcpy(d + at, "...", 4);
}

static int differences(const struct settle_report *a,
		       const struct settle_report *b,
		       struct settle_compare_view *cv)
{
	char sa[160], sb[160];
	struct recorded fields[RECORDED_BUILD + 1];
	size_t n = RECORDED_BUILD + 1;
	char (*more)[SETTLE_VIEW_DIFFERENCE_LEN] = realloc(cv->differences,
				    (cv->ndifferences + n) * sizeof(*more));

	if (!more)
		return -1;
	cv->differences = more;
	settings(a, sa, sizeof(sa));
	settings(b, sb, sizeof(sb));
	recorded(a, b, sa, sb, fields);
	for (size_t i = 0; i < n; i++)
		if (recorded_differs(&fields[i])) {
			char *d = more[cv->ndifferences++];
			char *ex = settle_escape(fields[i].x);
			char *ey = settle_escape(fields[i].y);
			char *ea = settle_escape(a->source);
			char *eb = settle_escape(b->source);

			if (i < 3) /* the machine, not the build */
				cv->caveats |= SETTLE_CAVEAT_MACHINES;
			int w = snprintf(d, sizeof(*more), "the files come from "
				 "different %s:\n%s: %s\n%s: %s%s",
				 fields[i].what, ea ? ea : "?", ex ? ex : "?",
				 eb ? eb : "?", ey ? ey : "?",
				 i == n - 1 && a->cpu != b->cpu &&
				 !of_commands(a) && !of_commands(b) ?
				 "\n(settle "
				 "pins to the CPU it starts on unless given "
				 "--cpu;\ntwo CPUs of a virtual machine can run "
				 "at different speeds)" : "");

			if (w >= (int)sizeof(*more))
				cut_visibly(d, sizeof(*more));
			free(ex);
			free(ey);
			free(ea);
			free(eb);
		}
	return 0;
}

__attribute__((format(printf, 2, 3)))
static void warn(struct settle_compare_view *cv, const char *fmt, ...)
{
	va_list ap;

	if (cv->nwarnings == sizeof(cv->warnings) / sizeof(cv->warnings[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(cv->warnings[cv->nwarnings], sizeof(cv->warnings[0]),
		  fmt, ap);
	va_end(ap);
	settle_escape_in(cv->warnings[cv->nwarnings],
			 sizeof(cv->warnings[0]));
	/* once: a file compared with itself, or given twice, warned twice */
	for (size_t i = 0; i < cv->nwarnings; i++)
		if (!strcmp(cv->warnings[i], cv->warnings[cv->nwarnings]))
			return;
	cv->nwarnings++;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Whether x[0..n) and y[0..n) hold the same values, in any order. */
static int same_values(const double *x, const double *y, size_t n)
{
	double *a = malloc((2 * n + 1) * sizeof(*a));
	int same;

	if (!a)
		return 0;
	memcpy(a, x, n * sizeof(*a));
	memcpy(a + n, y, n * sizeof(*a));
	qsort(a, n, sizeof(*a), by_value);
	qsort(a + n, n, sizeof(*a), by_value);
	same = !memcmp(a, a + n, n * sizeof(*a));
	free(a);
	return same;
}

/* Whether the rows old and nw both have hold the same samples, in any
 * order (at least one row): one run, or a copy of its file, whatever
 * rows either has beside them. */
static int same_samples(const struct settle_report *old,
			const struct settle_report *nw)
{
	size_t rows = 0;

	for (size_t i = 0; i < nw->nresults; i++) {
		const struct settle_result *r = &nw->results[i], *o;

		if (!r->nsamples || !(o = find(old, r)) || !o->nsamples)
			continue;
		if (o->nsamples != r->nsamples ||
		    !same_values(o->samples_ns, r->samples_ns, r->nsamples))
			return 0;
		rows++;
	}
	return rows > 0;
}

/* A comparison of a run with itself: every change is 0 by construction,
 * and `same` would say nothing of another run (compare a.json a.json
 * read settled, all the same). */
static void self_compare(struct settle_compare_view *cv,
			 const struct settle_report *old,
			 const struct settle_report *nw)
{
	if (!same_samples(old, nw))
		return;
	warn(cv, "%s and %s hold the same samples (one run, or a copy of "
	     "its file): no row can change, whatever another run would show",
	     old->source, nw->source);
	cv->caveats |= SETTLE_CAVEAT_SAME;
}

/* The noise a file recorded, said again where it matters. */
static void file_noise(struct settle_compare_view *cv,
		       const struct settle_report *r)
{
	const struct settle_noise *n = &r->noise;
	size_t shared = 0;
	int noisy = 0;

	/* recorded in its rows, whatever the file's noise says */
	for (size_t i = 0; i < r->nresults; i++)
		shared += settle_result_shared_cpu(&r->results[i]) != 0;
	if (shared) {
		warn(cv, "%s: %zu row%s shared the CPU (most samples "
		     "preempted, under " SETTLE_STR(SETTLE_ON_CPU_PCT)
		     "%% of their time on it)", r->source,
		     shared, shared == 1 ? "" : "s");
		cv->caveats |= SETTLE_CAVEAT_NOISE;
	}
	if (!n->known)
		return;
	if (settle_noise_busy(n) && n->other_cpus >= 0) {
		warn(cv, "%s was measured while other work kept %.2f CPUs "
		     "busy", r->source, n->other_cpus);
		noisy = 1;
	} else if (settle_noise_busy(n)) {
		warn(cv, "%s was measured under other load (load average "
		     "%.2f)", r->source, n->loadavg);
		noisy = 1;
	}
	if (settle_noise_stolen(n->steal_pct)) {
		warn(cv, "%s: the hypervisor stole %.1f%% of the CPU time",
		     r->source, n->steal_pct);
		noisy = 1;
	}
	if (settle_noise_drift_known(n) && settle_noise_drifted(n->drift_pct)) {
		warn(cv, "%s: the core clock drifted by %+.1f%%", r->source,
		     n->drift_pct);
		noisy = 1;
	}
	if (noisy)
		cv->caveats |= SETTLE_CAVEAT_NOISE;
}

/* Nothing the two files record of the machine and the build differs
 * (the fields differences() warns of). */
static int same_recorded(const struct settle_report *a,
			 const struct settle_report *b)
{
	struct recorded f[RECORDED_BUILD + 1];

	recorded(a, b, "", "", f);
	for (size_t i = 0; i < RECORDED_BUILD; i++)
		if (recorded_differs(&f[i]))
			return 0;
	return 1;
}

/* Say of each whole command whose shell text differs that it does. */
static void commands_changed(struct settle_compare_view *cv,
			     const struct settle_compare_section *s)
{
	for (size_t i = 0; i < s->nrows; i++) {
		const struct settle_compare_row *w = &s->rows[i];

		if (command_changed(w))
			warn(cv, "%s runs another command in %s (%s) than in "
			     "%s (%s): its change is that of the command%s",
			     w->name, s->new_name, w->new_r->command->shell,
			     s->old_name, w->old_r->command->shell,
			     s->has_geomean ? ", and the geometric mean leaves "
			     "it out" : "");
	}
}

/*
 * A claim's baseline row called faster or slower between two files of the
 * same machine and build, or with an estimate beyond MOVED_UNDECIDED x
 * the band whatever its verdict (a new user's baseline moved +35.6 %,
 * unclear, from one noisy run to the next, and unchanged code beside it
 * was called slower by +8.1 % with no word of it): nothing the files
 * record explains it. If the
 * baseline's code did not change, the machine ran at another speed between
 * the runs (other load on the host, another core under the virtual CPU),
 * and every row's change carries that factor; the tables cannot tell it
 * from the code's. Warned once per pair of files, named in the summary,
 * and the comparison is not settled. Each file's ratios to its baseline
 * (settle show), measured in the same rounds, do not carry it.
 */
#define MOVED_UNDECIDED 10

/* w's check value (what the work computed) differs between the files,
 * both said (0 is not: Google Benchmark files, commands); references
 * are not held to it. */
static int check_changed(const struct settle_compare_row *w)
{
	return w->old_r && w->new_r && !w->new_r->reference &&
	       w->old_r->check && w->new_r->check &&
	       w->old_r->check != w->new_r->check;
}

static void baseline_moved(struct settle_compare_view *cv,
			   const struct settle_compare_section *s)
{
	const struct settle_compare_row *first = NULL;
	size_t n = 0, others = 0, along = 0;

	if (!same_recorded(s->old, s->nw))
		return;
	for (size_t i = 0; i < s->nrows; i++) {
		const struct settle_compare_row *w = &s->rows[i];
		int moved = w->status == SETTLE_CMP_MEASURED &&
			    (!strcmp(w->verdict, "faster") ||
			     !strcmp(w->verdict, "slower") ||
			     fabs(w->change) > MOVED_UNDECIDED * cv->band * 100);

		if (strcmp(w->new_r->variant, w->new_r->claim->baseline)) {
			others++;
			continue;
		}
		/* recorded after all: other work (checks_differ() says so),
		 * or a row whose work was hoisted (invalid); a whole
		 * command's baseline is the user's program, which a patch
		 * rebuilt at the same path changes (a patched command,
		 * alone in its files, read "not settled: a baseline moved
		 * ... between files pinned to different CPUs") */
		if (!moved || w->new_r->command || check_changed(w) ||
		    w->invalid_new || w->invalid_old)
			continue;
		first = first ? first : w;
		n++;
	}
	if (!first)
		return;
	for (size_t i = 0; i < s->nrows; i++) { /* others moved so, by their
						 * estimates beyond the band */
		const struct settle_compare_row *w = &s->rows[i];

		along += strcmp(w->new_r->variant, w->new_r->claim->baseline) &&
			 w->status == SETTLE_CMP_MEASURED &&
			 w->change * first->change > 0 &&
			 fabs(w->change) > cv->band * 100;
	}
	warn(cv, "the baseline %s moved %s (%s) from %s to %s%s, on the "
	     "same machine and build, and %zu of the %zu other rows moved "
	     "the same way by more than the band (their estimates, decided "
	     "or not): if its code is unchanged, the machine ran at "
	     "another speed, and every change carries it", first->name,
	     first->change_text, first->verdict, s->old_name, s->new_name,
	     n > 1 ? " (and other baselines)" : "", along, others);
	if (!(cv->caveats & SETTLE_CAVEAT_MOVED))
		snprintf(cv->moved, sizeof(cv->moved), "%s %s", first->name,
			 first->change_text);
	cv->caveats |= SETTLE_CAVEAT_MOVED;
	/* recorded after all: two CPUs of a VM can run at different
	 * speeds (the differences say so) */
	if (s->old->cpu != s->nw->cpu)
		cv->caveats |= SETTLE_CAVEAT_CPUS;
}

/*
 * Rows whose check value (what the work computed; every variant of a
 * file agrees on it) differs between the two files measured other work:
 * their change is not the code's speed alone (a claim file's loop
 * halved once read as "-49 % faster", explained only as a moved
 * baseline). Warned with the first such row and the count; the
 * comparison is not settled. A check of 0 is not said (Google
 * Benchmark files, commands); references are left out (a run does not
 * hold them to the others' check either).
 */
static void checks_differ(struct settle_compare_view *cv,
			  const struct settle_compare_section *s)
{
	const struct settle_compare_row *first = NULL;
	size_t n = 0;

	for (size_t i = 0; i < s->nrows; i++) {
		const struct settle_compare_row *w = &s->rows[i];

		if (!check_changed(w))
			continue;
		first = first ? first : w;
		n++;
	}
	if (!first)
		return;
	warn(cv, "%s computed another check value in %s (%llu) than in %s "
	     "(%llu)%s: the two files measured other work, and %s change "
	     "is not the code's speed alone", first->name, s->new_name,
	     (unsigned long long)first->new_r->check, s->old_name,
	     (unsigned long long)first->old_r->check,
	     n > 1 ? " (and other rows)" : "", n > 1 ? "their" : "its");
	cv->caveats |= SETTLE_CAVEAT_CHECK;
}

__attribute__((format(printf, 2, 3)))
static void failure(struct settle_compare_view *cv, const char *fmt, ...)
{
	va_list ap;

	if (cv->nfailures == sizeof(cv->failures) / sizeof(cv->failures[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(cv->failures[cv->nfailures], sizeof(cv->failures[0]), fmt,
		  ap);
	va_end(ap);
	settle_escape_in(cv->failures[cv->nfailures], sizeof(cv->failures[0]));
	cv->nfailures++;
}

/* What a CI check must not pass: nothing compared, a row gone, a row
 * that cannot be decided for want of samples (one sample a side, as a
 * Google Benchmark file without repetitions has, never decides). */
static void section_failures(struct settle_compare_view *cv,
			     const struct settle_compare_section *s)
{
	if (s->old->nresults == 0 || s->nw->nresults == 0)
		failure(cv, "%s has no results at all",
			s->old->nresults == 0 ? s->old->source : s->nw->source);
	else if (s->nrows == 0)
		failure(cv, "%s and %s have no row in common", s->old->source,
			s->nw->source);
	else if (s->nmeasured == 0) /* rows below resolution, invalid or
				     * without samples */
		failure(cv, "%s and %s have no row in common with a time of "
			"the work's in both", s->old->source, s->nw->source);
	for (size_t i = 0; i < s->nrows; i++) {
		if (s->rows[i].invalid_new)
			failure(cv, "%s: %s is invalid", s->nw->source,
				s->rows[i].name);
		else if (s->rows[i].invalid_old)
			failure(cv, "%s: %s is invalid", s->old->source,
				s->rows[i].name);
		if (s->rows[i].empty_new)
			failure(cv, "%s: %s has no samples", s->nw->source,
				s->rows[i].name);
		else if (s->rows[i].status == SETTLE_CMP_MEASURED &&
			 settle_why_too_few(s->rows[i].why))
			failure(cv, "%s cannot be decided: %s (%s %s)",
				s->rows[i].name, s->rows[i].why,
				s->rows[i].change_text, s->rows[i].verdict);
	}
	if (s->nonly_old)
		failure(cv, "%zu row%s of %s %s missing from %s (first: %s)",
			s->nonly_old, s->nonly_old > 1 ? "s" : "",
			s->old->source, s->nonly_old > 1 ? "are" : "is",
			s->nw->source, s->only_old[0]);
}

/* Append "name +x%" of rows with verdict v (up to 3, then "and n more"). */
static size_t list_rows(const struct settle_compare_view *cv, const char *v,
			char *buf, size_t len)
{
	size_t n = 0, used = strlen(buf);

	for (size_t k = 0; k < cv->nsections; k++)
		for (size_t i = 0; i < cv->sections[k].nrows; i++) {
			const struct settle_compare_row *w =
				&cv->sections[k].rows[i];

			if (w->status != SETTLE_CMP_MEASURED ||
			    strcmp(w->verdict, v))
				continue;
			if (n < 3 && used < len)
				used += (size_t)snprintf(buf + used, len - used,
					"%s%s %s", n ? ", " : " (", w->name,
					w->change_text);
			n++;
		}
	if (n > 3 && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 " and %zu more", n - 3);
	if (n && used < len)
		snprintf(buf + used, len - used, ")");
	return n;
}

static size_t count_verdict(const struct settle_compare_view *cv,
			    const char *v, const char *why)
{
	size_t n = 0;

	for (size_t k = 0; k < cv->nsections; k++)
		for (size_t i = 0; i < cv->sections[k].nrows; i++) {
			const struct settle_compare_row *w =
				&cv->sections[k].rows[i];

			/* a reason and what follows it (how far) */
			n += !strcmp(w->verdict, v) &&
			     (!why || (w->why &&
				       !strncmp(w->why, why, strlen(why))));
		}
	return n;
}

/*
 * Unclear rows whose reason is not noise: measured in other layouts (or
 * not in every layout, or in layouts that are not a whole set of slots),
 * below the timer's resolution, failed runs. Every reason of this list
 * is set whatever the interval (make_row()): a reason added there belongs
 * here too.
 */
static size_t unclear_not_noise(const struct settle_compare_view *cv)
{
	static const char *const why[] = {
		why_other_layouts, why_no_process, why_no_round,
		why_below_resolution, why_uneven, why_failed,
		SETTLE_WHY_PART_SLOTS, SETTLE_WHY_OFF_SLOT,
		SETTLE_WHY_MOVES_HEAD,
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++)
		n += count_verdict(cv, "unclear", why[i]);
	return n;
}

/*
 * The summary's caveats from cv->caveats, appended at used: a change
 * between two machines may be the machines'; one file's noise is not
 * interleaved with the other's rows, so it may move them all. The rows'
 * verdicts stand; the reader is told what else differs.
 */
static void caveats(struct settle_compare_view *cv, size_t used)
{
	int noise = cv->caveats & SETTLE_CAVEAT_NOISE;

	if (used < sizeof(cv->summary) && (cv->caveats & SETTLE_CAVEAT_MOVED))
		used += (size_t)snprintf(cv->summary + used,
			sizeof(cv->summary) - used, "; a baseline moved (%s) "
			"%s: if its code is unchanged, so did the machine's "
			"speed, which is part of every change", cv->moved,
			cv->caveats & SETTLE_CAVEAT_CPUS ? "between files pinned to different "
			"CPUs" : noise ? "while a file was measured under "
			"noise (see the warnings)" : "with nothing recorded to "
			"explain it");
	if (cv->caveats & SETTLE_CAVEAT_MOVED &&
	    !(cv->caveats & SETTLE_CAVEAT_CPUS))
		noise = 0; /* said with the baseline */
	if (used < sizeof(cv->summary) && (cv->caveats & SETTLE_CAVEAT_SAME))
		used += (size_t)snprintf(cv->summary + used,
			sizeof(cv->summary) - used, "; a file holds the "
			"other's samples: a run compared with itself");
	if (used < sizeof(cv->summary) && (cv->caveats & SETTLE_CAVEAT_CHECK))
		used += (size_t)snprintf(cv->summary + used,
			sizeof(cv->summary) - used, "; rows computed another "
			"check value in each file: other work was measured");
	if (used < sizeof(cv->summary) &&
	    (cv->caveats & SETTLE_CAVEAT_MACHINES))
		used += (size_t)snprintf(cv->summary + used,
			sizeof(cv->summary) - used, "; note: the files come "
			"from different machines, whose difference is part "
			"of every change");
	if (used < sizeof(cv->summary) && noise)
		snprintf(cv->summary + used, sizeof(cv->summary) - used,
			 "; note: a file was measured under noise (see the "
			 "warnings), which moves all of that file's rows");
}

/*
 * What changed, said once: settled when every compared row has a verdict
 * other than unclear, none is invalid or undefined, and none was compared
 * by pooled samples (their interval does not show how far another run
 * differs: the note under the table).
 */
static void summary(struct settle_compare_view *cv)
{
	char slower[300] = "", faster[300] = "";
	size_t rows = 0, ns, nf, nsame, nunclear, ninvalid, nundef = 0;
	size_t used;
	int pooled = cv->layouts & SETTLE_BY_POOLED;

	for (size_t k = 0; k < cv->nsections; k++) {
		rows += cv->sections[k].nrows;
		for (size_t i = 0; i < cv->sections[k].nrows; i++)
			nundef += cv->sections[k].rows[i].status !=
				  SETTLE_CMP_MEASURED &&
				  !cv->sections[k].rows[i].verdict[0];
	}
	ns = list_rows(cv, "slower", slower, sizeof(slower));
	nf = list_rows(cv, "faster", faster, sizeof(faster));
	nsame = count_verdict(cv, "same", NULL);
	nunclear = count_verdict(cv, "unclear", NULL);
	ninvalid = count_verdict(cv, "invalid", NULL);
	cv->settled = rows && !nunclear && !ninvalid && !nundef && !pooled &&
		      !(cv->caveats & (SETTLE_CAVEAT_MOVED | SETTLE_CAVEAT_CHECK |
				       SETTLE_CAVEAT_SAME));
	used = (size_t)snprintf(cv->summary, sizeof(cv->summary), "%s",
				cv->settled ? SETTLE_SETTLED : SETTLE_NOT_SETTLED);
	if (!rows) {
		snprintf(cv->summary + used, sizeof(cv->summary) - used,
			 "no row in common");
		return;
	}
	if (nunclear) {
		size_t edge = count_verdict(cv, "unclear",
					    SETTLE_WHY_STRADDLES);
		size_t other = unclear_not_noise(cv);

		used += (size_t)snprintf(cv->summary + used,
			sizeof(cv->summary) - used, "%zu of %zu rows unclear "
			"(%zu with an interval straddling the band's edge, "
			"%zu too noisy or too few samples", nunclear, rows,
			edge, nunclear - edge - other);
		if (other)
			used += (size_t)snprintf(cv->summary + used,
				sizeof(cv->summary) - used, ", %zu for "
				"another reason the table gives", other);
		used += (size_t)snprintf(cv->summary + used,
			sizeof(cv->summary) - used, "); ");
	}
	if (ninvalid || nundef)
		used += (size_t)snprintf(cv->summary + used,
			sizeof(cv->summary) - used, "%zu invalid, %zu "
			"undefined; ", ninvalid, nundef);
	used += (size_t)snprintf(cv->summary + used,
		sizeof(cv->summary) - used,
		"%zu slower%s, %zu faster%s, %zu the same (band +-%g%%)%s%s", ns,
		slower, nf, faster, nsame, cv->band * 100,
		pooled ? "; by pooled samples of each run, which do not show "
		"how far another run differs" : "",
		cv->layouts & SETTLE_BY_POOLED_CLAIM ?
		" (measure with --layouts 4)" :
		cv->layouts & SETTLE_BY_POOLED_GBENCH ?
		" (measure with settle run --layouts 4)" : "");
	caveats(cv, used);
}

/* Some row of cv carries the "!" mark. */
static int marked(const struct settle_compare_view *cv)
{
	for (size_t k = 0; k < cv->nsections; k++)
		for (size_t i = 0; i < cv->sections[k].nrows; i++)
			if (cv->sections[k].rows[i].mark[0])
				return 1;
	return 0;
}

/* One more note under the tables, marked mark. */
static void add_note(struct settle_compare_view *cv, const char *mark,
		     const char *fmt, ...)
{
	struct settle_view_note *n = &cv->notes[cv->nnotes++];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	va_end(ap);
	n->mark = mark;
}

/* The lowest confidence of a measured row's interval (1 when none). */
static double lowest_level(const struct settle_compare_view *cv)
{
	double l = 1;

	for (size_t k = 0; k < cv->nsections; k++)
		for (size_t i = 0; i < cv->sections[k].nrows; i++) {
			const struct settle_compare_row *w =
				&cv->sections[k].rows[i];

			if (w->status == SETTLE_CMP_MEASURED &&
			    w->level >= SETTLE_MIN_LEVEL && w->level < l)
				l = w->level; /* a printed interval */
		}
	return l;
}

static void compare_notes(struct settle_compare_view *cv)
{
	double level = lowest_level(cv);
	int moved = 0;

	for (size_t k = 0; k < cv->nsections; k++)
		for (size_t i = 0; i < cv->sections[k].nrows; i++)
			moved |= cv->sections[k].rows[i].lmark &&
				 cv->sections[k].rows[i].lmark[0];
	if (cv->layouts & (SETTLE_BY_UNITS | SETTLE_BY_PROCESS) &&
	    !(cv->layouts & SETTLE_BY_POOLED)) /* no pooled row */
		snprintf(cv->notes[0].text, sizeof(cv->notes[0].text),
			 "change: new time / old time - 1, compared as the "
			 "notes below say (not the ratio of the two medians "
			 "shown, which pool every sample); band +-%g%%",
			 cv->band * 100);
	else
		snprintf(cv->notes[0].text, sizeof(cv->notes[0].text),
			 "change: new time / old time - 1, %sthe "
			 "Hodges-Lehmann estimate (the median of every new/old "
			 "pair of samples, not the ratio of the two medians "
			 "shown), 95%% Mann-Whitney interval; every repetition "
			 "of a name pooled; band +-%g%%",
			 cv->layouts & (SETTLE_BY_UNITS | SETTLE_BY_PROCESS) ?
			 "for rows not compared by layouts (below) " : "",
			 cv->band * 100);
	cv->notes[0].mark = "";
	snprintf(cv->notes[1].text, sizeof(cv->notes[1].text),
		 "unstable on either side (MAD above %g%% of the median, the "
		 "best sample more than %g%% below it, or a quarter of the "
		 "samples more than %g%% above it): do not trust that row",
		 SETTLE_UNSTABLE_MAD * 100, SETTLE_UNSTABLE_BEST * 100,
		 SETTLE_UNSTABLE_SLOW * 100);
	cv->notes[1].mark = "!";
	cv->nnotes = marked(cv) ? 2 : 1; /* the legend only with a "!" */
	if (cv->layouts & SETTLE_BY_UNITS)
		add_note(cv, "", "rows measured in two layouts or more in both "
			 "files, by fewer than %d processes in one: the samples "
			 "are taken in balanced units, one round of every "
			 "layout averaged over the layouts, and the change and "
			 "its interval are those of the units: a time that "
			 "only moves with the layout (code that only moved) is "
			 "the same in every unit; the rounds of a process do "
			 "not show how far another run differs "
			 "(docs/layouts.md)", SETTLE_MIN_UNITS);
	if (cv->layouts & SETTLE_BY_PROCESS)
		add_note(cv, "", "rows measured by %d processes or more in "
			 "both files (in two layouts or more in each, or in "
			 "one): the process is the unit, its level the mean "
			 "over its layouts of each layout's log median, and the "
			 "change and its interval are those of the levels: a "
			 "claim's time that only moves with the layout (code "
			 "that only moved) is the same in every process (a "
			 "command's level: its runs in that process), and two runs "
			 "differ by more than the rounds of one process show; "
			 "the change is that of the levels' means (20%% "
			 "trimmed from 5 processes a file), its 95%% interval "
			 "Welch's t (Yuen's from 5 processes) "
			 "(docs/layouts.md)", SETTLE_MIN_UNITS);
	if (settle_level_short(level))
		add_note(cv, "", "some intervals are %.1f%% ones, not 95%%: "
			 "the Mann-Whitney interval of so few values (such as "
			 "3 balanced units or samples a file) cannot reach "
			 "95%% (too few orderings); measure 4 or more in each "
			 "file, or 3 processes or more; an "
			 "interval below 90%% is not printed ('-')",
			 level * 100);
	if (cv->layouts & SETTLE_BY_POOLED)
		add_note(cv, "", "%s: "
			 "each file's samples are pooled, and the interval "
			 "shows how they spread within each run, not how far "
			 "another run of the same code differs: unchanged "
			 "code can be called slower or faster. %s",
			 cv->layouts & (SETTLE_BY_POOLED_CLAIM |
					SETTLE_BY_POOLED_GBENCH) ?
			 "rows not measured in "
			 "layouts in both files" : "whole commands measured in "
			 "fewer than 3 processes in either file",
			 cv->layouts & SETTLE_BY_POOLED_CLAIM ?
			 "Measure both files alike: both "
			 "with --layouts 4 (4 processes, the process as the "
			 "unit; docs/layouts.md), or both with at least "
			 "--processes 3 (one file in layouts and the other not "
			 "measure two quantities: the samples are pooled)"
			 : cv->layouts & SETTLE_BY_POOLED_GBENCH ?
			 "A Google Benchmark program's "
			 "file keeps no processes or layouts (its repetitions "
			 "are one process's): measure with settle run "
			 "--layouts 4 for the process as the unit"
			 : "A file's runs share one session of the machine: "
			 "measure both "
			 "files with --processes 3 or more (each process's "
			 "runs one level, the process the unit)");
	if (moved)
		add_note(cv, "~", "layout-sensitive on either side: its time "
			 "moves with where code, data and stack sit, beyond the "
			 "noise within a layout (p < %g) and by more than +-%g%% "
			 "(docs/layouts.md)", SETTLE_LAYOUT_ALPHA,
			 cv->band * 100);
}

int settle_compare_build(const struct settle_report *old,
			 const struct settle_report *const *news, size_t nnew,
			 double fail_pct, struct settle_compare_view *cv)
{
	memset(cv, 0, sizeof(*cv));
	cv->band = nnew ? news[0]->options.band : 0.01;
	cv->sections = calloc(nnew + 1, sizeof(*cv->sections));
	if (!cv->sections)
		return -1;
	for (size_t k = 0; k < nnew; k++)
		if (differences(old, news[k], cv) < 0)
			goto fail;
	for (size_t k = 0; k < nnew; k++) {
		if (section(old, news[k], fail_pct, &cv->sections[k],
			    &cv->slower, &cv->layouts) < 0) {
			cv->nsections = k + 1;
			goto fail;
		}
		cv->nsections++;
	}
	for (size_t k = 0; k < cv->nsections; k++) {
		section_failures(cv, &cv->sections[k]);
		baseline_moved(cv, &cv->sections[k]);
		checks_differ(cv, &cv->sections[k]);
		commands_changed(cv, &cv->sections[k]);
		self_compare(cv, old, news[k]);
	}
	file_noise(cv, old);
	for (size_t k = 0; k < nnew; k++)
		file_noise(cv, news[k]);
	summary(cv);
	compare_notes(cv);
	return 0;
fail:
	settle_compare_free(cv);
	return -1;
}

void settle_compare_free(struct settle_compare_view *cv)
{
	for (size_t k = 0; cv->sections && k < cv->nsections; k++) {
		free(cv->sections[k].rows);
		free(cv->sections[k].only_old);
		free(cv->sections[k].only_new);
		free(cv->sections[k].shares);
	}
	free(cv->sections);
	free(cv->differences);
	memset(cv, 0, sizeof(*cv));
}
