/*
 * json.c - the result file (RFC 8259 JSON, schema SETTLE_SCHEMA).
 *
 * Every sample is written, never only a summary, so any statistic can be
 * recomputed later. Numbers are printed in the C locale (switched to for
 * the writer's thread, whatever the program's locale), non-finite values as
 * null, strings as pure ASCII with \u escapes (surrogate pairs beyond the
 * BMP, U+FFFD for invalid UTF-8). For settle compare, one JSON document
 * with every comparison (schema "settle-compare/1").
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report/format.h"
#include "report/share.h"
#include "stats/rules.h"
#include "util/util.h"

static void jstr(FILE *f, const char *s)
{
	settle_json_string(f, s);
}

static void jnum(FILE *f, double v)
{
	settle_json_number(f, v);
}

/* A sample: every digit it has (%.17g), so that a file read back gives
 * the same samples, bit for bit, and the same statistics. */
static void sample(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else
		fprintf(f, "%.17g", v);
}

/* A calibrated value: 0 is unknown, written as null. */
static void jknown(FILE *f, double v)
{
	jnum(f, v > 0 ? v : NAN);
}

static void jkey(FILE *f, const char *k)
{
	jstr(f, k);
	fputs(": ", f);
}

static void write_isa(FILE *f, const char *isa)
{
	char buf[sizeof(((struct settle_machine *)0)->isa)], *save, *tok;
	int first = 1;

	snprintf(buf, sizeof(buf), "%s", isa);
	fputc('[', f);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		fputs(first ? "" : ", ", f);
		jstr(f, tok);
		first = 0;
	}
	fputc(']', f);
}

static void write_noise(FILE *f, const struct settle_noise *n)
{
	if (!n->known) {
		fputs("  \"noise\": null,\n", f);
		return;
	}
	fputs("  \"noise\": {\"loadavg\": ", f); jnum(f, n->loadavg);
	fputs(", \"steal_pct\": ", f);
	jnum(f, n->steal_pct >= 0 ? n->steal_pct : NAN);
	fprintf(f, ", \"voluntary_switches\": %ld, \"involuntary_switches\": "
		"%ld, \"migrations\": %ld, ", n->nvcsw, n->nivcsw,
		n->migrations);
	jkey(f, "frequency_governor"); jstr(f, n->governor);
	fputs(", \"core_ghz_before\": ", f); jknown(f, n->core_ghz_before);
	fputs(", \"core_ghz_after\": ", f); jknown(f, n->core_ghz_after);
	fputs(", \"core_clock_drift_pct\": ", f);
	jnum(f, settle_noise_drift_known(n) ? n->drift_pct : NAN);
	if (n->other_cpus >= 0) {
		fputs(", \"other_cpus\": ", f); jnum(f, n->other_cpus);
	}
	if (n->seconds > 0) {
		fputs(", \"seconds\": ", f); jnum(f, n->seconds);
	}
	fputs("},\n", f);
}

