/*
 * selftest.c - settle measures itself.
 *
 * (a) A/A: one function registered as two variants; over many independent
 *     trials (each in fresh processes) the verdict should be "same", and
 *     "faster"/"slower" at most at the nominal rate.
 * (b) Detection: a variant doing a known 3 % (2 %) more work must be
 *     called "slower".
 * (c) Latencies: dependent chains of popcnt and imul timed against a
 *     dependent chain of `add reg, reg` in the same process (1 cycle per
 *     add), so neither figure is true by construction; published values
 *     (Agner Fog, "Instruction tables"; Intel optimization manual) are
 *     3 cycles for both on recent Intel cores.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/selftest.h"
#include "stats/rules.h"
#include "settle.h"
#include "util/util.h"
#include "cpu/cpu.h"

/*
 * Work: blocks of 16 dependent `add reg, reg`, one cycle each, all
 * variants through this one loop. It is written in asm, unrolled so that
 * the loop's own branch is not the bottleneck, and aligned to 64 bytes:
 * on some cores a tight loop runs at one or two cycles per iteration
 * depending on where it sits, and variants with their own copies of the
 * loop would differ by their placement, not by their work.
 */
__attribute__((noinline))
static uint64_t chain(uint64_t blocks)
{
	uint64_t x = 0;

	if (blocks == 0)
		return 0;
	__asm__ __volatile__(
		"jmp 2f\n\t"
		".p2align 6\n"
		"2:\n\t"
		".rept 16\n\t"
		"add %[n], %[x]\n\t"
		".endr\n\t"
		"dec %[n]\n\t"
		"jnz 2b\n\t"
		: [x] "+r"(x), [n] "+r"(blocks) :: "cc");
	return x;
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
 * verdict; with more, the process-level verdict. Returns 0, or -1 when a
 * trial process failed (it ended without a verdict, e.g. killed). */
static int trial(const struct settle_options *o, const struct settle_claim *c,
		 double band, enum settle_verdict *v)
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
		if (fork_process(&po, c, &cmp) < 0)
			return -1;
		est[p] = log(cmp.ratio);
	}
	if (np > 1)
		settle_compare_processes(est, np, band, &cmp);
	*v = cmp.verdict;
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
 * Dependent chains of 64 instructions per repetition, aligned like chain()
 * above so that no loop pays for its placement.
 */
#define CHAIN(insn) \
	"jmp 2f\n\t" ".p2align 6\n" "2:\n\t" \
	".rept 64\n\t" insn "\n\t" ".endr\n\t" \
	"dec %[n]\n\t" "jnz 2b\n\t"

static uint64_t add_chain(void *s, const void *arg, uint64_t n)
{
	uint64_t x = 1, y = 1, k = n;

	(void)s;
	(void)arg;
	if (n)
		__asm__ __volatile__(CHAIN("add %[y], %[x]")
				     : [x] "+r"(x), [n] "+r"(k) : [y] "r"(y)
				     : "cc");
	return n + (x & 0);
}

static uint64_t imul_chain(void *s, const void *arg, uint64_t n)
{
	uint64_t x = 3, k = n;

	(void)s;
	(void)arg;
	if (n)
		__asm__ __volatile__(CHAIN("imul %[x], %[x]")
				     : [x] "+r"(x), [n] "+r"(k) :: "cc");
	return n + (x & 0);
}

__attribute__((target("popcnt")))
static uint64_t popcnt_chain(void *s, const void *arg, uint64_t n)
{
	uint64_t x = 0xff, k = n;

	(void)s;
	(void)arg;
	if (n)
		__asm__ __volatile__(CHAIN("popcnt %[x], %[x]")
				     : [x] "+r"(x), [n] "+r"(k) :: "cc");
	return n + (x & 0);
}

static const char *no_popcnt(void *s, const void *arg)
{
	(void)s;
	(void)arg;
	return settle_cpu_has(SETTLE_CPU_POPCNT) ? NULL : "CPU lacks POPCNT";
}

static const struct settle_variant chains[] = {
	{ .name = "add", .description = "dependent add reg, reg",
	  .run = add_chain, .ops_per_iter = 64 },
	{ .name = "imul", .description = "dependent imul reg, reg",
	  .run = imul_chain, .ops_per_iter = 64 },
	{ .name = "popcnt", .description = "dependent popcnt reg, reg",
	  .run = popcnt_chain, .unavailable = no_popcnt, .ops_per_iter = 64 },
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
	if (settle_report_init(&rep, &lo, err, sizeof(err)) < 0 ||
	    settle_run_claim(&rep, &latency, NULL, 0, err, sizeof(err)) < 0)
		return -1;
	st->imul_latency_cycles = rep.results[1].ratio;
	st->popcnt_latency_cycles = rep.results[2].skipped ? 0 :
				    rep.results[2].ratio;
	st->core_ghz = settle_safe_div(1, rep.results[0].sum.median);
	st->reference_ghz = rep.timer.core_ghz;
	st->loadavg = rep.noise.loadavg;
	settle_report_free(&rep);
	return 0;
}

static double rate(unsigned k, unsigned n)
{
	return n ? (double)k / n : 0;
}

