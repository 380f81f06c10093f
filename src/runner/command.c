/*
 * command.c - whole commands: each sample a fresh process, timed from
 * fork to wait4, interleaved in rounds; optionally profiled with perf for
 * the share of a symbol (see command.h for the contracts).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model/model.h"
#include "runner/command.h"
#include "runner/debuginfo.h"
#include "runner/perf_script.h"
#include "runner/runner.h"
#include "util/util.h"

#define SHELL "/bin/sh"
#define TAIL_LINES 4           /* of standard error, in a failure */
#define TAIL_BYTES 2048
#define PERIOD_MIN_NS 100000   /* 100 us of CPU time per perf sample */
#define SAMPLES_PER_RUN 20000  /* at most, about, per profiled run */
/* with DWARF call chains, whose samples carry 8 KiB of stack each: about
 * 42 MB of perf data per run */
#define SAMPLES_PER_RUN_DWARF 5000
#define PROFILE_TRIES 5        /* of a run whose chains fell back */
#define KEPT_MAX 64            /* --prepare's processes left running */

/* ---- options ---------------------------------------------------------- */

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("._-+:", c);
}

static int blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return *s == '\0';
}

static int add_command(struct settle_command_set *s, const char *arg,
		       char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : 0;

	if (blank(arg)) {
		snprintf(err, errlen, "empty --command: give NAME=SHELL COMMAND, "
			 "e.g. --command 'fast=sleep 0.1'");
		return -1;
	}
	if (!eq) {
		snprintf(err, errlen, "--command '%.80s': expected NAME=SHELL "
			 "COMMAND, e.g. --command 'fast=sleep 0.1'", arg);
		return -1;
	}
	if (len == 0) {
		snprintf(err, errlen, "--command '%.80s': the NAME before '=' "
			 "is empty", arg);
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		if (!name_char(arg[i]) || len > SETTLE_CMD_NAME_MAX) {
			snprintf(err, errlen, "--command '%.80s': a NAME is 1 to "
				 "%d letters, digits or . _ - + :", arg,
				 SETTLE_CMD_NAME_MAX);
			return -1;
		}
	if (blank(eq + 1)) {
		snprintf(err, errlen, "--command '%.80s': no command after "
			 "'%.*s='", arg, (int)len, arg);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->cmd[i].name) == len &&
		    !strncmp(s->cmd[i].name, arg, len)) {
			snprintf(err, errlen, "two --command named '%.*s': each "
				 "needs a name of its own", (int)len, arg);
			return -1;
		}
	if (s->n == SETTLE_CMD_MAX) {
		snprintf(err, errlen, "too many --command (at most %d)",
			 SETTLE_CMD_MAX);
		return -1;
	}
	memcpy(s->cmd[s->n].name, arg, len);
	s->cmd[s->n].name[len] = '\0';
	s->cmd[s->n].shell = eq + 1;
	s->n++;
	return 0;
}

static int add_share(struct settle_command_set *s, const char *arg,
		     char *err, size_t errlen)
{
	size_t len = strlen(arg);
	int ok = len > 0 && len <= SETTLE_SYMBOL_MAX && arg[0] != ' ' &&
		 arg[len - 1] != ' ';

	for (size_t i = 0; ok && i < len; i++)
		ok = (unsigned char)arg[i] >= 0x20 && arg[i] != 0x7f;
	if (!ok) {
		snprintf(err, errlen, "malformed --share '%.80s' (a symbol "
			 "name as perf report shows it, e.g. ext2fs_bitcount)",
			 arg);
		return -1;
	}
	for (size_t i = 0; i < s->nshare; i++)
		if (!strcmp(s->share[i], arg))
			return 0;
	if (s->nshare == SETTLE_SHARE_MAX) {
		snprintf(err, errlen, "too many --share (at most %d)",
			 SETTLE_SHARE_MAX);
		return -1;
	}
	s->share[s->nshare++] = arg;
	return 0;
}

static int parse_warmup(struct settle_command_set *s, const char *arg,
			char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = arg && *arg >= '0' && *arg <= '9' ? strtoul(arg, &end, 10) : 0;
	if (!arg || *arg < '0' || *arg > '9' || errno || *end ||
	    v > SETTLE_WARMUP_MAX) {
		snprintf(err, errlen, "malformed --warmup '%.40s' (a whole "
			 "number of runs, 0 to %d)", arg ? arg : "",
			 SETTLE_WARMUP_MAX);
		return -1;
	}
	s->warmup = (unsigned)v;
	s->have_warmup = 1;
	return 0;
}

/* The option's work; its message may quote what the user typed. */
static int command_option(struct settle_command_set *s, int which,
			  const char *arg, char *err, size_t errlen)
{
	switch (which) {
	case SETTLE_CMDOPT_COMMAND:
		return add_command(s, arg ? arg : "", err, errlen);
	case SETTLE_CMDOPT_WARMUP:
		return parse_warmup(s, arg, err, errlen);
	case SETTLE_CMDOPT_PREPARE:
		if (!arg || blank(arg)) {
			snprintf(err, errlen, "empty --prepare: give a shell "
				 "command to run before every run");
			return -1;
		}
		s->prepare = arg;
		return 0;
	case SETTLE_CMDOPT_SHOW_OUTPUT:
		s->show_output = 1;
		return 0;
	case SETTLE_CMDOPT_IGNORE_FAILURE:
		s->ignore_failure = 1;
		return 0;
	case SETTLE_CMDOPT_SHARE:
		return add_share(s, arg ? arg : "", err, errlen);
	case SETTLE_CMDOPT_STDOUT:
		if (!arg || (strcmp(arg, "null") && strcmp(arg, "pipe"))) {
			snprintf(err, errlen, "malformed --stdout '%.40s' "
				 "(null or pipe)", arg ? arg : "");
			return -1;
		}
		s->stdout_pipe = !strcmp(arg, "pipe");
		return 0;
	}
	snprintf(err, errlen, "unknown command option %d", which);
	return -1;
}

int settle_command_option(struct settle_command_set *s, int which,
			  const char *arg, char *err, size_t errlen)
{
	int rc = command_option(s, which, arg, err, errlen);

	/* what it quotes is written out, never sent raw to the terminal */
	if (rc < 0 && errlen)
		settle_escape_in(err, errlen);
	return rc;
}

