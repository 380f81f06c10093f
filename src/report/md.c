/*
 * md.c - GitHub Markdown: the machine line, one table per claim with its
 * notes, the scale section as a second table, and the noise. Everything
 * taken from names is escaped, so a '|' in a variant cannot split a cell.
 */
#include <stdio.h>
#include <string.h>

#include "report/report.h"

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

static void machine_line(FILE *f, const struct settle_report *rep)
{
	const struct settle_machine *m = &rep->machine;
	const struct settle_timer_info *t = &rep->timer;
	char sz[32], rel[64];

	fputs("**machine:** ", f);
	esc(f, m->model_name[0] ? m->model_name : "unknown CPU");
	if (m->vendor[0]) {
		fputs(" (", f);
		esc(f, m->vendor);
		fprintf(f, " family %u model %u stepping %u)", m->family,
			m->model, m->stepping);
	}
	fprintf(f, ", %ld logical CPUs", m->logical_cpus);
	if (m->hypervisor) {
		fputs(", hypervisor ", f);
		esc(f, m->hypervisor_vendor[0] ? m->hypervisor_vendor : "present");
	}
	fputs("; caches", f);
	if (m->ncaches == 0)
		fputs(" unknown", f);
	for (size_t i = 0; i < m->ncaches; i++) {
		const struct settle_cache *c = &m->caches[i];

		fprintf(f, "%s L%d%s %s", i ? "," : "", c->level,
			!strcmp(c->type, "Data") ? "d" :
			!strcmp(c->type, "Instruction") ? "i" : "",
			settle_format_size(c->size_bytes, sz, sizeof(sz)));
	}
	sscanf(m->kernel, "%63s", rel);
	fputs("; kernel ", f);
	esc(f, m->kernel[0] ? rel : "unknown");
	if (t->clock != SETTLE_CLOCK_MONOTONIC) {
		fputs("; clock ", f);
		esc(f, settle_clock_label(t->clock));
		fprintf(f, " %.3f GHz", t->tsc_ghz);
	}
	else
		fputs("; clock CLOCK\\_MONOTONIC\\_RAW", f);
	if (t->core_ghz > 0)
		fprintf(f, ", core ~%.2f GHz", t->core_ghz);
	fputs("; build ", f);
	esc(f, rep->compiler);
	fputc(' ', f);
	esc(f, rep->build_flags);
	fprintf(f, "; %u samples per variant, each >= %.1f ms, pinned to CPU "
		"%d%s", rep->options.samples, rep->options.min_sample_ns / 1e6,
		rep->cpu, rep->options.quick ? " (--quick)" : "");
	if (rep->options.processes > 1)
		fprintf(f, ", %u fresh processes", rep->options.processes);
	fputs("\n\n<details><summary>ISA, primitives, mitigations</summary>"
	      "\n\n", f);
	fputs("ISA: ", f);
	esc(f, m->isa[0] ? m->isa : "unknown");
	fputs("  \nprimitives: popcount ", f);
	esc(f, m->popcount_impl[0] ? m->popcount_impl : "unknown");
	fputs(", bswap ", f);
	esc(f, m->bswap_impl[0] ? m->bswap_impl : "unknown");
	fputs("  \nmitigations: ", f);
	esc(f, m->mitigations[0] ? m->mitigations : "unknown");
	fputs("\n\n</details>\n", f);
}

static void verdict_cells(FILE *f, const struct settle_result *r)
{
	const struct settle_comparison *c = &r->cmp;

	if (!r->has_cmp) {
		fprintf(f, " %s |  | %s |", r->ratio > 0 ? "1.000x" : "-",
			r->ratio > 0 ? "baseline" : "");
		return;
	}
	if (c->ratio > 0)
		fprintf(f, " %.3fx | %.3f – %.3f |", c->ratio, c->lo, c->hi);
	else
		fputs(" - | - |", f);
	fprintf(f, " %s", settle_verdict_name(c->verdict));
	if (c->why)
		fprintf(f, " (%s)", c->why);
	fputs(" |", f);
}

