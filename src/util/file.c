/*
 * file.c - output that is written whole or not at all, with one
 * permission rule, and the one temporary-directory rule.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

/* The mode of a new file: 0666 less the umask, as open(2) would give. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

const char *settle_tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t ? t : "/tmp";
}

/* Is *st the file open as descriptor fd? */
static int same_file(const struct stat *st, int fd)
{
	struct stat f;

	return fstat(fd, &f) == 0 && f.st_dev == st->st_dev &&
	       f.st_ino == st->st_ino;
}

/* The refusal of a path that names no regular file: -1. */
static int not_regular(const char *path, const struct stat *st, char *err,
		       size_t errlen)
{
	snprintf(err, errlen, "cannot write %s: not a regular file (%s); "
		 "refusing to replace it", path,
		 S_ISDIR(st->st_mode) ? "a directory" :
		 S_ISFIFO(st->st_mode) ? "a pipe or FIFO" :
		 S_ISCHR(st->st_mode) ? "a character device or terminal" :
		 S_ISBLK(st->st_mode) ? "a block device" :
		 S_ISSOCK(st->st_mode) ? "a socket" : "a special file");
	return -1;
}

int settle_output_target(const char *path, char *resolved, size_t len,
			 char *err, size_t errlen)
{
	struct stat st, named_st;
	char probe[4096], cur[4096];
	int fd, hops = 0, named;

	if (strcmp(path, "-") == 0) {
		snprintf(resolved, len, "-");
		return 0;
	}
	if (!*path) {
		snprintf(err, errlen, "cannot write '': an empty file name");
		return -1;
	}
	/* what the path names after every link, /proc's too (/dev/stdout
	 * names a pipe or a terminal that no link chain below resolves) */
	named = stat(path, &named_st) == 0;
	if (named && !S_ISREG(named_st.st_mode))
		return not_regular(path, &named_st, err, errlen);
	/* a symbolic link, or a chain of them: write the file the last one
	 * names, keep every link */
	snprintf(cur, sizeof(cur), "%s", path);
	while (lstat(cur, &st) == 0 && S_ISLNK(st.st_mode)) {
		char link[4096];
		ssize_t k = readlink(cur, link, sizeof(link) - 1);
		const char *slash = strrchr(cur, '/');

		if (k < 0 || ++hops > 40) {
			snprintf(err, errlen, "cannot write %s: %s", path,
				 strerror(k < 0 ? errno : ELOOP));
			return -1;
		}
		link[k] = '\0';
		if (link[0] == '/' || !slash)
			k = snprintf(probe, sizeof(probe), "%s", link);
		else
			k = snprintf(probe, sizeof(probe), "%.*s/%s",
				     (int)(slash - cur), cur, link);
		if (k >= (ssize_t)sizeof(probe)) {
			snprintf(err, errlen, "cannot write %s: %s", path,
				 strerror(ENAMETOOLONG));
			return -1;
		}
		memcpy(cur, probe, (size_t)k + 1);
	}
	snprintf(resolved, len, "%s", cur);
	if (stat(resolved, &st) == 0 && !S_ISREG(st.st_mode))
		return not_regular(path, &st, err, errlen);
	/* a /proc link to a file without a name (deleted, a memfd, an
	 * O_TMPFILE file) reads as "NAME (deleted)", "/memfd:..": no path
	 * of the file that could be replaced */
	if (named && (stat(resolved, &st) != 0 ||
		      st.st_dev != named_st.st_dev ||
		      st.st_ino != named_st.st_ino)) {
		snprintf(err, errlen, "cannot write %s: it names a file that "
			 "has no name to replace (deleted, or never named)",
			 path);
		return -1;
	}
	/* the file settle's standard output or error goes to (--output
	 * /dev/stdout > FILE, or >> FILE): replacing it would lose what was
	 * and is written there */
	if (named && (same_file(&named_st, 1) || same_file(&named_st, 2))) {
		snprintf(err, errlen, "cannot write %s: it is also settle's "
			 "standard output or error (replacing it would lose "
			 "what is written there)", path);
		return -1;
	}
	/* can a temporary file be made beside it? (missing or read-only
	 * directory, a name too long) */
	errno = 0;
	if ((size_t)snprintf(probe, sizeof(probe), "%s.tmp.XXXXXX", resolved) >=
	    sizeof(probe) || (fd = mkstemp(probe)) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(errno ? errno : ENAMETOOLONG));
		return -1;
	}
	close(fd);
	unlink(probe);
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int fsync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd, rc;

	if (!copy)
		return -1;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
	free(copy);
	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

int settle_replace_file(const char *path, const char *buf, size_t n,
			char *err, size_t errlen)
{
	char target[4096];
	size_t len;
	char *tmp;
	int fd;

	if (strcmp(path, "-") == 0) {
		if (fwrite(buf, 1, n, stdout) == n && fflush(stdout) == 0)
			return 0;
		snprintf(err, errlen, "cannot write to standard output: %s",
			 strerror(errno));
		return -1;
	}
	if (settle_output_target(path, target, sizeof(target), err, errlen) < 0)
		return -1;
	path = target;
	len = strlen(path) + 16;
	tmp = malloc(len);
	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(tmp, len, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	settle_temp_add(tmp, 0); /* a second Ctrl-C removes it */
	if (write_all(fd, buf, n) < 0 || fchmod(fd, new_file_mode()) < 0 ||
	    fsync(fd) < 0 || close(fd) < 0 || rename(tmp, path) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		settle_temp_forget(tmp);
		free(tmp);
		return -1;
	}
	settle_temp_forget(tmp);
	free(tmp);
	fsync_dir(path);
	return 0;
}

