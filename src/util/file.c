/*
 * file.c - output that is written whole or not at all, with one
 * permission rule, and the one temporary-directory rule.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

/* The mode path is written with: an existing regular file's permission
 * bits (a private 0600 result file became 0644; not its set-ID bits, on
 * a new file of data), else a new file's, 0666 less the umask, as
 * open(2) would give. */
static mode_t file_mode(const char *path)
{
	struct stat st;
	mode_t mask;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 0777;
	mask = umask(0);
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

/*
 * A symbolic link, or a chain of them: the name of the file the last one
 * names (the links are kept, the file is replaced) into cur (len bytes,
 * at most 4096). 0, or -1 with a message about path in err.
 */
static int follow_links(const char *path, char *cur, size_t len, char *err,
			size_t errlen)
{
	char probe[4096], link[4096];
	struct stat st;
	int hops = 0;

	snprintf(cur, len, "%s", path);
	while (lstat(cur, &st) == 0 && S_ISLNK(st.st_mode)) {
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
		if (k >= (ssize_t)sizeof(probe) || (size_t)k >= len) {
			snprintf(err, errlen, "cannot write %s: %s", path,
				 strerror(ENAMETOOLONG));
			return -1;
		}
		memcpy(cur, probe, (size_t)k + 1);
	}
	return 0;
}

/*
 * May the file that path names (named_st, when named) be replaced by
 * renaming onto resolved? Not a file that is not regular; not one whose
 * /proc link names no path (a deleted file, a memfd, an O_TMPFILE file:
 * the link reads "NAME (deleted)", "/memfd:..."); not the file settle's
 * standard output or error goes to (--output /dev/stdout >> FILE):
 * replacing it would lose what was and is written there. 0, or -1 with
 * a message in err.
 */
static int replaceable(const char *path, const char *resolved, int named,
		       const struct stat *named_st, char *err, size_t errlen)
{
	struct stat st;
	int found = stat(resolved, &st) == 0;

	if (found && !S_ISREG(st.st_mode))
		return not_regular(path, &st, err, errlen);
	if (!named)
		return 0;
	if (!found || st.st_dev != named_st->st_dev ||
	    st.st_ino != named_st->st_ino) {
		snprintf(err, errlen, "cannot write %s: it names a file that "
			 "has no name to replace (deleted, or never named)",
			 path);
		return -1;
	}
	if (same_file(named_st, 1) || same_file(named_st, 2)) {
		snprintf(err, errlen, "cannot write %s: it is also settle's "
			 "standard output or error (replacing it would lose "
			 "what is written there)", path);
		return -1;
	}
	return 0;
}

int settle_output_is_stdio(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0 || S_ISDIR(st.st_mode))
		return 0;
	return !S_ISREG(st.st_mode) || same_file(&st, 1) || same_file(&st, 2);
}

int settle_output_target(const char *path, char *resolved, size_t len,
			 char *err, size_t errlen)
{
	struct stat named_st;
	char probe[4096];
	int fd, named;

	if (strcmp(path, "-") == 0) {
		snprintf(resolved, len, "-");
		return 0;
	}
	if (!*path) {
		snprintf(err, errlen, "cannot write '': an empty file name");
		return -1;
	}
	if (strlen(path) >= PATH_MAX) { /* the reason said before the path
					   fills the message */
		snprintf(err, errlen, "cannot write %.60s... (%zu characters): "
			 "%s", path, strlen(path), strerror(ENAMETOOLONG));
		return -1;
	}
	/* what the path names after every link, /proc's too (/dev/stdout
	 * names a pipe or a terminal that no chain of names resolves) */
	named = stat(path, &named_st) == 0;
	if (named && !S_ISREG(named_st.st_mode))
		return not_regular(path, &named_st, err, errlen);
	if (follow_links(path, resolved, len, err, errlen) < 0 ||
	    replaceable(path, resolved, named, &named_st, err, errlen) < 0)
		return -1;
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
	if (write_all(fd, buf, n) < 0 || fchmod(fd, file_mode(path)) < 0 ||
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

