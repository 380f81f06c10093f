/*
 * view.c - a report's view (see view.h): the machine's facts, the rows,
 * notes and scale section of each claim, the noise.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/command.h"
#include "model/model.h"
#include "stats/rules.h"
#include "util/util.h"
#include "view/command.h"
#include "view/view.h"

/* ---- the machine ------------------------------------------------------- */

/* The plural ending for n things: "1 sample", "2 samples". */
static const char *plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

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
	settle_escape_in(it->text, sizeof(it->text));
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
	settle_escape_in(it->brief, sizeof(it->brief));
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

/* rep holds whole commands (settle run --command), which run unpinned. */
static int has_commands(const struct settle_report *rep)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].command)
			return 1;
	return 0;
}

/* The layouts measured (docs/layouts.md); with one, that the verdicts
 * hold for it only (said once, when there are verdicts; not for whole
 * commands, whose placement is the programs' own). */
static void layouts_item(const struct settle_report *rep,
			 struct settle_view *v)
{
	const struct settle_options *o = &rep->options;
	struct settle_view_item *it;
	int verdicts = 0;

	for (size_t i = 0; i < rep->nresults; i++)
		verdicts |= rep->results[i].has_cmp;
	if (has_commands(rep))
		return;
	if (o->layouts > 1) {
		unsigned each = o->samples / o->layouts /
				(o->processes > 1 ? o->processes : 1);

		it = item(v, "layouts", "%u: code, data and stack placed %u "
			  "ways, %u sample%s in each per process "
			  "(docs/layouts.md)%s", o->layouts, o->layouts, each,
			  plural(each), rep->claims_built[0] &&
			  o->layouts % SETTLE_CODE_SLOTS ? "; not a "
			  "multiple of 4, so the claims' code did not sit in "
			  "each of its four 16-byte slots alike: no verdict "
			  "(--layouts 4)" : "");
		brief(it, "%u layouts", o->layouts);
	} else if (verdicts) {
		if (o->layout_first)
			it = item(v, "layouts", "1 (layout %u): the verdicts "
				  "hold for this layout only (--layouts 4 "
				  "varies code, data and stack placement; "
				  "docs/layouts.md)", o->layout_first);
		else
			it = item(v, "layouts", "1 (settle's plain placement): "
				  "the verdicts hold for this layout only "
				  "(--layouts 4 varies code, data and stack "
				  "placement; docs/layouts.md)");
		brief(it, "1 layout: the verdicts hold for it only");
	} else {
		return;
	}
	it->info_only = -1;
}

const char *settle_conclusion_body(const char *line, int settled)
{
	return line + strlen(settled ? SETTLE_SETTLED : SETTLE_NOT_SETTLED);
}

char *settle_moves_why(double spread, char *buf, size_t len)
{
	snprintf(buf, len, SETTLE_WHY_MOVES_HEAD ", +-%.0f %%"
		 SETTLE_WHY_MOVES_TAIL, 50 * spread);
	return buf;
}

char *settle_layout_why(double spread, char *buf, size_t len)
{
	double x = 50 * spread;

	snprintf(buf, len, x >= 9.95 ? "layout-sensitive, +-%.0f %%" :
		 "layout-sensitive, +-%.1f %%", x);
	return buf;
}

/*
 * "15 samples": the samples of the results in [lo, hi], as counted over
 * those that have any; "1-3 samples" when they differ (a Google
 * Benchmark file's repetitions); dflt when none has any (hi 0).
 */
static void samples_text(size_t lo, size_t hi, unsigned dflt, char *buf,
			 size_t len)
{
	if (!hi || lo == hi)
		snprintf(buf, len, "%u sample%s", hi ? (unsigned)hi : dflt,
			 plural(hi ? (unsigned)hi : dflt));
	else
		snprintf(buf, len, "%u-%u samples", (unsigned)lo, (unsigned)hi);
}

/* Widen [*lo, *hi] by n samples, unless n is 0. */
static void widen(size_t n, size_t *lo, size_t *hi)
{
	if (!n)
		return;
	*lo = n < *lo ? n : *lo;
	*hi = n > *hi ? n : *hi;
}

/* The machine line: CPU, logical CPUs, hypervisor or emulator. */
static void cpu_item(const struct settle_machine *m, struct settle_view *v)
{
	struct settle_view_item *it;
	char cpu[200], cpus[48] = "";

	if (m->vendor[0])
		snprintf(cpu, sizeof(cpu), "%s (%s family %u model %u "
			 "stepping %u)", m->model_name[0] ? m->model_name :
			 "unknown CPU", m->vendor, m->family, m->model,
			 m->stepping);
	else
		snprintf(cpu, sizeof(cpu), "%s", m->model_name[0] ?
			 m->model_name : "unknown CPU");
	if (m->logical_cpus > 0)
		snprintf(cpus, sizeof(cpus), ", %ld logical CPUs",
			 m->logical_cpus);
	it = item(v, "machine", "%s%s%s%s%s%s%s", cpu, cpus,
		  m->hypervisor > 0 ? ", hypervisor " : "",
		  m->hypervisor > 0 ? (m->hypervisor_vendor[0] ?
				       m->hypervisor_vendor : "present") : "",
		  m->emulator[0] ? ", emulated by " : "", m->emulator,
		  m->emulator[0] ? " (times under emulation are not "
		  "measurements)" : "");
	brief(it, "%s", it->text);
}

/* ISA, caches, kernel, primitives and the read limit. */
static void platform_items(const struct settle_machine *m,
			   struct settle_view *v)
{
	struct settle_view_item *it;
	char buf[256], rel[64] = "unknown";

	item(v, "ISA", "%s", m->isa[0] ? m->isa : "unknown");
	caches(m, buf, sizeof(buf));
	if (m->ncaches && !strcmp(m->caches_source, "sysconf"))
		it = item(v, "caches", "%s (no cache entries in sysfs: read "
			  "from cpuid by glibc's sysconf; under a hypervisor, "
			  "its figures, maybe not the host's)", buf);
	else
		it = item(v, "caches", "%s", buf);
	brief(it, "caches %s%s", buf, m->ncaches &&
	      !strcmp(m->caches_source, "sysconf") ? " (sysconf)" : "");
	sscanf(m->kernel, "%63s", rel);
	it = item(v, "kernel", "%s; seccomp %s", m->kernel[0] ? m->kernel :
		  "unknown", m->seccomp[0] ? m->seccomp : "unknown");
	brief(it, "kernel %s", rel);
	item(v, "primitives", "popcount %s, bswap %s%s%s",
	     m->popcount_impl[0] ? m->popcount_impl : "unknown",
	     m->bswap_impl[0] ? m->bswap_impl : "unknown",
	     m->bswap_sizes[0] ? "; bswap " : "", m->bswap_sizes);
	if (m->read_limit[0])
		item(v, "read limit", "%s", m->read_limit);
	if (m->read_limit_timed == 1)
		item(v, "read limit timed", "%s-bit loads (they read 16 KiB "
		     "faster at the start)", m->read_limit_timed_256 ? "256" :
		     "512");
	else if (m->read_limit_timed)
		item(v, "read limit timed", "256-bit loads in %u of %u "
		     "processes, 512-bit in %u (whichever read 16 KiB faster "
		     "at the start)", m->read_limit_timed_256,
		     m->read_limit_timed, m->read_limit_timed -
		     m->read_limit_timed_256);
}

