/*
 * settle.h - the public interface of the settle harness.
 *
 * A *claim* is one question ("popcount over bitmaps"). It has *variants*
 * (implementations or builds), one of which is the baseline, optional buffer
 * sizes, a correctness check (every variant returns the same check value)
 * and an optional *scale* callback that turns a per-operation cost into the
 * claim's own terms (seconds per file-system check, MB/s, ...).
 *
 * The runner times the variants of a claim interleaved (A B C, B C A, ...),
 * keeps every *sample* (one timed call of a variant's body), and fills a
 * result model that the formatters print or write as a result file.
 *
 * Units: times are nanoseconds (ns) unless a name says ticks or cycles;
 * sizes are bytes.
 */
#ifndef SETTLE_H
#define SETTLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the result file layout (settle_write_report() "json"). */
#define SETTLE_SCHEMA "settle-result/1"

/*
 * Anti-optimisation barriers.
 *
 * settle_keep(x): x (an integer or pointer lvalue) must be held in a register
 *   at this point, and the compiler must assume the asm changed it. Use it on
 *   a loop-carried value (an increment, a running sum) so that every step of
 *   the loop is really executed and the value is not folded or hoisted, and
 *   on a result that would otherwise be dead. It costs no instruction beyond
 *   keeping x in a register; it does not force x to memory.
 *
 * settle_clobber_memory(): the compiler must assume that any memory was read
 *   and written here. Use it after writing a buffer whose contents are
 *   otherwise unused (so the stores stay), or between two passes over the
 *   same buffer (so the second pass is not merged with the first). It costs
 *   no instruction, but values cached in registers are reloaded after it.
 *
 * To stop a pure function (one the compiler may call once for a loop over
 * an unchanged buffer) from being hoisted, pass its pointer argument through
 * settle_keep() inside the loop: the compiler can no longer prove that the
 * pointer, and hence the result, is the same on every iteration.
 */
#define settle_keep(x) __asm__ __volatile__("" : "+r"(x))
#define settle_clobber_memory() __asm__ __volatile__("" ::: "memory")

struct settle_claim;

/* Parameters of one measurement, passed to a claim's setup callback. */
struct settle_params {
	uint64_t size_bytes; /* buffer size; 0 when the claim takes no size */
	int cpu;             /* CPU the runner is pinned to */
	int quick;           /* non-zero under --quick: keep set-up cheap */
	const struct settle_claim *claim; /* the claim being set up */
	int partner_cpu;     /* another CPU the user allowed settle (its
				affinity at start), for a second process;
				-1 when cpu is the only one */
	unsigned layout;     /* the layout being measured, 0 to layouts - 1
				(docs/layouts.md): settle_alloc() places
				buffers by it; 0 is settle's plain layout */
	unsigned layouts;    /* how many layouts the run measures (1: one) */
};

/*
 * Allocate bytes for a buffer that a claim's variants work on, from its
 * setup: aligned to align bytes (0, or a power of two up to 1 GiB; below
 * 16 means 16), and placed by the layout p->layout (p NULL: layout 0). In
 * layout 0 the buffer starts a page (4096 bytes); in layout k it starts
 * k-dependent whole cache lines (64 bytes, a multiple of align) into a
 * page, 0 to 15 pages further on (another page colour), and each buffer
 * of one set-up at another place, so that `settle run --layouts N`
 * measures the claim with its data in N places (docs/layouts.md). The
 * declared alignment always holds: a misaligned buffer is a parameter of
 * the claim, not a layout. The memory is not initialised; at most
 * 16 pages + 2 x max(align, 4096) bytes more than asked for are taken.
 * Returns NULL with errno set: ENOMEM when out of memory, EINVAL when
 * align is neither 0 nor a power of two up to 1 GiB. Free with settle_free() (not free()).
 */
void *settle_alloc(const struct settle_params *p, size_t bytes, size_t align);

/* Free a buffer of settle_alloc(); NULL does nothing. */
void settle_free(void *buf);

/* One extra parameter of a variant, stored in the result's params. */
enum settle_param_type { SETTLE_PARAM_STRING, SETTLE_PARAM_INT,
			 SETTLE_PARAM_BOOL };

struct settle_param {
	const char *key;   /* e.g. "elem_bits" */
	const char *value; /* e.g. "32"; "true"/"false" for a bool */
	enum settle_param_type type;
	const char *label; /* shown in tables, e.g. "32-bit"; NULL: value */
};

/* Variant flags. */
#define SETTLE_REFERENCE 0x1u /* a physical limit (memcpy, streaming read):
				 timed and shown, excluded from the check
				 and never the baseline */
#define SETTLE_WHY_OFF_SLOT "functions off 16-byte boundaries"
#define SETTLE_UNALIGNED_CODE 0x2u /* set by settle on the variants of a
				 FILE.c build whose functions do not all
				 start on a 16-byte boundary: measured in
				 layouts, its rows get no verdict
				 (SETTLE_WHY_OFF_SLOT; docs/layouts.md) */

struct settle_variant {
	const char *name;        /* e.g. "popcnt"; unique with build */
	const char *build;       /* build label ("-O0") or NULL; stored as
				    params.build, and the baseline is looked
				    up among variants of the same build */
	const char *description; /* one line for `settle list` */
	/*
	 * Perform exactly iters repetitions of the operation on state and
	 * return the check value. arg is the variant's own .arg (below), so
	 * that one function can serve several variants (a kernel per
	 * variant, a table of parameters). Each repetition performs
	 * ops_per_iter operations (loads, increments, system calls, buffer
	 * passes). The check value must not depend on which variant ran: the
	 * runner compares it with the baseline's for the same iters, at the
	 * claim's check_iters and at one more.
	 */
	uint64_t (*run)(void *state, const void *arg, uint64_t iters);
	/*
	 * NULL when the variant can always run. Otherwise returns NULL when
	 * it can run on this machine with this state and arg, or a short
	 * static reason ("CPU lacks POPCNT") when it cannot; the variant is
	 * then listed as skipped. Asked in every layout of every process; a
	 * variant refused in some and not in others is skipped in all
	 * (SETTLE_WHY_AVAILABLE_APART).
	 */
	const char *(*unavailable)(void *state, const void *arg);
	/* Passed as is to run() and unavailable(); settle never reads it.
	 * NULL when the variant needs none. */
	const void *arg;
	uint32_t ops_per_iter;   /* operations per repetition; 0 means 1 */
	unsigned flags;          /* SETTLE_REFERENCE */
	/*
	 * Extra parameters (NULL/0: none). Like build, they are part of the
	 * variant's identity: the baseline is looked up among the variants
	 * with the same build and the same parameters.
	 */
	const struct settle_param *params;
	size_t nparams;
	const char *label;       /* NULL (or ""), or the table label to use
				    as is */
};

/*
 * The table label of a variant: its .label if set, else build, parameter
 * labels, then the name ("-O2 long", "32-bit copy avx2"), written to buf
 * (len bytes, cut to fit; nothing is written when len is 0); returns buf.
 */
char *settle_variant_label(const struct settle_variant *v, char *buf,
			   size_t len);

/* The same label from its parts (build NULL: none). */
char *settle_label(const char *build, const struct settle_param *params,
		   size_t nparams, const char *name, char *buf, size_t len);

