/*
 * selftest.c - settle measures itself.
 *
 * (a) A/A: one function registered as two variants; over many independent
 *     trials (each in fresh processes) the verdict should be "same", and
 *     "faster"/"slower" at most at the nominal rate.
 * (b) Detection: a variant doing a known 3 % (2 %) more work must be
 *     called "slower".
 * (c) Latencies: dependent chains of a multiply and a bit count (x86-64:
 *     imul, popcnt; AArch64: mul, cnt) timed against a dependent chain of
 *     register additions in the same process (1 cycle per add), so
 *     neither figure is true by construction; published values (Agner
 *     Fog, "Instruction tables"; Intel optimization manual) are 3 cycles
 *     for imul and popcnt on recent Intel cores. The chains are the
 *     architecture's (src/arch/<arch>/chains.c); where it has none, the
 *     row is not measured (n/a).
 * (d) Layouts (docs/layouts.md): a workload that moves with its place, a
 *     plain popcount loop compiled into settle at the code offsets of
 *     layouts 0-3 (src/runner/placed_popcnt.c). In layout k variant A
 *     runs copy k and variant B copy k + 2 (mod 4): the same code two
 *     16-byte slots away, as when an untouched function moved between
 *     two builds. Across the layouts A and B run the same copies, so the
 *     verdict should be "same"; with B doing 3 % more words, "slower".
 *     The same A/A trial in one layout (trial t in layout t mod 4) shows
 *     what a single layout says of it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/model.h"
#include "runner/placed.h"
#include "runner/runner.h"
#include "runner/selftest.h"
#include "stats/proportion.h"
#include "stats/rules.h"
#include "settle.h"
#include "util/util.h"
#include "cpu/cpu.h"
#include "env/env.h"

/*
 * Work: blocks of 16 dependent register additions, one cycle each, all
 * variants through this one loop (settle_arch_work_chain(): in asm,
 * unrolled and aligned, so that its placement does not change its speed
 * and variants differ by their work only).
 */
static uint64_t chain(uint64_t blocks)
{
	return settle_arch_work_chain(blocks);
}

/* 100 blocks (1600 adds) per operation; 3 % and 2 % more. */
static uint64_t work(void *s, const void *a, uint64_t n) { (void)s; (void)a; chain(n * 100); return n; }
static uint64_t work3(void *s, const void *a, uint64_t n) { (void)s; (void)a; chain(n * 103); return n; }
static uint64_t work2(void *s, const void *a, uint64_t n) { (void)s; (void)a; chain(n * 102); return n; }

static const struct settle_variant aa[] = {
	{ .name = "work", .description = "1600 dependent adds", .run = work },
	{ .name = "work-again", .description = "the same function again",
	  .run = work },
};
static const struct settle_variant plus3[] = {
	{ .name = "work", .description = "1600 dependent adds", .run = work },
	{ .name = "work+3%", .description = "1648 dependent adds", .run = work3 },
};
static const struct settle_variant plus2[] = {
	{ .name = "work", .description = "1600 dependent adds", .run = work },
	{ .name = "work+2%", .description = "1632 dependent adds", .run = work2 },
};

#define CLAIM(v) { .name = "selftest", .description = "harness self-check", \
	.op_name = "op", .variants = v, .nvariants = 2, .baseline = "work" }

static const struct settle_claim claims[] = { CLAIM(aa), CLAIM(plus3),
					      CLAIM(plus2) };

static double rate(unsigned k, unsigned n)
{
	return n ? (double)k / n : 0;
}

/* ---- layouts ------------------------------------------------------------ */

static const settle_placed_fn copies[SETTLE_PLACED_COPIES] = {
	settle_placed_popcount0, settle_placed_popcount1,
	settle_placed_popcount2, settle_placed_popcount3,
};

#define WORDS 1000 /* 8000 bytes: in the L1 data cache */

struct placed_state {
	uint64_t *w;       /* WORDS + 3 % random words, settle_alloc'ed */
	unsigned layout;
};

static void *placed_setup(const struct settle_params *p, char *err,
			  size_t len)
{
	struct placed_state *s = malloc(sizeof(*s));
	size_t n = WORDS + WORDS * 3 / 100;

	if (s)
		s->w = settle_alloc(p, n * sizeof(uint64_t), 64);
	if (!s || !s->w) {
		free(s);
		snprintf(err, len, "out of memory");
		return NULL;
	}
	settle_fill_random(s->w, n * sizeof(uint64_t), 0x1a7011u);
	s->layout = p->layout;
	return s;
}