int settle_command_check(const struct settle_command_set *s, int claims_too,
			 char *err, size_t errlen)
{
	if (s->n && claims_too) {
		snprintf(err, errlen, "--command times whole commands; claims "
			 "and their options (a claim name, FILE.c, --size, "
			 "--variant, --full, --min-time, --layouts, --build, "
			 "--verbose, --device-mbps) do not mix with it: measure "
			 "them in a separate run");
		return -1;
	}
	if (!s->n && (s->have_warmup || s->prepare || s->show_output ||
		      s->ignore_failure || s->nshare || s->stdout_pipe)) {
		snprintf(err, errlen, "--warmup, --prepare, --show-output, "
			 "--ignore-failure, --share and --stdout go with "
			 "--command 'NAME=SHELL COMMAND'");
		return -1;
	}
	if (s->show_output && s->stdout_pipe) {
		snprintf(err, errlen, "--show-output and --stdout pipe both say "
			 "where the commands' output goes: give one");
		return -1;
	}
	return 0;
}

/* ---- the claim whose results the commands are ----------------------- */

/*
 * THE ONE PLACE that describes the claim of whole commands: its results
 * (one per command, named by the command's NAME, the first the baseline)
 * carry this description, the formats print it, the result file stores it
 * under "claims".
 */
static const struct settle_claim_info *
command_claim(struct settle_report *rep, const struct settle_command_set *s)
{
	struct settle_claim_info c;

	memset(&c, 0, sizeof(c));
	c.name = "command";
	c.description = "whole commands, each run a fresh process";
	c.title = "command: whole commands, wall time per run";
	c.op_name = "run";
	c.baseline = s->cmd[0].name;
	return settle_report_claim(rep, &c);
}

/* ---- running a process ------------------------------------------------ */

/* The files a child gets, and where its standard error is kept. */
struct io {
	int null_fd;   /* /dev/null, read and write */
	int err_fd;    /* a temporary file for standard error, or -1 */
	int show;      /* --show-output: stdout and stderr to our stderr */
	int out_fd;    /* >= 0: standard output to this pipe instead */
	pid_t drain;   /* > 0: the process that reads and discards what
			  the commands write to out_fd (--stdout pipe) */
};

struct run {
	double wall_ns, user_ns, sys_ns;
	int status;    /* as from wait4 */
	int stopped;   /* the signal that stopped it (then killed), or 0 */
	pid_t group;   /* its process group (its first process's ID) */
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double tv_ns(struct timeval tv)
{
	return (double)tv.tv_sec * 1e9 + (double)tv.tv_usec * 1e3;
}

/*
 * In the child: a process group of its own (so that settle, asked to stop
 * or done with a run, ends the command and everything it started in that
 * group), the files, every CPU (settle pins itself), then exec.
 */
static void child(char *const argv[], const struct io *io)
{
	cpu_set_t all;

	setpgid(0, 0);
	CPU_ZERO(&all);
	for (int i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &all);
	sched_setaffinity(0, sizeof(all), &all);
	signal(SIGPIPE, SIG_DFL);
	dup2(io->null_fd, STDIN_FILENO);
	if (io->out_fd >= 0)
		dup2(io->out_fd, STDOUT_FILENO);
	else if (io->show)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	else
		dup2(io->null_fd, STDOUT_FILENO);
	if (!io->show)
		dup2(io->err_fd >= 0 ? io->err_fd : io->null_fd, STDERR_FILENO);
	execvp(argv[0], argv);
	_exit(127);
}

/* Empty the standard error file for the next run. */
static void reset_err(const struct io *io)
{
	if (io->err_fd < 0)
		return;
	if (ftruncate(io->err_fd, 0) == 0)
		lseek(io->err_fd, 0, SEEK_SET);
}

static pid_t start(char *const argv[], const struct io *io)
{
	pid_t pid = fork();

	if (pid == 0)
		child(argv, io);
	/* its group, to end when settle ends at once (it may ignore the
	 * SIGTERM that finish() sends); the child sets it too: either may
	 * run first */
	if (pid > 0) {
		setpgid(pid, pid);
		settle_group_set(pid);
	}
	return pid;
}

/*
 * Wait for the command's exit, then, with end_group, end what it left
 * running in its process group (a job put in the background), so that it
 * neither runs on into later runs' times nor outlives settle; the command
 * is reaped last, so that its process ID, the group's, cannot be reused
 * meanwhile. (--prepare's jobs are left: a server it starts may be what
 * the commands use.) A command that stops (SIGSTOP, SIGTSTP) would never
 * end: it is killed with its group, and r->stopped says by what signal.
 */
/* SIGTERM to pid's group (or pid alone, when it has none yet), and
 * SIGCONT: a stopped process acts on it once continued. Whether one was
 * sent. */
static int stop_group(pid_t pid)
{
	int sent = kill(-pid, SIGTERM) == 0 || kill(pid, SIGTERM) == 0;

	kill(-pid, SIGCONT);
	kill(pid, SIGCONT);
	return sent;
}

static int finish(pid_t pid, struct run *r, int end_group)
{
	struct rusage ru;
	siginfo_t info;
	int killed = 0, rc;
	pid_t w;

	r->stopped = 0;
	/* asked to stop (settle_interrupted), before the wait (settle
	 * stopped reading perf script's output) or during it: end the run
	 * now */
	if (settle_interrupted())
		killed = stop_group(pid);
	for (;;) {
		rc = waitid(P_PID, (id_t)pid, &info,
			    WEXITED | WSTOPPED | WNOWAIT);
		if (rc < 0 && errno == EINTR && settle_interrupted() &&
		    !killed)
			killed = stop_group(pid);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0 || info.si_code != CLD_STOPPED)
			break;
		r->stopped = info.si_status;
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		/* consume the stop, not waiting: it may have died already */
		waitid(P_PID, (id_t)pid, &info, WSTOPPED | WNOHANG);
	}
	if (rc == 0 && end_group)
		kill(-pid, SIGKILL);
	/* ended, or (--prepare) its jobs left running on purpose */
	settle_group_set(0);
	do
		w = wait4(pid, &r->status, 0, &ru);
	while (w < 0 && errno == EINTR);
	if (w != pid)
		return -1;
	r->user_ns = tv_ns(ru.ru_utime);
	r->sys_ns = tv_ns(ru.ru_stime);
	return 0;
}

/* Run argv to completion: wall time from before fork to after wait4;
 * end_group as for finish(). */
static int spawn(char *const argv[], const struct io *io, struct run *r,
		 int end_group)
{
	double t0;
	pid_t pid;

	reset_err(io);
	t0 = now_ns();
	pid = start(argv, io);
	r->group = pid;
	if (pid < 0 || finish(pid, r, end_group) < 0)
		return -1;
	r->wall_ns = now_ns() - t0;
	return 0;
}

