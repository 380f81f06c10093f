/*
 * view.c - a report's view (see view.h): the machine's facts, the rows,
 * notes and scale section of each claim, the noise.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/rules.h"
#include "util/util.h"
#include "view/view.h"

/* ---- the machine ------------------------------------------------------- */

__attribute__((format(printf, 3, 4)))
static struct settle_view_item *item(struct settle_view *v, const char *key,
				     const char *fmt, ...)
{
	struct settle_view_item *it = &v->items[v->nitems++];
	va_list ap;

	memset(it, 0, sizeof(*it));
	it->key = key;
	va_start(ap, fmt);
	vsnprintf(it->text, sizeof(it->text), fmt, ap);
	va_end(ap);
	return it;
}

__attribute__((format(printf, 2, 3)))
static void brief(struct settle_view_item *it, const char *fmt, ...)
{
	va_list ap;

	it->in_brief = 1;
	va_start(ap, fmt);
	vsnprintf(it->brief, sizeof(it->brief), fmt, ap);
	va_end(ap);
}

static void caches(const struct settle_machine *m, char *buf, size_t len)
{
	size_t used = 0;
	char sz[32];

	snprintf(buf, len, "unknown");
	for (size_t i = 0; i < m->ncaches && used < len; i++) {
		const struct settle_cache *c = &m->caches[i];
		int k = snprintf(buf + used, len - used, "%sL%d%s %s",
				 i ? ", " : "", c->level,
				 !strcmp(c->type, "Data") ? "d" :
				 !strcmp(c->type, "Instruction") ? "i" : "",
				 settle_format_size(c->size_bytes, sz, sizeof(sz)));

		if (k > 0)
			used += (size_t)k;
	}
}

static void machine_items(const struct settle_report *rep,
			  struct settle_view *v)
{
	const struct settle_machine *m = &rep->machine;
	const struct settle_timer_info *t = &rep->timer;
	const struct settle_options *o = &rep->options;
	struct settle_view_item *it;
	char cpu[200], buf[256], rel[64] = "unknown";

	if (m->vendor[0])
		snprintf(cpu, sizeof(cpu), "%s (%s family %u model %u "
			 "stepping %u)", m->model_name[0] ? m->model_name :
			 "unknown CPU", m->vendor, m->family, m->model,
			 m->stepping);
	else
		snprintf(cpu, sizeof(cpu), "%s", m->model_name[0] ?
			 m->model_name : "unknown CPU");
	it = item(v, "machine", "%s, %ld logical CPUs%s%s", cpu,
		  m->logical_cpus, m->hypervisor ? ", hypervisor " : "",
		  m->hypervisor ? (m->hypervisor_vendor[0] ?
				   m->hypervisor_vendor : "present") : "");
	brief(it, "%s", it->text);
	item(v, "ISA", "%s", m->isa[0] ? m->isa : "unknown");
	caches(m, buf, sizeof(buf));
	it = item(v, "caches", "%s", buf);
	brief(it, "caches %s", buf);
	sscanf(m->kernel, "%63s", rel);
	it = item(v, "kernel", "%s; seccomp %s", m->kernel[0] ? m->kernel :
		  "unknown", m->seccomp[0] ? m->seccomp : "unknown");
	brief(it, "kernel %s", rel);
	item(v, "primitives", "popcount %s, bswap %s",
	     m->popcount_impl[0] ? m->popcount_impl : "unknown",
	     m->bswap_impl[0] ? m->bswap_impl : "unknown");
	if (t->clock == SETTLE_CLOCK_TSC) {
		it = item(v, "clock", "TSC at %.3f GHz (%s), read cost %.1f ns, "
			  "resolution %.1f ns", t->tsc_ghz, t->why,
			  t->overhead_ns, t->resolution_ns);
		brief(it, "clock TSC %.3f GHz", t->tsc_ghz);
	} else {
		it = item(v, "clock", "clock_gettime(CLOCK_MONOTONIC_RAW) (%s), "
			  "read cost %.1f ns, resolution %.1f ns",
			  t->why ? t->why : "unknown", t->overhead_ns,
			  t->resolution_ns);
		brief(it, "clock CLOCK_MONOTONIC_RAW");
	}
	if (t->core_ghz > 0) {
		it = item(v, "core clock", "~%.2f GHz (estimated from a "
			  "dependent add chain, 1 cycle per add)", t->core_ghz);
		brief(it, "core ~%.2f GHz", t->core_ghz);
	}
	it = item(v, "build", "%s, %s", rep->compiler, rep->build_flags);
	brief(it, "build %s %s", rep->compiler, rep->build_flags);
	it = item(v, "mitigations", "%s", m->mitigations[0] ?
		  m->mitigations : "unknown");
	it->detail = 1;
	it = item(v, NULL, "pinned to CPU %d", rep->cpu);
	it->info_only = 1;
	if (o->processes > 1)
		snprintf(buf, sizeof(buf), " (%u fresh processes)", o->processes);
	else
		buf[0] = '\0';
	it = item(v, NULL, "pinned to CPU %d; %u samples per variant%s, each "
		  ">= %.1f ms%s", rep->cpu, o->samples, buf,
		  o->min_sample_ns / 1e6, o->quick ? " (--quick)" : "");
	brief(it, "%s", it->text);
	it->info_only = -1; /* a run's, not info's */
}

