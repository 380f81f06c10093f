/*
 * spawn.c - the one way settle starts another program (see util.h):
 * fork, redirect, exec, and tell the parent when the exec itself failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

/* fd onto std (0, 1, 2) in the child; -1 when that fails. */
static int stream(int fd, int std)
{
	if (fd == SETTLE_SPAWN_INHERIT)
		return 0;
	if (fd == SETTLE_SPAWN_NULL) {
		int nul = open("/dev/null", O_RDWR);

		if (nul < 0)
			return -1;
		fd = nul;
	}
	return fd == std ? 0 : dup2(fd, std) < 0 ? -1 : 0;
}

/* In the child: set up, exec, or report errno on report_fd and exit.
 * parent: settle's pid. */
static void child(char *const *argv, const struct settle_spawn_opts *o,
		  int report_fd, pid_t parent)
{
	int e;

	if (o) {
		/* and settle ended before it was set: at once */
		if (o->pdeathsig && (prctl(PR_SET_PDEATHSIG, o->pdeathsig) < 0 ||
				     getppid() != parent))
			goto fail;
		if (stream(o->in, STDIN_FILENO) < 0 ||
		    stream(o->out, STDOUT_FILENO) < 0 ||
		    stream(o->err, STDERR_FILENO) < 0)
			goto fail;
		if (o->close_fd >= 0)
			close(o->close_fd);
		if (o->dir && chdir(o->dir) < 0)
			goto fail;
		for (const char *const *u = o->unset; u && *u; u++)
			unsetenv(*u);
		for (const char *const *s = o->set; s && *s; s++)
			if (putenv((char *)*s) != 0)
				goto fail;
	}
	execvp(argv[0], argv);
fail:
	e = errno;
	if (write(report_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

pid_t settle_spawn(char *const *argv, const struct settle_spawn_opts *o)
{
	int fd[2], e = 0;
	pid_t pid, parent = getpid();
	ssize_t k;

	if (pipe2(fd, O_CLOEXEC) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(fd[0]);
		close(fd[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		close(fd[0]);
		child(argv, o, fd[1], parent);
	}
	close(fd[1]);
	while ((k = read(fd[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(fd[0]);
	if (k == (ssize_t)sizeof(e)) {
		/* the exec failed: collect the child, report its error */
		settle_wait(pid, NULL);
		errno = e;
		return -1;
	}
	return pid;
}

/* A wait status as settle_wait() returns it: the exit status, or 128 +
 * the signal that ended the program. */
static int status_of(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) :
	       128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int settle_wait(pid_t pid, struct rusage *ru)
{
	int st, passed = 0;

	while (wait4(pid, &st, 0, ru) < 0) {
		if (errno != EINTR)
			return -1;
		if (settle_interrupted() && !passed) {
			kill(pid, settle_interrupted());
			passed = 1;
		}
	}
	return status_of(st);
}

/* Whether stop signal sig is the terminal's (Ctrl-Z, or a background
 * job's read or write): it stops settle too. */
static int terminal_stop(int sig)
{
	return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* SIGCHLD wakes sigsuspend() in settle_wait_stoppable(); nothing else. */
static void child_changed(int sig)
{
	(void)sig;
}

/*
 * With SIGCHLD caught and it and the interrupts blocked but in
 * sigsuspend(), no state change of the program and no interrupt falls
 * between a check and the wait (one noted while a stop was said was lost,
 * and settle waited for ever), and settle wakes for nothing else: no
 * polling beside a measurement.
 */
int settle_wait_stoppable(pid_t pid, settle_stopped_fn *stopped, void *arg)
{
	struct sigaction sa, old_sa;
	sigset_t block, old;
	int st, rc = -1, passed = 0, said = 0;
	pid_t got;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = child_changed;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &block, &old) < 0)
		return -1;
	if (sigaction(SIGCHLD, &sa, &old_sa) < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	for (;;) {
		if (settle_interrupted() && !passed) {
			kill(pid, settle_interrupted());
			kill(pid, SIGCONT); /* a stopped program takes it */
			passed = 1;
		}
		got = wait4(pid, &st, WUNTRACED | WCONTINUED | WNOHANG, NULL);
		if (got < 0 && errno != EINTR)
			break;
		if (got == pid && !WIFSTOPPED(st) && !WIFCONTINUED(st)) {
			rc = status_of(st);
			break;
		}
		if (got == pid && WIFSTOPPED(st) && !said) {
			if (stopped && !terminal_stop(WSTOPSIG(st)))
				stopped(pid, WSTOPSIG(st), arg);
			said = 1;
		}
		if (got != pid)
			sigsuspend(&old); /* a SIGCHLD or an interrupt */
	}
	sigaction(SIGCHLD, &old_sa, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int settle_wait_for(pid_t pid, long limit_ms, int *timed_out)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int st, passed = 0;
	pid_t got;

	*timed_out = 0;
	for (long waited = 0; ; waited += 10) {
		got = waitpid(pid, &st, WNOHANG);
		if (got < 0 && errno != EINTR)
			return -1;
		if (got == pid)
			return status_of(st);
		if (settle_interrupted() && !passed) {
			kill(pid, settle_interrupted());
			passed = 1;
		}
		if (waited >= limit_ms) {
			kill(pid, SIGKILL);
			*timed_out = 1;
			return settle_wait(pid, NULL);
		}
		nanosleep(&tick, NULL);
	}
}
