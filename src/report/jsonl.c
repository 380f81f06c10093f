/*
 * jsonl.c - JSON Lines (one RFC 8259 object per line, for log pipelines):
 * one object per result of a run, or per comparison of settle compare.
 * Every line stands alone: it names its claim, variant and parameters.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/share.h"
#include "util/util.h"

static void key(FILE *f, const char *k, int first)
{
	fputs(first ? "" : ", ", f);
	settle_json_string(f, k);
	fputs(": ", f);
}

static void str(FILE *f, const char *k, const char *v)
{
	key(f, k, 0);
	if (v)
		settle_json_string(f, v);
	else
		fputs("null", f);
}

static void num(FILE *f, const char *k, double v, int have)
{
	key(f, k, 0);
	settle_json_number(f, have ? v : NAN);
}

/* The variant's identity: claim, variant, label, params. */
static void identity(FILE *f, const struct settle_result *r)
{
	key(f, "claim", 1);
	settle_json_string(f, r->claim->name);
	str(f, "variant", r->variant);
	str(f, "label", r->label);
	key(f, "params", 0);
	fputc('{', f);
	if (r->claim->sized)
		fprintf(f, "\"size_bytes\": %llu%s",
			(unsigned long long)r->size_bytes,
			r->build || r->nparams ? ", " : "");
	if (r->build) {
		settle_json_string(f, "build");
		fputs(": ", f);
		settle_json_string(f, r->build);
		fputs(r->nparams ? ", " : "", f);
	}
	for (size_t i = 0; i < r->nparams; i++) {
		fputs(i ? ", " : "", f);
		settle_json_string(f, r->params[i].key);
		fputs(": ", f);
		settle_json_string(f, r->params[i].value);
	}
	fputc('}', f);
}

static void result(FILE *f, const struct settle_view *v,
		   const struct settle_view_row *w)
{
	const struct settle_result *r = w->r;
	int m = w->status == SETTLE_ROW_MEASURED;
	/* as the table: the paired estimate, its interval where reached */
	int cmp = m && w->role == SETTLE_ROLE_COMPARED && r->cmp.ratio > 0;
	int ci = cmp && w->lo[0];

	fputc('{', f);
	identity(f, r);
	str(f, "status", w->status == SETTLE_ROW_SKIPPED ? "skipped" :
	    w->status == SETTLE_ROW_BELOW_RES ? "below resolution" :
	    w->status == SETTLE_ROW_INVALID ? "invalid" : "measured");
	str(f, "reason", w->status_text);
	fprintf(f, ", \"reference\": %s", w->reference ? "true" : "false");
	fprintf(f, ", \"samples\": %zu", m ? r->nsamples : (size_t)0);
	num(f, "median_ns", r->sum.median, m);
	num(f, "min_ns", r->sum.min, m);
	num(f, "mad_ns", r->sum.mad, m);
	num(f, "bytes_per_ns", r->bytes_per_ns, m && w->bytes[0]);
	/* as csv has it: the table shows cycles for some claims only, a
	 * row of data has them wherever they are known */
	num(f, "cycles_per_op", r->cycles_per_op, m && r->cycles_per_op > 0);
	num(f, "ratio", cmp ? r->cmp.ratio : r->ratio,
	    cmp || (m && w->role == SETTLE_ROLE_BASELINE));
	num(f, "ci_low", r->cmp.lo, ci);
	num(f, "ci_high", r->cmp.hi, ci);
	str(f, "verdict", w->status == SETTLE_ROW_INVALID ? "invalid" :
	    m && w->verdict[0] ? w->verdict : NULL);
	str(f, "why", m ? w->why : NULL);
	fprintf(f, ", \"unstable\": %s", w->mark[0] ? "true" : "false");
	num(f, "layout_spread", r->layout_spread, m && r->nlayouts > 1);
	fprintf(f, ", \"layout_sensitive\": %s",
		w->lmark[0] ? "true" : "false");
	settle_json_command(f, v->rep, r, 1);
	fputs("}\n", f);
}

/* {"claim": ..., "conclusion": {"status", "reason", "sentence",
 * "numbers": {name: value}}} */
