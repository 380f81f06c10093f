/*
 * analyze.c - from samples to what a report shows: the summary of each
 * result, its throughput and cycles, and its ratio to the baseline with a
 * verdict (paired by round, see settle_compare_paired()).
 */
#include <math.h>
#include <string.h>

#include "settle.h"

/*
 * A result is marked unstable when its MAD exceeds this share of its
 * median, or when its best sample is this much below the median (a
 * minority of samples, or whole processes, ran at another speed).
 */
#define UNSTABLE_MAD 0.05
#define UNSTABLE_BEST 0.20

/* Index of the baseline among res[0..n) for variant v, or -1. */
long settle_find_baseline(const struct settle_result *res, size_t n,
			  const struct settle_variant *v)
{
	for (size_t i = 0; i < n; i++) {
		const struct settle_variant *b = res[i].variant;

		if (strcmp(b->name, res[i].claim->baseline) == 0 &&
		    settle_variant_same_group(b, v) && !(b->flags & SETTLE_REFERENCE))
			return (long)i;
	}
	return -1;
}

/* Paired by round: sample k of both was taken in round k. */
static void compare(struct settle_result *r, const struct settle_result *b,
		    double band)
{
	size_t n = r->nsamples < b->nsamples ? r->nsamples : b->nsamples;

	r->has_cmp = 1;
	settle_compare_paired(b->samples_ns, r->samples_ns, n, band, &r->cmp);
	if (r->below_resolution || b->below_resolution) {
		r->cmp.verdict = SETTLE_UNCLEAR;
		r->cmp.why = "below resolution";
	}
}

void settle_analyze(struct settle_result *res, size_t nv, double core_ghz,
		    double band)
{
	const struct settle_claim *c = res[0].claim;

	for (size_t i = 0; i < nv; i++) {
		struct settle_result *r = &res[i];
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
		} else if (!r->cycles_source) {
			r->cycles_per_op = r->sum.median * core_ghz;
			r->cycles_source = "add-chain estimate";
		}
		r->unstable = r->sum.mad > UNSTABLE_MAD * r->sum.median ||
			      r->sum.min < (1 - UNSTABLE_BEST) * r->sum.median;
	}
	for (size_t i = 0; i < nv; i++) {
		long bi = settle_find_baseline(res, nv, res[i].variant);

		if (bi < 0 || res[i].skipped)
			continue;
		res[i].ratio = settle_safe_div(res[i].sum.median,
					       res[bi].sum.median);
		if ((size_t)bi == i)
			continue;
		compare(&res[i], &res[bi], band);
	}
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

void settle_analyze_processes(struct settle_result *res, size_t nv,
			      unsigned nproc, double band)
{
	for (size_t i = 0; i < nv && nproc > 1; i++) {
		struct settle_result *r = &res[i];
		long bi = settle_find_baseline(res, nv, r->variant);
		double est[256];
		size_t rounds, np = 0;

		if (bi < 0 || (size_t)bi == i || !r->has_cmp || r->skipped)
			continue;
		rounds = r->nsamples / nproc;
		if (rounds == 0 || res[bi].nsamples < rounds * nproc)
			continue;
		for (unsigned p = 0; p < nproc && p < 256; p++)
			if (chunk_estimate(res[bi].samples_ns, r->samples_ns,
					   p * rounds, (p + 1) * rounds,
					   &est[np]) == 0)
				np++;
		settle_compare_processes(est, np, band, &r->cmp);
		if (r->below_resolution || res[bi].below_resolution) {
			r->cmp.verdict = SETTLE_UNCLEAR;
			r->cmp.why = "below resolution";
		}
	}
}