/* Non-zero when a and b have the same build and the same parameters, so
 * that one can be the other's baseline. */
int settle_variant_same_group(const struct settle_variant *a,
			      const struct settle_variant *b);

/* The most repetitions a claim's check_iters may ask (10^12): the check
 * runs that many and one more, so UINT64_MAX would wrap to 0. */
#define SETTLE_MAX_CHECK_ITERS 1000000000000ull

/* Special value of settle_claim.bytes_per_op: one operation covers the
 * whole buffer (params.size_bytes). */
#define SETTLE_BYTES_SIZE UINT64_MAX

struct settle_result;
struct settle_figure;
struct settle_scale_ctx;
struct settle_command_data;
struct settle_conclusion;
struct settle_conclude_ctx;

struct settle_claim {
	const char *name;        /* e.g. "popcount" */
	const char *description; /* one line */
	const char *title;       /* heading of the claim's table; NULL or
				    "": the name */
	const char *original;    /* NULL, or the original post's figures,
				    printed under the table for comparison */
	const char *op_name;     /* what one operation is: "buffer", "load";
				    NULL or "": "op" */
	const struct settle_variant *variants;
	size_t nvariants;
	const char *baseline;    /* name of the baseline variant */
	const uint64_t *default_sizes; /* NULL: the claim takes no size */
	size_t ndefault_sizes;
	const uint64_t *full_sizes; /* sizes added by --full (NULL: none) */
	unsigned buffers;        /* buffers of size_bytes that setup
				    allocates (0 means 1), for the memory
				    check before a run */
	size_t nfull_sizes;
	uint64_t bytes_per_op;   /* 0: no throughput; SETTLE_BYTES_SIZE: the
				    buffer size (B/ns shown, checked against
				    the read limit); else bytes per
				    operation, kept in the result file and
				    settle_result.bytes_per_ns, not shown
				    (a claim's variants may differ) */
	uint64_t check_iters;    /* repetitions for the check call; 0 = 1;
				    at most SETTLE_MAX_CHECK_ITERS */
	int show_cycles;         /* non-zero: show estimated core cycles/op */
	/*
	 * Create the state for one set of params. Returns NULL on failure
	 * with a one-line message in err (errlen bytes). NULL callback:
	 * state is NULL.
	 */
	void *(*setup)(const struct settle_params *p, char *err, size_t errlen);
	void (*teardown)(void *state);
	/*
	 * Optional. Translate one result into the claim's own terms: write up
	 * to max figures to out and return how many were written (0 for a
	 * result that has no scale row, e.g. not the largest size). Called
	 * for measured results only (settle_result_measured()).
	 */
	size_t (*scale)(const struct settle_result *r,
			const struct settle_scale_ctx *ctx,
			struct settle_figure *out, size_t max);
	/*
	 * Optional. What the claim's results settle, in the argument's own
	 * terms: res[0..n) are the claim's results (every size, skipped ones
	 * included, analysed, with their scale figures). Write the sentence,
	 * its numbers and the results it rests on to out and return 1; 0 for
	 * none (settle then says which variant was fastest and slowest, per
	 * build). Whether the conclusion is settled is not the claim's to
	 * say: settle decides it from the rows it names (see struct
	 * settle_conclusion).
	 */
	int (*conclude)(const struct settle_result *res, size_t n,
			const struct settle_conclude_ctx *ctx,
			struct settle_conclusion *out);
};

/* Most numbers and rows one conclusion may name (bswap's names up to 18
 * rows: for each element size the fastest copy, memcpy and four ties). */
#define SETTLE_MAX_NAMED 24

/*
 * A claim's conclusion: one sentence ("avx512 counts the 4 GiB of bitmaps
 * of a 128 TB file system 0.73 s faster than builtin-generic, 0.36 % of
 * the original 202 s check"), the numbers in it, and the results it rests
 * on (by label and size). It is settled when every row it names has a
 * verdict other than unclear and no row of the claim is invalid; else
 * not settled, with the reason (too noisy, layout-sensitive, an interval
 * across the band's edge, invalid rows, not measured).
 */
struct settle_conclusion {
	char sentence[480];
	struct {
		char name[32];  /* "ratio", "saved_s", ... */
		double value;
		char unit[12];  /* "x", "s", "%", "MB/s" */
	} numbers[SETTLE_MAX_NAMED];
	size_t nnumbers;
	struct {
		char label[128]; /* the result's label */
		uint64_t size_bytes;
		/* nonzero: the conclusion takes this row's own time, not its
		 * ratio to its baseline (settle_conclusion_row_time()) */
		int by_time;
	} rows[SETTLE_MAX_NAMED];
	size_t nrows;
};

struct settle_conclude_ctx {
	double device_mbps; /* --device-mbps, MB/s */
	double band;        /* equivalence band, a fraction */
	/* the core clock estimated from an add chain at the start and at
	 * the end of the run (settle_noise.core_ghz_before, _after), GHz;
	 * 0 when unknown */
	double core_ghz_before, core_ghz_after;
};

/*
 * Whether result r's time is the work's: it ran (not skipped), has
 * samples, none under 1000x the clock's resolution, and is not invalid
 * (r->invalid: work hoisted or removed, a cost once a call, a throughput
 * above the read limit). 1 or 0. Only such a result has a time, ratio,
 * throughput or scale figures to show, in every format.
 */
int settle_result_measured(const struct settle_result *r);

/*
 * The measured result (settle_result_measured()) of res[0..n) with this
 * table label at size_bytes (UINT64_MAX: the largest size among res), or
 * NULL when there is none, or it was skipped, is below resolution or is
 * invalid (a conclusion quoted an invalid row's ratio and time beside
 * "not settled: invalid rows"). For a claim's conclude().
 */
const struct settle_result *settle_result_find(const struct settle_result *res,
					       size_t n, const char *label,
					       uint64_t size_bytes);

/* Add number name = value unit to c (ignored beyond SETTLE_MAX_NAMED);
 * and name the result r as one c rests on. */
void settle_conclusion_number(struct settle_conclusion *c, const char *name,
			      double value, const char *unit);
void settle_conclusion_row(struct settle_conclusion *c,
			   const struct settle_result *r);
/* The same for a result whose own time the conclusion takes (e.g. the
 * pipe loop's ns per call), not its ratio to its baseline: its verdict
 * and its baseline's stability then do not hold the conclusion back,
 * its own stability does. A row named both ways counts as by ratio. */
void settle_conclusion_row_time(struct settle_conclusion *c,
				const struct settle_result *r);

/* Most figures one result's scale section may have. */
#define SETTLE_MAX_FIGURES 8

/* One derived figure of a scale section. */
struct settle_figure {
	char label[40]; /* column title, e.g. "4 TB bitmaps" */
	char unit[12];  /* "s", "MB/s", "%" */
	double value;   /* finite and >= 0 */
	char note[48];  /* "" or e.g. "extrapolated from 128 MiB" */
};

struct settle_scale_ctx {
	uint64_t largest_size; /* largest size measured for this claim */
	double device_mbps;    /* --device-mbps, MB/s (10^6 bytes/s) */
	int full;              /* --full given */
	const struct settle_claim *claim;     /* the claim scaling */
	const struct settle_variant *variant; /* the variant of the result */
};

