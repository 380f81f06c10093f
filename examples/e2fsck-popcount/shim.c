/*
 * shim.c - an LD_PRELOAD shim that replaces e2fsprogs' ext2fs_bitcount()
 * with settle_popcount(), to measure what a faster bit count does to a
 * whole e2fsck (examples/e2fsck-popcount/run.sh, make run-macro).
 *
 *   LD_PRELOAD=build/e2fsck-popcount-shim.so e2fsck -fn IMAGE
 *
 * e2fsck calls ext2fs_bitcount() in libext2fs through the PLT, so the
 * dynamic linker binds it to the first definition it finds: this one.
 * The contract stays libext2fs's (lib/ext2fs/bitops.h): the number of
 * set bits in nbytes bytes at addr, as an unsigned int - 32 bits, so a
 * count of 2^32 or more wraps modulo 2^32 exactly as libext2fs's own
 * unsigned int sum does (buffers of 512 MiB and more; e2fsck's are 4 KiB
 * bitmaps). settle_popcount() counts in 64 bits; the cast reduces it
 * modulo 2^32 (C11 6.3.1.3), which is the same value.
 *
 * SETTLE_SHIM_REPORT=FILE: at exit, append one line to FILE saying how
 * often the shim was called, over how many bytes, with which popcount
 * kernel - the check that the shim is really the function e2fsck calls.
 *
 * Built with -DSETTLE_SHIM_PLACEBO it is the control of the experiment:
 * the same interposition, the same counting, but the count is done by
 * libext2fs's own ext2fs_bitcount (the next definition, dlsym RTLD_NEXT),
 * so that e2fsck with the placebo against e2fsck with the shim differ in
 * the bit count alone, not in what LD_PRELOAD itself changes (another
 * library loaded, symbols bound differently, addresses moved).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "settle_bits.h"

/* libext2fs's declaration (ext2fs/bitops.h). */
unsigned int ext2fs_bitcount(const void *addr, unsigned int nbytes);

static unsigned long long calls, bytes;

#ifdef SETTLE_SHIM_PLACEBO
typedef unsigned int (*bitcount_fn)(const void *, unsigned int);
static bitcount_fn next_bitcount;

#define COUNTED_BY "libext2fs's own ext2fs_bitcount"

static unsigned int count(const void *addr, unsigned int nbytes)
{
	bitcount_fn fn = __atomic_load_n(&next_bitcount, __ATOMIC_RELAXED);

	if (!fn) {
		fn = (bitcount_fn)(uintptr_t)dlsym(RTLD_NEXT, "ext2fs_bitcount");
		if (!fn) {
			fprintf(stderr, "settle placebo shim: no ext2fs_bitcount "
				"after it (is e2fsck linked with libext2fs?)\n");
			abort();
		}
		__atomic_store_n(&next_bitcount, fn, __ATOMIC_RELAXED);
	}
	return fn(addr, nbytes);
}
#else
#define COUNTED_BY "settle_popcount"

static unsigned int count(const void *addr, unsigned int nbytes)
{
	return (unsigned int)settle_popcount(addr, nbytes);
}
#endif

unsigned int ext2fs_bitcount(const void *addr, unsigned int nbytes)
{
	__atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&bytes, nbytes, __ATOMIC_RELAXED);
	return count(addr, nbytes);
}

__attribute__((destructor)) static void shim_report(void)
{
	const char *path = getenv("SETTLE_SHIM_REPORT");
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "settle shim: ext2fs_bitcount called %llu times over %llu "
		"bytes, counted by " COUNTED_BY " (%s)\n", calls, bytes,
#ifdef SETTLE_SHIM_PLACEBO
		calls ? "placebo" : "not used");
#else
		calls ? settle_popcount_impl_name(settle_popcount_active()) :
		"not used");
#endif
	fclose(f);
}
