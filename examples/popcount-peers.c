/*
 * popcount-peers.c - settle's popcount against the best public library,
 * path by path, in one interleaved run. libpopcnt (Kim Walisch,
 * github.com/kimwalisch/libpopcnt) is a single header, not packaged by
 * Debian: put libpopcnt.h in a folder and point the build at it:
 *
 *   settle run examples/popcount-peers.c --build "cc -O3 -march=native -I DIR"
 *
 * Without it, settle's own rows still run (and GMP's mpn_popcount, loaded
 * at run time from libgmp.so.10 where it is installed). Every row counts
 * the same random bytes, so the run checks them against each other.
 *
 * Rows, grouped by path (each group's baseline is libpopcnt's kernel for
 * that path, so each settle row's ratio is settle / libpopcnt):
 *   dispatched  libpopcnt popcnt() | settle_popcount() (in a build for
 *               AVX-512, e.g. -march=native on such a CPU, compiled into
 *               the row once settle has chosen AVX-512: settle_bits.h) |
 *               settle at +16
 *               (the same bits 16 bytes past a 64-byte boundary, as
 *               malloc returns memory, in the same pages) | gmp
 *               mpn_popcount
 *   avx2        libpopcnt without its AVX-512 path (popcnt_avx2() from
 *               1 KiB, popcnt_avx2_medium() from 96 bytes, then scalar
 *               POPCNT, as its popcnt() does) | settle's AVX2 path (in
 *               a build for AVX2 and POPCNT without AVX512VL, e.g.
 *               -march=x86-64-v3, compiled into the row below 2 KiB as
 *               libpopcnt's is: settle_popcount_avx2_inline(); else
 *               called)
 *   avx512vl    the same libpopcnt code when the build allows AVX512VL
 *               (e.g. -march=native on an AVX-512 CPU: the compiler
 *               turns its carry-save adders into VPTERNLOGQ, so it is no
 *               longer AVX2 code) | settle's AVX512VL path, which does
 *               the same on purpose; such a build has no avx2 pair
 *               (build with -march=x86-64-v3 for it), only settle's row
 *   avx512      libpopcnt popcnt_avx512() | settle's AVX-512 kernel (in
 *               a build for AVX-512 both are compiled into their rows,
 *               settle's as settle_popcount_avx512_inline(); else both
 *               are called)
 * A path the CPU or the build lacks is skipped, saying why.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <settle.h>
#include <settle_bits.h>

#if defined(__has_include)
#if __has_include(<libpopcnt.h>)
#include <libpopcnt.h>
#define HAVE_LIBPOPCNT 1
#endif
#endif
#ifndef HAVE_LIBPOPCNT
#define HAVE_LIBPOPCNT 0
#endif

static const uint64_t sizes[] = { 1 << 10, 32 << 10, 1 << 20, 32 << 20,
				  1 << 30 };

/*
 * One buffer: al is 64-byte aligned, off = al + 16 is 16 bytes past a
 * 64-byte boundary, as malloc returns memory. The 16 bytes after al's
 * len are a copy of its first 16, so both windows hold the same bits,
 * and both rows read the same pages.
 */
struct bufs {
	unsigned char *al;
	unsigned char *off;
	size_t len;
	unsigned long (*gmp)(const unsigned long *, long); /* or NULL */
};

static void *setup(const struct settle_params *prm, char *err, size_t n)
{
	struct bufs *b = calloc(1, sizeof(*b));
	size_t alloc = (prm->size_bytes + 16 + 63) / 64 * 64;
	void *gmp;

	/* settle_alloc: placed by the layout (settle run --layouts) */
	if (!b || !(b->al = settle_alloc(prm, alloc, 64))) {
		snprintf(err, n, "out of memory");
		free(b);
		return NULL;
	}
	b->len = prm->size_bytes;
	settle_fill_random(b->al, b->len, 7);
	memcpy(b->al + b->len, b->al, 16);
	b->off = b->al + 16;
	gmp = dlopen("libgmp.so.10", RTLD_NOW);
	if (gmp)
		*(void **)&b->gmp = dlsym(gmp, "__gmpn_popcount");
	return b;
}

static void teardown(void *state)
{
	struct bufs *b = state;

	settle_free(b->al);
	free(b);
}

/*
 * iters passes over buf; the pointer is laundered so that no pass is
 * hoisted, and each count is kept. The buffer and its length are read
 * into locals before the loop, so that every row's loop keeps them in
 * registers: the compiler hoists them out of a loop whose count is
 * inlined (libpopcnt's), but must reload them from memory after every
 * call of another object's function (settle's): with the reload,
 * settle's AVX-512 row took 1.018 and 1.016 of libpopcnt's time at 1 KiB
 * and 32 KiB, without it 1.005 and 1.004 (settle run, 5 processes, 4
 * layouts, Zen 4 guest).
 */