static void placed_teardown(void *state)
{
	struct placed_state *s = state;

	if (s)
		settle_free(s->w);
	free(s);
}

/* arg: {copy offset from the layout, words}. */
struct placed_arg {
	unsigned shift;
	size_t words;
};

static uint64_t placed_run(void *state, const void *arg, uint64_t n)
{
	const struct placed_state *s = state;
	const struct placed_arg *a = arg;
	uint64_t set = copies[(s->layout + a->shift) % SETTLE_PLACED_COPIES](
		s->w, a->words, n);

	settle_keep(set);
	return n; /* the same check for every variant */
}

static const char *placed_unavailable(void *state, const void *arg)
{
	(void)state;
	(void)arg;
	return settle_arch_placed_unavailable();
}

static const struct placed_arg here = { 0, WORDS };
static const struct placed_arg moved = { SETTLE_PLACED_COPIES / 2, WORDS };
static const struct placed_arg moved3 = { SETTLE_PLACED_COPIES / 2,
					  WORDS + WORDS * 3 / 100 };

#define PLACED(n, a, d) { .name = n, .description = d, .run = placed_run, \
	.unavailable = placed_unavailable, .arg = &a }

static const struct settle_variant placed_aa[] = {
	PLACED("loop", here, "popcount loop, copy k in layout k"),
	PLACED("loop-moved", moved, "the same loop, copy k + 2"),
};
static const struct settle_variant placed_plus3[] = {
	PLACED("loop", here, "popcount loop, copy k in layout k"),
	PLACED("loop-moved+3%", moved3, "3% more words, copy k + 2"),
};

#define PLACED_CLAIM(v) { .name = "selftest-layouts", \
	.description = "harness self-check: layouts", .op_name = "op", \
	.variants = v, .nvariants = 2, .baseline = "loop", \
	.setup = placed_setup, .teardown = placed_teardown }

static const struct settle_claim layout_claims[] = { PLACED_CLAIM(placed_aa),
						     PLACED_CLAIM(placed_plus3) };

/* One process of one trial: the second variant against the first. */
static int one_process(const struct settle_options *o,
		       const struct settle_claim *c,
		       struct settle_comparison *cmp)
{
	struct settle_report rep;
	char err[256];
	int ok;

	if (settle_report_init(&rep, o, err, sizeof(err)) < 0 ||
	    settle_run_claim(&rep, c, NULL, 0, err, sizeof(err)) < 0)
		return -1;
	ok = rep.results[1].has_cmp && rep.results[1].cmp.ratio > 0;
	*cmp = rep.results[1].cmp; /* why/method point to static strings */
	/* with layouts, the estimate a process of settle run --processes
	 * gives (the mean of one per layout), not the one-process verdict's
	 * balanced rounds */
	if (ok && o->layouts > 1) {
		double e;

		ok = settle_process_estimate(&rep.results[0], &rep.results[1],
					     0, rep.results[1].nsamples,
					     &e) == 0;
		cmp->ratio = exp(e);
	}
	settle_report_free(&rep);
	return ok ? 0 : -1;
}

/* Run one process in a child: a fresh address space, timer and layout. */
static int fork_process(const struct settle_options *o,
			const struct settle_claim *c,
			struct settle_comparison *cmp)
{
	int fd[2], status;
	ssize_t k;
	pid_t pid;

	if (pipe(fd) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		int rc = one_process(o, c, cmp);

		close(fd[0]);
		if (write(fd[1], cmp, sizeof(*cmp)) != sizeof(*cmp))
			rc = -1;
		_exit(rc ? 1 : 0);
	}
	close(fd[1]);
	k = read(fd[0], cmp, sizeof(*cmp));
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0 || k != sizeof(*cmp))
		return -1;
	return 0;
}

/* One trial in nproc fresh processes: with one, that process's paired
 * verdict; with more, the process-level verdict. Each process measures
 * o's layouts from its own first one on (process p from layout
 * layout_first + p) and runs its own rounds of the design (from round p x
 * its rounds), as `settle run --processes` does. Returns 0, or -1
 * when a trial process failed (it ended without a verdict, e.g.
 * killed). */
