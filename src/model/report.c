/*
 * report.c - the life of a report (see model.h): its store of strings and
 * claim descriptions, appending results, grouping them by claim and size,
 * analysing them, pooling fresh processes, freeing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/command.h"
#include "model/model.h"
#include "stats/nonparam.h"
#include "stats/rules.h"
#include "util/util.h"

/* What a report owns besides its results: freed together. */
struct store {
	void **p;
	size_t n, cap;
	const struct settle_claim_info **claims;
	size_t nclaims;
};

int settle_report_open(struct settle_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->owned = calloc(1, sizeof(struct store));
	return rep->owned ? 0 : -1;
}

/* Keep p (malloc'ed) until the report is freed; NULL when out of memory
 * (p is then freed). */
static void *keep(struct settle_report *rep, void *p)
{
	struct store *s = rep->owned;

	if (!p || !s) {
		free(p);
		return NULL;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		void **np = realloc(s->p, cap * sizeof(*np));

		if (!np) {
			free(p);
			return NULL;
		}
		s->p = np;
		s->cap = cap;
	}
	s->p[s->n++] = p;
	return p;
}

const char *settle_report_strdup(struct settle_report *rep, const char *s)
{
	return s ? keep(rep, strdup(s)) : NULL;
}

void settle_claim_describe(const struct settle_claim *c,
			   struct settle_claim_info *out)
{
	memset(out, 0, sizeof(*out));
	out->name = c->name;
	out->title = c->title;
	out->description = c->description;
	out->op_name = c->op_name;
	out->original = c->original;
	out->baseline = c->baseline;
	out->sized = c->default_sizes != NULL;
	out->bytes_per_op = c->bytes_per_op;
	out->show_cycles = c->show_cycles;
}

/* s, or dflt when s is NULL or "" (an empty title or op_name would head
 * a table with nothing, or a column with "per"). */
static const char *or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

const struct settle_claim_info *
settle_report_claim(struct settle_report *rep,
		    const struct settle_claim_info *c)
{
	struct store *s = rep->owned;
	struct settle_claim_info *k;
	const struct settle_claim_info **more;

	if (!s || !c->name)
		return NULL;
	for (size_t i = 0; i < s->nclaims; i++)
		if (!strcmp(s->claims[i]->name, c->name))
			return s->claims[i];
	k = keep(rep, calloc(1, sizeof(*k)));
	more = realloc(s->claims, (s->nclaims + 1) * sizeof(*more));
	if (!k || !more)
		return NULL;
	s->claims = more;
	*k = *c;
	k->conclusion = NULL;
	k->name = settle_report_strdup(rep, c->name);
	k->title = settle_report_strdup(rep, or(c->title, c->name));
	k->description = settle_report_strdup(rep, or(c->description, ""));
	k->op_name = settle_report_strdup(rep, or(c->op_name, "op"));
	k->original = settle_report_strdup(rep, c->original);
	k->baseline = settle_report_strdup(rep, or(c->baseline, ""));
	if (!k->name || !k->title || !k->description || !k->op_name ||
	    !k->baseline || (c->original && !k->original))
		return NULL;
	s->claims[s->nclaims++] = k;
	return k;
}

int settle_report_conclude(struct settle_report *rep,
			   const struct settle_claim_info *claim,
			   const struct settle_conclusion *c)
{
	struct settle_conclusion *k;

	if (!c) {
		((struct settle_claim_info *)claim)->conclusion = NULL;
		return 0;
	}
	k = keep(rep, malloc(sizeof(*k)));
	if (!k)
		return -1;
	*k = *c;
	/* the description is the report's own: claim came from
	 * settle_report_claim() */
	((struct settle_claim_info *)claim)->conclusion = k;
	return 0;
}

/* Copies of params[0..n) and their strings, owned by rep. */
static struct settle_param *copy_params(struct settle_report *rep,
					const struct settle_param *params,
					size_t n)
{
	struct settle_param *p = keep(rep, calloc(n + 1, sizeof(*p)));

	if (!p)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		p[i].type = params[i].type;
		p[i].key = settle_report_strdup(rep, params[i].key);
		p[i].value = settle_report_strdup(rep, params[i].value);
		p[i].label = settle_report_strdup(rep, params[i].label);
		if (!p[i].key || !p[i].value ||
		    (params[i].label && !p[i].label))
			return NULL;
	}
	return p;
}

struct settle_result *
settle_report_append(struct settle_report *rep,
		     const struct settle_claim_info *claim, const char *name,
		     const char *build, const struct settle_param *params,
		     size_t nparams, const char *label, int reference,
		     uint64_t size_bytes)
{
	struct settle_result *r;
	char lb[512];

	if (rep->nresults == rep->cap) {
		size_t cap = rep->cap ? 2 * rep->cap : 32;
		void *p = realloc(rep->results, cap * sizeof(*rep->results));

		if (!p)
			return NULL;
		rep->results = p;
		rep->cap = cap;
	}
	r = &rep->results[rep->nresults];
	memset(r, 0, sizeof(*r));
	r->claim = claim;
	r->variant = settle_report_strdup(rep, name);
	r->build = settle_report_strdup(rep, build);
	r->params = copy_params(rep, params, nparams);
	r->nparams = nparams;
	r->reference = reference;
	r->size_bytes = size_bytes;
	if (!label)
		label = settle_label(build, params, nparams, name, lb,
				     sizeof(lb));
	r->label = settle_report_strdup(rep, label);
	if (!r->variant || (build && !r->build) || !r->params || !r->label)
		return NULL;
	rep->nresults++;
	return r;
}

struct settle_result *
settle_report_append_variant(struct settle_report *rep,
			     const struct settle_claim_info *claim,
			     const struct settle_variant *v,
			     uint64_t size_bytes)
{
	struct settle_result *r;

	r = settle_report_append(rep, claim, v->name, v->build, v->params,
				 v->nparams, v->label,
				 !!(v->flags & SETTLE_REFERENCE), size_bytes);
	if (r)
		r->unaligned_code = !!(v->flags & SETTLE_UNALIGNED_CODE);
	return r;
}

static int any_layout(const unsigned char *layouts, size_t n)
{
	for (size_t i = 0; layouts && i < n; i++)
		if (layouts[i])
			return 1;
	return 0;
}

int settle_result_add_samples(struct settle_result *r, const double *x,
			      const unsigned char *layouts, size_t n)
{
	double *p = realloc(r->samples_ns, (r->nsamples + n + 1) * sizeof(*p));
	unsigned char *l;

	if (!p)
		return -1;
	r->samples_ns = p;
	if (r->sample_layouts || any_layout(layouts, n)) {
		l = realloc(r->sample_layouts, r->nsamples + n + 1);
		if (!l)
			return -1;
		if (!r->sample_layouts)
			memset(l, 0, r->nsamples);
		if (layouts)
			memcpy(l + r->nsamples, layouts, n);
		else
			memset(l + r->nsamples, 0, n);
		r->sample_layouts = l;
	}
	memcpy(p + r->nsamples, x, n * sizeof(*p));
	r->nsamples += n;
	return 0;
}

