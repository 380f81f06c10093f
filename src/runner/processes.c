/*
 * processes.c - replication in fresh processes. Code layout, address-space
 * randomisation and the allocator's state differ from process to process,
 * so a difference that one process shows may not survive the next; the
 * process, not the round, is then the unit of replication. settle runs
 * itself N times, one process after another (never two at once: they would
 * compete for the CPUs), and pools the result files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/model.h"
#include "runner/runner.h"
#include "settle.h"
#include "util/util.h"

/* Which process of how many is being waited for. */
struct which {
	unsigned p, nproc;
};

/* It stopped (a claim's raise(SIGSTOP)): said, as settle waits. */
static void said_stopped(pid_t pid, int sig, void *arg)
{
	const struct which *w = arg;

	fprintf(stderr, "settle: process %u of %u (pid %ld) is stopped "
		"(signal %d, %s: sent by itself or by another program); "
		"settle waits until it continues (kill -CONT %ld) or settle "
		"is interrupted\n", w->p + 1, w->nproc, (long)pid, sig,
		strsignal(sig), (long)pid);
}

/* Run exe argv, process p of nproc, with stdout to /dev/null; returns its
 * exit status or -1. It ends with settle (a claim that stopped it was
 * left stopped for ever by an interrupted settle), and settle says when
 * it is stopped (it waited without a word). */
static int spawn(const char *exe, char **argv, unsigned p, unsigned nproc)
{
	struct settle_spawn_opts o = {
		SETTLE_SPAWN_INHERIT, SETTLE_SPAWN_NULL, SETTLE_SPAWN_INHERIT,
		-1, NULL, NULL, NULL, SIGKILL,
	};
	struct which w = { p, nproc };
	pid_t pid;

	argv[0] = (char *)exe;
	pid = settle_spawn(argv, &o);
	return pid < 0 ? -1 : settle_wait_stoppable(pid, said_stopped, &w);
}

/* Why process p of nproc failed, from its exit status st (settle_wait():
 * 128 + the signal that ended it, the shell's way). */
static void failed(char *err, size_t errlen, unsigned p, unsigned nproc,
		   int st)
{
	const char *sig = st > 128 && st < 128 + NSIG ? strsignal(st - 128) :
			  NULL;

	if (st < 0)
		snprintf(err, errlen, "process %u of %u could not be started: "
			 "%s", p + 1, nproc, strerror(errno));
	else if (sig)
		snprintf(err, errlen, "process %u of %u failed (exit status "
			 "%d: ended by signal %d, %s)", p + 1, nproc, st,
			 st - 128, sig);
	else
		snprintf(err, errlen, "process %u of %u failed (exit status "
			 "%d)", p + 1, nproc, st);
}

/* Everything in dir (an interrupted child may leave its own temporary
 * file beside the result file it did not finish). */
static void remove_all(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[8192];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     e->d_name) < sizeof(path))
			unlink(path);
	if (d)
		closedir(d);
}

static int pool(struct settle_report *rep, const char *file, double band,
		char *err, size_t errlen)
{
	struct settle_report more;
	int rc;

	if (settle_load_json(file, band, &more, err, errlen) < 0)
		return -1;
	rc = settle_report_pool(rep, &more, err, errlen);
	settle_report_free(&more);
	return rc;
}

/* The slots of the children's argv that run_processes() fills in. */
enum { SLOT_OUTPUT = 7, SLOT_LAYOUT = 9, SLOT_ROUND = 11 };

static int run_processes(const char *exe, char **argv,
			 const struct settle_options *o,
			 struct settle_report *rep, char *err, size_t errlen)
{
	char dir[4096], file[4200], first[16], round[32];
	unsigned nproc = o->processes, layouts = o->layouts;
	int rc = -1;