/* "\n  | " and line p (n bytes) as shown: control characters (NUL too)
 * as '?', a line longer than 160 bytes as its start, " ... " and its end
 * (where a message often says what went wrong), cut at UTF-8 character
 * boundaries. */
static size_t show_line(const char *p, size_t n, char *buf, size_t len)
{
	size_t cut = n > 160 ? settle_utf8_start(p, 48) : n;
	size_t resume = n > 160 ? settle_utf8_start(p, n - 107) : n;
	size_t used;

	if (len < 8)
		return 0;
	used = (size_t)snprintf(buf, len, "\n  | ");
	for (size_t k = 0; k < n && used + 6 < len; k++) {
		unsigned char c;

		if (k == cut) { /* the start, " ... ", the end */
			used += (size_t)snprintf(buf + used, len - used,
						 " ... ");
			k = resume;
		}
		c = (unsigned char)p[k];
		buf[used++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	buf[used] = '\0';
	return used;
}

/* A line of text: not only white space and NUL bytes. */
static int text_line(const char *p, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!strchr(" \t\r", p[k]) && p[k] != '\0')
			return 1;
	return 0;
}

/*
 * The last TAIL_LINES lines of text of the standard error file, each
 * "\n  | ..." (show_line()), into buf; "" when it has none. Returns the
 * file's size in bytes (0: it wrote nothing).
 */
static off_t err_tail(const struct io *io, char *buf, size_t len)
{
	char raw[TAIL_BYTES];
	size_t at[TAIL_LINES], n_of[TAIL_LINES], nl = 0, used = 0, p = 0;
	struct stat st;
	off_t from;
	ssize_t n;

	buf[0] = '\0';
	if (io->err_fd < 0 || fstat(io->err_fd, &st) < 0 || st.st_size == 0)
		return 0;
	from = st.st_size > TAIL_BYTES ? st.st_size - TAIL_BYTES : 0;
	n = pread(io->err_fd, raw, TAIL_BYTES, from);
	if (n <= 0)
		return st.st_size;
	/* a partial first line is skipped, unless it is the only one */
	if (from > 0 && memchr(raw, '\n', (size_t)n - 1))
		p = (size_t)((char *)memchr(raw, '\n', (size_t)n - 1) - raw) + 1;
	while (p < (size_t)n) {
		char *e = memchr(raw + p, '\n', (size_t)n - p);
		size_t k = e ? (size_t)(e - raw) - p : (size_t)n - p;

		if (text_line(raw + p, k)) {
			if (nl == TAIL_LINES) {
				memmove(at, at + 1, --nl * sizeof(*at));
				memmove(n_of, n_of + 1, nl * sizeof(*n_of));
			}
			at[nl] = p;
			n_of[nl++] = k;
		}
		p += k + 1;
	}
	for (size_t i = 0; i < nl && used < len; i++)
		used += show_line(raw + at[i], n_of[i], buf + used,
				  len - used);
	return st.st_size;
}

/* What a failure says of the standard error file after "; ": its last
 * lines (tail), that it holds none of text, or that it is empty. */
static const char *err_said(off_t size, const char *tail, char *buf,
			    size_t len)
{
	if (tail[0])
		snprintf(buf, len, "; its standard error ended with:%s", tail);
	else if (size > 0)
		snprintf(buf, len, "; its standard error (%lld bytes) holds no "
			 "line of text", (long long)size);
	else
		snprintf(buf, len, "; it wrote nothing to standard error");
	return buf;
}

/* ---- a measurement in progress ---------------------------------------- */

struct cmdrun {
	struct settle_report *rep;
	const struct settle_command_set *s;
	struct settle_result *res;   /* s->n results, once all appended */
	size_t first, added;         /* where they start in rep, how many */
	struct io io;
	char *err;
	size_t errlen;
	unsigned char ran[SETTLE_CMD_MAX]; /* a run of command i exited 0 */
	char tmpdir[64];             /* for perf.data, or "" */
	const char *perf;            /* the perf program */
	char event[24];
	uint64_t period_ns;
	int chains;                  /* SETTLE_CHAINS_DWARF or _FP */
	int no_bpf;                  /* record with --no-bpf-event */
	/* processes --prepare left running on purpose (a server), which
	 * settle, the subreaper of the commands' orphans, leaves alone */
	pid_t kept[KEPT_MAX];
	size_t nkept;
};

enum phase { WARMUP, TIMED, PROFILED };

static const char *const phase_name[] = { "warm-up run", "run", "profiled run" };

static void progress(const struct cmdrun *m, size_t i, enum phase ph,
		     unsigned k, unsigned of)
{
	FILE *f = m->rep->options.progress;

	if (!f)
		return;
	fprintf(f, "\r\033[Kcommand %s: %s %u of %u", m->s->cmd[i].name,
		phase_name[ph], k, of);
	fflush(f);
}

static const char *signal_name(int sig)
{
	const char *s = strsignal(sig);

	return s ? s : "unknown signal";
}

/* Whether name reads as an environment variable's (upper case, digits
 * and _, not a digit first): --command 'LC_ALL=C sort f' named the
 * command LC_ALL, its text C sort f. */
static int env_like(const char *name)
{
	if (!*name || (*name >= '0' && *name <= '9'))
		return 0;
	for (const char *s = name; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return 0;
	return 1;
}

/*
 * What a run's status means: 0 fine (or a failure to ignore, counted in
 * *failed), else the exit status of settle, with the message in m->err.
 */
static int judge(struct cmdrun *m, size_t i, const struct run *r,
		 enum phase ph, size_t *failed)
{
	const struct settle_command *c = &m->s->cmd[i];
	char tail[TAIL_LINES * 170], how[64], said[TAIL_LINES * 170 + 80];
	int code = 1, st = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
	char shown[208];
	off_t size;

	if (st == 0) {
		m->ran[i] = 1;
		return 0;
	}
	size = err_tail(&m->io, tail, sizeof(tail));
	settle_elide(c->shell, 200, shown, sizeof(shown));
	if (r->stopped) { /* no time to measure, even with --ignore-failure */
		snprintf(m->err, m->errlen, "command '%s' (%s) was stopped "
			 "by signal %d (%s) in a %s%s and would not have ended: "
			 "settle killed it; a command must run to its end%s",
			 c->name, shown, r->stopped,
			 signal_name(r->stopped), phase_name[ph],
			 ph == PROFILED ? " under perf record" : "",
			 tail[0] ? err_said(size, tail, said, sizeof(said)) : "");
		return 1;
	}
	/* not found, or not executable: the shell's 127 and 126 with its
	 * message, or (its standard error not kept: --show-output) before
	 * any run ended well; a command that ran and then exits 127 itself has failed */
	if ((st == 127 || st == 126) &&
	    (m->io.show ? !m->ran[i] :
	     strstr(tail, st == 127 ? "not found" : "ermission denied") ||
	     (st == 126 && strstr(tail, "annot execute")))) {
		char hint[2 * SETTLE_CMD_NAME_MAX + 96] = "";

		/* --command 'LC_ALL=C sort f': the command 'LC_ALL' is C */
		if (st == 127 && env_like(c->name))
			snprintf(hint, sizeof(hint), " (to set %s for the "
				 "command, name it first: --command "
				 "'c=%s=...')", c->name, c->name);
		snprintf(m->err, m->errlen, "command '%s' (%s) %s (exit "
			 "status %d from %s)%s%s", c->name, shown,
			 st == 127 ? "was not found" : "cannot be executed", st,
			 ph == PROFILED ? "perf record" : SHELL, hint,
			 tail[0] ? err_said(size, tail, said, sizeof(said)) : "");
		return 2;
	}
	if (m->s->ignore_failure) {
		(*failed)++;
		return 0;
	}
	if (WIFEXITED(r->status))
		snprintf(how, sizeof(how), "exited with status %d",
			 WEXITSTATUS(r->status));
	else
		snprintf(how, sizeof(how), "was killed by signal %d (%s)",
			 WTERMSIG(r->status), signal_name(WTERMSIG(r->status)));
	snprintf(m->err, m->errlen, "command '%s' (%s) %s in a %s%s "
		 "(--ignore-failure measures it anyway)%s", c->name, shown,
		 how, phase_name[ph], ph == PROFILED ? " under perf record" : "",
		 m->io.show ? "; its output is above" :
		 err_said(size, tail, said, sizeof(said)));
	return code;
}

/* The parent process of pid, from /proc/PID/stat ("pid (comm) state
 * ppid pgrp ...", comm may hold blanks and parentheses), in *zombie
 * whether it has ended (state Z) and in *group its process group; -1 if
 * unreadable. */
static pid_t parent_of(pid_t pid, int *zombie, pid_t *group)
{
	char path[64], buf[512], *p, state;
	ssize_t n;
	int fd, ppid, pgrp;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
		return -1;
	*zombie = state == 'Z';
	*group = (pid_t)pgrp;
	return (pid_t)ppid;
}

static int kept(const struct cmdrun *m, pid_t pid)
{
	for (size_t i = 0; i < m->nkept; i++)
		if (m->kept[i] == pid)
			return 1;
	return 0;
}

/* Reap pid (-1: any child) as waitpid(pid, ..., flags) does, its CPU
 * time added to r's (r may be NULL). Returns what wait4 returns. */
static pid_t reap(pid_t pid, int flags, struct run *r)
{
	struct rusage ru;
	int status;
	pid_t w = wait4(pid, &status, flags, &ru);

	if (w > 0 && r) {
		r->user_ns += tv_ns(ru.ru_utime);
		r->sys_ns += tv_ns(ru.ru_stime);
	}
	return w;
}

/* Forget kept process pid, ended (the drain too). */
static void unkeep(struct cmdrun *m, pid_t pid)
{
	for (size_t i = 0; i < m->nkept; i++)
		if (m->kept[i] == pid)
			m->kept[i] = m->kept[--m->nkept];
	if (m->io.drain == pid)
		m->io.drain = 0;
}

/* Reap one child that has ended, if any: its CPU time added to r's
 * unless it is one settle keeps (a --prepare job, the drain), whose
 * lifetime is no run's. Returns its pid, or 0 / -1 when none. */
static pid_t reap_ended(struct cmdrun *m, struct run *r)
{
	siginfo_t info;

	info.si_pid = 0;
	if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 ||
	    info.si_pid <= 0)
		return 0;
	if (kept(m, info.si_pid)) {
		unkeep(m, info.si_pid);
		return reap(info.si_pid, 0, NULL);
	}
	return reap(info.si_pid, 0, r);
}

/*
 * The processes a run left running outside its process group, which the
 * end of the group (finish()) missed: a job that called setsid, a daemon.
 * settle is the subreaper of the commands (settle_run_commands()), so
 * that they become its children when their parent ends. With keep (after
 * --prepare) they are kept running; else ended and reaped, also what
 * they started meanwhile, and counted. Returns how many were ended. A
 * process still in group, the run's group that finish() killed, is not
 * one: it was in the group and is dying of SIGKILL, reparented to settle
 * before its end (a job "sleep 10 &" was counted as a daemon, 1 to 7 of
 * them from run to run); it is reaped. group 0: none was killed. The CPU
 * time of what it reaps is added to r's (r may be NULL): a job put in the
 * background ran beside the command, and perf sampled it (its 50 % of the
 * samples made a symbol's share of the run's own CPU time too small).
 */
static size_t orphans(struct cmdrun *m, int keep, pid_t group, struct run *r)
{
	size_t ended = 0, found;
	pid_t self = getpid();

	do {
		DIR *d = opendir("/proc");
		struct dirent *e;

		found = 0;
		while (d && (e = readdir(d))) {
			pid_t pid = (pid_t)atoi(e->d_name), pg = 0;
			int zombie = 0;

			if (pid <= 0 || parent_of(pid, &zombie, &pg) != self ||
			    kept(m, pid))
				continue;
			if (zombie) { /* ended by itself: nothing ran on */
				reap(pid, WNOHANG, r);
				continue;
			}
			if (group > 0 && pg == group) { /* being killed */
				kill(pid, SIGKILL); /* if finish() could not */
				reap(pid, 0, r);
				continue;
			}
			if (keep) {
				if (m->nkept < KEPT_MAX)
					m->kept[m->nkept++] = pid;
				continue;
			}
			kill(pid, SIGKILL);
			reap(pid, 0, r);
			ended++;
			found++;
		}
		if (d)
			closedir(d);
	} while (found); /* its children are settle's now */
	while (reap_ended(m, r) > 0)
		; /* orphans that ended by themselves */
	return ended;
}

/* --prepare, before a run of command i. */
static int prepare(struct cmdrun *m, size_t i)
{
	char *argv[] = { SHELL, "-c", (char *)m->s->prepare, NULL };
	char tail[TAIL_LINES * 170], said[TAIL_LINES * 170 + 80], shown[208];
	struct io io = m->io;
	struct run r;
	off_t size;

	if (settle_interrupted())
		return -2;
	if (!m->s->prepare)
		return 0;
	/* not into the drain: what --prepare leaves running (a server)
	 * outlives it */
	io.out_fd = -1;
	if (spawn(argv, &io, &r, 0) < 0) {
		snprintf(m->err, m->errlen, "cannot start %s: %s", SHELL,
			 strerror(errno));
		return 1;
	}
	orphans(m, 1, 0, NULL);
	if (settle_interrupted())
		return -2;
	if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)
		return 0;
	size = err_tail(&m->io, tail, sizeof(tail));
	snprintf(m->err, m->errlen, "the --prepare command (%s) failed "
		 "before a run of '%s': %s %d%s%s",
		 settle_elide(m->s->prepare, 200, shown, sizeof(shown)),
		 m->s->cmd[i].name, r.stopped ? "stopped by signal" :
		 WIFEXITED(r.status) ? "exit status" : "killed by signal",
		 r.stopped ? r.stopped : WIFEXITED(r.status) ?
		 WEXITSTATUS(r.status) : WTERMSIG(r.status),
		 r.stopped ? ", then killed by settle" : "",
		 m->io.show ? "" : err_said(size, tail, said, sizeof(said)));
	return 2;
}

