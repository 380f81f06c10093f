/*
 * noise.c - what else was happening while samples were taken: other load
 * (/proc/loadavg at the start; during the run, the CPU time of other
 * work: /proc/stat less getrusage), time stolen by the hypervisor
 * (/proc/stat), context switches (getrusage), migrations (sched_getcpu
 * per sample, counted by the runner), the frequency-scaling governor
 * (sysfs cpufreq; "unknown" where it is not exposed, never a guess), and
 * the core clock before and after, so that drift shows.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "env/env.h"
#include "stats/rules.h"

/* Steal, busy and total jiffies of all CPUs (proc(5), /proc/stat "cpu"
 * line: user nice system idle iowait irq softirq steal; guest time is in
 * user already). Busy is neither idle, waiting for I/O, nor stolen. */
static void read_stat(unsigned long long *steal, unsigned long long *busy,
		      unsigned long long *total)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	*steal = *busy = *total = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9]) >= 8) {
		for (int i = 0; i < 8; i++)
			*total += v[i];
		*steal = v[7];
		*busy = v[0] + v[1] + v[2] + v[5] + v[6];
	}
	fclose(f);
}

/* CPU seconds of this process and of its waited-for children. */
static double own_cpu_s(void)
{
	struct rusage s, c;

	getrusage(RUSAGE_SELF, &s);
	getrusage(RUSAGE_CHILDREN, &c);
	return (double)(s.ru_utime.tv_sec + s.ru_stime.tv_sec +
			c.ru_utime.tv_sec + c.ru_stime.tv_sec) +
	       1e-6 * (double)(s.ru_utime.tv_usec + s.ru_stime.tv_usec +
			       c.ru_utime.tv_usec + c.ru_stime.tv_usec);
}

static double monotonic_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The CPUs other work kept busy: busy time less the run's own, over the
 * wall time; never below 0 (the two clocks tick at different grains). */
static double other_cpus(double busy_s, double own_s, double wall_s)
{
	if (!(wall_s > 0))
		return -1;
	return busy_s > own_s ? (busy_s - own_s) / wall_s : 0;
}

void settle_noise_read(struct settle_noise_start *r)
{
	struct rusage ru;

	read_stat(&r->steal, &r->busy, &r->total);
	getrusage(RUSAGE_SELF, &ru);
	r->nvcsw = ru.ru_nvcsw;
	r->nivcsw = ru.ru_nivcsw;
	r->cpu_s = own_cpu_s();
	r->wall_s = monotonic_s();
}

long settle_thread_preemptions(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nivcsw;
}

long settle_thread_blocks(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

void settle_noise_between(struct settle_noise *n,
			  const struct settle_noise_start *a,
			  const struct settle_noise_start *b, long tick)
{
	int counted = a->total > 0 && b->total > a->total &&
		      b->steal >= a->steal && b->busy >= a->busy;

	n->seconds = b->wall_s > a->wall_s ? b->wall_s - a->wall_s : 0;
	n->steal_pct = counted ? 100.0 * (double)(b->steal - a->steal) /
				 (double)(b->total - a->total) : -1;
	n->other_cpus = counted && tick > 0 ?
		other_cpus((double)(b->busy - a->busy) / (double)tick,
			   b->cpu_s - a->cpu_s, n->seconds) : -1;
	n->nvcsw = b->nvcsw - a->nvcsw;
	n->nivcsw = b->nivcsw - a->nivcsw;
}

static void read_governor(char *buf, size_t len)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
			"r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		snprintf(buf, len, "unknown");
	fclose(f);
}

void settle_noise_begin(struct settle_noise *n, struct settle_noise_start *s)
{
	FILE *f = fopen("/proc/loadavg", "r");

	memset(n, 0, sizeof(*n));
	n->known = 1;
	n->other_cpus = -1;
	if (f) {
		if (fscanf(f, "%lf", &n->loadavg) != 1)
			n->loadavg = 0;
		fclose(f);
	}
	settle_noise_read(s);
	read_governor(n->governor, sizeof(n->governor));
}

void settle_noise_end(struct settle_noise *n,
		      const struct settle_noise_start *s)
{
	struct settle_noise_start now;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	settle_noise_read(&now);
	settle_noise_between(n, s, &now, sysconf(_SC_CLK_TCK));
	/* more than every CPU is the grain of the ticks in a short run */
	if (cpus > 0 && n->other_cpus > (double)cpus)
		n->other_cpus = (double)cpus;
	n->drift_pct = settle_noise_drift(n);
}
