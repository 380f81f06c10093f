/*
 * test_segprefix.c - the segprefix claim (claims/segprefix.c).
 *
 * Checks that every variant returns iters for its check value at several
 * iteration counts, that only the %gs: variants may be unavailable (with a
 * reason), that the FS base is never changed and the GS base is 0 after
 * every run and after tear-down, and that an %fs: variant run on a thread
 * other than the one that set it up is refused (check value 0) instead of
 * loading through another thread's TLS. No timing is asserted.
 *
 * Segment-prefixed loads exist on x86-64 only: elsewhere (and in the
 * generic build) this prints "skipped: x86-64 only" and checks that the
 * claim is still listed, with every variant unavailable for that reason.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "claims.h"
#include "cpu/cpu.h"

#include "segprefix.h"

/*
 * The conclusion's extra cost comes from the ratio measured in the same
 * rounds, applied to the plain load: here the prefixed load's median
 * (0.9 ns) is below the plain one's (1.0 ns) as noise can make it, while
 * its ratio is 1.25x; the extra cost is +0.25 ns and +0.925 cycles (3.7
 * cycles a plain load), never negative beside a ratio above 1.
 */
static void test_conclude_from_ratio(void **unused)
{
	struct settle_result res[2];
	struct settle_conclude_ctx ctx = { .band = 0.01 };
	struct settle_conclusion out;
	double ns = NAN, cyc = NAN;

	(void)unused;
	memset(res, 0, sizeof(res));
	memset(&out, 0, sizeof(out));
	res[0].label = "plain-dep";
	res[1].label = "fs-dep";
	for (int i = 0; i < 2; i++) {
		res[i].nsamples = 15;
		res[i].sum.median = i ? 0.9 : 1.0;
		res[i].cycles_per_op = i ? 3.33 : 3.7;
	}
	res[1].has_cmp = 1;
	res[1].cmp.ratio = 1.25;
	assert_int_equal(settle_segprefix_conclude(res, 2, &ctx, &out), 1);
	for (size_t i = 0; i < out.nnumbers; i++) {
		if (!strcmp(out.numbers[i].name, "extra_ns"))
			ns = out.numbers[i].value;
		if (!strcmp(out.numbers[i].name, "extra_cycles"))
			cyc = out.numbers[i].value;
	}
	assert_float_equal(ns, 0.25, 1e-12);
	assert_float_equal(cyc, 0.925, 1e-12);
	assert_non_null(strstr(out.sentence, "+0.93 core cycles (+0.250 ns, "
			       "1.250x)"));
}

#if SETTLE_ARCH_X86_64
#include <asm/prctl.h>

static const struct settle_claim *claim = &settle_claim_segprefix;

static const struct settle_variant *variant(const char *name)
{
	for (size_t i = 0; i < claim->nvariants; i++)
		if (strcmp(claim->variants[i].name, name) == 0)
			return &claim->variants[i];
	fail_msg("no variant %s", name);
	return NULL;
}

static const char *reason(const struct settle_variant *v, void *s)
{
	return v->unavailable ? v->unavailable(s, v->arg) : NULL;
}

static uint64_t gs_base(void)
{
	unsigned long v = 1;

	assert_int_equal(syscall(SYS_arch_prctl, ARCH_GET_GS, &v), 0);
	return v;
}

static uint64_t fs_base(void)
{
	unsigned long v = 0;

	assert_int_equal(syscall(SYS_arch_prctl, ARCH_GET_FS, &v), 0);
	return v;
}

static int fixture_setup(void **state)
{
	struct settle_params p = { .cpu = -1 };
	char err[256] = "";

	*state = claim->setup(&p, err, sizeof(err));
	if (!*state)
		fail_msg("setup failed: %s", err);
	return 0;
}

static int fixture_teardown(void **state)
{
	if (*state)
		claim->teardown(*state);
	*state = NULL;
	return 0;
}

/* ------------------------------------------------------------------ */

static void test_claim_shape(void **unused)
{
	static const char *const names[] = {
		"plain-dep", "plain-ind", "fs-dep", "fs-ind",
		"gs0-dep", "gs0-ind", "gs-dep", "gs-ind",
	};

	(void)unused;
	assert_string_equal(claim->name, "segprefix");
	assert_string_equal(claim->baseline, "plain-dep");
	assert_string_equal(claim->op_name, "load");
	assert_true(claim->show_cycles);
	assert_null(claim->default_sizes);
	assert_int_equal(claim->nvariants, 8);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(variant(names[i])->ops_per_iter, 8);
}