/* One run of command i (after its --prepare): timed, warm-up or not. */
static int run_once(struct cmdrun *m, size_t i, enum phase ph, struct run *r)
{
	char *argv[] = { SHELL, "-c", (char *)m->s->cmd[i].shell, NULL };
	size_t failed = 0;
	int rc;

	if ((rc = prepare(m, i)))
		return rc;
	if (spawn(argv, &m->io, r, 1) < 0) {
		snprintf(m->err, m->errlen, "cannot start %s: %s", SHELL,
			 strerror(errno));
		return 1;
	}
	m->res[i].command->escaped += orphans(m, 0, r->group, r);
	if (settle_interrupted()) /* the run was cut short: not a sample */
		return -2;
	if ((rc = judge(m, i, r, ph, &failed)))
		return rc;
	if (ph == TIMED)
		m->res[i].command->failed += failed;
	else
		m->res[i].command->failed_untimed += failed;
	return 0;
}

static int warm_up(struct cmdrun *m)
{
	unsigned w = m->s->have_warmup ? m->s->warmup : SETTLE_WARMUP_DEFAULT;
	struct run r;
	int rc;

	for (size_t i = 0; i < m->s->n; i++)
		for (unsigned k = 0; k < w; k++) {
			progress(m, i, WARMUP, k + 1, w);
			if ((rc = run_once(m, i, WARMUP, &r)))
				return rc;
		}
	return 0;
}

