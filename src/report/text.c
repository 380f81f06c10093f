/*
 * text.c - plain text for a mailing-list post: no line longer than 72
 * columns. The machine line comes first; per claim a compact table whose
 * optional columns (B/ns, cycles) are dropped before the variant column
 * gets too narrow, a label that is still too long on a line of its own,
 * and every note wrapped at spaces. Widths are counted in display
 * columns of UTF-8 text (a wide character counts two); tabs and line
 * ends become spaces, other control characters and invalid UTF-8 '?'.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define WIDTH 72
/* In composed text: a space that wrapping never breaks ("32 MiB"). */
#define NBSP '\x1f'
#define NBSP_S "\x1f"
/* A variant column narrower than this loses the optional columns first. */
#define MIN_LABEL 16

/* Display columns of code point c (0 for combining marks, 2 for wide). */
static int cp_width(unsigned long c)
{
	if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) ||
	    (c >= 0xfe00 && c <= 0xfe0f))
		return 0;
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) ||
	    (c >= 0x20000 && c <= 0x3fffd))
		return 2;
	return 1;
}

/* Display width of clean text [s, e) (see clean()); e NULL: to the end. */
static int width_n(const char *s, const char *e)
{
	const unsigned char *p = (const unsigned char *)s;
	int w = 0;

	/* a sequence never spans a space or the end, so p stops at e */
	while (*p && (!e || p < (const unsigned char *)e)) {
		size_t len;

		w += cp_width(settle_utf8_next(p, &len));
		p += len;
	}
	return w;
}

static int width(const char *s)
{
	return width_n(s, NULL);
}

/*
 * Copy s to a new string with tabs and line ends as spaces, other control
 * characters (C0, DEL, C1) and invalid UTF-8 as '?'. Returns NULL when
 * out of memory.
 */
static char *clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char *out = malloc(strlen((const char *)p) + 1), *o = out;

	if (!out)
		return NULL;
	while (*p) {
		size_t len;
		unsigned long c = settle_utf8_next(p, &len);

		if (c == (unsigned char)NBSP) {
			*o++ = NBSP;
		} else if (c == '\n' || c == '\t' || c == '\r') {
			*o++ = ' ';
		} else if (c < 0x20 || (c >= 0x7f && c < 0xa0) ||
			   (c == 0xfffd && len == 1)) {
			*o++ = '?';
		} else {
			memcpy(o, p, len);
			o += len;
		}
		p += len;
	}
	*o = '\0';
	return out;
}

/* s with its spaces made unbreakable; returns s. */
static char *nb(char *s)
{
	for (char *p = s; *p; p++)
		if (*p == ' ')
			*p = NBSP;
	return s;
}

static void spaces(FILE *f, int n)
{
	while (n-- > 0)
		fputc(' ', f);
}

/*
 * Print clean text s wrapped at WIDTH: the first line starts at column
 * col (the caller printed that much), the next ones indented by indent.
 * Breaks at spaces; a word longer than a line is cut between characters.
 * Ends the last line.
 */
static void wrap_at(FILE *f, const char *s, int col, int indent)
{
	int start = col;

	while (*s) {
		const char *e;
		int w;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		for (e = s; *e && *e != ' '; e++)
			;
		w = width_n(s, e);
		if (col > start && col + 1 + w > WIDTH) {
			fputc('\n', f);
			spaces(f, indent);
			col = start = indent;
		} else if (col > start) {
			fputc(' ', f);
			col++;
		}
		/* a word wider than the line is cut between characters */
		while (s < e) {
			size_t len;
			int cw = cp_width(settle_utf8_next((const unsigned char *)s,
							   &len));

			if (col + cw > WIDTH && col > indent) {
				fputc('\n', f);
				spaces(f, indent);
				col = start = indent;
			}
			fputc(*s == NBSP ? ' ' : *s, f);
			fwrite(s + 1, 1, len - 1, f);
			col += cw;
			s += len;
		}
	}
	fputc('\n', f);
}

