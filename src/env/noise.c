/*
 * noise.c - what else was happening while samples were taken: other load
 * (/proc/loadavg), time stolen by the hypervisor (/proc/stat), context
 * switches (getrusage), migrations (sched_getcpu per sample, counted by
 * the runner), the frequency-scaling governor (sysfs cpufreq; "unknown"
 * where it is not exposed, never a guess), and the core clock before and
 * after, so that drift shows.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "env/env.h"

/* Steal and total jiffies of all CPUs (proc(5), /proc/stat "cpu" line). */
static void read_stat(unsigned long long *steal, unsigned long long *total)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	*steal = *total = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9]) >= 8) {
		for (int i = 0; i < 8; i++) /* guest time is in user already */
			*total += v[i];
		*steal = v[7];
	}
	fclose(f);
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
	struct rusage ru;
	FILE *f = fopen("/proc/loadavg", "r");

	memset(n, 0, sizeof(*n));
	n->known = 1;
	if (f) {
		if (fscanf(f, "%lf", &n->loadavg) != 1)
			n->loadavg = 0;
		fclose(f);
	}
	read_stat(&s->steal, &s->total);
	getrusage(RUSAGE_SELF, &ru);
	s->nvcsw = ru.ru_nvcsw;
	s->nivcsw = ru.ru_nivcsw;
	read_governor(n->governor, sizeof(n->governor));
}

void settle_noise_end(struct settle_noise *n,
		      const struct settle_noise_start *s)
{
	unsigned long long steal, total;
	struct rusage ru;

	read_stat(&steal, &total);
	n->steal_pct = total > s->total ?
		100.0 * (double)(steal - s->steal) / (double)(total - s->total) : 0;
	getrusage(RUSAGE_SELF, &ru);
	n->nvcsw = ru.ru_nvcsw - s->nvcsw;
	n->nivcsw = ru.ru_nivcsw - s->nivcsw;
	n->drift_pct = n->core_ghz_before > 0 && n->core_ghz_after > 0 ?
		100 * (n->core_ghz_after / n->core_ghz_before - 1) : 0;
}