/* Round k runs every command once, in the row settle_round_order() gives
 * round round_first + k (round_first: --processes). */
static int rounds(struct cmdrun *m, unsigned ns)
{
	size_t n = m->s->n;
	struct run r;
	int rc;

	for (unsigned k = 0; k < ns; k++)
		for (size_t j = 0; j < n; j++) {
			size_t i = settle_round_order(
				n, m->rep->options.round_first + k, j);
			struct settle_result *res = &m->res[i];
			struct settle_command_data *d = res->command;

			progress(m, i, TIMED, k + 1, ns);
			if ((rc = run_once(m, i, TIMED, &r)))
				return rc;
			res->samples_ns[res->nsamples++] = r.wall_ns;
			d->user_ns[d->n] = r.user_ns;
			d->sys_ns[d->n] = r.sys_ns;
			d->n++;
		}
	return 0;
}

/* ---- perf ------------------------------------------------------------- */

/* An executable regular file (a directory is "executable" too). */
static int executable(const char *path)
{
	struct stat st;

	return access(path, X_OK) == 0 && stat(path, &st) == 0 &&
	       S_ISREG(st.st_mode);
}

/* Is prog an executable file, or one on PATH? */
static int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(prog, '/'))
		return executable(prog);
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(len ? len : 1),
			 len ? path : ".", prog);
		if (executable(buf))
			return 1;
		path += len + (path[len] == ':');
	}
	return 0;
}

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* perf record's arguments for a run of shell into file. */
static void record_argv(const struct cmdrun *m, const char *shell,
			const char *file, char *period, size_t plen,
			char **argv)
{
	size_t n = 0;

	snprintf(period, plen, "%llu", (unsigned long long)m->period_ns);
	argv[n++] = (char *)m->perf;
	argv[n++] = "record";
	argv[n++] = "-q";
	argv[n++] = "-e";
	argv[n++] = (char *)m->event;
	argv[n++] = "-c";
	argv[n++] = period;
	if (m->chains == SETTLE_CHAINS_DWARF) {
		argv[n++] = "--call-graph";
		argv[n++] = "dwarf," SETTLE_STR(SETTLE_CHAINS_STACK);
	} else {
		argv[n++] = "-g";
	}
	if (m->no_bpf)
		argv[n++] = "--no-bpf-event";
	argv[n++] = "-o";
	argv[n++] = (char *)file;
	argv[n++] = "--";
	argv[n++] = SHELL;
	argv[n++] = "-c";
	argv[n++] = (char *)shell;
	argv[n] = NULL;
}

/* What the probe tries, in order: the first that records is used. */
static const struct {
	int chains, no_bpf;
} probe_tries[] = {
	{ SETTLE_CHAINS_DWARF, 1 }, { SETTLE_CHAINS_FP, 1 },
	{ SETTLE_CHAINS_DWARF, 0 }, { SETTLE_CHAINS_FP, 0 },
};

/*
 * Can perf sample here? A probe records `true`; perf missing, not
 * permitted or failing is exit status 2, said with perf's own words.
 */
