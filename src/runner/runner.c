/*
 * runner.c - pin, check, calibrate, warm up and collect samples.
 *
 * For each size of a claim: set up the state, run every variant once with
 * check_iters repetitions and compare its check value with the baseline's
 * (a fast wrong variant is never reported), choose each variant's
 * repetitions so that one sample lasts at least max(min_sample_ns,
 * 1000 x timer resolution), warm up with untimed samples (raising the
 * repetitions while one lasts less than that), then take the
 * samples interleaved: round k runs every variant once, in a row of a
 * Williams design, rows paired so that positions balance every two
 * rounds (order.c), so that slow drift (frequency, other load)
 * and what one variant leaves behind for the next hit every variant
 * alike.
 */
#include <alloca.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "env/env.h"
#include "model/model.h"
#include "prim/readlimit.h"
#include "runner/runner.h"
#include "timer/perf.h"
#include "util/placement.h"
#include "util/util.h"
#include "settle.h"

/* Repetitions never exceed this, even for a body that does nothing. */
#define MAX_ITERS (1ull << 40)

/* Repetitions are chosen for a call this much longer than the minimum
 * asked: a sample jitters about the call it was chosen from, and its
 * fastest of 15 fell 2-5 % below it in most rows (popcount, 4 KiB). */
#define SLACK 1.05

void settle_options_default(struct settle_options *o, int quick)
{
	memset(o, 0, sizeof(*o));
	o->samples = quick ? 5 : 15;
	o->min_sample_ns = quick ? 2e6 : 10e6;
	o->cpu = -1;
	o->quick = quick;
	o->device_mbps = 13;
	o->band = 0.01;
	o->processes = 1;
	o->layouts = 1;
}

/* Layouts measured in each process (settle_options.layouts). */
static unsigned nlayouts(const struct settle_options *o)
{
	return o->layouts > 1 ? o->layouts : 1;
}

/* Rounds in each layout: the samples asked for, spread evenly. */
static unsigned rounds_per_layout(const struct settle_options *o)
{
	unsigned ns = o->samples ? o->samples : 1, nl = nlayouts(o);

	return (ns + nl - 1) / nl;
}

unsigned settle_rounds_per_process(const struct settle_options *o)
{
	return rounds_per_layout(o) * nlayouts(o);
}

/*
 * The layouts are measured one after another in two passes, the second
 * in the reverse order (0 1 2 3, 3 2 1 0), so that a slow drift of the
 * machine's speed falls on every layout alike, and each layout's two
 * visits are replicates for the noise within it. The first pass starts
 * at layout_first, so that processes can start at different ones. With
 * one round per layout there is one pass.
 */
static unsigned visits(const struct settle_options *o)
{
	if (o->layouts <= 1)
		return 1;
	return rounds_per_layout(o) > 1 ? 2 * o->layouts : o->layouts;
}

static unsigned visit_layout(const struct settle_options *o, unsigned v)
{
	unsigned n = o->layouts;

	if (n <= 1)
		return o->layout_first;
	if (v >= n)
		v = 2 * n - 1 - v; /* the second pass, backwards */
	return (o->layout_first + v) % n;
}

/*
 * Rounds of visit v, the rounds before it (*k0), and the round of the
 * design its first round runs (*d0, from options.round_first on). A
 * layout's rounds run design rounds of one block, its first visit's then
 * its second's (layout b of the first pass: b x per to (b + 1) x per),
 * so that the design's pairs of rounds (settle_round_order()) fall
 * within one layout: time-ordered, 012 210 120 021 gave layout 0 of two
 * rounds 0 and 3, variant 0 first in both.
 */
static unsigned visit_rounds(const struct settle_options *o, unsigned v,
			     unsigned *k0, unsigned *d0)
{
	unsigned per = rounds_per_layout(o), n = nlayouts(o);
	unsigned first = visits(o) > n ? (per + 1) / 2 : per;
	unsigned b = v < n ? v : 2 * n - 1 - v;

	*k0 = v < n ? v * first : n * first + (v - n) * (per - first);
	*d0 = b * per + (v < n ? 0 : first);
	return v < n ? first : per - first;
}


static int pin(int cpu, char *err, size_t errlen)
{
	cpu_set_t set;

	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0)
		cpu = 0;
	if (cpu >= CPU_SETSIZE) {
		snprintf(err, errlen, "CPU %d does not exist", cpu);
		return -1;
	}
	if (!settle_cpu_allowed(cpu)) {
		snprintf(err, errlen, "cannot pin to CPU %d: not one of the "
			 "CPUs settle was allowed (its affinity at start)", cpu);
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		snprintf(err, errlen,
			 "cannot pin to CPU %d: not a CPU this process may "
			 "run on", cpu);
		return -1;
	}
	return cpu;
}