void settle_result_skip_apart(struct settle_result *r)
{
	r->skipped = SETTLE_WHY_AVAILABLE_APART;
	r->nsamples = 0;
	r->preempted = 0;
	r->below_resolution = 0;
	r->shortest_sample_ns = 0;
	r->cycles_total = 0;
}

static int apart(const struct settle_result *r)
{
	return r->skipped && !strcmp(r->skipped, SETTLE_WHY_AVAILABLE_APART);
}

int settle_result_same_group(const struct settle_result *a,
			     const struct settle_result *b)
{
	return settle_same_group(a->build, a->params, a->nparams, b->build,
				 b->params, b->nparams);
}

int settle_result_same_key(const struct settle_result *a,
			   const struct settle_result *b)
{
	return strcmp(a->claim->name, b->claim->name) == 0 &&
	       strcmp(a->variant, b->variant) == 0 &&
	       a->size_bytes == b->size_bytes &&
	       settle_result_same_group(a, b);
}

size_t settle_report_group_end(const struct settle_report *rep,
			       size_t first)
{
	size_t j = first + 1;

	while (j < rep->nresults &&
	       rep->results[j].claim == rep->results[first].claim &&
	       rep->results[j].size_bytes == rep->results[first].size_bytes)
		j++;
	return j;
}

/* Index of the baseline of res[i] among res[0..n), or -1. */
static long baseline_in(const struct settle_result *res, size_t n, size_t i)
{
	const char *base = res[i].claim->baseline;

	for (size_t k = 0; k < n; k++)
		if (!strcmp(res[k].variant, base) && !res[k].reference &&
		    settle_result_same_group(&res[k], &res[i]))
			return (long)k;
	return -1;
}

long settle_report_baseline(const struct settle_report *rep, size_t i)
{
	size_t first = i, end;
	long b;

	while (first > 0 &&
	       rep->results[first - 1].claim == rep->results[i].claim &&
	       rep->results[first - 1].size_bytes == rep->results[i].size_bytes)
		first--;
	end = settle_report_group_end(rep, first);
	b = baseline_in(&rep->results[first], end - first, i - first);
	return b < 0 ? -1 : (long)first + b;
}

/* No result may read a buffer this many times faster than a plain read. */
#define READ_LIMIT_MARGIN 2.0
/* ... of this many bytes or more. Below, a plain read's pass is mostly its
 * fixed cost (the edges' masked or partial loads: 2.7-3.2 ns at 1-8 B on
 * the Zen 5 guest, 1.4 ns at 64 B, 1.6 ns at 256 B), not a rate: a byte
 * summed in 0.5 ns a pass read 4x "faster" than it at 1 B. From 1 KiB the
 * plain read runs at its full rate (Zen 5: 432 B/ns at 1 KiB, 438 at
 * 32 KiB). */
#define READ_LIMIT_FROM 1024

double settle_repeat_ratio(const struct settle_result *r)
{
	double a = INFINITY, b = INFINITY;

	/* the fastest call of each kind: disturbance (preemption, another
	 * process on the CPU) only ever adds time, and a call shorter than
	 * a time slice is often disturbed whole */
	for (size_t k = 0; k < r->nrepeat && k < SETTLE_REPEAT_PAIRS;
	     k++) {
		a = r->repeat1_ns[k] < a ? r->repeat1_ns[k] : a;
		b = r->repeat2_ns[k] < b ? r->repeat2_ns[k] : b;
	}
	return isfinite(a) && a > 0 && isfinite(b) ? b / a : NAN;
}

double settle_repeat_pair_ratio(const struct settle_result *r)
{
	double q[SETTLE_REPEAT_PAIRS];
	size_t n = 0;

	for (size_t k = 0; k < r->nrepeat && k < SETTLE_REPEAT_PAIRS; k++)
		if (r->repeat1_ns[k] > 0 && isfinite(r->repeat2_ns[k]))
			q[n++] = r->repeat2_ns[k] / r->repeat1_ns[k];
	return n ? settle_median_inplace(q, n) : NAN;
}

double settle_repeat_score(const struct settle_result *r)
{
	return fmin(settle_repeat_ratio(r) / SETTLE_REPEAT_GROWTH,
		    settle_repeat_pair_ratio(r) / SETTLE_REPEAT_FIXED);
}

/* The median time of the repetition check's calls of r->iters
 * repetitions, formatted into buf ("?" when none). */
static const char *call_time(const struct settle_result *r, char *buf,
			     size_t len)
{
	double q[SETTLE_REPEAT_PAIRS];
	size_t n = 0;

	for (size_t k = 0; k < r->nrepeat && k < SETTLE_REPEAT_PAIRS; k++)
		if (r->repeat1_ns[k] > 0)
			q[n++] = r->repeat1_ns[k];
	if (!n) {
		snprintf(buf, len, "?");
		return buf;
	}
	return settle_format_ns(settle_median_inplace(q, n), buf, len);
}

/*
 * Decide from the evidence whether r is invalid: its time did not grow
 * with the repetitions (the fastest 2n call under SETTLE_REPEAT_GROWTH x
 * the fastest n call), a cost paid once a call is more than a fifth of
 * it (the median pair under SETTLE_REPEAT_FIXED), its time grew faster
 * than the repetitions (both over SETTLE_REPEAT_SUPER), or it reads faster
 * than READ_LIMIT_MARGIN
 * x a plain read of the same size measured in the same run (from
 * READ_LIMIT_FROM bytes).
 */
static void judge(struct settle_result *r)
{
	double q = settle_repeat_ratio(r), qm = settle_repeat_pair_ratio(r);
	char t[32];
	int paired = r->repeat_iters == 2 * r->iters; /* n and 2n timed */

	r->invalid[0] = '\0';
	if (r->skipped || r->nsamples == 0 || r->below_resolution)
		return;
	/* a call whose time does not grow: hoisted, removed, or a cost of
	 * its own once a call (usleep(500) in run() read "hoisted") */
	if (paired && q < SETTLE_REPEAT_GROWTH) {
		snprintf(r->invalid, sizeof(r->invalid), "twice the "
			 "repetitions took %.2fx the time, not 2x: the work "
			 "was hoisted or removed, or a cost once a call (a "
			 "call of %llu took %s) is nearly all of it", q,
			 (unsigned long long)r->iters, call_time(r, t,
								 sizeof(t)));
		return;
	}
	if (paired && qm < SETTLE_REPEAT_GROWTH) {
		/* the fastest calls grew, most pairs did not */
		snprintf(r->invalid, sizeof(r->invalid), "twice the "
			 "repetitions took %.2fx the time in the median pair, "
			 "not 2x: the work was hoisted or removed, or a cost "
			 "once a call (a call of %llu took %s) is nearly all "
			 "of it", qm, (unsigned long long)r->iters,
			 call_time(r, t, sizeof(t)));
		return;
	}
	if (paired && qm < SETTLE_REPEAT_FIXED) {
		/* T(n) = F + n c: T(2n) / T(n) = 2 - F / T(n) */
		snprintf(r->invalid, sizeof(r->invalid), "twice the "
			 "repetitions took %.2fx the time, not 2x: %.0f%% of "
			 "a call is paid once a call, not per repetition, so "
			 "its time per op is %.2fx too long (set-up inside "
			 "run()? docs/writing-a-claim.md)", qm,
			 100 * (2 - qm), 1 / (qm - 1));
		return;
	}
	/* not a body that blocks: a ping-pong with a partner process on a
	 * busy machine waits for its partner's turn more often the longer
	 * it runs (syscall's pingpong-cross read 3.56x under load) */
	if (paired && !r->repeat_blocked && q > SETTLE_REPEAT_SUPER &&
	    qm > SETTLE_REPEAT_SUPER) {
		snprintf(r->invalid, sizeof(r->invalid), "twice the "
			 "repetitions took %.2fx the time, not 2x: later "
			 "repetitions cost more (state growing within "
			 "run()?), so the time per op depends on their "
			 "number", fmin(q, qm));
		return;
	}
	if (r->read_limit_bpns > 0 && r->bytes_per_ns > 0 &&
	    r->claim->bytes_per_op == SETTLE_BYTES_SIZE &&
	    r->size_bytes >= READ_LIMIT_FROM &&
	    r->bytes_per_ns > READ_LIMIT_MARGIN * r->read_limit_bpns)
		snprintf(r->invalid, sizeof(r->invalid),
			 "%.3g B/ns is %.1fx what a plain read of this size "
			 "reaches (%.3g B/ns): the work was hoisted or removed",
			 r->bytes_per_ns, r->bytes_per_ns / r->read_limit_bpns,
			 r->read_limit_bpns);
}