static int perf_probe(struct cmdrun *m)
{
	char file[96], period[24], *argv[20], tail[TAIL_LINES * 170];
	int par = paranoid(), started;
	struct run r;

	m->perf = getenv("SETTLE_PERF") && *getenv("SETTLE_PERF") ?
		  getenv("SETTLE_PERF") : "perf";
	if (!on_path(m->perf)) {
		snprintf(m->err, m->errlen, "--share needs perf, and '%s' is "
			 "not installed: sudo apt-get install -y linux-perf "
			 "(Debian), or set SETTLE_PERF to the perf program",
			 m->perf);
		return 2;
	}
	snprintf(m->event, sizeof(m->event), "%s", geteuid() != 0 && par >= 2 ?
		 "cpu-clock:u" : "cpu-clock");
	m->period_ns = PERIOD_MIN_NS;
	snprintf(m->tmpdir, sizeof(m->tmpdir), "%s/settle-perf-XXXXXX",
		 getenv("TMPDIR") && strlen(getenv("TMPDIR")) < 40 &&
		 *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(m->tmpdir)) {
		snprintf(m->err, m->errlen, "cannot make a directory for "
			 "perf's data (%s): %s", m->tmpdir, strerror(errno));
		m->tmpdir[0] = '\0';
		return 2;
	}
	settle_temp_add(m->tmpdir, 1);
	snprintf(file, sizeof(file), "%s/probe.data", m->tmpdir);
	settle_temp_add(file, 0);
	/* DWARF call chains where this perf can record them, else frame
	 * pointers (a perf built without an unwinder refuses dwarf); and
	 * without the BPF side-band thread where this perf knows the option
	 * (perf 5.1 on): perf 6.1's thread waited out a poll of 1 s at the
	 * end of every record, 0.8 s of the 1.1 s a record of `true` took */
	for (size_t t = 0; t < sizeof(probe_tries) / sizeof(probe_tries[0]); t++) {
		m->chains = probe_tries[t].chains;
		m->no_bpf = probe_tries[t].no_bpf;
		record_argv(m, "true", file, period, sizeof(period), argv);
		started = spawn(argv, &m->io, &r, 1) == 0;
		if (started && WIFEXITED(r.status) &&
		    WEXITSTATUS(r.status) == 0 && access(file, R_OK) == 0) {
			unlink(file);
			settle_temp_forget(file);
			return 0;
		}
		unlink(file);
		if (!started || settle_interrupted())
			break;
	}
	settle_temp_forget(file);
	if (settle_interrupted())
		return -2;
	if (!started) {
		snprintf(m->err, m->errlen, "--share: cannot start %s: %s",
			 m->perf, strerror(errno));
		return 2;
	}
	if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0) {
		snprintf(m->err, m->errlen, "--share: '%s record' exited 0 "
			 "but wrote no data file: is it perf? (SETTLE_PERF "
			 "names the perf program)", m->perf);
		return 2;
	}
	err_tail(&m->io, tail, sizeof(tail));
	/* the sysctl only where perf said it was refused access */
	if (strstr(tail, "paranoid") || strstr(tail, "ermission") ||
	    strstr(tail, "not permitted") || strstr(tail, "EACCES"))
		snprintf(m->err, m->errlen, "--share: perf cannot sample here "
			 "(kernel.perf_event_paranoid is %d%s); perf record "
			 "%s%s%s", par, par > 1 ? "; as root: sysctl "
			 "kernel.perf_event_paranoid=1" : "",
			 WIFEXITED(r.status) ? "failed" : "was killed",
			 tail[0] ? ", saying:" : "", tail);
	else
		snprintf(m->err, m->errlen, "--share: '%s record' of a probe "
			 "run %s (is it perf? SETTLE_PERF names the perf "
			 "program)%s%s", m->perf, WIFEXITED(r.status) ?
			 "failed" : "was killed",
			 tail[0] ? "; it said:" : "", tail);
	return 2;
}

/* Read perf script's output from fd into the parser. */
static int read_script(int fd, struct settle_perf_parser *p)
{
	FILE *f = fdopen(fd, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f) {
		close(fd);
		return -1;
	}
	while (getline(&line, &cap, f) > 0)
		settle_perf_parse_line(p, line);
	free(line);
	fclose(f);
	settle_perf_parser_finish(p);
	return 0;
}

/* What one profiled run gave: the counts, and per symbol a file of its
 * code whose inlined functions perf may not name ("": none). */
struct profiled {
	struct settle_perf_count c;
	char no_debug[SETTLE_SHARE_MAX][SETTLE_DSO_NAME];
};

static void no_debug_file(const struct settle_perf_parser *p, size_t k,
			  char *out, size_t len);

/* Count the samples of file, a run of command i, into pc. */
static int count_samples(struct cmdrun *m, size_t i, const char *file,
			 struct profiled *pc)
{
	char *argv[] = { (char *)m->perf, "script", "-i", (char *)file, "-F",
			 "comm,tid,period,ip,sym,dso", NULL };
	char tail[TAIL_LINES * 170];
	struct settle_perf_parser p;
	struct io io = m->io;
	struct run r;
	int fds[2], waited;
	pid_t pid;

	settle_perf_parser_init(&p, m->s->share, m->s->nshare);
	settle_perf_parser_tids(&p);
	settle_perf_parser_addresses(&p);
	/* close-on-exec: perf script itself held the read end open, so
	 * that once settle stopped reading (interrupted) it blocked writing
	 * for ever, and settle waited 10 s for it */
	if (pipe2(fds, O_CLOEXEC) < 0)
		return 1;
	io.out_fd = fds[1];
	io.show = 0;
	reset_err(&io);
	pid = start(argv, &io);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		snprintf(m->err, m->errlen, "cannot start %s: %s", m->perf,
			 strerror(errno));
		return 1;
	}
	read_script(fds[0], &p);
	waited = finish(pid, &r, 1);
	if (settle_interrupted()) {
		settle_perf_parser_free(&p);
		return -2;
	}
	if (waited < 0 || !WIFEXITED(r.status) ||
	    WEXITSTATUS(r.status) != 0 || (p.count.samples == 0 &&
					   p.count.malformed > 0)) {
		settle_perf_parser_free(&p);
		err_tail(&io, tail, sizeof(tail));
		snprintf(m->err, m->errlen, "--share: perf script could not "
			 "read the samples of '%s'%s%s", m->s->cmd[i].name,
			 tail[0] ? ", saying:" : "", tail);
		return 2;
	}
	pc->c = p.count;
	for (size_t k = 0; k < m->s->nshare && k < SETTLE_SHARE_MAX; k++)
		no_debug_file(&p, k, pc->no_debug[k], sizeof(pc->no_debug[k]));
	settle_perf_parser_free(&p);
	return 0;
}

/* Whether perf showed an inlined frame in file (it reads the file's
 * inlined code: a debug link settle does not follow, say). */
static int inline_shown(const struct settle_perf_count *c, const char *file)
{
	for (size_t j = 0; j < SETTLE_PERF_INLINE_DSOS && c->inline_dso[j][0];
	     j++)
		if (!strcmp(c->inline_dso[j], file))
			return 1;
	return 0;
}

/*
 * Whether perf reads the inlined functions of the code sampled in file:
 * its DWARF (settle_has_debug_info()) covers every address sampled there
 * (a program linked from objects with and without -g has DWARF, not for
 * all of its code: work() inlined in one built without -g read about
 * 22 % of what took 90 %, settled), or, where settle finds no DWARF,
 * perf showed inlined frames in it (a debug link settle does not follow).
 */
