/*
 * model.h - the result model's life (src/model/report.c): the one place
 * that creates a report, appends results, groups and analyses them,
 * pools fresh processes' results and frees it all. The runner fills a
 * report through these functions, the result-file reader rebuilds one
 * through them, and every output reads the finished report.
 *
 * A report owns its strings, claim descriptions and parameters: every
 * string handed to these functions is copied.
 */
#ifndef SETTLE_MODEL_H
#define SETTLE_MODEL_H

#include "settle.h"

/*
 * Start an empty report: zeroed, with its string store. Returns 0, or -1
 * when out of memory (rep is then zeroed and holds nothing to free).
 */
int settle_report_open(struct settle_report *rep);

/* A copy of s owned by rep (NULL for NULL, and when out of memory). */
const char *settle_report_strdup(struct settle_report *rep, const char *s);

/*
 * The description of the claim named like c in rep: the one rep has, or
 * a copy of c added to it (NULL fields become the defaults documented in
 * struct settle_claim_info). Returns NULL when out of memory.
 */
const struct settle_claim_info *
settle_report_claim(struct settle_report *rep,
		    const struct settle_claim_info *c);

/* Give claim (a description rep owns) the conclusion c (copied; NULL:
 * none, so that the generic one is drawn). Returns 0, or -1 when out of
 * memory. */
int settle_report_conclude(struct settle_report *rep,
			   const struct settle_claim_info *claim,
			   const struct settle_conclusion *c);

/* The description of a claim of the harness (what a run reports). */
void settle_claim_describe(const struct settle_claim *c,
			   struct settle_claim_info *out);

/*
 * Append a result of claim (from settle_report_claim) for the variant
 * name with build (NULL: none), params[0..nparams) and label (NULL: made
 * from the build, the parameters' labels and the name), at size_bytes.
 * Everything is copied. Returns the new result (zeroed otherwise), or
 * NULL when out of memory. Earlier result pointers may move: keep
 * indices.
 */
struct settle_result *
settle_report_append(struct settle_report *rep,
		     const struct settle_claim_info *claim, const char *name,
		     const char *build, const struct settle_param *params,
		     size_t nparams, const char *label, int reference,
		     uint64_t size_bytes);

/* Append a result for variant v of claim (its name, build, parameters,
 * label and reference flag). */
struct settle_result *
settle_report_append_variant(struct settle_report *rep,
			     const struct settle_claim_info *claim,
			     const struct settle_variant *v,
			     uint64_t size_bytes);

/* Add n samples (ns per operation) to r, measured in the layouts
 * layouts[0..n) (NULL: layout 0). Returns 0, or -1 when out of memory. */
int settle_result_add_samples(struct settle_result *r, const double *x,
			      const unsigned char *layouts, size_t n);

/* Skip r as SETTLE_WHY_AVAILABLE_APART: no samples, nothing measured. */
void settle_result_skip_apart(struct settle_result *r);

/*
 * End of the group that starts at result first: the results of one claim
 * at one size are consecutive, and a group runs up to the first result
 * of another claim or size (or the end).
 */
size_t settle_report_group_end(const struct settle_report *rep,
			       size_t first);

/*
 * Analyse the groups that start in [from, to): each result's summary,
 * throughput, cycles, stability (settle_summary_unstable()), and its
 * ratio to its baseline (the result named like the claim's baseline
 * with the same build and parameters in its group, not a reference) with
 * the paired comparison and verdict (settle_compare_paired()). With
 * rep->options.processes > 1 the comparisons treat each process's rounds
 * (equal consecutive chunks of the samples) as one estimate
 * (settle_compare_processes()).
 */
void settle_report_analyze(struct settle_report *rep, size_t from, size_t to);

/*
 * Balanced units of r's samples [from, to), measured in several layouts
 * (docs/layouts.md): unit k is the mean over the layouts of the log of
 * the k-th sample of each layout (in time order), or with base not NULL
 * the mean of log(r / base) over the same rounds. Each unit holds every
 * layout once, so a time that only moves with the layout is the same in
 * every unit. Writes out[0..k) (room for to - from values), returns k:
 * the fewest samples any layout has.
 */
size_t settle_layout_units(const struct settle_result *base,
			   const struct settle_result *r, size_t from,
			   size_t to, double *out);