#define RUN(name, buf, count)						\
	static uint64_t name(void *state, const void *arg, uint64_t iters) \
	{								\
		const struct bufs *b = state;				\
		const unsigned char *start = b->buf;			\
		size_t len = b->len;					\
		uint64_t n = 0;						\
		(void)arg;						\
		while (iters--) {					\
			const unsigned char *p = start;			\
			settle_keep(p);					\
			n = count(b, p, len);				\
			settle_keep(n);					\
		}							\
		return n;						\
	}

#define SETTLE(b, p, len) settle_popcount(p, len)
RUN(run_settle, al, SETTLE)
RUN(run_settle_off, off, SETTLE)

/* settle's path for the implementation *arg, taken once per call of
 * run (so each pass is one call through a register); the buffer and
 * length in locals, as in RUN(). */
static uint64_t run_path(void *state, const void *arg, uint64_t iters)
{
	const struct bufs *b = state;
	const enum settle_popcount_impl *which = arg;
	settle_popcount_fn f = settle_popcount_path_fn(*which);
	const unsigned char *al = b->al;
	size_t len = b->len;
	uint64_t n = 0;

	while (iters--) {
		const unsigned char *p = al;

		settle_keep(p);
		n = f(p, len);
		settle_keep(n);
	}
	return n;
}

static const char *no_path(void *state, const void *arg)
{
	enum settle_popcount_impl which =
		*(const enum settle_popcount_impl *)arg;

	(void)state;
	if (settle_popcount_usable(which))
		return NULL;
	switch (which) {
	case SETTLE_POPCOUNT_AVX2:
		return "CPU or OS lacks AVX2";
	case SETTLE_POPCOUNT_AVX512VL:
		return "CPU or OS lacks AVX-512VL";
	default:
		return "CPU or OS lacks AVX-512 VPOPCNTDQ";
	}
}

static const enum settle_popcount_impl avx2 = SETTLE_POPCOUNT_AVX2;
static const enum settle_popcount_impl avx512vl = SETTLE_POPCOUNT_AVX512VL;
static const enum settle_popcount_impl avx512 = SETTLE_POPCOUNT_AVX512;

/* Whole limbs with mpn_popcount, the rest byte by byte. */
static uint64_t gmp_count(const struct bufs *b, const unsigned char *p,
			  size_t len)
{
	size_t limbs = len / sizeof(long);
	uint64_t n = limbs ? b->gmp((const unsigned long *)p, (long)limbs) : 0;

	for (size_t i = limbs * sizeof(long); i < len; i++)
		n += (uint64_t)__builtin_popcount(p[i]);
	return n;
}
RUN(run_gmp, al, gmp_count)

static const char *no_gmp(void *state, const void *arg)
{
	(void)arg;
	const struct bufs *b = state;

	return b && b->gmp ? NULL : "libgmp.so.10 not found";
}

#if HAVE_LIBPOPCNT
/* libpopcnt's AVX2 code as this build compiles it: with AVX512VL allowed
 * it is the counterpart of settle's AVX512VL path. */
#ifdef __AVX512VL__
#define LIB_AVX2_PATH avx512vl
#define LIB_AVX2_NEEDS SETTLE_POPCOUNT_AVX512VL
#define LIB_AVX2_LACKS "AVX-512VL"
#define LIB_AVX2_DESC "libpopcnt without its AVX-512 path (AVX2 code " \
		      "compiled with AVX512VL)"
#else
#define LIB_AVX2_PATH avx2
#define LIB_AVX2_NEEDS SETTLE_POPCOUNT_AVX2
#define LIB_AVX2_LACKS "AVX2"
#define LIB_AVX2_DESC "libpopcnt without its AVX-512 path"
#endif

static const char *no_avx2(void *state, const void *arg)
{
	(void)arg;
	(void)state;
	return settle_popcount_usable(LIB_AVX2_NEEDS) ? NULL :
	       "CPU or OS lacks " LIB_AVX2_LACKS;
}

static const char *no_avx512(void *state, const void *arg)
{
	(void)arg;
	(void)state;
	return settle_popcount_usable(SETTLE_POPCOUNT_AVX512) ? NULL :
	       "CPU or OS lacks AVX-512 VPOPCNTDQ";
}

#define LIB(b, p, len) popcnt(p, len)
RUN(run_lib, al, LIB)

#ifdef LIBPOPCNT_HAVE_AVX2
/* libpopcnt's popcnt() without its AVX-512 branch. */
static uint64_t lib_avx2(const struct bufs *b, const unsigned char *p,
			 size_t len)
{
	uint64_t n = 0, i = 0;

	(void)b;
	if (len >= 96) {
		if (len >= 1024)
			n = popcnt_avx2((const __m256i *)p, len / 32);
		else
			n = popcnt_avx2_medium((const __m256i *)p, len / 32);
		i = len - len % 32;
	}
	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		n += popcnt64(w);
	}
	for (; i < len; i++)
		n += popcnt64(p[i]);
	return n;
}
RUN(run_lib_avx2, al, lib_avx2)
#endif

