/*
 * text.c - plain text for a mailing-list post: no line longer than 72
 * columns. The machine line comes first; per claim a compact table whose
 * optional columns (B/ns, cycles) are dropped before the variant column
 * gets too narrow, a label that is still too long on a line of its own,
 * and every note wrapped at spaces; for compare, a row per comparison
 * with its figures on a second line. Widths are counted in display
 * columns of UTF-8 text (a wide character counts two); the view hands
 * names over written out as on a terminal (settle_escape(): "\x0a"),
 * and what control character or invalid UTF-8 still reaches a line
 * here becomes a space ('\t', '\n') or '?'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/layout.h"

#define WIDTH 72
/* A variant column narrower than this loses the optional columns first. */
#define MIN_LABEL 16

#define para(f, i0, i, ...) settle_para(f, i0, i, WIDTH, __VA_ARGS__)

/* A line being built, with its display column. */
struct line {
	char buf[512];
	size_t len;
	int col;
};

static void put(struct line *l, const char *s)
{
	size_t n = strlen(s);

	if (l->len + n >= sizeof(l->buf))
		n = sizeof(l->buf) - 1 - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
	l->col += settle_text_width(s);
}

static void put_pad(struct line *l, int n)
{
	while (n-- > 0)
		put(l, " ");
}

/* s right-aligned in w columns (left-aligned when right is 0). */
static void put_cell(struct line *l, const char *s, int w, int right)
{
	int pad = w - settle_text_width(s);

	if (right)
		put_pad(l, pad);
	put(l, s);
	if (!right)
		put_pad(l, pad);
}

static void flush(FILE *f, struct line *l)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->buf[--l->len] = '\0';
	fprintf(f, "%s\n", l->buf);
	l->len = 0;
	l->buf[0] = '\0';
	l->col = 0;
}

/* "mark text" under a table, wrapped. */
static void note(FILE *f, const struct settle_view_note *n)
{
	para(f, 2, 4, "%s%s%s", n->mark, n->mark[0] ? " " : "", n->text);
}

static void machine_line(FILE *f, const struct settle_view *v)
{
	char line[2048] = "";
	size_t used = 0;

	for (size_t i = 0; i < v->nitems && used < sizeof(line); i++) {
		char brief[200];
		int k;

		if (!v->items[i].in_brief)
			continue;
		snprintf(brief, sizeof(brief), "%s", v->items[i].brief);
		k = snprintf(line + used, sizeof(line) - used, "%s%s",
			     used ? "; " : "", brief);
		if (k > 0)
			used += (size_t)k;
	}
	para(f, 0, 2, "machine: %s", line);
}

enum { C_MEDIAN, C_MAD, C_BYTES, C_CYCLES, C_RATIO, C_CI, NCOLS };

static const struct {
	const char *head;
	int w, right;
} col_spec[NCOLS] = {
	[C_MEDIAN] = { "median", 8, 1 },
	[C_MAD] = { "+-MAD ", 6, 1 },
	[C_BYTES] = { "B/ns", 6, 1 },
	[C_CYCLES] = { "cycles", 6, 1 },
	[C_RATIO] = { "ratio", 6, 1 }, /* "12.345x" overflows by one */
	[C_CI] = { "95% CI", 11, 0 },
};

#define MAX_WHY 8

/* A claim's table: its columns, and the reasons footnoted under it. */
struct layout {
	int on[NCOLS];
	int vw;   /* verdict column: "baseline", or "unclear [a]" */
	int lw;   /* variant column */
	int sep;  /* spaces between columns */
	int vcol; /* where the verdict starts */
	const char *why[MAX_WHY];
	size_t nwhy;
};

static int label_w(const char *label)
{
	char *c = settle_text_clean(label);
	int w = c ? settle_text_width(c) : 0;

	free(c);
	return w;
}

static int used_width(const struct layout *lay)
{
	int used = 2 + 2 + lay->vw; /* indent, gap before the verdict */

	for (int k = 0; k < NCOLS; k++)
		used += lay->on[k] ? lay->sep + col_spec[k].w : 0;
	return used;
}

/*
 * Columns for claim vc: the variant column gets at least MIN_LABEL
 * columns (or the longest label, if shorter) by dropping the cycles, then
 * the throughput; then the longest label if single spacing makes room
 * for it. Labels longer than the column get a line of their own.
 */
