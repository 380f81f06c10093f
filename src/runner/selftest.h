/*
 * selftest.h - settle measures itself (src/runner/selftest.c): false
 * positives, detection power and chain latencies, for `settle selftest`.
 */
#ifndef SETTLE_SELFTEST_H
#define SETTLE_SELFTEST_H

#include "settle.h"

/* What `settle selftest` measures (src/runner/selftest.c). */
struct settle_selftest {
	unsigned aa_trials, detect_trials;
	double aa_false_positive_rate; /* A/A trials called faster or slower */
	double aa_same_rate;           /* A/A trials called same */
	double detect_rate_3pct;       /* 3 % more work called slower */
	double detect_rate_2pct;       /* 2 % more work, band 0.5 %, slower */
	double popcnt_latency_cycles;  /* 0 without POPCNT */
	double imul_latency_cycles;
	double core_ghz;               /* from the add chain */
	double reference_ghz;          /* the core clock estimated at the
					  start, for a sanity check */
	double loadavg;                /* 1-minute load average at the start */
	unsigned failed_trials;        /* trials whose process failed (ended
					  without a verdict): a failed
					  selftest, not an unclear verdict */
};

/*
 * Measure the harness with the settings o (samples, min_sample_ns,
 * processes per trial, band, cpu): aa_trials A/A trials and detect_trials
 * trials for each detection case, each trial in fresh processes when
 * o->processes > 1, then the chain latencies. Returns 0, or -1 when the
 * latency measurement fails.
 */
int settle_selftest_run(const struct settle_options *o, unsigned aa_trials,
			unsigned detect_trials, struct settle_selftest *st);

/*
 * Write selftest results as JSON (schema "settle-selftest/1", keys
 * aa_false_positive_rate, aa_same_rate, aa_trials, detect_rate_3pct,
 * detect_rate_2pct, detect_trials, popcnt_latency_cycles (null without
 * POPCNT), imul_latency_cycles, settings), whole or not at all.
 * Returns 0, or -1 with a message in err.
 */
int settle_write_selftest_json(const struct settle_selftest *st,
			       const struct settle_options *o,
			       const char *path, char *err, size_t errlen);

/* The selftest's findings and whether each target is met, as text. */
void settle_selftest_print(FILE *f, const struct settle_selftest *st,
			   const struct settle_options *o);

#endif