#ifdef LIBPOPCNT_HAVE_AVX512
#define LIB_AVX512(b, p, len) popcnt_avx512(p, len)
RUN(run_lib_avx512, al, LIB_AVX512)
#endif
#endif /* HAVE_LIBPOPCNT */

#ifdef SETTLE_POPCOUNT_AVX512_INLINE
/* A build for AVX-512 (-march=native on such a CPU): settle's AVX-512
 * kernel compiled into the row, as libpopcnt's popcnt_avx512() is into
 * its own; elsewhere both are called. */
#define SETTLE_AVX512(b, p, len) settle_popcount_avx512_inline(p, len)
RUN(run_settle_avx512, al, SETTLE_AVX512)
#define RUN_AVX512 run_settle_avx512
#define AVX512_DESC "settle's AVX-512 kernel, inline " \
		    "(settle_popcount_avx512_inline())"
#else
#define RUN_AVX512 run_path
#define AVX512_DESC "settle's AVX-512 kernel"
#endif

#if defined(SETTLE_POPCOUNT_AVX2_INLINE) && !defined(__AVX512VL__)
/* A build for AVX2 and POPCNT (not AVX512VL, where the inline code would
 * be the AVX512VL path's): settle's AVX2 path compiled into the row (its
 * count below 2 KiB; a direct call of the kernel from there). */
#define SETTLE_AVX2(b, p, len) settle_popcount_avx2_inline(p, len)
RUN(run_settle_avx2, al, SETTLE_AVX2)
#define RUN_AVX2 run_settle_avx2
#define AVX2_DESC "settle's AVX2 path, inline (settle_popcount_avx2_inline())"
#else
#define RUN_AVX2 run_path
#define AVX2_DESC "settle's AVX2 path"
#endif

#define PATH(p)								\
	static const struct settle_param path_##p[] = {			\
		{ "path", #p, SETTLE_PARAM_STRING, #p },		\
	}
PATH(dispatched);
PATH(avx2);
PATH(avx512vl);
PATH(avx512);
#define ROW(n, fn, p, desc, unav)					\
	{ .name = n, .run = fn, .description = desc,			\
	  .unavailable = unav, .params = path_##p, .nparams = 1 }
/* ROW with a path that is itself a macro (expanded before the paste). */
#define PATH_ROW(n, fn, p, desc, unav) ROW(n, fn, p, desc, unav)

static const struct settle_variant variants[] = {
#if HAVE_LIBPOPCNT
	ROW("libpopcnt", run_lib, dispatched, "libpopcnt popcnt()", NULL),
#endif
	ROW("settle", run_settle, dispatched, "settle_popcount()", NULL),
	ROW("settle+16", run_settle_off, dispatched,
	    "settle_popcount() 16 bytes past a 64-byte boundary", NULL),
	ROW("gmp", run_gmp, dispatched, "GMP mpn_popcount (libgmp.so.10)",
	    no_gmp),
#if HAVE_LIBPOPCNT && defined(LIBPOPCNT_HAVE_AVX2)
	PATH_ROW("libpopcnt", run_lib_avx2, LIB_AVX2_PATH, LIB_AVX2_DESC,
		 no_avx2),
#endif
	{ .name = "settle", .run = RUN_AVX2, .arg = &avx2,
	  .description = AVX2_DESC, .unavailable = no_path,
	  .params = path_avx2, .nparams = 1 },
	{ .name = "settle", .run = run_path, .arg = &avx512vl,
	  .description = "settle's AVX512VL path", .unavailable = no_path,
	  .params = path_avx512vl, .nparams = 1 },
#if HAVE_LIBPOPCNT && defined(LIBPOPCNT_HAVE_AVX512)
	ROW("libpopcnt", run_lib_avx512, avx512, "libpopcnt popcnt_avx512()",
	    no_avx512),
#endif
	{ .name = "settle", .run = RUN_AVX512, .arg = &avx512,
	  .description = AVX512_DESC, .unavailable = no_path,
	  .params = path_avx512, .nparams = 1 },
};

static const struct settle_claim claim = {
	.name = "popcount-peers",
	.title = HAVE_LIBPOPCNT ?
		 "popcount: settle against libpopcnt, path by path" :
		 "popcount: settle (no libpopcnt.h on the include path)",
	.op_name = "buffer",
	.variants = variants,
	.nvariants = sizeof(variants) / sizeof(variants[0]),
	.baseline = HAVE_LIBPOPCNT ? "libpopcnt" : "settle",
	.default_sizes = sizes,
	.ndefault_sizes = sizeof(sizes) / sizeof(sizes[0]),
	.bytes_per_op = SETTLE_BYTES_SIZE,
	.setup = setup,
	.teardown = teardown,
};
SETTLE_CLAIMS(&claim);
