/*
 * share.c - the section printed under the table of whole commands (see
 * share.h): what ran, CPU time per run, the share of --share symbols and
 * what making them faster can save; and its part of the result file.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/layout.h"
#include "report/share.h"
#include "util/util.h"
#include "model/command.h"
#include "model/model.h"
#include "stats/proportion.h"

#define TEXT_COLS 72  /* the text format's promise */
#define TABLE_COLS 100 /* about as wide as the tables */

const double settle_amdahl_k[SETTLE_AMDAHL_NK] = { 2, 10, INFINITY };

int settle_command_cpu_cmp(const struct settle_report *rep, size_t i,
			   struct settle_comparison *c)
{
	const struct settle_result *r = &rep->results[i], *b;
	long bi = settle_report_baseline(rep, i);
	double *x, *y;
	size_t n;
	int rc;

	memset(c, 0, sizeof(*c));
	if (bi < 0 || (size_t)bi == i || !r->command ||
	    !rep->results[bi].command)
		return -1;
	b = &rep->results[bi];
	n = r->command->n < b->command->n ? r->command->n : b->command->n;
	x = malloc((n + 1) * sizeof(*x));
	y = malloc((n + 1) * sizeof(*y));
	rc = x && y ? 0 : -1;
	for (size_t k = 0; !rc && k < n; k++) {
		x[k] = r->command->user_ns[k] + r->command->sys_ns[k];
		y[k] = b->command->user_ns[k] + b->command->sys_ns[k];
	}
	if (!rc)
		rc = settle_compare_paired(y, x, n, rep->options.band, c);
	free(x);
	free(y);
	return rc;
}

/* ---- numbers ---------------------------------------------------------- */

static double median_of(const double *x, const double *y, size_t n)
{
	double *t = malloc((n + 1) * sizeof(*t)), m;

	if (!t)
		return 0;
	for (size_t i = 0; i < n; i++)
		t[i] = x[i] + (y ? y[i] : 0);
	m = settle_median_inplace(t, n);
	free(t);
	return m;
}

void settle_command_cpu(const struct settle_result *r, double *user_ns,
			double *sys_ns)
{
	const struct settle_command_data *d = r->command;

	*user_ns = d ? median_of(d->user_ns, NULL, d->n) : 0;
	*sys_ns = d ? median_of(d->sys_ns, NULL, d->n) : 0;
}

static int user_only(const struct settle_command_data *d)
{
	size_t n = strlen(d->event);

	return n > 2 && !strcmp(d->event + n - 2, ":u");
}

int settle_share_of(const struct settle_result *r, size_t k,
		    struct settle_share_stat *st)
{
	const struct settle_command_data *d = r->command;

	memset(st, 0, sizeof(*st));
	if (!d || !d->event[0] || k >= d->nshare)
		return -1;
	st->samples = d->samples;
	st->self_n = d->share[k].self;
	st->with_n = d->share[k].children;
	if (st->samples == 0 || st->with_n > st->samples ||
	    st->self_n > st->with_n)
		return -1;
	st->self = (double)st->self_n / (double)st->samples;
	st->with = (double)st->with_n / (double)st->samples;
	settle_wilson_interval(st->self_n, st->samples, SETTLE_Z95,
			       &st->self_lo, &st->self_hi);
	settle_wilson_interval(st->with_n, st->samples, SETTLE_Z95,
			       &st->with_lo, &st->with_hi);
	st->cpu_ns = median_of(d->user_ns, user_only(d) ? NULL : d->sys_ns,
			       d->n);
	st->wall_ns = r->sum.median;
	for (size_t j = 0; j < SETTLE_AMDAHL_NK; j++) {
		double kk = settle_amdahl_k[j];

		st->saved_ns[j] = settle_amdahl_saved(st->with, kk) * st->cpu_ns;
		st->saved_lo_ns[j] = settle_amdahl_saved(st->with_lo, kk) *
				     st->cpu_ns;
		st->saved_hi_ns[j] = settle_amdahl_saved(st->with_hi, kk) *
				     st->cpu_ns;
		st->saved_pct[j] = 100 * settle_safe_div(st->saved_ns[j],
							 st->wall_ns);
	}
	return st->with_n ? 0 : -1; /* in no sample: only the upper bounds */
}

/* ---- laying a paragraph out ------------------------------------------- */

struct out {
	FILE *f;
	enum settle_section_style st;
	int in_list; /* md: a list is open */
};

