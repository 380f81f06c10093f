/* cpu.c - generic: no identification words and no features. */
#include "cpu/cpu.h"

void settle_cpuid_read(struct settle_cpuid *id)
{
	id->none = 0;
}

uint64_t settle_cpu_features_of(const struct settle_cpuid *id)
{
	(void)id;
	return 0;
}

const char *settle_cpu_feature_name(enum settle_cpu_feature f)
{
	(void)f;
	return "?";
}
