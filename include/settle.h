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

/* Version of the result file layout written by settle_write_json(). */
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

/* Parameters of one measurement, passed to a claim's setup callback. */
struct settle_params {
	uint64_t size_bytes; /* buffer size; 0 when the claim takes no size */
	int cpu;             /* CPU the runner is pinned to */
	int quick;           /* non-zero under --quick: keep set-up cheap */
};

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

struct settle_variant {
	const char *name;        /* e.g. "popcnt"; unique with build */
	const char *build;       /* build label ("-O0") or NULL; stored as
				    params.build, and the baseline is looked
				    up among variants of the same build */
	const char *description; /* one line for `settle list` */
	/*
	 * Perform exactly iters repetitions of the operation on state and
	 * return the check value. Each repetition performs ops_per_iter
	 * operations (loads, increments, system calls, buffer passes).
	 * The check value must not depend on which variant ran: the runner
	 * compares it with the baseline's for the same iters.
	 */
	uint64_t (*run)(void *state, uint64_t iters);
	/*
	 * NULL when the variant can always run. Otherwise returns NULL when
	 * it can run on this machine with this state, or a short static
	 * reason ("CPU lacks POPCNT") when it cannot; the variant is then
	 * listed as skipped.
	 */
	const char *(*unavailable)(void *state);
	uint32_t ops_per_iter;   /* operations per repetition; 0 means 1 */
	unsigned flags;          /* SETTLE_REFERENCE */
	/*
	 * Extra parameters (NULL/0: none). Like build, they are part of the
	 * variant's identity: the baseline is looked up among the variants
	 * with the same build and the same parameters.
	 */
	const struct settle_param *params;
	size_t nparams;
	const char *label;       /* NULL, or the table label to use as is */
};

/*
 * The table label of a variant: build, parameter labels, then the name
 * ("-O2 long", "32-bit copy avx2"), written to buf (len bytes); returns buf.
 */
char *settle_variant_label(const struct settle_variant *v, char *buf,
			   size_t len);

/* Non-zero when a and b have the same build and the same parameters, so
 * that one can be the other's baseline. */
int settle_variant_same_group(const struct settle_variant *a,
			      const struct settle_variant *b);

/* Special value of settle_claim.bytes_per_op: one operation covers the
 * whole buffer (params.size_bytes). */
#define SETTLE_BYTES_SIZE UINT64_MAX

struct settle_result;
struct settle_figure;
struct settle_scale_ctx;

struct settle_claim {
	const char *name;        /* e.g. "popcount" */
	const char *description; /* one line */
	const char *title;       /* heading of the claim's table */
	const char *original;    /* NULL, or the original post's figures,
				    printed under the table for comparison */
	const char *op_name;     /* what one operation is: "buffer", "load" */
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
				    buffer size; else bytes per operation */
	uint64_t check_iters;    /* repetitions for the check call; 0 = 1 */
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
	 * result that has no scale row, e.g. not the largest size).
	 */
	size_t (*scale)(const struct settle_result *r,
			const struct settle_scale_ctx *ctx,
			struct settle_figure *out, size_t max);
};

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
};

/*
 * Summarise x[0..n). x is not modified. Negative or non-finite samples are
 * treated as 0. Returns 0, or -1 when the scratch allocation fails (s is
 * then all zero).
 */
int settle_summarize(const double *x, size_t n, struct settle_summary *s);

/*
 * Median of x[0..n) (mean of the two middle values for even n); sorts x in
 * place. Returns 0 for n = 0.
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
};

/* "faster", "slower", "same", "unclear". */
const char *settle_verdict_name(enum settle_verdict v);

