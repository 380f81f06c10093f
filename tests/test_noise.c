/*
 * test_noise.c - the CPUs that other work kept busy during a run
 * (settle_noise_begin/end, src/env/noise.c): the arithmetic, the run's own
 * CPU time and its waited-for children's left out, a child still running
 * at the end counted as other work. The live cases burn CPU time, they do
 * not time anything: a busy machine can only raise the figure, so each
 * upper bound gets three tries, and a lower bound needs none.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "settle.h"
#include "env/env.h"

/* Busy time less the run's own, over the wall time; never negative;
 * unknown without a wall time or a busy time. */
static void test_arithmetic(void **st)
{
	(void)st;
	assert_true(settle_noise_other_cpus(3.0, 1.0, 2.0) == 1.0);
	assert_true(settle_noise_other_cpus(1.5, 1.0, 2.0) == 0.25);
	assert_true(settle_noise_other_cpus(0.98, 1.0, 2.0) == 0.0);
	assert_true(settle_noise_other_cpus(1.0, 0.0, 0.0) < 0);
	assert_true(settle_noise_other_cpus(-1.0, 0.0, 1.0) < 0);
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
 * time, the child waited for inside the window when wait_inside (its time
 * is then the run's own), else after it; n gets its noise. */
static void window(int wait_inside, struct settle_noise *n)
{
	struct settle_noise_start s;
	pid_t pid;

	settle_noise_begin(n, &s);
	pid = burner(0.4);
	burn(0.4);
	if (wait_inside)
		waitpid(pid, NULL, 0);
	settle_noise_end(n, &s);
	if (!wait_inside)
		waitpid(pid, NULL, 0);
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
		window(1, &n);
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

/* A child still running when the run ends is other work: its 0.4 CPU
 * seconds at least, however busy the machine. */
static void test_running_child_counted(void **st)
{
	struct settle_noise n;

	(void)st;
	window(0, &n);
	print_message("other work with a running child: %.2f CPUs in %.2f "
		      "s\n", n.other_cpus, n.seconds);
	assert_true(n.other_cpus * n.seconds > 0.3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_own_time_left_out),
		cmocka_unit_test(test_running_child_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