/* ---- rows ------------------------------------------------------------- */

static void cmp_cells(const struct settle_result *r, struct settle_view_row *w)
{
	const struct settle_comparison *c = &r->cmp;

	w->verdict = "";
	snprintf(w->ratio, sizeof(w->ratio), "-");
	if (r->is_baseline) {
		w->role = SETTLE_ROLE_BASELINE;
		snprintf(w->ratio, sizeof(w->ratio), "1.000x");
		w->verdict = "baseline";
		return;
	}
	if (!r->has_cmp)
		return;
	w->role = SETTLE_ROLE_COMPARED;
	if (c->ratio > 0) {
		snprintf(w->ratio, sizeof(w->ratio), "%.3fx", c->ratio);
		snprintf(w->lo, sizeof(w->lo), "%.3f", c->lo);
		snprintf(w->hi, sizeof(w->hi), "%.3f", c->hi);
	}
	w->verdict = settle_verdict_name(c->verdict);
	w->why = c->why;
}

static void row(const struct settle_result *r, struct settle_view_row *w)
{
	const struct settle_claim_info *c = r->claim;

	memset(w, 0, sizeof(*w));
	w->r = r;
	w->label = r->label;
	w->reference = r->reference;
	w->mark = "";
	w->verdict = "";
	if (c->sized)
		settle_format_size(r->size_bytes, w->size, sizeof(w->size));
	if (r->skipped) {
		w->status = SETTLE_ROW_SKIPPED;
		w->status_text = r->skipped;
		return;
	}
	if (r->below_resolution) {
		w->status = SETTLE_ROW_BELOW_RES;
		w->status_text = "a sample lasted under 1000x the clock's "
				 "resolution";
		return;
	}
	settle_format_ns(r->sum.median, w->median, sizeof(w->median));
	settle_format_ns(r->sum.min, w->best, sizeof(w->best));
	snprintf(w->mad, sizeof(w->mad), "%.1f%%",
		 100 * settle_safe_div(r->sum.mad, r->sum.median));
	w->mark = r->unstable ? "!" : "";
	if (c->bytes_per_op == SETTLE_BYTES_SIZE)
		snprintf(w->bytes, sizeof(w->bytes), "%.2f", r->bytes_per_ns);
	if (c->show_cycles)
		snprintf(w->cycles, sizeof(w->cycles), "%.2f", r->cycles_per_op);
	cmp_cells(r, w);
}

/* ---- notes ------------------------------------------------------------ */

__attribute__((format(printf, 3, 4)))
static void note(struct settle_view_claim *vc, const char *mark,
		 const char *fmt, ...)
{
	struct settle_view_note *n;
	va_list ap;

	if (vc->nnotes == SETTLE_VIEW_MAX_NOTES)
		return;
	n = &vc->notes[vc->nnotes++];
	n->mark = mark;
	va_start(ap, fmt);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	va_end(ap);
}

/* Runs of blanks and line ends in s made one space (a claim's text is
 * laid out by the formats, not by its author). */
