/*
 * ranges_readlimit.c - x86-64: which load width the read-limit kernels
 * use at which buffer size, by CPU family (struct settle_read_limit_widths
 * in src/prim/readlimit.h; docs/primitives.md, "Ranges by CPU family").
 * A file of its own: the kernels call it, and the file that chooses the
 * kernels calls them (and tune_readlimit.c, which sets the timed widths).
 */
#include "prim/readlimit.h"

static const struct settle_read_limit_widths widths_19h =
	SETTLE_READ_LIMIT_WIDTHS_19H;
static const struct settle_read_limit_widths widths_widest =
	SETTLE_READ_LIMIT_WIDTHS_WIDEST;
static const struct settle_read_limit_widths widths_intel =
	SETTLE_READ_LIMIT_WIDTHS_INTEL;
/* NULL until set: a test's widths (settle_read_limit_set_widths()), the
 * timed ones (settle_read_limit_use_timed()), this CPU's table */
static const struct settle_read_limit_widths *forced, *timed, *table;

const struct settle_read_limit_widths *
settle_read_limit_widths_of(const struct settle_cpuid *id)
{
	if (settle_cpu_amd_19h(id))
		return &widths_19h;
	return settle_cpu_intel(id) ? &widths_intel : &widths_widest;
}

const struct settle_read_limit_widths *settle_read_limit_widths(void)
{
	const struct settle_read_limit_widths *w =
		__atomic_load_n(&forced, __ATOMIC_ACQUIRE);

	if (w)
		return w;
	w = __atomic_load_n(&timed, __ATOMIC_ACQUIRE);
	if (w)
		return w;
	w = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
	if (w)
		return w;
	w = settle_read_limit_widths_of(settle_cpuid_this());
	__atomic_store_n(&table, w, __ATOMIC_RELEASE);
	return w;
}

void settle_read_limit_set_widths(const struct settle_read_limit_widths *w)
{
	__atomic_store_n(&forced, w, __ATOMIC_RELEASE);
}

void settle_read_limit_use_timed(const struct settle_read_limit_widths *w)
{
	__atomic_store_n(&timed, w, __ATOMIC_RELEASE);
}

struct settle_read_limit_widths
settle_read_limit_widths_timed(const struct settle_read_limit_widths *base,
			       double ymm_ns, double zmm_ns)
{
	struct settle_read_limit_widths w = *base;

	if (ymm_ns < zmm_ns)
		w.zmm_min = base->tune_below;
	return w;
}