static void plan(const struct settle_view_claim *vc, struct layout *lay)
{
	int longest = 7, want;

	memset(lay, 0, sizeof(*lay));
	lay->vw = 8;
	for (size_t i = 0; i < vc->nrows; i++) {
		int w = label_w(vc->rows[i].label);

		longest = w > longest ? w : longest;
		if (vc->rows[i].why)
			lay->vw = 11;
	}
	for (int k = 0; k < NCOLS; k++)
		lay->on[k] = 1;
	lay->on[C_BYTES] = vc->show_bytes;
	lay->on[C_CYCLES] = vc->show_cycles;
	lay->sep = 2;
	want = longest < MIN_LABEL ? longest : MIN_LABEL;
	while (WIDTH - used_width(lay) < want &&
	       (lay->on[C_CYCLES] || lay->on[C_BYTES])) {
		if (lay->on[C_CYCLES])
			lay->on[C_CYCLES] = 0;
		else
			lay->on[C_BYTES] = 0;
	}
	if (WIDTH - used_width(lay) < longest)
		lay->sep = 1;
	lay->lw = WIDTH - used_width(lay);
	if (lay->lw > longest)
		lay->lw = longest;
	lay->vcol = used_width(lay) - lay->vw + lay->lw;
}

static void header(FILE *f, const struct layout *lay)
{
	struct line l = { .len = 0 };

	put(&l, "  ");
	put_cell(&l, "variant", lay->lw, 0);
	for (int k = 0; k < NCOLS; k++)
		if (lay->on[k]) {
			put_pad(&l, lay->sep);
			put_cell(&l, col_spec[k].head, col_spec[k].w,
				 col_spec[k].right);
		}
	put(&l, "  verdict");
	flush(f, &l);
}

/* The footnote mark of reason why ("[a]"), added to the list if new. */
static void why_mark(struct layout *lay, const char *why, char *buf,
		     size_t len)
{
	size_t i;

	for (i = 0; i < lay->nwhy && strcmp(lay->why[i], why); i++)
		;
	if (i == lay->nwhy && lay->nwhy < MAX_WHY)
		lay->why[lay->nwhy++] = why;
	snprintf(buf, len, "[%c]", (char)('a' + (i < MAX_WHY ? i : 0)));
}

/*
 * The verdict after the numbers, with its reason in parentheses when it
 * fits on the row, else as a footnote mark ("[a]"); on the next line at
 * the verdict column if even that does not fit. A remark that does not
 * fit on the row ("(reference)") goes on a line of its own.
 */
static void verdict(FILE *f, struct line *l, struct layout *lay,
		    const char *v, const char *why, const char *more)
{
	char vt[128];
	int ind, w;

	snprintf(vt, sizeof(vt), "%s", v);
	if (why && l->col + 2 + settle_text_width(v) + 3 +
		   settle_text_width(why) <= WIDTH) {
		snprintf(vt, sizeof(vt), "%s (%s)", v, why);
	} else if (why) {
		char mark[8];

		why_mark(lay, why, mark, sizeof(mark));
		snprintf(vt, sizeof(vt), "%s %s", v, mark);
	}
	w = settle_text_width(vt);
	if (l->col + 2 + w > WIDTH) {
		flush(f, l);
		put_pad(l, lay->vcol + w <= WIDTH ? lay->vcol : WIDTH - w);
	} else {
		put(l, "  ");
	}
	put(l, vt);
	if (more[0] && l->col + 1 + settle_text_width(more) <= WIDTH) {
		put(l, " ");
		put(l, more);
		more = "";
	}
	flush(f, l);
	if (!more[0])
		return;
	ind = lay->vcol + settle_text_width(more) <= WIDTH ? lay->vcol :
	      WIDTH - settle_text_width(more);
	para(f, ind < 4 ? 4 : ind, 4, "%s", more);
}