static int debug_readable(const struct settle_perf_parser *p,
			  const char *file)
{
	const struct settle_perf_file *f = settle_perf_parser_file(p, file);

	/* the DWARF read once where it covers (the common case) */
	if (f && !f->lost &&
	    settle_debug_covers(file, "/usr/lib/debug", f->addr, f->n))
		return 1;
	return inline_shown(&p->count, file) && !settle_has_debug_info(file);
}

/*
 * A file perf named symbol k's frames in (c->dso[k]) for which settle finds
 * no debug information, into out (len bytes), or "". Without it perf
 * names a sample in a copy of the symbol inlined into a caller after the
 * caller: a helper's work(), inlined for three quarters of its calls in a
 * program built without -g, read 11.98 %, a third of what it saved.
 */
static void no_debug_file(const struct settle_perf_parser *p, size_t k,
			  char *out, size_t len)
{
	const struct settle_perf_count *c = &p->count;

	out[0] = '\0';
	for (size_t j = 0; j < SETTLE_PERF_DSOS && c->dso[k][j][0]; j++)
		if (!debug_readable(p, c->dso[k][j])) {
			snprintf(out, len, "%s", c->dso[k][j]);
			return;
		}
	if (c->dso_more[k])
		snprintf(out, len, "a file settle did not check (more than "
			 "%d, or a name of %d bytes or more)",
			 SETTLE_PERF_DSOS, SETTLE_PERF_DSO_LEN);
	else if (c->dso_unplaced[k])
		snprintf(out, len, "a file perf did not name (that of a "
			 "function a copy of it was inlined into)");
}

/* The counts of one profiled run into command data d. */
static void add_counts(struct settle_command_data *d,
		       const struct profiled *pc)
{
	const struct settle_perf_count *c = &pc->c;

	d->samples += c->samples;
	d->any += c->any;
	d->cut += c->cut;
	d->unnamed += c->unnamed;
	if (c->busy_threads > d->busy_threads)
		d->busy_threads = c->busy_threads < SETTLE_THREADS_MAX + 1 ?
				  c->busy_threads : SETTLE_THREADS_MAX + 1;
	for (size_t k = 0; k < d->nshare; k++)
		settle_share_count_add(&d->share[k], c->self[k],
				       c->children[k], c->impl[k],
				       c->impl_name[k], pc->no_debug[k]);
	d->profiled_runs++;
}

/*
 * More than a tenth of its DWARF chains fell back to frame pointers: a
 * run to profile again. perf 6.1 unwound whole runs of a command started
 * by a shell so, at random (one in two to three in five; a run it unwinds
 * well has a few chains cut, 0.1-0.5 % of them). In a helper's runs of
 * sort, whose time is mostly in a leaf (memcmp), such a run cut 98 % of
 * its chains, 34-42 % of them ending at the fallback's mark: "most"
 * missed them. Decided by the fallback's mark, not by the chains cut:
 * those may be the symbol's own (a stack deeper than the copy), and a
 * choice by their number would pick the runs with fewer of its samples.
 */
static int fell_back(const struct cmdrun *m,
		     const struct settle_perf_count *c)
{
	return m->chains == SETTLE_CHAINS_DWARF &&
	       c->fell_back * 10 > c->samples;
}

/* One run of command i (after its --prepare) under perf record into
 * file, its samples counted into c. */
static int record_once(struct cmdrun *m, size_t i, const char *file,
		       size_t *failed, struct profiled *c)
{
	char period[24], *argv[20];
	struct run r;
	int rc;

	if ((rc = prepare(m, i)))
		return rc;
	record_argv(m, m->s->cmd[i].shell, file, period, sizeof(period), argv);
	settle_temp_add(file, 0);
	if (spawn(argv, &m->io, &r, 1) < 0) {
		snprintf(m->err, m->errlen, "cannot start %s: %s", m->perf,
			 strerror(errno));
		rc = 1;
	} else {
		m->res[i].command->escaped += orphans(m, 0, r.group, &r);
		if (settle_interrupted())
			rc = -2;
		else if (!(rc = judge(m, i, &r, PROFILED, failed)))
			rc = count_samples(m, i, file, c);
	}
	unlink(file);
	settle_temp_forget(file);
	return rc;
}

/* One profiled run of command i, again while fell_back(), at most
 * PROFILE_TRIES tries: the first that did not fall back is kept, or the
 * first of all (a fixed choice, whatever the counts). */
static int profile_run(struct cmdrun *m, size_t i, const char *file,
		       size_t *failed)
{
	static struct profiled c, first; /* 2 x 70 KB: off the stack */
	int rc = 0;

	for (unsigned t = 0; t < PROFILE_TRIES; t++) {
		if ((rc = record_once(m, i, file, failed, &c)))
			return rc;
		if (!t)
			first = c;
		if (!fell_back(m, &c.c)) {
			add_counts(m->res[i].command, &c);
			m->res[i].command->profiled_again += t;
			return 0;
		}
	}
	add_counts(m->res[i].command, &first);
	m->res[i].command->profiled_again += PROFILE_TRIES - 1;
	return 0;
}

/* CPU time per sample: 100 us, or more for a command so long that a run
 * would give over SAMPLES_PER_RUN samples, SAMPLES_PER_RUN_DWARF with
 * DWARF call chains (in steps of 100 us). */
static uint64_t choose_period(const struct cmdrun *m)
{
	double most = 0;

	for (size_t i = 0; i < m->s->n; i++) {
		const struct settle_command_data *d = m->res[i].command;
		double *cpu = malloc((d->n + 1) * sizeof(*cpu));
		double med;

		if (!cpu)
			continue;
		for (size_t k = 0; k < d->n; k++)
			cpu[k] = d->user_ns[k] + d->sys_ns[k];
		med = settle_median_inplace(cpu, d->n);
		free(cpu);
		most = med > most ? med : most;
	}
	most /= m->chains == SETTLE_CHAINS_DWARF ? SAMPLES_PER_RUN_DWARF :
		SAMPLES_PER_RUN;
	if (most <= PERIOD_MIN_NS)
		return PERIOD_MIN_NS;
	return (uint64_t)ceil(most / PERIOD_MIN_NS) * PERIOD_MIN_NS;
}

