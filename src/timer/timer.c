/*
 * timer.c - the clock samples are taken with.
 *
 * The architecture's counter (src/arch/<arch>) is used when
 * settle_arch_counter_probe() says it can be: on x86-64 the TSC when cpuid
 * says it is invariant (constant rate in every P-/C-state: leaf 0x80000007
 * EDX bit 8) and RDTSCP exists (leaf 0x80000001 EDX bit 27), read as the
 * Intel white paper "How to Benchmark Code Execution Times on Intel IA-32
 * and IA-64 Instruction Set Architectures" (Paoloni, 2010) recommends,
 * with lfence in place of cpuid; on AArch64 the virtual counter
 * CNTVCT_EL0, read between ISBs. Its rate is calibrated against
 * CLOCK_MONOTONIC_RAW; where the architecture states a rate (CNTFRQ_EL0),
 * the stated rate is used when the calibration agrees with it within
 * NOMINAL_TOLERANCE, the calibrated one, said so, when not. Elsewhere (and
 * in the generic build) clock_gettime(CLOCK_MONOTONIC_RAW) is the clock.
 * SETTLE_CLOCK=monotonic forces the fallback (for tests); any other value
 * but auto is ignored and reported by settle_clock_env_refusal().
 *
 * No calibration rests on one window (calib.h): the counter's rate, the
 * cost of a read and the core clock are each estimated from many short
 * windows, the undisturbed ones, within physical bounds, or are unknown
 * (0).
 *
 * Thread safety: the first settle_timer_init() calibrates under a mutex
 * and publishes the result with a release store; later calls, from any
 * thread, return it. The clock in use is an atomic read by
 * settle_timer_start/stop/ns.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "settle.h"
#include "cpu/cpu.h"
#include "timer/calib.h"
#include "util/env_value.h"

/* ---- architecture: the counter and the add chain ----------------------- */

/* The counter and the chain are the architecture's (src/arch/<arch>):
 * settle_arch_counter_probe(), settle_arch_counter_start/stop() and
 * settle_arch_add_chain(), 64 dependent register additions per
 * repetition. */
#define CHAIN_OPS 64

/* A stated counter rate is used when the calibration is within 2 % of it. */
#define NOMINAL_TOLERANCE 0.02

/* ---- calibration windows (the rules are in calib.c) -------------------- */

#define TSC_WINDOWS 24
#define READ_WINDOWS 32
#define READS_PER_WINDOW 64
#define CORE_MAX_WINDOWS 1024
#define CORE_WINDOW_NS 20000.0 /* 20 us: most windows fit between two
				  preemptions */

/* ---- state ------------------------------------------------------------- */

static struct settle_timer_info info;
static atomic_int use_tsc;
static double tsc_rate;           /* ticks per ns, set before use_tsc */
static atomic_int ready;
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static int force_monotonic;
static char env_refusal[128];     /* why SETTLE_CLOCK was ignored, or "" */
static char why_buf[200];         /* info.why when it is composed */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t settle_timer_start(void)
{
	return atomic_load_explicit(&use_tsc, memory_order_acquire) ?
	       settle_arch_counter_start() : mono_ns();
}

uint64_t settle_timer_stop(void)
{
	return atomic_load_explicit(&use_tsc, memory_order_acquire) ?
	       settle_arch_counter_stop() : mono_ns();
}

double settle_timer_ns(uint64_t delta)
{
	if (!atomic_load_explicit(&use_tsc, memory_order_acquire))
		return (double)delta;
	return settle_safe_div((double)delta, tsc_rate);
}

static void read_clock_env(void)
{
	const char *v = getenv("SETTLE_CLOCK");
	char value[68];

	if (!v || !*v || strcmp(v, "auto") == 0)
		return;
	if (strcmp(v, "monotonic") == 0) {
		force_monotonic = 1;
		return;
	}
	settle_env_value(value, sizeof(value), v);
	snprintf(env_refusal, sizeof(env_refusal), "SETTLE_CLOCK=%s refused: "
		 "unknown clock (monotonic or auto)", value);
}

const char *settle_clock_env_refusal(void)
{
	pthread_once(&env_once, read_clock_env);
	return env_refusal[0] ? env_refusal : NULL;
}

const char *settle_clock_name(enum settle_clock clock)
{
	switch (clock) {
	case SETTLE_CLOCK_TSC:
		return "tsc";
	case SETTLE_CLOCK_CNTVCT:
		return "cntvct";
	case SETTLE_CLOCK_UNKNOWN:
		return "unknown";
	default:
		return "clock_monotonic_raw";
	}
}

