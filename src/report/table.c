/*
 * table.c - terminal tables: the machine, then per claim a table shaped
 * like the original post, its notes and its scale section, then the
 * noise; for settle compare, one table per pair of files. Notes wrap at
 * WIDTH columns; rows are as wide as their cells.
 */
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/layout.h"

#define WIDTH 100

/* "  mark text", wrapped, the next lines indented by 4. */
static void note(FILE *f, const struct settle_view_note *n)
{
	settle_para(f, 2, 4, WIDTH, "%s%s%s", n->mark, n->mark[0] ? " " : "",
		    n->text);
}

/* The machine's facts, one per line; info: those of `settle info`. */
static void machine(FILE *f, const struct settle_view *v, int info)
{
	for (size_t i = 0; i < v->nitems; i++) {
		const struct settle_view_item *it = &v->items[i];

		if (info ? it->info_only < 0 : it->info_only > 0 || it->detail)
			continue;
		if (i == 0)
			fprintf(f, "%s: %s\n", it->key, it->text);
		else if (it->key)
			fprintf(f, "  %s: %s\n", it->key, it->text);
		else
			fprintf(f, "  %s\n", it->text);
	}
}

/* A label column is as wide as its longest label, in display columns
 * (UTF-8), up to LABEL_MAX: a longer label overruns its own row only. */
#define LABEL_MAX 48

/* Width w of a column, widened to s's display width, up to max. */
static int widen(int w, const char *s, int max)
{
	int k = settle_text_width(s);

	return k > w ? (k < max ? k : max) : w;
}

static int label_width(const struct settle_view_claim *vc)
{
	int w = 7;

	for (size_t i = 0; i < vc->nrows; i++)
		w = widen(w, vc->rows[i].label, LABEL_MAX);
	return w;
}

/* s, then blanks to width display columns (%-*s counts bytes). */
static void padded(FILE *f, const char *s, int width)
{
	fputs(s, f);
	for (int k = settle_text_width(s); k < width; k++)
		fputc(' ', f);
}

/* 2 when a row of vc is marked layout-sensitive (its marks "!~"), else 1. */
static int mark_width(const struct settle_view_claim *vc)
{
	for (size_t i = 0; i < vc->nrows; i++)
		if (vc->rows[i].lmark && vc->rows[i].lmark[0])
			return 2;
	return 1;
}

/* Column widths of a claim's table: at least the header's, else the
 * widest cell's (a 1016.000x ratio, a long interval; "per increment"). */
struct cols {
	int label, per_op, bytes, ratio, ci;
};

static void interval(const struct settle_view_row *w, char *ci, size_t len)
{
	ci[0] = '\0';
	if (w->lo[0])
		snprintf(ci, len, "[%s, %s]", w->lo, w->hi);
	else if (w->role == SETTLE_ROLE_COMPARED)
		snprintf(ci, len, "-");
}

static int wider(int w, const char *s)
{
	return (int)strlen(s) > w ? (int)strlen(s) : w;
}

static struct cols col_widths(const struct settle_view_claim *vc)
{
	struct cols c = { label_width(vc), 11, 8, 7, 17 };
	char ci[40];

	if (4 + (int)strlen(vc->op_name) > c.per_op) /* "per " op_name */
		c.per_op = 4 + (int)strlen(vc->op_name);

	for (size_t i = 0; i < vc->nrows; i++) {
		const struct settle_view_row *w = &vc->rows[i];

		c.bytes = wider(c.bytes, w->bytes);
		c.ratio = wider(c.ratio, w->ratio);
		interval(w, ci, sizeof(ci));
		c.ci = wider(c.ci, ci);
	}
	return c;
}

