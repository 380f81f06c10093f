/*
 * env.h - the run's environment (src/env/): the noise while it runs and
 * the build of settle itself. (The machine's description is public:
 * settle_machine_describe() in settle.h.)
 */
#ifndef SETTLE_ENV_H
#define SETTLE_ENV_H

#include "settle.h"

/* What the noise measurement counts from: /proc/stat jiffies and this
 * process's context switches at the start of a run. */
struct settle_noise_start {
	unsigned long long steal, total;
	long nvcsw, nivcsw;
};

/* Record the state at the start of a run into n and s. */
void settle_noise_begin(struct settle_noise *n, struct settle_noise_start *s);

/* Compute the deltas at the end (core_ghz_after set by the caller first). */
void settle_noise_end(struct settle_noise *n,
		      const struct settle_noise_start *s);

/* Compiler and flags settle itself was built with (static strings). */
const char *settle_build_compiler(void);
const char *settle_build_flags(void);
/* Flags of the objects built with the vectoriser off (builtin-generic). */
const char *settle_build_novec_flags(void);

#endif
