/*
 * bswap-inplace-peers.c - what does one operation cost in a loop that
 * loads a buffer and stores it back in place? settle's byte swap in place
 * (settle_bswap32(buf, buf, n)) against the same loop with the widest
 * aligned loads the build allows (AVX-512BW, AVX2, SSSE3 or 64-bit words:
 * build with -march=native) and, between load and store, nothing, an XOR
 * by zero, a 32-bit add, or the byte swap itself.
 *
 *   settle run examples/bswap-inplace-peers.c --build "cc -O3 -march=native"
 *
 * The baseline is load-store, the bswap claim's in-place reference (the
 * kernel's loop without the shuffle). If xor-zero and add are as slow as
 * shuffle, the shuffle is not what costs: any operation between the load
 * and the store does, and no byte swap in place can reach load-store's
 * speed on that CPU. Each loop is inlined into its run, four vectors per
 * step, loaded before they are stored; settle's row is one call per pass.
 * The variants write the buffer and return 0: there is no result to
 * compare (tests/test_bswap.c checks the byte swap itself).
 */
#include <stdlib.h>
#include <string.h>
#include <settle.h>
#include <settle_byteorder.h>
#if defined(__AVX512BW__) || defined(__AVX2__) || defined(__SSSE3__)
#include <immintrin.h>
#endif

#if defined(__AVX512BW__)
#define WIDTH "512-bit"
typedef __m512i vec;
#define LOAD(p) _mm512_load_si512((const void *)(p))
#define STORE(p, v) _mm512_store_si512((void *)(p), v)
#define XOR(a, b) _mm512_xor_si512(a, b)
#define ADD(a, b) _mm512_add_epi32(a, b)
#define SHUF(a, m) _mm512_shuffle_epi8(a, m)
#define ZERO() _mm512_setzero_si512()
#define ONES() _mm512_set1_epi32(1)
#define CONTROL(lane) _mm512_broadcast_i32x4(lane)
#elif defined(__AVX2__)
#define WIDTH "256-bit"
typedef __m256i vec;
#define LOAD(p) _mm256_load_si256((const __m256i *)(p))
#define STORE(p, v) _mm256_store_si256((__m256i *)(p), v)
#define XOR(a, b) _mm256_xor_si256(a, b)
#define ADD(a, b) _mm256_add_epi32(a, b)
#define SHUF(a, m) _mm256_shuffle_epi8(a, m)
#define ZERO() _mm256_setzero_si256()
#define ONES() _mm256_set1_epi32(1)
#define CONTROL(lane) _mm256_broadcastsi128_si256(lane)
#elif defined(__SSSE3__)
#define WIDTH "128-bit"
typedef __m128i vec;
#define LOAD(p) _mm_load_si128((const __m128i *)(p))
#define STORE(p, v) _mm_store_si128((__m128i *)(p), v)
#define XOR(a, b) _mm_xor_si128(a, b)
#define ADD(a, b) _mm_add_epi32(a, b)
#define SHUF(a, m) _mm_shuffle_epi8(a, m)
#define ZERO() _mm_setzero_si128()
#define ONES() _mm_set1_epi32(1)
#define CONTROL(lane) (lane)
#else
#define WIDTH "64-bit"
typedef uint64_t vec;
#define LOAD(p) (*(const uint64_t *)(p))
#define STORE(p, v) (*(uint64_t *)(p) = (v))
#define XOR(a, b) ((a) ^ (b))
#define ADD(a, b) ((a) + (b))
/* Both 32-bit halves swapped: the 64-bit swap, then the halves exchanged
 * (k is unused). */
#define SHUF(a, k) ((void)(k), swap32x2(a))
#define ZERO() 0
#define ONES() 0x0000000100000001ull
#define CONTROL(lane) 0

static inline uint64_t swap32x2(uint64_t v)
{
	v = __builtin_bswap64(v);
	return v >> 32 | v << 32;
}
#endif

/* Hide a value from the compiler: it must keep the loads, the stores and
 * the operation between them (an empty asm costs no instruction). */
#if defined(__AVX512BW__) || defined(__AVX2__) || defined(__SSSE3__)
#define HIDE(v) __asm__("" : "+x"(v))
#else
#define HIDE(v) __asm__("" : "+r"(v))
#endif

static const uint64_t sizes[] = { 4 << 10, 32 << 10, 1 << 20 };

struct buf {
	unsigned char *p; /* 64-byte aligned */
	size_t len;       /* bytes, a multiple of 256 */
};