static void row(FILE *f, const struct settle_view_claim *vc,
		const struct settle_view_row *w, const struct cols *c)
{
	char ci[40], marks[8];
	int lw = c->label;

	if (vc->sized)
		fprintf(f, "  %-9s", w->size);
	else
		fprintf(f, "  ");
	padded(f, w->label, lw);
	if (w->status == SETTLE_ROW_SKIPPED) {
		fprintf(f, "  skipped: %s\n", w->status_text);
		return;
	}
	if (w->status == SETTLE_ROW_BELOW_RES) {
		fprintf(f, "  below resolution: %s\n", w->status_text);
		return;
	}
	if (w->status == SETTLE_ROW_INVALID) {
		fprintf(f, "  invalid: %s\n", w->status_text);
		return;
	}
	snprintf(marks, sizeof(marks), "%s%s", w->mark, w->lmark);
	fprintf(f, " %*s %11s %7s%-*s", c->per_op, w->median, w->best,
		w->mad, mark_width(vc), marks);
	if (vc->show_bytes)
		fprintf(f, " %*s", c->bytes, w->bytes);
	if (vc->show_cycles)
		fprintf(f, " %8s", w->cycles);
	interval(w, ci, sizeof(ci));
	fprintf(f, " %*s  %-*s %s", c->ratio, w->ratio, c->ci, ci, w->verdict);
	if (w->why)
		fprintf(f, " (%s)", w->why);
	if (w->reference)
		fprintf(f, "  (reference)");
	fprintf(f, "\n");
}

static void claim_table(FILE *f, const struct settle_view_claim *vc)
{
	struct cols c = col_widths(vc);
	int lw = c.label;
	char head[48];

	fprintf(f, "\n%s\n", vc->title);
	snprintf(head, sizeof(head), "per %s", vc->op_name);
	fprintf(f, "  %s%-*s %*s %11s %*s", vc->sized ? "size     " : "",
		lw, "variant", c.per_op, head, "best", 7 + mark_width(vc),
		mark_width(vc) > 1 ? "+-MAD  " : "+-MAD ");
	if (vc->show_bytes)
		fprintf(f, " %*s", c.bytes, "B/ns");
	if (vc->show_cycles)
		fprintf(f, " %8s", "cycles");
	fprintf(f, " %*s  %-*s %s\n", c.ratio, "ratio", c.ci, "95% interval",
		"verdict");
	for (size_t i = 0; i < vc->nrows; i++)
		row(f, vc, &vc->rows[i], &c);
	for (size_t i = 0; i < vc->nnotes; i++)
		note(f, &vc->notes[i]);
}

static void scale_section(FILE *f, const struct settle_view_claim *vc)
{
	int lw = label_width(vc), cw[SETTLE_MAX_FIGURES];

	if (!vc->nscale)
		return;
	fprintf(f, "  in the claim's terms:\n  %*s", lw, "");
	for (size_t k = 0; k < vc->ncols; k++) {
		cw[k] = (int)strlen(vc->cols[k]);
		cw[k] = cw[k] < 16 ? 16 : cw[k];
		fprintf(f, "  %*s", cw[k], vc->cols[k]);
	}
	fprintf(f, "\n");
	for (size_t i = 0; i < vc->nscale; i++) {
		const struct settle_view_scale_row *s = &vc->scale[i];

		fputs("  ", f);
		padded(f, s->label, lw);
		for (size_t k = 0; k < s->n; k++) {
			char val[64];

			snprintf(val, sizeof(val), "%s%s", s->cell[k].value,
				 s->cell[k].mark);
			fprintf(f, "  %*s", cw[k], val);
		}
		fprintf(f, "\n");
	}
	for (size_t j = 0; j < vc->nscale_notes; j++)
		note(f, &vc->scale_notes[j]);
}

static void noise(FILE *f, const struct settle_view *v)
{
	fputc('\n', f);
	settle_para(f, 0, 2, WIDTH, "noise: %s", v->noise);
	for (size_t i = 0; i < v->nwarnings; i++)
		settle_para(f, 2, 4, WIDTH, "warning: %s", v->warnings[i]);
}

/* The lines under a claim's table (whole commands), indented by level. */
static void lines(FILE *f, const struct settle_view_claim *vc)
{
	for (size_t i = 0; i < vc->nlines; i++) {
		int in = 2 + 2 * vc->lines[i].level;

		settle_para(f, in, in + 2, WIDTH, "%s", vc->lines[i].text);
	}
}

static void report(FILE *f, const struct settle_view *v)
{
	if (v->info) {
		machine(f, v, 1);
		return;
	}
	machine(f, v, 0);
	for (size_t i = 0; i < v->nclaims; i++) {
		claim_table(f, &v->claims[i]);
		scale_section(f, &v->claims[i]);
		lines(f, &v->claims[i]);
		if (v->claims[i].has_conclusion)
			settle_para(f, 2, 4, WIDTH, "%s",
				    v->claims[i].conclusion);
	}
	if (v->nclaims)
		noise(f, v);
}

/* ---- compare ----------------------------------------------------------- */

