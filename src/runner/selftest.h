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
	double popcnt_latency_cycles;  /* the bit count's latency in cycles
					  (x86-64 popcnt, AArch64 cnt); 0:
					  not measured */
	double imul_latency_cycles;    /* the multiply's (imul, mul); 0: not
					  measured */
	const char *mul_name, *count_name; /* the instructions timed ("imul",
					  "popcnt"; "mul", "cnt") */
	const char *mul_why, *count_why; /* why one was not measured
					  ("CPU lacks POPCNT"), or NULL */
	double core_ghz;               /* from the add chain */
	double reference_ghz;          /* the core clock estimated at the
					  start, for a sanity check */
	double loadavg;                /* 1-minute load average at the start */
	double other_cpus;             /* CPUs other work kept busy during
					  the selftest; < 0: unknown */
	unsigned failed_trials;        /* trials whose process failed (ended
					  without a verdict): a failed
					  selftest, not an unclear verdict */
	unsigned undecidable;          /* the targets whose every trial was
					  unclear for too few samples (the
					  settings decide nothing there):
					  bits, one a target (selftest.c) */
	/* layout trials (docs/layouts.md); 0 trials: not run */
	unsigned layouts;              /* layouts per trial */
	unsigned layout_aa_trials, layout_detect_trials, layout_single_trials;
	double layout_aa_false_positive_rate; /* placed loop A/A: faster or
						 slower */
	double layout_aa_same_rate;
	double layout_detect_rate_3pct;       /* 3 % more words: slower */
	double layout_aa_false_positive_rate_single; /* A/A in one layout */
	const char *layout_why;         /* why the layout trials did not run,
					  or NULL */
	char emulator[32];             /* settle_machine.emulator: "" unless
					  the CPU is emulated */
};

/*
 * Measure the harness with the settings o (samples, min_sample_ns,
 * processes per trial, layouts, band, cpu): aa_trials A/A trials and
 * detect_trials trials for each detection case, each trial in fresh
 * processes when o->processes > 1; with o->layouts > 1 and POPCNT,
 * layout_trials A/A trials of the placed popcount loop, layout_trials / 2
 * with 3 % more work and layout_trials / 5 (at least 4) in one layout;
 * then the chain latencies. Returns 0, or -1 when the
 * latency measurement fails.
 */
int settle_selftest_run(const struct settle_options *o, unsigned aa_trials,
			unsigned detect_trials, unsigned layout_trials,
			struct settle_selftest *st);

/*
 * Write selftest results as JSON (schema "settle-selftest/1", keys
 * aa_false_positive_rate, aa_same_rate, aa_trials, detect_rate_3pct,
 * detect_rate_2pct, detect_trials, failed_trials,
 * layout_aa_false_positive_rate, layout_aa_same_rate, layout_aa_trials,
 * layout_detect_rate_3pct, layout_detect_trials,
 * layout_aa_false_positive_rate_single, layout_single_trials (the rates
 * null when not measured), targets ({aa, detect_3pct, detect_2pct,
 * layout_aa, layout_detect_3pct}: "met", "missed", "too few trials",
 * "not judged" or "not measured", as settle_selftest_print() says them),
 * popcnt_latency_cycles (null where not
 * measured), imul_latency_cycles (null where not measured),
 * mul_instruction, count_instruction, settings), whole or not at all.
 * Returns 0, or -1 with a message in err.
 */
int settle_write_selftest_json(const struct settle_selftest *st,
			       const struct settle_options *o,
			       const char *path, char *err, size_t errlen);

/* The targets: A/A, 3 % and 2 % more work, and with layouts A/A and 3 %
 * more work. */
#define SETTLE_SELFTEST_TARGETS 5

/*
 * How many targets the trials show missed (0 to SETTLE_SELFTEST_TARGETS):
 * a rate whose exact one-sided 95 % bound (settle_binomial_bounds())
 * lies beyond its target. None under --quick (o->quick), none of a
 * target with no trials, or whose every trial was unclear for too few
 * samples.
 */
unsigned settle_selftest_missed(const struct settle_selftest *st,
				const struct settle_options *o);

/* The selftest's findings and whether each target is met, as text: met
 * or MISSED when the trials show it (settle_selftest_missed()), else
 * not judged, saying why (the rate's bounds hold the target; --quick; no
 * verdict possible). */
void settle_selftest_print(FILE *f, const struct settle_selftest *st,
			   const struct settle_options *o);

#endif