static void row(FILE *f, const struct settle_result *r, int bytes)
{
	const struct settle_claim *c = r->claim;
	char sz[32], med[32], min[32], lb[256];
	int ncells = 5 + !!bytes + !!c->show_cycles; /* blank before verdict */

	fputc('|', f);
	if (c->default_sizes)
		fprintf(f, " %s |", settle_format_size(r->size_bytes, sz,
							sizeof(sz)));
	fputc(' ', f);
	esc(f, settle_variant_label(r->variant, lb, sizeof(lb)));
	if (r->variant->flags & SETTLE_REFERENCE)
		fputs(" (reference)", f);
	fputs(" |", f);
	if (r->skipped || r->below_resolution) {
		for (int i = 0; i < ncells; i++)
			fputs(" |", f);
		fputs(" ", f);
		if (r->skipped) {
			fputs("skipped: ", f);
			esc(f, r->skipped);
		} else {
			fputs("below resolution", f);
		}
		fputs(" |\n", f);
		return;
	}
	fprintf(f, " %s | %s | %.1f%%%s |",
		settle_format_ns(r->sum.median, med, sizeof(med)),
		settle_format_ns(r->sum.min, min, sizeof(min)),
		100 * settle_safe_div(r->sum.mad, r->sum.median),
		r->unstable ? " (!)" : "");
	if (bytes)
		fprintf(f, " %.2f |", r->bytes_per_ns);
	if (c->show_cycles)
		fprintf(f, " %.2f |", r->cycles_per_op);
	verdict_cells(f, r);
	fputc('\n', f);
}

static void claim_table(FILE *f, const struct settle_report *rep,
			const struct settle_claim *c)
{
	int bytes = c->bytes_per_op == SETTLE_BYTES_SIZE;

	fputs("\n### ", f);
	esc(f, c->title ? c->title : c->name);
	fputs("\n\n|", f);
	if (c->default_sizes)
		fputs(" size |", f);
	fputs(" variant | per ", f);
	esc(f, c->op_name ? c->op_name : "op");
	fputs(" | best | ±MAD |", f);
	if (bytes)
		fputs(" B/ns |", f);
	if (c->show_cycles)
		fputs(" cycles |", f);
	fputs(" ratio | 95% interval | verdict |\n|", f);
	if (c->default_sizes)
		fputs("---:|", f);
	fputs(":---|---:|---:|---:|", f);
	if (bytes)
		fputs("---:|", f);
	if (c->show_cycles)
		fputs("---:|", f);
	fputs("---:|:---:|:---|\n", f);
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c)
			row(f, &rep->results[i], bytes);
	fprintf(f, "\nMedian of %u samples; ratio = time / time of '",
		rep->options.samples);
	esc(f, c->baseline);
	fprintf(f, "'%s in the same rounds (below 1 is faster; ",
		settle_claim_grouped(rep, c) ?
		" of the same build and parameters" : "");
	if (rep->options.processes > 1)
		fprintf(f, "%u fresh processes, one Hodges-Lehmann estimate "
			"each, 95%% Student t interval over processes",
			rep->options.processes);
	else
		fputs("Hodges-Lehmann estimate, 95% signed-rank interval", f);
	fprintf(f, "; band ±%g%%).", rep->options.band * 100);
	if (c->show_cycles)
		fprintf(f, "  \nCycles: %s.", settle_cycles_note(rep, c));
	if (settle_claim_unstable(rep, c))
		fputs("  \n(!) unstable: spread (MAD) above 5% of the median, "
		      "or the best sample more than 20% below it; do not "
		      "trust that row.", f);
	if (c->original) {
		fputs("  \nOriginal: ", f);
		esc(f, c->original);
	}
	fputc('\n', f);
}

