/*
 * timer.c - the clock samples are taken with.
 *
 * The TSC is used when cpuid says it is invariant (constant rate in every
 * P-/C-state: leaf 0x80000007 EDX bit 8) and RDTSCP exists (leaf 0x80000001
 * EDX bit 27). Reads are ordered as the Intel white paper "How to Benchmark
 * Code Execution Times on Intel IA-32 and IA-64 Instruction Set
 * Architectures" (Paoloni, 2010) recommends, with lfence in place of cpuid:
 * start = lfence; rdtsc, stop = rdtscp; lfence. Its rate is calibrated
 * against CLOCK_MONOTONIC_RAW. Elsewhere clock_gettime(CLOCK_MONOTONIC_RAW)
 * is the clock. SETTLE_CLOCK=monotonic forces the fallback (for tests).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "settle.h"
#include "cpu/cpu.h"

static struct settle_timer_info info;
static int use_tsc;
static int ready;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t tsc_start(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tsc_stop(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence"
			     : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

uint64_t settle_timer_start(void)
{
	return use_tsc ? tsc_start() : mono_ns();
}

uint64_t settle_timer_stop(void)
{
	return use_tsc ? tsc_stop() : mono_ns();
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
	c0 = tsc_stop();
	do {
		t1 = mono_ns();
		c1 = tsc_stop();
	} while (t1 - t0 < (uint64_t)ms * 1000000u);
	return (double)(c1 - c0) / (double)(t1 - t0);
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

	if (ready)
		return &info;
	use_tsc = settle_cpu_has(SETTLE_CPU_INVARIANT_TSC) &&
		  settle_cpu_has(SETTLE_CPU_RDTSCP);
	if (force && *force && strcmp(force, "monotonic") != 0 &&
	    strcmp(force, "auto") != 0) {
		fprintf(stderr, "settle: SETTLE_CLOCK=%s refused: unknown clock "
			"(monotonic or auto)\n", force);
		exit(2);
	}
	if (force && strcmp(force, "monotonic") == 0) {
		use_tsc = 0;
		info.why = "SETTLE_CLOCK=monotonic";
	} else if (use_tsc) {
		info.why = "invariant TSC with RDTSCP";
	} else if (!settle_cpu_has(SETTLE_CPU_RDTSCP)) {
		info.why = "CPU lacks RDTSCP";
	} else {
		info.why = "TSC not invariant";
	}
	info.clock = use_tsc ? SETTLE_CLOCK_TSC : SETTLE_CLOCK_MONOTONIC;
	if (use_tsc)
		info.tsc_ghz = calibrate_tsc(calib_ms ? calib_ms : 20);
	if (use_tsc && !(info.tsc_ghz > 0)) {
		use_tsc = 0;
		info.clock = SETTLE_CLOCK_MONOTONIC;
		info.tsc_ghz = 0;
		info.why = "TSC calibration failed";
	}
	measure_overhead();
	ready = 1;
	return &info;
}

/* 64 dependent `add reg, reg`: each needs the previous result. */
static uint64_t add_chain(uint64_t n)
{
	uint64_t x = 1, y = 3;

	for (uint64_t i = 0; i < n; i++) {
		__asm__ __volatile__(
#define A8 "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t" \
	   "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
			A8 A8 A8 A8 A8 A8 A8 A8
#undef A8
			: "+r"(x) : "r"(y));
	}
	return x;
}

double settle_estimate_core_ghz(unsigned ms)
{
	uint64_t n = 1024, sink = 0;
	double best = 0, budget = (ms ? ms : 10) * 1e6, spent = 0;

	settle_timer_init(0);
	while (spent < budget) {
		uint64_t t0 = settle_timer_start();
		double ns;

		sink += add_chain(n);
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
