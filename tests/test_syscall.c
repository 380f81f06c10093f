/*
 * test_syscall.c - the syscall claim (claims/syscall.c).
 *
 * Checks that every variant returns iters for its check value, that the
 * pipe loop survives more than the 64 KiB pipe capacity, that the echo
 * processes are pinned as their names say, reaped at tear-down and killed
 * with their parent, that a dead echo process fails operations instead of
 * killing the caller, and that the null variant enters the kernel on every
 * call: a seccomp filter traps getppid and the trap count must equal iters.
 * No timing is asserted.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/ucontext.h>
#include <sys/wait.h>
#include <unistd.h>

#include "claims.h"
#include "runner/runner.h"

static const struct settle_claim *claim = &settle_claim_syscall;
static int allowed_cpus; /* CPUs allowed before pinning, like the runner */
static int my_cpu;       /* CPU this test is pinned to */

static const struct settle_variant *variant(const char *name)
{
	for (size_t i = 0; i < claim->nvariants; i++)
		if (strcmp(claim->variants[i].name, name) == 0)
			return &claim->variants[i];
	fail_msg("no variant %s", name);
	return NULL;
}

static void *setup_state(void)
{
	struct settle_params p = { .cpu = my_cpu,
				   .partner_cpu = settle_cpu_partner(my_cpu) };
	char err[256] = "";
	void *s = claim->setup(&p, err, sizeof(err));

	if (!s)
		fail_msg("setup failed: %s", err);
	return s;
}

/* cmocka fixture: a claim state per test, torn down even on failure. */
static int fixture_setup(void **state)
{
	*state = setup_state();
	return 0;
}

static int fixture_teardown(void **state)
{
	if (*state)
		claim->teardown(*state);
	*state = NULL;
	return 0;
}

static const char *reason(const struct settle_variant *v, void *s)
{
	return v->unavailable ? v->unavailable(s, v->arg) : NULL;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Children of this thread (needs CONFIG_PROC_CHILDREN); -1 if unknown. */
static int list_children(pid_t *out, int max)
{
	char path[64];
	FILE *f;
	int n = 0, pid;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/children",
		 (long)syscall(SYS_gettid));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (n < max && fscanf(f, "%d", &pid) == 1)
		out[n++] = pid;
	fclose(f);
	return n;
}