static int trial(const struct settle_options *o, const struct settle_claim *c,
		 double band, enum settle_verdict *v, const char **why)
{
	struct settle_options po = *o;
	struct settle_comparison cmp;
	double est[64];
	unsigned np = o->processes ? o->processes : 1;

	po.processes = 1;
	po.band = band;
	po.progress = NULL;
	if (np > 64)
		np = 64;
	for (unsigned p = 0; p < np; p++) {
		if (o->layouts > 1)
			po.layout_first = (o->layout_first + p) % o->layouts;
		po.round_first = p * (unsigned long)settle_rounds_per_process(o);
		if (fork_process(&po, c, &cmp) < 0)
			return -1;
		est[p] = log(cmp.ratio);
	}
	if (np > 1)
		settle_compare_processes(est, np, band, &cmp);
	*v = cmp.verdict;
	*why = cmp.why;
	return 0;
}

static void progress(FILE *f, const char *what, unsigned k, unsigned n)
{
	if (!f)
		return;
	fprintf(f, "\r\033[Kselftest: %s, trial %u of %u", what, k, n);
	fflush(f);
}

/*
 * Dependent chains of 64 instructions per repetition, the architecture's
 * (settle_arch_latency_chains()): an add chain, a multiply and a bit
 * count; arg is the index into lat. lat[i].run NULL: not measured here.
 */
static struct settle_arch_chain lat[3];
static const int lat_index[3] = { 0, 1, 2 };

static uint64_t run_chain(void *s, const void *arg, uint64_t n)
{
	uint64_t x = lat[*(const int *)arg].run(n);

	(void)s;
	settle_keep(x);
	return n;
}

static const char *chain_unavailable(void *s, const void *arg)
{
	const struct settle_arch_chain *c = &lat[*(const int *)arg];

	(void)s;
	if (!c->run)
		return "not measured on " SETTLE_ARCH_NAME;
	return c->unavailable ? c->unavailable() : NULL;
}

static struct settle_variant chains[] = {
	{ .name = "add", .description = "dependent register additions",
	  .run = run_chain, .arg = &lat_index[0], .ops_per_iter = 64 },
	{ .name = "mul", .description = "dependent multiplies",
	  .run = run_chain, .arg = &lat_index[1],
	  .unavailable = chain_unavailable, .ops_per_iter = 64 },
	{ .name = "count", .description = "dependent bit counts",
	  .run = run_chain, .arg = &lat_index[2],
	  .unavailable = chain_unavailable, .ops_per_iter = 64 },
};

static const struct settle_claim latency = {
	.name = "latency", .description = "dependent chains", .op_name = "op",
	.variants = chains, .nvariants = 3, .baseline = "add",
};

/* Latencies in core cycles: each chain's time over the add chain's. */
static int latencies(const struct settle_options *o, struct settle_selftest *st)
{
	struct settle_report rep;
	struct settle_options lo = *o;
	char err[256];

	lo.samples = 21;
	lo.progress = NULL;
	settle_arch_latency_chains(&lat[0], &lat[1], &lat[2]);
	for (int i = 1; i < 3; i++)
		chains[i].name = lat[i].insn;
	st->mul_name = lat[1].insn;
	st->count_name = lat[2].insn;
	if (settle_report_init(&rep, &lo, err, sizeof(err)) < 0 ||
	    settle_run_claim(&rep, &latency, NULL, 0, err, sizeof(err)) < 0)
		return -1;
	st->imul_latency_cycles = rep.results[1].skipped ? 0 :
				  rep.results[1].ratio;
	st->popcnt_latency_cycles = rep.results[2].skipped ? 0 :
				    rep.results[2].ratio;
	st->mul_why = rep.results[1].skipped;
	st->count_why = rep.results[2].skipped;
	st->core_ghz = settle_safe_div(1, rep.results[0].sum.median);
	st->reference_ghz = rep.timer.core_ghz;
	snprintf(st->emulator, sizeof(st->emulator), "%s",
		 rep.machine.emulator);
	settle_report_free(&rep);
	return 0;
}

/* Verdicts of a run of trials: those that gave one, and how many said
 * faster or slower, same, slower. */
struct tally {
	unsigned n, moved, same, slower;
	unsigned few; /* unclear for too few samples */
};

/* settle_selftest.undecidable: one bit a target */
enum { T_AA = 1, T_D3 = 2, T_D2 = 4, T_LAYOUT_AA = 8, T_LAYOUT_D3 = 16 };

