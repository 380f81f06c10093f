/* helpers.h - reference code the tests share (not part of settle). */
#ifndef SETTLE_TEST_HELPERS_H
#define SETTLE_TEST_HELPERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The whole of the file at path, NUL-terminated, in memory the caller
 * frees; NULL when it cannot be read. */
static inline char *read_whole(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n) {
		buf[n] = '\0';
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Set bits of buf[0..len), one bit at a time: the reference count. */
static inline uint64_t reference(const unsigned char *buf, size_t len)
{
	uint64_t n = 0;

	for (size_t i = 0; i < len; i++)
		for (int b = 0; b < 8; b++)
			n += (buf[i] >> b) & 1u;
	return n;
}

/* Marsaglia's xorshift64 ("Xorshift RNGs", JSS 8(14), 2003). */
static inline uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* len test bytes from seed (any seed, 0 included). */
static inline void fill_random(unsigned char *p, size_t len, uint64_t seed)
{
	uint64_t s = seed | 1;

	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(xorshift64(&s) >> 56);
}

/*
 * n readable and writable pages between two PROT_NONE pages, so that a
 * read or write past either end faults: the first of the n pages, or
 * NULL when mmap or mprotect fails. Free with guarded_free(p, n).
 */
static inline unsigned char *guarded_pages(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, (n + 2) * pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	if (mprotect(m, pg, PROT_NONE) ||
	    mprotect(m + (n + 1) * pg, pg, PROT_NONE)) {
		munmap(m, (n + 2) * pg);
		return NULL;
	}
	return m + pg;
}

static inline void guarded_free(unsigned char *p, size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	if (p)
		munmap(p - pg, (n + 2) * pg);
}

#endif
