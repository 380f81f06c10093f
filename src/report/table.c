/*
 * table.c - terminal tables: the machine, then one table per claim shaped
 * like the original post, then the claim's scale section.
 */
#include <stdio.h>
#include <string.h>

#include "report/report.h"

static void caches_line(FILE *f, const struct settle_machine *m)
{
	char sz[32];

	fprintf(f, "  caches:");
	if (m->ncaches == 0)
		fprintf(f, " unknown");
	for (size_t i = 0; i < m->ncaches; i++) {
		const struct settle_cache *c = &m->caches[i];

		fprintf(f, "%s L%d%s %s", i ? "," : "", c->level,
			strcmp(c->type, "Data") == 0 ? "d" :
			strcmp(c->type, "Instruction") == 0 ? "i" : "",
			settle_format_size(c->size_bytes, sz, sizeof(sz)));
	}
	fprintf(f, "\n");
}

static void clock_line(FILE *f, const struct settle_report *rep)
{
	const struct settle_timer_info *t = &rep->timer;

	if (t->clock != SETTLE_CLOCK_MONOTONIC)
		fprintf(f, "  clock: %s at %.3f GHz (%s)",
			settle_clock_label(t->clock), t->tsc_ghz, t->why);
	else
		fprintf(f, "  clock: clock_gettime(CLOCK_MONOTONIC_RAW) (%s)",
			t->why);
	fprintf(f, ", read cost %.1f ns, resolution %.1f ns\n",
		t->overhead_ns, t->resolution_ns);
	if (t->core_ghz > 0)
		fprintf(f, "  core clock: ~%.2f GHz (estimated from a dependent "
			"add chain, 1 cycle per add)\n", t->core_ghz);
}

static void machine_head(FILE *f, const struct settle_report *rep)
{
	const struct settle_machine *m = &rep->machine;

	fprintf(f, "machine: %s (%s family %u model %u stepping %u), "
		"%ld logical CPUs%s%s\n",
		m->model_name[0] ? m->model_name : "unknown CPU", m->vendor,
		m->family, m->model, m->stepping, m->logical_cpus,
		m->hypervisor ? ", hypervisor " : "",
		m->hypervisor ? (m->hypervisor_vendor[0] ?
				 m->hypervisor_vendor : "present") : "");
	if (m->emulator[0])
		fprintf(f, "  warning: this CPU is emulated by %s: the times "
			"below are not measurements\n", m->emulator);
	fprintf(f, "  ISA: %s\n", m->isa);
	caches_line(f, m);
	fprintf(f, "  kernel: %s; seccomp %s\n", m->kernel, m->seccomp);
	fprintf(f, "  primitives: popcount %s, bswap %s\n",
		m->popcount_impl[0] ? m->popcount_impl : "unknown",
		m->bswap_impl[0] ? m->bswap_impl : "unknown");
	clock_line(f, rep);
	fprintf(f, "  build: %s, %s\n", rep->compiler, rep->build_flags);
}

void settle_print_machine(FILE *f, const struct settle_report *rep)
{
	machine_head(f, rep);
	fprintf(f, "  mitigations: %s\n",
		rep->machine.mitigations[0] ? rep->machine.mitigations : "unknown");
	fprintf(f, "  pinned to CPU %d\n", rep->cpu);
}

static const char *label(const struct settle_result *r, char *buf,
			 size_t len)
{
	return settle_variant_label(r->variant, buf, len);
}

static int label_width(const struct settle_report *rep,
		       const struct settle_claim *c)
{
	char b[96];
	int w = 7;

	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c &&
		    (int)strlen(label(&rep->results[i], b, sizeof(b))) > w)
			w = (int)strlen(b);
	return w;
}

/* ratio [95 % interval] verdict, or the baseline's mark. */
static void print_verdict(FILE *f, const struct settle_result *r)
{
	const struct settle_comparison *c = &r->cmp;
	char ci[40];

	if (!r->has_cmp) {
		fprintf(f, " %7s  %-17s %s", r->ratio > 0 ? "1.000x" : "-", "",
			r->ratio > 0 ? "baseline" : "");
		return;
	}
	if (c->ratio > 0)
		snprintf(ci, sizeof(ci), "[%.3f, %.3f]", c->lo, c->hi);
	else
		snprintf(ci, sizeof(ci), "-");
	fprintf(f, " %6.3fx  %-17s %s", c->ratio, ci,
		settle_verdict_name(c->verdict));
	if (c->why)
		fprintf(f, " (%s)", c->why);
}