static void *setup(const struct settle_params *prm, char *err, size_t n)
{
	struct buf *b = malloc(sizeof(*b));

	if (!b || !prm->size_bytes || prm->size_bytes % 256) {
		snprintf(err, n, "size must be a multiple of 256 bytes");
		free(b);
		return NULL;
	}
	b->len = prm->size_bytes;
	/* settle_alloc: placed by the layout (settle run --layouts) */
	b->p = settle_alloc(prm, b->len, 64);
	if (!b->p) {
		snprintf(err, n, "out of memory");
		free(b);
		return NULL;
	}
	settle_fill_random(b->p, b->len, 42);
	return b;
}

static void teardown(void *state)
{
	struct buf *b = state;

	settle_free(b->p);
	free(b);
}

/* The settle row: the dispatched byte swap, in place, one call per pass. */
static uint64_t run_settle(void *state, const void *arg, uint64_t iters)
{
	struct buf *b = state;

	(void)arg;
	while (iters--)
		settle_bswap32(b->p, b->p, b->len / 4);
	return 0;
}

/*
 * pass_OP: four aligned vectors per step loaded, passed through OP(v, k)
 * and stored back where they came from. k is a vector the compiler
 * cannot see (zero for xor-zero, ones for add, the byte-reversing control
 * for shuffle), so it cannot fold the operation away.
 */
#define PASS(name, OP)							\
static inline void name(unsigned char *p, size_t len, vec k)		\
{									\
	for (size_t i = 0; i < len; i += 4 * sizeof(vec)) {		\
		vec a = LOAD(p + i), c = LOAD(p + i + sizeof(vec));	\
		vec d = LOAD(p + i + 2 * sizeof(vec));			\
		vec e = LOAD(p + i + 3 * sizeof(vec));			\
									\
		a = OP(a, k);						\
		c = OP(c, k);						\
		d = OP(d, k);						\
		e = OP(e, k);						\
		HIDE(a);						\
		HIDE(c);						\
		HIDE(d);						\
		HIDE(e);						\
		STORE(p + i, a);					\
		STORE(p + i + sizeof(vec), c);				\
		STORE(p + i + 2 * sizeof(vec), d);			\
		STORE(p + i + 3 * sizeof(vec), e);			\
	}								\
}

#define NONE(v, k) ((void)(k), (v))
PASS(pass_none, NONE)
PASS(pass_xor, XOR)
PASS(pass_add, ADD)
PASS(pass_shuf, SHUF)

/* The pointer goes through an empty asm each pass, so the compiler cannot
 * merge passes. */
#define RUN(name, pass, init)						\
static uint64_t name(void *state, const void *arg, uint64_t iters)	\
{									\
	struct buf *b = state;						\
	vec k = init;							\
									\
	(void)arg;							\
	HIDE(k);							\
	while (iters--) {						\
		unsigned char *p = b->p;				\
									\
		__asm__ __volatile__("" : "+r"(p));			\
		pass(p, b->len, k);					\
	}								\
	return 0;							\
}

/* VPSHUFB control: the four bytes of each 32-bit element reversed. */
#define SWAP32 CONTROL(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, \
				     11, 10, 9, 8, 15, 14, 13, 12))
RUN(run_none, pass_none, ZERO())
RUN(run_xor, pass_xor, ZERO())
RUN(run_add, pass_add, ONES())
RUN(run_shuf, pass_shuf, SWAP32)

static const struct settle_variant variants[] = {
	{ .name = "load-store", .run = run_none,
	  .description = WIDTH " aligned loads stored back, four per step" },
	{ .name = "xor-zero", .run = run_xor,
	  .description = "load-store with an XOR by zero between" },
	{ .name = "add", .run = run_add,
	  .description = "load-store with a 32-bit add between" },
	{ .name = "shuffle", .run = run_shuf,
	  .description = "load-store with a byte shuffle between: "
			 "a 32-bit byte swap" },
	{ .name = "settle", .run = run_settle,
	  .description = "settle_bswap32(buf, buf, n), dispatched" },
};

static const struct settle_claim claim = {
	.name = "bswap-inplace-peers",
	.title = "in place: what one operation between load and store costs",
	.op_name = "pass",
	.variants = variants,
	.nvariants = sizeof(variants) / sizeof(variants[0]),
	.baseline = "load-store",
	.default_sizes = sizes,
	.ndefault_sizes = sizeof(sizes) / sizeof(sizes[0]),
	.bytes_per_op = SETTLE_BYTES_SIZE,
	.setup = setup,
	.teardown = teardown,
};

SETTLE_CLAIMS(&claim);