static void write_machine(FILE *f, const struct settle_report *rep)
{
	const struct settle_machine *m = &rep->machine;
	const struct settle_timer_info *t = &rep->timer;

	fputs("  \"machine\": {\n    ", f);
	jkey(f, "vendor"); jstr(f, m->vendor);
	fputs(",\n    ", f); jkey(f, "model_name"); jstr(f, m->model_name);
	fprintf(f, ",\n    \"family\": %u, \"model\": %u, \"stepping\": %u",
		m->family, m->model, m->stepping);
	fputs(",\n    \"isa\": ", f); write_isa(f, m->isa);
	fputs(",\n    \"caches\": [", f);
	for (size_t i = 0; i < m->ncaches; i++) {
		fprintf(f, "%s{\"level\": %d, \"type\": ", i ? ", " : "",
			m->caches[i].level);
		jstr(f, m->caches[i].type);
		fprintf(f, ", \"size_bytes\": %llu}",
			(unsigned long long)m->caches[i].size_bytes);
	}
	fputs("]", f);
	if (m->caches_source[0]) { /* only then: as "emulator" below */
		fputs(",\n    ", f); jkey(f, "caches_source");
		jstr(f, m->caches_source);
	}
	fprintf(f, ",\n    \"logical_cpus\": %ld", m->logical_cpus);
	fputs(",\n    ", f); jkey(f, "kernel"); jstr(f, m->kernel);
	fprintf(f, ",\n    \"hypervisor\": %s", m->hypervisor < 0 ? "null" :
		m->hypervisor ? "true" : "false");
	fputs(",\n    ", f); jkey(f, "hypervisor_vendor"); jstr(f, m->hypervisor_vendor);
	if (m->emulator[0]) { /* only then: older readers know no such key */
		fputs(",\n    ", f); jkey(f, "emulator"); jstr(f, m->emulator);
	}
	fputs(",\n    ", f); jkey(f, "seccomp"); jstr(f, m->seccomp);
	fputs(",\n    ", f); jkey(f, "mitigations"); jstr(f, m->mitigations);
	fprintf(f, ",\n    \"mem_available_bytes\": %llu",
		(unsigned long long)m->mem_available);
	fputs(",\n    \"primitives\": {", f);
	jkey(f, "popcount"); jstr(f, m->popcount_impl);
	fputs(", ", f); jkey(f, "bswap"); jstr(f, m->bswap_impl);
	if (m->bswap_sizes[0]) {
		fputs(", ", f); jkey(f, "bswap_sizes"); jstr(f, m->bswap_sizes);
	}
	if (m->read_limit[0]) {
		fputs(", ", f); jkey(f, "read_limit"); jstr(f, m->read_limit);
	}
	if (m->read_limit_timed)
		fprintf(f, ", \"read_limit_timed\": {\"processes\": %u, "
			"\"chose_256_bit\": %u}", m->read_limit_timed,
			m->read_limit_timed_256);
	fputs("}", f);
	fputs(",\n    \"tsc_ghz\": ", f); jknown(f, t->tsc_ghz);
	fputs(",\n    \"core_ghz_estimate\": ", f); jknown(f, t->core_ghz);
	fputs(",\n    \"core_ghz_source\": \"dependent add reg,reg chain\"", f);
	fputs("\n  },\n  \"timer\": {", f);
	jkey(f, "clock");
	jstr(f, settle_clock_name(t->clock));
	fputs(", ", f); jkey(f, "why"); jstr(f, t->why);
	fputs(", \"overhead_ns\": ", f); jknown(f, t->overhead_ns);
	fputs(", \"resolution_ns\": ", f); jnum(f, t->resolution_ns);
	fputs("},\n", f);
	write_noise(f, &rep->noise);
}

static void write_build(FILE *f, const struct settle_report *rep)
{
	const struct settle_options *o = &rep->options;

	fputs("  \"build\": {", f);
	jkey(f, "compiler"); jstr(f, rep->compiler);
	fputs(", ", f); jkey(f, "flags"); jstr(f, rep->build_flags);
	fputs(", ", f); jkey(f, "novec_flags"); jstr(f, rep->novec_flags);
	if (rep->claims_built[0]) {
		fputs(", ", f); jkey(f, "claims_built_with");
		jstr(f, rep->claims_built);
	}
	fputs("},\n  \"settings\": {", f);
	fprintf(f, "\"samples\": %u, \"min_sample_ns\": ", o->samples);
	jnum(f, o->min_sample_ns);
	if (rep->cpu >= 0)
		fprintf(f, ", \"cpu\": %d", rep->cpu);
	else
		fputs(", \"cpu\": null", f);
	fprintf(f, ", \"quick\": %s, \"full\": %s, \"device_mbps\": ",
		o->quick ? "true" : "false", o->full ? "true" : "false");
	jnum(f, o->device_mbps);
	if (o->band > 0) { /* a report made without settings has none */
		fputs(", \"equivalence_band\": ", f);
		jnum(f, o->band);
	}
	fprintf(f, ", \"processes\": %u", o->processes ? o->processes : 1);
	if (o->layouts > 1)
		fprintf(f, ", \"layouts\": %u", o->layouts);
	else if (o->layout_first)
		fprintf(f, ", \"layouts\": 1, \"layout\": %u",
			o->layout_first);
	if (rep->order[0]) {
		fputs(", ", f); jkey(f, "order");
		jstr(f, rep->order);
	}
	fputs("},\n", f);
}

/* Is p's value a JSON number (int) or true/false (bool) as it stands, one
 * a reader keeps (an integer beyond 64 bits: jansson refuses it, "too
 * big integer")? Anything else is written as a string. */
