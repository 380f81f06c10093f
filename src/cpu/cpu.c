/* cpu.c - this CPU's identification words and features, read once; see
 * cpu.h. */
#include "cpu/cpu.h"

static struct settle_cpuid this_id;
static uint64_t this_features;
static int done;

static void read_once(void)
{
	struct settle_cpuid id;

	if (__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		return;
	settle_cpuid_read(&id);
	this_id = id;
	this_features = settle_cpu_features_of(&id);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}

const struct settle_cpuid *settle_cpuid_this(void)
{
	read_once();
	return &this_id;
}

uint64_t settle_cpu_features(void)
{
	read_once();
	return this_features;
}