static void row(FILE *f, const struct settle_view_row *w, struct layout *lay)
{
	char cell[NCOLS][48], *label;
	struct line l = { .len = 0 };

	label = settle_text_clean(w->label);
	if (!label)
		return;
	if (w->status != SETTLE_ROW_MEASURED) {
		para(f, 2, 6, "%s  %s: %s%s", label,
		     w->status == SETTLE_ROW_SKIPPED ? "skipped" :
		     w->status == SETTLE_ROW_INVALID ? "invalid" :
		     "below resolution", w->status_text,
		     w->reference ? " (reference)" : "");
		free(label);
		return;
	}
	if (settle_text_width(label) > lay->lw) {
		/* a line of its own, wrapped too if need be */
		settle_spaces(f, 2);
		settle_wrap(f, label, 2, 4, WIDTH);
		put_pad(&l, 2 + lay->lw);
	} else {
		put(&l, "  ");
		put_cell(&l, label, lay->lw, 0);
	}
	free(label);
	snprintf(cell[C_MEDIAN], sizeof(cell[0]), "%s", w->median);
	/* "12.8%!", "12.8%~" (layout-sensitive), "12.8%!~" (both: one
	 * character over the column) */
	snprintf(cell[C_MAD], sizeof(cell[0]), "%s%s%s", w->mad,
		 w->mark[0] || w->lmark[0] ? w->mark : " ", w->lmark);
	snprintf(cell[C_BYTES], sizeof(cell[0]), "%s", w->bytes);
	snprintf(cell[C_CYCLES], sizeof(cell[0]), "%s", w->cycles);
	snprintf(cell[C_RATIO], sizeof(cell[0]), "%s", w->ratio);
	if (w->lo[0])
		snprintf(cell[C_CI], sizeof(cell[0]), "%s-%s", w->lo, w->hi);
	else
		cell[C_CI][0] = '\0';
	for (int k = 0; k < NCOLS; k++)
		if (lay->on[k]) {
			put_pad(&l, lay->sep);
			put_cell(&l, cell[k], col_spec[k].w, col_spec[k].right);
		}
	verdict(f, &l, lay, w->role == SETTLE_ROLE_NONE ? "-" : w->verdict,
		w->why, w->reference ? "(reference)" : "");
}

/* One figure with its mark, value and unit never split. */
static void figure(const struct settle_view_scale_cell *c, char *buf,
		   size_t len)
{
	snprintf(buf, len, "%s%s", c->value, c->mark);
	settle_text_nb(buf);
}

/*
 * The claim's own terms: a table when its columns fit in WIDTH, else one
 * wrapped line per variant ("label: title = value unit; ...").
 */
static void scale_section(FILE *f, const struct settle_view_claim *vc)
{
	int cw[SETTLE_MAX_FIGURES] = { 0 }, lw = 0, total;
	char val[64];

	if (!vc->nscale)
		return;
	for (size_t k = 0; k < vc->ncols; k++)
		cw[k] = label_w(vc->cols[k]);
	for (size_t i = 0; i < vc->nscale; i++) {
		const struct settle_view_scale_row *s = &vc->scale[i];
		int w = label_w(s->label);

		lw = w > lw ? w : lw;
		for (size_t k = 0; k < s->n; k++) {
			figure(&s->cell[k], val, sizeof(val));
			w = settle_text_width(val);
			cw[k] = w > cw[k] ? w : cw[k];
		}
	}
	total = 4 + lw;
	for (size_t k = 0; k < vc->ncols; k++)
		total += 2 + cw[k];
	fprintf(f, "  in the claim's terms:\n");
	if (total <= WIDTH) {
		struct line l = { .len = 0 };

		put_pad(&l, 4 + lw);
		for (size_t k = 0; k < vc->ncols; k++) {
			char *cl = settle_text_clean(vc->cols[k]);

			put_pad(&l, 2);
			put_cell(&l, cl ? cl : "", cw[k], 1);
			free(cl);
		}
		flush(f, &l);
	}
	for (size_t i = 0; i < vc->nscale; i++) {
		const struct settle_view_scale_row *s = &vc->scale[i];
		char figs[SETTLE_MAX_FIGURES * 112] = "";
		size_t used = 0;

		if (total <= WIDTH) {
			struct line l = { .len = 0 };
			char *cl = settle_text_clean(s->label);

			put(&l, "    ");
			put_cell(&l, cl ? cl : "", lw, 0);
			free(cl);
			for (size_t k = 0; k < vc->ncols; k++) {
				if (k < s->n)
					figure(&s->cell[k], val, sizeof(val));
				else
					val[0] = '\0';
				for (char *p = val; *p; p++)
					*p = *p == SETTLE_NBSP ? ' ' : *p;
				put_pad(&l, 2);
				put_cell(&l, val, cw[k], 1);
			}
			flush(f, &l);
			continue;
		}
		for (size_t k = 0; k < s->n && used < sizeof(figs); k++) {
			int w;

			figure(&s->cell[k], val, sizeof(val));
			w = snprintf(figs + used, sizeof(figs) - used,
				     "%s%s = %s", k ? "; " : "", vc->cols[k],
				     val);
			if (w > 0)
				used += (size_t)w;
		}
		para(f, 4, 6, "%s: %s", s->label, figs);
	}
	for (size_t j = 0; j < vc->nscale_notes; j++)
		note(f, &vc->scale_notes[j]);
}

