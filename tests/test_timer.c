/*
 * test_timer.c - the timer's calibrations survive a stall, and say
 * "unknown" rather than a wrong number (src/timer/calib.h).
 *
 * The estimators are pure functions of window timings, so each case feeds
 * made-up windows whose right answer is known:
 *   - core clock: 300 windows of 80 000 adds at 4 GHz (20 us each, with
 *     +-0.4 % jitter), one of them stalled by 10 ms: 4 GHz within 5 %
 *     (it is within 0.5 %); every 6th window stalled, as under a
 *     preemption storm: the same; every window stalled by 10 ms: unknown
 *     (0), whether the stalls are equal (all windows agree, at 0.008 GHz,
 *     below the physical bound) or of varied length (no agreement);
 *   - the physical bounds: windows agreeing at 12 GHz or 0.1 GHz, or at
 *     4 GHz with a TSC of 1 GHz (above 3x): unknown;
 *   - a minority of disturbed windows that agree with each other does not
 *     outvote the undisturbed majority; too few windows: unknown; windows
 *     of 0 or negative ns, NaN or infinite values are ignored;
 *   - TSC: 24 windows of 1 ms at 2.6 GHz, one with a disturbed bracket
 *     (+30 us): 2.6 GHz; half of them disturbed by different amounts:
 *     unknown;
 *   - read cost: 32 windows whose fastest pair took 10 ns, three stalled
 *     windows: 10 ns; all different: unknown;
 *   - SETTLE_CLOCK in forked children: an unknown value is ignored (the
 *     clock is the one chosen automatically) and reported in one line by
 *     settle_clock_env_refusal(); monotonic is used; auto and empty are
 *     as unset.
 * No case measures time: the timings are made up.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"
#include "settle.h"
#include "timer/calib.h"

#define NWIN 300
#define ADDS 80000.0 /* per window: 20 us at 4 GHz */
#define STALL_NS 10e6

/* n windows of ADDS adds at ghz, each with jitter up to +-0.4 %. */
static void chain_windows(struct settle_window *w, size_t n, double ghz,
			  uint64_t seed)
{
	uint64_t s = seed | 1;

	for (size_t i = 0; i < n; i++) {
		double jitter = (double)(xorshift64(&s) % 801) / 1e5 - 0.004;

		w[i].work = ADDS;
		w[i].ns = ADDS / ghz * (1 + jitter);
	}
}

static void assert_near(double got, double want, double rel)
{
	if (!(fabs(got / want - 1) <= rel))
		print_error("got %g, want %g within %g %%\n", got, want,
			    100 * rel);
	assert_true(fabs(got / want - 1) <= rel);
}

static void test_core_one_stall(void **unused)
{
	struct settle_window w[NWIN];

	(void)unused;
	chain_windows(w, NWIN, 4.0, 1);
	w[17].ns += STALL_NS;
	assert_near(settle_core_ghz_of(w, NWIN, 0), 4.0, 0.05);
	assert_near(settle_core_ghz_of(w, NWIN, 0), 4.0, 0.005);
	assert_near(settle_core_ghz_of(w, NWIN, 2.6), 4.0, 0.005);
}

static void test_core_storm(void **unused)
{
	struct settle_window w[NWIN];

	(void)unused;
	chain_windows(w, NWIN, 4.0, 2);
	for (size_t i = 0; i < NWIN; i += 6)
		w[i].ns += STALL_NS;
	assert_near(settle_core_ghz_of(w, NWIN, 0), 4.0, 0.005);
	/* two thirds stalled by 10 ms: a third still agrees */
	chain_windows(w, NWIN, 4.0, 3);
	for (size_t i = 0; i < NWIN; i++)
		if (i % 3)
			w[i].ns += STALL_NS * (1 + (double)i / NWIN);
	assert_near(settle_core_ghz_of(w, NWIN, 0), 4.0, 0.005);
}

static void test_core_all_stalled(void **unused)
{
	struct settle_window w[NWIN];

	(void)unused;
	chain_windows(w, NWIN, 4.0, 4);
	for (size_t i = 0; i < NWIN; i++)
		w[i].ns += STALL_NS;
	assert_true(settle_core_ghz_of(w, NWIN, 0) == 0);
	chain_windows(w, NWIN, 4.0, 5);
	for (size_t i = 0; i < NWIN; i++)
		w[i].ns += STALL_NS * (1 + (double)i / 10);
	assert_true(settle_core_ghz_of(w, NWIN, 0) == 0);
	/* short stalls of varied length: no third of the windows agree */
	chain_windows(w, NWIN, 4.0, 6);
	for (size_t i = 0; i < NWIN; i++)
		w[i].ns *= 1.03 + 0.01 * (double)i;
	assert_true(settle_core_ghz_of(w, NWIN, 0) == 0);
}

static void test_core_bounds(void **unused)
{
	struct settle_window w[NWIN];

	(void)unused;
	chain_windows(w, NWIN, 12.0, 7);
	assert_true(settle_core_ghz_of(w, NWIN, 0) == 0);
	chain_windows(w, NWIN, 0.1, 8);
	assert_true(settle_core_ghz_of(w, NWIN, 0) == 0);
	chain_windows(w, NWIN, 9.5, 9);
	assert_near(settle_core_ghz_of(w, NWIN, 0), 9.5, 0.005);
	chain_windows(w, NWIN, 0.25, 10);
	assert_near(settle_core_ghz_of(w, NWIN, 0), 0.25, 0.005);
	chain_windows(w, NWIN, 4.0, 11);
	assert_true(settle_core_ghz_of(w, NWIN, 1.0) == 0); /* > 3x TSC */
	assert_near(settle_core_ghz_of(w, NWIN, 1.5), 4.0, 0.005);
}