static void conclusion_line(FILE *f, const struct settle_view_claim *vc)
{
	const struct settle_conclusion *k = vc->numbers;

	key(f, "claim", 1);
	settle_json_string(f, vc->claim->name);
	fputs(", \"conclusion\": {", f);
	key(f, "status", 1);
	settle_json_string(f, vc->settled ? "settled" : "not settled");
	str(f, "reason", vc->reason);
	str(f, "sentence", k ? k->sentence : vc->sentence);
	key(f, "numbers", 0);
	fputc('{', f);
	for (size_t i = 0; k && i < k->nnumbers; i++) {
		key(f, k->numbers[i].name, i == 0);
		settle_json_number(f, k->numbers[i].value);
	}
	fputs("}}", f);
}

/* "name": [...]: n sentences of at most width bytes each, from w */
static void strings(FILE *f, const char *name, const char *w, size_t width,
		    size_t n)
{
	settle_json_string(f, name);
	fputs(": [", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		settle_json_string(f, w + i * width);
	}
	fputc(']', f);
}

static void report(FILE *f, const struct settle_view *v)
{
	for (size_t k = 0; k < v->nclaims; k++) {
		for (size_t i = 0; i < v->claims[k].nrows; i++)
			result(f, v, &v->claims[k].rows[i]);
		if (v->claims[k].has_conclusion) {
			fputc('{', f);
			conclusion_line(f, &v->claims[k]);
			fputs("}\n", f);
		}
	}
	/* last, what else happened: {"noise": "...", "warnings": [...]} */
	fputs("{\"noise\": ", f);
	settle_json_string(f, v->noise);
	fputs(", ", f);
	strings(f, "warnings", v->warnings[0], sizeof(v->warnings[0]),
		v->nwarnings);
	fputs("}\n", f);
}

static void comparison(FILE *f, const struct settle_compare_section *s,
		       const struct settle_compare_row *w)
{
	int m = w->status == SETTLE_CMP_MEASURED;

	fputc('{', f);
	identity(f, w->new_r);
	str(f, "old_file", s->old->source);
	str(f, "new_file", s->nw->source);
	fprintf(f, ", \"n_old\": %zu, \"n_new\": %zu", w->n_old, w->n_new);
	num(f, "old_median_ns", w->old_median, m);
	num(f, "new_median_ns", w->new_median, m);
	num(f, "change_pct", w->change, m);
	num(f, "ci_low_pct", w->lo, m && w->ci);
	num(f, "ci_high_pct", w->hi, m && w->ci);
	str(f, "verdict", w->verdict[0] ? w->verdict : "undefined");
	str(f, "why", w->why);
	fprintf(f, ", \"unstable\": %s, \"layout_sensitive\": %s}\n",
		w->mark[0] ? "true" : "false",
		w->lmark && w->lmark[0] ? "true" : "false");
}

static void compare(FILE *f, const struct settle_compare_view *cv)
{
	for (size_t k = 0; k < cv->nsections; k++)
		for (size_t i = 0; i < cv->sections[k].nrows; i++)
			comparison(f, &cv->sections[k],
				   &cv->sections[k].rows[i]);
	for (size_t k = 0; k < cv->nsections; k++)
		for (size_t i = 0; i < cv->sections[k].nshares; i++) {
			fputs("{\"share\": ", f);
			settle_json_share_change(f, &cv->sections[k].shares[i]);
			fputs("}\n", f);
		}
	fputs("{\"summary\": {\"status\": ", f);
	settle_json_string(f, cv->settled ? "settled" : "not settled");
	fputs(", \"sentence\": ", f);
	settle_json_string(f, settle_conclusion_body(cv->summary, cv->settled));
	fputs("}, ", f);
	/* as compare's json document: the differences between the files'
	 * machines and builds, then the warnings on their noise */
	strings(f, "differences", cv->ndifferences ? cv->differences[0] : "",
		sizeof(cv->differences[0]), cv->ndifferences);
	fputs(", ", f);
	strings(f, "warnings", cv->warnings[0], sizeof(cv->warnings[0]),
		cv->nwarnings);
	fputs("}\n", f);
}

const struct settle_format settle_format_jsonl = {
	.name = "json-lines",
	.data = 1,
	.report = report,
	.compare = compare,
};
