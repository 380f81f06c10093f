/* popcount.c - the bits set in a file-system bitmap: a table vs builtin. */
#include <stdlib.h>
#include <string.h>
#include <settle.h>
static const uint8_t nib[] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };
static const uint64_t sizes[] = { 4096, 1 << 20, 128 << 20 }; /* 4 TB: 128M */
static size_t words; /* bitmap size in 64-bit words */
static void *setup(const struct settle_params *p, char *err, size_t len)
{
	void *w = malloc(p->size_bytes);
	words = p->size_bytes / 8;
	if (!w)
		snprintf(err, len, "out of memory");
	return w ? memset(w, 0x5a, p->size_bytes) : NULL; /* 4 bits a byte */
}
#define COUNT(fn, type, n, add)					\
	static uint64_t fn(void *state, const void *arg, uint64_t iters) \
	{								\
		uint64_t set = 0;					\
		(void)arg;						\
		for (const type *w = state; iters--;) {			\
			settle_keep(w); /* every pass is made */	\
			for (size_t j = 0; j < (n); j++)		\
				set += (add);				\
		}							\
		return set;						\
	}
COUNT(table4, uint8_t, words * 8, nib[w[j] & 15] + nib[w[j] >> 4])
COUNT(builtin, uint64_t, words, __builtin_popcountll(w[j]))
static const struct settle_variant variants[] = {
	{ .name = "table4", .run = table4, .description = "nibble table" },
	{ .name = "builtin", .run = builtin, .description = "popcountll" },
};
static const struct settle_claim claim = {
	.name = "popcount", .op_name = "bitmap", .variants = variants,
	.nvariants = 2, .default_sizes = sizes, .ndefault_sizes = 3,
	.bytes_per_op = SETTLE_BYTES_SIZE, .setup = setup, .teardown = free,
};
SETTLE_CLAIMS(&claim);
