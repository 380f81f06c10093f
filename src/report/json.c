/*
 * json.c - the result file (RFC 8259 JSON, schema SETTLE_SCHEMA).
 *
 * Every sample is written, never only a summary, so any statistic can be
 * recomputed later. Numbers are printed in the C locale (switched to for
 * the writer's thread, whatever the program's locale), non-finite values as
 * null, strings as pure ASCII with \u escapes (surrogate pairs beyond the
 * BMP, U+FFFD for invalid UTF-8). The file is written whole or not
 * at all: built in memory, written to a temporary file in the target's
 * directory, fsync'ed, renamed over the target, and the directory fsync'ed.
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

#include "report/report.h"

void settle_json_string(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', f);
	while (*p) {
		size_t len;
		unsigned long c = settle_utf8_next(p, &len);

		p += len;
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc((int)c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c == '\r') {
			fputs("\\r", f);
		} else if (c >= 0x20 && c < 0x7f) {
			fputc((int)c, f);
		} else {
			/* control, DEL and every non-ASCII character */
			unsigned long u[2] = { c, 0 };
			int n = 1;

			if (c > 0xffff) {
				c -= 0x10000;
				u[0] = 0xd800 | (c >> 10);
				u[1] = 0xdc00 | (c & 0x3ff);
				n = 2;
			}
			for (int i = 0; i < n; i++)
				fprintf(f, "\\u%c%c%c%c", hex[u[i] >> 12 & 15],
					hex[u[i] >> 8 & 15], hex[u[i] >> 4 & 15],
					hex[u[i] & 15]);
		}
	}
	fputc('"', f);
}

static void jstr(FILE *f, const char *s)
{
	settle_json_string(f, s);
}

static void jnum(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else
		fprintf(f, "%.12g", v);
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
	fputs("  \"noise\": {\"loadavg\": ", f); jnum(f, n->loadavg);
	fputs(", \"steal_pct\": ", f); jnum(f, n->steal_pct);
	fprintf(f, ", \"voluntary_switches\": %ld, \"involuntary_switches\": "
		"%ld, \"migrations\": %ld, ", n->nvcsw, n->nivcsw,
		n->migrations);
	jkey(f, "frequency_governor"); jstr(f, n->governor);
	fputs(", \"core_ghz_before\": ", f); jnum(f, n->core_ghz_before);
	fputs(", \"core_ghz_after\": ", f); jnum(f, n->core_ghz_after);
	fputs(", \"core_clock_drift_pct\": ", f); jnum(f, n->drift_pct);
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
	fprintf(f, "],\n    \"logical_cpus\": %ld", m->logical_cpus);
	fputs(",\n    ", f); jkey(f, "kernel"); jstr(f, m->kernel);
	fprintf(f, ",\n    \"hypervisor\": %s", m->hypervisor ? "true" : "false");
	fputs(",\n    ", f); jkey(f, "hypervisor_vendor"); jstr(f, m->hypervisor_vendor);
	fputs(",\n    ", f); jkey(f, "emulator"); jstr(f, m->emulator);
	fputs(",\n    ", f); jkey(f, "seccomp"); jstr(f, m->seccomp);
	fputs(",\n    ", f); jkey(f, "mitigations"); jstr(f, m->mitigations);
	fprintf(f, ",\n    \"mem_available_bytes\": %llu",
		(unsigned long long)m->mem_available);
	fputs(",\n    \"primitives\": {", f);
	jkey(f, "popcount"); jstr(f, m->popcount_impl);
	fputs(", ", f); jkey(f, "bswap"); jstr(f, m->bswap_impl);
	fputs("}", f);
	fputs(",\n    \"tsc_ghz\": ", f); jnum(f, t->tsc_ghz);
	fputs(",\n    \"core_ghz_estimate\": ", f); jnum(f, t->core_ghz);
	fputs(",\n    \"core_ghz_source\": \"dependent add reg,reg chain\"", f);
	fputs("\n  },\n  \"timer\": {", f);
	jkey(f, "clock");
	jstr(f, settle_clock_name(t->clock));
	fputs(", ", f); jkey(f, "why"); jstr(f, t->why);
	fputs(", \"overhead_ns\": ", f); jnum(f, t->overhead_ns);
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
	fputs(", ", f); jkey(f, "novec_flags"); jstr(f, settle_build_novec_flags());
	fputs("},\n  \"settings\": {", f);
	fprintf(f, "\"samples\": %u, \"min_sample_ns\": ", o->samples);
	jnum(f, o->min_sample_ns);
	fprintf(f, ", \"cpu\": %d, \"quick\": %s, \"full\": %s, "
		"\"device_mbps\": ", rep->cpu, o->quick ? "true" : "false",
		o->full ? "true" : "false");
	jnum(f, o->device_mbps);
	fputs(", \"equivalence_band\": ", f);
	jnum(f, o->band);
	fprintf(f, ", \"processes\": %u", o->processes ? o->processes : 1);
	fputs(", \"order\": \"interleaved, rotating start\"},\n", f);
}

