/* cpu.c - this CPU's identification words and features, read once; see
 * cpu.h. */
#include <pthread.h>

#include "cpu/cpu.h"

static struct settle_cpuid this_id;
static uint64_t this_features;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Under pthread_once: every thread sees the words after it returns. */
static void read_once(void)
{
	settle_cpuid_read(&this_id);
	this_features = settle_cpu_features_of(&this_id);
}

const struct settle_cpuid *settle_cpuid_this(void)
{
	pthread_once(&once, read_once);
	return &this_id;
}

uint64_t settle_cpu_features(void)
{
	pthread_once(&once, read_once);
	return this_features;
}
