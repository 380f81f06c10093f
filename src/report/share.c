/*
 * share.c - the part of the result file about whole commands (see
 * share.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/share.h"
#include "util/util.h"
#include "model/command.h"
#include "view/command.h"

/* ---- the result file -------------------------------------------------- */

static void jnum(FILE *f, double v)
{
	settle_json_number(f, v);
}

static void jkey(FILE *f, const char *k)
{
	settle_json_string(f, k);
	fputs(": ", f);
}

static void jarray(FILE *f, const double *x, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		jnum(f, x[i]);
	}
	fputc(']', f);
}

/* One --share symbol: the counts (read back) and what follows from them
 * (recomputed on reading). */
static void json_symbol(FILE *f, const struct settle_result *r, size_t k)
{
	static const char *const kname[SETTLE_AMDAHL_NK] = { "2", "10",
							     "infinity" };
	const struct settle_share_count *s = &r->command->share[k];
	struct settle_share_stat st;

	fputs("{", f); jkey(f, "symbol"); settle_json_string(f, s->symbol);
	fprintf(f, ", \"self\": %llu, \"children\": %llu",
		(unsigned long long)s->self, (unsigned long long)s->children);
	if (s->impl) {
		fprintf(f, ", \"implementation\": {\"samples\": %llu, "
			"\"name\": ", (unsigned long long)s->impl);
		settle_json_string(f, s->impl_name);
		fputs("}", f);
	}
	if (s->no_debug[0]) {
		fputs(", ", f); jkey(f, "without_debug_info");
		settle_json_string(f, s->no_debug);
	}
	if (settle_share_of(r, k, &st) < 0) {
		if (st.samples && s->children == 0) {
			/* in no sample: its upper bound, never a 0 % share */
			fputs(", \"with_callees_ci\": [0, ", f);
			jnum(f, st.with_hi);
			fputs("]", f);
		}
		fputs("}", f);
		return;
	}
	fputs(", \"self_share\": ", f); jnum(f, st.self);
	fputs(", \"self_ci\": [", f); jnum(f, st.self_lo);
	fputs(", ", f); jnum(f, st.self_hi);
	fputs("], \"with_callees_share\": ", f); jnum(f, st.with);
	fputs(", \"with_callees_ci\": [", f); jnum(f, st.with_lo);
	fputs(", ", f); jnum(f, st.with_hi);
	fputs("], \"cpu_ns\": ", f); jnum(f, st.cpu_ns);
	fputs(", \"off_cpu_ns\": ", f); jnum(f, st.off_ns);
	fputs(", \"amdahl_pct_of\": ", f);
	settle_json_string(f, st.of_cpu ? "cpu" : "wall");
	fputs(", \"amdahl_saved_ns\": {", f);
	for (size_t j = 0; j < SETTLE_AMDAHL_NK; j++) {
		fputs(j ? ", " : "", f); jkey(f, kname[j]);
		jnum(f, st.saved_ns[j]);
	}
	fputs("}, \"amdahl_saved_ci_ns\": {", f);
	for (size_t j = 0; j < SETTLE_AMDAHL_NK; j++) {
		fputs(j ? ", " : "", f); jkey(f, kname[j]);
		fputs("[", f); jnum(f, st.saved_lo_ns[j]);
		fputs(", ", f); jnum(f, st.saved_hi_ns[j]);
		fputs("]", f);
	}
	fputs("}, \"amdahl_saved_pct\": {", f);
	for (size_t j = 0; j < SETTLE_AMDAHL_NK; j++) {
		fputs(j ? ", " : "", f); jkey(f, kname[j]);
		jnum(f, st.saved_pct[j]);
	}
	fputs("}}", f);
}