/* The clock settle timed with, and the core clock's estimate. */
static void clock_items(const struct settle_timer_info *t,
			struct settle_view *v)
{
	struct settle_view_item *it;
	char cost[32], res[32];

	/* a calibrated value of 0 is unknown (settle_timer_info) */
	if (t->overhead_ns > 0)
		snprintf(cost, sizeof(cost), "%.1f ns", t->overhead_ns);
	else
		snprintf(cost, sizeof(cost), "unknown");
	if (t->resolution_ns > 0)
		snprintf(res, sizeof(res), "%.1f ns", t->resolution_ns);
	else
		snprintf(res, sizeof(res), "unknown");
	if (t->clock == SETTLE_CLOCK_UNKNOWN) {
		it = item(v, "clock", "unknown (%s), read cost %s, resolution "
			  "%s", t->why ? t->why : "the file does not say", cost,
			  res);
		brief(it, "clock unknown");
	} else if (t->clock != SETTLE_CLOCK_MONOTONIC && t->tsc_ghz > 0) {
		it = item(v, "clock", "%s at %.3f GHz (%s), read cost %s, "
			  "resolution %s", settle_clock_label(t->clock),
			  t->tsc_ghz, t->why, cost, res);
		brief(it, "clock %s %.3f GHz", settle_clock_label(t->clock),
		      t->tsc_ghz);
	} else if (t->clock != SETTLE_CLOCK_MONOTONIC) {
		it = item(v, "clock", "%s at an unknown rate (%s), read cost "
			  "%s, resolution %s", settle_clock_label(t->clock),
			  t->why, cost, res);
		brief(it, "clock %s", settle_clock_label(t->clock));
	} else {
		it = item(v, "clock", "clock_gettime(CLOCK_MONOTONIC_RAW) (%s), "
			  "read cost %s, resolution %s",
			  t->why ? t->why : "unknown", cost, res);
		brief(it, "clock CLOCK_MONOTONIC_RAW");
	}
	if (t->core_ghz > 0) {
		it = item(v, "core clock", "~%.2f GHz (estimated from a "
			  "dependent add chain, 1 cycle per add)", t->core_ghz);
		brief(it, "core ~%.2f GHz", t->core_ghz);
	} else {
		it = item(v, "core clock", "unknown");
		brief(it, "core clock unknown");
	}
}

/* The build of settle (and of a FILE.c's claims), and the mitigations. */
static void build_items(const struct settle_report *rep,
			struct settle_view *v)
{
	const struct settle_machine *m = &rep->machine;
	struct settle_view_item *it;

	if (rep->claims_built[0]) {
		/* FILE.c: the user's builds measured, settle only timed */
		it = item(v, "build", "claims built with %s (settle itself: "
			  "%s, %s)", rep->claims_built, rep->compiler,
			  rep->build_flags);
		brief(it, "claims built with %s", rep->claims_built);
	} else {
		it = item(v, "build", "%s%s%s", rep->compiler,
			  rep->build_flags[0] ? ", " : "", rep->build_flags);
		brief(it, "build %s%s%s", rep->compiler,
		      rep->build_flags[0] ? " " : "", rep->build_flags);
	}
	it = item(v, "mitigations", "%s", m->mitigations[0] ?
		  m->mitigations : "unknown");
	it->detail = 1;
}

/* Where settle ran (pinning) and how: samples, processes, sample time. */
void settle_sample_floor(const struct settle_report *rep, char *buf,
			 size_t len)
{
	double asked = rep->options.min_sample_ns / 1e6;
	double t = settle_report_shortest_sample(rep) / 1e6, unit;

	const char *quick = rep->options.quick ? "--quick" : "";

	if (!(t > 0) || t >= asked) {
		snprintf(buf, len, "%.1f ms%s%s%s", asked, *quick ? " (" : "",
			 quick, *quick ? ")" : "");
		return;
	}
	/* rounded down to 3 significant digits: never above the truth */
	unit = pow(10, floor(log10(t)) - 2);
	snprintf(buf, len, "%g ms (%.1f ms asked%s%s)",
		 floor(t / unit) * unit, asked, *quick ? ", " : "", quick);
}

static void settings_items(const struct settle_report *rep,
			   struct settle_view *v)
{
	const struct settle_options *o = &rep->options;
	struct settle_view_item *it;
	char pinned[48] = "CPU unknown", each[96] = "", count[64];
	char procs[64] = "", tail[80] = "";
	size_t lo = SIZE_MAX, hi = 0; /* samples of the results */

	if (rep->cpu >= 0)
		snprintf(pinned, sizeof(pinned), has_commands(rep) ?
			 "settle on CPU %d, the commands not pinned" :
			 "pinned to CPU %d", rep->cpu);
	it = item(v, NULL, "%s", pinned);
	it->info_only = 1;
	if (o->processes > 1)
		snprintf(procs, sizeof(procs), " (%u fresh processes)",
			 o->processes);
	/* said before the rows: no conclusion of the run can settle */
	if (o->processes < SETTLE_MIN_UNITS && !has_commands(rep))
		snprintf(tail, sizeof(tail), "; %s (--processes 3)",
			 o->processes > 1 ? "2 processes, too few for a verdict"
			 : "one process, so no conclusion settles");
	if (o->min_sample_ns > 0) {
		char floor_ms[64];

		settle_sample_floor(rep, floor_ms, sizeof(floor_ms));
		snprintf(each, sizeof(each), ", each >= %s", floor_ms);
	}
	for (size_t i = 0; i < rep->nresults; i++)
		if (!rep->results[i].skipped)
			widen(rep->results[i].nsamples, &lo, &hi);
	samples_text(lo, hi, o->samples, count, sizeof(count));
	if (!each[0] && o->quick)
		snprintf(each, sizeof(each), " (--quick)");
	it = item(v, NULL, "%s; %s per variant%s%s%s", pinned, count, procs,
		  each, tail);
	brief(it, "%s", it->text);
	it->info_only = -1; /* a run's, not info's */
}

static void machine_items(const struct settle_report *rep,
			  struct settle_view *v)
{
	cpu_item(&rep->machine, v);
	platform_items(&rep->machine, v);
	clock_items(&rep->timer, v);
	build_items(rep, v);
	settings_items(rep, v);
	layouts_item(rep, v);
}

/* An escaped copy of s owned by v ("?" when out of memory). */
static const char *keep(struct settle_view *v, const char *s)
{
	char **more, *e;

	if (!s)
		return NULL;
	e = settle_escape(s);
	more = e ? realloc(v->strings, (v->nstrings + 1) * sizeof(*more)) : NULL;
	if (!more) {
		free(e);
		return "?";
	}
	v->strings = more;
	v->strings[v->nstrings++] = e;
	return e;
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
		settle_format_ratio(c->ratio, w->ratio, sizeof(w->ratio) - 1);
		strcat(w->ratio, "x");
	}
	if (c->ratio > 0 && settle_interval_reached(c)) {
		settle_format_ratio(c->lo, w->lo, sizeof(w->lo));
		settle_format_ratio(c->hi, w->hi, sizeof(w->hi));
	}
	w->verdict = settle_verdict_name(c->verdict);
	w->why = c->why;
}

/* The reason of an unclear verdict of r: a layout-sensitive one with its
 * spread, one the mean times contradicted with their ratio ("the mean
 * times disagree (1.46x): a slow mode in some samples"). */
