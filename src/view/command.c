/*
 * command.c - what settle says under the table of whole commands (see
 * command.h): what ran, CPU time per run, the share of --share symbols
 * and what making them faster can save.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "view/command.h"
#include "util/util.h"
#include "model/command.h"
#include "model/model.h"
#include "stats/proportion.h"
#include "stats/rules.h"

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

/* The median CPU time of r's timed runs that its perf samples divide
 * (ns): user + system, or user alone when perf sampled user space only;
 * in *off, the median wall time less that, or 0: the time off the CPU,
 * which no cpu-clock sample sees (a wait: a sleep, a pipe, a disk). */
static double sampled_cpu_ns(const struct settle_result *r, double *off)
{
	const struct settle_command_data *d = r->command;
	double cpu = median_of(d->user_ns, user_only(d) ? NULL : d->sys_ns,
			       d->n);

	*off = r->sum.median > cpu ? r->sum.median - cpu : 0;
	return cpu;
}

/* Whether a --share symbol of d is in none of its samples. */
static int in_none(const struct settle_command_data *d)
{
	for (size_t k = 0; k < d->nshare; k++)
		if (!d->share[k].children)
			return 1;
	return 0;
}

/*
 * The 95 % interval of a share with callees, n of samples, cut of them
 * with a chain cut short (or a frame perf could not name): the lower end
 * n's, the upper end that of n + cut (at most samples), since the symbol
 * may be above any of the cuts (or any frame without a name).
 */
static void with_interval(uint64_t n, uint64_t cut, uint64_t samples,
			  double *lo, double *hi_own, double *hi)
{
	double ignored;
	uint64_t most = n + cut < samples ? n + cut : samples;

	settle_wilson_interval(n, samples, SETTLE_Z95, lo, hi_own);
	settle_wilson_interval(most, samples, SETTLE_Z95, &ignored, hi);
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
	st->cut_n = d->cut;
	st->unnamed_n = st->with_n ? 0 : d->unnamed;
	if (st->samples == 0 || st->with_n > st->samples ||
	    st->self_n > st->with_n ||
	    st->cut_n + st->unnamed_n > st->samples)
		return -1;
	st->self = (double)st->self_n / (double)st->samples;
	st->with = (double)st->with_n / (double)st->samples;
	settle_wilson_interval(st->self_n, st->samples, SETTLE_Z95,
			       &st->self_lo, &st->self_hi);
	with_interval(st->with_n, st->cut_n + st->unnamed_n, st->samples,
		      &st->with_lo, &st->with_hi_own, &st->with_hi);
	st->cpu_ns = sampled_cpu_ns(r, &st->off_ns);
	st->wall_ns = r->sum.median;
	st->of_cpu = st->cpu_ns > st->wall_ns;
	st->basis_ns = st->of_cpu ? st->cpu_ns : st->wall_ns;
	/*
	 * The estimate is what the symbol's samples take; the upper end
	 * counts in what may be its own as well: the chains cut short (in
	 * with_hi) and the time off the CPU, which no sample sees (a 90 ms
	 * sleep in a 107.5 ms run read "saves at most 2.077 ms", settled).
	 * Counted in the estimate, they made a leaf function of 16.56 % of
	 * the samples "save 70.29 ms (59.38 %)" of a run that saved 17 ms
	 * without it, and one that returned a constant "save 77 %".
	 */
	for (size_t j = 0; j < SETTLE_AMDAHL_NK; j++) {
		double kk = settle_amdahl_k[j];
		double off = settle_amdahl_saved(1, kk) * st->off_ns;

		st->saved_ns[j] = settle_amdahl_saved(st->with, kk) *
				  st->cpu_ns;
		st->saved_lo_ns[j] = settle_amdahl_saved(st->with_lo, kk) *
				     st->cpu_ns;
		st->saved_hi_ns[j] = settle_amdahl_saved(st->with_hi, kk) *
				     st->cpu_ns + off;
		st->saved_pct[j] = 100 * settle_safe_div(st->saved_ns[j],
							 st->basis_ns);
	}
	return st->with_n ? 0 : -1; /* in no sample: only the upper bounds */
}

/* ---- lines ------------------------------------------------------------ */

struct out {
	struct settle_view_claim *vc;
	int failed;
};

