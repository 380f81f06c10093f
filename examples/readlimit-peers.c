/*
 * readlimit-peers.c - is settle's read limit the limit? Plain reads of a
 * 64-byte aligned buffer with the widest aligned loads the build allows
 * (AVX-512, AVX2, SSE2 or 64-bit words: build with -march=native), the
 * 64-bit lanes added into 2, 4 or 8 accumulators, against settle's
 * read-limit kernel (the popcount claim's `read-limit` row).
 *
 *   settle run examples/readlimit-peers.c --build "cc -O3 -march=native"
 *
 * Every variant returns the same sum of the buffer's 64-bit words (over
 * its passes), so the run checks them against each other. The baseline
 * is settle's read-limit: a plain read with a ratio below 1 is faster
 * than it. The
 * plain reads are inlined into the timed loop, a pass per loop step;
 * settle's kernel runs all the loop's passes in one call; plain-call is
 * a plain read behind a function call per pass; plain-128 and plain-256
 * read with narrower loads than the widest.
 */
#include <stdlib.h>
#include <string.h>
#include <settle.h>
#if defined(__AVX512F__) || defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#endif

/* settle's read-limit kernel (src/prim/readlimit.h), which the settle
 * command exports to the claims it loads: the kernel settle_read_limit()
 * dispatches to, taken once. It runs a given number of passes itself,
 * laundering the pointer on every pass, so a timed loop is one call. */
typedef uint64_t (*read_fn)(const void *buf, size_t len, uint64_t passes);
read_fn settle_read_limit_kernel(void);
static read_fn kernel;

#if defined(__AVX512F__)
#define WIDTH "512-bit"
typedef __m512i vec;
#define LOAD(p) _mm512_load_si512((const void *)(p))
#define ADD(a, b) _mm512_add_epi64(a, b)
#define ZERO() _mm512_setzero_si512()
static uint64_t lanes(vec v) { return (uint64_t)_mm512_reduce_add_epi64(v); }
#elif defined(__AVX2__)
#define WIDTH "256-bit"
typedef __m256i vec;
#define LOAD(p) _mm256_load_si256((const __m256i *)(p))
#define ADD(a, b) _mm256_add_epi64(a, b)
#define ZERO() _mm256_setzero_si256()
static uint64_t lanes(vec v)
{
	__m128i h = _mm_add_epi64(_mm256_castsi256_si128(v),
				  _mm256_extracti128_si256(v, 1));

	return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(h,
					   _mm_unpackhi_epi64(h, h)));
}
#elif defined(__SSE2__)
#define WIDTH "128-bit"
typedef __m128i vec;
#define LOAD(p) _mm_load_si128((const __m128i *)(p))
#define ADD(a, b) _mm_add_epi64(a, b)
#define ZERO() _mm_setzero_si128()
static uint64_t lanes(vec v)
{
	return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(v,
					   _mm_unpackhi_epi64(v, v)));
}
#else
#define WIDTH "64-bit"
typedef uint64_t vec;
#define LOAD(p) (*(const uint64_t *)(p))
#define ADD(a, b) ((a) + (b))
#define ZERO() 0
static uint64_t lanes(vec v) { return v; }
#endif

static const uint64_t sizes[] = { 1 << 10, 32 << 10, 1 << 20, 32 << 20,
				  1 << 30 };

struct buf {
	unsigned char *p; /* 64-byte aligned */
	size_t len;       /* bytes, a multiple of 64 */
};

static void *setup(const struct settle_params *prm, char *err, size_t n)
{
	struct buf *b = malloc(sizeof(*b));

	if (prm->size_bytes % 64 || !b) {
		snprintf(err, n, "size must be a multiple of 64 bytes");
		free(b);
		return NULL;
	}
	b->len = prm->size_bytes;
	/* settle_alloc: placed by the layout (settle run --layouts) */
	b->p = settle_alloc(prm, b->len ? b->len : 64, 64);
	if (!b->p) {
		snprintf(err, n, "out of memory");
		free(b);
		return NULL;
	}
	settle_fill_random(b->p, b->len, 42);
	kernel = settle_read_limit_kernel();
	return b;
}

static void teardown(void *state)
{
	struct buf *b = state;

	settle_free(b->p);
	free(b);
}

/*
 * read_K_U: U aligned loads per loop step into K accumulators (round
 * robin), then one vector at a time, then the accumulators added into one
 * vector whose lanes are summed. Each is inlined into its run.
 */
static inline uint64_t read_2_4(const unsigned char *p, size_t len)
{
	vec a0 = ZERO(), a1 = ZERO();
	size_t i = 0;

	for (; len - i >= 4 * sizeof(vec); i += 4 * sizeof(vec)) {
		a0 = ADD(a0, LOAD(p + i));
		a1 = ADD(a1, LOAD(p + i + sizeof(vec)));
		a0 = ADD(a0, LOAD(p + i + 2 * sizeof(vec)));
		a1 = ADD(a1, LOAD(p + i + 3 * sizeof(vec)));
	}
	for (; i < len; i += sizeof(vec))
		a0 = ADD(a0, LOAD(p + i));
	return lanes(ADD(a0, a1));
}