const char *settle_clock_label(enum settle_clock clock)
{
	switch (clock) {
	case SETTLE_CLOCK_TSC:
		return "TSC";
	case SETTLE_CLOCK_CNTVCT:
		return "CNTVCT_EL0";
	case SETTLE_CLOCK_UNKNOWN:
		return "unknown";
	default:
		return "clock_gettime(CLOCK_MONOTONIC_RAW)";
	}
}

enum settle_clock settle_clock_parse(const char *name)
{
	if (name && strcmp(name, "tsc") == 0)
		return SETTLE_CLOCK_TSC;
	if (name && strcmp(name, "cntvct") == 0)
		return SETTLE_CLOCK_CNTVCT;
	if (name && strcmp(name, "clock_monotonic_raw") == 0)
		return SETTLE_CLOCK_MONOTONIC;
	return SETTLE_CLOCK_UNKNOWN;
}

/* ---- calibration -------------------------------------------------------- */

/*
 * One point of the TSC calibration: the counter read between two reads of
 * CLOCK_MONOTONIC_RAW, the narrowest of five brackets (a disturbance
 * widens a bracket). *mid2 is the sum of the two clock reads (twice the
 * midpoint, kept in integers).
 */
static void tsc_point(uint64_t *ticks, uint64_t *mid2)
{
	uint64_t width = UINT64_MAX;

	*ticks = *mid2 = 0;
	for (int i = 0; i < 5; i++) {
		uint64_t m0 = mono_ns(), c = settle_arch_counter_stop(), m1 = mono_ns();

		if (m1 - m0 < width) {
			width = m1 - m0;
			*ticks = c;
			*mid2 = m0 + m1;
		}
	}
}

/* Ticks per ns over TSC_WINDOWS windows of about ms / TSC_WINDOWS ms of
 * CLOCK_MONOTONIC_RAW each; 0 when no stable rate. */
static double calibrate_tsc(unsigned ms)
{
	struct settle_window w[TSC_WINDOWS];
	uint64_t len = (uint64_t)ms * 1000000u / TSC_WINDOWS;
	uint64_t c0, m0;

	tsc_point(&c0, &m0);
	for (int k = 0; k < TSC_WINDOWS; k++) {
		uint64_t c1, m1;

		while (mono_ns() * 2 < m0 + 2 * len)
			;
		tsc_point(&c1, &m1);
		w[k].work = (double)(c1 - c0);
		w[k].ns = (double)(m1 - m0) / 2;
		c0 = c1;
		m0 = m1;
	}
	return settle_tsc_ghz_of(w, TSC_WINDOWS);
}

/*
 * The cost of a start/stop pair (the smallest of each window of reads,
 * robustly over the windows; 0 when unknown) and the clock's resolution
 * (the smallest non-zero step seen).
 */
static void measure_reads(void)
{
	struct settle_window w[READ_WINDOWS];
	uint64_t step = UINT64_MAX;

	for (int k = 0; k < READ_WINDOWS; k++) {
		uint64_t best = UINT64_MAX;

		for (int i = 0; i < READS_PER_WINDOW; i++) {
			uint64_t a = settle_timer_start();
			uint64_t b = settle_timer_stop();

			if (b - a < best)
				best = b - a;
			if (b > a && b - a < step)
				step = b - a;
		}
		w[k].work = 1;
		w[k].ns = settle_timer_ns(best);
	}
	info.overhead_ns = settle_read_ns_of(w, READ_WINDOWS);
	info.resolution_ns = step == UINT64_MAX ? 1 : settle_timer_ns(step);
	if (!atomic_load(&use_tsc)) {
		struct timespec r;

		if (clock_getres(CLOCK_MONOTONIC_RAW, &r) == 0 &&
		    (double)r.tv_nsec > info.resolution_ns)
			info.resolution_ns = (double)r.tv_nsec;
	}
	if (!(info.resolution_ns > 0))
		info.resolution_ns = 1;
}

/*
 * The counter c's rate in ticks per ns: the calibrated one, or the rate
 * the architecture states when the calibration agrees with it. 0 when
 * the calibration found no stable rate.
 */
static double counter_rate(const struct settle_arch_counter *c, unsigned ms)
{
	double ghz = calibrate_tsc(ms ? ms : 20);

	if (!(ghz > 0) || !(c->nominal_ghz > 0))
		return ghz;
	if (ghz / c->nominal_ghz - 1 <= NOMINAL_TOLERANCE &&
	    c->nominal_ghz / ghz - 1 <= NOMINAL_TOLERANCE)
		return c->nominal_ghz;
	snprintf(why_buf, sizeof(why_buf), "%s; stated rate %.6g GHz, "
		 "calibrated %.6g GHz: the calibrated rate is used", c->why,
		 c->nominal_ghz, ghz);
	info.why = why_buf;
	return ghz;
}