int settle_selftest_run(const struct settle_options *o, unsigned aa_trials,
			unsigned detect_trials, struct settle_selftest *st)
{
	unsigned fp = 0, same = 0, d3 = 0, d2 = 0, n_aa = 0, n3 = 0, n2 = 0;
	enum settle_verdict v;

	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < aa_trials && !settle_interrupted(); i++) {
		progress(o->progress, "A/A", i + 1, aa_trials);
		if (trial(o, &claims[0], o->band, &v) < 0) {
			st->failed_trials++;
			continue;
		}
		n_aa++;
		fp += v == SETTLE_FASTER || v == SETTLE_SLOWER;
		same += v == SETTLE_SAME;
	}
	for (unsigned i = 0; i < detect_trials && !settle_interrupted(); i++) {
		progress(o->progress, "3% more work", i + 1, detect_trials);
		if (trial(o, &claims[1], o->band, &v) < 0) {
			st->failed_trials++;
			continue;
		}
		n3++;
		d3 += v == SETTLE_SLOWER;
	}
	for (unsigned i = 0; i < detect_trials && !settle_interrupted(); i++) {
		progress(o->progress, "2% more work, band 0.5%", i + 1,
			 detect_trials);
		if (trial(o, &claims[2], 0.005, &v) < 0) {
			st->failed_trials++;
			continue;
		}
		n2++;
		d2 += v == SETTLE_SLOWER;
	}
	if (o->progress)
		fprintf(o->progress, "\r\033[K");
	/* the rates are over the trials that gave a verdict */
	st->aa_trials = n_aa;
	st->detect_trials = n3 < n2 ? n3 : n2;
	st->aa_false_positive_rate = rate(fp, n_aa);
	st->aa_same_rate = rate(same, n_aa);
	st->detect_rate_3pct = rate(d3, n3);
	st->detect_rate_2pct = rate(d2, n2);
	return latencies(o, st);
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
	fputs("  \"aa_false_positive_rate\": ", f); settle_json_number(f, st->aa_false_positive_rate);
	fputs(",\n  \"aa_same_rate\": ", f); settle_json_number(f, st->aa_same_rate);
	fprintf(f, ",\n  \"aa_trials\": %u", st->aa_trials);
	fputs(",\n  \"detect_rate_3pct\": ", f); settle_json_number(f, st->detect_rate_3pct);
	fputs(",\n  \"detect_rate_2pct\": ", f); settle_json_number(f, st->detect_rate_2pct);
	fprintf(f, ",\n  \"detect_trials\": %u", st->detect_trials);
	fprintf(f, ",\n  \"failed_trials\": %u", st->failed_trials);
	fputs(",\n  \"popcnt_latency_cycles\": ", f);
	if (st->popcnt_latency_cycles > 0)
		settle_json_number(f, st->popcnt_latency_cycles);
	else
		fputs("null", f);
	fputs(",\n  \"imul_latency_cycles\": ", f); settle_json_number(f, st->imul_latency_cycles);
	fputs(",\n  \"core_ghz\": ", f); settle_json_number(f, st->core_ghz);
	fprintf(f, ",\n  \"settings\": {\"samples\": %u, \"min_sample_ns\": ",
		o->samples);
	settle_json_number(f, o->min_sample_ns);
	fprintf(f, ", \"processes_per_trial\": %u, \"equivalence_band\": ",
		o->processes ? o->processes : 1);
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

static const char *met(int ok)
{
	return ok ? "met" : "MISSED";
}

void settle_selftest_print(FILE *f, const struct settle_selftest *st,
			   const struct settle_options *o)
{
	int aa = st->aa_false_positive_rate <= TARGET_AA_FALSE_POSITIVES &&
		 st->aa_same_rate >= TARGET_AA_SAME;
	int d3 = st->detect_rate_3pct >= TARGET_DETECT_3PCT;
	int d2 = st->detect_rate_2pct >= TARGET_DETECT_2PCT;

	fprintf(f, "settle selftest: %u samples of >= %.0f ms, %u process%s per "
		"trial, band +-%g%%\n", o->samples, o->min_sample_ns / 1e6,
		o->processes, o->processes == 1 ? "" : "es", o->band * 100);
	fprintf(f, "  A/A, %u trials: faster or slower %.1f%% (target <= %g%%), "
		"same %.1f%% (target >= %g%%): %s\n", st->aa_trials,
		100 * st->aa_false_positive_rate,
		100 * TARGET_AA_FALSE_POSITIVES, 100 * st->aa_same_rate,
		100 * TARGET_AA_SAME, met(aa));
	fprintf(f, "  3%% more work, %u trials: called slower %.1f%% (target "
		">= %g%%): %s\n", st->detect_trials,
		100 * st->detect_rate_3pct, 100 * TARGET_DETECT_3PCT, met(d3));
	fprintf(f, "  2%% more work, band 0.5%%, %u trials: called slower "
		"%.1f%% (target >= %g%%): %s\n", st->detect_trials,
		100 * st->detect_rate_2pct, 100 * TARGET_DETECT_2PCT, met(d2));
	fprintf(f, "  dependent chains against an add chain (1 cycle each, "
		"%.2f GHz):\n    imul %.2f cycles, popcnt ", st->core_ghz,
		st->imul_latency_cycles);
	if (st->popcnt_latency_cycles > 0)
		fprintf(f, "%.2f cycles\n", st->popcnt_latency_cycles);
	else
		fprintf(f, "not measured (CPU lacks POPCNT)\n");
	if (settle_noise_loaded(st->loadavg))
		fprintf(f, "  warning: other load on the machine (load average "
			"%.2f): the rates describe\n  this machine's noise as "
			"much as settle\n", st->loadavg);
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