/*
 * Paired comparison of interleaved rounds: base[k] and x[k] (ns, k <
 * n) were measured in the same round. The ratio is exp of the
 * Hodges-Lehmann estimate of the log ratios log(x[k] / base[k]), its 95 %
 * interval from the exact Wilcoxon signed-rank distribution (Hollander,
 * Wolfe, Chicken, "Nonparametric Statistical Methods", 3rd ed., 3.2-3.3);
 * distribution-free, and no sample is dropped as an outlier. band is
 * the equivalence band as a fraction (0.01 = +-1 %). Rounds where either
 * time is 0 are left out. Returns 0; -1 with c->why set when every
 * sample of a side is 0 (no time was measured).
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
 * Comparison with the process as the unit of replication: est[0..p) are
 * per-process log ratios (one estimate per fresh process). The ratio is
 * exp of their mean, with a Student t interval on p - 1 degrees of
 * freedom. Same verdict rules; p < 2 gives unclear (too few samples).
 */
int settle_compare_processes(const double *est, size_t p, double band,
			     struct settle_comparison *c);

/*
 * Apply the verdict rules to c->lo, c->hi, c->n, c->level: fewer than 3
 * samples, or an interval that reaches less than 90 % confidence (3 or 4
 * pairs) -> unclear (too few samples); interval entirely below 1 - band -> faster;
 * entirely above 1 + band -> slower; inside [1 - band, 1 + band] -> same;
 * otherwise unclear (too wide when the interval is wider than the band,
 * else straddling its edge).
 */
void settle_decide(struct settle_comparison *c, double band);

/* ------------------------------------------------------------------ */
/* Timer (src/timer).                                                  */

/* The clock: an architecture's counter, or clock_gettime. */
enum settle_clock { SETTLE_CLOCK_TSC, SETTLE_CLOCK_MONOTONIC,
		    SETTLE_CLOCK_CNTVCT };

struct settle_timer_info {
	enum settle_clock clock;
	double tsc_ghz;         /* counter ticks per ns, TSC or CNTVCT_EL0
				   (0 for CLOCK_MONOTONIC_RAW) */
	double overhead_ns;     /* cost of one start/stop pair, min */
	double resolution_ns;   /* smallest non-zero step seen */
	double core_ghz;        /* core clock estimated from an add chain;
				   0 if not estimated */
	const char *why;        /* why this clock was chosen */
};

/*
 * Choose and calibrate the clock: the architecture's counter where it runs
 * at a fixed rate and user space may read it - the TSC on x86-64 when
 * cpuid reports an invariant TSC (leaf 0x80000007 EDX bit 8) and RDTSCP
 * (leaf 0x80000001 EDX bit 27), the virtual counter CNTVCT_EL0 on AArch64
 * (its stated rate CNTFRQ_EL0 is used when the calibration agrees with it
 * within 2 %) - its rate calibrated against CLOCK_MONOTONIC_RAW over
 * calib_ms milliseconds; clock_gettime(CLOCK_MONOTONIC_RAW) otherwise (and
 * on other architectures). Measures overhead and resolution. Idempotent:
 * later calls return the first calibration. Returns the info (never NULL).
 */
const struct settle_timer_info *settle_timer_init(unsigned calib_ms);

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

/* The clock of a result file's name; an unknown name (or NULL) gives
 * SETTLE_CLOCK_MONOTONIC. */
enum settle_clock settle_clock_parse(const char *name);

/* Convert a difference of two timestamps to ns. */
double settle_timer_ns(uint64_t delta);

/*
 * Estimate the core clock in GHz from a dependent chain of register
 * additions (`add reg, reg` on x86-64, `add xd, xd, xm` on AArch64:
 * latency 1 cycle on every core of either; Intel SDM optimisation manual,
 * Agner Fog's instruction tables, the Arm Cortex software optimization
 * guides), timed with the chosen clock. Takes about
 * ms milliseconds. Returns 0 when the measurement failed.
 */
double settle_estimate_core_ghz(unsigned ms);

/* Hardware counters of the calling thread (src/timer/perf.c). */
struct settle_counters {
	int leader, instr; /* perf event fds, -1 when closed */
	int user_only;     /* kernel cycles not counted (not permitted) */
	int ok;
};

/*
 * Open core-cycle and instruction counters for this thread with
 * perf_event_open(2) (PERF_COUNT_HW_CPU_CYCLES, _INSTRUCTIONS), counting
 * kernel mode too where permitted. Returns 0, or -1 when the kernel or
 * hypervisor provides no such counters.
 */
