/*
 * large_popcount.c - `make test-large` (opt-in, not in CI: it needs
 * 4 GiB of memory and a few seconds per implementation). More than
 * 4 GiB of 0xFF bytes must count exactly 8 bits a byte through every
 * usable implementation and the dispatched function: any 32-bit count
 * or length on the way wraps and fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "settle_bits.h"

int main(void)
{
	const size_t len = (4ull << 30) + 4097; /* past 2^32 bytes */
	unsigned char *buf = mmap(NULL, len + 1, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fail = 0, run = 0;

	if (buf == MAP_FAILED) {
		perror("test-large: mmap 4 GiB");
		return 1;
	}
	memset(buf, 0xff, len);
	for (int i = 0; i < SETTLE_POPCOUNT_NIMPL; i++) {
		uint64_t got;

		if (!settle_popcount_usable(i))
			continue;
		got = settle_popcount_impl_fn(i)(buf + 1, len - 1);
		run++;
		if (got != 8 * (uint64_t)(len - 1)) {
			printf("FAIL %s: %llu, want %llu\n",
			       settle_popcount_impl_name(i),
			       (unsigned long long)got,
			       (unsigned long long)(8 * (uint64_t)(len - 1)));
			fail++;
		} else {
			printf("ok   %s: %llu bits in %zu bytes\n",
			       settle_popcount_impl_name(i),
			       (unsigned long long)got, len - 1);
		}
	}
	if (settle_popcount(buf, len) != 8 * (uint64_t)len) {
		printf("FAIL settle_popcount\n");
		fail++;
	}
	if (settle_popcount_range(buf, 8, 8 * (uint64_t)len - 16) !=
	    8 * (uint64_t)len - 16) {
		printf("FAIL settle_popcount_range\n");
		fail++;
	}
	printf("%d passed, %d failed\n", run + 2 - fail, fail);
	munmap(buf, len + 1);
	return fail != 0;
}