static int raw_value_ok(const struct settle_param *p)
{
	const char *v = p->value;

	if (!v || p->type == SETTLE_PARAM_STRING)
		return 0;
	if (p->type == SETTLE_PARAM_BOOL)
		return !strcmp(v, "true") || !strcmp(v, "false");
	if (!strpbrk(v, ".eE"))
		return settle_int64_text(v);
	/* RFC 8259 number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
	if (*v == '-')
		v++;
	if (*v == '0')
		v++;
	else if (*v >= '1' && *v <= '9')
		while (*v >= '0' && *v <= '9')
			v++;
	else
		return 0;
	if (*v == '.') {
		if (*++v < '0' || *v > '9')
			return 0;
		while (*v >= '0' && *v <= '9')
			v++;
	}
	if (*v == 'e' || *v == 'E') {
		v++;
		if (*v == '+' || *v == '-')
			v++;
		if (*v < '0' || *v > '9')
			return 0;
		while (*v >= '0' && *v <= '9')
			v++;
	}
	return *v == '\0' && isfinite(strtod(p->value, NULL));
}

void settle_json_params(FILE *f, const char *key,
			const struct settle_result *r)
{
	int any = 0;

	jkey(f, key);
	fputc('{', f);
	if (r->claim->sized) {
		fprintf(f, "\"size_bytes\": %llu", (unsigned long long)r->size_bytes);
		any = 1;
	}
	if (r->build) {
		fputs(any ? ", " : "", f);
		jkey(f, "build");
		jstr(f, r->build);
		any = 1;
	}
	for (size_t i = 0; i < r->nparams; i++) {
		const struct settle_param *p = &r->params[i];

		fputs(any ? ", " : "", f);
		jkey(f, p->key);
		if (raw_value_ok(p))
			fputs(p->value, f); /* a number or true/false */
		else
			jstr(f, p->value);
		any = 1;
	}
	fputs("}", f);
}

static void write_cmp(FILE *f, const struct settle_comparison *c)
{
	fputs(", \"vs_baseline\": {\"ratio\": ", f); jnum(f, c->ratio);
	fputs(", \"ci_low\": ", f); jnum(f, c->lo);
	fputs(", \"ci_high\": ", f); jnum(f, c->hi);
	fputs(", \"ci_level\": ", f); jnum(f, c->level);
	fprintf(f, ", \"n\": %zu, ", c->n);
	jkey(f, "verdict"); jstr(f, settle_verdict_name(c->verdict));
	if (c->why) {
		fputs(", ", f); jkey(f, "why"); jstr(f, c->why);
	}
	fputs(", ", f); jkey(f, "method"); jstr(f, c->method);
	fputs("}", f);
}

void settle_json_evidence(FILE *f, const struct settle_result *r)
{
	if (r->invalid[0]) {
		fputs(",\n     ", f);
		jkey(f, "invalid");
		jstr(f, r->invalid);
	}
	if (r->nrepeat) {
		fprintf(f, ",\n     \"repetition_check\": {\"iterations\": "
			"%llu, \"iterations_2x\": %llu, \"ns_1x\": [",
			(unsigned long long)r->iters,
			(unsigned long long)r->repeat_iters);
		for (size_t i = 0; i < r->nrepeat; i++) {
			fputs(i ? ", " : "", f);
			sample(f, r->repeat1_ns[i]);
		}
		fputs("], \"ns_2x\": [", f);
		for (size_t i = 0; i < r->nrepeat; i++) {
			fputs(i ? ", " : "", f);
			sample(f, r->repeat2_ns[i]);
		}
		fprintf(f, "], \"blocked\": %s}",
			r->repeat_blocked ? "true" : "false");
	}
	if (r->read_limit_bpns > 0) {
		fputs(", \"read_limit_bytes_per_ns\": ", f);
		jnum(f, r->read_limit_bpns);
	}
}