/* bit when every trial of t was unclear for too few samples, else 0 */
static unsigned undecidable(const struct tally *t, unsigned bit)
{
	return t->n && t->few == t->n ? bit : 0;
}

/*
 * k trials of claim c with o's settings and band, progress shown as
 * what; with rotate, trial i starts at layout i mod SETTLE_PLACED_COPIES.
 * A trial whose processes failed counts in st->failed_trials, not in t.
 */
static void run_trials(const struct settle_options *o,
		       const struct settle_claim *c, double band, unsigned k,
		       const char *what, int rotate, struct settle_selftest *st,
		       struct tally *t)
{
	struct settle_options po = *o;
	enum settle_verdict v;
	const char *why;

	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < k && !settle_interrupted(); i++) {
		progress(o->progress, what, i + 1, k);
		if (rotate)
			po.layout_first = i % SETTLE_PLACED_COPIES;
		if (trial(&po, c, band, &v, &why) < 0) {
			st->failed_trials++;
			continue;
		}
		t->few += v == SETTLE_UNCLEAR && settle_why_too_few(why);
		t->n++;
		t->moved += v == SETTLE_FASTER || v == SETTLE_SLOWER;
		t->same += v == SETTLE_SAME;
		t->slower += v == SETTLE_SLOWER;
	}
}

/*
 * The layout trials (d): layout_trials A/A trials with o's layouts,
 * layout_trials / 2 with 3 % more work, layout_trials / 5 (at least 4)
 * A/A trials in one layout each, the layouts in turn (what one layout
 * says is plain after a few). Skipped (no trials, st->layout_why says
 * why) with one layout or where settle_arch_placed_unavailable() says so.
 */
static void layout_trials(const struct settle_options *o, unsigned trials,
			  struct settle_selftest *st)
{
	unsigned singles = trials / 5 < 4 ? (trials < 4 ? trials : 4) :
			   trials / 5;
	struct settle_options one = *o;
	struct tally aa, d3, single;

	st->layouts = o->layouts;
	st->layout_why = o->layouts < 2 ? "one layout per trial: --layouts" :
			 !trials ? "--layout-trials 0" :
			 settle_arch_placed_unavailable();
	if (st->layout_why)
		return;
	run_trials(o, &layout_claims[0], o->band, trials, "layout A/A", 0, st,
		   &aa);
	run_trials(o, &layout_claims[1], o->band, trials / 2,
		   "layouts, 3% more work", 0, st, &d3);
	one.layouts = 1;
	one.samples = settle_rounds_per_process(o); /* as many as the others */
	run_trials(&one, &layout_claims[0], o->band, singles,
		   "A/A in one layout", 1, st, &single);
	st->undecidable |= undecidable(&aa, T_LAYOUT_AA) |
			   undecidable(&d3, T_LAYOUT_D3);
	st->layout_aa_trials = aa.n;
	st->layout_detect_trials = d3.n;
	st->layout_single_trials = single.n;
	st->layout_aa_false_positive_rate = rate(aa.moved, aa.n);
	st->layout_aa_same_rate = rate(aa.same, aa.n);
	st->layout_detect_rate_3pct = rate(d3.slower, d3.n);
	st->layout_aa_false_positive_rate_single = rate(single.moved,
							single.n);
}

int settle_selftest_run(const struct settle_options *o, unsigned aa_trials,
			unsigned detect_trials, unsigned layout_trials_n,
			struct settle_selftest *st)
{
	struct tally aa, d3, d2;
	struct settle_noise n;
	struct settle_noise_start s;
	int rc;

	memset(st, 0, sizeof(*st));
	settle_noise_begin(&n, &s);
	run_trials(o, &claims[0], o->band, aa_trials, "A/A", 0, st, &aa);
	run_trials(o, &claims[1], o->band, detect_trials, "3% more work", 0,
		   st, &d3);
	run_trials(o, &claims[2], 0.005, detect_trials,
		   "2% more work, band 0.5%", 0, st, &d2);
	layout_trials(o, layout_trials_n, st);
	if (o->progress)
		fprintf(o->progress, "\r\033[K");
	/* the rates are over the trials that gave a verdict */
	st->undecidable |= undecidable(&aa, T_AA) | undecidable(&d3, T_D3) |
			   undecidable(&d2, T_D2);
	st->aa_trials = aa.n;
	st->detect_trials = d3.n < d2.n ? d3.n : d2.n;
	st->aa_false_positive_rate = rate(aa.moved, aa.n);
	st->aa_same_rate = rate(aa.same, aa.n);
	st->detect_rate_3pct = rate(d3.slower, d3.n);
	st->detect_rate_2pct = rate(d2.slower, d2.n);
	rc = latencies(o, st);
	/* over every trial, whose processes were waited for: their time is
	 * the selftest's own */
	settle_noise_end(&n, &s);
	st->loadavg = n.loadavg;
	st->other_cpus = n.other_cpus;
	return rc;
}