static void claim_section(FILE *f, const struct settle_view_claim *vc)
{
	struct layout lay;
	const char *size = NULL;

	fputc('\n', f);
	para(f, 0, 2, "%s", vc->title);
	plan(vc, &lay);
	header(f, &lay);
	for (size_t i = 0; i < vc->nrows; i++) {
		const struct settle_view_row *w = &vc->rows[i];

		if (vc->sized && (!size || strcmp(w->size, size)))
			fprintf(f, "  size %s:\n", w->size);
		size = w->size;
		row(f, w, &lay);
	}
	for (size_t i = 0; i < lay.nwhy; i++)
		para(f, 2, 6, "[%c] unclear: %s", (char)('a' + i), lay.why[i]);
	for (size_t i = 0; i < vc->nnotes; i++)
		note(f, &vc->notes[i]);
	scale_section(f, vc);
	for (size_t i = 0; i < vc->nlines; i++) {
		int in = 2 + 2 * vc->lines[i].level;

		para(f, in, in + 2, "%s", vc->lines[i].text);
	}
	if (vc->has_conclusion)
		para(f, 2, 4, "%s", vc->conclusion);
}

static void noise(FILE *f, const struct settle_view *v)
{
	fputc('\n', f);
	para(f, 0, 2, "noise: %s", v->noise);
	for (size_t i = 0; i < v->nwarnings; i++)
		para(f, 2, 4, "warning: %s", v->warnings[i]);
}

static void report(FILE *f, const struct settle_view *v)
{
	machine_line(f, v);
	for (size_t i = 0; i < v->nclaims; i++)
		claim_section(f, &v->claims[i]);
	if (v->nclaims)
		noise(f, v);
}

/* ---- compare ----------------------------------------------------------- */

/*
 * Per comparison, the name on a line of its own (wrapped, never cut),
 * then its figures on the next:
 *   popcount 4 KiB table8
 *     1.327 us -> 1.348 us  +0.98% [-3.01%, +4.41%]  5/5  unclear (...)
 */
static void compare_section(FILE *f, const struct settle_compare_section *s)
{
	fputc('\n', f);
	para(f, 0, 2, "%s -> %s", s->old_name, s->new_name);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct settle_compare_row *w = &s->rows[i];

		para(f, 2, 4, "%s", w->name);
		if (w->status == SETTLE_CMP_NO_TIME) {
			para(f, 4, 6, "change %s%s%s", w->why,
			     w->verdict[0] ? ": " : "", w->verdict);
			continue;
		}
		para(f, 4, 6, "%s -> %s  %s%s%s [%s, %s]  %zu/%zu  %s%s%s%s",
		     w->old_text, w->new_text, w->change_text, w->mark,
		     w->lmark ? w->lmark : "",
		     w->lo_text, w->hi_text, w->n_old, w->n_new, w->verdict,
		     w->why ? " (" : "", w->why ? w->why : "",
		     w->why ? ")" : "");
	}
	if (s->nrows == 0)
		para(f, 2, 4, "no claim/variant/params in common");
	for (size_t i = 0; i < s->nonly_old; i++)
		para(f, 2, 4, "only in old: %s", s->only_old[i]);
	for (size_t i = 0; i < s->nonly_new; i++)
		para(f, 2, 4, "only in new: %s", s->only_new[i]);
	if (s->has_geomean)
		para(f, 2, 4, "geometric mean: %s [%s, %s] (%s)",
		     s->gm_text, s->gm_lo_text, s->gm_hi_text, s->gm_method);
	if (s->nshares)
		para(f, 2, 4, "%s:", SETTLE_SHARE_CHANGES_HEAD);
	for (size_t i = 0; i < s->nshares; i++)
		para(f, 4, 6, "%s", s->shares[i].text);
}

static void compare(FILE *f, const struct settle_compare_view *cv)
{
	for (size_t i = 0; i < cv->ndifferences; i++)
		para(f, 0, 2, "warning: %s", cv->differences[i]);
	for (size_t k = 0; k < cv->nsections; k++)
		compare_section(f, &cv->sections[k]);
	fputc('\n', f);
	for (size_t i = 0; i < cv->nnotes; i++)
		note(f, &cv->notes[i]);
	for (size_t i = 0; i < cv->nwarnings; i++)
		para(f, 0, 2, "warning: %s", cv->warnings[i]);
	para(f, 0, 2, "%s", cv->summary);
}

const struct settle_format settle_format_text = {
	.name = "text",
	.report = report,
	.compare = compare,
};