/* A paragraph: printf-formatted, cleaned, indented and wrapped. */
__attribute__((format(printf, 4, 5)))
static void para(FILE *f, int indent0, int indent, const char *fmt, ...)
{
	char *raw = NULL, *txt;
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vasprintf(&raw, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	txt = clean(raw);
	free(raw);
	if (!txt)
		return;
	spaces(f, indent0);
	wrap_at(f, txt, indent0, indent);
	free(txt);
}

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
	l->col += width(s);
}

static void put_pad(struct line *l, int n)
{
	while (n-- > 0)
		put(l, " ");
}

/* s right-aligned in w columns (left-aligned when right is 0). */
static void put_cell(struct line *l, const char *s, int w, int right)
{
	int pad = w - width(s);

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

static void machine_line(FILE *f, const struct settle_report *rep)
{
	const struct settle_machine *m = &rep->machine;
	const struct settle_timer_info *t = &rep->timer;
	char caches[256] = "", clock[96], rel[64] = "unknown", sz[32];
	char cpu[160];
	size_t used = 0;

	for (size_t i = 0; i < m->ncaches && used < sizeof(caches); i++) {
		const struct settle_cache *c = &m->caches[i];
		int k = snprintf(caches + used, sizeof(caches) - used,
				 "%s L%d%s" NBSP_S "%s", i ? "," : "", c->level,
				 !strcmp(c->type, "Data") ? "d" :
				 !strcmp(c->type, "Instruction") ? "i" : "",
				 nb(settle_format_size(c->size_bytes, sz,
						       sizeof(sz))));

		if (k > 0)
			used += (size_t)k;
	}
	sscanf(m->kernel, "%63s", rel);
	if (t->clock != SETTLE_CLOCK_MONOTONIC)
		snprintf(clock, sizeof(clock), "%s %.3f" NBSP_S "GHz",
			 settle_clock_label(t->clock), t->tsc_ghz);
	else
		snprintf(clock, sizeof(clock), "CLOCK_MONOTONIC_RAW");
	if (t->core_ghz > 0)
		snprintf(clock + strlen(clock), sizeof(clock) - strlen(clock),
			 ", core ~%.2f" NBSP_S "GHz", t->core_ghz);
	if (m->vendor[0])
		snprintf(cpu, sizeof(cpu), "%s (%s family %u model %u)",
			 m->model_name[0] ? m->model_name : "unknown CPU",
			 m->vendor, m->family, m->model);
	else
		snprintf(cpu, sizeof(cpu), "%s",
			 m->model_name[0] ? m->model_name : "unknown CPU");
	para(f, 0, 2, "machine: %s, %ld logical "
	     "CPUs%s%s; caches%s; kernel %s; %s; %s %s; %u samples of >= "
	     "%.1f" NBSP_S "ms per variant on CPU %d%s%s", cpu, m->logical_cpus,
	     m->hypervisor ? ", hypervisor " : "",
	     m->hypervisor ? (m->hypervisor_vendor[0] ?
			      m->hypervisor_vendor : "present") : "",
	     caches[0] ? caches : " unknown", rel, clock, rep->compiler,
	     rep->build_flags, rep->options.samples,
	     rep->options.min_sample_ns / 1e6, rep->cpu,
	     rep->options.quick ? " (--quick)" : "",
	     rep->options.processes > 1 ? ", fresh processes pooled" : "");
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

static int label_w(const struct settle_result *r)
{
	char lb[256], *c;
	int w;

	c = clean(settle_variant_label(r->variant, lb, sizeof(lb)));
	w = c ? width(c) : 0;
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
 * Columns for claim c: the variant column gets at least MIN_LABEL columns
 * (or the longest label, if shorter) by dropping the cycles, then the
 * throughput; then the longest label if single spacing makes room for it.
 * Labels longer than the column get a line of their own.
 */
static void plan(const struct settle_report *rep, const struct settle_claim *c,
		 struct layout *lay)
{
	int longest = 7, want;

	memset(lay, 0, sizeof(*lay));
	lay->vw = 8;
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];
		int w;

		if (r->claim != c)
			continue;
		w = label_w(r);
		longest = w > longest ? w : longest;
		if (r->has_cmp && r->cmp.why)
			lay->vw = 11;
	}
	for (int k = 0; k < NCOLS; k++)
		lay->on[k] = 1;
	lay->on[C_BYTES] = c->bytes_per_op == SETTLE_BYTES_SIZE;
	lay->on[C_CYCLES] = c->show_cycles;
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
	if (why && l->col + 2 + width(v) + 3 + width(why) <= WIDTH) {
		snprintf(vt, sizeof(vt), "%s (%s)", v, why);
	} else if (why) {
		char mark[8];

		why_mark(lay, why, mark, sizeof(mark));
		snprintf(vt, sizeof(vt), "%s %s", v, mark);
	}
	w = width(vt);
	if (l->col + 2 + w > WIDTH) {
		flush(f, l);
		put_pad(l, lay->vcol + w <= WIDTH ? lay->vcol : WIDTH - w);
	} else {
		put(l, "  ");
	}
	put(l, vt);
	if (more[0] && l->col + 1 + width(more) <= WIDTH) {
		put(l, " ");
		put(l, more);
		more = "";
	}
	flush(f, l);
	if (!more[0])
		return;
	ind = lay->vcol + width(more) <= WIDTH ? lay->vcol : WIDTH - width(more);
	para(f, ind < 4 ? 4 : ind, 4, "%s", more);
}

static void row(FILE *f, const struct settle_result *r, struct layout *lay)
{
	const struct settle_comparison *c = &r->cmp;
	char lb[256], cell[NCOLS][48], *label;
	struct line l = { .len = 0 };

	label = clean(settle_variant_label(r->variant, lb, sizeof(lb)));
	if (!label)
		return;
	if (r->skipped || r->below_resolution) {
		para(f, 2, 6, "%s  %s%s%s", label,
		     r->skipped ? "skipped: " : "below resolution: a sample "
		     "lasted under 1000x the clock's resolution",
		     r->skipped ? r->skipped : "",
		     r->variant->flags & SETTLE_REFERENCE ? " (reference)" : "");
		free(label);
		return;
	}
	if (width(label) > lay->lw) {
		/* a line of its own, wrapped too if need be */
		spaces(f, 2);
		wrap_at(f, label, 2, 4);
		put_pad(&l, 2 + lay->lw);
	} else {
		put(&l, "  ");
		put_cell(&l, label, lay->lw, 0);
	}
	free(label);
	settle_format_ns(r->sum.median, cell[C_MEDIAN], sizeof(cell[0]));
	snprintf(cell[C_MAD], sizeof(cell[0]), "%.1f%%%s",
		 100 * settle_safe_div(r->sum.mad, r->sum.median),
		 r->unstable ? "!" : " ");
	snprintf(cell[C_BYTES], sizeof(cell[0]), "%.2f", r->bytes_per_ns);
	snprintf(cell[C_CYCLES], sizeof(cell[0]), "%.2f", r->cycles_per_op);
	if (r->has_cmp && c->ratio > 0) {
		snprintf(cell[C_RATIO], sizeof(cell[0]), "%.3fx", c->ratio);
		snprintf(cell[C_CI], sizeof(cell[0]), "%.3f-%.3f", c->lo, c->hi);
	} else {
		snprintf(cell[C_RATIO], sizeof(cell[0]), "%s",
			 !r->has_cmp && r->ratio > 0 ? "1.000x" : "-");
		cell[C_CI][0] = '\0';
	}
	for (int k = 0; k < NCOLS; k++)
		if (lay->on[k]) {
			put_pad(&l, lay->sep);
			put_cell(&l, cell[k], col_spec[k].w, col_spec[k].right);
		}
	verdict(f, &l, lay, r->has_cmp ? settle_verdict_name(c->verdict) :
		r->ratio > 0 ? "baseline" : "-", r->has_cmp ? c->why : NULL,
		r->variant->flags & SETTLE_REFERENCE ? "(reference)" : "");
}

static void notes(FILE *f, const struct settle_report *rep,
		  const struct settle_claim *c, const struct layout *lay)
{
	char how[160];

	for (size_t i = 0; i < lay->nwhy; i++)
		para(f, 2, 6, "[%c] unclear: %s", (char)('a' + i), lay->why[i]);
	if (rep->options.processes > 1)
		snprintf(how, sizeof(how), "%u fresh processes, one "
			 "Hodges-Lehmann estimate each, 95%% Student t "
			 "interval over processes", rep->options.processes);
	else
		snprintf(how, sizeof(how), "Hodges-Lehmann estimate, 95%% "
			 "signed-rank interval");
	para(f, 2, 2, "median time per %s of %u samples; ratio = time / time "
	     "of '%s'%s in the same rounds (below 1 is faster; %s; band "
	     "+-%g%%)", c->op_name ? c->op_name : "op", rep->options.samples,
	     c->baseline, settle_claim_grouped(rep, c) ?
	     " of the same build and parameters" : "", how,
	     rep->options.band * 100);
	if (c->show_cycles)
		para(f, 2, 4, "cycles: %s", settle_cycles_note(rep, c));
	if (settle_claim_unstable(rep, c))
		para(f, 2, 4, "! unstable: spread (MAD) above 5%% of the "
		     "median, or the best sample more than 20%% below it; do "
		     "not trust that row");
	if (c->original)
		para(f, 2, 4, "original: %s", c->original);
}

/* One figure: "0.1584 %*", value and unit never split. */
static void figure(const struct settle_figure *fg, char *buf, size_t len)
{
	snprintf(buf, len, fg->value >= 1000 ? "%.0f" NBSP_S "%s%s" :
		 "%.4g" NBSP_S "%s%s", fg->value, fg->unit,
		 fg->note[0] ? "*" : "");
}

/*
 * The claim's own terms: a table when its columns fit in WIDTH, else one
 * wrapped line per variant ("label: title value unit; ...").
 */
static void scale_section(FILE *f, const struct settle_report *rep,
			  const struct settle_claim *c)
{
	struct settle_figure fig[SETTLE_MAX_FIGURES];
	char notes_[4][48], lb[256], val[64];
	int cw[SETTLE_MAX_FIGURES] = { 0 }, lw = 0, total;
	size_t nnotes = 0, n, ncols = 0;

	/* widths first: titles of the first result, values of all */
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];
		char *cl;

		if (r->claim != c || !(n = settle_scale_of(rep, r, fig,
							   SETTLE_MAX_FIGURES)))
			continue;
		if (!ncols) {
			ncols = n;
			for (size_t k = 0; k < n; k++) {
				cl = clean(fig[k].label);
				cw[k] = cl ? width(cl) : 0;
				free(cl);
			}
		}
		cl = clean(settle_variant_label(r->variant, lb, sizeof(lb)));
		lw = cl && width(cl) > lw ? width(cl) : lw;
		free(cl);
		for (size_t k = 0; k < n && k < ncols; k++) {
			figure(&fig[k], val, sizeof(val));
			cw[k] = width(val) > cw[k] ? width(val) : cw[k];
		}
	}
	if (!ncols)
		return;
	total = 4 + lw;
	for (size_t k = 0; k < ncols; k++)
		total += 2 + cw[k];
	fprintf(f, "  in the claim's terms:\n");
	if (total <= WIDTH) {
		struct line l = { .len = 0 };

		/* the titles of the first result with figures */
		for (size_t i = 0; i < rep->nresults; i++) {
			const struct settle_result *r = &rep->results[i];

			if (r->claim != c || !(n = settle_scale_of(rep, r, fig,
								   SETTLE_MAX_FIGURES)))
				continue;
			put_pad(&l, 4 + lw);
			for (size_t k = 0; k < ncols; k++) {
				char *cl = clean(k < n ? fig[k].label : "");

				put_pad(&l, 2);
				put_cell(&l, cl ? cl : "", cw[k], 1);
				free(cl);
			}
			break;
		}
		flush(f, &l);
	}
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];
		char figs[SETTLE_MAX_FIGURES * 112] = "";
		size_t used = 0;

		if (r->claim != c || !(n = settle_scale_of(rep, r, fig,
							   SETTLE_MAX_FIGURES)))
			continue;
		for (size_t k = 0; k < n; k++) {
			size_t j;

			for (j = 0; j < nnotes && strcmp(notes_[j], fig[k].note); j++)
				;
			if (fig[k].note[0] && j == nnotes && nnotes < 4)
				snprintf(notes_[nnotes++], 48, "%s", fig[k].note);
		}
		settle_variant_label(r->variant, lb, sizeof(lb));
		if (total <= WIDTH) {
			struct line l = { .len = 0 };
			char *cl = clean(lb);

			put(&l, "    ");
			put_cell(&l, cl ? cl : "", lw, 0);
			free(cl);
			for (size_t k = 0; k < ncols; k++) {
				figure(&fig[k], val, sizeof(val));
				for (char *p = val; *p; p++)
					*p = *p == NBSP ? ' ' : *p;
				put_pad(&l, 2);
				put_cell(&l, k < n ? val : "", cw[k], 1);
			}
			flush(f, &l);
			continue;
		}
		for (size_t k = 0; k < n && used < sizeof(figs); k++) {
			int w;

			figure(&fig[k], val, sizeof(val));
			w = snprintf(figs + used, sizeof(figs) - used,
				     "%s%s = %s", k ? "; " : "", fig[k].label,
				     val);
			if (w > 0)
				used += (size_t)w;
		}
		para(f, 4, 6, "%s: %s", lb, figs);
	}
	for (size_t j = 0; j < nnotes; j++)
		para(f, 2, 4, "* %s", notes_[j]);
}

