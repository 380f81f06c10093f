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

#include "settle.h"
#include "runner/command.h"

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

/* Same claim, variant, size, build and parameters, in the same order. */
static int same_layout(const struct settle_report *a,
		       const struct settle_report *b)
{
	if (a->nresults != b->nresults)
		return 0;
	for (size_t i = 0; i < a->nresults; i++) {
		const struct settle_result *x = &a->results[i], *y = &b->results[i];

		if (strcmp(x->claim->name, y->claim->name) ||
		    strcmp(x->variant->name, y->variant->name) ||
		    x->size_bytes != y->size_bytes ||
		    !settle_variant_same_group(x->variant, y->variant))
			return 0;
	}
	return 1;
}

static int append_samples(struct settle_result *dst,
			  const struct settle_result *src)
{
	double *p;

	if (dst->command && src->command &&
	    settle_command_data_pool(dst->command, src->command) < 0)
		return -1;
	p = realloc(dst->samples_ns, (dst->nsamples + src->nsamples + 1) *
		    sizeof(*p));
	if (!p)
		return -1;
	memcpy(p + dst->nsamples, src->samples_ns, src->nsamples * sizeof(*p));
	dst->samples_ns = p;
	dst->nsamples += src->nsamples;
	dst->below_resolution |= src->below_resolution;
	dst->cycles_total += src->cycles_total;
	return 0;
}

static void reanalyze(struct settle_report *rep, unsigned nproc, double band)
{
	size_t i = 0;

	while (i < rep->nresults) {
		size_t j = i + 1;

		while (j < rep->nresults &&
		       rep->results[j].claim == rep->results[i].claim &&
		       rep->results[j].size_bytes == rep->results[i].size_bytes)
			j++;
		settle_analyze(&rep->results[i], j - i, rep->timer.core_ghz, band);
		settle_analyze_processes(&rep->results[i], j - i, nproc, band);
		i = j;
	}
}

static int pool(struct settle_report *rep, const char *file, double band,
		char *err, size_t errlen)
{
	struct settle_report more;

	if (settle_load_json(file, band, &more, err, errlen) < 0)
		return -1;
	if (!same_layout(rep, &more)) {
		snprintf(err, errlen, "the processes measured different "
			 "results (%s)", file);
		settle_report_free(&more);
		return -1;
	}
	for (size_t i = 0; i < rep->nresults; i++)
		if (append_samples(&rep->results[i], &more.results[i]) < 0) {
			snprintf(err, errlen, "out of memory");
			settle_report_free(&more);
			return -1;
		}
	rep->noise.migrations += more.noise.migrations;
	rep->noise.nvcsw += more.noise.nvcsw;
	rep->noise.nivcsw += more.noise.nivcsw;
	settle_report_free(&more);
	return 0;
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
	reanalyze(rep, nproc, band);
	rc = 0;
out:
	if (rc)
		unlink(file);
	rmdir(dir);
	return rc;
}
