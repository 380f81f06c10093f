/*
 * test_cli.c - the settle command's exit status and messages.
 * The binary is $SETTLE (make test sets it) or build/settle.
 */
#include <fcntl.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "cpu/cpu.h"

static char out[1 << 16], err[1 << 16];

static void slurp(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t k;

	lseek(fd, 0, SEEK_SET);
	while (n + 1 < len && (k = read(fd, buf + n, len - n - 1)) > 0)
		n += (size_t)k;
	buf[n] = '\0';
	close(fd);
}

/* Run settle with the NULL-terminated arguments; returns its exit status. */
static int settle(const char *arg0, ...)
{
	const char *argv[32] = { getenv("SETTLE") ? getenv("SETTLE") :
				 "build/settle" };
	char of[] = "/tmp/settle-out-XXXXXX", ef[] = "/tmp/settle-err-XXXXXX";
	int ofd = mkstemp(of), efd = mkstemp(ef), status;
	size_t n = 1;
	va_list ap;
	pid_t pid;

	assert_true(ofd >= 0 && efd >= 0);
	unlink(of);
	unlink(ef);
	va_start(ap, arg0);
	for (const char *a = arg0; a && n < 31; a = va_arg(ap, const char *))
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(ofd, 1);
		dup2(efd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	slurp(ofd, out, sizeof(out));
	slurp(efd, err, sizeof(err));
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* A usage error: exit 2 and exactly one line on stderr. */
static void usage_error(int rc, const char *needle)
{
	assert_int_equal(rc, 2);
	assert_non_null(strstr(err, needle));
	size_t lines = 0;
	for (const char *p = err; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 1);
}

static void test_unknown_claim(void **st)
{
	(void)st;
	usage_error(settle("run", "nosuch", NULL), "nosuch");
	assert_non_null(strstr(err, "popcount"));
	assert_non_null(strstr(err, "endian"));
	assert_non_null(strstr(err, "syscall"));
	assert_non_null(strstr(err, "segprefix"));
}

static void test_bad_numbers(void **st)
{
	(void)st;
	usage_error(settle("run", "popcount", "--size", "12Q", NULL), "12Q");
	usage_error(settle("run", "popcount", "--size", "0", NULL),
		    "at least 1 byte");
	usage_error(settle("run", "popcount", "--size", "0K", NULL),
		    "at least 1 byte");
	/* leading zeros of a non-zero size: parsed (ten bytes), so the
	 * run gets as far as the claim without sizes */
	usage_error(settle("run", "endian", "--size", "010", NULL),
		    "none of the chosen claims takes a size");
	usage_error(settle("run", "endian", "--size", "01K", NULL),
		    "none of the chosen claims takes a size");
	usage_error(settle("run", "popcount", "--size", "000M", NULL),
		    "at least 1 byte");
	usage_error(settle("run", "popcount", "--size", "-4K", NULL), "size");
	usage_error(settle("run", "popcount", "--size", "128T", NULL),
		    "does not fit");
	usage_error(settle("run", "--samples", "0", NULL), "samples");
	usage_error(settle("run", "--samples", "ten", NULL), "samples");
	usage_error(settle("run", "--cpu", "x", NULL), "cpu");
	usage_error(settle("run", "--cpu", "1023", NULL), "CPU 1023");
	usage_error(settle("run", "--device-mbps", "-3", NULL), "device");
	usage_error(settle("run", "--min-time", "0", NULL), "min-time");
	usage_error(settle("run", "--format", "xml", NULL), "xml");
	/* a format of run's that compare has not: said so, not "unknown" */
	usage_error(settle("compare", "a.json", "b.json", "--format",
			   "gbench-json", NULL), "is for settle run and show");
	usage_error(settle("compare", "a.json", "b.json", "--format", "xml",
			   NULL), "unknown --format 'xml'");
	usage_error(settle("run", "--size", NULL), "needs a value");
	usage_error(settle("run", "--bogus", NULL), "--bogus");
	/* a letter of a cluster, not the argument before it */
	usage_error(settle("run", "popcount", "-ab", NULL), "'-a'");
	assert_null(strstr(err, "popcount"));
	usage_error(settle("run", "--verbose", "-ab", NULL), "'-a'");
	/* a long option given a value it takes none of */
	usage_error(settle("run", "popcount", "--quick=3", NULL),
		    "option '--quick' takes no value");
	usage_error(settle("run", "--bogus=3", NULL), "'--bogus=3'");
	usage_error(settle("run", "endian", "--size", "4K", NULL), "size");
	usage_error(settle("run", "popcount", "--variant", "nosuch", NULL),
		    "nosuch");
	/* the claim's variants listed */
	assert_non_null(strstr(err, "popcount has: table8, builtin-generic"));
	usage_error(settle("frobnicate", NULL), "frobnicate");
	/* a file named otherwise than FILE.c: said what a claim file is */
	usage_error(settle("run", "/etc/passwd", NULL),
		    "a file of claims must be named FILE.c");
	usage_error(settle("list", "extra", NULL),
		    "unknown claim 'extra'; known claims: popcount");
	usage_error(settle("--version", "extra", NULL), "extra");
	usage_error(settle("version", "-x", NULL), "-x");
	usage_error(settle("help", "run", "extra", NULL), "extra");
	usage_error(settle("--help", "frobnicate", NULL), "frobnicate");
	usage_error(settle("info", "--bogus", NULL), "--bogus");
}

static void test_unwritable_output(void **st)
{
	(void)st;
	usage_error(settle("run", "popcount", "--size", "4K", "--format",
			   "json", "--output", "/nonexistent/dir/r.json", NULL),
		    "/nonexistent/dir/r.json");
	usage_error(settle("run", "popcount", "--size", "4K", "--output",
			   "/tmp", NULL), "directory");
}

/* Found by trying to break settle: outputs that are not regular files,
 * symbolic links, lost standard output, and option corner cases. */
static void test_hostile_outputs(void **st)
{
	char dir[] = "/tmp/settle-cli-XXXXXX", fifo[64], link[64], real[64];
	struct stat sb;

	(void)st;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	snprintf(real, sizeof(real), "%s/real.json", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(symlink(real, link), 0);
	usage_error(settle("run", "endian", "--quick", "--samples", "2",
			   "--format", "json", "--output", fifo, NULL),
		    "not a regular file");
	assert_non_null(strstr(err, "a pipe or FIFO"));
	assert_int_equal(stat(fifo, &sb), 0);
	assert_true(S_ISFIFO(sb.st_mode)); /* still a FIFO */
	/* a device, through a link too: refused, naming what it is and
	 * what writes to standard output (was "No such file or directory"
	 * for /dev/stdout on a pipe: /proc's link names no path) */
	usage_error(settle("run", "endian", "--quick", "--format", "json",
			   "--output", "/dev/null", NULL),
		    "a character device or terminal");
	assert_non_null(strstr(err, "'-' writes to standard output"));
	/* this test's settle writes standard output to a deleted file:
	 * /proc's link reads "NAME (deleted)", no name to replace (was
	 * written as a new file of that name) */
	usage_error(settle("run", "endian", "--quick", "--format", "json",
			   "--output", "/dev/stdout", NULL),
		    "no name to replace");
	unlink(link);
	assert_int_equal(symlink("/dev/null", link), 0);
	usage_error(settle("run", "endian", "--quick", "--format", "json",
			   "--output", link, NULL), "not a regular file");
	unlink(link);
	assert_int_equal(symlink(real, link), 0);
	assert_int_equal(settle("run", "endian", "--quick", "--samples", "2",
				"--variant", "we32", "--format", "json",
				"--output", link, NULL), 0);
	assert_int_equal(lstat(link, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));  /* the link is kept ... */
	assert_int_equal(stat(real, &sb), 0);
	assert_true(S_ISREG(sb.st_mode) && sb.st_size > 100); /* ... and followed */
	unlink(fifo);
	unlink(link);
	unlink(real);
	rmdir(dir);
}

static void test_option_corners(void **st)
{
	(void)st;
	/* an abbreviation of --quick is --quick: 5 samples */
	assert_int_equal(settle("run", "endian", "--quic", "--variant", "we32",
				NULL), 0);
	assert_non_null(strstr(out, "5 samples per variant"));
	usage_error(settle("run", "--rig", "--quick", NULL), "exclude");
	usage_error(settle("run", "endian", "--quick", "--cpu", "1023",
			   "--processes", "2", NULL), "CPU 1023");
	usage_error(settle("run", "--equivalence", "0x10", NULL), "equivalence");
	usage_error(settle("run", "--device-mbps", " 5", NULL), "device");
	usage_error(settle("selftest", "--format", "table", "--output",
			   "/tmp/x.txt", NULL), "JSON file");
	usage_error(settle("selftest", "--cpu", "1023", NULL), "CPU 1023");
	usage_error(settle("run", "bswap", "--size", "16G", NULL),
		    "3 buffers");
	/* a size given twice is measured once */
	assert_int_equal(settle("run", "popcount", "--quick", "--samples", "2",
				"--variant", "swar64", "--size", "4K", "--size",
				"4K", NULL), 0);
	assert_non_null(strstr(out, "4 KiB    swar64"));
	assert_null(strstr(strstr(out, "4 KiB    swar64") + 1, "4 KiB    swar64"));
}

static void test_help(void **st)
{
	(void)st;
	assert_int_equal(settle("--help", NULL), 0);
	assert_non_null(strstr(out, "run"));
	assert_non_null(strstr(out, "--version"));
	assert_int_equal(settle("--version", NULL), 0);
	/* one line, "settle X.Y.Z" */
	assert_int_equal(strncmp(out, "settle ", 7), 0);
	assert_true(out[7] >= '0' && out[7] <= '9');
	assert_non_null(strchr(out, '\n'));
	assert_int_equal(strchr(out, '\n')[1], '\0');
	assert_int_equal(settle("run", "--help", NULL), 0);
	assert_non_null(strstr(out, "--size"));
	assert_int_equal(settle("list", "--help", NULL), 0);
	assert_int_equal(settle("info", "--help", NULL), 0);
	assert_int_equal(settle("help", "run", NULL), 0);
	assert_non_null(strstr(out, "--quick"));
	/* every command takes --help, version too; --help names one */
	assert_int_equal(settle("version", "--help", NULL), 0);
	assert_non_null(strstr(out, "usage: settle --version"));
	assert_int_equal(settle("--version", "-h", NULL), 0);
	assert_non_null(strstr(out, "usage: settle --version"));
	assert_int_equal(settle("help", "version", NULL), 0);
	assert_non_null(strstr(out, "usage: settle --version"));
	assert_int_equal(settle("--help", "run", NULL), 0);
	assert_non_null(strstr(out, "usage: settle run"));
	assert_int_equal(settle(NULL), 2);
}

static void test_list(void **st)
{
	static const char *const names[] = {
		"popcount", "table8", "builtin-generic", "swar32", "swar64",
		"popcnt", "endian", "we32", "we64", "syscall", "pipe-loop",
		"null", "pingpong-same", "pingpong-cross", "segprefix",
	};

	(void)st;
	assert_int_equal(settle("list", NULL), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_non_null(strstr(out, names[i]));
	/* the claims named, only */
	assert_int_equal(settle("list", "endian", "syscall", NULL), 0);
	assert_non_null(strstr(out, "we32"));
	assert_non_null(strstr(out, "pipe-loop"));
	assert_null(strstr(out, "popcount"));
	assert_null(strstr(out, "segprefix"));
}

static void test_info(void **st)
{
	(void)st;
	assert_int_equal(settle("info", NULL), 0);
	assert_non_null(strstr(out, "machine:"));
	assert_non_null(strstr(out, "ISA:"));
	assert_non_null(strstr(out, "clock:"));
	assert_non_null(strstr(out, "kernel:"));
}

static void test_json_run(void **st)
{
	char path[] = "/tmp/settle-cli-XXXXXX", file[64], attached[80];
	json_error_t e;
	json_t *j;

	(void)st;
	assert_non_null(mkdtemp(path));
	snprintf(file, sizeof(file), "%s/r.json", path);
	assert_int_equal(settle("run", "popcount", "endian", "--quick",
				"--size", "4K", "--samples", "3", "--format",
				"json", "--output", file, NULL), 0);
	assert_non_null(strstr(out, "popcount")); /* table on stdout too */
	j = json_load_file(file, JSON_REJECT_DUPLICATES, &e);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "schema")),
			    "settle-result/1");
	json_t *res = json_object_get(j, "results");
	assert_true(json_array_size(res) >= 4 + 8); /* popcount + endian */
	for (size_t i = 0; i < json_array_size(res); i++) {
		json_t *r = json_array_get(res, i);

		assert_int_equal(json_array_size(json_object_get(r, "samples_ns")), 3);
		assert_true(json_is_number(json_object_get(r, "median_ns")));
	}
	json_decref(j);
	unlink(file);
	/* -o is --output, as for plot (run said "unknown option '-o'"),
	 * also attached (-oFILE); through --processes in test_formats.sh
	 * (a process of settle's does not start under qemu-user, where
	 * this test also runs) */
	assert_int_equal(settle("run", "popcount", "--quick", "--size", "4K",
				"--samples", "2", "--variant", "swar64", "-o",
				file, NULL), 0);
	j = json_load_file(file, JSON_REJECT_DUPLICATES, &e);
	assert_non_null(j);
	json_decref(j);
	unlink(file);
	snprintf(attached, sizeof(attached), "-o%s", file);
	assert_int_equal(settle("run", "popcount", "--quick", "--size", "4K",
				"--samples", "2", "--variant", "swar64",
				attached, NULL), 0);
	assert_int_equal(access(file, R_OK), 0);
	unlink(file);
	/* one format, one output: a second is refused, not the last taken */
	usage_error(settle("run", "popcount", "--format", "json", "--format",
			   "csv", NULL), "--format given twice");
	usage_error(settle("run", "popcount", "-o", file, "--output", file,
			   NULL), "--output given twice");
	usage_error(settle("selftest", "-o", file, "--output", file, NULL),
		    "--output given twice");
	usage_error(settle("selftest", "--format", "json", "--format", "json",
			   NULL), "--format given twice");
	rmdir(path);
}

static void test_show_compare(void **st)
{
	char path[] = "/tmp/settle-cli-XXXXXX", a[64], b[64], bad[80];
	FILE *f;

	(void)st;
	assert_non_null(mkdtemp(path));
	snprintf(a, sizeof(a), "%s/a.json", path);
	snprintf(b, sizeof(b), "%s/b.json", path);
	snprintf(bad, sizeof(bad), "%s/bad.json", path);
	assert_int_equal(settle("run", "endian", "--quick", "--samples", "3",
				"--format", "json", "--output", a, NULL), 0);
	assert_int_equal(settle("run", "endian", "--quick", "--samples", "3",
				"--format", "json", "--output", b, NULL), 0);
	assert_int_equal(settle("show", a, NULL), 0);
	assert_non_null(strstr(out, "-O2 we64"));
	assert_non_null(strstr(out, "baseline"));
	assert_int_equal(settle("compare", a, b, NULL), 0);
	assert_non_null(strstr(out, "geometric mean"));
	assert_non_null(strstr(out, "endian -O0 long"));
	f = fopen(bad, "w");
	fputs("{\"schema\": \"settle-result/1\", \"resu", f);
	fclose(f);
	usage_error(settle("compare", a, bad, NULL), "truncated");
	usage_error(settle("show", bad, NULL), "truncated");
	usage_error(settle("show", "/nonexistent.json", NULL), "cannot read");
	usage_error(settle("compare", a, NULL), "compare needs");
	usage_error(settle("compare", a, b, "--fail-on", "soon", NULL),
		    "--fail-on");
	usage_error(settle("show", a, "--equivalence", "0", NULL),
		    "equivalence");
	/* --fail-on: exit 1 only when a row is slower; same files never are */
	assert_int_equal(settle("compare", a, a, "--fail-on", "slower", NULL), 0);
	unlink(a);
	unlink(b);
	unlink(bad);
	rmdir(path);
}

static void test_selftest_quick(void **st)
{
	char path[] = "/tmp/settle-cli-XXXXXX", file[64];
	static const char *const keys[] = {
		"aa_false_positive_rate", "aa_same_rate", "aa_trials",
		"detect_rate_3pct", "detect_rate_2pct", "detect_trials",
		"popcnt_latency_cycles", "imul_latency_cycles", "loadavg",
		"other_cpus",
	};
	json_error_t e;
	json_t *j;

	(void)st;
	assert_non_null(mkdtemp(path));
	snprintf(file, sizeof(file), "%s/s.json", path);
	assert_int_equal(settle("selftest", "--quick", "--aa-trials", "4",
				"--detect-trials", "2", "--format", "json",
				"--output", file, NULL), 0);
	j = json_load_file(file, JSON_REJECT_DUPLICATES, &e);
	assert_non_null(j);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_non_null(json_object_get(j, keys[i]));
	assert_int_equal(json_integer_value(json_object_get(j, "aa_trials")), 4);
	/* measured over the whole selftest, so known (a number, not null) */
	assert_true(json_is_number(json_object_get(j, "other_cpus")) &&
		    json_number_value(json_object_get(j, "other_cpus")) >= 0);
	double imul = json_number_value(json_object_get(j, "imul_latency_cycles"));
	if (SETTLE_ARCH_GENERIC) {
		/* no multiply chain without architecture-specific code */
		assert_true(json_is_null(json_object_get(j, "imul_latency_cycles")));
		assert_string_equal(json_string_value(json_object_get(
					j, "mul_instruction")), "mul");
	} else {
		assert_true(imul > 0.5 && imul < 20); /* a latency, not 0 or NaN */
	}
	json_decref(j);
	usage_error(settle("selftest", "--aa-trials", "0", NULL), "trial");
	unlink(file);
	rmdir(path);
}

/* Standard output a closed pipe (SIGPIPE ignored, as under many shells
 * and CI runners): one message, not two, and a failure status. */
static void test_closed_pipe_said_once(void **st)
{
	const char *exe = getenv("SETTLE") ? getenv("SETTLE") : "build/settle";
	char ef[] = "/tmp/settle-err-XXXXXX";
	int p[2], efd = mkstemp(ef), status;
	size_t lines = 0;
	pid_t pid;

	(void)st;
	assert_true(efd >= 0);
	unlink(ef);
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGPIPE, SIG_IGN);
		dup2(p[1], 1);
		dup2(efd, 2);
		execl(exe, exe, "show", "tests/golden/in/old.json", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	slurp(efd, err, sizeof(err));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 2);
	for (const char *c = err; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, 1);
	assert_non_null(strstr(err, "cannot write to standard output"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_claim),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_unwritable_output),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_json_run),
		cmocka_unit_test(test_show_compare),
		cmocka_unit_test(test_hostile_outputs),
		cmocka_unit_test(test_option_corners),
		cmocka_unit_test(test_selftest_quick),
		cmocka_unit_test(test_closed_pipe_said_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