int settle_report_init(struct settle_report *rep, const struct settle_options *o,
		       char *err, size_t errlen)
{
	int cpu;

	if (settle_report_open(rep) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rep->options = *o;
	/* every layout gets the same number of rounds */
	rep->options.samples = rounds_per_layout(o) * nlayouts(o);
	cpu = pin(o->cpu, err, errlen);
	if (cpu < 0) {
		settle_report_free(rep);
		return -1;
	}
	rep->cpu = cpu;
	rep->timer = *settle_timer_init(o->quick ? 10 : 50);
	rep->timer.core_ghz = settle_estimate_core_ghz(o->quick ? 5 : 20);
	settle_machine_describe(&rep->machine);
	rep->run = calloc(1, sizeof(struct settle_noise_start));
	if (!rep->run) {
		settle_report_free(rep);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	settle_noise_begin(&rep->noise, rep->run);
	rep->noise.core_ghz_before = rep->timer.core_ghz;
	snprintf(rep->compiler, sizeof(rep->compiler), "%s",
		 settle_build_compiler());
	snprintf(rep->build_flags, sizeof(rep->build_flags), "%s",
		 settle_build_flags());
	snprintf(rep->novec_flags, sizeof(rep->novec_flags), "%s",
		 settle_build_novec_flags());
	snprintf(rep->order, sizeof(rep->order), "%s", SETTLE_ROUND_ORDER);
	settle_utc_now(rep->created, sizeof(rep->created));
	return 0;
}

void settle_report_finish(struct settle_report *rep)
{
	rep->noise.core_ghz_after =
		settle_estimate_core_ghz(rep->options.quick ? 5 : 20);
	if (rep->run)
		settle_noise_end(&rep->noise, rep->run);
	free(rep->run);
	rep->run = NULL;
}

/* A claim being measured: its live variants beside the report's results
 * (results first.. are variants[0..]). */
struct run {
	struct settle_report *rep;
	const struct settle_claim *claim;
	const struct settle_claim_info *info;
	struct settle_counters counters;
	size_t first; /* the current size's first result */
};

static double time_call(const struct settle_variant *v, void *state,
			uint64_t iters, uint64_t *check)
{
	uint64_t t0 = settle_timer_start();
	uint64_t r = v->run(state, v->arg, iters);
	uint64_t t1 = settle_timer_stop();

	if (check)
		*check = r;
	return settle_timer_ns(t1 - t0);
}

/* The fastest of t and k more calls of n repetitions, ns. */
static double fastest_of(const struct settle_variant *v, void *state,
			 uint64_t n, double t, int k)
{
	while (k-- > 0) {
		double again = time_call(v, state, n, NULL);

		t = again < t ? again : t;
	}
	return t;
}

/*
 * Repetitions for one sample of at least target ns. A call long enough
 * to extrapolate from is confirmed by the fastest of three: one call
 * preempted or disturbed reads long, and n taken from it made samples of
 * a few repetitions, too short for the clock (a row of 4 KiB popcounts
 * "below resolution" with 1 ms samples). Not a call of 64 targets or
 * more (a 4 GiB popcount, 0.2 s against 2 ms): no disturbance to doubt
 * is that long, and two more such calls would cost 0.4 s.
 */
static uint64_t calibrate(const struct settle_variant *v, void *state,
			  double target)
{
	uint64_t n = 1;

	for (int step = 0; step < 64 && n < MAX_ITERS; step++) {
		double t = time_call(v, state, n, NULL);
		double grow;

		if (t >= target / 4 && t < 64 * target)
			t = fastest_of(v, state, n, t, 2);
		if (t >= target / 4) {
			double want = (double)n * target * SLACK / t;

			if (want > (double)MAX_ITERS)
				return MAX_ITERS;
			return want < 1 ? 1 : (uint64_t)want + 1;
		}
		grow = t > 0 ? target / t : 1024;
		n *= grow > 1024 ? 1024 : grow < 2 ? 2 : (uint64_t)grow;
	}
	return n < MAX_ITERS ? n : MAX_ITERS;
}

/*
 * The warm-up: two calls of the calibrated n repetitions (one of 64
 * targets or more); while the faster lasts less than target ns, n raised
 * in proportion and two more (WARM_TRIES times at most). Calibration runs cold: a clock still
 * rising, caches and branch predictors still filling, so a body ran
 * faster afterwards and its samples lasted less than the minimum the
 * header states (0.70 of it at 4 KiB). Returns n.
 */
#define WARM_TRIES 4
static uint64_t warm_up(const struct settle_variant *v, void *state,
			uint64_t n, double target)
{
	for (int k = 0; k < WARM_TRIES; k++) {
		double t = time_call(v, state, n, NULL), want;

		/* not a second call of 64 targets (as calibrate()) */
		if (t < 64 * target)
			t = fastest_of(v, state, n, t, 1);

		if (t >= target || n >= MAX_ITERS)
			break;
		want = t > 0 ? (double)n * target * SLACK / t : 2.0 * (double)n;
		if (want > (double)MAX_ITERS)
			return MAX_ITERS;
		n = (uint64_t)want + 1;
	}
	return n;
}

/*
 * Run every available variant with it repetitions into check[]; -1 with
 * a message in err when one differs from its baseline's (agreed says
 * whether they agreed at the check before, "" for the first).
 */
static int check_at(struct run *rn, void *state, uint64_t it,
		    uint64_t *check, const char *agreed, char *err,
		    size_t errlen)
{
	const struct settle_claim *c = rn->claim;
	struct settle_result *res = &rn->rep->results[rn->first];
	size_t nv = c->nvariants;
	char sz[32];

	for (size_t i = 0; i < nv; i++)
		if (!res[i].skipped)
			check[i] = c->variants[i].run(state,
						      c->variants[i].arg, it);
	for (size_t i = 0; i < nv; i++) {
		long bi = settle_report_baseline(rn->rep, rn->first + i);

		if (res[i].skipped || res[i].reference || bi < 0)
			continue;
		bi -= (long)rn->first;
		if (res[bi].skipped || check[bi] == check[i])
			continue;
		settle_format_size(res[i].size_bytes, sz, sizeof(sz));
		snprintf(err, errlen,
			 "claim %s: variant '%s' computed %llu but the baseline "
			 "'%s' computed %llu%s%s (%llu repetition%s%s); "
			 "refusing to report it (%s)",
			 c->name, res[i].label,
			 (unsigned long long)check[i], res[bi].label,
			 (unsigned long long)check[bi],
			 res[i].size_bytes ? " at size " : "",
			 res[i].size_bytes ? sz : "", (unsigned long long)it,
			 it == 1 ? "" : "s", agreed,
			 /* agreeing at one count, not the next: its work, not
			  * its answer, differs (a loop unrolled by two that
			  * drops the last step of an odd count) */
			 agreed[0] ? "it does other work at some repetition "
			 "counts: does a loop drop the steps of a remainder?" :
			 SETTLE_CHECK_HINT);
		return -1;
	}
	return 0;
}

/*
 * Check every available variant against its baseline at the claim's
 * check_iters repetitions (kept as each result's check value) and at one
 * more: a variant that skips some of its repetitions (an unrolled loop
 * without its remainder) agreed at one repetition and ran twice as fast.
 */
static int check_all(struct run *rn, void *state, char *err, size_t errlen)
{
	const struct settle_claim *c = rn->claim;
	struct settle_result *res = &rn->rep->results[rn->first];
	uint64_t it = c->check_iters ? c->check_iters : 1;
	size_t nv = c->nvariants;
	uint64_t *check = calloc(nv, sizeof(*check));
	char agreed[64];
	int rc;

	if (!check) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = check_at(rn, state, it, check, "", err, errlen);
	for (size_t i = 0; !rc && i < nv; i++)
		res[i].check = check[i];
	snprintf(agreed, sizeof(agreed), ", where %llu agreed",
		 (unsigned long long)it);
	if (!rc)
		rc = check_at(rn, state, it + 1, check, agreed, err, errlen);
	free(check);
	return rc;
}

/* Where a claim's run stands, for the progress line on a terminal. */
struct progress {
	unsigned size_k, nsizes; /* this is size size_k (from 1) of nsizes */
	double t0;               /* when this size's sampling began, s */
	double last;             /* when the line was last drawn, s */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void format_left(double s, char *buf, size_t len)
{
	if (s < 60)
		snprintf(buf, len, "%.0f s", s < 1 ? 1 : s);
	else if (s < 3600)
		snprintf(buf, len, "%.0f min %.0f s", floor(s / 60),
			 fmod(s, 60));
	else
		snprintf(buf, len, "%.0f h %.0f min", floor(s / 3600),
			 floor(fmod(s, 3600) / 60));
}

/*
 * "claim size (size i of n): variant, sample k of N, about T left" on
 * one terminal line, redrawn at most four times a second. T extrapolates
 * the time per sample of this size over the samples left in it and in the
 * claim's remaining sizes (calibration and set-up are not counted).
 */
static void progress(const struct settle_report *rep, struct progress *pg,
		     const struct settle_result *r, unsigned round,
		     unsigned rounds, size_t done, size_t total)
{
	FILE *f = rep->options.progress;
	char of[40], sz[32], left[48] = "", line[512];
	double t;
	struct winsize ws;
	size_t cols = 80, n;

	if (!f)
		return;
	t = now_s();
	if (done == 0)
		pg->t0 = t;
	else if (t - pg->last < 0.25)
		return;
	pg->last = t;
	if (done > 0 && total > done) {
		double per = (t - pg->t0) / (double)done;
		double rest = (double)(total - done) +
			      (double)total * (pg->nsizes - pg->size_k);
		char t_left[32];

		format_left(per * rest, t_left, sizeof(t_left));
		snprintf(left, sizeof(left), ", about %s left", t_left);
	}
	snprintf(of, sizeof(of), " (size %u of %u)", pg->size_k, pg->nsizes);
	n = (size_t)snprintf(line, sizeof(line), "%s%s%s%s: %s, sample %u of "
			     "%u%s", r->claim->name, r->size_bytes ? " " : "",
			     r->size_bytes ? settle_format_size(r->size_bytes,
						sz, sizeof(sz)) : "",
			     pg->nsizes > 1 ? of : "", r->label,
			     round, rounds, left);
	if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		cols = ws.ws_col;
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	if (n > cols - 1) {
		/* one line, or \r cannot redraw it: cut between characters */
		n = cols - 1;
		while (n && (line[n] & 0xc0) == 0x80)
			n--;
		line[n] = '\0';
	}
	fprintf(f, "\r\033[K%s", line);
	fflush(f);
}

/* The CPU time of the calling thread so far (ns), or NaN. */
static double thread_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
		return NAN;
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/*
 * One sample of result k of the current size, with counters and a
 * migration check around it; the thread's CPU time during it in *cpu
 * (ns; NaN when unknown), read outside the clock's reads. Returns the
 * sample's time (ns), as measured; r->preempted counts the samples during
 * which the kernel switched the thread out while it could run (an
 * involuntary switch).
 *
 * A preempted sample keeps its time, although another task's time slice
 * lengthened it: settle cannot tell another program's work from the
 * body's own. Counting such a sample at CPU time instead (the thread's,
 * then the process's) let bodies read faster, settled, that were not: one
 * whose helper thread or child process did half its work on the same CPU
 * while it waited with sched_yield() (an involuntary switch too; 0.558x,
 * where the work took as long), and, under another task's load, a
 * variant whose baseline blocked now and then, so that only the variant's
 * samples were so counted (0.657x, where it was 1.25x slower).
 */
static double timed_sample(struct run *rn, size_t k, void *state,
			   double *cpu)
{
	struct settle_result *r = &rn->rep->results[rn->first + k];
	const struct settle_variant *v = &rn->claim->variants[k];
	uint64_t c0, i0, c1, i1;
	int counted = settle_counters_read(&rn->counters, &c0, &i0) == 0;
	long p0 = settle_thread_preemptions();
	double u0 = thread_ns();
	double t = time_call(v, state, r->iters, NULL);

	*cpu = thread_ns() - u0;
	if (p0 >= 0 && settle_thread_preemptions() > p0)
		r->preempted++;
	if (counted && settle_counters_read(&rn->counters, &c1, &i1) == 0) {
		r->cycles_total += c1 - c0;
		r->instructions_total += i1 - i0;
		r->counted_ops += r->ops_per_sample;
	}
	if (sched_getcpu() != rn->rep->cpu)
		rn->rep->noise.migrations++;
	return t;
}

/* The CPU time of the process so far (ns), or NaN. */
static double cpu_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0)
		return NAN;
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* One call of iters repetitions: its time in *wall, the process's CPU
 * time during it in *cpu (ns). */
static void pair_call(const struct settle_variant *v, void *state,
		      uint64_t iters, double *wall, double *cpu)
{
	double c0 = cpu_ns();

	*wall = time_call(v, state, iters, NULL);
	*cpu = cpu_ns() - c0;
}

/*
 * The evidence that the body's work is really repeated: SETTLE_REPEAT_PAIRS
 * (9) pairs of adjacent calls of the calibrated n and of 2n repetitions,
 * then fresh sets after pauses when the first fall under the rule
 * (repeat_again(): a noisy body, such as a ping-pong between processes, or
 * a busy machine, gets the benefit of the doubt). The analysis decides
 * (settle_result.invalid) from the fastest call of each kind: a body
 * whose time does not grow with its repetitions had its work hoisted or
 * removed. Never fewer than 9 pairs: on a busy machine every 2n call of
 * 3 pairs was once disturbed and a hoisted body passed (a CI run of
 * test_invalid); 9 disturbed in a row are far rarer.
 *
 * The pairs alternate, 2n n, n 2n, 2n n, ..., the last n 2n, so that a
 * set begins and ends with a call of 2n: when the machine turns slower
 * or faster during a set (a step, a drift), every call of n on the fast
 * side has a call of 2n on the same side, as fast for a hoisted body.
 * With every pair n first, a machine that turned slower just after a
 * set's first call gave the fastest n against slow 2n calls only, and a
 * hoisted body passed.
 *
 * A pair during which another task took the CPU keeps the CPU time of
 * its calls (all of the process's threads, CLOCK_PROCESS_CPUTIME_ID), not
 * their time: a time slice of another task lengthens a call of n or of
 * 2n by the same few milliseconds, which brought a pair's ratio towards
 * 1. On the Zen 5 guest with two busy tasks on settle's CPU each of 7
 * quick popcount runs (6 rows) called valid rows invalid (2 or 3 in the
 * 4 counted: "twice the repetitions took 1.26x the time in the median
 * pair"), and 3 of 8 did so with the guest's load at 4 from other
 * processes; with the CPU times none of 12 and none of 8. The CPU time
 * leaves out what the body sleeps, so it stands only for pairs another
 * task disturbed.
 */
static int repeat_pair(const struct settle_variant *v, void *state,
		       struct settle_result *r, size_t k)
{
	long before = settle_thread_preemptions();
	int first2 = k % 2 == 0 && k + 1 < SETTLE_REPEAT_PAIRS;
	double c1 = NAN, c2 = NAN;

	if (first2)
		pair_call(v, state, r->repeat_iters, &r->repeat2_ns[k], &c2);
	pair_call(v, state, r->iters, &r->repeat1_ns[k], &c1);
	if (!first2)
		pair_call(v, state, r->repeat_iters, &r->repeat2_ns[k], &c2);
	if (settle_thread_preemptions() == before)
		return 0;
	if (c1 > 0 && c2 > 0) {
		r->repeat1_ns[k] = c1;
		r->repeat2_ns[k] = c2;
	}
	return 1;
}

/* A pair during which another task took the CPU (seen by the kernel's
 * count of involuntary switches) is taken again, 9 times at most in a
 * set (on a CPU shared all along every pair is preempted, and the set
 * then costs twice, not ten times, its pairs): a time slice of another
 * task on this CPU lengthens a call by a fixed amount, which brings the
 * ratio of a 1 ms body towards 1 (the rule's false alarm). Disturbance
 * the kernel cannot see (a hypervisor's) stays. */
static void repeat_pairs(const struct settle_variant *v, void *state,
			 struct settle_result *r, size_t upto)
{
	int again = 9;

	while (r->nrepeat < upto)
		if (!repeat_pair(v, state, r, r->nrepeat) || again-- <= 0)
			r->nrepeat++;
}

/*
 * A machine busy with other work can slow every call of n in a burst
 * (make test on a loaded 2-CPU guest once called an endian loop
 * invalid; a CI run, one row of 476 1 ms bodies): after a pause of 20,
 * 80 and then 320 ms, 9 fresh pairs, the set whose times grow most
 * kept (settle_repeat_score(): both rules), until one passes. Work that
 * was hoisted or removed, or a call with a large cost of its own, shows
 * too little growth in every set; only such a body pays the pauses.
 */
static void repeat_again(const struct settle_variant *v, void *state,
			 struct settle_result *r)
{
	double a[SETTLE_REPEAT_PAIRS], b[SETTLE_REPEAT_PAIRS];
	double q = settle_repeat_score(r);
	size_t n = r->nrepeat;

	for (long ms = 20; ms <= 320 && q < 1; ms *= 4) {
		struct timespec pause = { 0, ms * 1000 * 1000 };
		double now;

		memcpy(a, r->repeat1_ns, sizeof(a));
		memcpy(b, r->repeat2_ns, sizeof(b));
		nanosleep(&pause, NULL);
		r->nrepeat = 0;
		repeat_pairs(v, state, r, SETTLE_REPEAT_PAIRS);
		now = settle_repeat_score(r);
		if (now > q) {
			q = now;
			n = r->nrepeat;
			continue;
		}
		memcpy(r->repeat1_ns, a, sizeof(a));
		memcpy(r->repeat2_ns, b, sizeof(b));
		r->nrepeat = n;
	}
}

static void repeat_check(const struct settle_variant *v, void *state,
			 struct settle_result *r)
{
	long blocks = settle_thread_blocks();

	if (r->iters > UINT64_MAX / 2)
		return;
	r->repeat_iters = 2 * r->iters;
	repeat_pairs(v, state, r, SETTLE_REPEAT_PAIRS);
	if (!(settle_repeat_score(r) >= 1))
		repeat_again(v, state, r);
	r->repeat_blocked = blocks < 0 || settle_thread_blocks() != blocks;
}

/* First visit: each variant's repetitions, its sample store, warm-up and
 * the repetition check. */
static int prepare(struct run *rn, void *state)
{
	struct settle_report *rep = rn->rep;
	const struct settle_options *o = &rep->options;
	const struct settle_variant *vs = rn->claim->variants;
	struct settle_result *res = &rep->results[rn->first];
	size_t nv = rn->claim->nvariants;
	double target = o->min_sample_ns;
	size_t ns = (size_t)rounds_per_layout(o) * nlayouts(o);

	if (target < 1000 * rep->timer.resolution_ns)
		target = 1000 * rep->timer.resolution_ns;
	for (size_t i = 0; i < nv; i++) {
		uint32_t per = vs[i].ops_per_iter ? vs[i].ops_per_iter : 1;

		if (settle_interrupted())
			return -2;
		if (res[i].skipped)
			continue;
		res[i].iters = calibrate(&vs[i], state, target);
		res[i].samples_ns = calloc(ns, sizeof(double));
		res[i].samples_cpu_ns = calloc(ns, sizeof(double));
		res[i].sample_layouts = nlayouts(o) > 1 || o->layout_first ?
					calloc(ns, 1) : NULL;
		if (!res[i].samples_ns || !res[i].samples_cpu_ns ||
		    (!res[i].sample_layouts && (nlayouts(o) > 1 ||
						o->layout_first)))
			return -1;
		res[i].iters = warm_up(&vs[i], state, res[i].iters, target);
		res[i].ops_per_sample = res[i].iters * per;
		repeat_check(&vs[i], state, &res[i]);
	}
	return 0;
}

/* One layout's visit: rounds [k0, k0 + rounds) of the claim's samples,
 * which run design rounds [d0, d0 + rounds) (visit_rounds()). */
struct visit {
	struct run *rn;
	void *state;
	struct progress *pg;
	unsigned layout, first, k0, rounds, total, d0;
	int rc;
};

/*
 * Before the first sample of a round, when the call before it was
 * another variant's (the last of the round before, or the warm-up), an
 * untimed call of the same variant, 1/16 of its repetitions: a Williams
 * design balances which variant runs right before which within a round
 * (settle_round_order()), not from one round to the next, where each
 * variant had one fixed predecessor (with 4 variants, variant 2 came
 * after variant 3 twice as often as after 0 or 1, and a variant that
 * left a cost for the next made an identical one 1-2 % slower). So every
 * variant's samples follow every other variant, and itself, equally
 * often.
 */
static void lead_in(const struct settle_variant *v, void *state,
		    const struct settle_result *r)
{
	time_call(v, state, r->iters / 16 + 1, NULL);
}

/*
 * The indices of res[0..nv) that run (are not skipped), into runs; their
 * number. The rounds order those alone: a design over all nv with the
 * skipped left out is no Williams design, and with one of 4 variants
 * unavailable an identical copy of the baseline ran after a variant that
 * left a cost for the next twice as often as the baseline did, and read
 * 1.04x `slower`, settled, in 6 of 6 runs.
 */
static size_t those_run(const struct settle_result *res, size_t nv,
			size_t *runs)
{
	size_t n = 0;

	for (size_t i = 0; i < nv; i++)
		if (!res[i].skipped)
			runs[n++] = i;
	return n;
}

__attribute__((noinline))
static void visit_body(struct visit *vi)
{
	struct run *rn = vi->rn;
	struct settle_report *rep = rn->rep;
	const struct settle_variant *vs = rn->claim->variants;
	struct settle_result *res = &rep->results[rn->first];
	size_t nv = rn->claim->nvariants, run, done, prev = SIZE_MAX;
	size_t *runs;

	vi->rc = vi->first ? prepare(rn, vi->state) : 0;
	for (size_t i = 0; i < nv && !vi->first && !vi->rc; i++)
		if (!res[i].skipped) /* warm up in this layout */
			time_call(&vs[i], vi->state, res[i].iters, NULL);
	if (vi->rc)
		return;
	/* once a visit, not a scan of every variant before each sample */
	runs = malloc((nv + 1) * sizeof(*runs));
	if (!runs) {
		vi->rc = -1;
		return;
	}
	run = those_run(res, nv, runs);
	done = (size_t)vi->k0 * run;
	for (unsigned k = vi->k0; k < vi->k0 + vi->rounds; k++) {
		int lead = 1;

		for (size_t j = 0; j < run; j++) {
			size_t i = runs[settle_round_order(
				run, rep->options.round_first + vi->d0 +
				     (k - vi->k0), j)];
			struct settle_result *r = &res[i];
			double t, cpu;

			if (settle_interrupted()) {
				vi->rc = -2;
				goto out;
			}
			progress(rep, vi->pg, r, k + 1, vi->total, done++,
				 run * vi->total);
			if (lead && prev != i)
				lead_in(&vs[i], vi->state, r);
			lead = 0;
			prev = i;
			t = timed_sample(rn, i, vi->state, &cpu);
			if (t < 1000 * rep->timer.resolution_ns)
				r->below_resolution = 1;
			if (!(r->shortest_sample_ns > 0) ||
			    t < r->shortest_sample_ns)
				r->shortest_sample_ns = t;
			if (r->sample_layouts)
				r->sample_layouts[r->nsamples] =
					(unsigned char)vi->layout;
			r->samples_cpu_ns[r->nsamples] =
				cpu / (double)r->ops_per_sample;
			r->samples_ns[r->nsamples++] =
				settle_safe_div(t, (double)r->ops_per_sample);
		}
	}
out:
	free(runs);
}

/* The visit with the stack pointer moved down by the layout's offset, so
 * that the variants' run() starts at another place in the stack. */
static void visit_at(struct visit *vi)
{
	size_t off = settle_layout_stack(vi->layout);
	char *pad = off ? alloca(off) : NULL;

	if (pad)
		__asm__ __volatile__("" :: "r"(pad) : "memory");
	visit_body(vi);
}

/* Why var cannot run with state, or NULL. */
static const char *unavailable_why(const struct settle_variant *var,
				   void *state)
{
	return var->unavailable ? var->unavailable(state, var->arg) : NULL;
}

/* A variant that unavailable() answers otherwise in this visit's layout
 * than in the first (it looks at the state: a buffer's address, say) is
 * skipped in all (settle_result_skip_apart()): one timed in some layouts
 * alone had its samples split into "processes" of one. */
static void available_alike(struct settle_result *r,
			    const struct settle_variant *var, void *state)
{
	if (!unavailable_why(var, state) != !r->skipped)
		settle_result_skip_apart(r);
}

/* The claim's variants in one layout: set up, check, (first visit:
 * prepare,) warm up, its rounds, tear down. */
static int visit(struct run *rn, uint64_t size, struct progress *pg,
		 unsigned v, char *err, size_t errlen)
{
	struct settle_report *rep = rn->rep;
	const struct settle_options *o = &rep->options;
	const struct settle_claim *c = rn->claim;
	unsigned k0, d0, rounds = visit_rounds(o, v, &k0, &d0);
	struct settle_params p = { size, rep->cpu, o->quick, c,
				   settle_cpu_partner(rep->cpu),
				   visit_layout(o, v), nlayouts(o) };
	struct visit vi = { rn, NULL, pg, p.layout, v == 0, k0, rounds,
			    rounds_per_layout(o) * nlayouts(o), d0, 0 };
	int rc = -1;

	settle_layout_begin();
	if (c->setup) {
		vi.state = c->setup(&p, err, errlen);
		if (!vi.state)
			return -1;
	}
	for (size_t i = 0; v == 0 && i < c->nvariants; i++) {
		const struct settle_variant *var = &c->variants[i];
		struct settle_result *r =
			settle_report_append_variant(rep, rn->info, var, size);

		if (!r) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		r->skipped = unavailable_why(var, vi.state);
	}
	for (size_t i = 0; v > 0 && i < c->nvariants; i++)
		available_alike(&rep->results[rn->first + i], &c->variants[i],
				vi.state);
	if (check_all(rn, vi.state, err, errlen) < 0)
		goto out;
	visit_at(&vi);
	rc = vi.rc;
	if (rc < 0)
		snprintf(err, errlen, rc == -2 ? "interrupted" : "out of memory");
out:
	if (c->teardown)
		c->teardown(vi.state);
	return rc;
}

/* ---- the read limit ----------------------------------------------------- */

/* The read limit is measured on at most this many bytes: beyond the
 * last-level cache a plain read streams from memory at one rate. */
#define READ_LIMIT_MAX_BYTES (256ull << 20)
#define READ_LIMIT_SAMPLES 5

struct read_state {
	const unsigned char *buf;
	size_t len;
	settle_read_limit_fn read;
};

/* iters passes in one call: the kernel launders the pointer on every
 * pass, so each repetition reads again. */
static uint64_t read_run(void *state, const void *arg, uint64_t iters)
{
	const struct read_state *s = state;

	(void)arg;
	return s->read(s->buf, s->len, iters);
}

/*
 * The read limit at size bytes, B/ns: the best of READ_LIMIT_SAMPLES
 * samples of settle_read_limit() over a 64-byte aligned buffer of
 * min(size, READ_LIMIT_MAX_BYTES) bytes, each calibrated like a
 * variant's. The best,
 * not the median: the check it serves calls a throughput impossible only
 * beyond twice the fastest plain read seen. Returns 0 (no check) when the
 * buffer cannot be had.
 */
static double read_limit_at(const struct settle_report *rep, uint64_t size)
{
	size_t len = size < READ_LIMIT_MAX_BYTES ? size : READ_LIMIT_MAX_BYTES;
	struct read_state st = { NULL, len, settle_read_limit_kernel() };
	struct settle_variant v = { .name = "read-limit", .run = read_run };
	unsigned char *buf;
	double best = INFINITY, target = rep->options.min_sample_ns;
	uint64_t n;

	/* 64-byte aligned: the limit is the best case, and an unaligned
	 * head and tail cost a short buffer up to half its speed */
	if (len == 0 || !(buf = aligned_alloc(64, (len + 63) / 64 * 64)))
		return 0;
	memset(buf, 0x5a, len); /* the pages exist before the clock runs */
	st.buf = buf;
	n = calibrate(&v, &st, target);
	for (int k = 0; k < READ_LIMIT_SAMPLES; k++) {
		double t = time_call(&v, &st, n, NULL);

		best = t > 0 && t < best ? t : best;
	}
	free(buf);
	return isfinite(best) ? (double)len * (double)n / best : 0;
}

/* Give the results of this size the read limit, for claims whose
 * operation reads its whole buffer (settle_report_analyze judges them). */
static void read_limit(struct run *rn, uint64_t size)
{
	struct settle_report *rep = rn->rep;
	double bpns;

	if (rn->claim->bytes_per_op != SETTLE_BYTES_SIZE || settle_interrupted())
		return;
	/* Under emulation (qemu-user) an emulated vector load can be slower
	 * than translated scalar code, and no time is a measurement: no
	 * limit to judge a throughput by. */
	if (rep->machine.emulator[0])
		return;
	bpns = read_limit_at(rep, size);
	for (size_t i = rn->first; i < rep->nresults; i++)
		rep->results[i].read_limit_bpns = bpns;
}

static int run_size(struct run *rn, uint64_t size, struct progress *pg,
		    char *err, size_t errlen)
{
	struct settle_report *rep = rn->rep;
	int rc = 0;

	rn->first = rep->nresults;
	for (unsigned v = 0; v < visits(&rep->options) && !rc; v++)
		rc = visit(rn, size, pg, v, err, errlen);
	if (rep->options.progress)
		fprintf(rep->options.progress, "\r\033[K");
	if (rc == 0) {
		read_limit(rn, size);
		settle_report_analyze(rep, rn->first, rep->nresults);
	}
	return rc;
}

/*
 * The figures f[0..n) a claim's scale() gave r, into r: each string
 * ended within its array, and a figure without a label, or whose value
 * is not finite or is negative, left out (a claim's NaN once printed as a
 * confident "0 s"; slots past the ones it wrote, as zeros).
 * Returns 0, or -1 when out of memory.
 */
static int keep_figures(struct settle_result *r, struct settle_figure *f,
			size_t n)
{
	size_t kept = 0;

	for (size_t k = 0; k < n; k++) {
		f[k].label[sizeof(f[k].label) - 1] = '\0';
		f[k].unit[sizeof(f[k].unit) - 1] = '\0';
		f[k].note[sizeof(f[k].note) - 1] = '\0';
		if (f[k].label[0] && isfinite(f[k].value) && f[k].value >= 0)
			f[kept++] = f[k];
	}
	if (!kept)
		return 0;
	r->figures = malloc(kept * sizeof(*f));
	if (!r->figures)
		return -1;
	memcpy(r->figures, f, kept * sizeof(*f));
	r->nfigures = kept;
	return 0;
}

/* The variant of claim c that result r measured (its name, build and
 * parameters), or NULL. */
static const struct settle_variant *variant_of(const struct settle_claim *c,
					       const struct settle_result *r)
{
	for (size_t k = 0; k < c->nvariants; k++) {
		const struct settle_variant *v = &c->variants[k];

		if (!strcmp(v->name, r->variant) &&
		    settle_same_group(v->build, v->params, v->nparams,
				      r->build, r->params, r->nparams))
			return v;
	}
	return NULL;
}

/* The scale section of results first..end of claim c (a claim scales
 * from its largest size), replacing what they had: from the results of
 * all processes, once pooled, not from the first process's. */
static int add_figures(struct settle_report *rep, const struct settle_claim *c,
		       size_t first, size_t end)
{
	struct settle_scale_ctx ctx = { 0, rep->options.device_mbps,
					rep->options.full, c, NULL };

	if (!c->scale)
		return 0;
	for (size_t i = first; i < end; i++)
		if (rep->results[i].size_bytes > ctx.largest_size)
			ctx.largest_size = rep->results[i].size_bytes;
	for (size_t i = first; i < end; i++) {
		struct settle_result *r = &rep->results[i];
		struct settle_figure f[SETTLE_MAX_FIGURES];
		size_t n;

		ctx.variant = variant_of(c, r);
		if (!ctx.variant) /* a variant the claim no longer has: */
			continue; /* its figures as the file states them */
		free(r->figures);
		r->figures = NULL;
		r->nfigures = 0;
		if (!settle_result_measured(r)) /* an invalid time in */
			continue; /* the claim's terms is a wrong figure */
		memset(f, 0, sizeof(f)); /* what scale() leaves unset is "" */
		n = c->scale(r, &ctx, f, SETTLE_MAX_FIGURES);
		if (n > SETTLE_MAX_FIGURES)
			n = SETTLE_MAX_FIGURES;
		if (keep_figures(r, f, n) < 0)
			return -1;
	}
	return 0;
}

/* Does the report's description of claim c name c's baseline? A claim
 * run through the library with a NULL baseline is described with ""
 * (settle_report_claim()); its conclusion is drawn as before. */
static int same_baseline(const struct settle_claim_info *info,
			 const struct settle_claim *c)
{
	if (c->baseline)
		return !strcmp(info->baseline, c->baseline);
	return !info->baseline[0] ||
	       (c->nvariants && !strcmp(info->baseline, c->variants[0].name));
}

int settle_conclude_claims(struct settle_report *rep,
			   const struct settle_claim *const *claims, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct settle_claim *c = claims[i];
		size_t first, end;

		for (first = 0; first < rep->nresults &&
		     strcmp(rep->results[first].claim->name, c->name); first++)
			;
		for (end = first; end < rep->nresults &&
		     !strcmp(rep->results[end].claim->name, c->name); end++)
			;
		if (first == end)
			continue;
		if (add_figures(rep, c, first, end) < 0)
			return -1;
		if (!c->conclude)
			continue;
		struct settle_conclude_ctx ctx = {
			rep->options.device_mbps, rep->options.band,
			rep->noise.core_ghz_before, rep->noise.core_ghz_after
		};
		struct settle_conclusion k;
		const struct settle_claim_info *info = rep->results[first].claim;
		int drawn = 0;

		/* the claim's conclusion reads its rows against its own
		 * baseline; a file that names another has none of it, and
		 * one that the rows cannot support keeps none: a sentence a
		 * file states is not shown as measured */
		memset(&k, 0, sizeof(k));
		if (same_baseline(info, c))
			drawn = c->conclude(&rep->results[first], end - first,
					    &ctx, &k);
		if (settle_report_conclude(rep, info, drawn ? &k : NULL) < 0)
			return -1;
	}
	return 0;
}

int settle_run_claim(struct settle_report *rep, const struct settle_claim *c,
		     const uint64_t *sizes, size_t nsizes,
		     char *err, size_t errlen)
{
	static const uint64_t none[1] = { 0 };
	struct settle_claim_info info;
	struct run rn = { rep, c, NULL, { -1, -1, 0, 0 }, 0 };
	size_t first = rep->nresults;
	int full, rc = 0;

	if (!c->default_sizes) {
		sizes = none;
		nsizes = 1;
	} else if (nsizes == 0) {
		sizes = c->default_sizes;
		nsizes = c->ndefault_sizes;
	}
	full = sizes == c->default_sizes && rep->options.full;
	struct progress pg = { 0, (unsigned)(nsizes + (full ? c->nfull_sizes : 0)),
			       0, 0 };

	settle_claim_describe(c, &info);
	rn.info = settle_report_claim(rep, &info);
	if (!rn.info) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	settle_counters_open(&rn.counters);
	for (size_t i = 0; i < nsizes && rc == 0; i++) {
		pg.size_k++;
		rc = run_size(&rn, sizes[i], &pg, err, errlen);
	}
	for (size_t i = 0; full && i < c->nfull_sizes && rc == 0; i++) {
		pg.size_k++;
		rc = run_size(&rn, c->full_sizes[i], &pg, err, errlen);
	}
	settle_counters_close(&rn.counters);
	if (rc == -2 || settle_interrupted()) {
		/* the claims before this one stay, this one is dropped */
		settle_report_truncate(rep, first);
		snprintf(err, errlen, "interrupted");
		return -2;
	}
	if (rc < 0)
		return -1;
	if (settle_conclude_claims(rep, &c, 1) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}