/* ------------------------------------------------------------------ */
/* Claims in a file of your own (settle run FILE.c).                    */

/*
 * SETTLE_CLAIMS(&claim_a, &claim_b, ...): at file scope of FILE.c, after
 * the claims, list the claims that `settle run FILE.c` measures. It
 * defines the exported, NULL-terminated array settle_user_claims of
 * pointers to them (at least one), which settle finds with dlsym() in the
 * shared object it compiles FILE.c into; use it exactly once per file.
 *
 * settle compiles FILE.c once per --build (a compiler and its flags,
 * "cc -O2" by default) with -shared -fPIC and -I to this header's
 * directory, caches each shared object, loads it with dlopen() and
 * merges the builds: one claim per name, whose variants are every build's
 * variants with .build set to the build string ("gcc -O0"), timed
 * interleaved. Every variant must compute the same check value under
 * every build, or the run fails (exit status 1). A claim's fields other
 * than its variants, setup, teardown and scale are taken from the first
 * build; a NULL baseline means the first variant, a NULL title the name.
 *
 * A claim may call the functions settle itself is linked with (this
 * header's, settle_bits.h's, settle_byteorder.h's): the settle command
 * exports them to the shared object. Names beginning with settle_ are
 * settle's; keep other functions and data of FILE.c static.
 * docs/writing-a-claim.md describes it all, with an example.
 */
#define SETTLE_CLAIMS(...)						\
	extern const struct settle_claim *const settle_user_claims[];	\
	__attribute__((visibility("default")))				\
	const struct settle_claim *const settle_user_claims[] = {	\
		__VA_ARGS__, NULL					\
	}

/* ------------------------------------------------------------------ */
/* Statistics (src/stats).                                             */

/* Summary of n samples. Every field is finite and >= 0 for any input of
 * finite, non-negative samples, including n = 0 (all zero) and n = 1. */
struct settle_summary {
	size_t n;
	double min, max, median, mean;
	double mad;    /* median absolute deviation from the median, raw
			  (not scaled by 1.4826) */
	double stddev; /* sample standard deviation (n - 1); 0 when n < 2 */
	double cv;     /* stddev / mean; 0 when mean is 0 */
	double q3;     /* upper quartile: the 75th percentile, interpolated
			  between order statistics (Hyndman and Fan's
			  definition 7, R's default) */
};

/*
 * Summarise x[0..n). x is not modified. Negative or non-finite samples are
 * treated as 0, and every field is then finite (the sums are taken in
 * units of the largest sample, so even samples near DBL_MAX do not
 * overflow). Returns 0, or -1 when the scratch allocation fails (s is
 * then all zero).
 */
int settle_summarize(const double *x, size_t n, struct settle_summary *s);

/*
 * Median of x[0..n) (mean of the two middle values for even n); sorts x in
 * place. Returns 0 for n = 0. x must hold no NaN (the order, and so the
 * result, would be undefined); settle_summarize() takes any samples.
 */
double settle_median_inplace(double *x, size_t n);

/*
 * a / b for statistics that may be zero: returns 0 when b is 0 or either
 * is not finite, so that no NaN or inf reaches a report.
 */
double settle_safe_div(double a, double b);

/* ------------------------------------------------------------------ */
/* Verdicts (src/stats/verdict.c).                                     */

enum settle_verdict {
	SETTLE_UNCLEAR, /* the interval does not decide; see why */
	SETTLE_SAME,    /* the whole interval inside the equivalence band */
	SETTLE_FASTER,  /* the whole interval below the band */
	SETTLE_SLOWER,  /* the whole interval above the band */
	SETTLE_INVALID, /* the result is invalid (settle_result.invalid):
			   no time to compare */
};

/* A time ratio (new / old, or variant / baseline) with its interval. */
struct settle_comparison {
	double ratio;      /* point estimate; > 0 when valid */
	double lo, hi;     /* confidence interval of the ratio */
	double level;      /* confidence the interval achieves (0..1) */
	size_t n;          /* pairs, processes, or the smaller sample */
	enum settle_verdict verdict;
	const char *why;   /* for unclear: "too few samples", "interval too
			      wide", "interval straddles the band's edge",
			      "below resolution"; NULL otherwise */
	const char *method;/* how the interval was computed */
	double layout_spread; /* with why "layout-sensitive": the larger
			      layout spread of the two sides (relative,
			      settle_result.layout_spread); with a FILE.c
			      row's ratio that moves with the layout: the
			      largest layout's ratio over the smallest's,
			      less 1 */
	double mean_ratio; /* with why SETTLE_WHY_MEANS_RUNS or
			      SETTLE_WHY_MEANS_SAMPLES: the ratio of the
			      mean times the verdict contradicted */
};

/* The reason of a verdict left unclear because its interval has too few
 * units to be made (fewer than SETTLE_MIN_UNITS samples, or layouts'
 * rounds): no comparison was made, so nothing was found alike either. */
#define SETTLE_WHY_TOO_FEW "too few samples"
/* The same where processes are the units (settle run --processes 2,
 * whatever the samples of each). */
#define SETTLE_WHY_TOO_FEW_PROCESSES "too few processes"

/* Why a result is below resolution (settle_result.below_resolution), as
 * every format says it. */
#define SETTLE_WHY_BELOW_RES \
	"a sample lasted under 1000x the clock's resolution"

/* The reasons of an unclear verdict whose interval reaches beyond the
 * equivalence band on both sides, or crosses one edge of it; and of one
 * whose layouts' medians differ by more than its interval could show. */
#define SETTLE_WHY_TOO_WIDE "interval too wide"
#define SETTLE_WHY_STRADDLES "interval straddles the band's edge"
#define SETTLE_WHY_LAYOUT "layout-sensitive"

/* The reasons of a verdict made unclear by the ratio of the mean times
 * (a whole command's runs, a claim's samples' CPU times). */
#define SETTLE_WHY_MEANS_RUNS \
	"the mean times disagree: a slow mode in some runs"
#define SETTLE_WHY_MEANS_SAMPLES \
	"the mean times disagree: a slow mode in some samples"
/* The same for rows with samples another task preempted
 * (settle_result.preempted), whose time slices may be the slow mode. */
#define SETTLE_WHY_MEANS_PREEMPTED \
	"the mean times disagree: a slow mode in some samples, or other " \
	"tasks' time slices in preempted ones"

/* Rows most of whose samples were preempted (or their baseline's), the
 * median sample under SETTLE_ON_CPU of its time on the CPU: their times
 * hold other tasks' time slices, or a partner's work that is the body's
 * own, so the interval is widened to span the CPU times' interval too.
 * The reason of a verdict so made unclear (the two disagree), and the
 * remark on one that stands on the wider interval. */
#define SETTLE_WHY_SHARED_CPU \
	"it shared its CPU: most samples preempted, and their CPU times " \
	"do not say the same"
#define SETTLE_WHY_SHARED_WIDENED \
	"its interval spans its CPU times' too: most samples preempted"

/* Why a variant that unavailable() refused in some of a run's layouts or
 * processes and not in others is skipped in all, its samples dropped: a
 * row is compared with its baseline round by round, and one measured in
 * some processes alone paired its samples with another process's (an
 * identical copy of a baseline unavailable in one process of 6 read
 * 0.976x faster, settled). */