static void squeeze(char *s)
{
	char *o = s;

	for (const char *p = s; *p; p++) {
		int blank = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';

		if (blank && (o == s || o[-1] == ' '))
			continue;
		*o++ = blank ? ' ' : *p;
	}
	while (o > s && o[-1] == ' ')
		o--;
	*o = '\0';
}

static const char *cycles_source(const struct settle_view_claim *vc)
{
	for (size_t i = 0; i < vc->nrows; i++) {
		const char *s = vc->rows[i].r->cycles_source;

		if (s && !strcmp(s, "perf_event_open"))
			return "counted with perf_event_open (mean per "
			       "operation)";
	}
	return "median x core clock estimated from an add chain (no "
	       "hardware counters)";
}

static void notes(const struct settle_report *rep, struct settle_view_claim *vc)
{
	const struct settle_options *o = &rep->options;
	const struct settle_claim_info *c = vc->claim;
	int grouped = 0, based = 0, unstable = 0;

	for (size_t i = 0; i < vc->nrows; i++) {
		const struct settle_view_row *w = &vc->rows[i];

		grouped |= w->r->build || w->r->nparams;
		based |= w->role != SETTLE_ROLE_NONE;
		unstable |= w->mark[0] != '\0';
	}
	if (based && o->processes > 1)
		note(vc, "", "median time per %s of %u samples; ratio = time / "
		     "time of '%s'%s in the same rounds (below 1 is faster; %u "
		     "fresh processes, one Hodges-Lehmann estimate each, 95%% "
		     "Student t interval over processes; band +-%g%%)",
		     c->op_name, o->samples, c->baseline, grouped ?
		     " of the same build and parameters" : "", o->processes,
		     o->band * 100);
	else if (based)
		note(vc, "", "median time per %s of %u samples; ratio = time / "
		     "time of '%s'%s in the same rounds (below 1 is faster; "
		     "Hodges-Lehmann estimate, 95%% signed-rank interval; band "
		     "+-%g%%)", c->op_name, o->samples, c->baseline, grouped ?
		     " of the same build and parameters" : "", o->band * 100);
	else
		note(vc, "", "median time per %s of %u samples; no baseline, "
		     "so no ratios", c->op_name, o->samples);
	if (c->show_cycles)
		note(vc, "", "cycles: %s", cycles_source(vc));
	if (unstable)
		note(vc, "!", "unstable: spread (MAD) above %g%% of the median, "
		     "or the best sample more than %g%% below it; do not "
		     "trust that row", SETTLE_UNSTABLE_MAD * 100,
		     SETTLE_UNSTABLE_BEST * 100);
	if (c->original) {
		note(vc, "", "original: %s", c->original);
		squeeze(vc->notes[vc->nnotes - 1].text);
	}
}

/* ---- the claim's own terms ---------------------------------------------- */

static const char *const stars[] = { "*", "**", "***", "****" };

/* The mark of footnote text, numbered in order of first use ("" for none). */
static const char *scale_mark(struct settle_view_claim *vc, const char *text)
{
	size_t j;

	if (!text[0])
		return "";
	for (j = 0; j < vc->nscale_notes; j++)
		if (!strcmp(vc->scale_notes[j].text, text))
			return stars[j];
	if (j == 4)
		return "";
	vc->scale_notes[j].mark = stars[j];
	snprintf(vc->scale_notes[j].text, sizeof(vc->scale_notes[j].text),
		 "%s", text);
	vc->nscale_notes++;
	return stars[j];
}

static int scale(struct settle_view_claim *vc)
{
	vc->scale = calloc(vc->nrows + 1, sizeof(*vc->scale));
	if (!vc->scale)
		return -1;
	for (size_t i = 0; i < vc->nrows; i++) {
		const struct settle_result *r = vc->rows[i].r;
		struct settle_view_scale_row *s = &vc->scale[vc->nscale];

		if (r->nfigures == 0)
			continue;
		if (vc->ncols == 0) {
			vc->ncols = r->nfigures;
			for (size_t k = 0; k < r->nfigures; k++)
				vc->cols[k] = r->figures[k].label;
		}
		s->label = r->label;
		snprintf(s->size, sizeof(s->size), "%s", vc->rows[i].size);
		s->n = r->nfigures < vc->ncols ? r->nfigures : vc->ncols;
		for (size_t k = 0; k < s->n; k++) {
			const struct settle_figure *f = &r->figures[k];

			snprintf(s->cell[k].value, sizeof(s->cell[k].value),
				 f->value >= 1000 ? "%.0f %s" : "%.4g %s",
				 f->value, f->unit);
			s->cell[k].mark = scale_mark(vc, f->note);
		}
		vc->nscale++;
	}
	return 0;
}