static void json_profile(FILE *f, const struct settle_result *r,
			 const char *nl)
{
	const struct settle_command_data *d = r->command;

	fprintf(f, ",%s\"profile\": {", nl);
	jkey(f, "event"); settle_json_string(f, d->event);
	fprintf(f, ", \"period_ns\": %llu, \"call_chains\": %s, ",
		(unsigned long long)d->period_ns,
		d->call_chains ? "true" : "false");
	if (d->call_chains)
		fprintf(f, "\"unwind\": \"%s\", ",
			d->call_chains == SETTLE_CHAINS_DWARF ? "dwarf" : "fp");
	fprintf(f, "\"runs\": %u, ", d->profiled_runs);
	if (d->profiled_again)
		fprintf(f, "\"runs_again\": %u, ", d->profiled_again);
	fprintf(f, "\"samples\": %llu, ", (unsigned long long)d->samples);
	if (d->counted)
		fprintf(f, "\"any_symbol\": %llu, \"cut_chains\": %llu, "
			"\"unnamed_chains\": %llu, ",
			(unsigned long long)d->any,
			(unsigned long long)d->cut,
			(unsigned long long)d->unnamed);
	if (d->busy_threads)
		fprintf(f, "\"busy_threads\": %u, ", d->busy_threads);
	fputs("\"symbols\": [", f);
	for (size_t k = 0; k < d->nshare; k++) {
		fputs(k ? "," : "", f);
		fputs(*nl == ' ' ? (k ? " " : "") : "\n         ", f);
		json_symbol(f, r, k);
	}
	fputs("]}", f);
}

void settle_json_command(FILE *f, const struct settle_report *rep,
			 const struct settle_result *r, int one_line)
{
	const struct settle_command_data *d = r->command;
	const char *nl = one_line ? " " : "\n       ";
	struct settle_comparison c;
	double user, sys;

	if (!d)
		return;
	settle_command_cpu(r, &user, &sys);
	fprintf(f, ",%s\"command\": {", one_line ? " " : "\n     ");
	jkey(f, "shell"); settle_json_string(f, d->shell);
	fputs(", \"prepare\": ", f);
	if (d->prepare)
		settle_json_string(f, d->prepare);
	else
		fputs("null", f);
	if (d->stdout_pipe)
		fputs(", \"stdout\": \"pipe\"", f);
	if (d->failed_untimed)
		fprintf(f, ", \"failed_untimed_runs\": %zu", d->failed_untimed);
	fprintf(f, ", \"warmup\": %u, \"failed_runs\": %zu, "
		"\"escaped_processes\": %zu,%s\"user_ns\": ", d->warmup,
		d->failed, d->escaped, nl);
	jarray(f, d->user_ns, d->n);
	fprintf(f, ",%s\"sys_ns\": ", nl);
	jarray(f, d->sys_ns, d->n);
	fprintf(f, ",%s\"user_median_ns\": ", nl); jnum(f, user);
	fputs(", \"sys_median_ns\": ", f); jnum(f, sys);
	if (settle_command_cpu_cmp(rep, (size_t)(r - rep->results), &c) == 0) {
		fprintf(f, ",%s\"cpu_vs_baseline\": {\"ratio\": ", nl);
		jnum(f, c.ratio);
		fputs(", \"ci_low\": ", f); jnum(f, c.lo);
		fputs(", \"ci_high\": ", f); jnum(f, c.hi);
		fputs(", ", f); jkey(f, "verdict");
		settle_json_string(f, settle_verdict_name(c.verdict));
		fputs("}", f);
	}
	if (d->event[0])
		json_profile(f, r, nl);
	fputs("}", f);
}

void settle_json_share_change(FILE *f, const struct settle_compare_share *c)
{
	const double v[9] = { c->old_with, c->old_lo, c->old_hi, c->new_with,
			      c->new_lo, c->new_hi, c->change, c->lo, c->hi };
	static const char *const k[9] = {
		"old_pct", "old_ci_low_pct", "old_ci_high_pct", "new_pct",
		"new_ci_low_pct", "new_ci_high_pct", "change_points",
		"ci_low_points", "ci_high_points",
	};

	fputs("{\"command\": ", f);
	settle_json_string(f, c->name);
	fputs(", \"symbol\": ", f);
	settle_json_string(f, c->symbol);
	for (size_t i = 0; i < 9; i++) {
		fprintf(f, ", \"%s\": ", k[i]);
		settle_json_number(f, 100 * v[i]);
	}
	fputs(", \"verdict\": ", f);
	settle_json_string(f, c->verdict);
	if (c->why[0]) {
		fputs(", \"why\": ", f);
		settle_json_string(f, c->why);
	}
	fputc('}', f);
}
