/*
 * perf.c - core cycles and instructions from the kernel's performance
 * counters (perf_event_open(2)), where the kernel and hypervisor expose
 * them. Many VMs do not ("perf stat -e cycles" says not supported): then
 * settle_counters_open() fails and cycles are estimated from the core
 * clock instead (settle_estimate_core_ghz()).
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "settle.h"
#include "timer/perf.h"

static int open_counter(uint64_t config, int group, int exclude_kernel)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.disabled = group < 0;
	a.exclude_hv = 1;
	a.exclude_kernel = exclude_kernel;
	a.read_format = PERF_FORMAT_GROUP;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

int settle_counters_open(struct settle_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->leader = c->instr = -1;
	for (int ek = 0; ek <= 1 && c->leader < 0; ek++) {
		c->leader = open_counter(PERF_COUNT_HW_CPU_CYCLES, -1, ek);
		c->user_only = ek;
	}
	if (c->leader < 0)
		return -1;
	c->instr = open_counter(PERF_COUNT_HW_INSTRUCTIONS, c->leader,
				c->user_only);
	if (c->instr < 0 ||
	    ioctl(c->leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) < 0) {
		settle_counters_close(c);
		return -1;
	}
	c->ok = 1;
	return 0;
}

int settle_counters_read(const struct settle_counters *c, uint64_t *cycles,
			 uint64_t *instructions)
{
	uint64_t buf[3]; /* nr, cycles, instructions */

	if (!c->ok || read(c->leader, buf, sizeof(buf)) != sizeof(buf) ||
	    buf[0] != 2)
		return -1;
	*cycles = buf[1];
	*instructions = buf[2];
	return 0;
}

void settle_counters_close(struct settle_counters *c)
{
	if (c->instr >= 0)
		close(c->instr);
	if (c->leader >= 0)
		close(c->leader);
	c->leader = c->instr = -1;
	c->ok = 0;
}
