/*
 * peer-work.c - a fixed, CPU-bound command for bench/macro-*.sh: about a
 * quarter of its work in part_a(), three quarters in part_b(), both
 * called from main(). Build with -O0 (every function keeps its frame
 * pointer, so perf's call chains see the callers).
 *
 *   peer-work [N]   N million steps (default 100)
 */
#include <stdlib.h>

static volatile unsigned long sink;

static void part_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

static void part_b(unsigned long n)
{
	for (unsigned long i = 0; i < 3 * n; i++)
		sink += i;
}

int main(int argc, char **argv)
{
	unsigned long n = (argc > 1 ? strtoul(argv[1], NULL, 10) : 100) *
			  1000000ul / 4;

	part_a(n);
	part_b(n);
	return 0;
}