size_t settle_report_invalid(const struct settle_report *rep)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->nresults; i++)
		n += rep->results[i].invalid[0] != '\0';
	return n;
}

size_t settle_report_below_resolution(const struct settle_report *rep)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->nresults; i++)
		n += rep->results[i].below_resolution &&
		     !rep->results[i].skipped;
	return n;
}

/* ---- layouts (docs/layouts.md) ------------------------------------- */

static unsigned layout_of(const struct settle_result *r, size_t j)
{
	return r->sample_layouts ? r->sample_layouts[j] : 0;
}

/* The layouts r's samples [from, to) were measured in: seen[l] set for
 * each; returns how many. */
static unsigned layouts_in(const struct settle_result *r, size_t from,
			   size_t to, unsigned char seen[256])
{
	unsigned n = 0;

	memset(seen, 0, 256);
	for (size_t j = from; j < to; j++) {
		unsigned l = layout_of(r, j);

		n += !seen[l];
		seen[l] = 1;
	}
	return n;
}

/* Median of the samples of r in [from, to) with layout l; 0 for none.
 * buf holds to - from values. */
static double layout_median(const struct settle_result *r, size_t from,
			    size_t to, unsigned l, double *buf)
{
	size_t n = 0;

	for (size_t j = from; j < to; j++)
		if (layout_of(r, j) == l)
			buf[n++] = r->samples_ns[j];
	return settle_median_inplace(buf, n);
}

/* The samples of r in [from, to) with layout l, in time order: the
 * first half (h 0), the rest (h 1), or all (h < 0); their median. buf
 * holds to - from values. 0 when there are none. */
static double cell_median(const struct settle_result *r, size_t from,
			  size_t to, unsigned l, int h, double *buf)
{
	size_t n = 0, k = 0, seen = 0;

	for (size_t j = from; j < to; j++)
		n += layout_of(r, j) == l;
	for (size_t j = from; j < to; j++) {
		if (layout_of(r, j) != l)
			continue;
		if (h < 0 || (seen < (n + 1) / 2) == (h == 0))
			buf[k++] = r->samples_ns[j];
		seen++;
	}
	return settle_median_inplace(buf, k);
}

/*
 * The layouts of a block-by-layout table y[b * nl + i] (nb blocks, nl
 * layouts) as a randomized complete block design: two-way analysis of
 * variance without interaction, F = MS(layouts) / MS(residual) on nl - 1
 * and (nl - 1)(nb - 1) degrees of freedom (Montgomery, "Design and
 * Analysis of Experiments", 4.1). Fills m[0..nl), the layouts' means, and
 * *res and *df, the residual sum of squares and its degrees of freedom;
 * returns P(F > f). With no residual (exact data: a sum of rounding
 * errors is no difference), 0 when the layouts' means differ, else 1;
 * with fewer than two blocks or layouts, no test: 1.
 */
static double layouts_anova(const double *y, unsigned nb, unsigned nl,
			    double *m, double *res, double *df)
{
	double gm = 0, ssl = 0, ssb = 0, sst = 0;

	for (unsigned i = 0; i < nl; i++) {
		m[i] = 0;
		for (unsigned b = 0; b < nb; b++)
			m[i] += y[b * nl + i] / nb;
		gm += m[i] / nl;
	}
	for (unsigned i = 0; i < nl; i++)
		ssl += nb * (m[i] - gm) * (m[i] - gm);
	for (unsigned b = 0; b < nb; b++) {
		double mb = 0;

		for (unsigned i = 0; i < nl; i++)
			mb += y[b * nl + i] / nl;
		ssb += nl * (mb - gm) * (mb - gm);
	}
	for (size_t k = 0; k < (size_t)nl * nb; k++)
		sst += (y[k] - gm) * (y[k] - gm);
	*res = fmax(sst - ssl - ssb, 0);
	*df = nl > 1 && nb > 1 ? (double)(nl - 1) * (nb - 1) : 0;
	if (nl < 2 || nb < 2)
		return 1;
	if (*res > 1e-12 * sst)
		return settle_f_sf(ssl / (nl - 1) / (*res / *df), nl - 1, *df);
	return ssl > 1e-12 * fmax(sst, 1e-12) ? 0 : 1;
}

/*
 * Is r's time different from layout to layout, beyond the noise within a
 * layout? The replicates of a layout are its samples in each process,
 * split into the first and the second half (the runner's two passes over
 * the layouts, the second backwards), so that a block (a process's pass)
 * holds every layout once. The log medians y[layout][block] are analysed
 * as a randomized complete block design: two-way analysis of variance
 * without interaction, F = MS(layouts) / MS(residual) on N - 1 and
 * (N - 1)(B - 1) degrees of freedom (Montgomery, "Design and Analysis of
 * Experiments", 4.1). *p receives P(F > f) (NaN: no test, fewer than two
 * blocks), *noise the residual's standard deviation (a relative noise
 * within a layout). ls[0..nl) are the layouts. A block missing a layout
 * is left out (a result file can hold such samples; settle's runner
 * gives every layout the same rounds).
 */