static const char *why_text(struct settle_view *v,
			    const struct settle_result *r)
{
	const struct settle_comparison *c = &r->cmp;
	const char *why = c->why, *colon;
	char buf[160], q[24];

	if (why && (!strcmp(why, SETTLE_WHY_MEANS_RUNS) ||
		    !strcmp(why, SETTLE_WHY_MEANS_SAMPLES) ||
		    !strcmp(why, SETTLE_WHY_MEANS_PREEMPTED)) &&
	    c->mean_ratio > 0) {
		colon = strchr(why, ':');
		settle_format_ratio(c->mean_ratio, q, sizeof(q));
		snprintf(buf, sizeof(buf), "%.*s (%sx)%s", (int)(colon - why),
			 why, q, colon);
		return keep(v, buf);
	}
	if (why && !strcmp(why, SETTLE_WHY_RATIO_MOVES))
		return keep(v, settle_moves_why(c->layout_spread, buf,
						sizeof(buf)));
	if (!why || strcmp(why, SETTLE_WHY_LAYOUT))
		return why;
	return keep(v, settle_layout_why(c->layout_spread, buf, sizeof(buf)));
}

/* The spread in per cent: one decimal, "<0.1%" for a spread that would
 * round to 0.0 but is not 0. */
static void mad_cell(double pct, char *buf, size_t len)
{
	if (pct > 0 && pct < 0.05)
		snprintf(buf, len, "<0.1%%");
	else
		snprintf(buf, len, "%.1f%%", pct);
}

static void row(struct settle_view *v, const struct settle_result *r,
		struct settle_view_row *w)
{
	const struct settle_claim_info *c = r->claim;

	memset(w, 0, sizeof(*w));
	w->r = r;
	w->label = keep(v, r->label);
	w->reference = r->reference;
	w->mark = "";
	w->lmark = "";
	w->verdict = "";
	if (c->sized)
		settle_format_size(r->size_bytes, w->size, sizeof(w->size));
	if (r->skipped) {
		w->status = SETTLE_ROW_SKIPPED;
		w->status_text = keep(v, r->skipped);
		return;
	}
	if (r->nsamples == 0) { /* a file may hold none: no time to show */
		w->status = SETTLE_ROW_SKIPPED;
		w->status_text = "no samples in the file";
		return;
	}
	if (r->below_resolution) {
		w->status = SETTLE_ROW_BELOW_RES;
		w->status_text = SETTLE_WHY_BELOW_RES " (did the "
				 "compiler remove the work? "
				 "settle_keep(), docs/writing-a-claim.md)";
		return;
	}
	if (r->invalid[0]) {
		char why[sizeof(r->invalid) + 128];

		/* work hoisted or removed: the hint how to keep it */
		snprintf(why, sizeof(why), "%s%s", r->invalid,
			 strstr(r->invalid, "a cost once a call") ? "; keep "
			 "the work with settle_keep(), and a cost once a call "
			 "out of run() (docs/writing-a-claim.md)" :
			 strstr(r->invalid, "hoisted") ? "; keep it with "
			 "settle_keep() (docs/writing-a-claim.md)" : "");
		w->status = SETTLE_ROW_INVALID;
		w->status_text = keep(v, why);
		w->verdict = settle_verdict_name(SETTLE_INVALID);
		return;
	}
	settle_format_ns(r->sum.median, w->median, sizeof(w->median));
	settle_format_ns(r->sum.min, w->best, sizeof(w->best));
	/* the spread within the processes and layouts: what the layouts
	 * add is the ~ mark's, what the processes add the interval's */
	if (r->nsamples < 2) /* one sample has no spread: not 0.0 % */
		snprintf(w->mad, sizeof(w->mad), "-");
	else
		mad_cell(100 * settle_safe_div(r->within_mad, r->sum.median),
			 w->mad, sizeof(w->mad));
	w->mark = r->unstable ? "!" : "";
	w->lmark = r->layout_sensitive ? "~" : "";
	if (c->bytes_per_op == SETTLE_BYTES_SIZE)
		settle_format_num(r->bytes_per_ns, 2, w->bytes, sizeof(w->bytes));
	if (c->show_cycles)
		settle_format_num(r->cycles_per_op > 0 ? r->cycles_per_op : NAN,
				  2, w->cycles, sizeof(w->cycles));
	cmp_cells(r, w);
	w->why = why_text(v, r);
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
	settle_escape_in(n->text, sizeof(n->text));
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

/* Whether the claim's cycles were counted by the hardware. */
static int cycles_counted(const struct settle_view_claim *vc)
{
	for (size_t i = 0; i < vc->nrows; i++)
		if (settle_result_cycles_counted(vc->rows[i].r))
			return 1;
	return 0;
}

/*
 * Where the cycles come from; when they are the add-chain estimate and
 * it moved during the run (settle_noise_drifted()), by how much: the
 * cycles are the start's estimate and are uncertain by as much.
 */
static void cycles_note(const struct settle_report *rep,
			struct settle_view_claim *vc)
{
	const struct settle_noise *n = &rep->noise;

