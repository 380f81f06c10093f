/*
 * csv.c - one row per result, RFC 4180: CRLF line ends; a field that
 * holds a comma, a double quote, CR or LF is quoted and its quotes are
 * doubled. Numbers in the C locale ('.' decimals), full precision.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"

static const char *const columns[] = {
	"claim", "variant", "label", "size_bytes", "build", "params", "n",
	"median_ns", "min_ns", "mean_ns", "mad_ns", "bytes_per_ns",
	"cycles_per_op", "ratio", "ci_low", "ci_high", "ci_level", "verdict",
	"why", "reference", "unstable", "below_resolution", "skipped",
};

/* A text field, quoted when it must be. */
static void field(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A number field; empty when it does not apply (not finite, or !have). */
static void number(FILE *f, double v, int have)
{
	fputc(',', f);
	if (have && isfinite(v))
		fprintf(f, "%.10g", v);
}

static void boolean(FILE *f, int v)
{
	fputs(v ? ",true" : ",false", f);
}

/* The parameters other than size and build, "key=value;key=value". */
static void params(FILE *f, const struct settle_result *v)
{
	char buf[1024];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < v->nparams && used < sizeof(buf); i++) {
		int k = snprintf(buf + used, sizeof(buf) - used, "%s%s=%s",
				 i ? ";" : "", v->params[i].key,
				 v->params[i].value);

		if (k > 0)
			used += (size_t)k;
	}
	field(f, buf, 0);
}

static void row(FILE *f, const struct settle_result *r)
{
	const struct settle_comparison *c = &r->cmp;
	int measured = !r->skipped && r->nsamples > 0;
	int cmp = measured && r->has_cmp && c->ratio > 0;
	char sz[24];

	field(f, r->claim->name, 1);
	field(f, r->variant, 0);
	field(f, r->label, 0);
	snprintf(sz, sizeof(sz), "%llu", (unsigned long long)r->size_bytes);
	field(f, r->claim->sized ? sz : NULL, 0);
	field(f, r->build, 0);
	params(f, r);
	fprintf(f, ",%zu", measured ? r->nsamples : (size_t)0);
	number(f, r->sum.median, measured);
	number(f, r->sum.min, measured);
	number(f, r->sum.mean, measured);
	number(f, r->sum.mad, measured);
	number(f, r->bytes_per_ns, measured && r->bytes_per_ns > 0);
	number(f, r->cycles_per_op, measured && r->cycles_per_op > 0);
	if (cmp)
		number(f, c->ratio, 1);
	else
		number(f, r->ratio, measured && r->ratio > 0);
	number(f, c->lo, cmp);
	number(f, c->hi, cmp);
	number(f, c->level, cmp);
	field(f, !measured ? NULL : r->has_cmp ?
	      settle_verdict_name(c->verdict) :
	      r->ratio > 0 ? "baseline" : NULL, 0);
	field(f, measured && r->has_cmp ? c->why : NULL, 0);
	boolean(f, r->reference);
	boolean(f, measured && r->unstable);
	boolean(f, measured && r->below_resolution);
	field(f, r->skipped, 0);
	fputs("\r\n", f);
}

void settle_print_csv(FILE *f, const struct settle_report *rep)
{
	struct settle_c_locale loc;

	settle_c_locale_begin(&loc);
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		field(f, columns[i], i == 0);
	fputs("\r\n", f);
	for (size_t i = 0; i < rep->nresults; i++)
		row(f, &rep->results[i]);
	settle_c_locale_end(&loc);
}
