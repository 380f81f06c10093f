/*
 * md.c - GitHub Markdown: the machine on one line (the rest in a
 * <details> block), one table per claim with its notes, the scale section
 * as a second table, and the noise; for compare, one table per pair of
 * files. Everything taken from names is escaped, so a '|' in a variant
 * cannot split a cell.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"

/* s with Markdown punctuation escaped; control characters as spaces. */
static void esc(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fputc(' ', f);
		else if (strchr("\\`*_|<>[]~#", *p))
			fprintf(f, "\\%c", *p);
		else
			fputc(*p, f);
	}
}

/* A sentence: its first letter capitalised, escaped, ended with '.'. */
static void sentence(FILE *f, const char *s)
{
	size_t n = strlen(s);

	if (!n)
		return;
	fputc(toupper((unsigned char)s[0]), f);
	esc(f, s + 1);
	if (s[n - 1] != '.' && s[n - 1] != ')')
		fputc('.', f);
}

/* A footnote mark, escaped: "!" as "(!)", "*" as "\*". */
static void mark(FILE *f, const char *m)
{
	if (!strcmp(m, "!"))
		fputs("(!)", f);
	else if (!strcmp(m, "~"))
		fputs("(~)", f);
	else
		esc(f, m);
}

/* The notes under a table, one line each. */
static void notes(FILE *f, const struct settle_view_note *n, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		fputs(i ? "  \n" : "\n", f);
		if (n[i].mark[0]) {
			mark(f, n[i].mark);
			fputc(' ', f);
			esc(f, n[i].text);
			fputc('.', f);
		} else {
			sentence(f, n[i].text);
		}
	}
	if (k)
		fputc('\n', f);
}

static void machine(FILE *f, const struct settle_view *v)
{
	int first = 1, details = 0;

	fputs("**machine:** ", f);
	for (size_t i = 0; i < v->nitems; i++) {
		if (!v->items[i].in_brief)
			continue;
		fputs(first ? "" : "; ", f);
		esc(f, v->items[i].brief);
		first = 0;
	}
	fputs("\n\n<details><summary>more about the machine</summary>\n\n", f);
	for (size_t i = 0; i < v->nitems; i++) {
		const struct settle_view_item *it = &v->items[i];

		if (it->in_brief || it->info_only > 0 || !it->key)
			continue;
		fputs(details++ ? "  \n" : "", f);
		esc(f, it->key);
		fputs(": ", f);
		esc(f, it->text);
	}
	fputs("\n\n</details>\n", f);
}

static void row(FILE *f, const struct settle_view_claim *vc,
		const struct settle_view_row *w)
{
	int ncells = 5 + vc->show_bytes + vc->show_cycles;

	fputc('|', f);
	if (vc->sized)
		fprintf(f, " %s |", w->size);
	fputc(' ', f);
	esc(f, w->label);
	if (w->reference)
		fputs(" (reference)", f);
	fputs(" |", f);
	if (w->status != SETTLE_ROW_MEASURED) {
		for (int i = 0; i < ncells; i++)
			fputs(" |", f);
		fputs(w->status == SETTLE_ROW_SKIPPED ? " skipped: " :
		      w->status == SETTLE_ROW_INVALID ? " **invalid**: " :
		      " below resolution: ", f);
		esc(f, w->status_text);
		fputs(" |\n", f);
		return;
	}
	fprintf(f, " %s | %s | %s", w->median, w->best, w->mad);
	if (w->mark[0]) {
		fputc(' ', f);
		mark(f, w->mark);
	}
	if (w->lmark[0]) {
		fputc(' ', f);
		mark(f, w->lmark);
	}
	fputs(" |", f);
	if (vc->show_bytes)
		fprintf(f, " %s |", w->bytes);
	if (vc->show_cycles)
		fprintf(f, " %s |", w->cycles);
	fprintf(f, " %s |", w->ratio);
	if (w->lo[0])
		fprintf(f, " %s – %s |", w->lo, w->hi);
	else
		fputs(w->role == SETTLE_ROLE_COMPARED ? " - |" : "  |", f);
	fprintf(f, " %s", w->verdict);
	if (w->why)
		fprintf(f, " (%s)", w->why);
	fputs(" |\n", f);
}