#define SETTLE_WHY_AVAILABLE_APART \
	"unavailable in some layouts or processes and not in others (a " \
	"row is measured in all or in none)"

/* "faster", "slower", "same", "unclear", "invalid"; "?" for a value
 * outside the enum. */
const char *settle_verdict_name(enum settle_verdict v);

/*
 * Paired comparison of interleaved rounds: base[k] and x[k] (ns, k <
 * n) were measured in the same round. The ratio is exp of the
 * Hodges-Lehmann estimate of the log ratios log(x[k] / base[k]), its 95 %
 * interval from the exact Wilcoxon signed-rank distribution (Hollander,
 * Wolfe, Chicken, "Nonparametric Statistical Methods", 3rd ed., 3.2-3.3);
 * distribution-free, and no sample is dropped as an outlier. band is
 * the equivalence band as a fraction >= 0 (0.01 = +-1 %). Rounds where
 * either time is 0 are left out. Returns 0; -1 with c unclear and c->why
 * set when every sample of a side is 0 (no time was measured), or when
 * band is negative, infinite or not a number.
 */
int settle_compare_paired(const double *base, const double *x, size_t n,
			  double band, struct settle_comparison *c);

/*
 * Unpaired comparison of two sets of samples (ns): old[0..n), new[0..m)
 * (different processes or files; counts may differ). Two-sample
 * Hodges-Lehmann shift of the log times with its interval from the
 * Mann-Whitney U distribution (Hollander, Wolfe, Chicken 4.3). Same
 * verdict rules and return as settle_compare_paired().
 */
int settle_compare_unpaired(const double *old, size_t n, const double *new_,
			    size_t m, double band, struct settle_comparison *c);

/*
 * Unpaired comparison with the process as the unit: old[0..n) and
 * new_[0..m) are one level (a time, ns) per fresh process of each of two
 * runs. The ratio is exp of the difference of the sides' 20 % trimmed
 * means of the log levels (settle_process_trim() cut from each end; none
 * below 5), its 95 % interval Yuen's: each side's winsorized variance
 * s_w^2 gives d = (k - 1) s_w^2 / (h (h - 1)) (k levels, h kept), the
 * half-width t_0.975 sqrt(d_old + d_new) on Welch-Satterthwaite degrees
 * of freedom (d_old + d_new)^2 / (d_old^2 / (h_old - 1) + d_new^2 /
 * (h_new - 1)) (Yuen 1974; Wilcox, Introduction to Robust Estimation and
 * Hypothesis Testing, 5.3; with nothing trimmed, Welch's t interval).
 * Reaches 95 % with any 2 levels a side, where the Mann-Whitney interval
 * of 3 a side reaches 90 %. Same verdict rules, which need
 * SETTLE_MIN_UNITS (3) levels a side: fewer gives unclear,
 * SETTLE_WHY_TOO_FEW_PROCESSES (the interval is still made from 2).
 * c->method is SETTLE_METHOD_LEVELS_YUEN when either side is trimmed,
 * else SETTLE_METHOD_LEVELS_WELCH. Returns 0, or -1 when memory
 * runs out, no level is above 0 (c unclear, c->why set) or band is not a
 * finite fraction >= 0.
 */
#define SETTLE_METHOD_LEVELS_YUEN \
	"per-process levels, 20% trimmed means, Yuen-Welch interval"
#define SETTLE_METHOD_LEVELS_WELCH "per-process levels, Welch t interval"
int settle_compare_levels(const double *old, size_t n, const double *new_,
			  size_t m, double band, struct settle_comparison *c);

/*
 * The ratio of the means of x[0..n) and base[0..n), paired by index (the
 * same round), q = sum x / sum base, with a 95 % interval [*lo, *hi]
 * from the ratio estimator's standard error, s(x_k - q base_k) /
 * (sqrt(n) mean(base)), times t on n - 1 degrees of freedom (Cochran,
 * Sampling Techniques, 3rd ed., 6.9; the delta method). Values that are
 * not finite or below 0 leave their pair out. Returns q, or 0 (*lo and
 * *hi 0) with fewer than 2 pairs or no time in base.
 */
double settle_mean_ratio(const double *x, const double *base, size_t n,
			 double *lo, double *hi);

/*
 * The same for unpaired times (two files): q = mean x / mean base, its
 * 95 % interval q +- t sqrt(v_x + v_base) with v = q^2 s^2 / (k mean^2)
 * a side (the delta method) on Welch-Satterthwaite degrees of freedom.
 * Returns q, or 0 (*lo and *hi 0) with fewer than 2 usable values a side
 * or no time in base.
 */
double settle_mean_ratio_unpaired(const double *x, size_t n,
				  const double *base, size_t m, double *lo,
				  double *hi);

/*
 * Whether verdict v contradicts q, the ratio of the mean times, [lo, hi]
 * its 95 % interval: faster against q >= 1, slower against q <= 1, the
 * same against q more than SETTLE_QUOTE_SPREAD (10 %) from 1, or than
 * the band where that is wider, or beyond the band (a factor 1 + band
 * either way) with an interval without 1 (a same within +-50 % is no
 * contradiction of means 0.684x).
 * The median and the paired estimate leave out a cost paid in a few
 * samples or runs; the mean does not. 1 or 0 (0 for an unclear or
 * invalid v, or q not above 0).
 */
int settle_means_contradict(enum settle_verdict v, double q, double lo,
			    double hi, double band);

/* The per-process estimates settle_compare_processes() cuts from each
 * end: floor(0.2 p), 0 below 5 processes. */
size_t settle_process_trim(size_t p);

/*
 * Comparison with the process as the unit of replication: est[0..p) are
 * per-process log ratios (one estimate per fresh process). With p < 5 the
 * ratio is exp of their mean, with a Student t interval on p - 1 degrees
 * of freedom. With p >= 5, g = settle_process_trim(p) estimates are cut
 * from each end: the ratio is exp of the 20 % trimmed mean, with Yuen's
 * interval, the winsorized standard deviation s_w over
 * (1 - 2g/p) sqrt(p) times t on p - 2g - 1 degrees of freedom (Tukey and
 * McLaughlin 1963, Yuen 1974; Wilcox, Introduction to Robust Estimation
 * and Hypothesis Testing, 4.4-4.5), so that one process that a burst of
 * other work or a code-placement flip moved by several per cent does not
 * make the interval wide. Same verdict rules; p < SETTLE_MIN_UNITS (3)
 * gives unclear, SETTLE_WHY_TOO_FEW_PROCESSES (the interval is still
 * made from 2). Returns 0, or -1 when memory runs out or band is not a
 * finite fraction >= 0 (c unclear, c->why set).
 */
int settle_compare_processes(const double *est, size_t p, double band,
			     struct settle_comparison *c);

/*
 * Whether the 95 % intervals of a and b (ratios against the same
 * baseline: lo, hi) overlap: a run that gives both cannot tell which is
 * faster. 1 or 0.
 */
int settle_intervals_overlap(const struct settle_comparison *a,
			     const struct settle_comparison *b);