static void assert_no_children(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* ------------------------------------------------------------------ */

static void test_claim_shape(void **unused)
{
	(void)unused;
	assert_string_equal(claim->name, "syscall");
	assert_int_equal(claim->nvariants, 4);
	assert_null(claim->default_sizes);
	assert_non_null(variant(claim->baseline));
	assert_string_equal(claim->baseline, "null");
	assert_non_null(variant("pipe-loop"));
	assert_non_null(variant("pingpong-same"));
	assert_non_null(variant("pingpong-cross"));
	assert_non_null(claim->setup);
	assert_non_null(claim->teardown);
}

static void test_every_variant_checks(void **state)
{
	static const uint64_t iters[] = { 0, 1, 2, 3, 1000 };
	void *s = *state;

	for (size_t i = 0; i < claim->nvariants; i++) {
		const struct settle_variant *v = &claim->variants[i];

		if (reason(v, s))
			continue; /* test_cross_only_when_one_cpu covers it */
		for (size_t k = 0; k < sizeof(iters) / sizeof(iters[0]); k++)
			assert_int_equal(v->run(s, v->arg, iters[k]), iters[k]);
	}
}

/* More round trips than the pipe holds bytes: no deadlock. */
static void test_pipe_loop_beyond_capacity(void **state)
{
	const uint64_t n = 3 * 65536 + 7;

	assert_int_equal(variant("pipe-loop")->run(*state, variant("pipe-loop")->arg, n), n);
}

static void test_cross_only_when_one_cpu(void **state)
{
	void *s = *state;
	const char *why = reason(variant("pingpong-cross"), s);

	if (allowed_cpus > 1) {
		assert_null(why);
	} else {
		assert_non_null(why);
		assert_true(strlen(why) > 0);
	}
	assert_null(reason(variant("pingpong-same"), s));
}

/* The echo processes run where the variant names say. */
static void test_echo_pinning(void **state)
{
	pid_t kids[8];
	int n = list_children(kids, 8), same = 0, cross = 0;

	(void)state;
	if (n < 0)
		skip();
	assert_int_equal(n, allowed_cpus > 1 ? 2 : 1);
	for (int i = 0; i < n; i++) {
		cpu_set_t set;

		assert_int_equal(sched_getaffinity(kids[i], sizeof(set), &set), 0);
		assert_int_equal(CPU_COUNT(&set), 1);
		if (CPU_ISSET(my_cpu, &set))
			same++;
		else
			cross++;
	}
	assert_int_equal(same, 1);
	assert_int_equal(cross, n - 1);
}

static void test_teardown_leaves_nothing(void **unused)
{
	int before = count_fds();

	(void)unused;
	for (int round = 0; round < 3; round++) {
		void *s = setup_state();

		assert_int_equal(variant("pingpong-same")->run(s, variant("pingpong-same")->arg, 10), 10);
		claim->teardown(s);
		assert_int_equal(count_fds(), before);
		assert_no_children();
	}
}

/* A dead echo process makes operations fail, not the caller die. */
static void test_dead_echo_fails_ops(void **state)
{
	pid_t kids[8];
	int n = list_children(kids, 8);

	if (n < 0)
		skip();
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	assert_int_equal(variant("pingpong-same")->run(*state, variant("pingpong-same")->arg, 10), 0);
	assert_int_equal(variant("pipe-loop")->run(*state, variant("pipe-loop")->arg, 10), 10);
	claim->teardown(*state);
	*state = NULL;
	assert_no_children();
}

/* Kill the process that ran setup: its echo processes must exit too.
 * As a subreaper, this test inherits them and can see them end. */
static void test_echoes_die_with_parent(void **unused)
{
	struct timespec start, now;
	int ready[2], reaped = 0;
	pid_t mid;
	char c;

	(void)unused;
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
		/* qemu-user does not pass this prctl on */
		print_message("PR_SET_CHILD_SUBREAPER refused (%s): "
			      "skipped\n", strerror(errno));
		skip();
	}
	assert_int_equal(pipe(ready), 0);
	mid = fork();
	assert_true(mid >= 0);
	if (mid == 0) {
		struct settle_params p = { .cpu = my_cpu,
					   .partner_cpu =
						   settle_cpu_partner(my_cpu) };
		char err[256];

		close(ready[0]);
		if (!claim->setup(&p, err, sizeof(err)))
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		raise(SIGKILL);
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	assert_int_equal(waitpid(mid, NULL, 0), mid);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		pid_t pid = waitpid(-1, NULL, WNOHANG);

		if (pid > 0) {
			reaped++;
			continue;
		}
		if (pid < 0 && errno == ECHILD)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > 10)
			fail_msg("echo processes outlived their parent");
		usleep(1000);
	}
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	assert_int_equal(reaped, allowed_cpus > 1 ? 2 : 1);
}

/* ------------------------------------------------------------------ */
/* The null variant enters the kernel: count getppid calls with seccomp. */

#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1 /* si_code of a seccomp SIGSYS (asm-generic/siginfo.h) */
#endif

/*
 * The target's system-call ABI: the audit architecture seccomp reports
 * and the register that returns a call's result (x86-64 rax, AArch64 x0,
 * s390x r2). Elsewhere the filter is not installed and the test skipped.
 */
#if defined(__x86_64__)
#define TRAP_AUDIT_ARCH AUDIT_ARCH_X86_64
#define SET_RESULT(uc, v) ((uc)->uc_mcontext.gregs[REG_RAX] = (v))
#elif defined(__aarch64__)
#define TRAP_AUDIT_ARCH AUDIT_ARCH_AARCH64
#define SET_RESULT(uc, v) ((uc)->uc_mcontext.regs[0] = (v))
#elif defined(__s390x__)
#define TRAP_AUDIT_ARCH AUDIT_ARCH_S390X
#define SET_RESULT(uc, v) ((uc)->uc_mcontext.gregs[2] = (v))
#endif

static volatile sig_atomic_t traps;

/* SIGSYS from SECCOMP_RET_TRAP: the call was not executed; count it and
 * make it return 1, a valid parent pid, so it looks successful. */
static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	if (si->si_code != SYS_SECCOMP || si->si_syscall != __NR_getppid)
		return;
	traps++;
#ifdef SET_RESULT
	SET_RESULT(uc, 1);
#else
	(void)uc;
#endif
}

