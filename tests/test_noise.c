/*
 * test_noise.c - the noise of a run (src/env/noise.c): from two readings
 * (made up here), the seconds, the steal and the CPUs other work kept
 * busy, with the run's own CPU time left out, and unknown where a counter
 * cannot be trusted; then one live case, the run's own CPU time and its
 * waited-for child's left out of real readings. That case burns CPU
 * time, it times nothing: a busy machine can only raise the figure, so
 * its bound gets three tries.
 */
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "settle.h"
#include "stats/rules.h"
#include "env/env.h"

/* Two seconds in which all CPUs were busy for 300 jiffies (100 a second:
 * 3 CPU seconds) and the run used 1 CPU second: other work kept 1 CPU
 * busy; 10 of 400 jiffies stolen. */
static const struct settle_noise_start a0 = { .steal = 0, .busy = 100,
	.total = 1000, .nvcsw = 1, .nivcsw = 2, .cpu_s = 1.0, .wall_s = 10 };
static const struct settle_noise_start b0 = { .steal = 10, .busy = 400,
	.total = 1400, .nvcsw = 4, .nivcsw = 9, .cpu_s = 2.0, .wall_s = 12 };

static void test_between(void **st)
{
	struct settle_noise n = { 0 };
	struct settle_noise_start b = b0;

	(void)st;
	settle_noise_between(&n, &a0, &b, 100);
	assert_true(n.seconds == 2.0);
	assert_true(n.other_cpus == 1.0);
	assert_true(n.steal_pct == 2.5);
	assert_int_equal(n.nvcsw, 3);
	assert_int_equal(n.nivcsw, 7);

	/* the run used more than all CPUs' busy time (the grains): 0 */
	b.cpu_s = 5.0;
	settle_noise_between(&n, &a0, &b, 100);
	assert_true(n.other_cpus == 0.0);

	/* a quarter of a CPU: 0.5 CPU seconds of 250 jiffies */
	b = b0;
	b.busy = 250;
	settle_noise_between(&n, &a0, &b, 100);
	assert_true(n.other_cpus == 0.25);
}

/* Counters that cannot be trusted: /proc/stat unreadable at the start
 * (every jiffy since boot would count) or at the end, a busy or steal
 * count that went down, no tick, no time: unknown, never a number. */
static void test_between_unknown(void **st)
{
	struct settle_noise n;
	struct settle_noise_start a = a0, b = b0;

	(void)st;
	a.steal = a.busy = a.total = 0;
	settle_noise_between(&n, &a, &b, 100);
	assert_true(n.other_cpus < 0);
	assert_true(n.steal_pct < 0);

	b.steal = b.busy = b.total = 0;
	settle_noise_between(&n, &a0, &b, 100);
	assert_true(n.other_cpus < 0);

	b = b0;
	b.busy = 50;
	settle_noise_between(&n, &a0, &b, 100);
	assert_true(n.other_cpus < 0);

	b = b0;
	settle_noise_between(&n, &a0, &b, 0);
	assert_true(n.other_cpus < 0);

	b.wall_s = a0.wall_s;
	settle_noise_between(&n, &a0, &b, 100);
	assert_true(n.other_cpus < 0);
	assert_true(n.seconds == 0);
}

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Burn s seconds of this process's CPU time, however long that takes. */
static void burn(double s)
{
	volatile unsigned long x = 0;
	double end = cpu_s() + s;

	while (cpu_s() < end)
		for (int i = 0; i < 100000; i++)
			x++;
}

/* A child that burns s seconds of CPU time and exits. */
static pid_t burner(double s)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		burn(s);
		_exit(0);
	}
	return pid;
}

/* A window in which this process and a child each burn 0.4 s of CPU
 * time, the child waited for inside it (its time is the run's own); n
 * gets its noise. */
static void window(struct settle_noise *n)
{
	struct settle_noise_start s;
	pid_t pid;

	settle_noise_begin(n, &s);
	pid = burner(0.4);
	burn(0.4);
	waitpid(pid, NULL, 0);
	settle_noise_end(n, &s);
}

/* other_cpus of a window of 0.4 s in which this process sleeps: the
 * machine's other work alone. */
static double idle_window(void)
{
	struct settle_noise n;
	struct settle_noise_start s;
	struct timespec t = { 0, 400000000 };

	settle_noise_begin(&n, &s);
	nanosleep(&t, NULL);
	settle_noise_end(&n, &s);
	return n.other_cpus;
}

/*
 * The run's own CPU time, and its waited-for child's, are not other work:
 * counted, they would add 0.4 or 0.8 CPU seconds to what the machine's
 * other work gives in a window of the same length (its rate measured
 * asleep just before).
 */
static void test_own_time_left_out(void **st)
{
	struct settle_noise n;
	double extra = 0, idle = 0;

	(void)st;
	for (int i = 0; i < 3; i++) {
		idle = idle_window();
		window(&n);
		extra = (n.other_cpus - idle) * n.seconds;
		if (extra < 0.2)
			break;
	}
	print_message("other work: %.2f CPUs in %.2f s with the run's own "
		      "burn, %.2f asleep: %+.2f CPU s\n", n.other_cpus,
		      n.seconds, idle, extra);
	assert_true(n.other_cpus >= 0 && idle >= 0);
	assert_true(extra < 0.2);
}

/* The drift of two core-clock estimates, in %; none from an unknown one,
 * and the noise's the same (settle_noise_drift()). */
static void test_clock_drift(void **st)
{
	struct settle_noise n;

	(void)st;
	assert_true(fabs(settle_clock_drift(3.5, 3.43) + 2.0) < 1e-9);
	assert_true(fabs(settle_clock_drift(3.0, 3.3) - 10.0) < 1e-9);
	assert_true(settle_clock_drift(0, 3.3) == 0);
	assert_true(settle_clock_drift(3.3, -1) == 0);
	memset(&n, 0, sizeof(n));
	n.core_ghz_before = 3.0;
	n.core_ghz_after = 3.3;
	assert_true(settle_noise_drift(&n) == settle_clock_drift(3.0, 3.3));
	assert_true(settle_noise_drifted(settle_clock_drift(3.5, 3.43)));
	assert_false(settle_noise_drifted(settle_clock_drift(3.5, 3.48)));
}

static void spin_s(double s)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((double)(b.tv_sec - a.tv_sec) +
	       1e-9 * (double)(b.tv_nsec - a.tv_nsec) < s);
}

/* The thread's involuntary switches: counted, and growing while another
 * process spins on its CPU (a child pinned beside it), never falling. */
static void test_thread_preemptions(void **st)
{
	int cpu = sched_getcpu();
	cpu_set_t set, old;
	long a, b, c;
	pid_t child;

	(void)st;
	assert_true(cpu >= 0);
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	assert_int_equal(sched_setaffinity(0, sizeof(set), &set), 0);
	a = settle_thread_preemptions();
	assert_true(a >= 0);
	child = fork(); /* inherits the one-CPU mask */
	assert_true(child >= 0);
	if (child == 0) {
		spin_s(0.4);
		_exit(0);
	}
	spin_s(0.2);
	b = settle_thread_preemptions();
	waitpid(child, NULL, 0);
	sched_setaffinity(0, sizeof(old), &old);
	print_message("involuntary switches: %ld while sharing the CPU\n",
		      b - a);
	assert_true(b > a);
	c = settle_thread_preemptions();
	assert_true(c >= b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_between),
		cmocka_unit_test(test_between_unknown),
		cmocka_unit_test(test_own_time_left_out),
		cmocka_unit_test(test_clock_drift),
		cmocka_unit_test(test_thread_preemptions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