/* Is p's value a JSON number (int) or true/false (bool) as it stands? */
static int raw_value_ok(const struct settle_param *p)
{
	const char *v = p->value;

	if (!v || p->type == SETTLE_PARAM_STRING)
		return 0;
	if (p->type == SETTLE_PARAM_BOOL)
		return !strcmp(v, "true") || !strcmp(v, "false");
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
	return *v == '\0';
}

static void write_params(FILE *f, const struct settle_result *r)
{
	int any = 0;

	fputs("\"params\": {", f);
	if (r->claim->default_sizes) {
		fprintf(f, "\"size_bytes\": %llu", (unsigned long long)r->size_bytes);
		any = 1;
	}
	if (r->variant->build) {
		fputs(any ? ", " : "", f);
		jkey(f, "build");
		jstr(f, r->variant->build);
		any = 1;
	}
	for (size_t i = 0; i < r->variant->nparams; i++) {
		const struct settle_param *p = &r->variant->params[i];

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

static void write_result(FILE *f, const struct settle_report *rep,
			 const struct settle_result *r)
{
	struct settle_figure fig[SETTLE_MAX_FIGURES];
	size_t n = settle_scale_of(rep, r, fig, SETTLE_MAX_FIGURES);
	char lb[128];

	fputs("    {", f);
	jkey(f, "claim"); jstr(f, r->claim->name);
	fputs(", ", f); jkey(f, "variant"); jstr(f, r->variant->name);
	fputs(", ", f); jkey(f, "label");
	jstr(f, settle_variant_label(r->variant, lb, sizeof(lb)));
	fputs(", ", f); write_params(f, r);
	fprintf(f, ",\n     \"reference\": %s, \"iterations\": %llu, "
		"\"ops_per_sample\": %llu, \"check\": \"%llu\",\n     \"samples_ns\": [",
		(r->variant->flags & SETTLE_REFERENCE) ? "true" : "false",
		(unsigned long long)r->iters,
		(unsigned long long)r->ops_per_sample,
		(unsigned long long)r->check);
	for (size_t i = 0; i < r->nsamples; i++) {
		fputs(i ? ", " : "", f);
		jnum(f, r->samples_ns[i]);
	}
	fputs("],\n     \"median_ns\": ", f); jnum(f, r->sum.median);
	fputs(", \"min_ns\": ", f); jnum(f, r->sum.min);
	fputs(", \"mean_ns\": ", f); jnum(f, r->sum.mean);
	fputs(", \"mad_ns\": ", f); jnum(f, r->sum.mad);
	fputs(", \"cv\": ", f); jnum(f, r->sum.cv);
	fputs(",\n     \"ratio\": ", f); jnum(f, r->ratio);
	fputs(", \"bytes_per_ns\": ", f); jnum(f, r->bytes_per_ns);
	fputs(", \"cycles_per_op\": ", f); jnum(f, r->cycles_per_op);
	fputs(", ", f); jkey(f, "cycles_source"); jstr(f, r->cycles_source);
	fputs(", \"instructions_per_op\": ", f); jnum(f, r->instructions_per_op);
	fprintf(f, ", \"unstable\": %s", r->unstable ? "true" : "false");
	fprintf(f, ",\n     \"below_resolution\": %s",
		r->below_resolution ? "true" : "false");
	if (r->has_cmp)
		write_cmp(f, &r->cmp);
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
		fputs(", ", f); jkey(f, "variant"); jstr(f, r->variant->name);
		fputs(", ", f); write_params(f, r);
		fputs(", ", f); jkey(f, "reason"); jstr(f, r->skipped);
		fputs("}", f);
		first = 0;
	}
	fputs("]\n", f);
}

/* What a reader needs to print a claim's table again. */
static void write_claims(FILE *f, const struct settle_report *rep)
{
	const struct settle_claim *seen[64];
	size_t nseen = 0;

	fputs("  \"claims\": {", f);
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_claim *c = rep->results[i].claim;
		size_t j;

		for (j = 0; j < nseen && seen[j] != c; j++)
			;
		if (j < nseen || nseen == 64)
			continue;
		seen[nseen++] = c;
		fputs(nseen > 1 ? ",\n    " : "\n    ", f);
		jstr(f, c->name);
		fputs(": {", f);
		jkey(f, "description"); jstr(f, c->description);
		fputs(", ", f); jkey(f, "title"); jstr(f, c->title ? c->title : c->name);
		fputs(", ", f); jkey(f, "op_name"); jstr(f, c->op_name ? c->op_name : "op");
		fputs(", ", f); jkey(f, "baseline"); jstr(f, c->baseline);
		fprintf(f, ", \"sizes\": %s, \"bytes_per_op\": ",
			c->default_sizes ? "true" : "false");
		if (c->bytes_per_op == SETTLE_BYTES_SIZE)
			fputs("\"size\"", f);
		else
			fprintf(f, "%llu", (unsigned long long)c->bytes_per_op);
		fprintf(f, ", \"show_cycles\": %s", c->show_cycles ? "true" : "false");
		if (c->original) {
			fputs(", ", f); jkey(f, "original"); jstr(f, c->original);
		}
		fputs("}", f);
	}
	fputs("\n  },\n", f);
}