/* One line: level 0 a heading or note, 1 an item, 2 a line under an item. */
__attribute__((format(printf, 3, 4)))
static void say(struct out *o, int level, const char *fmt, ...)
{
	struct settle_view_claim *vc = o->vc;
	struct settle_view_line *more;
	char *raw, *text;
	va_list ap;
	int n;

	more = realloc(vc->lines, (vc->nlines + 1) * sizeof(*more));
	if (!more) {
		o->failed = 1;
		return;
	}
	vc->lines = more;
	va_start(ap, fmt);
	n = vasprintf(&raw, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->failed = 1;
		return;
	}
	text = settle_escape(raw);
	free(raw);
	if (!text) {
		o->failed = 1;
		return;
	}
	more[vc->nlines].level = level;
	more[vc->nlines++].text = text;
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

/* A time, "0 s" when none was measured (wait4 counts in microseconds). */
static const char *time_of(double ns, char *buf, size_t len)
{
	if (ns <= 0) {
		snprintf(buf, len, "0 s");
		return buf;
	}
	return settle_format_ns(ns, buf, len);
}

/* Bytes of a command's text shown under the table, at most: its figures
 * follow it on the line (a line holds 1100 bytes). */
#define SHOWN 240

static void commands_part(struct out *o, const struct settle_report *rep,
			  const struct settle_claim_info *c,
			  const struct settle_command_data *d0)
{
	char u[32], s[32], cmd[SHOWN + 8];

	say(o, 0, "commands: each run a fresh process (/bin/sh -c, standard "
	    "input /dev/null, standard output %s, standard error to "
	    "a file for a failing run's message, not pinned), %u warm-up "
	    "run%s each%s; CPU time per run: median, from wait4, and its "
	    "ratio to the baseline's, paired by round as above:",
	    d0->stdout_pipe ? "to a pipe settle reads and discards" :
	    "/dev/null", d0->warmup,
	    d0->warmup == 1 ? "" : "s", d0->prepare ? ", --prepare before "
	    "every run" : "");
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];
		const struct settle_command_data *d = r->command;
		struct settle_comparison cmp;
		double user, sys;
		char failed[192] = "", ratio[160] = "", escaped[240] = "";
		char untimed[64] = "";

		if (r->claim != c || !d)
			continue;
		settle_command_cpu(r, &user, &sys);
		if (settle_command_cpu_cmp(rep, i, &cmp) == 0) {
			char ci[48] = "", q[3][32];

			if (settle_interval_reached(&cmp))
				snprintf(ci, sizeof(ci), " [%s, %s]",
					 settle_format_ratio(cmp.lo, q[0], 32),
					 settle_format_ratio(cmp.hi, q[1], 32));
			snprintf(ratio, sizeof(ratio), "; CPU time %sx%s "
				 "%s%s%s%s",
				 settle_format_ratio(cmp.ratio, q[2], 32), ci,
				 settle_verdict_name(cmp.verdict),
				 cmp.why ? " (" : "", cmp.why ? cmp.why : "",
				 cmp.why ? ")" : "");
		}
		if (d->failed_untimed)
			snprintf(untimed, sizeof(untimed), ", and %zu warm-up "
				 "or profiled runs", d->failed_untimed);
		if (d->failed || d->failed_untimed)
			snprintf(failed, sizeof(failed), "; %zu of %zu runs "
				 "failed%s: exited non-zero or killed by a "
				 "signal (--ignore-failure)", d->failed, d->n,
				 untimed);
		if (d->escaped)
			snprintf(escaped, sizeof(escaped), "; its runs left "
				 "%zu process%s running outside its process "
				 "group (setsid, a daemon), which settle ended "
				 "after each run: their work is in no later "
				 "run's time (their CPU time until then is the "
				 "run's)", d->escaped,
				 d->escaped == 1 ? "" : "es");
		say(o, 1, "%s (%s): user %s, system %s%s%s%s", r->variant,
		    settle_elide(d->shell, SHOWN, cmd, sizeof(cmd)),
		    time_of(user, u, sizeof(u)),
		    time_of(sys, s, sizeof(s)), ratio, failed, escaped);
	}
	if (d0->prepare)
		say(o, 1, "--prepare: %s",
		    settle_elide(d0->prepare, SHOWN, cmd, sizeof(cmd)));
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

/* "; the upper end counts the 0.17% of samples whose chain was cut short
 * and its 91.58 ms off the CPU per run (...) as its own" when some chains
 * were cut short or the runs spent time off the CPU (st->off_ns: blocked,
 * or runnable while other work had the CPU), which perf does not sample,
 * else "", into buf. */
static const char *upper_text(const struct settle_share_stat *st, char *buf,
			      size_t len)
{
	char t[32], c[32], cut[96] = "", off[160] = "";

	buf[0] = '\0';
	if (st->cut_n)
		snprintf(cut, sizeof(cut), "the %s of samples whose chain was "
			 "cut short", pct((double)st->cut_n /
					  (double)st->samples, c, sizeof(c)));
	if (st->off_ns > 0) {
		settle_format_ns(st->off_ns, t, sizeof(t));
		snprintf(off, sizeof(off), "its %s off the CPU per run "
			 "(waiting or preempted, which perf does not sample)",
			 t);
	}
	if (cut[0] || off[0])
		snprintf(buf, len, "; the upper end counts %s%s%s as its own",
			 cut, cut[0] && off[0] ? " and " : "", off);
	return buf;
}