/* Markdown: escape what could be read as markup. */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else if (strchr("\\`*_|<>[]~#", c)) /* as md.c does */
			fprintf(f, "\\%c", c);
		else
			fputc(c, f);
	}
}

/*
 * One paragraph: level 0 a heading or note, 1 an item, 2 a line under an
 * item.
 */
static void say(struct out *o, int level, const char *fmt, ...)
{
	static const int indent[] = { 2, 4, 6 };
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	switch (o->st) {
	case SETTLE_SECTION_TABLE:
		settle_para(o->f, indent[level], indent[level] + 2, TABLE_COLS,
			    "%s", buf);
		break;
	case SETTLE_SECTION_TEXT:
		settle_para(o->f, indent[level], indent[level] + 2, TEXT_COLS,
			    "%s", buf);
		break;
	case SETTLE_SECTION_MD:
		if (level == 0) {
			fputs(o->in_list ? "\n" : "", o->f);
			md_text(o->f, buf);
			fputs("\n\n", o->f);
			o->in_list = 0;
			break;
		}
		fputs(level == 1 ? "- " : "  - ", o->f);
		md_text(o->f, buf);
		fputc('\n', o->f);
		o->in_list = 1;
		break;
	}
}

/* ---- the section ------------------------------------------------------ */

static const struct settle_command_data *first_data(
	const struct settle_report *rep, const struct settle_claim_info *c)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c && rep->results[i].command)
			return rep->results[i].command;
	return NULL;
}

/* A time, "0" when none was measured (wait4 counts in microseconds). */
static const char *time_of(double ns, char *buf, size_t len)
{
	if (ns <= 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	return settle_format_ns(ns, buf, len);
}

static void commands_part(struct out *o, const struct settle_report *rep,
			  const struct settle_claim_info *c,
			  const struct settle_command_data *d0)
{
	char u[32], s[32];

	say(o, 0, "commands: each run a fresh process (/bin/sh -c, standard "
	    "input /dev/null, output discarded, not pinned), %u warm-up "
	    "run%s each%s; CPU time per run: median, from wait4, and its "
	    "ratio to the baseline's, paired by round as above:", d0->warmup,
	    d0->warmup == 1 ? "" : "s", d0->prepare ? ", --prepare before "
	    "every run" : "");
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];
		const struct settle_command_data *d = r->command;
		struct settle_comparison cmp;
		double user, sys;
		char failed[96] = "", ratio[160] = "";

		if (r->claim != c || !d)
			continue;
		settle_command_cpu(r, &user, &sys);
		if (settle_command_cpu_cmp(rep, i, &cmp) == 0)
			snprintf(ratio, sizeof(ratio), "; CPU time %.3fx [%.3f, "
				 "%.3f] %s%s%s%s", cmp.ratio, cmp.lo, cmp.hi,
				 settle_verdict_name(cmp.verdict),
				 cmp.why ? " (" : "", cmp.why ? cmp.why : "",
				 cmp.why ? ")" : "");
		if (d->failed)
			snprintf(failed, sizeof(failed), "; %zu of %zu runs "
				 "exited non-zero (--ignore-failure)", d->failed,
				 d->n);
		say(o, 1, "%s (%s): user %s, system %s%s%s", r->variant,
		    d->shell, time_of(user, u, sizeof(u)),
		    time_of(sys, s, sizeof(s)), ratio, failed);
	}
	if (d0->prepare)
		say(o, 1, "--prepare: %s", d0->prepare);
}

/* A percentage with 2 decimals, or 2 significant digits below 0.1 %, so
 * that a small share never reads as 0.00 %. frac is a fraction. */
static const char *pct(double frac, char *buf, size_t len)
{
	double p = 100 * frac;

	if (p >= 0.1 || p <= 0)
		snprintf(buf, len, "%.2f%%", p);
	else
		snprintf(buf, len, "%.2g%%", p);
	return buf;
}

static void amdahl_line(struct out *o, const char *sym,
			const struct settle_share_stat *st)
{
	char a[SETTLE_AMDAHL_NK][32], p[SETTLE_AMDAHL_NK][32], lo[32], hi[32];

	for (size_t j = 0; j < SETTLE_AMDAHL_NK; j++) {
		settle_format_ns(st->saved_ns[j], a[j], sizeof(a[j]));
		pct(st->saved_pct[j] / 100, p[j], sizeof(p[j]));
	}
	settle_format_ns(st->saved_lo_ns[2], lo, sizeof(lo));
	settle_format_ns(st->saved_hi_ns[2], hi, sizeof(hi));
	say(o, 2, "Amdahl: making %s k times faster saves at most %s (%s) "
	    "for k = 2, %s (%s) for k = 10, %s (%s, 95%% [%s, %s]) for k = "
	    "infinity", sym, a[0], p[0], a[1], p[1], a[2], p[2], lo, hi);
}