/* ---- claims ----------------------------------------------------------- */

static int claim(const struct settle_report *rep,
		 const struct settle_claim_info *c, struct settle_view_claim *vc)
{
	size_t n = 0;

	memset(vc, 0, sizeof(*vc));
	vc->claim = c;
	vc->title = c->title;
	vc->op_name = c->op_name;
	vc->sized = c->sized;
	vc->show_bytes = c->bytes_per_op == SETTLE_BYTES_SIZE;
	vc->show_cycles = c->show_cycles;
	for (size_t i = 0; i < rep->nresults; i++)
		n += rep->results[i].claim == c;
	vc->rows = calloc(n + 1, sizeof(*vc->rows));
	if (!vc->rows)
		return -1;
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c)
			row(&rep->results[i], &vc->rows[vc->nrows++]);
	notes(rep, vc);
	return scale(vc);
}

/* ---- noise ------------------------------------------------------------ */

__attribute__((format(printf, 2, 3)))
static void warn(struct settle_view *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nwarnings == SETTLE_VIEW_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(v->warnings[v->nwarnings++], sizeof(v->warnings[0]), fmt, ap);
	va_end(ap);
}

static void noise(const struct settle_report *rep, struct settle_view *v)
{
	const struct settle_noise *n = &rep->noise;
	int unknown = !n->governor[0] || !strcmp(n->governor, "unknown");

	snprintf(v->noise, sizeof(v->noise), "load %.2f at the start, %.1f%% "
		 "steal, %ld+%ld (voluntary+involuntary) context switches, "
		 "%ld migrations, frequency scaling %s%s, %s, core clock %.2f "
		 "-> %.2f GHz (%+.1f%%)", n->loadavg, n->steal_pct, n->nvcsw,
		 n->nivcsw, n->migrations, unknown ? "unknown" : n->governor,
		 unknown ? " (no cpufreq in sysfs)" : "",
		 rep->machine.hypervisor ? "under a hypervisor" : "bare metal",
		 n->core_ghz_before, n->core_ghz_after, n->drift_pct);
	if (settle_noise_drifted(n->drift_pct))
		warn(v, "the core clock drifted by %+.1f%% during the run",
		     n->drift_pct);
	if (settle_noise_stolen(n->steal_pct))
		warn(v, "the hypervisor stole %.1f%% of the CPU time",
		     n->steal_pct);
	if (settle_noise_loaded(n->loadavg))
		warn(v, "other load on the machine (load average %.2f)",
		     n->loadavg);
	if (n->migrations)
		warn(v, "%ld samples ran on another CPU", n->migrations);
}

int settle_view_build(const struct settle_report *rep, struct settle_view *v)
{
	memset(v, 0, sizeof(*v));
	v->rep = rep;
	machine_items(rep, v);
	v->claims = calloc(rep->nresults + 1, sizeof(*v->claims));
	if (!v->claims)
		return -1;
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_claim_info *c = rep->results[i].claim;
		size_t k;

		for (k = 0; k < v->nclaims && v->claims[k].claim != c; k++)
			;
		if (k < v->nclaims)
			continue;
		if (claim(rep, c, &v->claims[v->nclaims++]) < 0) {
			settle_view_free(v);
			return -1;
		}
	}
	noise(rep, v);
	return 0;
}

void settle_view_free(struct settle_view *v)
{
	for (size_t i = 0; v->claims && i < v->nclaims; i++) {
		free(v->claims[i].rows);
		free(v->claims[i].scale);
	}
	free(v->claims);
	v->claims = NULL;
	v->nclaims = 0;
}