/* "; in % of its 95.3 ms of CPU time, longer than its 66.42 ms of wall
 * time" when st's percentages are of the CPU time, else "", into buf. */
static const char *of_cpu(const struct settle_share_stat *st, char *buf,
			  size_t len)
{
	char c[32], w[32];

	buf[0] = '\0';
	if (!st->of_cpu)
		return buf;
	settle_format_ns(st->cpu_ns, c, sizeof(c));
	settle_format_ns(st->wall_ns, w, sizeof(w));
	snprintf(buf, len, "; in %% of its %s of CPU time, longer than its "
		 "%s of wall time", c, w);
	return buf;
}

static void amdahl_line(struct out *o, const char *sym,
			const struct settle_share_stat *st)
{
	char a[SETTLE_AMDAHL_NK][32], p[SETTLE_AMDAHL_NK][32], lo[32], hi[32];
	char cpu[128], off[320];

	for (size_t j = 0; j < SETTLE_AMDAHL_NK; j++) {
		settle_format_ns(st->saved_ns[j], a[j], sizeof(a[j]));
		pct(st->saved_pct[j] / 100, p[j], sizeof(p[j]));
	}
	settle_format_ns(st->saved_lo_ns[2], lo, sizeof(lo));
	settle_format_ns(st->saved_hi_ns[2], hi, sizeof(hi));
	say(o, 2, "Amdahl: making %s k times faster saves %s (%s) "
	    "for k = 2, %s (%s) for k = 10, %s (%s, 95%% [%s, %s]%s) for k = "
	    "infinity%s", sym, a[0], p[0], a[1], p[1], a[2], p[2], lo, hi,
	    upper_text(st, off, sizeof(off)), of_cpu(st, cpu, sizeof(cpu)));
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

		if (d->share[k].impl)
			say(o, 1, "%s: perf named %llu of its samples (%s) "
			    "after implementations glibc chose for %s at load "
			    "(such as %s), and %s's share leaves them out "
			    "(--share counts them by those names)", r->variant,
			    (unsigned long long)d->share[k].impl,
			    pct((double)d->share[k].impl / (double)d->samples,
				v[0], sizeof(v[0])), sym, d->share[k].impl_name,
			    sym);
		if (d->share[k].no_debug[0])
			say(o, 1, "%s: settle found no debug information perf "
			    "reads for all the code sampled in %s, where %s "
			    "ran: perf names a sample in a copy the compiler "
			    "inlined into a caller after the caller, and %s's "
			    "share leaves such samples out (build every object "
			    "with -g, or install its debug symbols, Debian's "
			    "-dbgsym package: DWARF that perf reads, not split "
			    "into .dwo files, not clang's DWARF 5)", r->variant,
			    d->share[k].no_debug, sym, sym);
		if (settle_share_of(r, k, &st) < 0) {
			char hi[32];

			settle_format_ns(st.saved_hi_ns[2], hi, sizeof(hi));
			say(o, 1, "%s: %s is in none of its %llu samples: "
			    "either it takes under %s of the CPU time (95%% "
			    "upper bound%s; by Amdahl's law, made infinitely "
			    "fast it saves under %s), or perf knows it by "
			    "another name (perf "
			    "report --stdio lists the symbols perf saw)",
			    r->variant, sym, (unsigned long long)d->samples,
			    pct(st.with_hi, v[0], sizeof(v[0])),
			    st.unnamed_n ? ", counting the samples with a "
			    "frame perf could not name" : "", hi);
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
	if (d->cut)
		say(o, 1, "%s: %llu of its %llu samples (%s) have a call chain "
		    "cut short, which reaches no process or thread entry "
		    "(_start, clone3, ...): a symbol above the cut is missing "
		    "from them, so the upper ends with callees, and Amdahl's, "
		    "count them in", r->variant, (unsigned long long)d->cut,
		    (unsigned long long)d->samples,
		    pct((double)d->cut / (double)d->samples, v[0], 32));
	if (d->unnamed && in_none(d))
		say(o, 1, "%s: %llu of its %llu samples (%s) have a frame perf "
		    "could not name ([unknown]: code without symbols, such as "
		    "a stripped program or library, or the kernel where its "
		    "symbols are hidden): a symbol in no sample may be that "
		    "frame, so its upper ends count them in",
		    r->variant, (unsigned long long)d->unnamed,
		    (unsigned long long)d->samples,
		    pct((double)d->unnamed / (double)d->samples, v[0], 32));
}

/* Whether a command of claim c has samples whose chain was cut short. */
static int any_cut(const struct settle_report *rep,
		   const struct settle_claim_info *c)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c && rep->results[i].command &&
		    rep->results[i].command->cut)
			return 1;
	return 0;
}

