/*
 * csv.c - one row per result (for compare: per comparison), RFC 4180:
 * CRLF line ends; a field that holds a comma, a double quote, CR or LF is
 * quoted and its quotes are doubled; other control characters are written
 * out (csv_text()). Numbers in the C locale ('.'
 * decimals), full precision.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "util/util.h"

static const char *const columns[] = {
	"claim", "variant", "label", "size_bytes", "build", "params", "n",
	"median_ns", "min_ns", "mean_ns", "mad_ns", "bytes_per_ns",
	"cycles_per_op", "ratio", "ci_low", "ci_high", "ci_level", "verdict",
	"why", "reference", "unstable", "below_resolution", "skipped",
	"invalid", "layout_spread", "layout_sensitive",
};

/*
 * s with its control characters and bidirectional formatting characters
 * written out (settle_escape()), as every other format writes them: `cat
 * r.csv` ran a name's terminal escapes. Tab, CR and LF stay, quoted as
 * RFC 4180 allows. NULL when out of memory.
 */
static char *csv_text(const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	int ok = m != NULL;

	while (ok && *s) {
		size_t k = strcspn(s, "\t\r\n");
		char *part = strndup(s, k);
		char *e = part ? settle_escape(part) : NULL;

		ok = e && fputs(e, m) >= 0;
		free(part);
		free(e);
		s += k;
		if (ok && *s)
			ok = fputc(*s++, m) != EOF;
	}
	if (m && fclose(m) == 0 && ok)
		return out;
	free(out);
	return NULL;
}

/* A text field (csv_text()), quoted when it must be. */
static void field(FILE *f, const char *s, int first)
{
	char *e;

	if (!first)
		fputc(',', f);
	if (!s || !(e = csv_text(s)))
		return;
	if (!strpbrk(e, ",\"\r\n")) {
		fputs(e, f);
		free(e);
		return;
	}
	fputc('"', f);
	for (const char *p = e; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
	free(e);
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

static void row(FILE *f, const struct settle_view_row *w)
{
	const struct settle_result *r = w->r;
	const struct settle_comparison *c = &r->cmp;
	/* the view's: a time of the work's, as the table and json-lines */
	int measured = w->status == SETTLE_ROW_MEASURED;
	int cmp = measured && r->has_cmp && c->ratio > 0;
	int ci = cmp && w->lo[0]; /* as the table: where reached */
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
	number(f, r->bytes_per_ns, measured && w->bytes[0]);
	number(f, r->cycles_per_op, measured && r->cycles_per_op > 0);
	if (cmp)
		number(f, c->ratio, 1);
	else
		number(f, r->ratio, measured && r->has_baseline);
	number(f, c->lo, ci);
	number(f, c->hi, ci);
	number(f, c->level, ci);
	field(f, w->status == SETTLE_ROW_INVALID ? "invalid" :
	      measured && w->verdict[0] ? w->verdict : NULL, 0);
	field(f, measured ? w->why : NULL, 0);
	boolean(f, r->reference);
	boolean(f, measured && w->mark[0] == '!');
	boolean(f, w->status == SETTLE_ROW_BELOW_RES);
	field(f, r->skipped, 0);
	field(f, r->invalid[0] ? r->invalid : NULL, 0);
	number(f, r->layout_spread, measured && r->nlayouts > 1);
	boolean(f, measured && w->lmark[0] == '~');
	fputs("\r\n", f);
}

static void report(FILE *f, const struct settle_view *v)
{
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		field(f, columns[i], i == 0);
	fputs("\r\n", f);
	for (size_t k = 0; k < v->nclaims; k++)
		for (size_t i = 0; i < v->claims[k].nrows; i++)
			row(f, &v->claims[k].rows[i]);
	/* the conclusions last, then the noise and its warnings, as comment
	 * lines a reader can skip */
	for (size_t k = 0; k < v->nclaims; k++)
		if (v->claims[k].has_conclusion) {
			/* a claim file's name may hold a line break: written
			 * out, so the comment stays one line */
			char *name = settle_escape(v->claims[k].claim->name);

			fprintf(f, "# %s: %s\r\n", name ? name : "?",
				v->claims[k].conclusion);
			free(name);
		}
	fprintf(f, "# noise: %s\r\n", v->noise);
	for (size_t i = 0; i < v->nwarnings; i++)
		fprintf(f, "# warning: %s\r\n", v->warnings[i]);
}

static const char *const compare_columns[] = {
	"old_file", "new_file", "claim", "variant", "label", "size_bytes",
	"build", "params", "n_old", "n_new", "old_median_ns", "new_median_ns",
	"change_pct", "ci_low_pct", "ci_high_pct", "verdict", "why",
	"unstable", "layout_sensitive",
};

static void compare_row(FILE *f, const struct settle_compare_section *s,
			const struct settle_compare_row *w)
{
	const struct settle_result *r = w->new_r;
	int m = w->status == SETTLE_CMP_MEASURED;
	char sz[24];

	field(f, s->old->source, 1);
	field(f, s->nw->source, 0);
	field(f, r->claim->name, 0);
	field(f, r->variant, 0);
	field(f, r->label, 0);
	snprintf(sz, sizeof(sz), "%llu", (unsigned long long)r->size_bytes);
	field(f, r->claim->sized ? sz : NULL, 0);
	field(f, r->build, 0);
	params(f, r);
	fprintf(f, ",%zu,%zu", w->n_old, w->n_new);
	number(f, w->old_median, m);
	number(f, w->new_median, m);
	number(f, w->change, m);
	number(f, w->lo, m && w->ci);
	number(f, w->hi, m && w->ci);
	field(f, w->verdict[0] ? w->verdict : "undefined", 0);
	field(f, w->why, 0);
	boolean(f, w->mark[0] != '\0');
	boolean(f, w->lmark && w->lmark[0] != '\0');
	fputs("\r\n", f);
}

/* "the files come from different X:\nA: x\nB: y" on one comment line:
 * "# warning: the files come from different X: A: x; B: y" (a line that
 * ends in ':' or ';' goes on after a space) */
static void difference(FILE *f, const char *d)
{
	char last = ':';

	fputs("# warning: ", f);
	for (; *d; d++) {
		if (*d != '\n')
			fputc(last = *d, f);
		else
			fputs(last == ':' || last == ';' ? " " : "; ", f);
	}
	fputs("\r\n", f);
}

static void compare(FILE *f, const struct settle_compare_view *cv)
{
	for (size_t i = 0; i < sizeof(compare_columns) / sizeof(compare_columns[0]); i++)
		field(f, compare_columns[i], i == 0);
	fputs("\r\n", f);
	for (size_t k = 0; k < cv->nsections; k++)
		for (size_t i = 0; i < cv->sections[k].nrows; i++)
			compare_row(f, &cv->sections[k],
				    &cv->sections[k].rows[i]);
	/* --share: comment lines, the table's words */
	for (size_t k = 0; k < cv->nsections; k++)
		for (size_t i = 0; i < cv->sections[k].nshares; i++)
			fprintf(f, "# share: %s\r\n",
				cv->sections[k].shares[i].text);
	for (size_t i = 0; i < cv->ndifferences; i++)
		difference(f, cv->differences[i]);
	for (size_t i = 0; i < cv->nwarnings; i++)
		fprintf(f, "# warning: %s\r\n", cv->warnings[i]);
	fprintf(f, "# %s\r\n", cv->summary);
}

const struct settle_format settle_format_csv = {
	.name = "csv",
	.data = 1,
	.report = report,
	.compare = compare,
};
