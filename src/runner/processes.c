/*
 * processes.c - replication in fresh processes. Code layout, address-space
 * randomisation and the allocator's state differ from process to process,
 * so a difference that one process shows may not survive the next; the
 * process, not the round, is then the unit of replication. settle runs
 * itself N times, one process after another (never two at once: they would
 * compete for the CPUs), and pools the result files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/model.h"
#include "settle.h"

/* Run exe argv with stdout to /dev/null; returns its exit status or -1. */
static int spawn(const char *exe, char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execv(exe, argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
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

int settle_run_processes(const char *exe, char **argv, int last,
			 unsigned nproc, double band, struct settle_report *rep,
			 char *err, size_t errlen)
{
	char dir[] = "/tmp/settle-proc-XXXXXX", file[64];
	int rc = -1;

	memset(rep, 0, sizeof(*rep));
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "cannot make a temporary directory: %s",
			 strerror(errno));
		return -1;
	}
	for (unsigned p = 0; p < nproc; p++) {
		int st;

		snprintf(file, sizeof(file), "%s/p%u.json", dir, p);
		argv[last] = file;
		st = spawn(exe, argv);
		if (st != 0) {
			snprintf(err, errlen, "process %u of %u failed (exit "
				 "status %d)", p + 1, nproc, st);
			goto out;
		}
		if (p == 0 ? settle_load_json(file, band, rep, err, errlen) :
			     pool(rep, file, band, err, errlen))
			goto out;
		unlink(file);
	}
	rep->options.processes = nproc;
	rep->options.samples *= nproc;
	settle_report_analyze(rep, 0, rep->nresults);
	rc = 0;
out:
	if (rc)
		unlink(file);
	rmdir(dir);
	return rc;
}