int settle_counters_open(struct settle_counters *c);

/* Current counts (cycles, instructions since open). Returns 0 or -1. */
int settle_counters_read(const struct settle_counters *c, uint64_t *cycles,
			 uint64_t *instructions);

void settle_counters_close(struct settle_counters *c);

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
	long logical_cpus;
	char kernel[160];      /* uname release and version */
	int hypervisor;        /* cpuid leaf 1 ECX bit 31 */
	char hypervisor_vendor[16]; /* leaf 0x40000000 signature */
	char seccomp[32];      /* Seccomp line of /proc/self/status */
	char mitigations[1024];/* /sys/.../vulnerabilities, "name: state;" */
	uint64_t mem_available;/* bytes, /proc/meminfo MemAvailable */
	char popcount_impl[16];/* the dispatched primitives' choice: */
	char bswap_impl[16];   /* settle_popcount_active() and _bswap_ */
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
				      during the run (all CPUs) */
	long nvcsw, nivcsw;        /* voluntary / involuntary context
				      switches of this process during the run */
	long migrations;           /* samples that ran on another CPU than
				      the one pinned to */
	char governor[32];         /* cpufreq governor, or "unknown" */
	double core_ghz_before, core_ghz_after; /* add-chain estimates */
	double drift_pct;          /* after / before - 1, in % */
	unsigned long long steal0, total0; /* /proc/stat at the start */
};

/* Record the state at the start of a run. */
void settle_noise_begin(struct settle_noise *n);

/* Compute the deltas at the end (core_ghz_after set by the caller first). */
void settle_noise_end(struct settle_noise *n);

/* Compiler and flags settle itself was built with (static strings). */
const char *settle_build_compiler(void);
const char *settle_build_flags(void);
/* Flags of the objects built with the vectoriser off (builtin-generic). */
const char *settle_build_novec_flags(void);

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
	FILE *progress;         /* NULL: silent */
};

/* Defaults: 15 samples of >= 10 ms, band 1 %; quick: 5 of >= 2 ms. */
void settle_options_default(struct settle_options *o, int quick);

struct settle_result {
	const struct settle_claim *claim;
	const struct settle_variant *variant;
	uint64_t size_bytes;        /* 0 for a claim without sizes */
	const char *skipped;        /* reason when not run, else NULL */
	uint64_t iters;             /* repetitions per sample */
	uint64_t ops_per_sample;    /* iters * ops_per_iter */
	uint64_t check;             /* check value */
	size_t nsamples;
	double *samples_ns;         /* ns per operation, every sample */
	struct settle_summary sum;  /* of samples_ns */
	double ratio;               /* median / baseline's median (0: none) */
	double bytes_per_ns;        /* 0 when the claim has no bytes */
	double cycles_per_op;       /* core cycles per operation; 0 if unknown */
	const char *cycles_source;  /* "perf_event_open" (counted, mean over
				       the samples) or "add-chain estimate"
				       (median x estimated core clock) */
	double instructions_per_op; /* counted; 0 without counters */
	uint64_t cycles_total, instructions_total, counted_ops;
	int unstable;               /* spread too high to trust: MAD > 5 %
				       of the median, or the best sample
				       > 20 % below it */
	int below_resolution;       /* a sample lasted under 1000x the
				       clock's resolution: no time to report */
	int has_cmp;                /* cmp is valid (not the baseline) */
	struct settle_comparison cmp; /* against the baseline, paired */
	struct settle_figure *figures; /* scale section, nfigures of them */
	size_t nfigures;
};