static void share_part(struct out *o, const struct settle_report *rep,
		       const struct settle_claim_info *c,
		       const struct settle_command_data *d0)
{
	int dwarf = d0->call_chains == SETTLE_CHAINS_DWARF;
	unsigned again = 0;
	char more[160] = "";

	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c && rep->results[i].command)
			again += rep->results[i].command->profiled_again;
	if (again)
		snprintf(more, sizeof(more), ", and %u more profiled again and "
			 "dropped (perf unwound over a tenth of their chains with "
			 "frame pointers)", again);
	say(o, 0, "share of perf samples (perf record -e %s -c %llu %s: one "
	    "sample per %.0f us of CPU time; %u profiled runs of each "
	    "command%s, apart from the timed runs)%s:", d0->event,
	    (unsigned long long)d0->period_ns,
	    dwarf ? "--call-graph dwarf," SETTLE_STR(SETTLE_CHAINS_STACK) :
	    "-g",
	    (double)d0->period_ns / 1e3,
	    d0->profiled_runs, more, user_only(d0) ? "; user space only, as "
	    "perf_event_paranoid allows: kernel time is not in the samples "
	    "nor in the CPU time below" : "");
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c && rep->results[i].command)
			share_lines(o, &rep->results[i]);
	say(o, 0, "(95%% Wilson score intervals, which take the samples as "
	    "independent: read them as the least uncertainty; with callees "
	    "comes from %s; Amdahl: saved = share with callees x median CPU "
	    "time of a timed run%s x (1 - 1/k), in %% of its median wall "
	    "time, or of that CPU time where it is the longer, its upper end "
	    "from the share's%s and the time off the CPU: what the "
	    "symbol's samples take away, no bound, since an out-of-order CPU "
	    "overlaps work: a faster symbol saves more where work after it "
	    "waits on its results (a hash before a load that misses the "
	    "cache: the misses overlap once it is faster), less where its "
	    "work overlapped others' waits; the measured change decides, "
	    "--command NEW)",
	    dwarf ? "call chains unwound from a copy of "
	    SETTLE_STR(SETTLE_CHAINS_STACK) " bytes of each sample's stack "
	    "with the DWARF call-frame information; a chain deeper than "
	    "that, or through code without it, is cut short" :
	    "frame-pointer call chains, in which a function that sets up no "
	    "frame (a leaf in libc's assembly, such as memcpy) hides its "
	    "caller, so it can be too low even where the chain is whole",
	    user_only(d0) ? " (user)" : "",
	    any_cut(rep, c) ? " (the samples cut short counted in)" : "");
}

int settle_view_command(struct settle_view *v, struct settle_view_claim *vc)
{
	const struct settle_report *rep = v->rep;
	const struct settle_claim_info *c = vc->claim;
	const struct settle_command_data *d0 = first_data(rep, c);
	struct out o = { vc, 0 };

	if (!d0)
		return 0;
	commands_part(&o, rep, c, d0);
	if (d0->event[0])
		share_part(&o, rep, c, d0);
	return o.failed ? -1 : 0;
}


/* ---- the conclusion --------------------------------------------------- */

/* The profiled row the conclusion is about: the baseline's, else the
 * first. */
static const struct settle_view_row *profiled_row(
	const struct settle_view_claim *vc)
{
	const struct settle_view_row *first = NULL;

	for (size_t i = 0; i < vc->nrows; i++) {
		const struct settle_view_row *w = &vc->rows[i];
		const struct settle_command_data *d = w->r->command;

		if (!d || !d->event[0])
			continue;
		if (w->role == SETTLE_ROLE_BASELINE)
			return w;
		if (!first)
			first = w;
	}
	return first;
}

/* What symbol k of r saves by Amdahl's law, made infinitely fast (not a
 * bound: an out-of-order CPU overlaps work, as share_part() says under
 * the table; a hash whose latency held back cache misses, 13 % of the
 * samples, saved 33 % once faster), from its share s (found: 0 when it is
 * in no sample, settle_share_of()); appends to buf. */
