/*
 * env.h - the run's environment (src/env/): the noise while it runs and
 * the build of settle itself. (The machine's description is public:
 * settle_machine_describe() in settle.h.)
 */
#ifndef SETTLE_ENV_H
#define SETTLE_ENV_H

#include "settle.h"

/* One reading of what the noise is counted from: /proc/stat jiffies of
 * all CPUs (total 0: unreadable), this process's context switches, its
 * CPU time and its waited-for children's (s), the monotonic clock (s). */
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

/* Take one reading into r (the parts of settle_noise_begin/end that read
 * the system; never fails: what cannot be read is 0). */
void settle_noise_read(struct settle_noise_start *r);

/* The calling thread's involuntary context switches so far (getrusage()
 * with RUSAGE_THREAD, Linux): a count that grows when another task took
 * its CPU; -1 when it cannot be read. */
long settle_thread_preemptions(void);

/* The calling thread's voluntary context switches so far (getrusage()
 * with RUSAGE_THREAD): a count that grows when it blocked (waited on a
 * pipe, a partner, a sleep); -1 when it cannot be read. */
long settle_thread_blocks(void);

/*
 * From reading a to the later reading b, with tick jiffies a second
 * (sysconf(_SC_CLK_TCK)), into n: seconds (0 when the clock did not
 * advance), steal_pct, other_cpus (the CPUs other work kept busy, on
 * average: busy jiffies over tick less the CPU seconds of the run and its
 * children, over the seconds; never below 0) and the context switches.
 * A counter that cannot be trusted (unreadable at either reading, not
 * advancing, or lower at b) makes steal_pct and other_cpus -1 (unknown);
 * a tick or a duration of 0 makes other_cpus -1. No system call: tests
 * feed it made-up readings.
 */
void settle_noise_between(struct settle_noise *n,
			  const struct settle_noise_start *a,
			  const struct settle_noise_start *b, long tick);

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

/*
 * The sentence on the read limit (src/prim/readlimit.h): the kernel impl
 * (enum settle_read_limit_impl) and which loads it reads which sizes
 * with under the widths in force (x86), into buf (len bytes; 256 hold
 * the longest), e.g. "avx512; 256-bit or 512-bit loads below 64 KiB
 * (whichever read 16 KiB faster when the process started), 512-bit to 2
 * MiB, 256-bit to 64 MiB, 128-bit beyond" (where the tune chooses: the
 * same whatever it chose). An unknown impl: its name "?" and no loads.
 */
void settle_read_limit_describe(int impl, char *buf, size_t len);

/* Compiler and flags settle itself was built with (static strings). */
const char *settle_build_compiler(void);
const char *settle_build_flags(void);
/* Flags of the objects built with the vectoriser off (builtin-generic). */
const char *settle_build_novec_flags(void);

#endif