	if (cycles_counted(vc))
		note(vc, "", "cycles: counted with perf_event_open (mean per "
		     "operation)");
	else if (settle_noise_drift_known(n) &&
		 settle_noise_drifted(n->drift_pct))
		note(vc, "", "cycles: median x core clock estimated from an add "
		     "chain (no hardware counters) at the start of the run, "
		     "%.2f GHz; the estimate moved %+.1f%% by its end (%.2f "
		     "GHz), so the cycles are uncertain by as much",
		     n->core_ghz_before, n->drift_pct, n->core_ghz_after);
	else
		note(vc, "", "cycles: median x core clock estimated from an add "
		     "chain (no hardware counters)");
}

/* How the interval over p processes is made (settle_compare_processes()). */
static const char *over_processes(unsigned p)
{
	return settle_process_trim(p) ?
	       "95% Yuen interval of their 20% trimmed mean over processes" :
	       "95% Student t interval over processes";
}

/* The claim's baseline is one of its rows, a reference (a file that
 * names one, as settle never does), measured but never compared. */
static int reference_named(const struct settle_view_claim *vc)
{
	for (size_t i = 0; i < vc->nrows; i++)
		if (vc->rows[i].r->reference &&
		    !strcmp(vc->rows[i].r->variant, vc->claim->baseline))
			return 1;
	return 0;
}

/* What the unstable note's spread is taken within, with nl layouts and
 * procs processes ("" for one of each). */
static const char *within_text(unsigned nl, unsigned procs)
{
	if (nl > 1 && procs > 1)
		return " (within its processes and layouts: each sample scaled "
		       "by the median of its layout in its process)";
	if (nl > 1)
		return " (within its layouts: each sample scaled by its "
		       "layout's median)";
	if (procs > 1)
		return " (within its processes: each sample scaled by its "
		       "process's median)";
	return "";
}

static void notes(const struct settle_report *rep, struct settle_view_claim *vc)
{
	const struct settle_options *o = &rep->options;
	const struct settle_claim_info *c = vc->claim;
	int grouped = 0, based = 0, unstable = 0, moved = 0, cmds = 0;
	unsigned nl = 1;
	char head[160], ratio[300], count[64];
	size_t lo = SIZE_MAX, hi = 0; /* samples of the measured rows */
	double level = 1; /* the lowest level of a printed interval */

	for (size_t i = 0; i < vc->nrows; i++) {
		const struct settle_view_row *w = &vc->rows[i];
		const struct settle_comparison *k = &w->r->cmp;

		grouped |= w->r->build || w->r->nparams;
		cmds |= w->r->command != NULL;
		based |= w->role != SETTLE_ROLE_NONE;
		unstable |= w->mark[0] != '\0';
		moved |= w->lmark[0] != '\0';
		nl = w->r->nlayouts > nl ? w->r->nlayouts : nl;
		if (w->role == SETTLE_ROLE_COMPARED && w->lo[0])
			level = fmin(level, k->level);
	}
	for (size_t i = 0; i < vc->nrows; i++)
		if (vc->rows[i].status == SETTLE_ROW_MEASURED)
			widen(vc->rows[i].r->nsamples, &lo, &hi);
	samples_text(lo, hi, o->samples, count, sizeof(count));
	snprintf(head, sizeof(head), "median time per %s of %s", c->op_name,
		 count);
	snprintf(ratio, sizeof(ratio), "ratio = time / time of '%s'%s in the "
		 "same rounds (below 1 is faster", c->baseline, grouped ?
		 " of the same build and parameters" : "");
	if (based && nl > 1 && o->processes > 1)
		note(vc, "", "%s; %s; %u fresh processes, each %u layouts: the "
		     "median ratio in each layout, their mean per process, %s; "
		     "band +-%g%%)", head, ratio, o->processes, nl,
		     over_processes(o->processes), o->band * 100);
	else if (based && nl > 1)
		note(vc, "", "%s; %s; %u layouts: the mean over the layouts of "
		     "each round's log ratio, Hodges-Lehmann estimate of "
		     "those, 95%% signed-rank interval; band +-%g%%)", head,
		     ratio, nl, o->band * 100);
	else if (based && o->processes > 1)
		note(vc, "", "%s; %s; %u fresh processes, one Hodges-Lehmann "
		     "estimate each, %s; band +-%g%%)", head, ratio,
		     o->processes, over_processes(o->processes),
		     o->band * 100);
	else if (based)
		note(vc, "", "%s; %s; Hodges-Lehmann estimate, 95%% signed-rank "
		     "interval; band +-%g%%)", head, ratio, o->band * 100);
	else if (c->baseline && *c->baseline && reference_named(vc))
		note(vc, "", "%s; the baseline, '%s', is a reference (a limit, "
		     "never compared), so no ratios", head, c->baseline);
	else if (c->baseline && *c->baseline)
		note(vc, "", "%s; the baseline, '%s', has no measured row, so "
		     "no ratios", head, c->baseline);
	else
		note(vc, "", "%s; no baseline, so no ratios", head);
	if (settle_level_short(level))
		note(vc, "", "some intervals are %.1f%% ones, not 95%%: the "
		     "signed-rank interval of 5 paired samples cannot reach "
		     "95%%; 6 samples%s do", level * 100,
		     cmds ? "" : " or 3 processes"); /* a command's runs are
							fresh processes */
	if (c->show_cycles)
		cycles_note(rep, vc);
	if (unstable)
		note(vc, "!", "unstable: spread (MAD) above %g%% of the median, "
		     "the best sample more than %g%% below it, or a quarter "
		     "of the samples more than %g%% above it%s; do not "
		     "trust that row", SETTLE_UNSTABLE_MAD * 100,
		     SETTLE_UNSTABLE_BEST * 100, SETTLE_UNSTABLE_SLOW * 100,
		     within_text(nl, o->processes));
	if (moved)
		note(vc, "~", "layout-sensitive: the medians of its %u "
		     "layouts differ beyond the noise within a layout (p < "
		     "%g) and by more than +-%g%%: its time depends on where "
		     "code, data and stack sit, and a verdict on it is about "
		     "the mean over layouts (docs/layouts.md)", nl,
		     SETTLE_LAYOUT_ALPHA, o->band * 100);
	if (c->original) {
		char orig[sizeof(vc->notes[0].text)];

		snprintf(orig, sizeof(orig), "%s", c->original);
		squeeze(orig);
		note(vc, "", "original: %s", orig);
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
	settle_escape_in(vc->scale_notes[j].text,
			 sizeof(vc->scale_notes[j].text));
	vc->nscale_notes++;
	return stars[j];
}

static int scale(struct settle_view *v, struct settle_view_claim *vc)
{
	vc->scale = calloc(vc->nrows + 1, sizeof(*vc->scale));
	if (!vc->scale)
		return -1;
	for (size_t i = 0; i < vc->nrows; i++) {
		const struct settle_result *r = vc->rows[i].r;
		struct settle_view_scale_row *s = &vc->scale[vc->nscale];

		/* a file's figures of a row with no time of the work's */
		if (r->nfigures == 0 || vc->rows[i].status != SETTLE_ROW_MEASURED)
			continue;
		if (vc->ncols == 0) {
			vc->ncols = r->nfigures;
			for (size_t k = 0; k < r->nfigures; k++)
				vc->cols[k] = keep(v, r->figures[k].label);
		}
		s->label = vc->rows[i].label;
		snprintf(s->size, sizeof(s->size), "%s", vc->rows[i].size);
		s->n = r->nfigures < vc->ncols ? r->nfigures : vc->ncols;
		for (size_t k = 0; k < s->n; k++) {
			const struct settle_figure *f = &r->figures[k];

			snprintf(s->cell[k].value, sizeof(s->cell[k].value),
				 f->value >= 1000 ? "%.0f %s" : "%.4g %s",
				 f->value, f->unit);
			settle_escape_in(s->cell[k].value,
					 sizeof(s->cell[k].value));
			s->cell[k].mark = scale_mark(vc, f->note);
		}
		vc->nscale++;
	}
	return 0;
}

/* ---- the conclusion ------------------------------------------------------ */

/* The row of vc with this label and size, or NULL. */
static const struct settle_view_row *named(const struct settle_view_claim *vc,
					   const char *label, uint64_t size)
{
	for (size_t i = 0; i < vc->nrows; i++)
		if (!strcmp(vc->rows[i].r->label, label) &&
		    vc->rows[i].r->size_bytes == size)
			return &vc->rows[i];
	return NULL;
}

/* The baseline result that compared row w was measured against, or
 * NULL (settle_report_baseline: same claim, size, build, parameters). */
static const struct settle_result *
baseline_of(const struct settle_report *rep, const struct settle_view_row *w)
{
	long b;

	if (w->role != SETTLE_ROLE_COMPARED)
		return NULL;
	b = settle_report_baseline(rep, (size_t)(w->r - rep->results));
	return b < 0 ? NULL : &rep->results[b];
}

/*
 * A state a process keeps for its life (where its code, data and stack
 * lie; a mode the hardware settles into, such as store-to-load
 * forwarding through memory renaming) can move its rows, one way in one
 * process and the other way in the next, while its samples agree with
 * one another: only more processes show it. A whole command's runs are
 * processes of their own.
 */
#define PROCESS_STATE "(a state a process keeps for its life, such as " \
		      "where its code lies or a mode of the hardware, can " \
		      "move all of its rows while its samples agree: run " \
		      "with --processes 3 or more)"
#define ONE_PROCESS "measured in one process " PROCESS_STATE
#define FEW_PROCESSES "measured in fewer than " \
		      SETTLE_STR(SETTLE_MIN_UNITS) " processes " PROCESS_STATE
/* whole commands in 2 processes: the rows' verdicts take the process as
 * the unit, and 2 are too few (it said "too few samples" of 20) */
#define FEW_COMMAND_PROCESSES "too few processes (2: a verdict takes the " \
			      "process as its unit, from 3; or run in one)"

/* Whether the claim's rows are all whole commands (settle run
 * --command). */
static int commands(const struct settle_view_claim *vc)
{
	for (size_t i = 0; i < vc->nrows; i++)
		if (!vc->rows[i].r->command)
			return 0;
	return vc->nrows > 0;
}

/*
 * Whether r's time moves by more than SETTLE_QUOTE_SPREAD from one of
 * its nproc processes to another: a process's level (settle_layout_level:
 * the layouts' medians, each weighing the same) above or below the level
 * of all its samples by more than that factor. A sentence that quotes
 * the time (MB/s, ns, seconds saved) quotes none of them then. Samples
 * that do not split into the processes: moves (they cannot be told
 * apart).
 */
static int time_moves(const struct settle_result *r, unsigned nproc)
{
	size_t n = r->nsamples, chunk;
	double all, lp, k = log1p(SETTLE_QUOTE_SPREAD);

	if (nproc < 2)
		return 0;
	if (n < nproc || n % nproc)
		return 1;
	chunk = n / nproc;
	if (settle_layout_level(r, 0, n, &all) < 0)
		return 0;
	for (unsigned p = 0; p < nproc; p++)
		if (settle_layout_level(r, p * chunk, (p + 1) * chunk,
					&lp) == 0 && fabs(lp - all) > k)
			return 1;
	return 0;
}

/*
 * Why a conclusion resting on these rows is not settled, or NULL: a row
 * of the claim invalid, or below resolution (a new user's claim called
 * "settled: good takes 0.471 ns" beside a row whose work the compiler
 * had removed), or a command of it with failed runs; a named row not
 * measured; a named row's verdict
 * unclear (said with the verdict's own reason); a named row unstable
 * (marked "!": the table says not to trust it), or the baseline its ratio
 * is taken against (a ratio to a baseline whose samples spread is no
 * firmer than the baseline). A row taken by its own time (by_time[i]
 * nonzero; by_time NULL: none is) is held by its own state alone, not by
 * its verdict or its baseline, and with processes or layouts by the
 * spread of all its samples together (unstable is decided within each),
 * as is a lone variant's. A claim's own conclusion (quotes) quotes the
 * ratios of the rows it takes by ratio: each interval within
 * SETTLE_QUOTE_SPREAD of its ratio. Last, a claim's variants measured in
 * fewer than 3 processes (PROCESS_STATE).
 */
#define TOO_FEW "too few samples (a verdict needs " \
		SETTLE_STR(SETTLE_MIN_SAMPLES) " samples in one process and " \
		"one layout, or " SETTLE_STR(SETTLE_MIN_UNITS) " processes " \
		"or more)"

/* Whether c's interval reaches beyond SETTLE_QUOTE_SPREAD of its ratio
 * either way: the figure is not one to quote. */
static int quote_wide(const struct settle_comparison *c)
{
	double k = 1 + SETTLE_QUOTE_SPREAD;

	return c->ratio > 0 && (c->lo < c->ratio / k || c->hi > c->ratio * k);
}

static const char *unsettled(const struct settle_report *rep,
			     const struct settle_view_claim *vc,
			     const struct settle_view_row *const *rows,
			     const int *by_time, size_t n, int quotes)
{
	int cmds = commands(vc);
	/* 2 processes: too few for a verdict, whatever their samples */
	unsigned np = rep->options.processes;
	const char *too_few_text = np < 2 || np >= SETTLE_MIN_UNITS ? TOO_FEW :
				   !cmds ? FEW_PROCESSES : FEW_COMMAND_PROCESSES;

	for (size_t i = 0; i < vc->nrows; i++)
		if (vc->rows[i].status == SETTLE_ROW_INVALID)
			return "invalid rows";
	for (size_t i = 0; i < vc->nrows; i++)
		if (vc->rows[i].status == SETTLE_ROW_BELOW_RES)
			return "a row below the clock's resolution (its work "
			       "removed?), so no ranking of the rows holds";
	/* a command that failed may have skipped its work: gzip of a
	 * missing file read "settled: fastest b", 0.116x */
	for (size_t i = 0; i < vc->nrows; i++)
		if (vc->rows[i].r->command &&
		    (vc->rows[i].r->command->failed ||
		     vc->rows[i].r->command->failed_untimed))
			return "a command's runs failed (timed or profiled "
			       "as --ignore-failure asks: a run that fails "
			       "may skip its work; its CPU-time line says how "
			       "many)";
	for (size_t i = 0; i < n; i++) {
		const struct settle_view_row *w = rows[i];

		if (!w || w->status != SETTLE_ROW_MEASURED)
			return "a row it rests on was not measured";
		/* a time (a baseline's, a row taken by its time, a lone
		 * variant's) from fewer units than a verdict needs: a single
		 * sample has a MAD of 0 and looks steady */
		if (w->r->nsamples < SETTLE_MIN_SAMPLES &&
		    rep->options.processes < SETTLE_MIN_UNITS)
			return too_few_text;
		/* its time too: the sentence quotes figures made of it */
		if (!cmds && time_moves(w->r, rep->options.processes))
			return "too noisy to quote (the time of a row it rests "
			       "on moves by more than "
			       SETTLE_STR(SETTLE_QUOTE_SPREAD_PCT) " % from one process "
			       "to another, or its samples do not split into "
			       "the processes)";
		if (by_time && by_time[i])
			continue;
		if (w->role == SETTLE_ROLE_COMPARED &&
		    !strcmp(w->verdict, "unclear")) {
			if (settle_why_too_few(w->r->cmp.why))
				return too_few_text;
			if (!w->why || !strcmp(w->why, SETTLE_WHY_TOO_WIDE))
				return "too noisy (an interval too wide)";
			return w->why;
		}
		if (quotes && w->role == SETTLE_ROLE_COMPARED &&
		    quote_wide(&w->r->cmp))
			return "too noisy to quote (the interval of a ratio it "
			       "rests on reaches more than "
			       SETTLE_STR(SETTLE_QUOTE_SPREAD_PCT) " % beyond the "
			       "ratio)";
	}
	for (size_t i = 0; i < n; i++) {
		const struct settle_result *b = by_time && by_time[i] ? NULL :
						baseline_of(rep, rows[i]);

		if (rows[i]->r->unstable)
			return "a row it rests on is unstable (marked !: its "
			       "samples spread too much to trust)";
		/* its time, not a ratio within each process: the machine's
		 * speed from process to process is part of it */
		if (((by_time && by_time[i]) ||
		     rows[i]->role == SETTLE_ROLE_NONE) &&
		    (rep->options.processes > 1 || rows[i]->r->nlayouts > 1) &&
		    settle_summary_unstable(&rows[i]->r->sum))
			return "a row it takes by its time moves from one "
			       "process or layout to another (its samples, "
			       "all together, spread too much to trust)";
		if (b && b->unstable)
			return "the baseline of a row it rests on is unstable "
			       "(marked !: its samples spread too much to "
			       "trust, and so does the row's ratio to it)";
		/* the sentence quotes its time: a lone row at twice its
		 * CPU time under a busy task read "settled: base takes
		 * 199.8 ns" */
		if (settle_result_shared_cpu(rows[i]->r) ||
		    (b && settle_result_shared_cpu(b)))
			return "a row it rests on shared its CPU (most "
			       "samples preempted, under "
			       SETTLE_STR(SETTLE_ON_CPU_PCT) " % of their time "
			       "on it: its time holds another task's time "
			       "slices)";
	}
	if (rep->options.processes < SETTLE_MIN_UNITS && !cmds)
		return rep->options.processes > 1 ? FEW_PROCESSES :
						     ONE_PROCESS;
	return NULL;
}

/*
 * Whether this run cannot tell w from the fastest row f, or with slowest
 * set from the slowest one (both measured at one size in the same
 * rounds). In one group: two compared rows whose intervals overlap; f the
 * baseline and w unclear against it; w the baseline and f not called
 * faster (slower). In two groups (other parameters), no row is the
 * other's baseline: w against f as a row against its baseline
 * (settle_result_compare()), not told apart unless w is called slower
 * (faster). Never for a row of a FILE.c build in layouts not a multiple
 * of 4 (settle_part_slots()), nor for a comparison with too few units for
 * an interval (--processes 2): no verdict by design, and rows 3x (2.3x)
 * apart were "not told apart".
 */
static int undecided(const struct settle_report *rep,
		     const struct settle_view_row *f,
		     const struct settle_view_row *w, int slowest)
{
	const struct settle_result *a = f->r, *b = w->r;
	struct settle_comparison c;

	if (w == f || settle_slots_why(rep, a) || settle_slots_why(rep, b) ||
	    settle_why_too_few(a->cmp.why) || settle_why_too_few(b->cmp.why))
		return 0; /* no verdict, by design: nothing to tell apart */
	if (!settle_result_same_group(a, b)) {
		/* times other tasks' slices lengthened: no order (two
		 * bases of the same CPU time, one preempted, were ranked) */
		if (settle_result_shared_cpu(a) || settle_result_shared_cpu(b))
			return 1;
		if (settle_result_compare(b, a, rep->options.processes,
					  rep->options.band, &c) < 0)
			return 1;
		return !settle_why_too_few(c.why) &&
		       c.verdict != (slowest ? SETTLE_FASTER : SETTLE_SLOWER);
	}
	if (f->role == SETTLE_ROLE_COMPARED && w->role == SETTLE_ROLE_COMPARED)
		return settle_intervals_overlap(&a->cmp, &b->cmp);
	if (f->role == SETTLE_ROLE_BASELINE && w->role == SETTLE_ROLE_COMPARED)
		return !strcmp(w->verdict, "unclear");
	if (w->role == SETTLE_ROLE_BASELINE && f->role == SETTLE_ROLE_COMPARED)
		return strcmp(f->verdict, slowest ? "slower" : "faster") != 0;
	return 0;
}

/* The measured rows of build b at the largest size, not references. */
static int ranked(const char *b, const struct settle_view_row *w,
		  uint64_t size)
{
	const struct settle_result *r = w->r;

	return w->status == SETTLE_ROW_MEASURED && !r->reference &&
	       r->size_bytes == size &&
	       !strcmp(r->build ? r->build : "", b ? b : "");
}

/*
 * How a conclusion names row w: as the table does without the build (the
 * clause names it), so that rows of one name in several parameter groups
 * ("dispatched settle", "32-bit in-place avx512") are told apart. From
 * the row's stored label, which a result file keeps (parameter labels
 * are not kept: rebuilt from the parameters, a merged or loaded row
 * would be named by their values, "32 true avx512"). Into buf.
 */
static const char *row_name(const struct settle_view_row *w, char *buf,
			    size_t len)
{
	const struct settle_result *r = w->r;
	const char *l = r->label;
	size_t n = r->build ? strlen(r->build) : 0;

	if (!r->nparams)
		return r->variant;
	if (!l || !l[0])
		return settle_label(NULL, r->params, r->nparams, r->variant,
				    buf, len);
	if (n && !strncmp(l, r->build, n) && l[n] == ' ')
		l += n + 1;
	snprintf(buf, len, "%s", l);
	return buf;
}

/* The rows of build b at size that this run cannot tell from row x, the
 * fastest or with slowest set the slowest (undecided()), into ties[] (at
 * most max); returns how many there are, beyond max too. */
static size_t ties_of(const struct settle_report *rep,
		      const struct settle_view_claim *vc, const char *b,
		      uint64_t size, const struct settle_view_row *x,
		      int slowest, const struct settle_view_row **ties,
		      size_t max)
{
	size_t n = 0;

	for (size_t i = 0; x && i < vc->nrows; i++)
		if (ranked(b, &vc->rows[i], size) &&
		    undecided(rep, x, &vc->rows[i], slowest)) {
			if (n < max)
				ties[n] = &vc->rows[i];
			n++;
		}
	return n;
}

/* Row w's time over its group's baseline: 1 for the baseline, its ratio
 * for a compared row; 0 when it has none. */
static double ratio_of(const struct settle_view_row *w)
{
	if (w->role == SETTLE_ROLE_BASELINE)
		return 1;
	return w->role == SETTLE_ROLE_COMPARED ? w->r->cmp.ratio : 0;
}

/*
 * Row w's time as ranked: a compared row's ratio times its baseline's
 * median (per-round ratios, the numbers the table shows and the verdicts
 * rest on: a row's own median may fall on the other side of the
 * baseline's when the two are close), else its median. One number per
 * row, so that rows of several groups rank the same in any order.
 */
static double rank_time(const struct settle_view_claim *vc,
			const struct settle_view_row *w)
{
	double r = ratio_of(w);

	for (size_t i = 0; r > 0 && i < vc->nrows; i++) {
		const struct settle_view_row *b = &vc->rows[i];

		if (b->role == SETTLE_ROLE_BASELINE &&
		    b->r->size_bytes == w->r->size_bytes &&
		    settle_result_same_group(b->r, w->r))
			return r * b->r->sum.median;
	}
	return w->r->sum.median;
}

/*
 * Fastest and slowest measured row of build b at the largest size, the
 * rows this run cannot tell from the fastest (ties[], *nties) and from
 * the slowest (sties[], *nsties), and which are the same as the baseline
 * (listed in same).
 */
static void extremes(const struct settle_report *rep,
		     const struct settle_view_claim *vc, const char *b,
		     const struct settle_view_row **fast,
		     const struct settle_view_row **slow,
		     const struct settle_view_row **ties, size_t *nties,
		     const struct settle_view_row **sties, size_t *nsties,
		     size_t maxties, size_t *nsame, char *same, size_t len)
{
	uint64_t size = 0;
	double tfast = 0, tslow = 0;

	*fast = *slow = NULL;
	*nsame = *nties = 0;
	same[0] = '\0';
	for (size_t i = 0; i < vc->nrows; i++)
		if (vc->rows[i].r->size_bytes > size)
			size = vc->rows[i].r->size_bytes;
	for (size_t i = 0; i < vc->nrows; i++) {
		const struct settle_view_row *w = &vc->rows[i];
		double t;

		if (!ranked(b, w, size))
			continue;
		t = rank_time(vc, w);
		if (!*fast || t < tfast) {
			*fast = w;
			tfast = t;
		}
		if (!*slow || t > tslow) {
			*slow = w;
			tslow = t;
		}
		if (!strcmp(w->verdict, "same") && strlen(same) + 40 < len) {
			char name[128];

			strcat(same, *nsame ? ", " : "");
			strncat(same, row_name(w, name, sizeof(name)),
				len - strlen(same) - 1);
			(*nsame)++;
		}
	}
	*nties = ties_of(rep, vc, b, size, *fast, 0, ties, maxties);
	*nsties = *slow == *fast ? 0 :
		  ties_of(rep, vc, b, size, *slow, 1, sties, maxties);
}

/* "; not told apart from a, b" for the rows ties[] (n of them, at most
 * max stored), or "", into buf; the names that do not fit counted ("a,
 * b and 288 more": 300 rows alike once listed 22, cut without a word). */
static void ties_said(const struct settle_view_row *const *ties, size_t n,
		      size_t max, char *buf, size_t len)
{
	static const char head[] = "; not told apart from ";
	char name[128];
	size_t t = 0, i;

	buf[0] = '\0';
	for (i = 0; i < n && i < max; i++) {
		const char *w = row_name(ties[i], name, sizeof(name));

		/* room kept for " and N more" */
		if (t + strlen(w) + sizeof(head) + 32 > len)
			break;
		t += (size_t)snprintf(buf + t, len - t, "%s%s",
				      i ? ", " : head, w);
	}
	if (i < n && i)
		snprintf(buf + t, len - t, " and %zu more", n - i);
	else if (i < n)
		snprintf(buf, len, "%s%zu row%s", head, n, n == 1 ? "" : "s");
}

/* What a build's part of the generic conclusion starts with: "; "
 * after another's, the size the ranking is of (0: the claim's one size,
 * not said) before the first, then the build's name: "at 64 KiB, cc
 * -O2: ". */
static void build_head(size_t used, uint64_t size, const char *build,
		       char *buf, size_t len)
{
	char sz[24];

	settle_format_size(size, sz, sizeof(sz));
	/* "the largest size": a new user read the sentence as his whole
	 * answer, and his 4 KiB rows were in none */
	snprintf(buf, len, "%s%s%s%s%s%s", used ? "; " : "",
		 !used && size ? "at " : "", !used && size ? sz : "",
		 !used && size ? (build ? " (the largest size), " :
				  " (the largest size): ") : "",
		 build ? build : "", build ? ": " : "");
}

/*
 * Without a conclusion of the claim's own: per build, the fastest and the
 * slowest variant at the largest size, the rows this run cannot tell from
 * either, and which are the same as the baseline. Returns non-zero when a
 * build has one variant, whose sentence is its time alone ("takes").
 */
static int generic_conclusion(const struct settle_report *rep,
			      const struct settle_view_claim *vc, char *buf,
			      size_t len, const struct settle_view_row **rows,
			      size_t *nrows)
{
	int lone = 0; /* a build's one variant: "takes", its time alone */
	const char *builds[16];
	size_t nb = 0, used = 0;
	uint64_t size = 0;
	int sizes = 0; /* more than one: the sentence says which */

	*nrows = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < vc->nrows && nb < 16; i++) {
		const char *b = vc->rows[i].r->build;
		size_t k;

		for (k = 0; k < nb && strcmp(builds[k] ? builds[k] : "",
					     b ? b : ""); k++)
			;
		if (k == nb)
			builds[nb++] = b;
	}
	for (size_t i = 0; i < vc->nrows; i++) {
		uint64_t z = vc->rows[i].r->size_bytes;

		sizes |= i > 0 && z != size;
		size = z > size ? z : size;
	}
	for (size_t k = 0; k < nb && used < len; k++) {
		const struct settle_view_row *f, *s, *ties[SETTLE_MAX_NAMED];
		const struct settle_view_row *sties[SETTLE_MAX_NAMED];
		char same[256], tie[256], stie[256], fname[128], sname[128];
		char head[200];
		size_t nsame, nties, nsties;
		int w, pair;

		extremes(rep, vc, builds[k], &f, &s, ties, &nties, sties,
			 &nsties, SETTLE_MAX_NAMED - 2, &nsame, same,
			 sizeof(same));
		if (!f)
			continue;
		ties_said(ties, nties, SETTLE_MAX_NAMED - 2, tie, sizeof(tie));
		ties_said(sties, nsties, SETTLE_MAX_NAMED - 2, stie,
			  sizeof(stie));
		/* the two alone tied: named together, neither the fastest */
		pair = nties == 1 && ties[0] == s && nsties == 1 &&
		       sties[0] == f;
		build_head(used, sizes ? size : 0, builds[k], head,
			   sizeof(head));
		lone |= f == s;
		if (f == s) /* one variant: nothing to rank */
			w = snprintf(buf + used, len - used, "%s%s takes %s",
				     head,
				     row_name(f, fname, sizeof(fname)), f->median);
		else if (pair) /* neither called the quicker */
			w = snprintf(buf + used, len - used, "%s%s (%s) and "
				     "%s (%s), not told apart%s%s",
				     head,
				     row_name(f, fname, sizeof(fname)), f->median,
				     row_name(s, sname, sizeof(sname)),
				     s->median,
				     nsame ? "; the same as the baseline: " : "",
				     nsame ? same : "");
		else
			w = snprintf(buf + used, len - used, "%sfastest %s "
				     "(%s%s), slowest %s (%s%s)%s%s",
				     head,
				     row_name(f, fname, sizeof(fname)), f->median,
				     tie, row_name(s, sname, sizeof(sname)),
				     s->median, stie,
				     nsame ? "; the same as the baseline: " : "",
				     nsame ? same : "");
		if (w > 0)
			used += (size_t)w;
		if (*nrows + 2 <= SETTLE_MAX_NAMED) {
			rows[(*nrows)++] = f;
			rows[(*nrows)++] = s;
		}
		for (size_t i = 0; i < nties && i < SETTLE_MAX_NAMED - 2 &&
				   *nrows < SETTLE_MAX_NAMED; i++)
			rows[(*nrows)++] = ties[i];
		for (size_t i = 0; i < nsties && i < SETTLE_MAX_NAMED - 2 &&
				   *nrows < SETTLE_MAX_NAMED; i++)
			rows[(*nrows)++] = sties[i];
	}
	return lone;
}

/* The noise line warns (other work, stolen time, clock drift): the
 * machine's speed moved during the run. */
static int noise_warns(const struct settle_noise *n)
{
	return n->known && (settle_noise_busy(n) ||
			    settle_noise_stolen(n->steal_pct) ||
			    (settle_noise_drift_known(n) &&
			     settle_noise_drifted(n->drift_pct)));
}

/* Whether a row of vc was measured. */
static int measured(const struct settle_view_claim *vc)
{
	for (size_t i = 0; i < vc->nrows; i++)
		if (vc->rows[i].status == SETTLE_ROW_MEASURED)
			return 1;
	return 0;
}

static void conclusion(struct settle_view *v, struct settle_view_claim *vc)
{
	const struct settle_conclusion *k = vc->claim->conclusion;
	const struct settle_view_row *rows[SETTLE_MAX_NAMED];
	int by_time[SETTLE_MAX_NAMED] = { 0 };
	char why[2048]; /* a --share reason: two symbols and a file
			   (255 bytes each), a command's name, the text */
	size_t n = 0;
	int based = 0, lone = 0;

	for (size_t i = 0; i < vc->nrows; i++)
		based |= vc->rows[i].role != SETTLE_ROLE_NONE;
	if (!vc->nrows)
		return;
	vc->has_conclusion = 1;
	vc->numbers = k;
	if (!k && settle_command_conclusion(vc, vc->sentence,
					     sizeof(vc->sentence), why,
					     sizeof(why))) {
		for (size_t i = 0; i < vc->nrows; i++)
			if (vc->rows[i].role == SETTLE_ROLE_BASELINE)
				rows[n++] = &vc->rows[i];
		settle_escape_in(why, sizeof(why));
		if (why[0])
			vc->reason = keep(v, why);
	} else if (k) {
		snprintf(vc->sentence, sizeof(vc->sentence), "%s", k->sentence);
		for (size_t i = 0; i < k->nrows; i++) {
			by_time[n] = k->rows[i].by_time;
			rows[n++] = named(vc, k->rows[i].label,
					  k->rows[i].size_bytes);
		}
	} else if (based) {
		lone = generic_conclusion(v->rep, vc, vc->sentence,
					  sizeof(vc->sentence), rows, &n);
	}
	if (!vc->sentence[0]) {
		vc->reason = based || !measured(vc) ? "nothing was measured" :
			     "there is no baseline to compare with";
		snprintf(vc->sentence, sizeof(vc->sentence), "%s", vc->reason);
	} else if (!vc->reason) {
		vc->reason = unsettled(v->rep, vc, rows, by_time, n,
				       k != NULL);
	}
	/* no ratio in the same rounds cancels the machine's speed in a
	 * time alone: "settled: csum takes 9.436 us" under a -5.6 % drift
	 * and other work keeping a CPU busy */
	if (!vc->reason && lone && noise_warns(&v->rep->noise))
		vc->reason = "a time alone, measured while the machine's "
			     "speed moved (see the noise line's warnings)";
	settle_escape_in(vc->sentence, sizeof(vc->sentence));
	vc->settled = !vc->reason;
	if (vc->settled)
		snprintf(vc->conclusion, sizeof(vc->conclusion),
			 SETTLE_SETTLED "%s", vc->sentence);
	else if (!strcmp(vc->sentence, vc->reason))
		snprintf(vc->conclusion, sizeof(vc->conclusion),
			 SETTLE_NOT_SETTLED "%s", vc->reason);
	else
		snprintf(vc->conclusion, sizeof(vc->conclusion),
			 SETTLE_NOT_SETTLED "%s; measured: %s", vc->reason,
			 vc->sentence);
}

/* ---- claims ----------------------------------------------------------- */

static int claim(struct settle_view *v, const struct settle_report *rep,
		 const struct settle_claim_info *c, struct settle_view_claim *vc)
{
	size_t n = 0;

	memset(vc, 0, sizeof(*vc));
	vc->claim = c;
	vc->title = keep(v, c->title);
	vc->op_name = keep(v, c->op_name);
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
			row(v, &rep->results[i], &vc->rows[vc->nrows++]);
	notes(rep, vc);
	conclusion(v, vc);
	if (settle_view_command(v, vc) < 0)
		return -1;
	return scale(v, vc);
}

/* ---- noise ------------------------------------------------------------ */

__attribute__((format(printf, 2, 3)))
static void warn(struct settle_view *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nwarnings == SETTLE_VIEW_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(v->warnings[v->nwarnings], sizeof(v->warnings[0]), fmt, ap);
	va_end(ap);
	settle_escape_in(v->warnings[v->nwarnings], sizeof(v->warnings[0]));
	v->nwarnings++;
}

/*
 * The core clock before -> after: "3.69 -> 3.70 GHz (+0.3%)", or with an
 * unknown estimate (0: none was steady, or a file's is missing)
 * "unknown -> 3.70 GHz (no estimate at the start)", "3.69 GHz -> unknown
 * (no estimate at the end)", "unknown": no drift is computed from an
 * unknown clock.
 */
static void drift_text(const struct settle_noise *n, char *buf, size_t len)
{
	double b = n->core_ghz_before, a = n->core_ghz_after;

	if (settle_noise_drift_known(n))
		snprintf(buf, len, "%.2f -> %.2f GHz (%+.1f%%)", b, a,
			 n->drift_pct);
	else if (b > 0)
		snprintf(buf, len, "%.2f GHz -> unknown (no estimate at the "
			 "end)", b);
	else if (a > 0)
		snprintf(buf, len, "unknown -> %.2f GHz (no estimate at the "
			 "start)", a);
	else
		snprintf(buf, len, "unknown");
}

/* ", of which ... samples preempted" after the count of context switches
 * when samples of the report were (settle_result.preempted), else "". */
static void preempted_text(const struct settle_report *rep, char *buf,
			   size_t len)
{
	size_t pre = 0, all = 0;

	for (size_t i = 0; i < rep->nresults; i++) {
		pre += rep->results[i].preempted;
		all += rep->results[i].nsamples;
	}
	buf[0] = '\0';
	if (pre)
		snprintf(buf, len, " (%zu of %zu samples preempted: their "
			 "times hold other tasks' time slices)", pre, all);
}

static void noise(const struct settle_report *rep, struct settle_view *v)
{
	const struct settle_noise *n = &rep->noise;
	int unknown = !n->governor[0] || !strcmp(n->governor, "unknown");
	int hv = rep->machine.hypervisor;
	char drift[96], other[48], steal[32], pre[96];

	if (!n->known) {
		snprintf(v->noise, sizeof(v->noise), "unknown (%s does not "
			 "record it)", rep->source[0] ? rep->source :
			 "the result");
		settle_escape_in(v->noise, sizeof(v->noise));
		return;
	}
	drift_text(n, drift, sizeof(drift));
	preempted_text(rep, pre, sizeof(pre));
	other[0] = '\0';
	if (n->other_cpus >= 0)
		snprintf(other, sizeof(other), ", %.2f CPUs busy with other "
			 "work", n->other_cpus);
	if (n->steal_pct >= 0)
		snprintf(steal, sizeof(steal), "%.1f%% steal", n->steal_pct);
	else
		snprintf(steal, sizeof(steal), "steal unknown");
	snprintf(v->noise, sizeof(v->noise), "load %.2f at the start%s, "
		 "%s, %ld+%ld (voluntary+involuntary) context "
		 "switches%s, %ld migrations, frequency scaling %s%s, %score "
		 "clock %s",
		 n->loadavg, other, steal, n->nvcsw, n->nivcsw, pre,
		 n->migrations,
		 unknown ? "unknown" : n->governor,
		 unknown ? " (no cpufreq in sysfs)" : "",
		 hv > 0 ? "under a hypervisor, " : hv == 0 ? "bare metal, " :
		 "", drift);
	settle_escape_in(v->noise, sizeof(v->noise));
	if (settle_noise_drift_known(n) && settle_noise_drifted(n->drift_pct))
		warn(v, "the core clock drifted by %+.1f%% during the run",
		     n->drift_pct);
	if (settle_noise_stolen(n->steal_pct))
		warn(v, "the hypervisor stole %.1f%% of the CPU time",
		     n->steal_pct);
	if (settle_noise_busy(n) && n->other_cpus >= 0)
		warn(v, "other work kept %.2f CPUs busy during the run, on "
		     "average", n->other_cpus);
	else if (settle_noise_busy(n)) /* a file without other_cpus */
		warn(v, "other load on the machine (load average %.2f)",
		     n->loadavg);
	if (n->migrations)
		warn(v, "%ld samples ran on another CPU", n->migrations);
	if (rep->machine.emulator[0])
		warn(v, "this CPU was emulated by %s: the times are not "
		     "measurements", rep->machine.emulator);
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
		if (claim(v, rep, c, &v->claims[v->nclaims++]) < 0) {
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
		for (size_t j = 0; j < v->claims[i].nlines; j++)
			free(v->claims[i].lines[j].text);
		free(v->claims[i].lines);
	}
	free(v->claims);
	v->claims = NULL;
	v->nclaims = 0;
	for (size_t i = 0; i < v->nstrings; i++)
		free(v->strings[i]);
	free(v->strings);
	v->strings = NULL;
	v->nstrings = 0;
}