static void amdahl_of(const struct settle_result *r, size_t k,
		      const struct settle_share_stat *s, int found, char *buf,
		      size_t len)
{
	const char *sym = r->command->share[k].symbol;
	char a[32], lo[32], hi[32], basis[32], p[4][32], upper[320];
	size_t used = strlen(buf);

	if (!found) {
		settle_format_ns(s->saved_hi_ns[2], hi, sizeof(hi));
		snprintf(buf + used, len - used, "%s%s is under %s of %s's CPU "
			 "time (in none of its %llu samples; 95%% upper bound%s): "
			 "by Amdahl's law, made infinitely fast it saves under "
			 "%s per run",
			 used ? "; " : "", sym, pct(s->with_hi, p[0], 32),
			 r->variant, (unsigned long long)s->samples,
			 s->unnamed_n ? ", the samples with a frame perf could "
			 "not name counted as its own" : "", hi);
		return;
	}
	settle_format_ns(s->saved_ns[2], a, sizeof(a));
	settle_format_ns(s->saved_lo_ns[2], lo, sizeof(lo));
	settle_format_ns(s->saved_hi_ns[2], hi, sizeof(hi));
	settle_format_ns(s->basis_ns, basis, sizeof(basis));
	snprintf(buf + used, len - used, "%s%s is %s [%s, %s] of %s's CPU time "
		 "with its callees: by Amdahl's law, made infinitely fast it "
		 "saves %s [%s, %s] of %s%s per run (%s%s)", used ? "; " : "",
		 sym,
		 pct(s->with, p[0], 32), pct(s->with_lo, p[1], 32),
		 pct(s->with_hi, p[2], 32), r->variant, a, lo, hi, basis,
		 s->of_cpu ? " of CPU time" : "",
		 pct(s->saved_pct[2] / 100, p[3], 32),
		 upper_text(s, upper, sizeof(upper)));
}

/*
 * Says in why that symbol sym's figure (its share st) is not one to quote
 * when the
 * upper end of what it saves lies more than SETTLE_QUOTE_SPREAD of the
 * run above the estimate (chains cut short, time off the CPU, which may
 * be its own): a leaf function of 16.56 % of the samples, 36 % of the
 * chains cut short and 23 ms of a 118 ms run off the CPU, read
 * "settled: ... saves 70.29 ms [32.71 ms, 70.99 ms]" with them in the
 * estimate; the program saved 17 ms without it.
 */
static void too_uncertain(const char *sym, const struct settle_share_stat *st,
			  char *why, size_t whylen)
{
	double part[3];
	char a[32], hi[32], t[3][32];

	if (!st->with_n || !(st->saved_hi_ns[2] - st->saved_ns[2] >
			     SETTLE_QUOTE_SPREAD * st->basis_ns))
		return;
	/* the upper end's three parts: the samples' own spread, the chains
	 * cut short (with frames perf could not name), the time off the CPU
	 * (a spread of too few samples was blamed on 20 us off the CPU) */
	part[0] = (st->with_hi_own - st->with) * st->cpu_ns;
	part[1] = (st->with_hi - st->with_hi_own) * st->cpu_ns;
	part[2] = st->off_ns;
	for (int j = 0; j < 3; j++)
		settle_format_ns(part[j] > 0 ? part[j] : 0, t[j], sizeof(t[j]));
	settle_format_ns(st->saved_ns[2], a, sizeof(a));
	settle_format_ns(st->saved_hi_ns[2], hi, sizeof(hi));
	snprintf(why, whylen, "too uncertain to quote (what %s saves by "
		 "Amdahl's law, %s, reaches %s at the upper end, more than "
		 "%.0f %% of a run beyond it: %s from the spread of %llu "
		 "samples, %s from the chains cut short, %s off the CPU)", sym,
		 a, hi, 100 * SETTLE_QUOTE_SPREAD, t[0],
		 (unsigned long long)st->samples, t[1], t[2]);
}

/*
 * What all --share symbols of r together save by Amdahl's law, made
 * infinitely fast (ns of CPU time per run), by the upper end of the
 * share of the samples with any of them in the chain, or cut short (or,
 * when one of them is in no sample, with a frame perf could not name).
 * Not the sum of each symbol's figure: a symbol called by another is in
 * its samples too.
 */
static double union_saved(const struct settle_result *r)
{
	const struct settle_command_data *d = r->command;
	double lo, hi_own, hi, cpu, off;
	uint64_t maybe = d->cut;

	if (!d->samples)
		return 0;
	if (in_none(d)) /* perf found a symbol nowhere */
		maybe += d->unnamed;
	with_interval(d->any, maybe, d->samples, &lo, &hi_own, &hi);
	cpu = sampled_cpu_ns(r, &off);
	return hi * cpu + off;
}

/* The least a compared row saves against the baseline's median wall time
 * per run, by the interval's upper end (ns; <= 0 when it may save none). */
static double least_saved(const struct settle_view_row *w,
			  const struct settle_view_row *base)
{
	const struct settle_comparison *c = &w->r->cmp;

	if (w->role != SETTLE_ROLE_COMPARED || w->status != SETTLE_ROW_MEASURED
	    || c->ratio <= 0)
		return 0;
	return (1 - c->hi) * base->r->sum.median;
}