void settle_json_doc(FILE *f, const struct settle_report *rep)
{
	char when[32];
	time_t now = time(NULL);
	int first = 1;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "{\n  \"schema\": \"%s\",\n  \"created\": \"%s\",\n",
		SETTLE_SCHEMA, when);
	write_machine(f, rep);
	write_build(f, rep);
	write_claims(f, rep);
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

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int fsync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd, rc;

	if (!copy)
		return -1;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
	free(copy);
	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* Write buf to path atomically: temporary file, fsync, rename. */
int settle_replace_file(const char *path, const char *buf, size_t n,
			char *err, size_t errlen)
{
	char target[4096];
	size_t len;
	char *tmp;
	int fd;

	if (strcmp(path, "-") == 0) {
		if (fwrite(buf, 1, n, stdout) == n && fflush(stdout) == 0)
			return 0;
		snprintf(err, errlen, "cannot write to standard output: %s",
			 strerror(errno));
		return -1;
	}
	if (settle_output_target(path, target, sizeof(target), err, errlen) < 0)
		return -1;
	path = target;
	len = strlen(path) + 16;
	tmp = malloc(len);
	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(tmp, len, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	if (write_all(fd, buf, n) < 0 || fchmod(fd, 0644) < 0 ||
	    fsync(fd) < 0 || close(fd) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	fsync_dir(path);
	return 0;
}

int settle_write_json(const struct settle_report *rep, const char *path,
		      char *err, size_t errlen)
{
	return settle_write_report(rep, SETTLE_FORMAT_JSON, path, err, errlen);
}

int settle_write_selftest_json(const struct settle_selftest *st,
			       const struct settle_options *o,
			       const char *path, char *err, size_t errlen)
{
	struct settle_c_locale loc;
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int rc;

	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	settle_c_locale_begin(&loc);
	fprintf(f, "{\n  \"schema\": \"settle-selftest/1\",\n");
	fputs("  \"aa_false_positive_rate\": ", f); jnum(f, st->aa_false_positive_rate);
	fputs(",\n  \"aa_same_rate\": ", f); jnum(f, st->aa_same_rate);
	fprintf(f, ",\n  \"aa_trials\": %u", st->aa_trials);
	fputs(",\n  \"detect_rate_3pct\": ", f); jnum(f, st->detect_rate_3pct);
	fputs(",\n  \"detect_rate_2pct\": ", f); jnum(f, st->detect_rate_2pct);
	fprintf(f, ",\n  \"detect_trials\": %u", st->detect_trials);
	fputs(",\n  \"popcnt_latency_cycles\": ", f);
	if (st->popcnt_latency_cycles > 0)
		jnum(f, st->popcnt_latency_cycles);
	else
		fputs("null", f);
	fputs(",\n  \"imul_latency_cycles\": ", f);
	if (st->imul_latency_cycles > 0)
		jnum(f, st->imul_latency_cycles);
	else
		fputs("null", f);
	fputs(",\n  ", f); jkey(f, "mul_instruction");
	jstr(f, st->mul_name ? st->mul_name : "");
	fputs(",\n  ", f); jkey(f, "count_instruction");
	jstr(f, st->count_name ? st->count_name : "");
	fputs(",\n  \"core_ghz\": ", f); jnum(f, st->core_ghz);
	fprintf(f, ",\n  \"settings\": {\"samples\": %u, \"min_sample_ns\": ",
		o->samples);
	jnum(f, o->min_sample_ns);
	fprintf(f, ", \"processes_per_trial\": %u, \"equivalence_band\": ",
		o->processes ? o->processes : 1);
	jnum(f, o->band);
	fprintf(f, ", \"quick\": %s}\n}\n", o->quick ? "true" : "false");
	settle_c_locale_end(&loc);
	if (fclose(f) != 0) {
		free(buf);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = settle_replace_file(path, buf, n, err, errlen);
	free(buf);
	return rc;
}