static void share_lines(struct out *o, const struct settle_result *r)
{
	const struct settle_command_data *d = r->command;
	struct settle_share_stat st;
	char v[6][32];

	if (d->samples == 0) {
		say(o, 1, "%s: no samples in %u profiled runs: it ran for less "
		    "than perf's period (%.0f us of CPU time) each time",
		    r->variant, d->profiled_runs, (double)d->period_ns / 1e3);
		return;
	}
	for (size_t k = 0; k < d->nshare; k++) {
		const char *sym = d->share[k].symbol;

		if (settle_share_of(r, k, &st) < 0) {
			char hi[32];

			settle_format_ns(st.saved_hi_ns[2], hi, sizeof(hi));
			say(o, 1, "%s: %s is in none of its %llu samples: "
			    "either it takes under %s of the CPU time (95%% "
			    "upper bound; even infinitely fast it saves at most "
			    "%s), or perf knows it by another name (perf report "
			    "--stdio lists the symbols perf saw)", r->variant,
			    sym, (unsigned long long)d->samples,
			    pct(st.with_hi, v[0], sizeof(v[0])), hi);
			continue;
		}
		say(o, 1, "%s: %s %s self [%s, %s], %s with callees [%s, %s] "
		    "of %llu samples", r->variant, sym,
		    pct(st.self, v[0], 32), pct(st.self_lo, v[1], 32),
		    pct(st.self_hi, v[2], 32), pct(st.with, v[3], 32),
		    pct(st.with_lo, v[4], 32), pct(st.with_hi, v[5], 32),
		    (unsigned long long)st.samples);
		amdahl_line(o, sym, &st);
	}
}

static void share_part(struct out *o, const struct settle_report *rep,
		       const struct settle_claim_info *c,
		       const struct settle_command_data *d0)
{
	say(o, 0, "share of perf samples (perf record -e %s -c %llu -g: one "
	    "sample per %.0f us of CPU time; %u profiled runs of each command, "
	    "apart from the timed runs)%s:", d0->event,
	    (unsigned long long)d0->period_ns, (double)d0->period_ns / 1e3,
	    d0->profiled_runs, user_only(d0) ? "; user space only, as "
	    "perf_event_paranoid allows: kernel time is not in the samples "
	    "nor in the CPU time below" : "");
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c && rep->results[i].command)
			share_lines(o, &rep->results[i]);
	say(o, 0, "(95%% Wilson score intervals, which take the samples as "
	    "independent: read them as the least uncertainty; with callees "
	    "comes from frame-pointer call chains, in which a function built "
	    "without frame pointers hides its caller, so it can be too low; "
	    "Amdahl: saved = share with callees x "
	    "median CPU time of a timed run%s x (1 - 1/k), in %% of its "
	    "median wall time)", user_only(d0) ? " (user)" : "");
}

void settle_print_command_section(FILE *f, const struct settle_view *v,
				  const struct settle_view_claim *vc,
				  enum settle_section_style style)
{
	const struct settle_report *rep = v->rep;
	const struct settle_claim_info *c = vc->claim;
	const struct settle_command_data *d0 = first_data(rep, c);
	struct out o = { f, style, 0 };

	if (!d0)
		return;
	if (style == SETTLE_SECTION_MD)
		fputc('\n', f);
	commands_part(&o, rep, c, d0);
	if (d0->event[0])
		share_part(&o, rep, c, d0);
}

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
	fputs(", \"amdahl_saved_ns\": {", f);
	for (size_t j = 0; j < SETTLE_AMDAHL_NK; j++) {
		fputs(j ? ", " : "", f); jkey(f, kname[j]);
		jnum(f, st.saved_ns[j]);
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
	fprintf(f, ", \"period_ns\": %llu, \"call_chains\": %s, \"runs\": %u, "
		"\"samples\": %llu, \"symbols\": [",
		(unsigned long long)d->period_ns,
		d->call_chains ? "true" : "false", d->profiled_runs,
		(unsigned long long)d->samples);
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
	fprintf(f, ", \"warmup\": %u, \"failed_runs\": %zu,%s\"user_ns\": ",
		d->warmup, d->failed, nl);
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