/*
 * Apply the verdict rules to c->lo, c->hi, c->n, c->level: fewer than 3
 * samples, or an interval that reaches less than 90 % confidence (3 or 4
 * pairs) -> unclear (too few samples); interval entirely below
 * 1 / (1 + band) -> faster; entirely above 1 + band -> slower; inside
 * [1 / (1 + band), 1 + band] -> same (a factor of 1 + band either way, so
 * that the verdict of A against B is the mirror of B against A's);
 * otherwise unclear (too wide when the interval is wider than the band,
 * else straddling its edge). A band that is negative, infinite or not a
 * number gives unclear ("no equivalence band ...").
 */
void settle_decide(struct settle_comparison *c, double band);

/*
 * c, from times that other tasks' time slices may have lengthened, and
 * cpu, the same comparison of the CPU times (NULL: none could be made):
 * c's interval widened to span cpu's too and its verdict what the wider
 * interval decides (settle_decide(), c's units and level kept), with why
 * SETTLE_WHY_SHARED_WIDENED where it stands and unclear with
 * SETTLE_WHY_SHARED_CPU where it does not, or where cpu is NULL or has no
 * usable interval. c unchanged when it is unclear or invalid already, or
 * when cpu's interval lies within c's.
 */
void settle_widen_to_cpu(struct settle_comparison *c,
			 const struct settle_comparison *cpu, double band);

/* ------------------------------------------------------------------ */
/* Timer (src/timer).                                                  */

/* The clock: an architecture's counter, or clock_gettime. */
enum settle_clock { SETTLE_CLOCK_TSC, SETTLE_CLOCK_MONOTONIC,
		    SETTLE_CLOCK_CNTVCT,
		    SETTLE_CLOCK_UNKNOWN /* a file that does not say (Google
					    Benchmark's) */ };

/*
 * What the clock is and what it costs. Every calibrated value is estimated
 * from many short windows, from the undisturbed ones only, and is 0 when
 * no stable value within physical bounds could be had: 0 means unknown,
 * never a measurement (printed as "unknown", null in result files).
 */
struct settle_timer_info {
	enum settle_clock clock;
	double tsc_ghz;         /* counter ticks per ns (the TSC, or
				   CNTVCT_EL0 on AArch64); 0 without a
				   counter (the clock is then
				   CLOCK_MONOTONIC_RAW, also when the
				   counter's rate was unknown) */
	double overhead_ns;     /* cost of one start/stop pair (the fastest
				   of each window of reads); 0: unknown */
	double resolution_ns;   /* smallest non-zero step seen; never 0 */
	double core_ghz;        /* core clock estimated from an add chain;
				   0: not estimated or unknown */
	const char *why;        /* why this clock was chosen */
};

/*
 * Choose and calibrate the clock: the architecture's counter where it runs
 * at a fixed rate and user space may read it - the TSC on x86-64 when
 * cpuid reports an invariant TSC (leaf 0x80000007 EDX bit 8) and RDTSCP
 * (leaf 0x80000001 EDX bit 27), the virtual counter CNTVCT_EL0 on AArch64
 * - its rate calibrated against CLOCK_MONOTONIC_RAW over calib_ms
 * milliseconds (0: 20) in 24 windows, each bracketed by clock reads, and
 * the rate taken where at least half of the windows agree within 0.5 %
 * (src/timer/calib.h); on AArch64 the rate CNTFRQ_EL0 states is used when
 * that calibration agrees with it within 2 %. When the windows do not
 * agree, or the rate is outside 1 MHz to 10 GHz, the counter is not used
 * and clock_gettime(CLOCK_MONOTONIC_RAW) is the clock, as it is without a
 * counter (and in the generic build). SETTLE_CLOCK=monotonic forces that
 * clock; another value but auto or empty is ignored and reported by
 * settle_clock_env_refusal(). Measures overhead and resolution.
 * Idempotent and thread-safe: the first call calibrates (concurrent first
 * calls wait for it), later calls return the same calibration. Returns
 * the info (never NULL).
 */
const struct settle_timer_info *settle_timer_init(unsigned calib_ms);

/*
 * NULL when SETTLE_CLOCK is unset, empty, "auto" or "monotonic".
 * Otherwise the value is ignored (the clock is chosen automatically), and
 * this is why, as one line without a newline that names the value
 * (non-printable characters as '?', a value over 67 characters cut to 64
 * and "..."): "SETTLE_CLOCK=tsc refused: unknown clock (monotonic or
 * auto)". Reads the variable once per process; does not calibrate. The
 * settle command prints it after "settle: " and exits with status 2.
 */
const char *settle_clock_env_refusal(void);

/*
 * Raw timestamps of the chosen clock (counter ticks or ns). x86-64: start
 * orders with lfence before rdtsc, stop with rdtscp then lfence. AArch64:
 * isb before the counter read, and after it for stop.
 */
uint64_t settle_timer_start(void);
uint64_t settle_timer_stop(void);

/* The clock's name in result files ("tsc", "cntvct",
 * "clock_monotonic_raw") and for people ("TSC", "CNTVCT_EL0",
 * "clock_gettime(CLOCK_MONOTONIC_RAW)"). */
const char *settle_clock_name(enum settle_clock clock);
const char *settle_clock_label(enum settle_clock clock);

/* The clock of a result file's name (settle_clock_name()'s); another
 * name, or NULL (no name: every file settle writes has one), gives
 * SETTLE_CLOCK_UNKNOWN, so that a file's unknown clock is never shown
 * as a known one. */
enum settle_clock settle_clock_parse(const char *name);

/* Convert a difference of two timestamps to ns. */
double settle_timer_ns(uint64_t delta);

/*
 * Estimate the core clock in GHz from a dependent chain of register
 * additions (`add reg, reg` on x86-64, `add xd, xd, xm` on AArch64:
 * latency 1 cycle on every core of either; Intel SDM optimisation manual,
 * Agner Fog's instruction tables, the Arm Cortex software optimization
 * guides), timed with the chosen clock in windows of about 20 us, as many
 * as fit in about ms milliseconds (0: 10). The estimate is where at least
 * a third of the windows agree within 2 % (src/timer/calib.h): a
 * preemption or other stall only lengthens the window it falls in. Under
 * constant disturbance it stops, with the windows it has, after 4 x ms +
 * 50 milliseconds. Returns 0 (unknown) when no stable estimate can be
 * had, or when it is outside 0.2-10 GHz or above 3x the counter's rate.
 * Thread-safe.
 */
double settle_estimate_core_ghz(unsigned ms);

/* ------------------------------------------------------------------ */
/* Machine and build description (src/env).                            */

#define SETTLE_MAX_CACHES 8

struct settle_cache {
	int level;           /* 1, 2, 3 */
	char type[12];       /* "Data", "Instruction", "Unified" */
	uint64_t size_bytes;
};

