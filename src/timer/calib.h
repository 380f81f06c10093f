/*
 * calib.h - robust rates from many short calibration windows (private to
 * settle; src/timer/calib.c).
 *
 * Every calibration of the timer (the TSC's rate against
 * CLOCK_MONOTONIC_RAW, the cost of a timer read, the core clock from a
 * dependent add chain) times many short windows instead of one long one.
 * A disturbance - a preemption, an interrupt, a page fault, SIGSTOP - can
 * only add time to the window it falls in, so it lowers that window's
 * rate (work per ns); the undisturbed windows agree with each other. The
 * estimator below is a pure function of the windows' timings, so that
 * tests can feed it any disturbance.
 */
#ifndef SETTLE_TIMER_CALIB_H
#define SETTLE_TIMER_CALIB_H

#include <stddef.h>

/* One calibration window. */
struct settle_window {
	double work; /* what was done: adds, counter ticks, timer reads */
	double ns;   /* how long it took, in ns */
};

/* What a calibration accepts. */
struct settle_calib_rule {
	double lo, hi;    /* physical bounds of the rate, work per ns: a
			     value outside is no estimate */
	double tol;       /* windows agree within a factor 1 + tol */
	double min_share; /* share of all windows that must agree, 0..1 */
	size_t min_agree; /* and at least this many windows */
};

/*
 * The rate, in work per ns, of the undisturbed windows among w[0..n), or
 * 0 for unknown. Windows whose work or ns is not a positive finite number
 * are ignored (they still count in n). The rates work/ns are sorted; the
 * largest group of windows whose rates lie within a factor 1 + rule->tol
 * of the group's lowest rate is taken (on a tie, the group of higher
 * rates, as a disturbance only lowers a rate), and the estimate is the
 * median of that group. It is unknown (0) when that group holds fewer
 * than rule->min_agree windows or fewer than rule->min_share * n, or when
 * the estimate lies outside [rule->lo, rule->hi], or when memory for n
 * rates cannot be had. This is a modal-interval estimate (the densest
 * interval of relative width tol): it is right as long as the undisturbed
 * windows outnumber every group of disturbed windows that happen to agree
 * with each other, however far off those are. O(n log n).
 */
double settle_calib_rate(const struct settle_window *w, size_t n,
			 const struct settle_calib_rule *rule);

/*
 * The three calibrations of the timer, each the rule above with its
 * bounds. All return 0 for unknown.
 */

/* TSC ticks per ns from windows of (ticks, ns of CLOCK_MONOTONIC_RAW):
 * 1 MHz to 10 GHz, half of the windows agreeing within 0.5 %. */
double settle_tsc_ghz_of(const struct settle_window *w, size_t n);

/* ns of one start/stop pair from windows of (1, the fastest pair of the
 * window in ns): 0.01 ns to 1 ms, half agreeing within 10 %. */
double settle_read_ns_of(const struct settle_window *w, size_t n);

/*
 * Core clock in GHz from windows of (adds of a dependent chain, ns): 0.2
 * to 10 GHz and, when tsc_ghz > 0, at most 3 x tsc_ghz; a third of the
 * windows, and at least 8, agreeing within 2 %.
 */
double settle_core_ghz_of(const struct settle_window *w, size_t n,
			  double tsc_ghz);

/* Windows the core clock needs at least (settle_core_ghz_of). */
#define SETTLE_CORE_MIN_WINDOWS 8

#endif