/*
 * A command that ran on more than one CPU at once (its CPU time above its
 * wall time): the samples speak of the CPU time a symbol takes, not the wall
 * time, since a thread's wait in it is in no sample (a program whose main
 * thread slept 200 ms in work() while two others spun read "saves at most
 * 7.906 ms", settled). Says so in why, if empty.
 */
static void parallel(const struct settle_result *r, char *why, size_t whylen)
{
	char c[32], w[32];
	double off, cpu = sampled_cpu_ns(r, &off);
	unsigned t = r->command->busy_threads;

	if (!why[0] && t > 1) { /* its CPU time may stay below its wall time:
				 * a helper spinning 85 ms beside a 100 ms
				 * sleep in work() read "saves at most 28.07
				 * ms", settled */
		snprintf(why, whylen, "%s ran as %s%u threads or processes "
			 "(that perf sampled, the shell aside; at once or one "
			 "after another): a wait in a symbol on "
			 "one while another ran is in no sample, and its share "
			 "says nothing of the wall time (profile one program, one "
			 "thread)", r->variant,
			 t > SETTLE_THREADS_MAX ? "more than " : "",
			 t > SETTLE_THREADS_MAX ? SETTLE_THREADS_MAX : t);
		return;
	}
	if (why[0] || !(cpu > r->sum.median))
		return;
	settle_format_ns(cpu, c, sizeof(c));
	settle_format_ns(r->sum.median, w, sizeof(w));
	snprintf(why, whylen, "%s ran on more than one CPU at once (%s of CPU "
		 "time in %s): the samples speak of the CPU time a symbol "
		 "takes, not the wall time (a thread's wait in it is in no "
		 "sample)", r->variant, c, w);
}

int settle_command_conclusion(const struct settle_view_claim *vc,
			      char *sentence, size_t len, char *why,
			      size_t whylen)
{
	const struct settle_view_row *b = profiled_row(vc);
	const struct settle_command_data *d;
	struct settle_share_stat st[SETTLE_SHARE_MAX];
	int found[SETTLE_SHARE_MAX];
	double saved = 0;
	size_t used, nmeasured = 0;

	why[0] = sentence[0] = '\0';
	if (!b)
		return 0;
	d = b->r->command;
	if (d->samples == 0) {
		snprintf(why, whylen, "no perf samples of %s: it ran for less "
			 "than perf's period each time", b->r->variant);
		snprintf(sentence, len, "%s", why);
		return 1;
	}
	for (size_t k = 0; k < d->nshare && k < SETTLE_SHARE_MAX; k++) {
		found[k] = settle_share_of(b->r, k, &st[k]) == 0;
		amdahl_of(b->r, k, &st[k], found[k], sentence, len);
		/* samples perf named after glibc's implementation of it
		 * (memcpy's 36 % as __memmove_avx512_unaligned_erms) are
		 * out of its share: no figure holds */
		if (!why[0] && d->share[k].impl)
			snprintf(why, whylen, "perf named %llu of %s's samples "
				 "after implementations glibc chose for %s at "
				 "load (such as %s), which %s's share leaves out "
				 "(--share counts them by those names)",
				 (unsigned long long)d->share[k].impl,
				 b->r->variant, d->share[k].symbol,
				 d->share[k].impl_name, d->share[k].symbol);
		/* without debug information perf names a sample in a copy
		 * inlined into a caller after the caller: a helper's work(),
		 * inlined for three quarters of its calls, read 11.98 %, a
		 * third of what it saved, settled */
		if (!why[0] && d->share[k].no_debug[0])
			snprintf(why, whylen, "settle found no debug "
				 "information perf reads for all the code "
				 "sampled in %s, where %s ran: perf names a "
				 "sample in a copy the compiler inlined into a "
				 "caller after the caller, so %s's share may be "
				 "too low (build every object with -g, or "
				 "install its debug symbols)",
				 d->share[k].no_debug, d->share[k].symbol,
				 d->share[k].symbol);
		/* a figure for a name no sample has rests on the name: a
		 * misspelling read "settled: nosuchsym is under 0.50 %", and
		 * so did memcpy at 36 % of the time, its samples named
		 * after glibc's implementation */
		if (!why[0] && !found[k])
			snprintf(why, whylen, "%s is in none of %s's samples: "
				 "perf may know it by another name (a "
				 "misspelling, a function inlined into its "
				 "callers, a libc function such as memcpy run "
				 "as the implementation chosen at load, e.g. "
				 "__memmove_avx2_unaligned_erms: perf report "
				 "--stdio lists the names), or it only jumps "
				 "to another function (a tail call), whose "
				 "samples name no caller%s",
				 d->share[k].symbol, b->r->variant,
				 d->unnamed ? ", or the program has no symbol "
				 "for it (stripped: perf could not name a "
				 "frame of some samples)" : "");
	}
	saved = union_saved(b->r);
	for (size_t i = 0; i < vc->nrows && b->role == SETTLE_ROLE_BASELINE;
	     i++) {
		const struct settle_view_row *w = &vc->rows[i];
		char s[32], bd[32], ci[40];

		if (w->role != SETTLE_ROLE_COMPARED ||
		    w->status != SETTLE_ROW_MEASURED || w->r->cmp.ratio <= 0)
			continue;
		used = strlen(sentence);
		/* the interval as the table shows it: none below
		 * SETTLE_MIN_LEVEL */
		ci[0] = '\0';
		if (w->lo[0])
			snprintf(ci, sizeof(ci), " [%s, %s]", w->lo, w->hi);
		snprintf(sentence + used, len - used, "%s%s%s%s %s%s %s",
			 nmeasured ? ", " : "; against ",
			 nmeasured ? "" : b->label, nmeasured ? "" : ": ",
			 w->label, w->ratio, ci, w->verdict);
		nmeasured++;
		if (why[0] || least_saved(w, b) <= saved)
			continue;
		settle_format_ns(least_saved(w, b), s, sizeof(s));
		settle_format_ns(saved, bd, sizeof(bd));
		snprintf(why, whylen, "%s saves at least %s per run, more than "
			 "the upper end of what Amdahl's law gives the --share "
			 "symbols, %s (it "
			 "changed more than them, perf missed their callees, "
			 "or work after them waited on their results, such as "
			 "loads that miss the cache, which overlap once they "
			 "are faster)", w->label, s, bd);
	}
	parallel(b->r, why, whylen);
	for (size_t k = 0; k < d->nshare && k < SETTLE_SHARE_MAX && !why[0];
	     k++)
		too_uncertain(d->share[k].symbol, &st[k], why, whylen);
	return 1;
}