/*
 * One process's level of r, from its samples [from, to) (times in ns):
 * the mean over the layouts measured there of the log of each layout's
 * median, each layout weighing the same, so a time that only moves with
 * the layout is the same in every process. compare's unit when both
 * files have several processes measured in layouts (docs/layouts.md).
 * Sets *out (log ns) and returns 0, or -1 when a layout has no positive
 * time or memory runs out.
 */
int settle_layout_level(const struct settle_result *r, size_t from,
			size_t to, double *out);

/* The log of the median of r's samples [from, to) of layout l (ns) into
 * *out: one cell of a process-by-layout table. Returns 0, or -1 when
 * none of them is in l or memory runs out. */
int settle_layout_median(const struct settle_result *r, size_t from,
			 size_t to, unsigned l, double *out);

/*
 * Whether a table of log times or ratios moves with the layout:
 * y[p * nl + i], p < np processes, i < nl layouts. The layouts' means,
 * m[0..nl) (filled), differ beyond the noise of the processes (a two-way
 * analysis of variance without replication, F on nl - 1 and (nl - 1)
 * (np - 1) degrees of freedom, p below SETTLE_LAYOUT_ALPHA) and spread
 * by more than twice the band (settle_layout_sensitive()). ss and df,
 * when not NULL, take the residual sum of squares and its degrees of
 * freedom.
 */
int settle_table_moves(const double *y, unsigned np, unsigned nl,
		       double band, double *m, double *ss, double *df);

/* The blocks of such a table for a run of nproc processes: the
 * processes, or one process's two passes over the layouts (the first
 * and the second half of its rounds). */
unsigned settle_layout_blocks(unsigned nproc);

/* Whether every layout's ratio, lo (the smallest) to hi (the largest),
 * says what verdict v says: faster, each below 1 / (1 + band); slower,
 * each above 1 + band (the band settle_decide() takes). Never for same
 * or unclear. */
int settle_layouts_agree(enum settle_verdict v, double lo, double hi,
			 double band);

/*
 * One process's estimate of log(r / base) over r's samples [from, to),
 * as settle_report_analyze() makes it for each process of a run with
 * --processes: the Hodges-Lehmann estimate of the paired log ratios, or
 * with several layouts the mean of one such estimate per layout, each
 * layout weighing the same (docs/layouts.md). Returns 0, or -1 when a
 * layout has no estimate or memory runs out.
 */
int settle_process_estimate(const struct settle_result *base,
			    const struct settle_result *r, size_t from,
			    size_t to, double *est);

/*
 * r against b, two rows measured in the same rounds (one claim and size,
 * any builds or parameters), as settle_report_analyze() compares a row
 * with its baseline: paired by round; with nproc > 1 processes one
 * estimate per process and the interval over processes; band the
 * equivalence band (0.01 = +-1 %). The verdict is about r's time over
 * b's. Returns 0, or -1 out of memory (*cmp then unclear, "out of
 * memory").
 */
int settle_result_compare(const struct settle_result *r,
			  const struct settle_result *b, unsigned nproc,
			  double band, struct settle_comparison *cmp);

/* Index of the baseline of result i in its group, or -1. */
long settle_report_baseline(const struct settle_report *rep, size_t i);

/*
 * Pool more (another process's measurement of the same claims, variants
 * and sizes, in the same order) into rep: every sample appended (a result
 * skipped in one of the two and not in the other, or in either as
 * SETTLE_WHY_AVAILABLE_APART, is skipped so, settle_result_skip_apart()), the
 * noise pooled (counts added; steal and other work averaged over the
 * processes' seconds; the last core-clock estimate more's). Returns 0, or -1 with a message in err when the
 * two measured different results or memory runs out. Call
 * settle_report_analyze() afterwards.
 */
int settle_report_pool(struct settle_report *rep,
		       const struct settle_report *more, char *err,
		       size_t errlen);

/*
 * Whether r's CPU times stand for its work: both kinds of sample known,
 * and in the median sample its thread ran at least SETTLE_ON_CPU of the
 * wall time. A body that waits (a pipe, a partner) does so off the CPU
 * (syscall's ping-pong ran 0.49 of its wall time on the CPU with its
 * partner on the same CPU, 0.74 across two: --quick, Zen 5 guest); a
 * preempted sample is off it too, but not the median one. 1 or 0.
 */
int settle_result_on_cpu(const struct settle_result *r);

