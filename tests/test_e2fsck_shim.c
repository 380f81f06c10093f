/*
 * test_e2fsck_shim.c - the LD_PRELOAD shim of examples/e2fsck-popcount
 * keeps libext2fs's contract: its ext2fs_bitcount() returns what
 * libext2fs's own returns for every length and alignment, including the
 * 32-bit wrap of a count of 2^32 bits or more, with every popcount
 * kernel this CPU can run; it exports nothing else; and it reports its
 * calls at exit when asked. Needs libext2fs-dev (make deps installs it);
 * without it the test says it is skipped.
 *
 * The shim is $SETTLE_SHIM, else e2fsck-popcount-shim.so beside $SETTLE
 * (make test sets SETTLE), else build/e2fsck-popcount-shim.so.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "config.h"
#include "settle.h"
#include "settle_bits.h"

#if SETTLE_HAVE_EXT2FS
#include <ext2fs/ext2fs.h>
#endif

typedef unsigned int (*bitcount_fn)(const void *, unsigned int);

static void *shim;
static bitcount_fn shim_count;
static char report[] = "/tmp/settle-shim-report-XXXXXX";

static const char *shim_path(void)
{
	static char path[4096];
	const char *s = getenv("SETTLE_SHIM"), *exe = getenv("SETTLE");
	char copy[4096];

	if (s && *s)
		return s;
	if (!exe || !*exe)
		return "build/e2fsck-popcount-shim.so";
	snprintf(copy, sizeof(copy), "%s", exe);
	snprintf(path, sizeof(path), "%s/e2fsck-popcount-shim.so",
		 dirname(copy));
	return path;
}

/* Run this test program again, fresh (the shim and its popcount choice
 * not loaded yet), as "PROGRAM MODE ARG"; returns its exit status. Under
 * emulation, SETTLE_TEST_EMULATOR is the emulator's command (a program
 * of another architecture cannot be run directly). */