/* Profiled runs, in rounds like the timed ones. */
static int profile(struct cmdrun *m, unsigned np)
{
	size_t n = m->s->n;
	char file[96];
	size_t failed = 0;
	int rc;

	m->period_ns = choose_period(m);
	for (size_t i = 0; i < n; i++) {
		struct settle_command_data *d = m->res[i].command;

		memcpy(d->event, m->event, sizeof(d->event));
		d->period_ns = m->period_ns;
		d->call_chains = m->chains;
		d->counted = 1;
	}
	snprintf(file, sizeof(file), "%s/run.data", m->tmpdir);
	for (unsigned k = 0; k < np; k++)
		for (size_t j = 0; j < n; j++) {
			size_t i = settle_round_order(
				n, m->rep->options.round_first + k, j);

			progress(m, i, PROFILED, k + 1, np);
			failed = 0;
			if ((rc = profile_run(m, i, file, &failed)))
				return rc;
			m->res[i].command->failed_untimed += failed;
		}
	return 0;
}

/* ---- the whole measurement -------------------------------------------- */

static int add_results(struct cmdrun *m, unsigned ns)
{
	struct settle_report *rep = m->rep;
	const struct settle_claim_info *c = command_claim(rep, m->s);

	m->first = rep->nresults;
	for (size_t i = 0; c && i < m->s->n; i++) {
		/* earlier result pointers may move while appending */
		struct settle_result *r = settle_report_append(rep, c,
					m->s->cmd[i].name, NULL, NULL, 0,
					NULL, 0, 0);

		if (!r)
			return -1;
		m->added++;
		r->iters = r->ops_per_sample = 1;
		r->samples_ns = calloc(ns, sizeof(double));
		r->command = settle_command_data_new(m->s->cmd[i].shell,
						     m->s->prepare);
		if (!r->samples_ns || !r->command ||
		    settle_command_data_reserve(r->command, ns) < 0)
			return -1;
		r->command->warmup = m->s->have_warmup ? m->s->warmup :
				     SETTLE_WARMUP_DEFAULT;
		r->command->stdout_pipe = m->s->stdout_pipe;
		for (size_t k = 0; k < m->s->nshare; k++)
			if (settle_command_data_add_symbol(r->command,
							   m->s->share[k]) < 0)
				return -1;
	}
	if (!c)
		return -1;
	m->res = &rep->results[m->first];
	return 0;
}

/* Take the results of the commands out of rep again (a failed run). */
static void drop_results(struct cmdrun *m)
{
	struct settle_report *rep = m->rep;

	for (size_t i = m->first; i < m->first + m->added; i++) {
		free(rep->results[i].samples_ns);
		settle_command_data_free(rep->results[i].command);
	}
	rep->nresults = m->first;
	m->res = NULL;
	m->added = 0;
}

/*
 * --stdout pipe: a pipe for the commands' standard output, and a process
 * that reads it and discards what it reads (a program writing to
 * /dev/null may notice and skip the work: GNU tar then reads no file's
 * contents). It is settle's child, kept (orphans() leaves it alone), and
 * pinned where settle is; the commands are not. It holds nothing of
 * settle's but the pipe (standard input, output and error /dev/null: a
 * pipe settle writes to ends with settle), ignores the signals that stop
 * settle, which kills it once done, and dies with settle.
 */
static int open_drain(struct cmdrun *m)
{
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		static char buf[65536];

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(0);
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		for (int fd = 0; fd < 3; fd++)
			dup2(m->io.null_fd, fd);
		for (int fd = 3; fd < 1024; fd++)
			if (fd != fds[0])
				close(fd);
		for (;;) {
			ssize_t n = read(fds[0], buf, sizeof(buf));

			if (n == 0 || (n < 0 && errno != EINTR))
				_exit(0);
		}
	}
	close(fds[0]);
	if (pid < 0) {
		close(fds[1]);
		return -1;
	}
	m->io.out_fd = fds[1];
	m->io.drain = pid;
	m->kept[m->nkept++] = pid;
	return 0;
}

static int open_io(struct cmdrun *m)
{
	char path[96];
	const char *t = getenv("TMPDIR");

	m->io.out_fd = -1;
	m->io.err_fd = -1;
	m->io.drain = 0;
	m->io.show = m->s->show_output;
	m->io.null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (m->io.null_fd < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/settle-stderr-XXXXXX",
		 t && *t && strlen(t) < 60 ? t : "/tmp");
	m->io.err_fd = mkostemp(path, O_CLOEXEC);
	if (m->io.err_fd < 0)
		return -1;
	unlink(path);
	return m->s->stdout_pipe ? open_drain(m) : 0;
}

static void close_io(struct cmdrun *m)
{
	if (m->io.null_fd >= 0)
		close(m->io.null_fd);
	if (m->io.err_fd >= 0)
		close(m->io.err_fd);
	if (m->io.out_fd >= 0)
		close(m->io.out_fd);
	if (m->io.drain > 0) { /* a job left running may hold the pipe */
		kill(m->io.drain, SIGKILL);
		waitpid(m->io.drain, NULL, 0);
	}
	if (m->tmpdir[0]) {
		rmdir(m->tmpdir);
		settle_temp_forget(m->tmpdir);
	}
}

int settle_run_commands(struct settle_report *rep,
			const struct settle_command_set *s, char *err,
			size_t errlen)
{
	struct cmdrun m = { .rep = rep, .s = s, .io = { -1, -1, 0, -1, 0 },
			    .err = err, .errlen = errlen };
	unsigned ns = rep->options.samples ? rep->options.samples : 1;
	int rc = 1;

	if (s->n == 0) {
		snprintf(err, errlen, "no --command to measure");
		return 2;
	}
	if (open_io(&m) < 0) {
		snprintf(err, errlen, "cannot open /dev/null, a temporary "
			 "file in %s (TMPDIR)%s: %s", settle_tmpdir(),
			 s->stdout_pipe ? " or the --stdout pipe" : "",
			 strerror(errno));
		close_io(&m);
		return 2;
	}
	/* a sample is one run, however long: no minimum sample time */
	rep->options.min_sample_ns = 0;
	/* what a run leaves outside its group becomes settle's (orphans()) */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (s->nshare && (rc = perf_probe(&m)))
		goto out;
	rc = 1;
	if (add_results(&m, ns) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if ((rc = warm_up(&m)) || (rc = rounds(&m, ns)) ||
	    (s->nshare && (rc = profile(&m, ns))))
		goto out;
	settle_report_analyze(rep, m.first, m.first + s->n);
	rc = 0;
out:
	if (rep->options.progress)
		fprintf(rep->options.progress, "\r\033[K");
	if (rc == -2)
		snprintf(err, errlen, "interrupted");
	if (rc)
		drop_results(&m);
	close_io(&m);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	return rc;
}
