/*
 * rules.h - the rules that decide what settle says about a measurement,
 * each written once: when a result is unstable, and when the machine's
 * noise deserves a warning. Every output (the tables of a run, show,
 * compare) applies these and no other thresholds.
 */
#ifndef SETTLE_RULES_H
#define SETTLE_RULES_H

#include "settle.h"

/* A result is unstable when its MAD exceeds this share of its median... */
#define SETTLE_UNSTABLE_MAD 0.05
/* ...or its best sample lies this share below the median (a minority of
 * samples, or whole processes, ran at another speed), ... */
#define SETTLE_UNSTABLE_BEST 0.20
/* ...or its upper quartile lies this share above the median: a quarter
 * of the samples or more ran that much slower, a second mode that the MAD
 * does not see while it holds fewer than half of them (on the Zen 5
 * guest, endian's -O0 long ran 0.45 ns in some rounds and 0.82 in about
 * two in five: MAD 5.0 %, best 5 % below the median, and the ratio of a
 * row to it, the Hodges-Lehmann estimate of ratios from both modes, fell
 * between them, 1.51x where the medians gave 1.91x). */
#define SETTLE_UNSTABLE_SLOW 0.20

/* The fewest units (samples, rounds or processes) a verdict is made
 * from; with fewer it is unclear (too few samples). compare takes the
 * process as its unit only when both files have this many, and
 * --layouts N alone runs at least this many processes. */
#define SETTLE_MIN_UNITS 3

/* The fewest samples of one process a time or a verdict rests on: the
 * fewest paired samples whose exact signed-rank interval reaches
 * SETTLE_MIN_LEVEL (5: 93.8 %). */
#define SETTLE_MIN_SAMPLES 5

/* A conclusion quotes the ratios it rests on: each ratio's interval must
 * lie within this fraction of it either way (lo >= ratio / 1.1, hi <=
 * ratio x 1.1), else the figure quoted is not settled, whatever the
 * verdict (three processes whose ratios were 1.42, 1.63 and 1.89 gave
 * 1.63x [1.14, 2.32], slower, a sure direction but no sure figure). The
 * per cent is the one source: texts say it with SETTLE_STR(). */
#define SETTLE_QUOTE_SPREAD_PCT 10
#define SETTLE_QUOTE_SPREAD (SETTLE_QUOTE_SPREAD_PCT / 100.0)

/* The least share of a sample's wall time its thread must have run, in a
 * row's median sample, for its CPU times to stand for its work (the
 * means a verdict must agree with), in per cent and as a fraction. */
#define SETTLE_ON_CPU_PCT 90
#define SETTLE_ON_CPU (SETTLE_ON_CPU_PCT / 100.0)

/* The confidence every interval is made for; intervals of a few units
 * reach less (settle_level_short()). */
#define SETTLE_CONF 0.95

/* Non-zero when an interval's level is short of SETTLE_CONF (by more
 * than rounding): the notes say so. */
int settle_level_short(double level);

/* The least confidence an interval must reach to decide a verdict (the
 * exact signed-rank and Mann-Whitney intervals of a few units reach only
 * some levels: 5 paired samples 93.8 %, 4 of them 87.5 %). */
#define SETTLE_MIN_LEVEL 0.90

/* Non-zero when c's interval reaches SETTLE_MIN_LEVEL: one to print. One
 * sample a side has none (level 0), and no interval is printed. */
int settle_interval_reached(const struct settle_comparison *c);

/* Non-zero when, besides, it rests on SETTLE_MIN_UNITS units or more and
 * both ends are finite: one to decide a verdict by; else the verdict is
 * unclear (too few samples). */
int settle_interval_usable(const struct settle_comparison *c);

/* Non-zero when why is one of too few units (SETTLE_WHY_TOO_FEW,
 * SETTLE_WHY_TOO_FEW_PROCESSES); 0 for any other reason or NULL. */
int settle_why_too_few(const char *why);

/* Non-zero when the samples summarised in s are too spread to trust. */
int settle_summary_unstable(const struct settle_summary *s);

/*
 * A result measured in several layouts is layout-sensitive when its
 * layouts' medians differ beyond the noise within a layout (an analysis
 * of variance over its replicates, settle_result.layout_p, below this
 * level) and their spread ((largest - smallest) / median) exceeds twice
 * the equivalence band: a spread that moves a verdict by less than the
 * band does not matter (docs/layouts.md).
 */
#define SETTLE_LAYOUT_ALPHA 0.01

int settle_layout_sensitive(double spread, double p, double band);

/* Noise worth a warning: a 1-minute load average above this at the
 * start, ... */
#define SETTLE_NOISE_LOADAVG 0.5
/* ...more than this per cent of the CPU time stolen by the hypervisor, */
#define SETTLE_NOISE_STEAL_PCT 1.0
/* ...the core clock moving by more than this per cent during the run, */
#define SETTLE_NOISE_DRIFT_PCT 1.0
/* ...other work keeping more than this many CPUs busy during the run, on
 * average (an idle machine here: 0.00-0.01; a busy loop: 1). Where this
 * is known, it stands for the load average, which counts tasks waiting
 * for I/O and a build that ended just before the run. */
#define SETTLE_NOISE_OTHER_CPUS 0.25

/* Non-zero when both core-clock estimates of n were had (0 is unknown),
 * so that n->drift_pct means something: no drift from an unknown clock. */
int settle_noise_drift_known(const struct settle_noise *n);

/* after / before - 1 of n's core-clock estimates, in %; 0 unless
 * settle_noise_drift_known(n). */
double settle_noise_drift(const struct settle_noise *n);

/* The same of two core-clock estimates (GHz, 0 or less: unknown), in %;
 * 0 unless both are known. */
double settle_clock_drift(double before_ghz, double after_ghz);

/* Non-zero when r's cycles were counted by the hardware (cycles_source
 * "perf_event_open"), not estimated from the core clock. */
int settle_result_cycles_counted(const struct settle_result *r);

/* Non-zero when every sample of a claim's row r has its thread's CPU time
 * (samples_cpu_ns, finite and >= 0): a file keeps them all or none; 0
 * for a whole command, whose CPU times are its runs' (wait4). */
int settle_result_cpu_known(const struct settle_result *r);

/* Non-zero when loadavg, steal_pct or drift_pct calls for a warning (a
 * drift only when settle_noise_drift_known()). */
int settle_noise_loaded(double loadavg);
int settle_noise_stolen(double steal_pct);
int settle_noise_drifted(double drift_pct);

/* Non-zero when n records other work worth a warning: other_cpus above
 * SETTLE_NOISE_OTHER_CPUS or, where other_cpus is unknown (< 0: a file
 * written before it was recorded), the load average at the start above
 * SETTLE_NOISE_LOADAVG. */
int settle_noise_busy(const struct settle_noise *n);

#endif