static inline uint64_t read_4_4(const unsigned char *p, size_t len)
{
	vec a0 = ZERO(), a1 = ZERO(), a2 = ZERO(), a3 = ZERO();
	size_t i = 0;

	for (; len - i >= 4 * sizeof(vec); i += 4 * sizeof(vec)) {
		a0 = ADD(a0, LOAD(p + i));
		a1 = ADD(a1, LOAD(p + i + sizeof(vec)));
		a2 = ADD(a2, LOAD(p + i + 2 * sizeof(vec)));
		a3 = ADD(a3, LOAD(p + i + 3 * sizeof(vec)));
	}
	for (; i < len; i += sizeof(vec))
		a0 = ADD(a0, LOAD(p + i));
	return lanes(ADD(ADD(a0, a1), ADD(a2, a3)));
}

static inline uint64_t read_4_8(const unsigned char *p, size_t len)
{
	vec a0 = ZERO(), a1 = ZERO(), a2 = ZERO(), a3 = ZERO();
	size_t i = 0;

	for (; len - i >= 8 * sizeof(vec); i += 8 * sizeof(vec)) {
		a0 = ADD(a0, LOAD(p + i));
		a1 = ADD(a1, LOAD(p + i + sizeof(vec)));
		a2 = ADD(a2, LOAD(p + i + 2 * sizeof(vec)));
		a3 = ADD(a3, LOAD(p + i + 3 * sizeof(vec)));
		a0 = ADD(a0, LOAD(p + i + 4 * sizeof(vec)));
		a1 = ADD(a1, LOAD(p + i + 5 * sizeof(vec)));
		a2 = ADD(a2, LOAD(p + i + 6 * sizeof(vec)));
		a3 = ADD(a3, LOAD(p + i + 7 * sizeof(vec)));
	}
	for (; i < len; i += sizeof(vec))
		a0 = ADD(a0, LOAD(p + i));
	return lanes(ADD(ADD(a0, a1), ADD(a2, a3)));
}

static inline uint64_t read_8_8(const unsigned char *p, size_t len)
{
	vec a0 = ZERO(), a1 = ZERO(), a2 = ZERO(), a3 = ZERO();
	vec a4 = ZERO(), a5 = ZERO(), a6 = ZERO(), a7 = ZERO();
	size_t i = 0;

	for (; len - i >= 8 * sizeof(vec); i += 8 * sizeof(vec)) {
		a0 = ADD(a0, LOAD(p + i));
		a1 = ADD(a1, LOAD(p + i + sizeof(vec)));
		a2 = ADD(a2, LOAD(p + i + 2 * sizeof(vec)));
		a3 = ADD(a3, LOAD(p + i + 3 * sizeof(vec)));
		a4 = ADD(a4, LOAD(p + i + 4 * sizeof(vec)));
		a5 = ADD(a5, LOAD(p + i + 5 * sizeof(vec)));
		a6 = ADD(a6, LOAD(p + i + 6 * sizeof(vec)));
		a7 = ADD(a7, LOAD(p + i + 7 * sizeof(vec)));
	}
	for (; i < len; i += sizeof(vec))
		a0 = ADD(a0, LOAD(p + i));
	a0 = ADD(ADD(a0, a1), ADD(a2, a3));
	return lanes(ADD(a0, ADD(ADD(a4, a5), ADD(a6, a7))));
}

/*
 * Narrower plain reads beside the widest: 128-bit (and, in an AVX-512
 * build, 256-bit) aligned loads, 8 per step into 4 accumulators. On the
 * AMD Zen 4 guest of the README they read buffers that stream from memory
 * faster than 512-bit loads, which is why settle's read limit uses them
 * from 64 MiB on (and 256-bit loads below 64 KiB and from 2 MiB).
 */
#if defined(__SSE2__) && (defined(__AVX2__) || defined(__AVX512F__))
#define L128(o) _mm_load_si128((const __m128i *)(p + i + (o)))
static inline uint64_t read_128(const unsigned char *p, size_t len)
{
	__m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
	size_t i = 0;

	for (; len - i >= 128; i += 128) {
		a = _mm_add_epi64(a, L128(0));
		b = _mm_add_epi64(b, L128(16));
		c = _mm_add_epi64(c, L128(32));
		d = _mm_add_epi64(d, L128(48));
		a = _mm_add_epi64(a, L128(64));
		b = _mm_add_epi64(b, L128(80));
		c = _mm_add_epi64(c, L128(96));
		d = _mm_add_epi64(d, L128(112));
	}
	for (; i < len; i += 16)
		a = _mm_add_epi64(a, L128(0));
	a = _mm_add_epi64(_mm_add_epi64(a, b), _mm_add_epi64(c, d));
	return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(a,
					   _mm_unpackhi_epi64(a, a)));
}
#endif