static void layout_test(const struct settle_result *r, const unsigned *ls,
			unsigned nl, unsigned nproc, double *p, double *noise)
{
	size_t chunk = nproc > 1 ? r->nsamples / nproc : r->nsamples;
	unsigned np = nproc > 1 ? nproc : 1, halves = 2, nb;
	double *buf = malloc((chunk + 1) * sizeof(*buf)), *y, res, df;
	double lm[256]; /* the layouts' means */

	*p = *noise = NAN;
	if (!buf)
		return;
	/* two halves per process when every cell has two samples or more */
	for (unsigned q = 0; q < np; q++)
		for (unsigned i = 0; i < nl; i++) {
			size_t n = 0;

			for (size_t j = q * chunk; j < (q + 1) * chunk; j++)
				n += layout_of(r, j) == ls[i];
			halves = n < 2 ? 1 : halves;
		}
	nb = np * halves;
	y = malloc((size_t)nl * nb * sizeof(*y));
	if (!y || nb < 2) {
		free(buf);
		free(y);
		return;
	}
	/* y[b * nl + i]: block b, layout i. A block missing a layout (a
	 * cell with no samples) is left out: the design needs every layout
	 * in every block. */
	for (unsigned b = 0, k = 0, all = nb; b < all; b++) {
		int whole = 1;

		for (unsigned i = 0; i < nl; i++) {
			double m = cell_median(r, b / halves * chunk,
					       (b / halves + 1) * chunk, ls[i],
					       halves > 1 ? (int)(b % 2) : -1,
					       buf);

			whole &= m > 0;
			y[k * nl + i] = m > 0 ? log(m) : 0;
		}
		k += whole;
		nb = k;
	}
	if (nb < 2) {
		free(buf);
		free(y);
		return;
	}
	*p = layouts_anova(y, nb, nl, lm, &res, &df);
	*noise = sqrt(res / df);
	free(buf);
	free(y);
}

/*
 * Scale in[j], the samples of r or a scaling of them, by the median of
 * all over the median of its cell, into x: a cell is a process's block
 * of chunk samples (np of them; np 1: all the samples), and within it a
 * layout when by_layout. Returns 0, or -1 when a cell holds fewer than
 * two samples (one sample is its own median and has no spread of its
 * own). buf holds chunk values.
 */
static int scale_cells(const struct settle_result *r, const double *in,
		       unsigned np, size_t chunk, int by_layout, double *x,
		       double *buf)
{
	for (unsigned p = 0; p < np; p++) {
		size_t from = p * chunk, to = from + chunk, n[256] = { 0 };
		double m[256];

		for (size_t j = from; j < to; j++)
			n[by_layout ? layout_of(r, j) : 0]++;
		for (unsigned l = 0; l < 256; l++) {
			size_t k = 0;

			if (!n[l])
				continue;
			if (n[l] < 2)
				return -1;
			for (size_t j = from; j < to; j++)
				if ((by_layout ? layout_of(r, j) : 0) == l)
					buf[k++] = in[j];
			m[l] = settle_median_inplace(buf, k);
		}
		for (size_t j = from; j < to; j++)
			x[j] = in[j] * settle_safe_div(r->sum.median,
					m[by_layout ? layout_of(r, j) : 0]);
	}
	return 0;
}

/*
 * The spread of r within its processes and layouts: every sample scaled
 * by the median of all over its cell's median (a layout in a process),
 * summarised. Its MAD and best sample say how noisy one process's samples
 * are in one layout, without what the processes and layouts add (a
 * machine's speed that drifts from process to process, a placement):
 * those move the per-process estimates, and so the intervals over
 * processes, and the layouts' medians (the ~ mark). r->unstable is
 * decided from it. With a cell of one sample (one round per layout in a
 * process): scaled by process, then by layout; by what has two samples
 * or more of each; else all the samples as they are.
 */
static void within_units(struct settle_result *r, unsigned nproc)
{
	size_t n = r->nsamples;
	double *x = malloc((n + 1) * sizeof(*x));
	double *y = malloc((n + 1) * sizeof(*y));
	double *buf = malloc((n + 1) * sizeof(*buf));
	const double *in = r->samples_ns;
	struct settle_summary w = r->sum;
	int split = nproc > 1 && n % nproc == 0, done = 0;

	if (x && y && buf && n) {
		if (split && !scale_cells(r, in, nproc, n / nproc, 1, x, buf))
			done = 1;
		else if (split &&
			 !scale_cells(r, in, nproc, n / nproc, 0, y, buf))
			in = y; /* by process; then by layout, if it can */
		if (!done)
			done = !scale_cells(r, in, 1, n, 1, x, buf);
		if (!done && in == y) {
			memcpy(x, y, n * sizeof(*x));
			done = 1;
		}
	}
	if (done) {
		settle_summarize(x, n, &w);
		w.median = r->sum.median;
	}
	free(x);
	free(y);
	free(buf);
	r->within_mad = w.mad;
	r->unstable = settle_summary_unstable(&w);
}

/* r's spread within its processes and layouts (within_units()), across
 * layouts, the noise within a layout, and whether the one exceeds the
 * other (settle_layout_sensitive()). */
static void layout_spread(struct settle_result *r, unsigned nproc,
			  double band)
{
	unsigned char seen[256];
	double lo = INFINITY, hi = 0, *buf;
	unsigned nl = layouts_in(r, 0, r->nsamples, seen), ls[256], k = 0;

	within_units(r, nproc);
	r->nlayouts = r->nsamples ? nl : 0;
	r->layout_spread = r->layout_noise = 0;
	r->layout_p = NAN;
	r->layout_sensitive = 0;
	if (nl < 2 || !(r->sum.median > 0))
		return;
	buf = malloc(r->nsamples * sizeof(*buf));
	if (!buf)
		return;
	for (unsigned l = 0; l < 256; l++) {
		double m;

		if (!seen[l])
			continue;
		ls[k++] = l;
		m = layout_median(r, 0, r->nsamples, l, buf);
		lo = m < lo ? m : lo;
		hi = m > hi ? m : hi;
	}
	free(buf);
	r->layout_spread = (hi - lo) / r->sum.median;
	layout_test(r, ls, nl, nproc, &r->layout_p, &r->layout_noise);
	r->layout_sensitive = settle_layout_sensitive(r->layout_spread,
						      r->layout_p, band);
}

/* Summary, throughput, cycles and validity of one result. */
static void summarize(struct settle_result *r, double core_ghz)
{
	const struct settle_claim_info *c = r->claim;
	uint64_t bytes = c->bytes_per_op == SETTLE_BYTES_SIZE ?
			 r->size_bytes : c->bytes_per_op;

	settle_summarize(r->samples_ns, r->nsamples, &r->sum);
	r->bytes_per_ns = settle_safe_div((double)bytes, r->sum.median);
	if (r->counted_ops) {
		r->cycles_per_op = (double)r->cycles_total /
				   (double)r->counted_ops;
		r->instructions_per_op = (double)r->instructions_total /
					 (double)r->counted_ops;
		r->cycles_source = "perf_event_open";
	} else if (!settle_result_cycles_counted(r) && !r->command) {
		/* not a whole command's: its wall time, sleeps and other
		 * processes' work included, is no count of cycles */
		r->cycles_per_op = r->sum.median * core_ghz;
		r->cycles_source = "add-chain estimate";
	}
	judge(r); /* unstable: decided within its units, within_units() */
}

size_t settle_layout_units(const struct settle_result *base,
			   const struct settle_result *r, size_t from,
			   size_t to, double *out)
{
	unsigned char seen[256];
	size_t at[256] = { 0 }, n = SIZE_MAX;
	unsigned nl = layouts_in(r, from, to, seen);

	if (nl == 0)
		return 0;
	for (unsigned l = 0; l < 256; l++) {
		size_t c = 0;

		if (!seen[l])
			continue;
		for (size_t j = from; j < to; j++)
			c += layout_of(r, j) == l;
		n = c < n ? c : n;
	}
	for (size_t k = 0; k < n; k++) {
		double sum = 0;

		for (unsigned l = 0; l < 256; l++) {
			size_t j = at[l] ? at[l] : from;

			if (!seen[l])
				continue;
			while (layout_of(r, j) != l) /* the next of layout l */
				j++;
			sum += base ? log(r->samples_ns[j] / base->samples_ns[j])
				    : log(r->samples_ns[j]);
			at[l] = j + 1;
		}
		out[k] = sum / nl;
	}
	return n;
}