static void claim_table(FILE *f, const struct settle_view_claim *vc)
{
	fputs("\n### ", f);
	esc(f, vc->title);
	fputs("\n\n|", f);
	if (vc->sized)
		fputs(" size |", f);
	fputs(" variant | per ", f);
	esc(f, vc->op_name);
	fputs(" | best | ±MAD |", f);
	if (vc->show_bytes)
		fputs(" B/ns |", f);
	if (vc->show_cycles)
		fputs(" cycles |", f);
	fputs(" ratio | 95% interval | verdict |\n|", f);
	if (vc->sized)
		fputs("---:|", f);
	fputs(":---|---:|---:|---:|", f);
	if (vc->show_bytes)
		fputs("---:|", f);
	if (vc->show_cycles)
		fputs("---:|", f);
	fputs("---:|:---:|:---|\n", f);
	for (size_t i = 0; i < vc->nrows; i++)
		row(f, vc, &vc->rows[i]);
	notes(f, vc->notes, vc->nnotes);
}

static void scale_section(FILE *f, const struct settle_view_claim *vc)
{
	if (!vc->nscale)
		return;
	fputs("\n**In the claim's terms**\n\n| variant |", f);
	for (size_t k = 0; k < vc->ncols; k++) {
		fputc(' ', f);
		esc(f, vc->cols[k]);
		fputs(" |", f);
	}
	fputs("\n|:---|", f);
	for (size_t k = 0; k < vc->ncols; k++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < vc->nscale; i++) {
		const struct settle_view_scale_row *s = &vc->scale[i];

		fputs("| ", f);
		esc(f, s->label);
		if (s->size[0])
			fprintf(f, " (%s)", s->size);
		fputs(" |", f);
		for (size_t k = 0; k < vc->ncols; k++) {
			fputc(' ', f);
			if (k < s->n) {
				esc(f, s->cell[k].value);
				esc(f, s->cell[k].mark);
			}
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	notes(f, vc->scale_notes, vc->nscale_notes);
}

static void noise(FILE *f, const struct settle_view *v)
{
	fputs("\n**noise:** ", f);
	esc(f, v->noise);
	fputc('\n', f);
	for (size_t i = 0; i < v->nwarnings; i++) {
		fputs("\n**warning:** ", f);
		esc(f, v->warnings[i]);
		fputc('\n', f);
	}
}

/* The lines under a claim's table (whole commands): level 0 a paragraph,
 * 1 a list item, 2 an item under it. */
static void lines(FILE *f, const struct settle_view_claim *vc)
{
	int in_list = 0;

	for (size_t i = 0; i < vc->nlines; i++) {
		const struct settle_view_line *l = &vc->lines[i];

		if (l->level == 0) {
			fputc('\n', f);
			esc(f, l->text);
			fputc('\n', f);
			in_list = 0;
			continue;
		}
		fputs(in_list ? "" : "\n", f);
		fputs(l->level == 1 ? "- " : "  - ", f);
		esc(f, l->text);
		fputc('\n', f);
		in_list = 1;
	}
}

static void report(FILE *f, const struct settle_view *v)
{
	machine(f, v);
	for (size_t i = 0; i < v->nclaims; i++) {
		const struct settle_view_claim *vc = &v->claims[i];

		claim_table(f, vc);
		scale_section(f, vc);
		lines(f, vc);
		if (vc->has_conclusion) {
			fputs(vc->settled ? "\n**settled:** " :
			      "\n**not settled:** ", f);
			esc(f, settle_conclusion_body(vc->conclusion, vc->settled));
			fputc('\n', f);
		}
	}
	if (v->nclaims)
		noise(f, v);
}

/* ---- compare ----------------------------------------------------------- */

/* sep: a blank line first (not at the very top of the output) */
static void compare_section(FILE *f, const struct settle_compare_section *s,
			    int sep)
{
	fputs(sep ? "\n### " : "### ", f);
	esc(f, s->old_name);
	fputs(" → ", f);
	esc(f, s->new_name);
	fputs("\n\n| claim / variant | old | new | change | 95% interval | "
	      "samples | verdict |\n|:---|---:|---:|---:|:---:|---:|:---|\n", f);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct settle_compare_row *w = &s->rows[i];

		fputs("| ", f);
		esc(f, w->name);
		if (w->status == SETTLE_CMP_NO_TIME) {
			fputs(" | | | | | | change ", f);
			esc(f, w->why);
			if (w->verdict[0]) {
				fputs(": ", f);
				esc(f, w->verdict);
			}
			fputs(" |\n", f);
			continue;
		}
		fprintf(f, " | %s | %s | %s", w->old_text, w->new_text,
			w->change_text);
		if (w->mark[0]) {
			fputc(' ', f);
			mark(f, w->mark);
		}
		if (w->lmark && w->lmark[0]) {
			fputc(' ', f);
			mark(f, w->lmark);
		}
		fprintf(f, " | %s – %s | %zu/%zu | %s", w->lo_text, w->hi_text,
			w->n_old, w->n_new, w->verdict);
		if (w->why)
			fprintf(f, " (%s)", w->why);
		fputs(" |\n", f);
	}
	if (s->has_geomean)
		fprintf(f, "| geometric mean | | | %s | %s – %s | | (%s) "
			"|\n", s->gm_text, s->gm_lo_text, s->gm_hi_text,
			s->gm_method);
	if (s->nrows == 0)
		fputs("\nNo claim/variant/params in common.\n", f);
	for (size_t i = 0; i < s->nonly_old; i++) {
		fputs(i ? "  \nOnly in old: " : "\nOnly in old: ", f);
		esc(f, s->only_old[i]);
	}
	if (s->nonly_old)
		fputc('\n', f);
	for (size_t i = 0; i < s->nonly_new; i++) {
		fputs(i ? "  \nOnly in new: " : "\nOnly in new: ", f);
		esc(f, s->only_new[i]);
	}
	if (s->nonly_new)
		fputc('\n', f);
	if (s->nshares)
		fprintf(f, "\n%s:\n\n", SETTLE_SHARE_CHANGES_HEAD);
	for (size_t i = 0; i < s->nshares; i++) {
		fputs("- ", f);
		esc(f, s->shares[i].text);
		fputc('\n', f);
	}
}

static void compare(FILE *f, const struct settle_compare_view *cv)
{
	for (size_t i = 0; i < cv->ndifferences; i++) {
		const char *d = cv->differences[i];

		fputs(i ? "\n**warning:** " : "**warning:** ", f);
		for (; *d; d++) {
			if (*d == '\n')
				fputs("  \n", f);
			else
				esc(f, (char[2]){ *d, 0 });
		}
		fputc('\n', f);
	}
	for (size_t k = 0; k < cv->nsections; k++)
		compare_section(f, &cv->sections[k],
				k > 0 || cv->ndifferences > 0);
	notes(f, cv->notes, cv->nnotes);
	for (size_t i = 0; i < cv->nwarnings; i++) {
		fputs("\n**warning:** ", f);
		esc(f, cv->warnings[i]);
		fputc('\n', f);
	}
	fputs(cv->settled ? "\n**settled:** " : "\n**not settled:** ", f);
	esc(f, settle_conclusion_body(cv->summary, cv->settled));
	fputc('\n', f);
}

const struct settle_format settle_format_md = {
	.name = "md",
	.report = report,
	.compare = compare,
};