/* The index of --share symbol sym in r's profile, or -1: r was not
 * profiled for it. */
static long share_index(const struct settle_result *r, const char *sym)
{
	const struct settle_command_data *d = r->command;

	for (size_t k = 0; d && d->event[0] && k < d->nshare; k++)
		if (!strcmp(d->share[k].symbol, sym))
			return (long)k;
	return -1;
}

/* The share of symbol sym in r with callees: *st, and 0; -1 when r was
 * not profiled for it or has no samples. */
static int share_named(const struct settle_result *r, const char *sym,
		       struct settle_share_stat *st)
{
	long k = share_index(r, sym);

	if (k < 0 || !r->command->samples)
		return -1;
	if (settle_share_of(r, (size_t)k, st) < 0)
		st->with = st->with_lo = 0; /* in none: 0, up to hi */
	return 0;
}

/* How d was profiled: "cpu-clock, DWARF call chains" into buf. */
static const char *profiled(const struct settle_command_data *d, char *buf,
			    size_t len)
{
	snprintf(buf, len, "%s, %s", d->event,
		 d->call_chains == SETTLE_CHAINS_DWARF ? "DWARF call chains" :
		 d->call_chains == SETTLE_CHAINS_FP ? "frame-pointer call "
						      "chains" :
		 "no call chains");
	return buf;
}

/* Whether a and b were profiled alike: the same event, and call chains
 * recorded the same way (frame pointers miss callers that DWARF finds:
 * a share "with callees" moves with the method alone). */
static int profiled_alike(const struct settle_command_data *a,
			  const struct settle_command_data *b)
{
	return !strcmp(a->event, b->event) &&
	       a->call_chains == b->call_chains;
}

/* "+14.78" or "-0.0021" percentage points */
static const char *points(double frac, char *buf, size_t len)
{
	char p[32];

	pct(fabs(frac), p, sizeof(p));
	p[strlen(p) - 1] = '\0'; /* no % sign: points */
	snprintf(buf, len, "%s%s", frac < 0 ? "-" : "+", p);
	return buf;
}

/* Why r has no share of sym to compare ("has no perf samples"), or
 * NULL: it has one. */
static const char *no_share(const struct settle_result *r, const char *sym)
{
	if (!r->command || !r->command->event[0])
		return "was not profiled (--share)";
	if (share_index(r, sym) < 0)
		return "was not profiled for it";
	return r->command->samples ? NULL : "has no perf samples";
}

/* The name of an implementation of sym that perf named samples of r
 * after, or NULL: none. */
static const char *impl_of(const struct settle_result *r, const char *sym)
{
	long k = share_index(r, sym);

	return k >= 0 && r->command->share[k].impl ?
	       r->command->share[k].impl_name : NULL;
}

/* A file of sym's code in r without debug information, or NULL. */
static const char *no_debug_of(const struct settle_result *r, const char *sym)
{
	long k = share_index(r, sym);

	return k >= 0 && r->command->share[k].no_debug[0] ?
	       r->command->share[k].no_debug : NULL;
}