/*
 * Hodges-Lehmann estimate of log(x / base) over the rounds [from, to)
 * (every round). bx, xx: room for to - from values each.
 */
static int round_estimate(const struct settle_result *b,
			  const struct settle_result *r, size_t from,
			  size_t to, double *bx, double *xx, double *est)
{
	struct settle_comparison c;
	size_t n = 0;

	for (size_t j = from; j < to; j++) {
		bx[n] = b->samples_ns[j];
		xx[n++] = r->samples_ns[j];
	}
	if (settle_compare_paired(bx, xx, n, 0.01, &c) < 0 || !(c.ratio > 0))
		return -1;
	*est = log(c.ratio);
	return 0;
}

/*
 * The median of log(x / base) over the rounds [from, to) measured in
 * layout l, or of log(x) with base NULL; d: room for to - from values.
 * The median, not the Hodges-Lehmann estimate: a layout has few rounds
 * (10 with --rigorous, half from each of its two visits), and a code
 * placement that does not keep its speed for part of a visit moves a few
 * rounds by 10-50 %; the median stands until half of them move, the
 * Hodges-Lehmann estimate until 29 % (docs/layouts.md).
 */
static int layout_estimate(const struct settle_result *b,
			   const struct settle_result *r, size_t from,
			   size_t to, unsigned l, double *d, double *est)
{
	size_t n = 0;

	for (size_t j = from; j < to; j++) {
		if (layout_of(r, j) != l || !(r->samples_ns[j] > 0) ||
		    (b && !(b->samples_ns[j] > 0)))
			continue;
		d[n++] = b ? log(r->samples_ns[j] / b->samples_ns[j]) :
			     log(r->samples_ns[j]);
	}
	if (!n)
		return -1;
	*est = settle_median_inplace(d, n);
	return 0;
}

/* The mean over the layouts of rounds [from, to) of layout_estimate(),
 * each layout weighing the same; -1 when a layout has none. */
static int layouts_mean(const struct settle_result *b,
			const struct settle_result *r, size_t from, size_t to,
			double *d, double *est)
{
	unsigned char seen[256];
	unsigned nl = layouts_in(r, from, to, seen);
	double sum = 0, e;

	if (nl == 0)
		return -1;
	for (unsigned l = 0; l < 256; l++) {
		if (!seen[l])
			continue;
		if (layout_estimate(b, r, from, to, l, d, &e) < 0)
			return -1;
		sum += e;
	}
	*est = sum / nl;
	return 0;
}

int settle_layout_level(const struct settle_result *r, size_t from,
			size_t to, double *out)
{
	double *d = malloc((to > from ? to - from : 1) * sizeof(*d));
	int rc = d ? layouts_mean(NULL, r, from, to, d, out) : -1;

	free(d);
	return rc;
}

/* One process's estimate, rounds [from, to): with several layouts, the
 * mean of one estimate per layout, each layout weighing the same. */
static int process_estimate(const struct settle_result *b,
			    const struct settle_result *r, size_t from,
			    size_t to, double *bx, double *xx, double *est)
{
	unsigned char seen[256];

	if (layouts_in(r, from, to, seen) < 2)
		return round_estimate(b, r, from, to, bx, xx, est);
	return layouts_mean(b, r, from, to, bx, est);
}

int settle_process_estimate(const struct settle_result *base,
			    const struct settle_result *r, size_t from,
			    size_t to, double *est)
{
	double *bx = malloc((to - from + 1) * sizeof(*bx));
	double *xx = malloc((to - from + 1) * sizeof(*xx));
	int rc = bx && xx && to <= base->nsamples && to <= r->nsamples ?
		 process_estimate(base, r, from, to, bx, xx, est) : -1;

	free(bx);
	free(xx);
	return rc;
}

/*
 * r against its baseline b, over their common rounds: paired by round;
 * with processes, one estimate per process (each the mean over its
 * layouts) and an interval over processes (settle_compare_processes()); with several layouts
 * in one process, the layouts as the unit (one estimate each).
 */
static void compare_rounds(const struct settle_result *r,
			   const struct settle_result *b, unsigned nproc,
			   double band, double *bx, double *xx,
			   struct settle_comparison *cmp)
{
	size_t n = r->nsamples < b->nsamples ? r->nsamples : b->nsamples;
	size_t rounds = nproc > 1 ? r->nsamples / nproc : 0;
	unsigned char seen[256];
	double est[256];
	size_t np = 0;

	settle_compare_paired(b->samples_ns, r->samples_ns, n, band, cmp);
	if (nproc > 1 && !rounds) { /* no process has a round: no file of
				     * settle's, and no unit to decide by */
		cmp->verdict = SETTLE_UNCLEAR;
		cmp->why = "fewer samples than processes";
	} else if (nproc > 1 && (r->nsamples % nproc ||
				 b->nsamples % nproc)) {
		/* settle run splits them evenly: no file of settle's, and
		 * no sample known to be whose */
		cmp->verdict = SETTLE_UNCLEAR;
		cmp->why = "its samples do not split evenly into the processes";
	} else if (rounds && b->nsamples >= rounds * nproc) {
		for (unsigned p = 0; p < nproc && p < 256; p++)
			if (process_estimate(b, r, p * rounds, (p + 1) * rounds,
					     bx, xx, &est[np]) == 0)
				np++;
		settle_compare_processes(est, np, band, cmp);
		if (r->nlayouts > 1)
			cmp->method = settle_process_trim(np) ?
				"per-process estimates, each the mean of one "
				"per layout, 20% trimmed mean, Yuen interval" :
				"per-process estimates, each the mean of one "
				"per layout, Student t interval";
	} else if (layouts_in(r, 0, n, seen) > 1) {
		/* one process: balanced rounds, each the mean over the
		 * layouts of one round in each, as the unit */
		size_t k = settle_layout_units(b, r, 0, n, bx);

		for (size_t i = 0; i < k; i++) {
			xx[i] = exp(bx[i]);
			bx[i] = 1;
		}
		settle_compare_paired(bx, xx, k, band, cmp);
		cmp->method = "balanced rounds (the mean over the layouts "
			      "of one round in each), Hodges-Lehmann, "
			      "signed-rank interval";
	}
}

int settle_result_compare(const struct settle_result *r,
			  const struct settle_result *b, unsigned nproc,
			  double band, struct settle_comparison *cmp)
{
	size_t n = r->nsamples > b->nsamples ? r->nsamples : b->nsamples;
	double *bx = malloc((n + 1) * sizeof(*bx));
	double *xx = malloc((n + 1) * sizeof(*xx));
	int rc = bx && xx ? 0 : -1;

	if (!rc)
		compare_rounds(r, b, nproc, band, bx, xx, cmp);
	else
		*cmp = (struct settle_comparison){ .verdict = SETTLE_UNCLEAR,
						   .why = "out of memory" };
	free(bx);
	free(xx);
	if (r->below_resolution || b->below_resolution) {
		cmp->verdict = SETTLE_UNCLEAR;
		cmp->why = "below resolution";
	}
	return rc;
}

