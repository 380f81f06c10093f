/*
 * runner.h - the runner's services for the settle command (private):
 * choosing variants, checking that sizes fit, the presets, running a
 * measurement in fresh processes.
 */
#ifndef SETTLE_RUNNER_H
#define SETTLE_RUNNER_H

#include "settle.h"

/*
 * The CPUs the user allowed settle: its affinity mask when the program
 * started (read once, before settle pins itself). settle_cpu_allowed():
 * non-zero when cpu is one of them (-1, "any", always is).
 * settle_cpu_partner(): another of them than cpu, the lowest, or -1 when
 * cpu is the only one.
 */
int settle_cpu_allowed(int cpu);
int settle_cpu_partner(int cpu);

/* --rigorous: the settings `settle selftest` checks against its targets:
 * 40 samples of >= 2 ms (10 in each of 4 layouts) in each of 9 fresh
 * processes (docs/layouts.md). */
#define SETTLE_RIGOROUS_SAMPLES 40
#define SETTLE_RIGOROUS_MIN_MS 2
#define SETTLE_RIGOROUS_PROCESSES 9
#define SETTLE_RIGOROUS_LAYOUTS 4

/* Set o's samples, sample length and processes to the --rigorous ones. */
void settle_options_rigorous(struct settle_options *o);

/* The claims of a run after --variant (owned copies; see below). */
struct settle_selection {
	const struct settle_claim **claims;
	size_t nclaims;
	const char **dropped;   /* claims with none of the variants asked */
	size_t ndropped;
	void *owned;
};

/*
 * Keep, in copies of claims[0..n), the variants named in names[0..k) (by
 * name, "we32", or by table label, "-O2 we32") and their baselines; drop
 * the claims that have none of them (listed in out->dropped). k = 0
 * keeps everything. Returns 0; -1 with a message in err when a name is
 * no variant of any claim or memory runs out. Free with
 * settle_selection_free().
 */
int settle_select_variants(const struct settle_claim *const *claims,
			   size_t n, const char *const *names, size_t k,
			   struct settle_selection *out, char *err,
			   size_t errlen);
void settle_selection_free(struct settle_selection *s);

/*
 * Check the sizes a run will measure: sizes[0..nsizes) (0: each claim's
 * defaults, plus its full sizes when full) against avail bytes of memory
 * (0: unknown, not checked), with 10 % kept free and each claim's
 * buffers counted. Returns 0; -1 with a message in err when a size does
 * not fit or sizes were given but no claim takes a size.
 */
int settle_check_sizes(const struct settle_claim *const *claims, size_t n,
		       const uint64_t *sizes, size_t nsizes, int full,
		       uint64_t avail, char *err, size_t errlen);

/*
 * --processes N: run `settle` (this executable, /proc/self/exe) with the
 * arguments argv[0..argc) of a `run` command (argv[0] is "run") in nproc
 * fresh processes, one after another, each writing a result file into a
 * temporary directory (settle_tmpdir()), and pool them into rep: every
 * sample of every process, the process as the unit of replication.
 * o: the run's options (processes, layouts, cpu, band, samples). With
 * layouts > 1, process p measures them from layout p mod layouts on
 * (its --layout-first); process p runs rounds p x r ... of the Williams
 * design (its --round-first; settle_round_order()), r = settle_rounds_per_process(o), so that
 * the processes together go through the design. The children's own
 * --processes, --format, --output, --layout-first and --round-first are
 * replaced. rep's settings name the order SETTLE_ROUND_ORDER followed
 * by SETTLE_ROUND_ORDER_PROCESSES.
 * Returns 0; -1 with a message in err when the CPU asked for is not
 * allowed, a process fails or its file cannot be read; -2 when an
 * interrupt was noted (nothing pooled, the temporary files removed);
 * -3 with a message when no temporary directory can be made (TMPDIR:
 * the environment's fault, like a usage error).
 */
int settle_run_in_processes(int argc, char **argv,
			    const struct settle_options *o,
			    struct settle_report *rep, char *err,
			    size_t errlen);

/*
 * The variant that round k runs j-th, of n (0 <= j < n): a row of a
 * Williams design, so that over n rounds (2n when n is odd) every variant
 * runs in every position and directly after every other variant equally
 * often (src/runner/order.c; E. J. Williams, Australian Journal of
 * Scientific Research A 2 (1949), 149-168), the rows in pairs (rounds 2i
 * and 2i + 1) in which each variant's two positions add up to n - 1.
 * Returns 0 when n < 2 or j >= n. The runner and `settle run --cmd`
 * order their rounds with it.
 */
size_t settle_round_order(size_t n, unsigned long k, size_t j);

/* How the result file's settings name that order; a run in processes
 * adds SETTLE_ROUND_ORDER_PROCESSES. */
#define SETTLE_ROUND_ORDER "interleaved, paired Williams rows of the variants run"
#define SETTLE_ROUND_ORDER_PROCESSES ", continued across processes"

/*
 * The rounds one process runs with options o: its samples per variant
 * and size, rounded up to a whole number in each layout. `settle run
 * --processes` starts process p at round p x this of the design
 * (settle_options.round_first).
 */
unsigned settle_rounds_per_process(const struct settle_options *o);

#endif