static void scale_section(FILE *f, const struct settle_report *rep,
			  const struct settle_claim *c)
{
	struct settle_figure fig[SETTLE_MAX_FIGURES];
	char notes[4][48], lb[256];
	size_t nnotes = 0, n, ncols = 0;

	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];

		if (r->claim != c || !(n = settle_scale_of(rep, r, fig,
							   SETTLE_MAX_FIGURES)))
			continue;
		if (!ncols) {
			fputs("\n**In the claim's terms**\n\n| variant |", f);
			for (size_t k = 0; k < n; k++) {
				fputc(' ', f);
				esc(f, fig[k].label);
				fputs(" |", f);
			}
			fputs("\n|:---|", f);
			for (size_t k = 0; k < n; k++)
				fputs("---:|", f);
			fputc('\n', f);
			ncols = n;
		}
		fputs("| ", f);
		esc(f, settle_variant_label(r->variant, lb, sizeof(lb)));
		if (c->default_sizes && r->size_bytes) {
			char sz[32];

			fprintf(f, " (%s)", settle_format_size(r->size_bytes,
							       sz, sizeof(sz)));
		}
		fputs(" |", f);
		for (size_t k = 0; k < ncols; k++) {
			size_t j;

			if (k >= n) {
				fputs(" |", f);
				continue;
			}
			for (j = 0; j < nnotes && strcmp(notes[j], fig[k].note); j++)
				;
			if (fig[k].note[0] && j == nnotes && nnotes < 4)
				snprintf(notes[nnotes++], 48, "%s", fig[k].note);
			fprintf(f, fig[k].value >= 1000 ? " %.0f " : " %.4g ",
				fig[k].value);
			esc(f, fig[k].unit);
			for (size_t m = 0; fig[k].note[0] && m <= j; m++)
				fputs("\\*", f);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	for (size_t j = 0; j < nnotes; j++) {
		fputs(j ? "  \n" : "\n", f);
		for (size_t m = 0; m <= j; m++)
			fputs("\\*", f);
		fputc(' ', f);
		esc(f, notes[j]);
	}
	if (nnotes)
		fputc('\n', f);
}

static void noise_section(FILE *f, const struct settle_report *rep)
{
	const struct settle_noise *n = &rep->noise;

	fprintf(f, "\n**noise:** load %.2f at the start, %.1f%% steal, "
		"%ld+%ld context switches, %ld migrations, frequency scaling ",
		n->loadavg, n->steal_pct, n->nvcsw, n->nivcsw, n->migrations);
	esc(f, n->governor[0] ? n->governor : "unknown");
	fprintf(f, ", %s, core clock %.2f -> %.2f GHz (%+.1f%%)\n",
		rep->machine.hypervisor ? "under a hypervisor" : "bare metal",
		n->core_ghz_before, n->core_ghz_after, n->drift_pct);
	if (n->drift_pct > 1 || n->drift_pct < -1)
		fprintf(f, "\n**warning:** the core clock drifted by %+.1f%% "
			"during the run\n", n->drift_pct);
	if (n->steal_pct > 1)
		fprintf(f, "\n**warning:** the hypervisor stole %.1f%% of the "
			"CPU time\n", n->steal_pct);
	if (n->loadavg > 0.5)
		fprintf(f, "\n**warning:** other load on the machine (load "
			"average %.2f)\n", n->loadavg);
	if (n->migrations)
		fprintf(f, "\n**warning:** %ld samples ran on another CPU\n",
			n->migrations);
}

void settle_print_md(FILE *f, const struct settle_report *rep)
{
	const struct settle_claim *claims[64];
	size_t n = settle_report_claims(rep, claims, 64);
	struct settle_c_locale loc;

	settle_c_locale_begin(&loc);
	machine_line(f, rep);
	for (size_t i = 0; i < n; i++) {
		claim_table(f, rep, claims[i]);
		scale_section(f, rep, claims[i]);
	}
	if (n)
		noise_section(f, rep);
	settle_c_locale_end(&loc);
}
