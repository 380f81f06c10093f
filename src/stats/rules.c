/* rules.c - the thresholds of rules.h, applied. */
#include <math.h>
#include <string.h>

#include "stats/rules.h"

int settle_summary_unstable(const struct settle_summary *s)
{
	return s->mad > SETTLE_UNSTABLE_MAD * s->median ||
	       s->min < (1 - SETTLE_UNSTABLE_BEST) * s->median ||
	       s->q3 > (1 + SETTLE_UNSTABLE_SLOW) * s->median;
}

int settle_noise_loaded(double loadavg)
{
	return loadavg > SETTLE_NOISE_LOADAVG;
}

int settle_noise_busy(const struct settle_noise *n)
{
	if (n->other_cpus >= 0)
		return n->other_cpus > SETTLE_NOISE_OTHER_CPUS;
	return settle_noise_loaded(n->loadavg);
}

int settle_noise_stolen(double steal_pct)
{
	return steal_pct > SETTLE_NOISE_STEAL_PCT;
}

int settle_noise_drift_known(const struct settle_noise *n)
{
	return n->core_ghz_before > 0 && n->core_ghz_after > 0;
}

double settle_clock_drift(double before_ghz, double after_ghz)
{
	if (!(before_ghz > 0) || !(after_ghz > 0))
		return 0;
	return 100 * (after_ghz / before_ghz - 1);
}

double settle_noise_drift(const struct settle_noise *n)
{
	return settle_clock_drift(n->core_ghz_before, n->core_ghz_after);
}

int settle_result_cycles_counted(const struct settle_result *r)
{
	return r->cycles_source && !strcmp(r->cycles_source, "perf_event_open");
}

int settle_result_cpu_known(const struct settle_result *r)
{
	if (r->command || !r->samples_cpu_ns || !r->nsamples)
		return 0;
	for (size_t i = 0; i < r->nsamples; i++)
		if (!isfinite(r->samples_cpu_ns[i]) || r->samples_cpu_ns[i] < 0)
			return 0;
	return 1;
}

int settle_noise_drifted(double drift_pct)
{
	return drift_pct > SETTLE_NOISE_DRIFT_PCT ||
	       drift_pct < -SETTLE_NOISE_DRIFT_PCT;
}

int settle_layout_sensitive(double spread, double p, double band)
{
	return p < SETTLE_LAYOUT_ALPHA && spread > 2 * band;
}