/* r against its baseline b. */
static void compare(struct settle_result *r, const struct settle_result *b,
		    unsigned nproc, double band)
{
	int resolved = !r->below_resolution && !b->below_resolution;

	r->has_cmp = 1;
	settle_result_compare(r, b, nproc, band, &r->cmp);
	if (resolved && r->cmp.verdict == SETTLE_UNCLEAR &&
	    (r->layout_sensitive || b->layout_sensitive)) {
		r->cmp.why = SETTLE_WHY_LAYOUT;
		r->cmp.layout_spread = fmax(r->layout_sensitive ?
					    r->layout_spread : 0,
					    b->layout_sensitive ?
					    b->layout_spread : 0);
	}
}

/* A row whose check value is not its baseline's computed something
 * else: invalid. settle run refuses such a variant; a file may hold one
 * (edited, or written by another program). References are not checked. */
static void check_against(struct settle_result *r,
			  const struct settle_result *b)
{
	if (r->reference || r->invalid[0] || r->check == b->check)
		return;
	snprintf(r->invalid, sizeof(r->invalid), "its check value %llu is "
		 "not the baseline's %llu: it computed something else",
		 (unsigned long long)r->check, (unsigned long long)b->check);
}

/* An invalid result has no verdict; one measured against an invalid
 * baseline has none it can trust. */
static void no_verdict(struct settle_result *r, const struct settle_result *b)
{
	if (r->invalid[0]) {
		r->has_cmp = 1;
		r->cmp.verdict = SETTLE_INVALID;
		r->cmp.why = NULL;
	} else if (b->invalid[0]) {
		r->cmp.verdict = SETTLE_UNCLEAR;
		r->cmp.why = "the baseline is invalid";
	}
}

/*
 * Code that moves with the layouts (a FILE.c build) sits at one of the
 * four 16-byte slots of its cache line in each layout, every slot once in
 * any 4 consecutive layouts (docs/layouts.md): only a whole set of them
 * gives two functions the same slots, whatever their places. With 3
 * layouts a function and its copy 96 bytes on read 0.863-0.892x
 * "faster" in 6 of 7 runs, settled in 5.
 */
const char *settle_slots_why(const struct settle_report *rep,
			     const struct settle_result *r)
{
	if (!rep->claims_built[0] || r->nlayouts < 2)
		return NULL;
	if (r->unaligned_code)
		return SETTLE_WHY_OFF_SLOT;
	return r->nlayouts % SETTLE_CODE_SLOTS ? SETTLE_WHY_PART_SLOTS : NULL;
}

/* No verdict for r when settle_slots_why(), whatever its interval: the
 * reason every such row gives (one called "interval too wide" beside
 * others called "layouts not a multiple of 4" read as two findings). */
static void whole_slots(const struct settle_report *rep,
			struct settle_result *r)
{
	const char *why = settle_slots_why(rep, r);

	if (!why)
		return;
	r->cmp.verdict = SETTLE_UNCLEAR;
	r->cmp.why = why;
}

/*
 * d[p * nl + i], process p's estimate of r against b in its i-th layout
 * ls[i] (layout_estimate(): the median paired log ratio), for the nproc
 * processes' rounds; buf holds a process's rounds. -1 when a process
 * lacks a layout.
 */
static int layout_table(const struct settle_result *r,
			const struct settle_result *b, unsigned nproc,
			const unsigned *ls, unsigned nl, double *buf,
			double *d)
{
	size_t rounds = r->nsamples / nproc;

	for (unsigned p = 0; p < nproc; p++)
		for (unsigned i = 0; i < nl; i++)
			if (layout_estimate(b, r, p * rounds, (p + 1) * rounds,
					    ls[i], buf, &d[p * nl + i]) < 0)
				return -1;
	return 0;
}

int settle_table_moves(const double *y, unsigned np, unsigned nl,
		       double band, double *m, double *ss, double *df)
{
	double res, dfr, p = layouts_anova(y, np, nl, m, &res, &dfr);
	double lo = INFINITY, hi = -INFINITY;

	for (unsigned i = 0; i < nl; i++) {
		lo = fmin(lo, m[i]);
		hi = fmax(hi, m[i]);
	}
	if (ss)
		*ss = res;
	if (df)
		*df = dfr;
	return nl > 1 && np > 1 &&
	       settle_layout_sensitive(exp(hi) / exp(lo) - 1, p, band);
}

unsigned settle_layout_blocks(unsigned nproc)
{
	return nproc > 1 ? nproc : 2;
}

int settle_layouts_agree(enum settle_verdict v, double lo, double hi,
			 double band)
{
	return (v == SETTLE_FASTER && hi < 1 / (1 + band)) ||
	       (v == SETTLE_SLOWER && lo > 1 + band);
}

int settle_layout_median(const struct settle_result *r, size_t from,
			 size_t to, unsigned l, double *out)
{
	double *d = malloc((to > from ? to - from : 1) * sizeof(*d));
	int rc = d ? layout_estimate(NULL, r, from, to, l, d, out) : -1;

	free(d);
	return rc;
}

/*
 * A FILE.c row whose ratio to its baseline moves with the layout: each
 * layout moves the build's code by a 16-byte slot of its line and by
 * whole lines of its page, so the mean over a set of 4 layouts is free
 * of the slot a function starts in, not of where it sits beside the
 * functions it calls or is called by (other slots in each copy) nor of
 * the rest of its place (the branch predictors' and op cache's indexes).
 * Two identical copies of a branchy loop calling one helper, built with
 * gcc -O1 and 16-byte aligned 96 bytes apart, read 0.817x [0.728,
 * 0.917] and 0.832x "faster" (the second settled) with 4 layouts and 3
 * processes on the Zen 5 guest, and 0.816x with 8: one copy twice as
 * slow in one slot, the other copy in none. So a row whose ratio moves
 * with the layout (settle_table_moves()) keeps its verdict only when every
 * layout's ratio (each the mean over the processes of their log
 * ratios) says it too: faster in each, slower in each; never "same".
 */
static void placement_check(const struct settle_report *rep,
			    struct settle_result *r,
			    const struct settle_result *b, unsigned nproc,
			    double band)
{
	unsigned char seen[256];
	unsigned nl = layouts_in(r, 0, r->nsamples, seen), ls[256], k = 0;
	double *d, *m, *buf, lo = INFINITY, hi = 0;
	struct settle_comparison *c = &r->cmp;
	int moves;

	/* the blocks: the processes, or one process's two passes over the
	 * layouts (forwards, then backwards: each half of its rounds) */
	unsigned nb = settle_layout_blocks(nproc);

	if (!rep->claims_built[0] || nl < 2 || settle_slots_why(rep, r) ||
	    r->nsamples % nb || b->nsamples != r->nsamples ||
	    c->verdict == SETTLE_UNCLEAR || c->verdict == SETTLE_INVALID)
		return;
	for (unsigned l = 0; l < 256; l++)
		if (seen[l])
			ls[k++] = l;
	d = malloc((size_t)nb * nl * sizeof(*d));
	m = malloc(nl * sizeof(*m));
	buf = malloc(r->nsamples * sizeof(*buf));
	moves = d && m && buf &&
		layout_table(r, b, nb, ls, nl, buf, d) == 0 &&
		settle_table_moves(d, nb, nl, band, m, NULL, NULL);
	for (unsigned i = 0; moves && i < nl; i++) {
		lo = fmin(lo, exp(m[i]));
		hi = fmax(hi, exp(m[i]));
	}
	if (moves && !settle_layouts_agree(c->verdict, lo, hi, band)) {
		c->verdict = SETTLE_UNCLEAR;
		c->why = SETTLE_WHY_RATIO_MOVES;
		c->layout_spread = hi / lo - 1;
	}
	free(d);
	free(m);
	free(buf);
}