static void test_core_minority_and_junk(void **unused)
{
	struct settle_window w[NWIN];

	(void)unused;
	/* 120 windows slowed alike (to 2 GHz) do not outvote 180 at 4 */
	chain_windows(w, NWIN, 4.0, 12);
	for (size_t i = 0; i < 120; i++)
		w[i].ns *= 2;
	assert_near(settle_core_ghz_of(w, NWIN, 0), 4.0, 0.005);
	/* nonsense windows are ignored */
	chain_windows(w, NWIN, 4.0, 13);
	w[0].ns = 0;
	w[1].ns = -5;
	w[2].ns = NAN;
	w[3].work = INFINITY;
	w[4].work = 0;
	assert_near(settle_core_ghz_of(w, NWIN, 0), 4.0, 0.005);
	/* too few windows to agree: unknown */
	assert_true(settle_core_ghz_of(w + 10, SETTLE_CORE_MIN_WINDOWS - 1,
				       0) == 0);
	assert_true(settle_core_ghz_of(w, 0, 0) == 0);
	assert_true(settle_core_ghz_of(NULL, 0, 0) == 0);
}

static void test_tsc(void **unused)
{
	struct settle_window w[24];

	(void)unused;
	for (size_t i = 0; i < 24; i++) {
		w[i].ns = 1e6 + (double)(i % 5) * 20; /* brackets +-50 ns */
		w[i].work = 2.6 * 1e6;
	}
	w[5].ns += 30000; /* a bracket widened by a stall */
	assert_near(settle_tsc_ghz_of(w, 24), 2.6, 0.001);
	for (size_t i = 0; i < 24; i += 2)
		w[i].ns += 10000 * (double)(i + 1);
	w[1].ns += 3e4; /* now fewer than half agree */
	assert_true(settle_tsc_ghz_of(w, 24) == 0);
	for (size_t i = 0; i < 24; i++) {
		w[i].ns = 1e6;
		w[i].work = 20 * 1e6; /* 20 GHz: not a counter */
	}
	assert_true(settle_tsc_ghz_of(w, 24) == 0);
}

static void test_read_cost(void **unused)
{
	struct settle_window w[32];

	(void)unused;
	for (size_t i = 0; i < 32; i++) {
		w[i].work = 1;
		w[i].ns = i % 2 ? 10.0 : 10.4;
	}
	w[3].ns = 10e6;
	w[9].ns = 5000;
	w[20].ns = 200;
	assert_near(settle_read_ns_of(w, 32), 10.0, 0.05);
	for (size_t i = 0; i < 32; i++)
		w[i].ns = 10 * pow(1.2, (double)i);
	assert_true(settle_read_ns_of(w, 32) == 0);
}

/* ---- SETTLE_CLOCK, in forked children ----------------------------------- */

/* Exit status of a child that sets SETTLE_CLOCK to value (NULL: unset),
 * initialises the timer and prints "<clock> <refusal or ->". */
static int clock_child(const char *value, char *out, size_t len)
{
	int fd[2], st;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const struct settle_timer_info *t;
		const char *why;

		close(fd[0]);
		dup2(fd[1], 1);
		if (value)
			setenv("SETTLE_CLOCK", value, 1);
		else
			unsetenv("SETTLE_CLOCK");
		t = settle_timer_init(2);
		why = settle_clock_env_refusal();
		printf("%s %s", t->clock == SETTLE_CLOCK_TSC ? "tsc" :
		       "monotonic", why ? why : "-");
		fflush(stdout);
		_exit(t->resolution_ns > 0 ? 0 : 3);
	}
	close(fd[1]);
	n = read(fd[0], out, len - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_clock_env(void **unused)
{
	char dflt[256], out[256], want[300];
	const char *clock;

	(void)unused;
	assert_int_equal(clock_child(NULL, dflt, sizeof(dflt)), 0);
	assert_non_null(strstr(dflt, " -"));
	clock = strncmp(dflt, "tsc", 3) == 0 ? "tsc" : "monotonic";
	assert_int_equal(clock_child("", out, sizeof(out)), 0);
	assert_string_equal(out, dflt);
	assert_int_equal(clock_child("auto", out, sizeof(out)), 0);
	assert_string_equal(out, dflt);
	assert_int_equal(clock_child("monotonic", out, sizeof(out)), 0);
	assert_string_equal(out, "monotonic -");
	assert_int_equal(clock_child("tsc", out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s SETTLE_CLOCK=tsc refused: unknown "
		 "clock (monotonic or auto)", clock);
	assert_string_equal(out, want);
	assert_int_equal(clock_child("mono\ntonic", out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s SETTLE_CLOCK=mono?tonic refused: "
		 "unknown clock (monotonic or auto)", clock);
	assert_string_equal(out, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core_one_stall),
		cmocka_unit_test(test_core_storm),
		cmocka_unit_test(test_core_all_stalled),
		cmocka_unit_test(test_core_bounds),
		cmocka_unit_test(test_core_minority_and_junk),
		cmocka_unit_test(test_tsc),
		cmocka_unit_test(test_read_cost),
		cmocka_unit_test(test_clock_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