struct settle_machine {
	char vendor[16];       /* x86-64: cpuid leaf 0; AArch64: the MIDR_EL1
				  implementer ("Arm") */
	char model_name[64];   /* x86-64: cpuid brand string; AArch64: the
				  MIDR_EL1 implementer, part and revision
				  ("Arm Cortex-A53 r0p4") */
	unsigned family, model, stepping; /* x86-64: cpuid leaf 1; AArch64:
				  MIDR_EL1 implementer, part number,
				  revision */
	char isa[512];         /* usable ISA extensions, space-separated:
				  cpuid bit and, for AVX state, XCR0;
				  AArch64: AT_HWCAP/AT_HWCAP2 bits */
	struct settle_cache caches[SETTLE_MAX_CACHES];
	size_t ncaches;
	char caches_source[16];/* "" when from sysfs (or none); "sysconf"
				  when sysfs has none and glibc's sysconf
				  (from cpuid) gave them */
	long logical_cpus;
	char kernel[160];      /* uname release and version */
	int hypervisor;        /* cpuid leaf 1 ECX bit 31; -1: unknown (a
				  file that does not say) */
	char hypervisor_vendor[16]; /* leaf 0x40000000 signature */
	char seccomp[32];      /* Seccomp line of /proc/self/status */
	char mitigations[1024];/* /sys/.../vulnerabilities, "name: state;" */
	uint64_t mem_available;/* bytes, /proc/meminfo MemAvailable */
	char popcount_impl[16];/* the dispatched primitives' choice: */
	char bswap_impl[16];   /* settle_popcount_active() and _bswap_ */
	char bswap_sizes[320]; /* which loop copies which sizes and where
				  non-temporal stores start, for bswap_impl
				  on this machine ("" if not said) */
	char read_limit[256];  /* the read limit's kernel and which loads
				  read which sizes ("" if not said) */
	unsigned read_limit_timed;     /* processes whose read limit timed
				  two widths of loads to choose one (AMD
				  family 19h: 256 or 512 bits below 64 KiB,
				  at the start), 0 where none did */
	unsigned read_limit_timed_256; /* of them, those where the 256-bit
				  loads read faster (and were chosen) */
	char emulator[32];     /* "qemu-user (qemu-aarch64)" when this CPU is
				  emulated (timings then describe no real
				  CPU), else "" */
};

/* Fill m from the architecture (cpuid and xgetbv; MIDR_EL1 and the
 * auxiliary vector), uname, sysfs and /proc. Fields that cannot be read are
 * left empty or 0. Never fails. */
void settle_machine_describe(struct settle_machine *m);

/* Noise during a run (src/env/noise.c). */
struct settle_noise {
	double loadavg;            /* 1-minute load average at the start */
	double steal_pct;          /* % of CPU time stolen by the hypervisor
				      during the run (all CPUs); < 0:
				      unknown (/proc/stat unreadable) */
	long nvcsw, nivcsw;        /* voluntary / involuntary context
				      switches of this process during the run */
	long migrations;           /* samples that ran on another CPU than
				      the one pinned to */
	char governor[32];         /* cpufreq governor, or "unknown" */
	double core_ghz_before, core_ghz_after; /* add-chain estimates;
				      0: unknown */
	double drift_pct;          /* after / before - 1, in %; 0 when either
				      estimate is unknown */
	double other_cpus;         /* CPUs kept busy by other work during
				      the run, on average: busy time of all
				      CPUs (/proc/stat) less the run's own
				      CPU time (getrusage, with its
				      children), over its wall time; < 0:
				      unknown */
	double seconds;            /* wall time the noise covers (s); 0:
				      unknown */
	int known;                 /* 0: not recorded (a result file without
				      "noise", a Google Benchmark file) */
};

/* ------------------------------------------------------------------ */
/* Runner (src/runner).                                                */

struct settle_options {
	unsigned samples;       /* samples per variant and size */
	double min_sample_ns;   /* each sample lasts at least this long (the
				   runner also enforces 1000x resolution) */
	double warmup_ns;       /* warm-up time per variant */
	int cpu;                /* CPU to pin to; -1: the one we start on */
	int quick, full;
	double device_mbps;
	double band;            /* equivalence band, fraction (0.01) */
	unsigned processes;     /* fresh processes pooled (1: this one) */
	unsigned layouts;       /* layouts measured in each process (0 or 1:
				   one, layout_first; docs/layouts.md) */
	unsigned layout_first;  /* the layout measured first (with one
				   layout: the only one; 0 by default) */
	unsigned long round_first; /* rows of the Williams design that
				   come before this process's first round
				   (0 by default; --processes gives
				   process p p x its rounds, so that the
				   processes go on through the design
				   rather than each repeat its start) */
	FILE *progress;         /* NULL: silent */
};

/* Defaults: 15 samples of >= 10 ms, band 1 %; quick: 5 of >= 2 ms. */
void settle_options_default(struct settle_options *o, int quick);

/*
 * What the results of one claim say about it: everything a report needs
 * to print the claim's table, whether the results were just measured or
 * loaded from a file. Shared by the claim's results; owned by the report.
 */
struct settle_claim_info {
	const struct settle_conclusion *conclusion; /* the claim's, or NULL */
	const char *name;        /* e.g. "popcount" */
	const char *title;       /* table heading; the name when none */
	const char *description; /* one line; "" when none */
	const char *op_name;     /* what one operation is; "op" when none */
	const char *original;    /* the original post's figures, or NULL */
	const char *baseline;    /* name of the baseline variant; "" when the
				    claim has none (a Google Benchmark file) */
	int sized;               /* takes a buffer size (size_bytes) */
	uint64_t bytes_per_op;   /* 0, SETTLE_BYTES_SIZE or bytes */
	int show_cycles;         /* show core cycles per operation */
};

/* Pairs of calls of n and 2n repetitions in one set of the repetition
 * check (settle_result.repeat1_ns, repeat2_ns). */
#define SETTLE_REPEAT_PAIRS 9

/*
 * One variant of one claim at one size: the variant as it was measured
 * (its name, build and parameters, copied), every sample, and what the
 * analysis made of them. Strings are owned by the report.
 */