/* Said by the samples, not by the repetition check's count of voluntary
 * switches, which a CPU-bound body's long calls reached now and then (then
 * no check, and a variant 14x the time in all read faster in 1 run of
 * 40). */
int settle_result_on_cpu(const struct settle_result *r)
{
	double *q, m;
	size_t k = 0;

	if (!r->samples_cpu_ns || !r->nsamples ||
	    !(q = malloc(r->nsamples * sizeof(*q))))
		return 0;
	for (size_t i = 0; i < r->nsamples; i++)
		if (r->samples_ns[i] > 0 && isfinite(r->samples_cpu_ns[i]))
			q[k++] = r->samples_cpu_ns[i] / r->samples_ns[i];
	m = k ? settle_median_inplace(q, k) : 0;
	free(q);
	return m >= SETTLE_ON_CPU;
}

/* The ratio of the means of x and b (n each, paired by round), or 0
 * when they cannot be had; its 95 % interval in *lo, *hi. */
static double mean_ratio_of(const double *x, const double *b, size_t n,
			    double *lo, double *hi)
{
	*lo = *hi = 0;
	return x && b ? settle_mean_ratio(x, b, n, lo, hi) : 0;
}

/*
 * A verdict must not contradict the ratio of the mean times
 * (settle_means_contradict()): the paired estimate and the median leave
 * out a slow mode of a few samples, and "is it worth it?" asks what the
 * work costs in all. A command slow in 2-3 runs of 40 (0.25 s against
 * 0.01 s) read faster 0.774x [0.755, 0.803], settled, while its 40 runs
 * took 1.30x the baseline's time; a claim's variant that checksummed its
 * 32 MiB log when full, in 1 sample of 6, read 0.642x faster, settled,
 * at 1.46x the mean time; a command whose runs took 1.009x the
 * baseline's in all read 0.959x faster; one 6-7 % slower in all read the
 * same within +-5 %.
 *
 * The means are of the samples' times (a command's runs; a claim's
 * samples, whose times hold what the body waits for), and, for two rows
 * that ran on the CPU (settle_result_on_cpu()), of their CPU times too,
 * which other tasks' time slices in preempted samples do not lengthen.
 * Either contradicting makes the verdict unclear. With the CPU times
 * alone, a variant that slept 120 ms every 2.5 M operations (an
 * fsync of a full log) read 0.705x faster at 2.5x the mean time, and
 * one whose every operation waited on a pipe (no check then) read
 * faster, settled, at 4.7x.
 */
static void means_agree(struct settle_result *r,
			const struct settle_result *b, double band)
{
	double q, lo, hi;

	if (r->nsamples != b->nsamples || !r->command != !b->command)
		return;
	q = mean_ratio_of(r->samples_ns, b->samples_ns, r->nsamples, &lo, &hi);
	/* the CPU times only where the times agree (two medians each) */
	if (!settle_means_contradict(r->cmp.verdict, q, lo, hi, band) &&
	    !r->command && settle_result_on_cpu(r) && settle_result_on_cpu(b))
		q = mean_ratio_of(r->samples_cpu_ns, b->samples_cpu_ns,
				  r->nsamples, &lo, &hi);
	if (!settle_means_contradict(r->cmp.verdict, q, lo, hi, band))
		return;
	r->cmp.verdict = SETTLE_UNCLEAR;
	r->cmp.why = r->command ? SETTLE_WHY_MEANS_RUNS :
		     r->preempted || b->preempted ? SETTLE_WHY_MEANS_PREEMPTED :
		     SETTLE_WHY_MEANS_SAMPLES;
	r->cmp.mean_ratio = q;
}

int settle_result_shared_cpu(const struct settle_result *r)
{
	return !r->command && r->samples_cpu_ns && r->nsamples &&
	       r->preempted * 2 > r->nsamples && !settle_result_on_cpu(r);
}

/*
 * Times that other tasks' time slices made (settle_result_shared_cpu()):
 * a busy task on settle's CPU made a variant 1.03x slower read 1.001x
 * [0.997, 1.006] the same (both rows 1.8x their time) and 0.581x faster,
 * and one during whose baseline alone it ran read 0.580x faster where
 * the CPU times said 0.97x. The CPU times alone decide nothing: a body
 * whose helper did its work on the same CPU read faster by them
 * (runner.c, timed_sample()), and a partner process that is the work
 * preempts its body too (syscall's ping-pong on one CPU, 14x the null
 * call by its times, 3-5x by its CPU time). So the interval is widened
 * to span the CPU times' interval as well, whichever of the two is the
 * work's, and the verdict is what the wider interval decides: unclear,
 * saying why, where the two disagree.
 */
static void shared_widen(struct settle_result *r,
			 const struct settle_result *b, unsigned nproc,
			 double band)
{
	struct settle_result rc = *r, bc = *b;
	struct settle_comparison cpu;
	int made;

	if (!settle_result_shared_cpu(r) && !settle_result_shared_cpu(b))
		return;
	rc.samples_ns = r->samples_cpu_ns;
	bc.samples_ns = b->samples_cpu_ns;
	made = r->samples_cpu_ns && b->samples_cpu_ns &&
	       settle_result_compare(&rc, &bc, nproc, band, &cpu) == 0;
	settle_widen_to_cpu(&r->cmp, made ? &cpu : NULL, band);
}

/* Analyse the group res[0..n). */
static void analyze_group(const struct settle_report *rep,
			  struct settle_result *res, size_t n)
{
	double band = rep->options.band;
	unsigned nproc = rep->options.processes;

	for (size_t i = 0; i < n; i++) {
		/* nothing from an analysis before (a process's, of a pool
		 * whose baseline was then skipped, read 0.993x against it) */
		res[i].is_baseline = res[i].has_baseline = res[i].has_cmp = 0;
		res[i].ratio = 0;
		memset(&res[i].cmp, 0, sizeof(res[i].cmp));
		summarize(&res[i], rep->timer.core_ghz);
		layout_spread(&res[i], nproc, band);
	}
	for (size_t i = 0; i < n; i++) {
		long b = baseline_in(res, n, i);

		if (b < 0 || res[i].skipped || res[b].skipped)
			continue;
		res[i].has_baseline = 1;
		res[i].ratio = settle_safe_div(res[i].sum.median,
					       res[b].sum.median);
		if ((size_t)b == i) {
			res[i].is_baseline = 1;
			continue;
		}
		check_against(&res[i], &res[b]);
		compare(&res[i], &res[b], nproc, band);
		whole_slots(rep, &res[i]);
		placement_check(rep, &res[i], &res[b], nproc, band);
		means_agree(&res[i], &res[b], band);
		shared_widen(&res[i], &res[b], nproc, band);
		no_verdict(&res[i], &res[b]);
	}
}