/* The width of a comparison's name column: 40, or its widest name's up
 * to CMP_NAME_MAX (a longer name overruns its own row only; names such
 * as "popcount 4 KiB gcc -O2 -march=native table8" pushed every column
 * after them out of line). */
#define CMP_NAME_MAX 96
static int name_width(const struct settle_compare_section *s)
{
	int w = 40;

	for (size_t i = 0; i < s->nrows; i++)
		w = widen(w, s->rows[i].name, CMP_NAME_MAX);
	return w;
}

/* sep: a blank line first (not at the very top of the output) */
static void compare_section(FILE *f, const struct settle_compare_section *s,
			    int sep)
{
	int mw = 1; /* the marks after the change: "!", or "!~" */
	int nw = name_width(s);

	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].lmark && s->rows[i].lmark[0])
			mw = 2;
	fprintf(f, "%s%s -> %s\n", sep ? "\n" : "", s->old_name,
		s->new_name);
	fprintf(f, "  %-*s %11s %11s %9s%*s %-20s  %-9s %s\n",
		nw, "claim / variant", "old", "new", "change", mw, "",
		"95% interval", "samples", "verdict");
	for (size_t i = 0; i < s->nrows; i++) {
		const struct settle_compare_row *w = &s->rows[i];
		char counts[48], ci[48], marks[8];

		if (w->status == SETTLE_CMP_NO_TIME) {
			fputs("  ", f);
			padded(f, w->name, nw);
			fprintf(f, " change %s%s%s\n", w->why,
				w->verdict[0] ? ": " : "", w->verdict);
			continue;
		}
		snprintf(counts, sizeof(counts), "%zu/%zu", w->n_old, w->n_new);
		snprintf(ci, sizeof(ci), "[%8s, %8s]", w->lo_text, w->hi_text);
		snprintf(marks, sizeof(marks), "%s%s", w->mark,
			 w->lmark ? w->lmark : "");
		fputs("  ", f);
		padded(f, w->name, nw);
		fprintf(f, " %11s %11s %9s%-*s %-20s  %-9s %s",
			w->old_text, w->new_text, w->change_text,
			mw, marks, ci, counts, w->verdict);
		if (w->why)
			fprintf(f, " (%s)", w->why);
		fprintf(f, "\n");
	}
	if (s->nrows == 0)
		fprintf(f, "  no claim/variant/params in common\n");
	for (size_t i = 0; i < s->nonly_old; i++)
		fprintf(f, "  only in old: %s\n", s->only_old[i]);
	for (size_t i = 0; i < s->nonly_new; i++)
		fprintf(f, "  only in new: %s\n", s->only_new[i]);
	if (s->has_geomean) {
		char ci[48];

		snprintf(ci, sizeof(ci), "[%8s, %8s]", s->gm_lo_text,
			 s->gm_hi_text);
		fprintf(f, "  %-*s %11s %11s %9s%*s %-20s  (%s)\n",
			nw, "geometric mean", "", "", s->gm_text, mw, "", ci,
			s->gm_method);
	}
	if (s->nshares)
		settle_para(f, 2, 4, WIDTH, "%s:", SETTLE_SHARE_CHANGES_HEAD);
	for (size_t i = 0; i < s->nshares; i++)
		settle_para(f, 4, 6, WIDTH, "%s", s->shares[i].text);
}

static void compare(FILE *f, const struct settle_compare_view *cv)
{
	for (size_t i = 0; i < cv->ndifferences; i++) {
		const char *d = cv->differences[i], *nl;

		/* "the files come from different X:\nA: x\nB: y" */
		fputs("warning: ", f);
		while ((nl = strchr(d, '\n'))) {
			fprintf(f, "%.*s\n  ", (int)(nl - d), d);
			d = nl + 1;
		}
		fprintf(f, "%s\n", d);
	}
	for (size_t k = 0; k < cv->nsections; k++)
		compare_section(f, &cv->sections[k],
				k > 0 || cv->ndifferences > 0);
	for (size_t i = 0; i < cv->nnotes; i++)
		note(f, &cv->notes[i]);
	for (size_t i = 0; i < cv->nwarnings; i++)
		settle_para(f, 0, 2, WIDTH, "warning: %s", cv->warnings[i]);
	settle_para(f, 0, 2, WIDTH, "%s", cv->summary);
}

const struct settle_format settle_format_table = {
	.name = "table",
	.report = report,
	.compare = compare,
};