static void write_result(FILE *f, const struct settle_report *rep,
			 const struct settle_result *r)
{
	const struct settle_figure *fig = r->figures;
	size_t n = r->nfigures;

	fputs("    {", f);
	jkey(f, "claim"); jstr(f, r->claim->name);
	fputs(", ", f); jkey(f, "variant"); jstr(f, r->variant);
	fputs(", ", f); jkey(f, "label");
	jstr(f, r->label);
	fputs(", ", f); settle_json_params(f, "params", r);
	fprintf(f, ",\n     \"reference\": %s,%s \"iterations\": %llu, "
		"\"ops_per_sample\": %llu, \"check\": \"%llu\",\n     \"samples_ns\": [",
		r->reference ? "true" : "false",
		r->unaligned_code ? " \"unaligned_code\": true," : "",
		(unsigned long long)r->iters,
		(unsigned long long)r->ops_per_sample,
		(unsigned long long)r->check);
	for (size_t i = 0; i < r->nsamples; i++) {
		fputs(i ? ", " : "", f);
		sample(f, r->samples_ns[i]);
	}
	if (r->sample_layouts) {
		fputs("],\n     \"sample_layouts\": [", f);
		for (size_t i = 0; i < r->nsamples; i++)
			fprintf(f, "%s%u", i ? ", " : "", r->sample_layouts[i]);
	}
	if (settle_result_cpu_known(r)) {
		fputs("],\n     \"samples_cpu_ns\": [", f);
		for (size_t i = 0; i < r->nsamples; i++)
			fprintf(f, "%s%.9g", i ? ", " : "",
				r->samples_cpu_ns[i]);
	}
	fputs("],\n     \"median_ns\": ", f); jnum(f, r->sum.median);
	fputs(", \"min_ns\": ", f); jnum(f, r->sum.min);
	fputs(", \"mean_ns\": ", f); jnum(f, r->sum.mean);
	fputs(", \"mad_ns\": ", f); jnum(f, r->sum.mad);
	fputs(", \"cv\": ", f); jnum(f, r->sum.cv);
	fputs(",\n     \"ratio\": ", f); jnum(f, r->ratio);
	fputs(", \"bytes_per_ns\": ", f); jnum(f, r->bytes_per_ns);
	fputs(", \"cycles_per_op\": ", f); jknown(f, r->cycles_per_op);
	fputs(", ", f); jkey(f, "cycles_source"); jstr(f, r->cycles_source);
	fputs(", \"instructions_per_op\": ", f); jnum(f, r->instructions_per_op);
	fprintf(f, ", \"unstable\": %s", r->unstable ? "true" : "false");
	fprintf(f, ",\n     \"below_resolution\": %s",
		r->below_resolution ? "true" : "false");
	if (r->shortest_sample_ns > 0) {
		fputs(", \"shortest_sample_ns\": ", f);
		jnum(f, r->shortest_sample_ns);
	}
	if (r->preempted)
		fprintf(f, ", \"preempted_samples\": %zu", r->preempted);
	if (r->nlayouts > 1) {
		fputs(",\n     \"layout_spread\": ", f);
		jnum(f, r->layout_spread);
		fputs(", \"layout_noise\": ", f); jnum(f, r->layout_noise);
		fputs(", \"layout_p\": ", f); jnum(f, r->layout_p);
		fprintf(f, ", \"layout_sensitive\": %s",
			r->layout_sensitive ? "true" : "false");
	}
	settle_json_evidence(f, r);
	if (r->has_cmp)
		write_cmp(f, &r->cmp);
	settle_json_command(f, rep, r, 0);
	fputs(", \"scale\": [", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		fputs("{", f); jkey(f, "label"); jstr(f, fig[i].label);
		fputs(", ", f); jkey(f, "unit"); jstr(f, fig[i].unit);
		fputs(", \"value\": ", f); jnum(f, fig[i].value);
		fputs(", ", f); jkey(f, "note"); jstr(f, fig[i].note);
		fputs("}", f);
	}
	fputs("]}", f);
}

static void write_skipped(FILE *f, const struct settle_report *rep)
{
	int first = 1;

	fputs("  \"skipped\": [", f);
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];

		if (!r->skipped)
			continue;
		fputs(first ? "\n    {" : ",\n    {", f);
		jkey(f, "claim"); jstr(f, r->claim->name);
		fputs(", ", f); jkey(f, "variant"); jstr(f, r->variant);
		fputs(", ", f); settle_json_params(f, "params", r);
		fputs(", ", f); jkey(f, "reason"); jstr(f, r->skipped);
		/* where the row stands among all (results[] holds the others
		 * in order), so that show prints the rows as run did */
		fprintf(f, ", \"position\": %zu}", i);
		first = 0;
	}
	fputs("]\n", f);
}

/* The view of claim c, or NULL. */
static const struct settle_view_claim *view_of(const struct settle_view *v,
					       const struct settle_claim_info *c)
{
	for (size_t i = 0; v && i < v->nclaims; i++)
		if (v->claims[i].claim == c)
			return &v->claims[i];
	return NULL;
}

/* A claim's conclusion: the sentence, its numbers, the rows it rests on
 * (whether it is settled is decided again by every reader). */