/* c: sym of the command name, not compared, for the reason said in
 * text (a format and its arguments). */
static void not_compared(struct settle_compare_share *c, const char *name,
			 const char *sym, const char *fmt, ...)
{
	va_list ap;

	snprintf(c->name, sizeof(c->name), "%s", name);
	c->symbol = sym;
	c->old_with = c->old_lo = c->old_hi = NAN;
	c->new_with = c->new_lo = c->new_hi = NAN;
	c->change = c->lo = c->hi = NAN;
	c->verdict = "not compared";
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	snprintf(c->text, sizeof(c->text), "%s: %s not compared: %s", name,
		 sym, c->why);
	settle_escape_in(c->text, sizeof(c->text));
}

size_t settle_share_changes(const struct settle_result *a,
			    const struct settle_result *b, const char *name,
			    struct settle_compare_share *out, size_t max)
{
	const struct settle_command_data *d = b->command;
	const struct settle_command_data *o = a->command;
	size_t n = 0;

	/* a symbol only the old file profiled: said, not dropped (one
	 * both profiled is taken below) */
	for (size_t k = 0; o && k < o->nshare && n < max; k++)
		if (share_index(b, o->share[k].symbol) < 0)
			not_compared(&out[n++], name, o->share[k].symbol,
				     "the new file's run %s",
				     no_share(b, o->share[k].symbol));
	for (size_t k = 0; d && k < d->nshare && n < max; k++) {
		struct settle_compare_share *c = &out[n];
		struct settle_share_stat sa, sb;
		const char *sym = d->share[k].symbol;
		const char *wa = no_share(a, sym), *wb = no_share(b, sym);
		const char *ia = impl_of(a, sym), *ib = impl_of(b, sym);
		const char *na = no_debug_of(a, sym), *nb = no_debug_of(b, sym);
		char v[9][32], pa[64], pb[64];

		c->symbol = sym;
		if (wa || wb) {
			not_compared(c, name, sym, "the %s file's run %s",
				     wa ? "old" : "new", wa ? wa : wb);
			n++;
			continue;
		}
		if (ia || ib) {
			not_compared(c, name, sym, "perf named samples of the "
				     "%s file's run after %s, an implementation "
				     "glibc chose for it at load, which its "
				     "share leaves out", ia ? "old" : "new",
				     ia ? ia : ib);
			n++;
			continue;
		}
		/* a build whose inlining changed moves samples between the
		 * symbol and its callers unseen */
		if (na || nb) {
			not_compared(c, name, sym, "settle found no debug "
				     "information perf reads for all the code "
				     "sampled in %s, where it ran (the %s file's "
				     "run): perf names a sample in a copy "
				     "inlined into a caller after the caller",
				     na ? na : nb, na ? "old" : "new");
			n++;
			continue;
		}
		if (share_named(a, c->symbol, &sa) < 0 ||
		    share_named(b, c->symbol, &sb) < 0)
			continue;
		if (!profiled_alike(a->command, d)) {
			not_compared(c, name, c->symbol, "profiled with %s in "
				     "the old file, %s in the new one",
				     profiled(a->command, pa, sizeof(pa)),
				     profiled(d, pb, sizeof(pb)));
			n++;
			continue;
		}
		snprintf(c->name, sizeof(c->name), "%s", name);
		c->why[0] = '\0';
		c->old_with = sa.with;
		c->old_lo = sa.with_lo;
		c->old_hi = sa.with_hi;
		c->new_with = sb.with;
		c->new_lo = sb.with_lo;
		c->new_hi = sb.with_hi;
		c->change = settle_proportion_difference(sa.with, sa.with_lo,
							 sa.with_hi, sb.with,
							 sb.with_lo, sb.with_hi,
							 &c->lo, &c->hi);
		if (isnan(c->change))
			continue;
		c->verdict = c->lo > 0 ? "larger" : c->hi < 0 ? "smaller" :
			     "unclear";
		snprintf(c->text, sizeof(c->text), "%s: %s %s "
			 "[%s, %s] -> %s [%s, %s], %s points [%s, %s]: %s",
			 name, c->symbol, pct(sa.with, v[0], 32),
			 pct(sa.with_lo, v[1], 32), pct(sa.with_hi, v[2], 32),
			 pct(sb.with, v[3], 32), pct(sb.with_lo, v[4], 32),
			 pct(sb.with_hi, v[5], 32),
			 points(c->change, v[6], 32), points(c->lo, v[7], 32),
			 points(c->hi, v[8], 32), c->verdict);
		settle_escape_in(c->text, sizeof(c->text));
		n++;
	}
	return n;
}