/* A layout rate, or null when its trials were not run. */
static void layout_rate(FILE *f, const struct settle_selftest *st,
			unsigned trials, double r)
{
	(void)st;
	if (trials)
		settle_json_number(f, r);
	else
		fputs("null", f);
}

static void targets_json(FILE *f, const struct settle_selftest *st,
			 const struct settle_options *o);

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
	fputs("  \"aa_false_positive_rate\": ", f); settle_json_number(f, st->aa_false_positive_rate);
	fputs(",\n  \"aa_same_rate\": ", f); settle_json_number(f, st->aa_same_rate);
	fprintf(f, ",\n  \"aa_trials\": %u", st->aa_trials);
	fputs(",\n  \"detect_rate_3pct\": ", f); settle_json_number(f, st->detect_rate_3pct);
	fputs(",\n  \"detect_rate_2pct\": ", f); settle_json_number(f, st->detect_rate_2pct);
	fprintf(f, ",\n  \"detect_trials\": %u", st->detect_trials);
	fprintf(f, ",\n  \"failed_trials\": %u", st->failed_trials);
	fputs(",\n  \"layout_aa_false_positive_rate\": ", f);
	layout_rate(f, st, st->layout_aa_trials,
		    st->layout_aa_false_positive_rate);
	fputs(",\n  \"layout_aa_same_rate\": ", f);
	layout_rate(f, st, st->layout_aa_trials, st->layout_aa_same_rate);
	fprintf(f, ",\n  \"layout_aa_trials\": %u", st->layout_aa_trials);
	fputs(",\n  \"layout_detect_rate_3pct\": ", f);
	layout_rate(f, st, st->layout_detect_trials,
		    st->layout_detect_rate_3pct);
	fprintf(f, ",\n  \"layout_detect_trials\": %u",
		st->layout_detect_trials);
	fputs(",\n  \"layout_aa_false_positive_rate_single\": ", f);
	layout_rate(f, st, st->layout_single_trials,
		    st->layout_aa_false_positive_rate_single);
	fprintf(f, ",\n  \"layout_single_trials\": %u",
		st->layout_single_trials);
	targets_json(f, st, o);
	fputs(",\n  \"popcnt_latency_cycles\": ", f);
	if (st->popcnt_latency_cycles > 0)
		settle_json_number(f, st->popcnt_latency_cycles);
	else
		fputs("null", f);
	fputs(",\n  \"imul_latency_cycles\": ", f);
	if (st->imul_latency_cycles > 0)
		settle_json_number(f, st->imul_latency_cycles);
	else
		fputs("null", f);
	fputs(",\n  \"mul_instruction\": ", f);
	settle_json_string(f, st->mul_name ? st->mul_name : "");
	fputs(",\n  \"count_instruction\": ", f);
	settle_json_string(f, st->count_name ? st->count_name : "");
	fputs(",\n  \"core_ghz\": ", f); settle_json_number(f, st->core_ghz);
	fputs(",\n  \"loadavg\": ", f); settle_json_number(f, st->loadavg);
	fputs(",\n  \"other_cpus\": ", f);
	settle_json_number(f, st->other_cpus >= 0 ? st->other_cpus : NAN);
	fprintf(f, ",\n  \"settings\": {\"samples\": %u, \"min_sample_ns\": ",
		settle_rounds_per_process(o));
	settle_json_number(f, o->min_sample_ns);
	fprintf(f, ", \"processes_per_trial\": %u, \"layouts\": %u, "
		"\"equivalence_band\": ", o->processes ? o->processes : 1,
		o->layouts > 1 ? o->layouts : 1);
	settle_json_number(f, o->band);
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