static void write_conclusion(FILE *f, const struct settle_conclusion *k,
			     const struct settle_view_claim *vc)
{
	fputs(",\n      \"conclusion\": {", f);
	if (vc && vc->has_conclusion) {
		jkey(f, "status");
		jstr(f, vc->settled ? "settled" : "not settled");
		if (vc->reason) {
			fputs(", ", f); jkey(f, "reason"); jstr(f, vc->reason);
		}
		fputs(", ", f);
	}
	jkey(f, "sentence"); jstr(f, k->sentence);
	fputs(", \"numbers\": [", f);
	for (size_t i = 0; i < k->nnumbers; i++) {
		fputs(i ? ", {" : "{", f);
		jkey(f, "name"); jstr(f, k->numbers[i].name);
		fputs(", \"value\": ", f); jnum(f, k->numbers[i].value);
		fputs(", ", f); jkey(f, "unit"); jstr(f, k->numbers[i].unit);
		fputs("}", f);
	}
	fputs("], \"rows\": [", f);
	for (size_t i = 0; i < k->nrows; i++) {
		fputs(i ? ", {" : "{", f);
		jkey(f, "label"); jstr(f, k->rows[i].label);
		fprintf(f, ", \"size_bytes\": %llu",
			(unsigned long long)k->rows[i].size_bytes);
		fputs(k->rows[i].by_time ? ", \"by\": \"time\"}" : "}", f);
	}
	fputs("]}", f);
}

/* Result i is its claim's first in the report. */
static int first_of_claim(const struct settle_report *rep, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (rep->results[j].claim == rep->results[i].claim)
			return 0;
	return 1;
}

/* What a reader needs to print a claim's table again, for every claim
 * (a file refers to none it does not describe). */
void settle_json_claims(FILE *f, const char *key,
			const struct settle_report *rep,
			const struct settle_view *v)
{
	size_t nseen = 0;

	fputs("  ", f);
	jkey(f, key);
	fputc('{', f);
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_claim_info *c = rep->results[i].claim;

		if (!first_of_claim(rep, i))
			continue;
		nseen++;
		fputs(nseen > 1 ? ",\n    " : "\n    ", f);
		jstr(f, c->name);
		fputs(": {", f);
		jkey(f, "description"); jstr(f, c->description);
		fputs(", ", f); jkey(f, "title"); jstr(f, c->title ? c->title : c->name);
		fputs(", ", f); jkey(f, "op_name"); jstr(f, c->op_name ? c->op_name : "op");
		fputs(", ", f); jkey(f, "baseline"); jstr(f, c->baseline);
		fprintf(f, ", \"sizes\": %s, \"bytes_per_op\": ",
			c->sized ? "true" : "false");
		if (c->bytes_per_op == SETTLE_BYTES_SIZE)
			fputs("\"size\"", f);
		else
			fprintf(f, "%llu", (unsigned long long)c->bytes_per_op);
		fprintf(f, ", \"show_cycles\": %s", c->show_cycles ? "true" : "false");
		if (c->original) {
			fputs(", ", f); jkey(f, "original"); jstr(f, c->original);
		}
		if (c->conclusion)
			write_conclusion(f, c->conclusion, view_of(v, c));
		fputs("}", f);
	}
	fputs("\n  },\n", f);
}

static void result_file(FILE *f, const struct settle_report *rep,
			const struct settle_view *v)
{
	char when[24];
	int first = 1;

	/* the run's time, kept by settle show --format json ("" when the
	 * file it was read from did not say) */
	when[0] = '\0';
	if (!rep->created[0] && !rep->source[0])
		settle_utc_now(when, sizeof(when));
	fprintf(f, "{\n  \"schema\": \"%s\",\n  \"created\": \"%s\",\n",
		SETTLE_SCHEMA, rep->created[0] ? rep->created : when);
	write_machine(f, rep);
	write_build(f, rep);
	settle_json_claims(f, "claims", rep, v);
	fputs("  \"results\": [", f);
	for (size_t i = 0; i < rep->nresults; i++) {
		if (rep->results[i].skipped)
			continue;
		fputs(first ? "\n" : ",\n", f);
		write_result(f, rep, &rep->results[i]);
		first = 0;
	}
	fputs("\n  ],\n", f);
	write_skipped(f, rep);
	fputs("}\n", f);
}

static void report(FILE *f, const struct settle_view *v)
{
	result_file(f, v->rep, v);
}

/* ---- compare ----------------------------------------------------------- */

