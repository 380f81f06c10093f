/* rules.c - the thresholds of rules.h, applied. */
#include "stats/rules.h"

int settle_summary_unstable(const struct settle_summary *s)
{
	return s->mad > SETTLE_UNSTABLE_MAD * s->median ||
	       s->min < (1 - SETTLE_UNSTABLE_BEST) * s->median;
}

int settle_noise_loaded(double loadavg)
{
	return loadavg > SETTLE_NOISE_LOADAVG;
}

int settle_noise_stolen(double steal_pct)
{
	return steal_pct > SETTLE_NOISE_STEAL_PCT;
}

int settle_noise_drift_known(const struct settle_noise *n)
{
	return n->core_ghz_before > 0 && n->core_ghz_after > 0;
}

int settle_noise_drifted(double drift_pct)
{
	return drift_pct > SETTLE_NOISE_DRIFT_PCT ||
	       drift_pct < -SETTLE_NOISE_DRIFT_PCT;
}