static void timer_setup(unsigned calib_ms)
{
	struct settle_arch_counter c;
	int tsc = settle_arch_counter_probe(&c) == 0;

	settle_clock_env_refusal();
	info.why = c.why;
	if (force_monotonic) {
		tsc = 0;
		info.why = "SETTLE_CLOCK=monotonic";
	}
	if (tsc) {
		tsc_rate = counter_rate(&c, calib_ms);
		if (!(tsc_rate > 0)) {
			tsc = 0;
			snprintf(why_buf, sizeof(why_buf), "%s rate unknown: "
				 "no stable calibration against "
				 "CLOCK_MONOTONIC_RAW",
				 settle_clock_label(c.clock));
			info.why = why_buf;
		}
	}
	info.clock = tsc ? c.clock : SETTLE_CLOCK_MONOTONIC;
	info.tsc_ghz = tsc ? tsc_rate : 0;
	atomic_store_explicit(&use_tsc, tsc, memory_order_release);
	measure_reads();
}

const struct settle_timer_info *settle_timer_init(unsigned calib_ms)
{
	if (atomic_load_explicit(&ready, memory_order_acquire))
		return &info;
	pthread_mutex_lock(&init_lock);
	if (!atomic_load_explicit(&ready, memory_order_relaxed)) {
		timer_setup(calib_ms);
		atomic_store_explicit(&ready, 1, memory_order_release);
	}
	pthread_mutex_unlock(&init_lock);
	return &info;
}

/* ---- the core clock ----------------------------------------------------- */

/* ns of one window of reps repetitions of the chain; *sink keeps it. */
static double chain_window(uint64_t reps, uint64_t *sink)
{
	uint64_t t0 = settle_timer_start();

	*sink += settle_arch_add_chain(reps);
	return settle_timer_ns(settle_timer_stop() - t0);
}

/*
 * Repetitions for windows of at least target ns: doubled until the
 * fastest of three windows lasts that long (a disturbance only slows a
 * window down); that window's ns in *ns.
 */
static uint64_t chain_reps(double target, double *ns, uint64_t *sink)
{
	uint64_t reps = 16;

	for (;;) {
		*ns = chain_window(reps, sink);
		for (int i = 0; i < 2; i++) {
			double t = chain_window(reps, sink);

			if (t < *ns)
				*ns = t;
		}
		if (*ns >= target || reps >= (1ull << 30))
			return reps;
		reps *= 2;
	}
}

double settle_estimate_core_ghz(unsigned ms)
{
	const struct settle_timer_info *t = settle_timer_init(0);
	struct settle_window *w = malloc(CORE_MAX_WINDOWS * sizeof(*w));
	double target = CORE_WINDOW_NS, budget = (ms ? ms : 10) * 1e6;
	double spent = 0, window, ghz;
	uint64_t reps, sink = 0;
	size_t n = 0, want;

	if (!w)
		return 0;
	/* a read's cost and step stay below 0.5 % and 0.1 % of a window */
	if (target < 200 * t->overhead_ns)
		target = 200 * t->overhead_ns;
	if (target < 1000 * t->resolution_ns)
		target = 1000 * t->resolution_ns;
	/* but 2 x SETTLE_CORE_MIN_WINDOWS fit the budget: a clock too
	 * coarse for that gives windows that disagree, so unknown */
	if (target > budget / (2 * SETTLE_CORE_MIN_WINDOWS))
		target = budget / (2 * SETTLE_CORE_MIN_WINDOWS);
	reps = chain_reps(target, &window, &sink);
	want = window > 0 ? (size_t)(budget / window) : CORE_MAX_WINDOWS;
	if (want > CORE_MAX_WINDOWS)
		want = CORE_MAX_WINDOWS;
	if (want < 2 * SETTLE_CORE_MIN_WINDOWS)
		want = 2 * SETTLE_CORE_MIN_WINDOWS;
	/* under disturbance, stop after 4x the budget with what there is */
	while (n < want && spent < 4 * budget + 50e6) {
		w[n].work = (double)reps * CHAIN_OPS;
		w[n].ns = chain_window(reps, &sink);
		spent += w[n].ns;
		n++;
	}
	settle_keep(sink);
	ghz = settle_core_ghz_of(w, n, t->clock == SETTLE_CLOCK_TSC ?
				 t->tsc_ghz : 0);
	free(w);
	return ghz;
}
