/*
 * affinity.c - the CPUs the user allowed settle: its affinity mask when
 * the program started (taskset, cgroups), read once before settle pins
 * itself to one CPU, so that every later choice (--cpu, a partner
 * process's CPU, fresh processes) stays within it.
 */
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "runner/runner.h"

static cpu_set_t allowed;
static int known;

/* At load, before main() and before any pinning. */
__attribute__((constructor)) static void record(void)
{
	known = sched_getaffinity(0, sizeof(allowed), &allowed) == 0;
}

int settle_cpu_allowed(int cpu)
{
	if (cpu < 0)
		return 1;
	if (cpu >= CPU_SETSIZE)
		return 0;
	if (!known)
		record();
	return known && CPU_ISSET(cpu, &allowed);
}

int settle_cpu_partner(int cpu)
{
	if (!known)
		record();
	for (int c = 0; known && c < CPU_SETSIZE; c++)
		if (c != cpu && CPU_ISSET(c, &allowed))
			return c;
	return -1;
}
