/*
 * timer.c - the clock samples are taken with.
 *
 * The architecture's counter (src/arch/<arch>: the TSC on x86-64 when it
 * is invariant and RDTSCP exists, the virtual counter CNTVCT_EL0 on
 * AArch64) is used when settle_arch_counter_probe() says it can be; its
 * rate is calibrated against CLOCK_MONOTONIC_RAW. When the architecture
 * states a rate (CNTFRQ_EL0), that rate is used if the calibration agrees
 * with it within NOMINAL_TOLERANCE, and the calibrated one, said so, if
 * not. Elsewhere clock_gettime(CLOCK_MONOTONIC_RAW) is the clock.
 * SETTLE_CLOCK=monotonic forces the fallback (for tests).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "settle.h"
#include "cpu/cpu.h"

/* A stated counter rate is used when calibration is within 2 % of it. */
#define NOMINAL_TOLERANCE 0.02

static struct settle_timer_info info;
static int use_tsc;
static int ready;
static char why_buf[200];

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t settle_timer_start(void)
{
	return use_tsc ? settle_arch_counter_start() : mono_ns();
}

uint64_t settle_timer_stop(void)
{
	return use_tsc ? settle_arch_counter_stop() : mono_ns();
}

double settle_timer_ns(uint64_t delta)
{
	if (!use_tsc)
		return (double)delta;
	return settle_safe_div((double)delta, info.tsc_ghz);
}

/* Ticks per ns, over ms milliseconds of CLOCK_MONOTONIC_RAW. */
static double calibrate_tsc(unsigned ms)
{
	uint64_t t0, c0, t1, c1;

	t0 = mono_ns();
	c0 = settle_arch_counter_stop();
	do {
		t1 = mono_ns();
		c1 = settle_arch_counter_stop();
	} while (t1 - t0 < (uint64_t)ms * 1000000u);
	return (double)(c1 - c0) / (double)(t1 - t0);
}

/* Rate of the counter c in ticks per ns: the calibrated one, or the stated
 * one when calibration agrees with it. 0 when calibration failed. */
static double counter_ghz(const struct settle_arch_counter *c, unsigned ms)
{
	double ghz = calibrate_tsc(ms ? ms : 20);

	if (!(ghz > 0) || !(c->nominal_ghz > 0))
		return ghz;
	if (fabs(ghz / c->nominal_ghz - 1) <= NOMINAL_TOLERANCE)
		return c->nominal_ghz;
	snprintf(why_buf, sizeof(why_buf), "%s; stated rate %.6g GHz, "
		 "calibrated %.6g GHz: the calibrated rate is used", c->why,
		 c->nominal_ghz, ghz);
	info.why = why_buf;
	return ghz;
}

static void measure_overhead(void)
{
	uint64_t best = UINT64_MAX, step = UINT64_MAX;

	for (int i = 0; i < 2000; i++) {
		uint64_t a = settle_timer_start();
		uint64_t b = settle_timer_stop();

		if (b - a < best)
			best = b - a;
		if (b > a && b - a < step)
			step = b - a;
	}
	info.overhead_ns = settle_timer_ns(best);
	info.resolution_ns = step == UINT64_MAX ? 1 : settle_timer_ns(step);
	if (!use_tsc) {
		struct timespec r;

		if (clock_getres(CLOCK_MONOTONIC_RAW, &r) == 0 &&
		    (double)r.tv_nsec > info.resolution_ns)
			info.resolution_ns = (double)r.tv_nsec;
	}
	if (info.resolution_ns <= 0)
		info.resolution_ns = 1;
}

const struct settle_timer_info *settle_timer_init(unsigned calib_ms)
{
	const char *force = getenv("SETTLE_CLOCK");
	struct settle_arch_counter c;

	if (ready)
		return &info;
	if (force && *force && strcmp(force, "monotonic") != 0 &&
	    strcmp(force, "auto") != 0) {
		fprintf(stderr, "settle: SETTLE_CLOCK=%s refused: unknown clock "
			"(monotonic or auto)\n", force);
		exit(2);
	}
	use_tsc = settle_arch_counter_probe(&c) == 0;
	info.why = c.why;
	if (force && strcmp(force, "monotonic") == 0) {
		use_tsc = 0;
		info.why = "SETTLE_CLOCK=monotonic";
	}
	info.clock = use_tsc ? c.clock : SETTLE_CLOCK_MONOTONIC;
	if (use_tsc)
		info.tsc_ghz = counter_ghz(&c, calib_ms);
	if (use_tsc && !(info.tsc_ghz > 0)) {
		use_tsc = 0;
		info.clock = SETTLE_CLOCK_MONOTONIC;
		info.tsc_ghz = 0;
		info.why = "counter calibration failed";
	}
	measure_overhead();
	ready = 1;
	return &info;
}

const char *settle_clock_name(enum settle_clock clock)
{
	switch (clock) {
	case SETTLE_CLOCK_TSC:
		return "tsc";
	case SETTLE_CLOCK_CNTVCT:
		return "cntvct";
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
	return SETTLE_CLOCK_MONOTONIC;
}

double settle_estimate_core_ghz(unsigned ms)
{
	uint64_t n = 1024, sink = 0;
	double best = 0, budget = (ms ? ms : 10) * 1e6, spent = 0;

	settle_timer_init(0);
	while (spent < budget) {
		uint64_t t0 = settle_timer_start();
		double ns;

		sink += settle_arch_add_chain(n);
		ns = settle_timer_ns(settle_timer_stop() - t0);
		spent += ns;
		if (ns < 200000) { /* too short to trust: lengthen */
			n *= 2;
			continue;
		}
		double ghz = settle_safe_div((double)n * 64, ns);
		if (ghz > best)
			best = ghz;
	}
	settle_keep(sink);
	info.core_ghz = best;
	return best;
}
