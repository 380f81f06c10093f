/*
 * preempt_storm.c - an LD_PRELOAD library that disturbs the program it is
 * loaded into as a busy machine does: after every STORM_RUN_US (150)
 * microseconds of running, a signal handler sleeps STORM_SLEEP_MS (10)
 * milliseconds, as a preemption, a SIGSTOP or a page-fault storm would
 * stall the program. For tests/bench_preempt.sh (make bench-preempt).
 *
 * The kernel checks CPU-time timers (ITIMER_PROF, CLOCK_*_CPUTIME_ID)
 * only at its scheduler tick, 1-4 ms apart, so a 150 us period cannot be
 * had from them. Instead a one-shot CLOCK_MONOTONIC timer (a high-
 * resolution timer) is armed for 150 us and re-armed by the handler after
 * each sleep: for a program that runs alone on its CPU, 150 us of elapsed
 * time between two pauses is 150 us of running. STORM_COUNT=1 makes the
 * library print at exit how many pauses it caused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static struct timespec pause_len;
static struct itimerspec period;
static timer_t storm_timer;
static volatile sig_atomic_t pauses;

static void storm(int sig)
{
	struct timespec left = pause_len;
	int saved = errno;

	(void)sig;
	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
	pauses++;
	timer_settime(storm_timer, 0, &period, NULL); /* async-signal-safe */
	errno = saved;
}

static long env_long(const char *name, long dflt)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return dflt;
	v = strtol(s, &end, 10);
	return *end || v <= 0 ? dflt : v;
}

static void report(void)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "preempt_storm: %ld pauses\n",
			 (long)pauses);

	if (write(STDERR_FILENO, line, (size_t)n) < 0)
		return;
}

__attribute__((constructor)) static void storm_start(void)
{
	long run_us = env_long("STORM_RUN_US", 150);
	long sleep_ms = env_long("STORM_SLEEP_MS", 10);
	struct sigaction sa = { .sa_handler = storm, .sa_flags = SA_RESTART };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL,
			       .sigev_signo = SIGPROF };

	pause_len.tv_sec = sleep_ms / 1000;
	pause_len.tv_nsec = sleep_ms % 1000 * 1000000;
	period.it_value.tv_sec = run_us / 1000000;
	period.it_value.tv_nsec = run_us % 1000000 * 1000;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL) != 0 ||
	    timer_create(CLOCK_MONOTONIC, &ev, &storm_timer) != 0) {
		perror("preempt_storm");
		return;
	}
	if (getenv("STORM_COUNT"))
		atexit(report);
	timer_settime(storm_timer, 0, &period, NULL);
}