struct settle_result {
	const struct settle_claim_info *claim;
	const char *variant;        /* the variant's name */
	const char *build;          /* params.build, or NULL */
	const char *label;          /* table label: build, parameter labels,
				       name ("-O2 long", "32-bit copy avx2") */
	const struct settle_param *params; /* the other parameters */
	size_t nparams;
	int reference;              /* SETTLE_REFERENCE: a physical limit */
	int unaligned_code;         /* SETTLE_UNALIGNED_CODE: its build's
				       functions do not all start a 16-byte
				       slot (no verdict in layouts) */
	uint64_t size_bytes;        /* 0 for a claim without sizes */
	const char *skipped;        /* reason when not run, else NULL */
	uint64_t iters;             /* repetitions per sample */
	uint64_t ops_per_sample;    /* iters * ops_per_iter */
	uint64_t check;             /* check value */
	size_t nsamples;
	double *samples_ns;         /* ns per operation, every sample */
	double *samples_cpu_ns;     /* the measuring thread's CPU time per
				       operation in each sample (ns), NULL
				       when unknown (whole commands, older
				       files): a preempted sample's is its
				       work's, its wall time is not */
	unsigned char *sample_layouts; /* the layout of each sample, NULL
				       when every sample is in layout 0 */
	/*
	 * With samples in two layouts or more (docs/layouts.md): the number
	 * of layouts; the spread of the layouts' medians, (largest -
	 * smallest) / the median of every sample; the noise within a
	 * layout, the relative standard deviation of a replicate's median
	 * (each process's first and second pass over the layouts) about
	 * an additive model of layout and replicate; layout_p, the chance
	 * of layouts this different from that noise alone (an analysis of
	 * variance; NaN when it cannot be made); and whether the row is
	 * layout-sensitive (settle_layout_sensitive(): p below 0.01 and a
	 * spread above twice the equivalence band).
	 */
	unsigned nlayouts;
	double layout_spread, layout_noise, layout_p;
	int layout_sensitive;
	double within_mad;          /* the MAD within the processes and
				       layouts (ns): of the samples each
				       scaled by the median / the median of
				       its layout in its process; sum.mad
				       for one process in one layout;
				       unstable is decided from it */
	struct settle_summary sum;  /* of samples_ns */
	int is_baseline;            /* the baseline of its group */
	int has_baseline;           /* its group (claim, size, build,
				       parameters) has a measured baseline,
				       so ratio is meaningful */
	double ratio;               /* median / the baseline's median */
	double bytes_per_ns;        /* 0 when the claim has no bytes */
	double cycles_per_op;       /* core cycles per operation; 0 if unknown */
	const char *cycles_source;  /* "perf_event_open" (counted, mean over
				       the samples) or "add-chain estimate"
				       (median x estimated core clock) */
	double instructions_per_op; /* counted; 0 without counters */
	uint64_t cycles_total, instructions_total, counted_ops;
	int unstable;               /* spread too high to trust (see
				       settle_summary_unstable()); with
				       layouts, the spread within them */
	int below_resolution;       /* a sample lasted under 1000x the
				       clock's resolution: no time to report */
	double shortest_sample_ns;  /* the duration of the shortest sample
				       (ns, the whole call, not per
				       operation); 0: unknown (older files,
				       whole commands) */
	size_t preempted;           /* samples during which another task
				       took the CPU (an involuntary context
				       switch): their times hold its time
				       slices; 0 in files before 2026-12-06 */
	/*
	 * Evidence that the work was really repeated: nrepeat pairs of
	 * adjacent calls, one of iters repetitions (repeat1_ns[k], ns) and
	 * one of repeat_iters = 2 x iters (repeat2_ns[k]), the call of 2n
	 * first in even pairs but the last: SETTLE_REPEAT_PAIRS pairs (3
	 * in files before 2026-12-02; each n first before 2026-12-06).
	 * read_limit_bpns: a plain read of a buffer of size_bytes in the
	 * same run, bytes per ns (0: not measured).
	 */
	uint64_t repeat_iters;
	double repeat1_ns[SETTLE_REPEAT_PAIRS];
	double repeat2_ns[SETTLE_REPEAT_PAIRS];
	size_t nrepeat;
	int repeat_blocked;         /* the calls of the pairs blocked (the
				       thread waited: a pipe, a partner);
				       unknown in files before 2026-12-06 */
	double read_limit_bpns;
	/*
	 * "" or why the result is invalid (work hoisted or removed): 2 x the
	 * repetitions took under 1.5 x the time (the fastest of the 2n calls
	 * against the fastest of the n calls), or the throughput exceeds 2 x
	 * the read limit. Decided by the analysis from the evidence.
	 */
	char invalid[200];
	int has_cmp;                /* cmp is valid (not the baseline) */
	struct settle_comparison cmp; /* against the baseline, paired */
	struct settle_figure *figures; /* scale section, nfigures of them */
	size_t nfigures;
	/* a whole command (settle run --command): its CPU times and perf
	   profile (src/runner/command.h); NULL for a claim's variant */
	struct settle_command_data *command;
};

/* Non-zero when a and b have the same build and the same parameters, so
 * that one can be the other's baseline. */
int settle_result_same_group(const struct settle_result *a,
			     const struct settle_result *b);

/* Non-zero when a and b are the same row: the same claim (by name, so
 * that rows of two reports can be matched), variant, size, build and
 * parameters (settle_result_same_group()). Rows of one key in one report
 * are repetitions of it. */
int settle_result_same_key(const struct settle_result *a,
			   const struct settle_result *b);

struct settle_report {
	struct settle_machine machine;
	struct settle_timer_info timer;
	struct settle_options options;
	int cpu;                    /* CPU actually pinned to; -1: unknown */
	struct settle_result *results;
	size_t nresults, cap;
	struct settle_noise noise;
	char compiler[96];          /* build of the measuring program */
	char build_flags[256];
	char novec_flags[256];      /* its objects built with the vectoriser
				       off (popcount's builtin-generic) */
	char claims_built[256];     /* "" or the builds of the claims measured
				       (settle run FILE.c: "gcc -O0, gcc -O2"),
				       when they are not settle's own */
	char source[256];           /* the file it was read from (settle
				       show, compare), or "" for a run of
				       this program */
	char created[24];           /* when its run began, UTC, ISO 8601
				       ("2026-12-05T17:07:48Z"); "" unknown */
	void *owned;                /* memory of the report's strings and
				       claim descriptions */
	void *run;                  /* the runner's state between
				       settle_report_init() and _finish() */
	char order[128];            /* how each round ordered the variants
				       (settle_report_init: "interleaved,
				       paired Williams rows of the variants
				       run"; a loaded file's
				       settings.order), or "" when unknown */
	int gbench;                 /* read from a Google Benchmark JSON file:
				       1 a Google Benchmark program's (no
				       processes, layouts or rounds), 2
				       settle's gbench-json (its processes
				       and layouts, no rounds); last,
				       so that the fields before it keep
				       their offsets */
};

/*
 * Pin the calling thread to o->cpu (or the CPU it runs on), calibrate the
 * timer and describe the machine into rep. Returns 0, or -1 with a message
 * in err when the CPU is not one this process may run on.
 */
int settle_report_init(struct settle_report *rep, const struct settle_options *o,
		       char *err, size_t errlen);

/*
 * Measure claim c at each of sizes[0..nsizes) (when nsizes is 0: the
 * claim's default sizes, followed by its full_sizes under options.full;
 * ignored for a claim without sizes), appending one
 * result per variant and size to rep. Variants are interleaved: round k
 * times every variant once, in a row of a Williams design (every variant
 * in every position, and directly after every other variant, equally
 * often over n rounds, 2n when n is odd).
 * Returns 0; -1 with a message in err when set-up fails, memory runs out,
 * or a variant's check value differs from the baseline's (the message
 * names the variant and both values); -2 when an interrupt was noted
 * (SIGINT, SIGTERM: see the settle command): the claim's results are
 * dropped, those of claims run before stay. The claim's conclusion (its
 * conclude callback) is drawn from what is known then: the core clock's
 * estimate at the start; settle_conclude_claims() after
 * settle_report_finish() draws it again with the one at the end too.
 */
int settle_run_claim(struct settle_report *rep, const struct settle_claim *c,
		     const uint64_t *sizes, size_t nsizes,
		     char *err, size_t errlen);

/* End a run: the core clock again (drift), noise deltas, counters closed. */
void settle_report_finish(struct settle_report *rep);

/*
 * Scale and conclude again from rep's results, for each of claims[0..n)
 * that rep has results of: the figures of its scale callback (each
 * result's, replacing what it had) and the conclusion of its conclude
 * callback, replacing the one settle_run_claim() drew: after
 * settle_report_finish(), so that a conclusion in core cycles sees the
 * clock's estimate at the end of the run too (its drift); after pooling
 * processes' results (their figures were the first process's); or for a
 * report read from a file. Returns 0, or -1 when out of memory.
 */