	memset(rep, 0, sizeof(*rep));
	if ((size_t)snprintf(dir, sizeof(dir), "%s/settle-proc-XXXXXX",
			     settle_tmpdir()) >= sizeof(dir)) {
		snprintf(err, errlen, "cannot make a temporary directory: "
			 "its name would be too long (TMPDIR)");
		return -3;
	}
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "cannot make a temporary directory in "
			 "%s (TMPDIR): %s", settle_tmpdir(), strerror(errno));
		return -3;
	}
	settle_temp_add(dir, 1);
	for (unsigned p = 0; p < nproc; p++) {
		int st;

		snprintf(file, sizeof(file), "%s/p%u.json", dir, p);
		settle_temp_add(file, 0);
		argv[SLOT_OUTPUT] = file;
		/* process p measures its layouts from layout p on, so that
		 * each layout comes first, second, ... equally often */
		snprintf(first, sizeof(first), "%u", layouts > 1 ?
			 p % layouts : 0);
		argv[SLOT_LAYOUT] = first;
		/* and its rounds from round p x rounds of the design on: who
		 * runs after whom is balanced over the design's period (2n
		 * rounds for n variants, n odd), longer than one process's
		 * rounds when there are many variants; each process repeating
		 * the start would repeat its imbalance, which pooling cannot
		 * average out */
		snprintf(round, sizeof(round), "%lu", (unsigned long)p *
			 settle_rounds_per_process(o));
		argv[SLOT_ROUND] = round;
		st = spawn(exe, argv, p, nproc);
		if (settle_interrupted()) {
			snprintf(err, errlen, "interrupted");
			rc = -2;
			goto out;
		}
		/* 1: the run was whole but a result is invalid; the pool
		 * keeps that process's evidence (settle_report_pool) */
		if (st != 0 && (st != 1 || access(file, R_OK) != 0)) {
			failed(err, errlen, p, nproc, st);
			goto out;
		}
		if (access(file, R_OK) != 0) { /* not settle's own exit */
			snprintf(err, errlen, "process %u of %u ended (exit "
				 "status 0) without writing its results: "
				 "something it ran ended it (a claim's "
				 "exit_group system call?)", p + 1, nproc);
			goto out;
		}
		if (p == 0 ? settle_load_json(file, o->band, rep, err,
					      errlen) :
			     pool(rep, file, o->band, err, errlen))
			goto out;
		unlink(file);
		settle_temp_forget(file);
	}
	rep->options.processes = nproc;
	rep->options.samples *= nproc;
	rep->source[0] = '\0'; /* measured here, not read: the pool of
				  * temporary files that are gone */
	snprintf(rep->order, sizeof(rep->order), "%s%s", SETTLE_ROUND_ORDER,
		 SETTLE_ROUND_ORDER_PROCESSES);
	settle_report_analyze(rep, 0, rep->nresults);
	rc = 0;
out:
	if (rc) {
		if (rep->owned)
			settle_report_free(rep);
		remove_all(dir);
	}
	settle_temp_forget(file);
	rmdir(dir);
	settle_temp_forget(dir);
	return rc;
}

/* Options that settle_run_in_processes() sets itself for each child. */
static int child_drops(const char *arg, int *skip_value)
{
	static const char *const with_value[] = { "--processes", "--format",
						  "--output", "--layout-first",
						  "--round-first" };

	*skip_value = 0;
	if (!strncmp(arg, "-o", 2)) { /* -o FILE, -oFILE: --output's */
		*skip_value = arg[2] == '\0';
		return 1;
	}
	for (size_t i = 0; i < 5; i++) {
		size_t n = strlen(with_value[i]);

		if (!strcmp(arg, with_value[i])) {
			*skip_value = 1;
			return 1;
		}
		if (!strncmp(arg, with_value[i], n) && arg[n] == '=')
			return 1;
	}
	return 0;
}

int settle_run_in_processes(int argc, char **argv,
			    const struct settle_options *o,
			    struct settle_report *rep, char *err,
			    size_t errlen)
{
	char **cargv = calloc((size_t)argc + 14, sizeof(*cargv));
	int cpu = o->cpu;
	int n = 0, skip, rc;

	if (!cargv) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!settle_cpu_allowed(cpu)) {
		free(cargv);
		snprintf(err, errlen, "cannot pin to CPU %d: not one of the "
			 "CPUs settle was allowed (its affinity at start)", cpu);
		return -1;
	}
	/* settle's own options first, so that a "--" among the user's
	 * arguments cannot swallow them */
	cargv[n++] = "/proc/self/exe";
	cargv[n++] = "run";
	cargv[n++] = "--processes";
	cargv[n++] = "1";
	cargv[n++] = "--format";
	cargv[n++] = "json";
	cargv[n++] = "--output";
	cargv[n++] = "-"; /* SLOT_OUTPUT: a file per process */
	cargv[n++] = "--layout-first";
	cargv[n++] = "0"; /* SLOT_LAYOUT: the process's first layout */
	cargv[n++] = "--round-first";
	cargv[n++] = "0"; /* SLOT_ROUND: its first row of the design */
	for (int i = 1; i < argc; i++) {
		if (child_drops(argv[i], &skip)) {
			i += skip;
			continue;
		}
		cargv[n++] = argv[i];
	}
	cargv[n] = NULL;
	rc = run_processes("/proc/self/exe", cargv, o, rep, err, errlen);
	free(cargv);
	return rc;
}