/* The targets of the harness (README, "How far to trust a verdict"). */
#define TARGET_AA_FALSE_POSITIVES 0.05
#define TARGET_AA_SAME 0.80
#define TARGET_DETECT_3PCT 0.90
#define TARGET_DETECT_2PCT 0.80
/* ...and with layouts (issue "verdicts that survive layout"): A/A on a
 * workload that moves with its place, and 3 % more of it. */
#define TARGET_LAYOUT_AA_FALSE_POSITIVES 0.05
#define TARGET_LAYOUT_AA_SAME 0.80
#define TARGET_LAYOUT_DETECT_3PCT 0.90


/* A target: a rate of trials at most (at_most) or at least its goal, and
 * for the A/A targets a second rate (same, at least goal2); bit, the
 * target's settle_selftest.undecidable bit. */
struct target {
	const char *key;
	unsigned bit, trials;
	double rate, goal, rate2, goal2;
	int at_most, two;
};

/* The five targets of st, in the order they are printed. */
static void targets(const struct settle_selftest *st, struct target *t)
{
	t[0] = (struct target){ "aa", T_AA, st->aa_trials,
		st->aa_false_positive_rate, TARGET_AA_FALSE_POSITIVES,
		st->aa_same_rate, TARGET_AA_SAME, 1, 1 };
	t[1] = (struct target){ "detect_3pct", T_D3, st->detect_trials,
		st->detect_rate_3pct, TARGET_DETECT_3PCT, 0, 0, 0, 0 };
	t[2] = (struct target){ "detect_2pct", T_D2, st->detect_trials,
		st->detect_rate_2pct, TARGET_DETECT_2PCT, 0, 0, 0, 0 };
	t[3] = (struct target){ "layout_aa", T_LAYOUT_AA, st->layout_aa_trials,
		st->layout_aa_false_positive_rate,
		TARGET_LAYOUT_AA_FALSE_POSITIVES, st->layout_aa_same_rate,
		TARGET_LAYOUT_AA_SAME, 1, 1 };
	t[4] = (struct target){ "layout_detect_3pct", T_LAYOUT_D3,
		st->layout_detect_trials, st->layout_detect_rate_3pct,
		TARGET_LAYOUT_DETECT_3PCT, 0, 0, 0, 0 };
}

enum state { MET, MISSED, OPEN, NOT_JUDGED, NOT_MEASURED };

/* One rate against its goal: met when its one-sided 95 % bound
 * (settle_binomial_bounds(), exact) lies on the goal's side, missed when
 * the other bound lies beyond it, else open; [*lo, *hi] the bounds. */
static enum state judge_rate(double rate, unsigned n, double goal,
			     int at_most, double *lo, double *hi)
{
	uint64_t k = (uint64_t)llround(rate * n);

	if (settle_binomial_bounds(k, n, 0.05, lo, hi) < 0)
		return OPEN;
	if (at_most)
		return *hi <= goal ? MET : *lo > goal ? MISSED : OPEN;
	return *lo >= goal ? MET : *hi < goal ? MISSED : OPEN;
}

/*
 * Whether t is met. Under --quick none is judged (too few samples and
 * trials for the rates to mean anything; a newcomer saw a column of
 * MISSED), nor when no trial could decide anything (few: every verdict
 * unclear for too few samples, as with --samples 1 --processes 1, and
 * --quick's 3 samples a layout). Otherwise met or MISSED only when the
 * trials show it: 1 trial of 1 called slower is no rate of 90 % (its
 * bounds are 5-100 %); open, with the bounds of the rate that is open in
 * [*lo, *hi], when the rate's bounds hold the goal.
 */
static enum state judge(const struct target *t, const struct settle_selftest *st,
			const struct settle_options *o, double *lo,
			double *hi)
{
	enum state a, b;
	double lo2, hi2;

	*lo = *hi = 0;
	if (!t->trials)
		return NOT_MEASURED;
	if (o->quick || (st->undecidable & t->bit))
		return NOT_JUDGED;
	a = judge_rate(t->rate, t->trials, t->goal, t->at_most, lo, hi);
	if (!t->two)
		return a;
	b = judge_rate(t->rate2, t->trials, t->goal2, 0, &lo2, &hi2);
	if (a == MISSED || b == MISSED)
		return MISSED;
	if (a == MET && b == MET)
		return MET;
	if (a == MET) {
		*lo = lo2;
		*hi = hi2;
	}
	return OPEN;
}

