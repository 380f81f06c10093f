/*
 * env.h - the run's environment (src/env/): the noise while it runs and
 * the build of settle itself. (The machine's description is public:
 * settle_machine_describe() in settle.h.)
 */
#ifndef SETTLE_ENV_H
#define SETTLE_ENV_H

#include "settle.h"

/* What the noise measurement counts from: /proc/stat jiffies (all CPUs),
 * this process's context switches and CPU time (its own and its waited-for
 * children's, in s) and the monotonic clock (s) at the start of a run. */
struct settle_noise_start {
	unsigned long long steal, busy, total;
	long nvcsw, nivcsw;
	double cpu_s, wall_s;
};

/* Record the state at the start of a run into n and s. */
void settle_noise_begin(struct settle_noise *n, struct settle_noise_start *s);

/* Compute the deltas at the end (core_ghz_after set by the caller first). */
void settle_noise_end(struct settle_noise *n,
		      const struct settle_noise_start *s);

/*
 * The CPUs kept busy by other work during wall_s seconds, on average: busy
 * time of all CPUs (busy_s, CPU seconds) less the run's own (own_s, CPU
 * seconds), over wall_s; never below 0 (the two clocks tick at different
 * grains: /proc/stat in 1/CLK_TCK s, getrusage in microseconds). Returns
 * -1 (unknown) when wall_s is not above 0 or busy_s is below 0.
 */
double settle_noise_other_cpus(double busy_s, double own_s, double wall_s);

/*
 * Parts of settle_machine_describe() (src/env/machine.c), for tests:
 *   - settle_caches_from_sysconf(): the cache sizes glibc's sysconf gives
 *     (from cpuid), appended to m->caches, and m->caches_source set to
 *     "sysconf" when it gave any; what the description uses when sysfs
 *     has no cache entries;
 *   - settle_bswap_sizes_describe(): the sentence on which loop the
 *     byte-swap implementation named impl ("avx512", "avx2", "ssse3",
 *     "neon"; any other: "") copies which sizes with, under the copy rule
 *     and non-temporal threshold in force, into buf (len bytes, 320 hold
 *     the longest).
 */
void settle_caches_from_sysconf(struct settle_machine *m);
void settle_bswap_sizes_describe(const char *impl, char *buf, size_t len);

/* Compiler and flags settle itself was built with (static strings). */
const char *settle_build_compiler(void);
const char *settle_build_flags(void);
/* Flags of the objects built with the vectoriser off (builtin-generic). */
const char *settle_build_novec_flags(void);

#endif