int settle_conclude_claims(struct settle_report *rep,
			   const struct settle_claim *const *claims, size_t n);

/* Free every result of rep (not rep itself). */
void settle_report_free(struct settle_report *rep);

/* The number of results of rep that are invalid (settle_result.invalid):
 * a run that reports one has failed. */
size_t settle_report_invalid(const struct settle_report *rep);

/* The number of results of rep, not skipped, with no time measured: below
 * the clock's resolution (settle_result.below_resolution), a body whose
 * time does not grow with its repetitions. A run that reports one has
 * failed too. */
size_t settle_report_below_resolution(const struct settle_report *rep);

/* ------------------------------------------------------------------ */
/* Output (src/view, src/report) and result files (src/model).        */

/*
 * Write rep in the format named format to path, whole or not at all (a
 * temporary file in the same directory, fsync'ed and renamed over path);
 * path "-" writes to standard output. Every format says the same thing
 * about the report (it lays out one view of it) and prints numbers with
 * '.' as the decimal point whatever the program's locale. The formats:
 * "table" (terminal tables), "json" (the result file, schema
 * SETTLE_SCHEMA, docs/result-format.md), "md" (GitHub Markdown), "text"
 * (at most 72 columns, for a mailing list), "csv" (RFC 4180), "json-lines"
 * (one JSON object per result), "gbench-json" (Google Benchmark's
 * layout); docs/output-formats.md describes each. Returns 0, or -1 with
 * a message in err (an unknown format, out of memory, path not
 * writable).
 */
int settle_write_report(const struct settle_report *rep, const char *format,
			const char *path, char *err, size_t errlen);

/*
 * Write what `settle info` says of rep's machine (its facts, the clock,
 * the primitives chosen, the mitigations, the CPU pinned to) as lines of
 * text to path ("-": standard output). Returns 0, or -1 with a message
 * in err.
 */
int settle_write_machine(const struct settle_report *rep, const char *path,
			 char *err, size_t errlen);

/*
 * Compare result files and write the comparison in format (as above;
 * "gbench-json" has none): for each claim/variant/params of news[k] that
 * old also has, the old and new median, the change in % with its 95 %
 * interval and the verdict, compared by the process (each file's
 * processes' mean levels, settle_compare_levels(), when both files hold
 * 3 processes or more, both in layouts or neither), else by balanced
 * units (both in layouts: one sample of every layout, averaged over the
 * layouts), else by every repetition pooled on each side (counts may
 * differ; settle_compare_unpaired()); a geometric-mean row (per unit
 * when every row has as many units, else a bootstrap interval with a
 * fixed seed); the rows one file lacks; warnings when
 * the machines or builds differ (CPU model, ISA, kernel, compiler) and
 * each file's recorded noise. *slower receives the number of rows called
 * slower with a change of at least fail_pct percent (any, when fail_pct
 * <= 0). With failures not NULL (a --fail-on check), what else must fail
 * such a check is written there, a line each, and counted in *slower: a
 * file without results, files without a row in common, rows of the old
 * file missing from a new one, invalid rows. Returns 0; 1 when a new
 * file has no row in common with old (nothing compared between them; the
 * comparison, which says so, is written; err names the first such file);
 * or -1 with a message in err.
 */
int settle_write_compare(const struct settle_report *old,
			 const struct settle_report *const *news, size_t nnew,
			 double fail_pct, const char *format, const char *path,
			 FILE *failures, size_t *slower, char *err,
			 size_t errlen);

/* Non-zero when format names an output format of settle run and show
 * (for_compare 0) or of settle compare (for_compare 1). */
int settle_format_known(const char *format, int for_compare);

/* The names of those formats, "table, json, md, ...", into buf (len
 * bytes, cut to fit; nothing is written when len is 0); returns buf. */
char *settle_format_names(int for_compare, char *buf, size_t len);

/*
 * The format settle run writes to path when --output is given without
 * --format, from the name's ending: ".md" md, ".csv" csv, ".txt" text,
 * ".jsonl" json-lines, anything else (".json", no ending, path NULL) json,
 * the result file that settle show and settle compare read. Never NULL.
 */
const char *settle_format_for_path(const char *path);

/* Whether format name is read by programs (json, csv, json-lines,
 * gbench-json): cut short, it would read as whole. 1 or 0 (0 for an
 * unknown name). */
int settle_format_is_data(const char *name);

/* Whether settle run --output FILE in format name still prints the
 * table on standard output (json, gbench-json). 1 or 0 (0 for an
 * unknown name). */
int settle_format_echoes_table(const char *name);

/*
 * Load a result file into rep: a settle result file (written with the
 * "json" format), or a Google Benchmark JSON file (an object with
 * "context" and "benchmarks"). Claims and variants are described from
 * the file, statistics and verdicts recomputed from the samples with
 * band (a fraction: 0.01 for +-1 %); a negative band takes the file's
 * own (settings.equivalence_band, as settle run --equivalence set it;
 * 0.01 when the file has none).
 *
 * A Google Benchmark entry becomes a result of claim = its name up to the
 * first '/', variant = the rest (or the whole name); its repetitions are
 * the samples (real_time in ns per iteration, converted from time_unit);
 * aggregates (run_type "aggregate", or names ending in _mean, _median,
 * _stddev, _cv in files without run_type) and entries with
 * error_occurred are left out. Such claims have no baseline.
 *
 * Returns 0, or -1 with a one-line message in err: unreadable, not JSON
 * or truncated, not a settle result (schema missing or different), or
 * malformed (a required key missing or of the wrong type). Free with
 * settle_report_free().
 */
int settle_load_json(const char *path, double band, struct settle_report *rep,
		     char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* Parsing helpers (src/util).                                         */

/*
 * Parse a size: a decimal integer, then nothing, "B" or "b" (bytes), or a
 * binary unit K, M, G, T, P or E in either case (K = 1024, ... E = 2^60),
 * alone or followed by "B" or "iB" ("64k", "64K", "64KB", "64KiB"; not
 * "64kb"). Returns 0 and stores the byte count, -1 for empty, negative,
 * fractional, non-numeric, spaced or zero input, or -2 for a well-formed
 * size of 2^64 bytes or more. Also in the primitives library, which reads
 * SETTLE_BSWAP_NT_BYTES with it.
 */
int settle_parse_size(const char *s, uint64_t *bytes);

/*
 * splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): the next 64-bit value of the sequence whose
 * state is *state. The same seed gives the same sequence on every machine.
 */
uint64_t settle_random_next(uint64_t *state);

/* Fill len bytes at buf with the splitmix64 stream of seed, each value
 * stored little-endian (any alignment; the same bytes on every machine,
 * big-endian ones included). */
void settle_fill_random(void *buf, size_t len, uint64_t seed);

/* Set every field of a scale figure (note NULL or "" for none); strings
 * longer than the fields are cut. */
struct settle_figure;
void settle_figure_set(struct settle_figure *f, const char *label,
		       const char *unit, double value, const char *note);

/* Format a byte count with a binary unit ("4 KiB", "128 MiB", "1000 B")
 * into buf; returns buf. */
char *settle_format_size(uint64_t bytes, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* SETTLE_H */