/* The word of target t, in buf (len bytes); returns buf. */
static const char *met(const struct target *t, const struct settle_selftest *st,
		       const struct settle_options *o, char *buf, size_t len)
{
	double lo, hi;

	switch (judge(t, st, o, &lo, &hi)) {
	case NOT_MEASURED: /* a rate of no trials is no miss */
		return "not measured (0 trials)";
	case NOT_JUDGED:
		if (st->undecidable & t->bit) /* its 0.0 % rates are of
					       * unclear verdicts: said so */
			return o->quick ? "not judged (--quick; too few "
					  "samples for a verdict)" :
					  "not judged (too few samples for a "
					  "verdict)";
		return "not judged (--quick)";
	case OPEN:
		snprintf(buf, len, "not judged (%u trial%s too few: the "
			 "rate's 95%% bounds are %.1f%% and %.1f%%)",
			 t->trials, t->trials == 1 ? "" : "s", 100 * lo,
			 100 * hi);
		return buf;
	case MET:
		return "met";
	case MISSED:
		break;
	}
	return "MISSED";
}

/* ,"targets": {"aa": "met", ...}: each target's state as judge() finds
 * it ("met", "missed", "too few trials", "not judged", "not measured"). */
static void targets_json(FILE *f, const struct settle_selftest *st,
			 const struct settle_options *o)
{
	static const char *const words[] = {
		[MET] = "met", [MISSED] = "missed", [OPEN] = "too few trials",
		[NOT_JUDGED] = "not judged", [NOT_MEASURED] = "not measured",
	};
	struct target t[SETTLE_SELFTEST_TARGETS];
	double lo, hi;

	targets(st, t);
	fputs(",\n  \"targets\": {", f);
	for (size_t i = 0; i < SETTLE_SELFTEST_TARGETS; i++)
		fprintf(f, "%s\"%s\": \"%s\"", i ? ", " : "", t[i].key,
			words[judge(&t[i], st, o, &lo, &hi)]);
	fputs("}", f);
}

unsigned settle_selftest_missed(const struct settle_selftest *st,
				const struct settle_options *o)
{
	struct target t[SETTLE_SELFTEST_TARGETS];
	unsigned missed = 0;
	double lo, hi;

	targets(st, t);
	for (size_t i = 0; i < SETTLE_SELFTEST_TARGETS; i++)
		missed += judge(&t[i], st, o, &lo, &hi) == MISSED;
	return missed;
}

/* "s" after a count of trials other than 1. */
static const char *trials_s(unsigned n)
{
	return n == 1 ? "" : "s";
}

/* The layout trials and their targets. */
static void layout_print(FILE *f, const struct settle_selftest *st,
			 const struct settle_options *o)
{
	struct target t[SETTLE_SELFTEST_TARGETS];
	char rate[16] = "-", w1[96], w2[96];

	if (!st->layout_aa_trials) {
		fprintf(f, "  layouts: not measured (%s)\n",
			st->layout_why ? st->layout_why : "interrupted");
		return;
	}
	targets(st, t);
	fprintf(f, "  a popcount loop that moves with its place, %u layouts "
		"(copy k vs copy k+2):\n", st->layouts);
	fprintf(f, "    A/A, %u trial%s: faster or slower %.1f%% (target <= "
		"%g%%), same %.1f%% (target >= %g%%): %s\n",
		st->layout_aa_trials, trials_s(st->layout_aa_trials),
		100 * st->layout_aa_false_positive_rate,
		100 * TARGET_LAYOUT_AA_FALSE_POSITIVES,
		100 * st->layout_aa_same_rate, 100 * TARGET_LAYOUT_AA_SAME,
		met(&t[3], st, o, w1, sizeof(w1)));
	if (st->layout_detect_trials)
		snprintf(rate, sizeof(rate), "%.1f%%",
			 100 * st->layout_detect_rate_3pct);
	fprintf(f, "    3%% more work, %u trial%s: called slower %s "
		"(target >= %g%%): %s\n", st->layout_detect_trials,
		trials_s(st->layout_detect_trials), rate,
		100 * TARGET_LAYOUT_DETECT_3PCT,
		met(&t[4], st, o, w2, sizeof(w2)));
	fprintf(f, "    the same A/A in one layout, %u trial%s: faster or "
		"slower %.1f%% (what one layout says)\n",
		st->layout_single_trials, trials_s(st->layout_single_trials),
		100 * st->layout_aa_false_positive_rate_single);
}