static void test_only_gs_may_be_unavailable(void **state)
{
	for (size_t i = 0; i < claim->nvariants; i++) {
		const struct settle_variant *v = &claim->variants[i];
		const char *why = reason(v, *state);

		if (strncmp(v->name, "gs", 2) != 0)
			assert_null(why);
		else if (why)
			assert_true(strlen(why) > 0);
	}
	/* Linux starts user space with GS base 0 and can set it. */
	assert_null(reason(variant("gs0-dep"), *state));
	assert_null(reason(variant("gs-dep"), *state));
}

static void test_every_variant_checks(void **state)
{
	static const uint64_t iters[] = { 0, 1, 2, 3, 1000, 100000 };
	uint64_t fs = fs_base();

	for (size_t i = 0; i < claim->nvariants; i++) {
		const struct settle_variant *v = &claim->variants[i];

		if (reason(v, *state))
			continue;
		for (size_t k = 0; k < sizeof(iters) / sizeof(iters[0]); k++) {
			assert_int_equal(v->run(*state, v->arg, iters[k]), iters[k]);
			assert_int_equal(gs_base(), 0);
			assert_int_equal(fs_base(), fs);
		}
	}
}

/* Interleaved like the runner: every variant once per round. */
static void test_interleaved(void **state)
{
	for (int round = 0; round < 20; round++)
		for (size_t i = 0; i < claim->nvariants; i++) {
			const struct settle_variant *v =
				&claim->variants[(i + (size_t)round) %
						 claim->nvariants];

			if (!reason(v, *state))
				assert_int_equal(v->run(*state, v->arg, 64), 64);
		}
}

struct on_thread {
	const struct settle_variant *v;
	void *state;
	uint64_t check;
};

static void *run_on_thread(void *p)
{
	struct on_thread *t = p;

	t->check = t->v->run(t->state, t->v->arg, 100);
	return NULL;
}

static uint64_t check_on_thread(const char *name, void *state)
{
	struct on_thread t = { .v = variant(name), .state = state };
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, run_on_thread, &t), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	return t.check;
}

/* Another thread has another FS base and its own, unfilled TLS. */
static void test_fs_refused_on_other_thread(void **state)
{
	assert_int_equal(check_on_thread("fs-dep", *state), 0);
	assert_int_equal(check_on_thread("fs-ind", *state), 0);
	assert_int_equal(check_on_thread("plain-dep", *state), 100);
	assert_int_equal(variant("fs-dep")->run(*state, variant("fs-dep")->arg, 100), 100);
}

static void test_teardown_restores_gs(void **unused)
{
	struct settle_params p = { .cpu = -1 };
	char err[256];
	void *s = claim->setup(&p, err, sizeof(err));

	(void)unused;
	assert_non_null(s);
	if (!reason(variant("gs-dep"), s))
		assert_int_equal(variant("gs-dep")->run(s, variant("gs-dep")->arg, 10), 10);
	claim->teardown(s);
	assert_int_equal(gs_base(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claim_shape),
		cmocka_unit_test_setup_teardown(test_only_gs_may_be_unavailable,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_every_variant_checks,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_interleaved,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_fs_refused_on_other_thread,
						fixture_setup, fixture_teardown),
		cmocka_unit_test(test_teardown_restores_gs),
		cmocka_unit_test(test_conclude_from_ratio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else /* not x86-64 */

static void test_listed_unavailable(void **unused)
{
	const struct settle_claim *c = &settle_claim_segprefix;

	(void)unused;
	assert_ptr_equal(settle_claim_find("segprefix"), c);
	assert_int_equal(c->nvariants, 8);
	assert_string_equal(c->baseline, "plain-dep");
	for (size_t i = 0; i < c->nvariants; i++) {
		assert_non_null(c->variants[i].unavailable);
		assert_string_equal(c->variants[i].unavailable(NULL,
							       c->variants[i].arg),
				    "x86-64 only");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listed_unavailable),
		cmocka_unit_test(test_conclude_from_ratio),
	};

	printf("skipped: x86-64 only (this build is for %s); checking that "
	       "the claim says so\n", SETTLE_ARCH_NAME);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