#if defined(__AVX512F__)
#define L256(o) _mm256_load_si256((const __m256i *)(p + i + (o)))
static inline uint64_t read_256(const unsigned char *p, size_t len)
{
	__m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
	__m128i h;
	size_t i = 0;

	for (; len - i >= 256; i += 256) {
		a = _mm256_add_epi64(a, L256(0));
		b = _mm256_add_epi64(b, L256(32));
		c = _mm256_add_epi64(c, L256(64));
		d = _mm256_add_epi64(d, L256(96));
		a = _mm256_add_epi64(a, L256(128));
		b = _mm256_add_epi64(b, L256(160));
		c = _mm256_add_epi64(c, L256(192));
		d = _mm256_add_epi64(d, L256(224));
	}
	for (; i < len; i += 32)
		a = _mm256_add_epi64(a, L256(0));
	a = _mm256_add_epi64(_mm256_add_epi64(a, b), _mm256_add_epi64(c, d));
	h = _mm_add_epi64(_mm256_castsi256_si128(a),
			  _mm256_extracti128_si256(a, 1));
	return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(h,
					   _mm_unpackhi_epi64(h, h)));
}
#endif

/* The same loop as read_4_8, but called like a library function, once
 * per pass: the cost of a call per pass (settle's kernel pays one call
 * per timed loop). */
__attribute__((noinline)) static uint64_t
read_call(const unsigned char *p, size_t len)
{
	return read_4_8(p, len);
}


/* iters passes; the pointer is laundered so that no pass is hoisted.
 * The buffer and length are read into locals before the loop, so that a
 * row that calls its loop (read_call) does not reload them after every
 * call (docs/writing-a-claim.md, "Barriers"). The passes' sums are
 * added up, as settle's kernel does: the check compares the variants at
 * one pass and at two. */
#define RUN(name, fn)							\
	static uint64_t name(void *state, const void *arg, uint64_t iters) \
	{								\
		const struct buf *b = state;				\
		const unsigned char *start = b->p;			\
		size_t len = b->len;					\
		uint64_t s = 0;						\
		(void)arg;						\
		while (iters--) {					\
			const unsigned char *p = start;			\
			settle_keep(p);					\
			s += fn(p, len);				\
			settle_keep(s);					\
		}							\
		return s;						\
	}
/* settle's kernel: one call for the iters passes (each pass reads the
 * whole buffer again; the kernel returns the sum of the passes' sums,
 * as the others do). */
static uint64_t run_settle(void *state, const void *arg, uint64_t iters)
{
	const struct buf *b = state;

	(void)arg;
	return kernel(b->p, b->len, iters);
}
RUN(run_2_4, read_2_4)
RUN(run_4_4, read_4_4)
RUN(run_4_8, read_4_8)
RUN(run_8_8, read_8_8)
RUN(run_call, read_call)
#if defined(__SSE2__) && (defined(__AVX2__) || defined(__AVX512F__))
RUN(run_128, read_128)
#endif
#if defined(__AVX512F__)
RUN(run_256, read_256)
#endif

static const struct settle_variant variants[] = {
	{ .name = "read-limit", .run = run_settle,
	  .description = "settle's read-limit kernel (settle_read_limit)" },
	{ .name = "plain-2acc", .run = run_2_4,
	  .description = WIDTH " aligned loads, 4 per step, 2 accumulators" },
	{ .name = "plain-4acc", .run = run_4_4,
	  .description = WIDTH " aligned loads, 4 per step, 4 accumulators" },
	{ .name = "plain-4acc-x8", .run = run_4_8,
	  .description = WIDTH " aligned loads, 8 per step, 4 accumulators" },
	{ .name = "plain-8acc", .run = run_8_8,
	  .description = WIDTH " aligned loads, 8 per step, 8 accumulators" },
	{ .name = "plain-call", .run = run_call,
	  .description = "plain-4acc-x8 in a function that is not inlined" },
#if defined(__SSE2__) && (defined(__AVX2__) || defined(__AVX512F__))
	{ .name = "plain-128", .run = run_128,
	  .description = "128-bit aligned loads, 8 per step, 4 accumulators" },
#endif
#if defined(__AVX512F__)
	{ .name = "plain-256", .run = run_256,
	  .description = "256-bit aligned loads, 8 per step, 4 accumulators" },
#endif
};

static const struct settle_claim claim = {
	.name = "readlimit-peers",
	.title = "read-limit: settle's kernel against plain " WIDTH " reads",
	.op_name = "buffer",
	.variants = variants,
	.nvariants = sizeof(variants) / sizeof(variants[0]),
	.baseline = "read-limit",
	.default_sizes = sizes,
	.ndefault_sizes = sizeof(sizes) / sizeof(sizes[0]),
	.bytes_per_op = SETTLE_BYTES_SIZE,
	.setup = setup,
	.teardown = teardown,
};
SETTLE_CLAIMS(&claim);
