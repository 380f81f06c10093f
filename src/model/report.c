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
#include "stats/rules.h"

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

static const char *or(const char *s, const char *dflt)
{
	return s ? s : dflt;
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
	struct settle_conclusion *k = keep(rep, malloc(sizeof(*k)));

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
	return settle_report_append(rep, claim, v->name, v->build, v->params,
				    v->nparams, v->label,
				    !!(v->flags & SETTLE_REFERENCE),
				    size_bytes);
}

int settle_result_add_samples(struct settle_result *r, const double *x,
			      size_t n)
{
	double *p = realloc(r->samples_ns, (r->nsamples + n + 1) * sizeof(*p));

	if (!p)
		return -1;
	memcpy(p + r->nsamples, x, n * sizeof(*p));
	r->samples_ns = p;
	r->nsamples += n;
	return 0;
}

static int same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

int settle_result_same_group(const struct settle_result *a,
			     const struct settle_result *b)
{
	if (!same_str(a->build, b->build) || a->nparams != b->nparams)
		return 0;
	for (size_t i = 0; i < a->nparams; i++)
		if (!same_str(a->params[i].key, b->params[i].key) ||
		    !same_str(a->params[i].value, b->params[i].value))
			return 0;
	return 1;
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

double settle_repeat_ratio(const struct settle_result *r)
{
	double a = INFINITY, b = INFINITY;

	/* the fastest call of each kind: disturbance (preemption, another
	 * process on the CPU) only ever adds time, and a call shorter than
	 * a time slice is often disturbed whole */
	for (size_t k = 0; k < r->nrepeat && k < 9; k++) {
		a = r->repeat1_ns[k] < a ? r->repeat1_ns[k] : a;
		b = r->repeat2_ns[k] < b ? r->repeat2_ns[k] : b;
	}
	return isfinite(a) && a > 0 && isfinite(b) ? b / a : NAN;
}

/*
 * Decide from the evidence whether r is invalid: its time did not grow
 * with the repetitions (median of the 2n calls under REPEAT_GROWTH x the
 * median sample's time for n), or it reads faster than READ_LIMIT_MARGIN
 * x a plain read of the same size measured in the same run.
 */
static void judge(struct settle_result *r)
{
	double q = settle_repeat_ratio(r);

	r->invalid[0] = '\0';
	if (r->skipped || r->nsamples == 0 || r->below_resolution)
		return;
	if (r->repeat_iters == 2 * r->iters && q < SETTLE_REPEAT_GROWTH) {
		snprintf(r->invalid, sizeof(r->invalid), "twice the "
			 "repetitions took %.2fx the time, not 2x: the work "
			 "was hoisted or removed", q);
		return;
	}
	if (r->read_limit_bpns > 0 && r->bytes_per_ns > 0 &&
	    r->claim->bytes_per_op == SETTLE_BYTES_SIZE &&
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

/* Summary, throughput, cycles and stability of one result. */
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
	} else if (!r->cycles_source ||
		   strcmp(r->cycles_source, "perf_event_open")) {
		r->cycles_per_op = r->sum.median * core_ghz;
		r->cycles_source = "add-chain estimate";
	}
	r->unstable = settle_summary_unstable(&r->sum);
	judge(r);
}

/* Hodges-Lehmann estimate of log(x / base) over rounds [from, to). */
static int chunk_estimate(const double *base, const double *x, size_t from,
			  size_t to, double *est)
{
	struct settle_comparison c;

	if (settle_compare_paired(base + from, x + from, to - from, 0.01, &c) < 0 ||
	    !(c.ratio > 0))
		return -1;
	*est = log(c.ratio);
	return 0;
}

/* r against its baseline b: paired by round, or by process. */
static void compare(struct settle_result *r, const struct settle_result *b,
		    unsigned nproc, double band)
{
	size_t n = r->nsamples < b->nsamples ? r->nsamples : b->nsamples;
	size_t rounds = nproc > 1 ? r->nsamples / nproc : 0;

	r->has_cmp = 1;
	settle_compare_paired(b->samples_ns, r->samples_ns, n, band, &r->cmp);
	if (rounds && b->nsamples >= rounds * nproc) {
		double est[256];
		size_t np = 0;

		for (unsigned p = 0; p < nproc && p < 256; p++)
			if (chunk_estimate(b->samples_ns, r->samples_ns,
					   p * rounds, (p + 1) * rounds,
					   &est[np]) == 0)
				np++;
		settle_compare_processes(est, np, band, &r->cmp);
	}
	if (r->below_resolution || b->below_resolution) {
		r->cmp.verdict = SETTLE_UNCLEAR;
		r->cmp.why = "below resolution";
	}
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

/* Analyse the group res[0..n). */
static void analyze_group(struct settle_result *res, size_t n,
			  double core_ghz, unsigned nproc, double band)
{
	for (size_t i = 0; i < n; i++)
		summarize(&res[i], core_ghz);
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
		compare(&res[i], &res[b], nproc, band);
		no_verdict(&res[i], &res[b]);
	}
}

void settle_report_analyze(struct settle_report *rep, size_t from, size_t to)
{
	size_t i = from;

	while (i < to && i < rep->nresults) {
		size_t j = settle_report_group_end(rep, i);

		analyze_group(&rep->results[i], j - i, rep->timer.core_ghz,
			      rep->options.processes, rep->options.band);
		i = j;
	}
}

/* Same claim, variant, size, build and parameters, in the same order. */
static int same_layout(const struct settle_report *a,
		       const struct settle_report *b)
{
	if (a->nresults != b->nresults)
		return 0;
	for (size_t i = 0; i < a->nresults; i++) {
		const struct settle_result *x = &a->results[i], *y = &b->results[i];

		if (strcmp(x->claim->name, y->claim->name) ||
		    strcmp(x->variant, y->variant) ||
		    x->size_bytes != y->size_bytes ||
		    !settle_result_same_group(x, y))
			return 0;
	}
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
	memcpy(d->repeat1_ns, s->repeat1_ns, sizeof(d->repeat1_ns));
	memcpy(d->repeat2_ns, s->repeat2_ns, sizeof(d->repeat2_ns));
	memcpy(d->invalid, s->invalid, sizeof(d->invalid));
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

		if (settle_result_add_samples(d, s->samples_ns, s->nsamples)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		pool_evidence(d, s);
		d->below_resolution |= s->below_resolution;
		d->cycles_total += s->cycles_total;
		if (d->command && s->command &&
		    settle_command_data_pool(d->command, s->command)) {
			snprintf(err, errlen, "cannot pool the runs of command "
				 "'%s' (out of memory, or profiles differ)",
				 d->variant);
			return -1;
		}
	}
	rep->noise.migrations += more->noise.migrations;
	rep->noise.nvcsw += more->noise.nvcsw;
	rep->noise.nivcsw += more->noise.nivcsw;
	return 0;
}

void settle_report_truncate(struct settle_report *rep, size_t n)
{
	while (rep->nresults > n) {
		struct settle_result *r = &rep->results[--rep->nresults];

		free(r->samples_ns);
		free(r->figures);
	}
}

void settle_report_free(struct settle_report *rep)
{
	struct store *s = rep->owned;

	for (size_t i = 0; i < rep->nresults; i++) {
		free(rep->results[i].samples_ns);
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
