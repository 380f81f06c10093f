/*
 * gbench.c - Google Benchmark's JSON layout (as its --benchmark_format=json
 * writes it, version 1.7), so that its tools, compare.py above all, read
 * settle's samples: one "iteration" entry per sample, as if each sample
 * were a repetition, then the aggregates Google Benchmark adds after
 * repetitions (mean, median, stddev, cv).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model/command.h"
#include "report/format.h"
#include "stats/rules.h"
#include "util/util.h"

static void num(FILE *f, double v)
{
	if (!isfinite(v))
		v = 0; /* never reached for finite samples; RFC 8259 has no NaN */
	fprintf(f, "%.17g", v);
}

/* Google Benchmark's date: local time, ISO 8601 with a +hh:mm offset; the
 * time rep's run began ("" when a file it was read from did not say). */
static void date(FILE *f, const struct settle_report *rep)
{
	char buf[40];
	long long t = rep->created[0] ? settle_utc_parse(rep->created) :
		      rep->source[0] ? -1 : (long long)time(NULL);
	time_t now = (time_t)t;
	struct tm tm;
	size_t n;

	if (t < 0 || !localtime_r(&now, &tm) ||
	    (n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S%z", &tm)) < 5) {
		settle_json_string(f, "");
		return;
	}
	/* +0100 -> +01:00 */
	memmove(buf + n - 1, buf + n - 2, 3);
	buf[n - 2] = ':';
	settle_json_string(f, buf);
}

static void context(FILE *f, const struct settle_report *rep)
{
	const struct settle_machine *m = &rep->machine;
	const struct settle_timer_info *t = &rep->timer;
	double ghz = t->clock == SETTLE_CLOCK_TSC && t->tsc_ghz > 0 ?
		     t->tsc_ghz : t->core_ghz;
	char host[256] = "";
	int debug = strstr(rep->build_flags, "-O0") ||
		    !strstr(rep->build_flags, "-O");

	/* a file read back does not say which host or program ran it */
	if (!rep->source[0])
		gethostname(host, sizeof(host) - 1);
	fputs("{\n  \"context\": {\n    \"date\": ", f);
	date(f, rep);
	fputs(",\n    \"host_name\": ", f);
	settle_json_string(f, host);
	fputs(",\n    \"executable\": ", f);
	settle_json_string(f, rep->source[0] ? "" : program_invocation_name);
	fprintf(f, ",\n    \"num_cpus\": %ld,\n    \"mhz_per_cpu\": %.0f,\n"
		"    \"cpu_scaling_enabled\": %s,\n    \"caches\": [",
		m->logical_cpus, ghz * 1000,
		rep->noise.governor[0] && strcmp(rep->noise.governor, "unknown") &&
		strcmp(rep->noise.governor, "performance") ? "true" : "false");
	for (size_t i = 0; i < m->ncaches; i++) {
		fprintf(f, "%s\n      {\n        \"type\": ", i ? "," : "");
		settle_json_string(f, m->caches[i].type);
		fprintf(f, ",\n        \"level\": %d,\n        \"size\": %llu\n"
			"      }", m->caches[i].level,
			(unsigned long long)m->caches[i].size_bytes);
	}
	fprintf(f, "%s],\n    \"library_build_type\": \"%s\"",
		m->ncaches ? "\n    " : "", debug ? "debug" : "release");
	fputs(",\n    \"settle_cpu_model\": ", f);
	settle_json_string(f, m->model_name);
	fputs(",\n    \"settle_compiler\": ", f);
	settle_json_string(f, rep->compiler);
	fputs(",\n    \"settle_build_flags\": ", f);
	settle_json_string(f, rep->build_flags);
	fputs(",\n    \"settle_clock\": ", f);
	settle_json_string(f, settle_clock_name(t->clock));
	/* the samples of each row are its processes' in turn, in equal
	 * consecutive chunks (settle_report_analyze()) */
	fprintf(f, ",\n    \"settle_processes\": %u,\n"
		"    \"settle_layouts\": %u",
		rep->options.processes ? rep->options.processes : 1,
		rep->options.layouts);
	if (rep->options.band > 0) /* the band its verdicts were drawn with */
		fprintf(f, ",\n    \"settle_equivalence_band\": %.17g",
			rep->options.band);
	fputs("\n  },\n", f);
}

/* claim/variant[/build:B][/key:value...][/size:BYTES] */
static char *bench_name(const struct settle_result *r, char *buf, size_t len)
{
	const struct settle_result *v = r;
	size_t used;

	snprintf(buf, len, "%s/%s", r->claim->name, v->variant);
	used = strlen(buf);
	if (v->build && used < len)
		used += (size_t)snprintf(buf + used, len - used, "/build:%s",
					 v->build);
	for (size_t i = 0; i < v->nparams && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "/%s:%s",
					 v->params[i].key, v->params[i].value);
	if (r->claim->sized && used < len)
		snprintf(buf + used, len - used, "/size:%llu",
			 (unsigned long long)r->size_bytes);
	return buf;
}

/* The part of the name without the size: one family per variant. */
static int same_family(const struct settle_result *a,
		       const struct settle_result *b)
{
	return a->claim == b->claim && !strcmp(a->variant, b->variant) &&
	       settle_result_same_group(a, b);
}

struct entry {
	const char *name;
	size_t family, instance;
	size_t reps;
	int cpu; /* the row's CPU times known (settle_result_cpu_known()) */
};

static void head(FILE *f, const struct entry *e, const char *suffix,
		 const char *run_type)
{
	fputs("    {\n      \"name\": ", f);
	if (suffix[0]) {
		size_t n = strlen(e->name) + strlen(suffix) + 1;
		char *s = malloc(n);

		if (s)
			snprintf(s, n, "%s%s", e->name, suffix);
		settle_json_string(f, s ? s : e->name);
		free(s);
	} else {
		settle_json_string(f, e->name);
	}
	fprintf(f, ",\n      \"family_index\": %zu,\n"
		"      \"per_family_instance_index\": %zu,\n"
		"      \"run_name\": ", e->family, e->instance);
	settle_json_string(f, e->name);
	fprintf(f, ",\n      \"run_type\": \"%s\",\n      \"repetitions\": %zu,\n",
		run_type, e->reps);
}

/*
 * The CPU time of sample k: a whole command's user + system time of that
 * run (from wait4); a claim's measuring thread's CPU time (cpu: the row
 * has them), which leaves out other tasks' time slices in a preempted
 * sample; else (older files) its elapsed time (pinned to one CPU, its
 * time is the CPU's).
 */
static double cpu_ns(const struct settle_result *r, int cpu, size_t k)
{
	const struct settle_command_data *d = r->command;

	if (d && k < d->n)
		return d->user_ns[k] + d->sys_ns[k];
	return cpu ? r->samples_cpu_ns[k] : r->samples_ns[k];
}

/*
 * The row sample k belongs to, as a result file names it: settle_claim,
 * settle_variant and settle_params (size_bytes, build, the parameters),
 * members Google Benchmark's readers pass over. settle reads its own file
 * back by them, so that it compares with a result file of the same run
 * (a name such as "popcount/avx2/size:4096" is no claim, variant and size
 * settle could match). Then what else the verdicts rest on: the row's
 * count of preempted samples, the sample's layout and its thread's CPU
 * time (ns per operation), the last two where the row has them; and in
 * its first sample's entry, settle_evidence: the row's check value,
 * whether it is below the clock's resolution and why it may be invalid
 * (settle_json_evidence()), from which a reader decides again.
 */
static void settle_row(FILE *f, const struct settle_result *r, int cpu,
		       size_t k)
{
	fputs(",\n      \"settle_claim\": ", f);
	settle_json_string(f, r->claim->name);
	fputs(",\n      \"settle_variant\": ", f);
	settle_json_string(f, r->variant);
	fputs(",\n      ", f);
	settle_json_params(f, "settle_params", r);
	fprintf(f, ",\n      \"settle_preempted_samples\": %zu", r->preempted);
	if (r->sample_layouts)
		fprintf(f, ",\n      \"settle_layout\": %u",
			r->sample_layouts[k]);
	if (cpu) {
		fputs(",\n      \"settle_cpu_ns\": ", f);
		num(f, r->samples_cpu_ns[k]);
	}
	if (k == 0) {
		fprintf(f, ",\n      \"settle_evidence\": {\"iterations\": %llu, "
			"\"check\": \"%llu\", \"reference\": %s, "
			"\"below_resolution\": %s",
			(unsigned long long)r->iters,
			(unsigned long long)r->check,
			r->reference ? "true" : "false",
			r->below_resolution ? "true" : "false");
		settle_json_evidence(f, r);
		fputs("}", f);
	}
}

static void iteration(FILE *f, const struct settle_result *r,
		      const struct entry *e, size_t k, double bytes)
{

	head(f, e, "", "iteration");
	fprintf(f, "      \"repetition_index\": %zu,\n      \"threads\": 1,\n"
		"      \"iterations\": %llu,\n      \"real_time\": ", k,
		(unsigned long long)(r->ops_per_sample ? r->ops_per_sample : 1));
	num(f, r->samples_ns[k]);
	fputs(",\n      \"cpu_time\": ", f);
	num(f, cpu_ns(r, e->cpu, k));
	fputs(",\n      \"time_unit\": \"ns\"", f);
	if (!settle_result_measured(r)) {
		/* Google Benchmark's mark of a run whose time is not to be
		 * trusted; settle reads the sample back and judges again */
		fputs(",\n      \"error_occurred\": true,\n"
		      "      \"error_message\": ", f);
		settle_json_string(f, r->invalid[0] ? r->invalid :
				   SETTLE_WHY_BELOW_RES
				   " (the work removed?)");
	} else if (bytes > 0 && r->samples_ns[k] > 0) {
		fputs(",\n      \"bytes_per_second\": ", f);
		num(f, bytes / r->samples_ns[k] * 1e9);
	}
	fputs(",\n      \"label\": ", f);
	settle_json_string(f, r->label);
	settle_row(f, r, e->cpu, k);
	fputs("\n    }", f);
}

static void aggregate(FILE *f, const struct entry *e, const char *name,
		      double v, double cpu, int percentage)
{
	char suffix[16];

	snprintf(suffix, sizeof(suffix), "_%s", name);
	head(f, e, suffix, "aggregate");
	fprintf(f, "      \"threads\": 1,\n      \"aggregate_name\": \"%s\",\n"
		"      \"aggregate_unit\": \"%s\",\n      \"iterations\": %zu,\n"
		"      \"real_time\": ", name, percentage ? "percentage" : "time",
		e->reps);
	num(f, v);
	fputs(",\n      \"cpu_time\": ", f);
	num(f, cpu);
	fputs(",\n      \"time_unit\": \"ns\"\n    }", f);
}

/* The summary of the samples' CPU times (cpu_ns()) into c. */
static void cpu_summary(const struct settle_result *r, int cpu,
			struct settle_summary *c)
{
	double *x = malloc(r->nsamples * sizeof(*x));

	*c = r->sum;
	if ((!r->command && !cpu) || !x) {
		free(x);
		return;
	}
	for (size_t k = 0; k < r->nsamples; k++)
		x[k] = cpu_ns(r, cpu, k);
	settle_summarize(x, r->nsamples, c);
	free(x);
}

static void report(FILE *f, const struct settle_view *v)
{
	const struct settle_report *rep = v->rep;
	size_t nfamilies = 0;
	size_t *family = calloc(rep->nresults + 1, sizeof(*family));
	int first = 1;

	context(f, rep);
	/* settle's own member, which Google Benchmark's readers pass over:
	 * each claim as a result file describes it (its baseline above
	 * all), so that settle reads its rows back as it measured them */
	settle_json_claims(f, "settle_claims", rep, v);
	fputs("  \"benchmarks\": [", f);
	for (size_t i = 0; i < rep->nresults && family; i++) {
		const struct settle_result *r = &rep->results[i];
		const struct settle_claim_info *c = r->claim;
		/* as the table: a throughput of the buffer's size only */
		double bytes = c->bytes_per_op == SETTLE_BYTES_SIZE ?
			       (double)r->size_bytes : 0;
		struct entry e = { NULL, nfamilies, 0, r->nsamples, 0 };
		struct settle_summary cpu;
		char name[512];

		for (size_t j = 0; j < i; j++)
			if (same_family(&rep->results[j], r)) {
				e.family = family[j];
				e.instance++;
			}
		family[i] = e.family;
		if (e.family == nfamilies)
			nfamilies++;
		if (r->skipped || r->nsamples == 0)
			continue;
		e.name = bench_name(r, name, sizeof(name));
		e.cpu = settle_result_cpu_known(r); /* once a row */
		for (size_t k = 0; k < r->nsamples; k++) {
			fputs(first ? "\n" : ",\n", f);
			iteration(f, r, &e, k, bytes);
			first = 0;
		}
		/* as Google Benchmark: no aggregate of failed runs */
		if (r->nsamples < 2 || !settle_result_measured(r))
			continue;
		cpu_summary(r, e.cpu, &cpu);
		fputs(",\n", f);
		aggregate(f, &e, "mean", r->sum.mean, cpu.mean, 0);
		fputs(",\n", f);
		aggregate(f, &e, "median", r->sum.median, cpu.median, 0);
		fputs(",\n", f);
		aggregate(f, &e, "stddev", r->sum.stddev, cpu.stddev, 0);
		fputs(",\n", f);
		aggregate(f, &e, "cv", r->sum.cv, cpu.cv, 1);
	}
	fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
	free(family);
}

const struct settle_format settle_format_gbench = {
	.name = "gbench-json",
	.data = 1,
	.echo_table = 1,
	.report = report,
	.compare = NULL,
};
