/*
 * syscall.c - what entering the kernel costs: the founding pipe loop, a null
 * system call and a two-process pipe ping-pong.
 *
 * The founding experiment (docs/founding-experiments.md, "syscall") is one
 * process doing 10 000 000 iterations of a 1-byte write() to a pipe and a
 * 1-byte read() back, errno set to 0 each time; its best of 10 runs was
 * 12.811 s before a kernel change and 12.212 s after it. settle times the
 * same loop and reports it per 10 M iterations, beside:
 *
 *   null            syscall(SYS_getppid): the kernel is entered every time
 *                   (glibc may answer getpid() from a cache; getppid() has
 *                   no cache and the raw syscall() bypasses libc entirely).
 *                   Every Linux architecture has getppid, under its own
 *                   number and entry instruction (syscall, svc #0, svc 0),
 *                   which libc's syscall() issues.
 *                   Peer: `perf bench syscall basic`, which times getppid.
 *   pingpong-same   1 byte each way between two processes on the same CPU,
 *                   so every round trip is two context switches.
 *                   Peer: `perf bench sched pipe` with both tasks pinned.
 *   pingpong-cross  the same with the echo process on another CPU, so every
 *                   round trip is two cross-CPU wake-ups. Skipped when the
 *                   kernel lets this process run on one CPU only.
 *
 * Set-up forks the two echo processes. Each keeps only its own two pipe
 * ends, exits on EOF and gets SIGKILL when its parent dies
 * (PR_SET_PDEATHSIG, prctl(2)); tear-down closes the pipes, kills and reaps
 * them. SIGPIPE is ignored from set-up to tear-down, so that a dead echo
 * process fails operations instead of killing the runner.
 *
 * Pipe capacity is 64 KiB by default (pipe(7)), so a loop that writes N
 * bytes before reading any deadlocks for N beyond it; every loop here writes
 * one byte and reads it back before the next.
 *
 * Every run() returns the number of operations that succeeded: iters when
 * all did. A failed write or read makes the count, and hence the runner's
 * check against the baseline, come out short.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "claims.h"

/* getppid's system-call number on the target (x86-64 110, AArch64 173,
 * s390x 64): each architecture has its own table. */
#define STR_(x) #x
#define STR(x) STR_(x)
#define NR_GETPPID STR(__NR_getppid)

/* One echo process and the parent's ends of its two pipes. */
struct echo {
	pid_t pid;    /* 0: not running */
	int to;       /* parent writes requests here */
	int from;     /* parent reads replies here */
	int cpu;      /* CPU the echo process is pinned to */
};

struct sys_state {
	int loop[2];                /* pipe of the single-process loop */
	struct echo same, cross;
	const char *cross_why;      /* why pingpong-cross cannot run */
	struct sigaction old_pipe;  /* SIGPIPE disposition to restore */
};

/* ------------------------------------------------------------------ */
/* Variants.                                                           */