static int fresh(const char *mode, const char *arg)
{
	const char *emu = getenv("SETTLE_TEST_EMULATOR");
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0 && emu && *emu) {
		/* under qemu-user (make test-cross), through the emulator:
		 * readlink gives this program's own path there */
		char self[4096];
		ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (k <= 0)
			_exit(126);
		self[k] = '\0';
		execl("/bin/sh", "sh", "-c",
		      "exec $SETTLE_TEST_EMULATOR \"$0\" \"$@\"", self, mode,
		      arg, (char *)NULL);
		_exit(126);
	}
	if (pid == 0) {
		execl("/proc/self/exe", "test_e2fsck_shim", mode, arg,
		      (char *)NULL);
		_exit(126);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

#if SETTLE_HAVE_EXT2FS
/* Every length 0..300 at every alignment 0..7 of random bytes, and whole
 * 4 KiB bitmaps, against libext2fs. */
static void test_same_counts(void **st)
{
	enum { MAX = 4096 + 64 };
	unsigned char *buf = malloc(MAX);

	(void)st;
	assert_non_null(buf);
	settle_fill_random(buf, MAX, 14);
	for (unsigned off = 0; off < 8; off++)
		for (unsigned len = 0; len <= 300; len++)
			assert_int_equal(shim_count(buf + off, len),
					 ext2fs_bitcount(buf + off, len));
	for (unsigned off = 0; off < 64; off += 7)
		assert_int_equal(shim_count(buf + off, 4096),
				 ext2fs_bitcount(buf + off, 4096));
	memset(buf, 0xff, MAX);
	assert_int_equal(shim_count(buf, 4096), 32768);
	assert_int_equal(ext2fs_bitcount(buf, 4096), 32768);
	free(buf);
}

/* In a fresh process: the shim with kernel name forced through
 * SETTLE_POPCOUNT (the choice is made once per process) against
 * libext2fs. Exit status 0 when every count agrees. */
static int kernel_child(const char *name)
{
	unsigned char b[1000];
	bitcount_fn fn;
	void *h;
	int bad = 0;

	setenv("SETTLE_POPCOUNT", name, 1);
	h = dlopen(shim_path(), RTLD_NOW | RTLD_LOCAL);
	fn = h ? (bitcount_fn)(uintptr_t)dlsym(h, "ext2fs_bitcount") : NULL;
	if (!fn)
		return 3;
	settle_fill_random(b, sizeof(b), 99);
	for (unsigned len = 0; len < 900; len += 13)
		bad |= fn(b + len % 7, len) != ext2fs_bitcount(b + len % 7, len);
	/* the kernel asked for is the one that ran */
	return bad ? 1 : strcmp(settle_popcount_impl_name(
				settle_popcount_active()), name) ? 4 : 0;
}

static void test_every_kernel(void **st)
{
	(void)st;
	for (int k = 0; k < SETTLE_POPCOUNT_NIMPL; k++) {
		const char *name = settle_popcount_impl_name(k);

		if (!settle_popcount_usable(k)) {
			fprintf(stderr, "  (kernel %s: this CPU cannot run it)\n",
				name);
			continue;
		}
		assert_int_equal(fresh("--kernel", name), 0);
	}
}

/*
 * 512 MiB + 1 MiB of 0xff bytes hold 2^32 + 2^23 set bits: both return
 * 2^23, the count modulo 2^32. The buffer is one 1 MiB page of a memfd
 * mapped 513 times in a row, so it costs 1 MiB of memory.
 */
static void test_wrap(void **st)
{
	const size_t mib = 1u << 20, n = 513;
	int fd = memfd_create("settle-ff", 0);
	unsigned char *one, *all;

	(void)st;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)mib), 0);
	one = mmap(NULL, mib, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(one != MAP_FAILED);
	memset(one, 0xff, mib);
	all = mmap(NULL, n * mib, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(all != MAP_FAILED);
	for (size_t i = 0; i < n; i++)
		assert_true(mmap(all + i * mib, mib, PROT_READ,
				 MAP_SHARED | MAP_FIXED, fd, 0) == all + i * mib);
	assert_int_equal(settle_popcount(all, n * mib), (1ull << 32) + (1u << 23));
	assert_int_equal(shim_count(all, (unsigned)(n * mib)), 1u << 23);
	assert_int_equal(ext2fs_bitcount(all, (unsigned)(n * mib)), 1u << 23);
	munmap(all, n * mib);
	munmap(one, mib);
	close(fd);
}
#endif

/* ext2fs_bitcount and nothing else: dlsym finds no settle_ symbol. */
static void test_exports(void **st)
{
	(void)st;
	assert_non_null(shim_count);
	assert_null(dlsym(shim, "settle_popcount"));
	assert_null(dlsym(shim, "settle_popcount_active"));
	assert_null(dlsym(shim, "settle_cpuid_read"));
}

/* In a fresh process: three calls over 128 bytes, then exit. */
static int report_child(const char *file)
{
	unsigned char b[100] = { 0 };
	bitcount_fn fn;
	void *h;

	setenv("SETTLE_SHIM_REPORT", file, 1);
	h = dlopen(shim_path(), RTLD_NOW | RTLD_LOCAL);
	fn = h ? (bitcount_fn)(uintptr_t)dlsym(h, "ext2fs_bitcount") : NULL;
	if (!fn)
		return 3;
	fn(b, 100);
	fn(b, 28);
	fn(b, 0);
	return 0; /* exit() runs the shim's destructor */
}

/* SETTLE_SHIM_REPORT: one line at exit with the calls and bytes. */
static void test_report(void **st)
{
	char line[256] = "";
	FILE *f;

	(void)st;
	assert_int_equal(fresh("--report", report), 0);
	f = fopen(report, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_non_null(strstr(line, "called 3 times over 128 bytes"));
	assert_non_null(strstr(line, "settle_popcount ("));
}

static int setup(void **st)
{
	int fd = mkstemp(report);

	(void)st;
	if (fd < 0)
		return -1;
	close(fd);
	shim = dlopen(shim_path(), RTLD_NOW | RTLD_LOCAL);
	if (!shim) {
		fprintf(stderr, "cannot load the shim: %s\n", dlerror());
		return -1;
	}
	shim_count = (bitcount_fn)(uintptr_t)dlsym(shim, "ext2fs_bitcount");
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	unlink(report);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
#if SETTLE_HAVE_EXT2FS
		cmocka_unit_test(test_same_counts),
		cmocka_unit_test(test_every_kernel),
		cmocka_unit_test(test_wrap),
#endif
		cmocka_unit_test(test_exports),
		cmocka_unit_test(test_report),
	};

	if (argc == 3 && !strcmp(argv[1], "--report"))
		return report_child(argv[2]);
#if SETTLE_HAVE_EXT2FS
	if (argc == 3 && !strcmp(argv[1], "--kernel"))
		return kernel_child(argv[2]);
#else
	fprintf(stderr, "SKIP the shim against libext2fs: libext2fs-dev is "
		"not installed (sudo apt-get install -y libext2fs-dev)\n");
#endif
	return cmocka_run_group_tests(tests, setup, teardown);
}