/* One comparison as a JSON object. */
static void compare_row(FILE *f, const struct settle_compare_section *s,
			const struct settle_compare_row *w)
{
	const struct settle_result *r = w->new_r;
	int m = w->status == SETTLE_CMP_MEASURED;

	fputs("{", f); jkey(f, "old_file"); jstr(f, s->old->source);
	fputs(", ", f); jkey(f, "new_file"); jstr(f, s->nw->source);
	fputs(", ", f); jkey(f, "claim"); jstr(f, r->claim->name);
	fputs(", ", f); jkey(f, "variant"); jstr(f, r->variant);
	fputs(", ", f); jkey(f, "label"); jstr(f, r->label);
	fputs(", ", f); settle_json_params(f, "params", r);
	fprintf(f, ", \"n_old\": %zu, \"n_new\": %zu", w->n_old, w->n_new);
	fputs(", \"old_median_ns\": ", f); jnum(f, m ? w->old_median : NAN);
	fputs(", \"new_median_ns\": ", f); jnum(f, m ? w->new_median : NAN);
	fputs(", \"change_pct\": ", f); jnum(f, m ? w->change : NAN);
	fputs(", \"ci_low_pct\": ", f); jnum(f, m && w->ci ? w->lo : NAN);
	fputs(", \"ci_high_pct\": ", f); jnum(f, m && w->ci ? w->hi : NAN);
	fputs(", ", f); jkey(f, "verdict");
	jstr(f, w->verdict[0] ? w->verdict : "undefined");
	fputs(", \"why\": ", f);
	if (w->why)
		jstr(f, w->why);
	else
		fputs("null", f);
	fprintf(f, ", \"unstable\": %s, \"layout_sensitive\": %s}",
		w->mark[0] ? "true" : "false",
		w->lmark && w->lmark[0] ? "true" : "false");
}

static void names(FILE *f, const char *key, char (*v)[400], size_t n)
{
	fputs(", ", f);
	jkey(f, key);
	fputs("[", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		jstr(f, v[i]);
	}
	fputs("]", f);
}

static void compare(FILE *f, const struct settle_compare_view *cv)
{
	fputs("{\n  \"schema\": \"settle-compare/1\",\n  \"equivalence_band\": ", f);
	jnum(f, cv->band);
	fputs(",\n  \"comparisons\": [", f);
	for (size_t k = 0; k < cv->nsections; k++) {
		const struct settle_compare_section *s = &cv->sections[k];

		fputs(k ? ",\n    {" : "\n    {", f);
		jkey(f, "old_file"); jstr(f, s->old->source);
		fputs(", ", f); jkey(f, "new_file"); jstr(f, s->nw->source);
		fputs(",\n     \"rows\": [", f);
		for (size_t i = 0; i < s->nrows; i++) {
			fputs(i ? ",\n      " : "\n      ", f);
			compare_row(f, s, &s->rows[i]);
		}
		fputs("],\n     \"geometric_mean\": ", f);
		if (s->has_geomean) {
			fputs("{\"change_pct\": ", f); jnum(f, s->gm);
			fputs(", \"ci_low_pct\": ", f); jnum(f, s->gm_lo);
			fputs(", \"ci_high_pct\": ", f); jnum(f, s->gm_hi);
			fprintf(f, ", \"method\": \"%s\"}", s->gm_method);
		} else {
			fputs("null", f);
		}
		names(f, "only_in_old", s->only_old, s->nonly_old);
		names(f, "only_in_new", s->only_new, s->nonly_new);
		fputs(",\n     \"shares\": [", f);
		for (size_t i = 0; i < s->nshares; i++) {
			fputs(i ? ",\n      " : "\n      ", f);
			settle_json_share_change(f, &s->shares[i]);
		}
		fputs("]}", f);
	}
	fputs("\n  ],\n  \"differences\": [", f);
	for (size_t i = 0; i < cv->ndifferences; i++) {
		fputs(i ? ", " : "", f);
		jstr(f, cv->differences[i]);
	}
	fputs("],\n  \"warnings\": [", f);
	for (size_t i = 0; i < cv->nwarnings; i++) {
		fputs(i ? ", " : "", f);
		jstr(f, cv->warnings[i]);
	}
	fprintf(f, "],\n  \"slower\": %zu,\n  \"summary\": {\"status\": \"%s\", "
		"\"sentence\": ", cv->slower, cv->settled ? "settled" :
		"not settled");
	jstr(f, settle_conclusion_body(cv->summary, cv->settled));
	fputs("}\n}\n", f);
}

const struct settle_format settle_format_json = {
	.name = "json",
	.data = 1,
	.echo_table = 1,
	.report = report,
	.compare = compare,
};
