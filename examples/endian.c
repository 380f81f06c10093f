/* endian.c - the 2009 loops: a value incremented natively or stored
 * wrong-endian (swapped in and out on every increment). */
#include <settle.h>

#ifdef __OPTIMIZE__
#define KEEP(x) settle_keep(x) /* every increment really happens */
#else
#define KEEP(x) ((void)0)      /* -O0: the loop exactly as posted */
#endif
#define LOOP(fn, type, step, answer)					\
	static uint64_t fn(void *state, const void *arg, uint64_t iters) \
	{								\
		type x = 0;						\
		(void)state, (void)arg;					\
		for (uint64_t i = 0; i < iters; i++) {			\
			x = step;					\
			KEEP(x);					\
		}							\
		return answer;						\
	}
LOOP(run_long, unsigned long, x + 1, x)
LOOP(run_we32, uint32_t, __builtin_bswap32(__builtin_bswap32(x) + 1),
     __builtin_bswap32(x))
LOOP(run_u64, uint64_t, x + 1, x)
LOOP(run_we64, uint64_t, __builtin_bswap64(__builtin_bswap64(x) + 1),
     __builtin_bswap64(x))

static const struct settle_variant variants[] = {
	{ .name = "long", .run = run_long, .description = "native long" },
	{ .name = "we32", .run = run_we32, .description = "u32, wrong-endian" },
	{ .name = "u64", .run = run_u64, .description = "native u64" },
	{ .name = "we64", .run = run_we64, .description = "u64, wrong-endian" },
};
static const struct settle_claim endian = {
	.name = "endian", .title = "endian: the 2009 increment loops",
	.op_name = "increment", .variants = variants, .nvariants = 4,
	.baseline = "long", .check_iters = 1000, .show_cycles = 1,
};
SETTLE_CLAIMS(&endian);
