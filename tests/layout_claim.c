/*
 * layout_claim.c - a claim whose cost is set by the layout it runs in,
 * for tests/test_layouts.sh: "moved" repeats a dependent add chain
 * 100 x (0.9, 1.0, 1.1, 1.0)[(layout + LAYOUT_TEST_SHIFT) mod 4] times
 * per operation, a known +-10 % layout effect; "steady" 100 times in
 * every layout. LAYOUT_TEST_SHIFT (environment, default 0) stands for
 * code that moved between two builds: the code is the same in both runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <settle.h>

struct state {
	unsigned moved_adds; /* per operation */
	uint64_t *box;       /* settle_alloc'ed, as a claim's data is */
};

/* -DLAYOUT_TEST_COLD: error paths, cold: gcc -O2 puts them in
 * .text.unlikely, not aligned to 16 bytes whatever -falign-functions
 * says (test_layouts.sh: not checked there) */
#ifdef LAYOUT_TEST_COLD
#define COLD __attribute__((cold, noinline))
#else
#define COLD __attribute__((noinline))
#endif

COLD static void *no_memory(char *err,
							size_t len)
{
	snprintf(err, len, "out of memory");
	return NULL;
}

COLD static void *no_box(void *s, char *err,
						     size_t len)
{
	free(s);
	return no_memory(err, len);
}

static void *setup(const struct settle_params *p, char *err, size_t len)
{
	static const unsigned adds[4] = { 90, 100, 110, 100 };
	const char *e = getenv("LAYOUT_TEST_SHIFT");
	struct state *s = malloc(sizeof(*s));

	if (!s)
		return no_memory(err, len);
	if (!(s->box = settle_alloc(p, 64, 64)))
		return no_box(s, err, len);
	s->moved_adds = adds[(p->layout + (e ? atoi(e) : 0)) % 4];
	return s;
}

static void teardown(void *state)
{
	struct state *s = state;

	if (s)
		settle_free(s->box);
	free(s);
}

/* n dependent adds. On x86-64 the loop is aligned to its own cache line,
 * so that where the layout puts the code does not change its speed: the
 * only layout effect is the one set above. */
static uint64_t chain(uint64_t n)
{
	uint64_t x = 0;

#if defined(__x86_64__)
	if (n)
		__asm__ __volatile__("jmp 2f\n\t.p2align 6\n2:\n\t"
				     "add %[n], %[x]\n\tdec %[n]\n\tjnz 2b"
				     : [x] "+r"(x), [n] "+r"(n) :: "cc");
#else
	for (uint64_t i = 0; i < n; i++) {
		x += i;
		settle_keep(x);
	}
#endif
	return x;
}

/* -DLAYOUT_TEST_HOT: the variants in .text.hot, which the linker puts
 * before every .text (test_layouts.sh: they move with the layouts too) */
#ifdef LAYOUT_TEST_HOT
#define HOT __attribute__((hot))
#else
#define HOT
#endif

HOT static uint64_t steady(void *state, const void *arg, uint64_t iters)
{
	(void)state, (void)arg;
	chain(iters * 100);
	return iters;
}

HOT static uint64_t moved(void *state, const void *arg, uint64_t iters)
{
	const struct state *s = state;

	(void)arg;
	chain(iters * s->moved_adds);
	return iters;
}

static const struct settle_variant variants[] = {
	{ .name = "steady", .run = steady, .description = "100 adds" },
	{ .name = "moved", .run = moved, .description = "90-110 adds" },
};
static const struct settle_claim claim = {
	.name = "layout-test", .op_name = "op", .variants = variants,
	.nvariants = 2, .setup = setup, .teardown = teardown,
};
SETTLE_CLAIMS(&claim);