static int trap_getppid(void)
{
#ifndef TRAP_AUDIT_ARCH
	return -1;
#else
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TRAP_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(f) / sizeof(f[0]),
		.filter = f,
	};
	struct sigaction sa = { .sa_sigaction = on_sigsys,
				.sa_flags = SA_SIGINFO };

	if (sigaction(SIGSYS, &sa, NULL))
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
#endif
}

#define NO_SECCOMP 77 /* exit status: filter could not be installed */

/*
 * In a child under the filter, call run(state, iters); store the check
 * value in out[0] and the number of trapped getppid calls in out[1].
 * Skips the test when this kernel refuses seccomp filters.
 */
static void count_traps(uint64_t (*run)(void *, const void *, uint64_t), void *state,
			uint64_t iters, uint64_t out[2])
{
	int fd[2], status;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint64_t res[2];

		close(fd[0]);
		if (trap_getppid())
			_exit(NO_SECCOMP);
		res[0] = run(state, NULL, iters);
		res[1] = (uint64_t)traps;
		_exit(write(fd[1], res, sizeof(res)) == sizeof(res) ? 0 : 1);
	}
	close(fd[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == NO_SECCOMP) {
		close(fd[0]);
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(read(fd[0], out, 2 * sizeof(uint64_t)),
			 2 * sizeof(uint64_t));
	close(fd[0]);
}

static void test_null_enters_kernel(void **state)
{
	static const uint64_t iters[] = { 0, 1, 1000 };

	for (size_t k = 0; k < sizeof(iters) / sizeof(iters[0]); k++) {
		uint64_t out[2];

		count_traps(variant("null")->run, *state, iters[k], out);
		assert_int_equal(out[0], iters[k]); /* check value */
		assert_int_equal(out[1], iters[k]); /* kernel entries */
	}
}

/* The same counter must catch a "null call" that never enters the kernel
 * (as getpid() answered from a library cache would). */
static uint64_t cached_null(void *state, const void *arg, uint64_t iters)
{
	uint64_t ok = 0;

	(void)state;
	(void)arg;
	for (uint64_t i = 0; i < iters; i++) {
		pid_t cached = 1;

		settle_keep(cached);
		ok += cached > 0;
	}
	return ok;
}

static void test_trap_counter_can_fail(void **unused)
{
	uint64_t out[2];

	(void)unused;
	count_traps(cached_null, NULL, 1000, out);
	assert_int_equal(out[0], 1000);
	assert_int_equal(out[1], 0);
}

/* ------------------------------------------------------------------ */

static void test_scale(void **unused)
{
	struct settle_result r = { .size_bytes = 0 };
	struct settle_figure fig[4];

	(void)unused;
	r.sum.min = 389.0;
	r.sum.median = 400.0;
	assert_non_null(claim->scale);
	assert_int_equal(claim->scale(&r, NULL, fig, 4), 2);
	assert_float_equal(fig[0].value, 3.89, 1e-9);
	assert_float_equal(fig[1].value, 4.00, 1e-9);
	assert_string_equal(fig[0].unit, "s");
	assert_string_equal(fig[1].unit, "s");
	assert_string_equal(fig[0].note, "");
	assert_non_null(strstr(fig[0].label, "10 M"));
	assert_non_null(strstr(fig[1].label, "median"));
	r.skipped = "only one CPU allowed";
	assert_int_equal(claim->scale(&r, NULL, fig, 4), 0);
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Pin like the runner does, after counting the CPUs the user allowed: the
 * affinity mask this process started with (taskset), the one settle keeps
 * to, not every CPU sched_setaffinity would accept.
 */
static int pin_self(void)
{
	cpu_set_t set;

	my_cpu = sched_getcpu();
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		allowed_cpus = CPU_COUNT(&set);
	return pin_to(my_cpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claim_shape),
		cmocka_unit_test_setup_teardown(test_every_variant_checks, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_pipe_loop_beyond_capacity, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_cross_only_when_one_cpu, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_echo_pinning, fixture_setup,
						fixture_teardown),
		cmocka_unit_test(test_teardown_leaves_nothing),
		cmocka_unit_test_setup_teardown(test_dead_echo_fails_ops, fixture_setup,
						fixture_teardown),
		cmocka_unit_test(test_echoes_die_with_parent),
		cmocka_unit_test_setup_teardown(test_null_enters_kernel, fixture_setup,
						fixture_teardown),
		cmocka_unit_test(test_trap_counter_can_fail),
		cmocka_unit_test(test_scale),
	};

	if (pin_self()) {
		perror("pin");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