/*
 * Whether another task's time slices are in r's times: most of its
 * samples preempted (settle_result.preempted), and in its median sample
 * its thread ran under SETTLE_ON_CPU of the wall time. 0 without CPU
 * times (older files) and for whole commands. A verdict from such times
 * stands only where the CPU times give it too.
 */
int settle_result_shared_cpu(const struct settle_result *r);

/* The duration of the shortest sample of any measured row of rep (ns,
 * the whole call), or 0 when no row knows its own (older files, whole
 * commands). Rows below the clock's resolution are not measured: their
 * work was removed, and the header read "each >= 5e-05 ms". */
double settle_report_shortest_sample(const struct settle_report *rep);

/* Drop the results of rep from the n-th on (an interrupted claim's). */
void settle_report_truncate(struct settle_report *rep, size_t n);

/* The 16-byte slots of a 64-byte cache line where a function can start:
 * a FILE.c build's code takes each once in any 4 consecutive layouts, so
 * its rows get a verdict only from a multiple of 4 layouts. */
#define SETTLE_CODE_SLOTS 4

/* The reason of the verdict such a row gets: unclear. */
#define SETTLE_WHY_PART_SLOTS "layouts not a multiple of 4"

/* The reason of a FILE.c row's unclear verdict when its ratio to its
 * baseline moves with the layout and some layout's ratio does not say
 * what the verdict says (src/model/report.c, placement_check()). */
#define SETTLE_WHY_MOVES_HEAD "its ratio moves with the layout"
#define SETTLE_WHY_MOVES_TAIL ": where the code sits decides"
#define SETTLE_WHY_RATIO_MOVES SETTLE_WHY_MOVES_HEAD SETTLE_WHY_MOVES_TAIL

/* Why r, a result of rep, gets no verdict though its interval may be
 * narrow: a FILE.c build's (rep->claims_built) measured, as its samples
 * say, in 2 or more layouts where its code did not sit in each of its
 * slots alike: functions not on 16-byte boundaries (r->unaligned_code,
 * SETTLE_WHY_OFF_SLOT), or layouts that are not a multiple of
 * SETTLE_CODE_SLOTS (SETTLE_WHY_PART_SLOTS). NULL when neither (in a
 * run, a file or compare alike). */
const char *settle_slots_why(const struct settle_report *rep,
			     const struct settle_result *r);

/* 2 x the repetitions must take at least this many times as long, or a
 * result is invalid. */
#define SETTLE_REPEAT_GROWTH 1.5

/* The fastest of r's calls of 2n repetitions over the fastest of its
 * calls of n (settle_result.repeat1_ns, repeat2_ns), or NaN without
 * them. */
double settle_repeat_ratio(const struct settle_result *r);

/* The median pair's 2n call must take at least this many times as long
 * as its n call, or a cost paid once a call (not per repetition) is more
 * than 2 - 1.8 = 20 % of it, the time per op 1.25x too long or more, and
 * the result is invalid. A row that repeats its work honestly read 1.90
 * at the lowest (a 6 ms call, the machine busy with other work), 1.95
 * and above otherwise. */
#define SETTLE_REPEAT_FIXED 1.8

/* Both the fastest calls' ratio and the median pair's above this: a
 * repetition costs more the more came before it in the call (state that
 * grows within run(), such as a list it inserts into), so the time per
 * op depends on the repetitions settle chose, and each variant gets its
 * own count: invalid. Honest rows read 2.11 at the most (the smaller of
 * the two, 134 rows of every built-in claim, --quick, a loaded machine);
 * an insertion into a sorted list that starts empty each call, 3.7-9. */
#define SETTLE_REPEAT_SUPER 2.5

/* The median over r's pairs of each call of 2n repetitions over the call
 * of n next to it (adjacent calls: a machine that drifts moves both), or
 * NaN without them. */
double settle_repeat_pair_ratio(const struct settle_result *r);

/* How well r's repetition evidence passes both rules: the smaller of
 * settle_repeat_ratio() / SETTLE_REPEAT_GROWTH and
 * settle_repeat_pair_ratio() / SETTLE_REPEAT_FIXED; at least 1 passes;
 * NaN without the evidence (fmin: a NaN of one alone is ignored, and
 * both are NaN together). */
double settle_repeat_score(const struct settle_result *r);

#endif
