/* syscall.c - the founding pipe loop against a null system call. */
#include <errno.h>
#include <unistd.h>
#include <settle.h>
/* 1-byte write() to a pipe, read() back, errno = 0; pipe made once. */
static int fd[2] = { -1, -1 };
static uint64_t run_pipe(void *state, const void *arg, uint64_t iters)
{
	uint64_t ok = 0;
	char c = 'x';

	(void)state, (void)arg;
	if (fd[0] < 0 && pipe(fd))
		return 0;
	for (uint64_t i = 0; i < iters; i++) {
		errno = 0;
		ok += write(fd[1], &c, 1) == 1 && read(fd[0], &c, 1) == 1;
	}
	return ok;
}
static uint64_t run_null(void *state, const void *arg, uint64_t iters)
{
	uint64_t ok = 0;

	(void)state, (void)arg;
	for (uint64_t i = 0; i < iters; i++)
		ok += getppid() > 0; /* no libc cache */
	return ok;
}
static const struct settle_variant variants[] = { /* baseline first */
	{ .name = "null", .run = run_null, .description = "getppid()" },
	{ .name = "pipe-loop", .run = run_pipe, .description = "pipe I/O" },
};
static const struct settle_claim claim = {
	.name = "syscall", .title = "pipe loop vs null call", .check_iters = 64,
	.op_name = "call", .variants = variants, .nvariants = 2,
};
SETTLE_CLAIMS(&claim);