static void claim_section(FILE *f, const struct settle_report *rep,
			  const struct settle_claim *c)
{
	struct layout lay;
	uint64_t size = 0;
	int first = 1;
	char sz[32];

	fputc('\n', f);
	para(f, 0, 2, "%s", c->title ? c->title : c->name);
	plan(rep, c, &lay);
	header(f, &lay);
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];

		if (r->claim != c)
			continue;
		if (c->default_sizes && (first || r->size_bytes != size))
			fprintf(f, "  size %s:\n", settle_format_size(r->size_bytes,
								      sz, sizeof(sz)));
		size = r->size_bytes;
		first = 0;
		row(f, r, &lay);
	}
	notes(f, rep, c, &lay);
	scale_section(f, rep, c);
}

static void noise_section(FILE *f, const struct settle_report *rep)
{
	const struct settle_noise *n = &rep->noise;

	fputc('\n', f);
	para(f, 0, 2, "noise: load %.2f at the start, %.1f%% steal, %ld+%ld "
	     "context switches, %ld migrations, frequency scaling %s, %s, core "
	     "clock %.2f -> %.2f" NBSP_S "GHz (%+.1f%%)", n->loadavg, n->steal_pct,
	     n->nvcsw, n->nivcsw, n->migrations,
	     n->governor[0] ? n->governor : "unknown",
	     rep->machine.hypervisor ? "under a hypervisor" : "bare metal",
	     n->core_ghz_before, n->core_ghz_after, n->drift_pct);
	if (n->drift_pct > 1 || n->drift_pct < -1)
		para(f, 2, 4, "warning: the core clock drifted by %+.1f%% during "
		     "the run", n->drift_pct);
	if (n->steal_pct > 1)
		para(f, 2, 4, "warning: the hypervisor stole %.1f%% of the CPU "
		     "time", n->steal_pct);
	if (n->loadavg > 0.5)
		para(f, 2, 4, "warning: other load on the machine (load average "
		     "%.2f)", n->loadavg);
	if (n->migrations)
		para(f, 2, 4, "warning: %ld samples ran on another CPU",
		     n->migrations);
}

void settle_print_text(FILE *f, const struct settle_report *rep)
{
	const struct settle_claim *claims[64];
	size_t n = settle_report_claims(rep, claims, 64);
	struct settle_c_locale loc;

	settle_c_locale_begin(&loc);
	machine_line(f, rep);
	for (size_t i = 0; i < n; i++)
		claim_section(f, rep, claims[i]);
	if (n)
		noise_section(f, rep);
	settle_c_locale_end(&loc);
}