/* "imul 3.00 cycles", or "mul n/a (not measured on generic)". */
static void print_latency(FILE *f, const char *insn, double cycles,
			  const char *why)
{
	fprintf(f, "%s ", insn ? insn : "?");
	if (cycles > 0)
		fprintf(f, "%.2f cycles", cycles);
	else
		fprintf(f, "n/a (%s)", why ? why : "not measured");
}

/* A warning when other work kept the machine busy during the selftest
 * (settle_noise_busy(): measured, or where unknown the load average at
 * the start). */
static void other_work(FILE *f, const struct settle_selftest *st)
{
	struct settle_noise n = { .loadavg = st->loadavg,
				  .other_cpus = st->other_cpus, .known = 1 };
	char what[64];

	if (!settle_noise_busy(&n))
		return;
	if (n.other_cpus >= 0)
		snprintf(what, sizeof(what), "%.2f CPUs busy with other work",
			 n.other_cpus);
	else
		snprintf(what, sizeof(what), "load average %.2f", n.loadavg);
	fprintf(f, "  warning: other load on the machine (%s): the rates "
		"describe\n  this machine's noise as much as settle\n", what);
}

void settle_selftest_print(FILE *f, const struct settle_selftest *st,
			   const struct settle_options *o)
{
	struct target t[SETTLE_SELFTEST_TARGETS];
	char w[3][96];

	targets(st, t);
	fprintf(f, "settle selftest: %u sample%s of >= %.0f ms, %u process%s "
		"per trial, %u layout%s, band +-%g%%\n",
		settle_rounds_per_process(o),
		settle_rounds_per_process(o) == 1 ? "" : "s",
		o->min_sample_ns / 1e6, o->processes,
		o->processes == 1 ? "" : "es", o->layouts > 1 ? o->layouts : 1,
		o->layouts > 1 ? "s" : "", o->band * 100);
	fprintf(f, "  A/A, %u trial%s: faster or slower %.1f%% (target <= "
		"%g%%), same %.1f%% (target >= %g%%): %s\n", st->aa_trials,
		trials_s(st->aa_trials),
		100 * st->aa_false_positive_rate,
		100 * TARGET_AA_FALSE_POSITIVES, 100 * st->aa_same_rate,
		100 * TARGET_AA_SAME,
		met(&t[0], st, o, w[0], sizeof(w[0])));
	fprintf(f, "  3%% more work, %u trial%s: called slower %.1f%% (target "
		">= %g%%): %s\n", st->detect_trials,
		trials_s(st->detect_trials), 100 * st->detect_rate_3pct,
		100 * TARGET_DETECT_3PCT,
		met(&t[1], st, o, w[1], sizeof(w[1])));
	fprintf(f, "  2%% more work, band 0.5%%, %u trial%s: called slower "
		"%.1f%% (target >= %g%%): %s\n", st->detect_trials,
		trials_s(st->detect_trials), 100 * st->detect_rate_2pct,
		100 * TARGET_DETECT_2PCT,
		met(&t[2], st, o, w[2], sizeof(w[2])));
	layout_print(f, st, o);
	fprintf(f, "  dependent chains against an add chain (1 cycle each, "
		"%.2f GHz):\n    ", st->core_ghz);
	print_latency(f, st->mul_name, st->imul_latency_cycles, st->mul_why);
	fputs(", ", f);
	print_latency(f, st->count_name, st->popcnt_latency_cycles,
		      st->count_why);
	fputs("\n", f);
	if (st->emulator[0])
		fprintf(f, "  warning: this CPU is emulated by %s: the rates "
			"and latencies are not\n  measurements\n", st->emulator);
	other_work(f, st);
	if (st->reference_ghz > 0 &&
	    fabs(st->core_ghz / st->reference_ghz - 1) > 0.10)
		fprintf(f, "  warning: the add chain ran at %.2f GHz here but "
			"%.2f GHz at the start:\n  the reference was slowed, "
			"the latencies are unreliable\n", st->core_ghz,
			st->reference_ghz);
	if (st->failed_trials)
		fprintf(f, "  FAILED: %u trial process%s ended without a "
			"verdict (left out of the rates above)\n",
			st->failed_trials, st->failed_trials > 1 ? "es" : "");
	if (o->quick)
		fprintf(f, "  (--quick checks the plumbing; the targets need "
			"the default settings)\n");
}