static void row(FILE *f, const struct settle_result *r, int w, int bytes)
{
	const struct settle_claim *c = r->claim;
	char sz[32], med[32], min[32], lb[96];

	if (c->default_sizes)
		fprintf(f, "  %-9s", settle_format_size(r->size_bytes, sz,
							sizeof(sz)));
	else
		fprintf(f, "  ");
	fprintf(f, "%-*s", w, label(r, lb, sizeof(lb)));
	if (r->skipped) {
		fprintf(f, "  skipped: %s\n", r->skipped);
		return;
	}
	if (r->below_resolution) {
		fprintf(f, "  below resolution: a sample lasted under 1000x "
			"the clock's resolution\n");
		return;
	}
	fprintf(f, " %11s %11s %6.1f%%%s",
		settle_format_ns(r->sum.median, med, sizeof(med)),
		settle_format_ns(r->sum.min, min, sizeof(min)),
		100 * settle_safe_div(r->sum.mad, r->sum.median),
		r->unstable ? "!" : " ");
	if (bytes)
		fprintf(f, " %8.2f", r->bytes_per_ns);
	if (c->show_cycles)
		fprintf(f, " %8.2f", r->cycles_per_op);
	print_verdict(f, r);
	if (r->variant->flags & SETTLE_REFERENCE)
		fprintf(f, "  (reference)");
	fprintf(f, "\n");
}

/* Do c's variants come in builds or parameter sets? */
static int grouped(const struct settle_report *rep, const struct settle_claim *c)
{
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_variant *v = rep->results[i].variant;

		if (rep->results[i].claim == c && (v->build || v->nparams))
			return 1;
	}
	return 0;
}

static const char *cycles_note(const struct settle_report *rep,
			       const struct settle_claim *c)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c && rep->results[i].cycles_source &&
		    !strcmp(rep->results[i].cycles_source, "perf_event_open"))
			return "counted with perf_event_open (mean per operation)";
	return "median x core clock estimated from an add chain (no hardware "
	       "counters)";
}

static int any_unstable(const struct settle_report *rep,
			const struct settle_claim *c)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c && rep->results[i].unstable &&
		    !rep->results[i].skipped)
			return 1;
	return 0;
}

static void claim_table(FILE *f, const struct settle_report *rep,
			const struct settle_claim *c)
{
	int w = label_width(rep, c);
	int bytes = c->bytes_per_op == SETTLE_BYTES_SIZE;
	char head[48];

	fprintf(f, "\n%s\n", c->title ? c->title : c->name);
	snprintf(head, sizeof(head), "per %s", c->op_name ? c->op_name : "op");
	fprintf(f, "  %s%-*s %11s %11s %8s", c->default_sizes ? "size     " : "",
		w, "variant", head, "best", "+-MAD ");
	if (bytes)
		fprintf(f, " %8s", "B/ns");
	if (c->show_cycles)
		fprintf(f, " %8s", "cycles");
	fprintf(f, " %7s  %-17s %s\n", "ratio", "95% interval", "verdict");
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c)
			row(f, &rep->results[i], w, bytes);
	fprintf(f, "  median of %u samples; ratio = time / time of '%s'%s"
		" in the same rounds\n", rep->options.samples, c->baseline,
		grouped(rep, c) ? " of the same build and parameters" : "");
	if (rep->options.processes > 1)
		fprintf(f, "  (below 1 is faster; %u fresh processes, one "
			"Hodges-Lehmann estimate each,\n  95%% Student t "
			"interval over processes; band +-%g%%)\n",
			rep->options.processes, rep->options.band * 100);
	else
		fprintf(f, "  (below 1 is faster; Hodges-Lehmann estimate, 95%% "
			"signed-rank interval; band +-%g%%)\n",
			rep->options.band * 100);
	if (c->show_cycles)
		fprintf(f, "  cycles: %s\n", cycles_note(rep, c));
	if (any_unstable(rep, c))
		fprintf(f, "  ! unstable: spread (MAD) above 5%% of the median, "
			"or the best sample more\n  than 20%% below it; "
			"do not trust that row\n");
	if (c->original)
		fprintf(f, "  original: %s\n", c->original);
}

