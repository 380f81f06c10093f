/*
 * perf.h - hardware counters of the calling thread (src/timer/perf.c),
 * used by the runner where the kernel and hypervisor provide them.
 */
#ifndef SETTLE_PERF_H
#define SETTLE_PERF_H

#include <stdint.h>

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

#endif