struct settle_report {
	struct settle_machine machine;
	struct settle_timer_info timer;
	struct settle_options options;
	int cpu;                    /* CPU actually pinned to */
	struct settle_result *results;
	size_t nresults, cap;
	struct settle_noise noise;
	struct settle_counters counters; /* open when ok */
	char compiler[96];          /* build of the measuring program */
	char build_flags[256];
	void *owned;                /* memory of a loaded result file */
	char source[256];           /* the file it was loaded from, or "" */
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
 * times every variant once, starting at variant k mod n.
 * Returns 0; -1 with a message in err when set-up fails, memory runs out,
 * or a variant's check value differs from the baseline's (the message
 * names the variant and both values).
 */
int settle_run_claim(struct settle_report *rep, const struct settle_claim *c,
		     const uint64_t *sizes, size_t nsizes,
		     char *err, size_t errlen);

/*
 * Summarise res[0..n) (the results of one claim at one size), compute
 * throughput, cycles (median x core_ghz) and each result's ratio to its
 * baseline with the paired comparison and verdict (band: equivalence band
 * as a fraction). Used by the runner and when a result file is loaded.
 */
void settle_analyze(struct settle_result *res, size_t n, double core_ghz,
		    double band);

/*
 * Replace the comparisons of res[0..n) (analysed already, samples pooled
 * from nproc processes in equal consecutive chunks, each chunk one
 * process's rounds) by the process-level comparison: one Hodges-Lehmann
 * log-ratio estimate per process, and a Student t interval over them
 * (settle_compare_processes): the process is the unit of replication.
 */
void settle_analyze_processes(struct settle_result *res, size_t n,
			      unsigned nproc, double band);

/*
 * Run exe with child_argv (a `settle run ... --format json --output X`
 * command whose argument file_slot, X, is replaced by a file per process) in nproc
 * fresh processes, one after another, and pool their result files into
 * rep: every sample of every process, and comparisons with the process as
 * the unit of replication. Returns 0; -1 with a message in err when a
 * process fails or its file cannot be read.
 */
int settle_run_processes(const char *exe, char **child_argv, int file_slot,
			 unsigned nproc, double band, struct settle_report *rep,
			 char *err, size_t errlen);

/* Non-zero when this thread may be pinned to cpu (-1: any, always). */
int settle_cpu_allowed(int cpu);

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

/* Index of the baseline of variant v among res[0..n), or -1. */
long settle_find_baseline(const struct settle_result *res, size_t n,
			  const struct settle_variant *v);

/* End a run: the core clock again (drift), noise deltas, counters closed. */
void settle_report_finish(struct settle_report *rep);

/* Free every result of rep (not rep itself). */
void settle_report_free(struct settle_report *rep);

/* ------------------------------------------------------------------ */
/* Output (src/report).                                                */

/* Print rep as terminal tables, one per claim, with scale sections. */
void settle_print_table(FILE *f, const struct settle_report *rep);

/* Print the machine description (settle info). */
void settle_print_machine(FILE *f, const struct settle_report *rep);

/*
 * Write rep as a result file (schema SETTLE_SCHEMA) to path, whole or not
 * at all: written to a temporary file in the same directory, fsync'ed and
 * renamed over path. path "-" writes to stdout. Returns 0, or -1 with a
 * message in err.
 */
int settle_write_json(const struct settle_report *rep, const char *path,
		      char *err, size_t errlen);

/*
 * Output formats (settle run/show --format). Every format prints numbers
 * with '.' as the decimal point whatever the program's locale (the
 * writer switches its thread to the C locale with uselocale()).
 * docs/output-formats.md describes each.
 */
enum settle_format {
	SETTLE_FORMAT_TABLE,       /* "table": settle_print_table() */
	SETTLE_FORMAT_JSON,        /* "json": the result file */
	SETTLE_FORMAT_MD,          /* "md": settle_print_md() */
	SETTLE_FORMAT_TEXT,        /* "text": settle_print_text() */
	SETTLE_FORMAT_CSV,         /* "csv": settle_print_csv() */
	SETTLE_FORMAT_GBENCH_JSON, /* "gbench-json": settle_print_gbench_json() */
};

/* The names --format accepts, for messages: "table, json, md, ...". */
#define SETTLE_FORMAT_NAMES "table, json, md, text, csv or gbench-json"

/* Parse a format name (one of SETTLE_FORMAT_NAMES). Returns 0, or -1 for
 * an unknown or NULL name (*fmt unchanged). */
int settle_format_parse(const char *name, enum settle_format *fmt);

/*
 * GitHub Markdown: the machine on one line (ISA, primitives and
 * mitigations in a <details> block), then per claim a "###" heading, a
 * table (size, variant, median, best, +-MAD, B/ns, cycles, ratio, 95 %
 * interval, verdict; B/ns and cycles where the claim has them), its notes
 * and the scale section as a second table; then the noise. Cell text is
 * escaped (\| and the other Markdown punctuation; control characters
 * become spaces).
 */
void settle_print_md(FILE *f, const struct settle_report *rep);

/*
 * Plain text for a mailing-list post: no line exceeds 72 columns (UTF-8
 * aware; wide characters count two). The machine line first, wrapped; per
 * claim its title, one row per variant (median, +-MAD, ratio, 95 %
 * interval, verdict; B/ns and cycles only where they fit), a line per
 * size, a label too long for its column on a line of its own, notes and
 * scale figures wrapped; then the noise. ASCII except for the names, in
 * which tabs and line ends become spaces, other control characters and
 * invalid UTF-8 '?'.
 */
void settle_print_text(FILE *f, const struct settle_report *rep);

/*
 * CSV (RFC 4180: CRLF line ends; a field with a comma, a double quote,
 * CR or LF is quoted, its quotes doubled). A header row, then one row per
 * result, skipped ones included: claim, variant, label, size_bytes,
 * build, params ("key=value;key=value" of the other parameters), n,
 * median_ns, min_ns, mean_ns, mad_ns, bytes_per_ns, cycles_per_op, ratio,
 * ci_low, ci_high, ci_level, verdict ("baseline" for a baseline), why,
 * reference, unstable, below_resolution, skipped (the reason). Empty
 * where a value does not apply.
 */
void settle_print_csv(FILE *f, const struct settle_report *rep);

/*
 * Google Benchmark's JSON layout (as written by --benchmark_format=json,
 * version 1.7), so that its tools (compare.py) read settle's results:
 * "context" {date, host_name, executable, num_cpus, mhz_per_cpu,
 * cpu_scaling_enabled, caches, library_build_type, settle_*} and
 * "benchmarks": per result, one "iteration" entry per sample (run_type
 * "iteration", repetitions = samples, repetition_index k, iterations =
 * operations in the sample, real_time = cpu_time = the sample in ns per
 * operation, time_unit "ns", label, bytes_per_second where the claim has
 * a throughput), then the aggregates mean, median, stddev and cv as
 * Google Benchmark writes them. The name is
 * claim/variant[/build:B][/key:value...][/size:BYTES]. cpu_time repeats
 * real_time: settle measures elapsed time on a pinned CPU.
 */
void settle_print_gbench_json(FILE *f, const struct settle_report *rep);

/*
 * Write rep in format fmt to path, whole or not at all (a temporary file
 * in the same directory, fsync'ed and renamed over path); path "-"
 * writes to stdout. Returns 0, or -1 with a message in err.
 */
int settle_write_report(const struct settle_report *rep,
			enum settle_format fmt, const char *path, char *err,
			size_t errlen);

/*
 * Load a result file into rep: a settle result file written by
 * settle_write_json(), or a Google Benchmark JSON file (an object with
 * "context" and "benchmarks"). Claims and variants are rebuilt from the
 * file, statistics and verdicts recomputed from the samples with band.
 *
 * A Google Benchmark entry becomes a result of claim = its name up to the
 * first '/', variant = the rest (or the whole name); its repetitions are
 * the samples (real_time in ns per iteration, converted from time_unit);
 * aggregates (run_type "aggregate", or names ending in _mean, _median,
 * _stddev, _cv in files without run_type) and entries with
 * error_occurred are left out. Such claims have no baseline.
 *
 * Returns 0, or -1 with a one-line message
 * in err: unreadable, not JSON or truncated, not a settle result (schema
 * missing or different), or malformed (a required key missing or of the
 * wrong type). Free with settle_report_free().
 */
int settle_load_json(const char *path, double band, struct settle_report *rep,
		     char *err, size_t errlen);

/* Free the memory of a loaded result file (settle_report_free does). */
void settle_arena_free(void *owned);

/*
 * Compare result files: for each claim/variant/params of news[k] that
 * old also has, pool every repetition on each side (counts may differ)
 * and print old and new median, the change in % with its 95 % interval
 * (settle_compare_unpaired) and the verdict, then a geometric-mean row
 * whose interval comes from a bootstrap with a fixed seed. Warns first
 * when the machines or builds differ (CPU model, ISA, kernel, compiler).
 * Returns the number of rows judged slower (with a change of at least
 * fail_pct percent, when fail_pct > 0).
 */
size_t settle_print_compare(FILE *f, const struct settle_report *old,
			    const struct settle_report *const *news,
			    size_t nnew, double fail_pct);

/*
 * Write selftest results as JSON (schema "settle-selftest/1", keys
 * aa_false_positive_rate, aa_same_rate, aa_trials, detect_rate_3pct,
 * detect_rate_2pct, detect_trials, popcnt_latency_cycles (null without
 * POPCNT), imul_latency_cycles, settings), whole or not at all.
 * Returns 0, or -1 with a message in err.
 */
struct settle_selftest;
int settle_write_selftest_json(const struct settle_selftest *st,
			       const struct settle_options *o,
			       const char *path, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* Plots (src/report/plot.c), drawn by gnuplot.                        */

enum settle_plot_kind {
	SETTLE_PLOT_ALL,        /* the sweeps, then every distribution */
	SETTLE_PLOT_THROUGHPUT, /* only the sweeps (error if there is none) */
	SETTLE_PLOT_SAMPLES,    /* only the distributions */
};

/*
 * The picture format settle_plot() writes for path, from its extension
 * (case-insensitive): "svg" for .svg, "png" for .png, NULL otherwise.
 */
const char *settle_plot_format(const char *path);

/*
 * Draw rep (a run, or a result file loaded with settle_load_json) into
 * path, an SVG or PNG picture chosen by its extension:
 *  - for each claim with throughput measured at two or more buffer sizes
 *    (a sweep): throughput in bytes per ns (= GB/s) against the buffer
 *    size on a log2 axis, one line per variant through the medians, bars
 *    over the middle half of the samples (quartiles), and dashed vertical
 *    lines at the machine's L1d, L2 and last-level cache sizes
 *    (rep->machine.caches) labelled L1d, L2, LLC;
 *  - for each claim and size: every sample of each variant (time per
 *    operation) as a box plot with the samples drawn over it.
 * Results below the clock's resolution and skipped variants are left out.
 * gnuplot (the environment variable SETTLE_GNUPLOT names another program
 * or path) runs on a script and data written to a temporary directory
 * under $TMPDIR (default /tmp), removed afterwards; the picture is written
 * whole or not at all (temporary file beside path, fsync, rename).
 * Returns 0, or -1 with a one-line message in err: an extension other
 * than .svg or .png, gnuplot missing (the message gives the apt-get
 * command), nothing to plot, gnuplot failing, or path not writable.
 */
int settle_plot(const struct settle_report *rep, const char *path,
		enum settle_plot_kind kind, char *err, size_t errlen);

/*
 * Check an output path before writing it and resolve it: "-" stays
 * standard output; a symbolic link resolves to the file it names (the link
 * is kept); a directory, device or FIFO is refused; the directory must
 * take a temporary file (it is created and removed). Writes the path to
 * rename onto into resolved (len bytes). Returns 0, or -1 with a one-line
 * message in err.
 */
int settle_output_target(const char *path, char *resolved, size_t len,
			 char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* Parsing helpers (src/util).                                         */

/*
 * Parse a size: a decimal integer with an optional binary suffix
 * K, M, G, T (KiB = 1024 ... TiB = 2^40; "KiB" and "k" also accepted).
 * Returns 0 and stores the byte count, or -1 for empty, negative,
 * fractional, non-numeric, zero or overflowing input.
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