static void scale_section(FILE *f, const struct settle_report *rep,
			  const struct settle_claim *c)
{
	struct settle_figure fig[SETTLE_MAX_FIGURES];
	char notes[4][48], lb[96];
	size_t nnotes = 0, n;
	int head = 0, w = label_width(rep, c), cw[SETTLE_MAX_FIGURES] = { 0 };

	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];

		if (r->claim != c || !(n = settle_scale_of(rep, r, fig, SETTLE_MAX_FIGURES)))
			continue;
		if (!head) {
			fprintf(f, "  in the claim's terms:\n  %*s", w, "");
			for (size_t k = 0; k < n; k++) {
				cw[k] = (int)strlen(fig[k].label);
				cw[k] = cw[k] < 16 ? 16 : cw[k];
				fprintf(f, "  %*s", cw[k], fig[k].label);
			}
			fprintf(f, "\n");
			head = 1;
		}
		fprintf(f, "  %-*s", w, label(r, lb, sizeof(lb)));
		for (size_t k = 0; k < n; k++) {
			size_t j;
			char val[40];

			for (j = 0; j < nnotes && strcmp(notes[j], fig[k].note); j++)
				;
			if (fig[k].note[0] && j == nnotes && nnotes < 4)
				snprintf(notes[nnotes++], 48, "%s", fig[k].note);
			/* one star for the first note, two for the second */
			snprintf(val, sizeof(val), fig[k].value >= 1000 ?
				 "%.0f %s%.*s" : "%.4g %s%.*s", fig[k].value,
				 fig[k].unit, fig[k].note[0] ? (int)j + 1 : 0,
				 "****");
			fprintf(f, "  %*s", cw[k], val);
		}
		fprintf(f, "\n");
	}
	for (size_t j = 0; j < nnotes; j++)
		fprintf(f, "  %.*s %s\n", (int)j + 1, "****", notes[j]);
}

static void noise_section(FILE *f, const struct settle_report *rep)
{
	const struct settle_noise *n = &rep->noise;

	fprintf(f, "\nnoise: load %.2f at the start, %.1f%% steal, %ld+%ld "
		"(voluntary+involuntary) context switches, %ld migrations,\n  frequency scaling %s%s, "
		"%s, core clock %.2f -> %.2f GHz (%+.1f%%)\n",
		n->loadavg, n->steal_pct, n->nvcsw, n->nivcsw, n->migrations,
		n->governor, strcmp(n->governor, "unknown") ? "" :
		" (no cpufreq in sysfs)",
		rep->machine.hypervisor ? "under a hypervisor" : "bare metal",
		n->core_ghz_before, n->core_ghz_after, n->drift_pct);
	if (n->drift_pct > 1 || n->drift_pct < -1)
		fprintf(f, "  warning: the core clock drifted by %+.1f%% during "
			"the run\n", n->drift_pct);
	if (n->steal_pct > 1)
		fprintf(f, "  warning: the hypervisor stole %.1f%% of the CPU "
			"time\n", n->steal_pct);
	if (n->loadavg > 0.5)
		fprintf(f, "  warning: other load on the machine (load "
			"average %.2f)\n", n->loadavg);
	if (n->migrations)
		fprintf(f, "  warning: %ld samples ran on another CPU\n",
			n->migrations);
}

void settle_print_table(FILE *f, const struct settle_report *rep)
{
	const struct settle_claim *seen[64];
	size_t nseen = 0;

	machine_head(f, rep);
	fprintf(f, "  pinned to CPU %d; %u samples per variant, each >= %.1f ms%s\n",
		rep->cpu, rep->options.samples, rep->options.min_sample_ns / 1e6,
		rep->options.quick ? " (--quick)" : "");
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_claim *c = rep->results[i].claim;
		size_t j;

		for (j = 0; j < nseen && seen[j] != c; j++)
			;
		if (j < nseen || nseen == 64)
			continue;
		seen[nseen++] = c;
		claim_table(f, rep, c);
		scale_section(f, rep, c);
	}
	if (nseen)
		noise_section(f, rep);
}
