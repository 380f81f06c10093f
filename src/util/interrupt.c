/*
 * interrupt.c - what a Ctrl-C (SIGINT) or SIGTERM asks of a run: the
 * signal noted for the layers to stop at their next step, and the
 * temporary files and the timed command that must not stay behind,
 * removed even by a second signal that ends the process at once (see
 * util.h).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

#define MAX_TEMPS 64
#define TEMP_LEN 4096

static volatile sig_atomic_t caught;
static volatile sig_atomic_t group; /* a timed command's process group */
/* Registered paths; an empty string is a free slot. Files first removed,
 * then directories (a directory is removed once it is empty). */
static char temps[MAX_TEMPS][TEMP_LEN];
static volatile sig_atomic_t is_dir[MAX_TEMPS];

void settle_interrupt_note(int sig)
{
	caught = sig;
}

int settle_interrupted(void)
{
	return caught;
}

int settle_temp_add(const char *path, int dir)
{
	size_t n = strlen(path);

	if (n >= TEMP_LEN)
		return -1;
	for (int i = 0; i < MAX_TEMPS; i++)
		if (!temps[i][0]) {
			is_dir[i] = dir;
			memcpy(temps[i] + 1, path + 1, n); /* the first byte */
			temps[i][0] = path[0];             /* last: published */
			return 0;
		}
	return -1;
}

void settle_temp_forget(const char *path)
{
	for (int i = 0; i < MAX_TEMPS; i++)
		if (temps[i][0] && !strcmp(temps[i], path))
			temps[i][0] = '\0';
}

void settle_group_set(int pgid)
{
	group = pgid;
}

void settle_temp_cleanup(void)
{
	int saved = errno;

	if (group > 0)
		kill(-group, SIGKILL);

	/* async-signal-safe: unlink and rmdir only */
	for (int i = 0; i < MAX_TEMPS; i++)
		if (temps[i][0] && !is_dir[i])
			unlink(temps[i]);
	for (int i = MAX_TEMPS - 1; i >= 0; i--)
		if (temps[i][0] && is_dir[i])
			rmdir(temps[i]);
	errno = saved;
}
