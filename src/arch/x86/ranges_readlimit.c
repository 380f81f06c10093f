/*
 * ranges_readlimit.c - x86-64: which load width the read-limit kernels
 * use at which buffer size, by CPU family (struct settle_read_limit_widths
 * in src/prim/readlimit.h; docs/primitives.md, "Ranges by CPU family").
 * A file of its own: the kernels call it, and the file that chooses the
 * kernels calls them.
 */
#include "prim/readlimit.h"

static const struct settle_read_limit_widths widths_19h =
	SETTLE_READ_LIMIT_WIDTHS_19H;
static const struct settle_read_limit_widths widths_widest =
	SETTLE_READ_LIMIT_WIDTHS_WIDEST;
static const struct settle_read_limit_widths widths_intel =
	SETTLE_READ_LIMIT_WIDTHS_INTEL;
static const struct settle_read_limit_widths *widths; /* NULL: undecided */

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
		__atomic_load_n(&widths, __ATOMIC_ACQUIRE);

	if (w)
		return w;
	w = settle_read_limit_widths_of(settle_cpuid_this());
	__atomic_store_n(&widths, w, __ATOMIC_RELEASE);
	return w;
}

void settle_read_limit_set_widths(const struct settle_read_limit_widths *w)
{
	__atomic_store_n(&widths, w, __ATOMIC_RELEASE);
}