/* Write one byte to fd; 0 on success. EINTR is retried. */
static int put1(int fd, char c)
{
	ssize_t n;

	do
		n = write(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

/* Read one byte from fd into *c; 0 on success, -1 on error or EOF. */
static int get1(int fd, char *c)
{
	ssize_t n;

	do
		n = read(fd, c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

/* The founding loop: errno = 0, write 1 byte, read it back. */
static uint64_t run_pipe_loop(void *p, const void *arg, uint64_t iters)
{
	struct sys_state *s = p;
	uint64_t ok = 0;
	char c = 'x';
	(void)arg;

	for (uint64_t i = 0; i < iters; i++) {
		errno = 0;
		if (write(s->loop[1], &c, 1) != 1)
			continue;
		if (read(s->loop[0], &c, 1) == 1)
			ok++;
	}
	return ok;
}

/* A raw getppid system call: no library cache can answer it. */
static uint64_t run_null(void *p, const void *arg, uint64_t iters)
{
	uint64_t ok = 0;

	(void)p;
	(void)arg;
	for (uint64_t i = 0; i < iters; i++)
		if (syscall(SYS_getppid) >= 0)
			ok++;
	return ok;
}

/* One round trip per repetition; the reply must echo the byte sent. */
static uint64_t pingpong(const struct echo *e, uint64_t iters)
{
	uint64_t ok = 0;

	for (uint64_t i = 0; i < iters; i++) {
		char out = (char)i, in;

		if (put1(e->to, out) || get1(e->from, &in))
			continue;
		if (in == out)
			ok++;
	}
	return ok;
}

static uint64_t run_pingpong_same(void *p, const void *arg, uint64_t iters)
{
	(void)arg;
	return pingpong(&((struct sys_state *)p)->same, iters);
}

static uint64_t run_pingpong_cross(void *p, const void *arg, uint64_t iters)
{
	(void)arg;
	return pingpong(&((struct sys_state *)p)->cross, iters);
}

static const char *cross_unavailable(void *p, const void *arg)
{
	(void)arg;
	return ((struct sys_state *)p)->cross_why;
}

/* ------------------------------------------------------------------ */
/* Echo processes.                                                     */

/* Close descriptors first..last; a loop where close_range(2) is missing. */
static void close_span(unsigned first, unsigned last)
{
	long max;

	if (first > last || close_range(first, last, 0) == 0)
		return;
	max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	for (long fd = first; fd <= (long)last && fd < max; fd++)
		close((int)fd);
}

/* Close every descriptor of the echo process except a and b, so that it
 * holds no other pipe end open (which would hide EOF from a peer). */
static void close_others(int a, int b)
{
	unsigned lo = (unsigned)(a < b ? a : b), hi = (unsigned)(a < b ? b : a);

	if (lo > 0)
		close_span(0, lo - 1);
	close_span(lo + 1, hi - 1);
	close_span(hi + 1, ~0u);
}

/* Pin the calling process to cpu; 0 when it now runs there. */
static int pin_to(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	return sched_getcpu() == cpu ? 0 : -1;
}

/*
 * Pin to the first CPU of want[0..n) that the kernel accepts. Returns it,
 * or -1. For the cross-CPU echo the list holds every CPU but the parent's,
 * those of the inherited mask first: the runner's pinning has narrowed that
 * mask to one CPU, while the cpuset may still allow others.
 */
static int pin_first(const int *want, int n)
{
	for (int i = 0; i < n; i++)
		if (pin_to(want[i]) == 0)
			return want[i];
	return -1;
}

/* Body of an echo process: report the CPU it runs on (-1: none of want),
 * then copy bytes from in to out until EOF. Never returns. */
static void echo_main(int in, int out, pid_t parent, const int *want, int n)
{
	int cpu;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	close_others(in, out);
	cpu = pin_first(want, n);
	if (write(out, &cpu, sizeof(cpu)) != (ssize_t)sizeof(cpu) || cpu < 0)
		_exit(1);
	while (get1(in, &c) == 0)
		if (put1(out, c))
			break;
	_exit(0);
}

static void echo_stop(struct echo *e)
{
	if (e->to >= 0)
		close(e->to);
	if (e->from >= 0)
		close(e->from);
	e->to = e->from = -1;
	if (e->pid <= 0)
		return;
	kill(e->pid, SIGKILL);
	while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR)
		;
	e->pid = 0;
}

/* Fork the echo process and wire its pipes; -1 with errno on failure. */
static int echo_fork(struct echo *e, const int *want, int n)
{
	int req[2], rep[2];
	pid_t parent = getpid();

	if (pipe2(req, O_CLOEXEC))
		return -1;
	if (pipe2(rep, O_CLOEXEC)) {
		close(req[0]);
		close(req[1]);
		return -1;
	}
	e->pid = fork();
	if (e->pid == 0)
		echo_main(req[0], rep[1], parent, want, n);
	close(req[0]);
	close(rep[1]);
	e->to = req[1];
	e->from = rep[0];
	return e->pid < 0 ? -1 : 0;
}

/*
 * Start an echo process pinned to the first acceptable CPU of want[0..n).
 * Returns 0 with e->cpu set; 1 when no CPU of the list was accepted; -1
 * with errno set when the process could not be started.
 */
static int echo_start(struct echo *e, const int *want, int n)
{
	ssize_t got;
	int saved;

	*e = (struct echo){ .to = -1, .from = -1, .cpu = -1 };
	if (echo_fork(e, want, n))
		goto fail;
	got = read(e->from, &e->cpu, sizeof(e->cpu));
	if (got == (ssize_t)sizeof(e->cpu) && e->cpu >= 0)
		return 0;
	if (got == (ssize_t)sizeof(e->cpu)) {
		echo_stop(e);
		return 1;
	}
	if (got >= 0)
		errno = EPIPE; /* the echo process died before reporting */
fail:
	saved = errno;
	echo_stop(e);
	errno = saved;
	return -1;
}

/* ------------------------------------------------------------------ */
/* Set-up and tear-down.                                               */

static void sys_teardown(void *p)
{
	struct sys_state *s = p;

	if (!s)
		return;
	echo_stop(&s->same);
	echo_stop(&s->cross);
	if (s->loop[0] >= 0)
		close(s->loop[0]);
	if (s->loop[1] >= 0)
		close(s->loop[1]);
	sigaction(SIGPIPE, &s->old_pipe, NULL);
	settle_free(s);
}

/*
 * Start both echo processes, the cross-CPU one on partner (another CPU
 * the user allowed; -1 or cpu itself: none, and pingpong-cross is
 * skipped); -1 with a message in err on failure.
 */
static int start_echoes(struct sys_state *s, int cpu, int partner, char *err,
			size_t len)
{
	int rc;

	rc = echo_start(&s->same, &cpu, 1);
	if (rc) {
		snprintf(err, len, "cannot start echo process on CPU %d: %s",
			 cpu, rc > 0 ? "cannot pin it there" : strerror(errno));
		return -1;
	}
	rc = partner >= 0 && partner != cpu ?
	     echo_start(&s->cross, &partner, 1) : 1;
	if (rc > 0)
		s->cross_why = "only one CPU allowed";
	if (rc >= 0)
		return 0;
	snprintf(err, len, "cannot start cross-CPU echo process: %s",
		 strerror(errno));
	return -1;
}

static void *sys_setup(const struct settle_params *prm, char *err, size_t len)
{
	/* the state the variants read, placed by the layout being measured
	 * (docs/layouts.md) */
	struct sys_state *s = settle_alloc(prm, sizeof(*s), 64);
	struct sigaction ign = { .sa_handler = SIG_IGN };
	int cpu = prm && prm->cpu >= 0 ? prm->cpu : sched_getcpu();

	if (!s) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->loop[0] = s->loop[1] = -1;
	s->same = s->cross = (struct echo){ .to = -1, .from = -1, .cpu = -1 };
	/* A dead echo process must fail an operation, not kill the runner. */
	sigaction(SIGPIPE, &ign, &s->old_pipe);
	if (pipe2(s->loop, O_CLOEXEC)) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		sys_teardown(s);
		return NULL;
	}
	if (start_echoes(s, cpu, prm ? prm->partner_cpu : -1, err, len)) {
		sys_teardown(s);
		return NULL;
	}
	return s;
}

/* ------------------------------------------------------------------ */
/* Scale: seconds per 10 M operations, as the founding post reported.  */

static size_t sys_scale(const struct settle_result *r,
			const struct settle_scale_ctx *ctx,
			struct settle_figure *out, size_t max)
{
	const double per_10m = 1e7 / 1e9; /* ns per op -> s per 10 M ops */

	(void)ctx;
	if (r->skipped || max < 2)
		return 0;
	out[0] = (struct settle_figure){ .label = "per 10 M, best",
					 .unit = "s",
					 .value = r->sum.min * per_10m };
	out[1] = (struct settle_figure){ .label = "per 10 M, median",
					 .unit = "s",
					 .value = r->sum.median * per_10m };
	return 2;
}

static const struct settle_variant sys_variants[] = {
	{
		.name = "pipe-loop",
		.description = "1-byte write() to a pipe and read() back, "
			       "one process (the founding loop)",
		.run = run_pipe_loop,
	},
	{
		.name = "null",
		.description = "syscall(SYS_getppid), number " NR_GETPPID
			       " on this architecture: enters the kernel "
			       "every time",
		.run = run_null,
	},
	{
		.name = "pingpong-same",
		.description = "1-byte round trip to a second process on "
			       "the same CPU",
		.run = run_pingpong_same,
	},
	{
		.name = "pingpong-cross",
		.description = "1-byte round trip to a second process on "
			       "another CPU",
		.run = run_pingpong_cross,
		.unavailable = cross_unavailable,
	},
};

/* The original: 12.811 s before the kernel change, 12.212 s after it, for
 * 10 M iterations of the pipe loop (docs/founding-experiments.md). */
#define ORIGINAL_BEFORE_S 12.811
#define ORIGINAL_AFTER_S 12.212

/*
 * What the original's change (0.6 s of 12.8 s) is on this machine: the
 * pipe-loop row is the original's loop; the same share of its 10 M
 * iterations.
 */
static int sys_conclude(const struct settle_result *res, size_t n,
			const struct settle_conclude_ctx *ctx,
			struct settle_conclusion *out)
{
	const struct settle_result *p = settle_result_find(res, n, "pipe-loop",
							   0);
	double share = (ORIGINAL_BEFORE_S - ORIGINAL_AFTER_S) /
		       ORIGINAL_BEFORE_S;
	double loop_s;

	(void)ctx;
	if (!p)
		return 0;
	loop_s = p->sum.median * 1e7 / 1e9;
	snprintf(out->sentence, sizeof(out->sentence), "the pipe-loop row is "
		 "the original's measurement: 10 M iterations take %.3g s here "
		 "(%.0f ns each), so the original's change, %.1f s of %.1f s "
		 "(%.1f %%), would be %.3g s of them", loop_s, p->sum.median,
		 ORIGINAL_BEFORE_S - ORIGINAL_AFTER_S, ORIGINAL_BEFORE_S,
		 share * 100, loop_s * share);
	settle_conclusion_number(out, "loop_10m", loop_s, "s");
	settle_conclusion_number(out, "change_10m", loop_s * share, "s");
	settle_conclusion_number(out, "change_share", share * 100, "%");
	settle_conclusion_row_time(out, p);
	return 1;
}

const struct settle_claim settle_claim_syscall = {
	.name = "syscall",
	.description = "cost of system calls: the pipe loop, a null call, "
		       "pipe ping-pong",
	.title = "syscall: 1-byte pipe loop, null call, ping-pong",
	.original = "10 M iterations of the pipe loop, best of 10 runs: "
		    "12.811 s before the kernel change, 12.212 s "
		    "after it",
	.op_name = "call",
	.variants = sys_variants,
	.nvariants = sizeof(sys_variants) / sizeof(sys_variants[0]),
	.baseline = "null",
	.conclude = sys_conclude,
	.check_iters = 256,
	.setup = sys_setup,
	.teardown = sys_teardown,
	.scale = sys_scale,
};