void settle_report_analyze(struct settle_report *rep, size_t from, size_t to)
{
	size_t i = from;

	while (i < to && i < rep->nresults) {
		size_t j = settle_report_group_end(rep, i);

		analyze_group(rep, &rep->results[i], j - i);
		i = j;
	}
}

/* Same claim, variant, size, build and parameters, in the same order. */
static int same_layout(const struct settle_report *a,
		       const struct settle_report *b)
{
	if (a->nresults != b->nresults)
		return 0;
	for (size_t i = 0; i < a->nresults; i++)
		if (!settle_result_same_key(&a->results[i], &b->results[i]))
			return 0;
	return 1;
}

/*
 * The evidence a pooled result keeps: the first invalid process's
 * repetition check (work hoisted in one process's layout is hoisted in
 * the pool: a reader decides again from it), and the fastest read limit
 * of any process (an impossible throughput is one beyond all of them).
 */
static void pool_evidence(struct settle_result *d,
			  const struct settle_result *s)
{
	if (s->read_limit_bpns > d->read_limit_bpns)
		d->read_limit_bpns = s->read_limit_bpns;
	if (d->invalid[0] || !s->invalid[0] || s->repeat_iters != 2 * s->iters)
		return;
	d->iters = s->iters;
	d->repeat_iters = s->repeat_iters;
	d->nrepeat = s->nrepeat;
	d->repeat_blocked = s->repeat_blocked;
	memcpy(d->repeat1_ns, s->repeat1_ns, sizeof(d->repeat1_ns));
	memcpy(d->repeat2_ns, s->repeat2_ns, sizeof(d->repeat2_ns));
	memcpy(d->invalid, s->invalid, sizeof(d->invalid));
}

/* A mean of a and b weighted by the seconds each covers (equal weights
 * when either is unknown); unknown (< 0) when either is. */
static double weighted(double a, double sa, double b, double sb)
{
	if (a < 0 || b < 0)
		return -1;
	if (!(sa > 0) || !(sb > 0))
		sa = sb = 1;
	return (a * sa + b * sb) / (sa + sb);
}

/*
 * The noise of a run in processes, one after another: the load average
 * at the start and the first core-clock estimate are the first process's,
 * the last estimate the last known one, so that the drift spans the run;
 * the steal and the other work are means over the processes' time;
 * counts add up.
 */
static void pool_noise(struct settle_noise *n, const struct settle_noise *m)
{
	n->migrations += m->migrations;
	n->nvcsw += m->nvcsw;
	n->nivcsw += m->nivcsw;
	n->steal_pct = weighted(n->steal_pct, n->seconds, m->steal_pct,
				m->seconds);
	n->other_cpus = weighted(n->other_cpus, n->seconds, m->other_cpus,
				 m->seconds);
	n->seconds += m->seconds;
	if (m->core_ghz_after > 0)
		n->core_ghz_after = m->core_ghz_after;
	n->drift_pct = settle_noise_drift(n);
}

/* d's CPU times with s's appended (d has nd samples before the pool);
 * unknown in the pool when either side's are. -1 when out of memory. */
static int pool_cpu(struct settle_result *d, size_t nd,
		    const struct settle_result *s)
{
	double *p;

	if (!d->samples_cpu_ns || !s->samples_cpu_ns) {
		free(d->samples_cpu_ns);
		d->samples_cpu_ns = NULL;
		return 0;
	}
	p = realloc(d->samples_cpu_ns, (nd + s->nsamples + 1) * sizeof(*p));
	if (!p)
		return -1;
	memcpy(p + nd, s->samples_cpu_ns, s->nsamples * sizeof(*p));
	d->samples_cpu_ns = p;
	return 0;
}

int settle_report_pool(struct settle_report *rep,
		       const struct settle_report *more, char *err,
		       size_t errlen)
{
	if (!same_layout(rep, more)) {
		snprintf(err, errlen, "the processes measured different "
			 "results (%s)", more->source);
		return -1;
	}
	for (size_t i = 0; i < rep->nresults; i++) {
		struct settle_result *d = &rep->results[i];
		const struct settle_result *s = &more->results[i];
		size_t nd = d->nsamples;

		if (d->skipped || s->skipped) {
			if (!d->skipped || !s->skipped || apart(d) || apart(s))
				settle_result_skip_apart(d);
			continue;
		}
		if (settle_result_add_samples(d, s->samples_ns,
					      s->sample_layouts, s->nsamples) ||
		    pool_cpu(d, nd, s)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		pool_evidence(d, s);
		d->below_resolution |= s->below_resolution;
		d->preempted += s->preempted;
		if (s->shortest_sample_ns > 0 &&
		    !(d->shortest_sample_ns > 0 &&
		      d->shortest_sample_ns <= s->shortest_sample_ns))
			d->shortest_sample_ns = s->shortest_sample_ns;
		d->cycles_total += s->cycles_total;
		if (d->command && s->command &&
		    settle_command_data_pool(d->command, s->command)) {
			snprintf(err, errlen, "cannot pool the runs of command "
				 "'%s' (out of memory, or profiles differ)",
				 d->variant);
			return -1;
		}
	}
	pool_noise(&rep->noise, &more->noise);
	rep->machine.read_limit_timed += more->machine.read_limit_timed;
	rep->machine.read_limit_timed_256 += more->machine.read_limit_timed_256;
	return 0;
}

double settle_report_shortest_sample(const struct settle_report *rep)
{
	double t = 0;

	for (size_t i = 0; i < rep->nresults; i++) {
		double s = rep->results[i].shortest_sample_ns;

		if (!rep->results[i].skipped &&
		    !rep->results[i].below_resolution && s > 0 &&
		    (!(t > 0) || s < t))
			t = s;
	}
	return t;
}

void settle_report_truncate(struct settle_report *rep, size_t n)
{
	while (rep->nresults > n) {
		struct settle_result *r = &rep->results[--rep->nresults];

		free(r->samples_ns);
		free(r->samples_cpu_ns);
		free(r->sample_layouts);
		free(r->figures);
	}
}

void settle_report_free(struct settle_report *rep)
{
	struct store *s = rep->owned;

	for (size_t i = 0; i < rep->nresults; i++) {
		free(rep->results[i].samples_ns);
		free(rep->results[i].samples_cpu_ns);
		free(rep->results[i].sample_layouts);
		free(rep->results[i].figures);
		settle_command_data_free(rep->results[i].command);
	}
	free(rep->results);
	rep->results = NULL;
	rep->nresults = rep->cap = 0;
	if (s) {
		for (size_t i = 0; i < s->n; i++)
			free(s->p[i]);
		free(s->p);
		free(s->claims);
		free(s);
	}
	rep->owned = NULL;
	free(rep->run); /* a plain block: see settle_report_init() */
	rep->run = NULL;
}
