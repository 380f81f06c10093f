/*
 * test_threads.c - the library's lazily initialised state under
 * concurrent first use.
 *
 * Eight threads wait at a barrier, then make their first calls into the
 * library at the same moment: the dispatched primitives (settle_popcount,
 * settle_bswap16/32/64 and their _active/_usable/_env_refusal queries),
 * the CPU feature cache (settle_cpu_features) and the timer
 * (settle_timer_init). Each thread checks what it got: the counts and
 * swaps are right and every thread saw the same choices.
 *
 * Built as every test program, and a second time with ThreadSanitizer
 * (mk/tsan.mk, part of make test): there the check is that TSan reports
 * no data race (it makes the program exit non-zero when it does).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cpu/cpu.h"
#include "helpers.h"
#include "settle.h"
#include "settle_bits.h"
#include "settle_byteorder.h"

#define NTHREADS 8
#define BUF_BYTES 4096

static pthread_barrier_t start;
static unsigned char data[BUF_BYTES];
static uint64_t want_bits;

struct seen {
	uint64_t features;
	int popcount_active, bswap_active;
	int popcount_usable, bswap_usable;
	const char *popcount_refusal, *bswap_refusal;
	const struct settle_timer_info *timer;
	int counts_ok, swaps_ok;
};

static int swapped(const unsigned char *out, const unsigned char *in,
		   size_t bytes, size_t elem)
{
	for (size_t i = 0; i < bytes; i++)
		if (out[i] != in[i - i % elem + (elem - 1 - i % elem)])
			return 0;
	return 1;
}

static void *first_calls(void *arg)
{
	struct seen *s = arg;
	unsigned char out[256];

	pthread_barrier_wait(&start);
	s->counts_ok = settle_popcount(data, sizeof(data)) == want_bits;
	settle_bswap32(out, data, sizeof(out) / 4);
	s->swaps_ok = swapped(out, data, sizeof(out), 4);
	s->popcount_usable = settle_popcount_usable(SETTLE_POPCOUNT_POPCNT);
	s->bswap_usable = settle_bswap_usable(SETTLE_BSWAP_AVX2);
	settle_bswap16(out, data, sizeof(out) / 2);
	s->swaps_ok &= swapped(out, data, sizeof(out), 2);
	settle_bswap64(out, data, sizeof(out) / 8);
	s->swaps_ok &= swapped(out, data, sizeof(out), 8);
	s->features = settle_cpu_features();
	s->popcount_active = settle_popcount_active();
	s->bswap_active = settle_bswap_active();
	s->popcount_refusal = settle_popcount_env_refusal();
	s->bswap_refusal = settle_bswap_env_refusal();
	s->timer = settle_timer_init(1);
	s->counts_ok &= settle_popcount(data, 1000) == reference(data, 1000);
	return NULL;
}

static void test_first_calls_together(void **unused)
{
	pthread_t t[NTHREADS];
	struct seen s[NTHREADS];

	(void)unused;
	fill_random(data, sizeof(data), 42);
	want_bits = reference(data, sizeof(data));
	memset(s, 0, sizeof(s));
	assert_int_equal(pthread_barrier_init(&start, NULL, NTHREADS), 0);
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, first_calls,
						&s[i]), 0);
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	pthread_barrier_destroy(&start);

	for (int i = 0; i < NTHREADS; i++) {
		assert_true(s[i].counts_ok);
		assert_true(s[i].swaps_ok);
		assert_true(s[i].features == s[0].features);
		assert_int_equal(s[i].popcount_active, s[0].popcount_active);
		assert_int_equal(s[i].bswap_active, s[0].bswap_active);
		assert_int_equal(s[i].popcount_usable, s[0].popcount_usable);
		assert_int_equal(s[i].bswap_usable, s[0].bswap_usable);
		assert_ptr_equal(s[i].popcount_refusal, s[0].popcount_refusal);
		assert_ptr_equal(s[i].bswap_refusal, s[0].bswap_refusal);
		assert_ptr_equal(s[i].timer, s[0].timer);
	}
	assert_int_equal(s[0].popcount_active, settle_popcount_active());
	assert_true(s[0].features == settle_cpu_features());
	assert_true(s[0].timer->resolution_ns > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_calls_together),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
