/*
 * size.c - settle_parse_size(), the one grammar of sizes: settle run's
 * --size and the SETTLE_BSWAP_NT_BYTES environment variable. Here, in the
 * primitives library, because the byte-swap kernels read that variable;
 * the harness library (settle.h) declares and exports it as well.
 */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "prim/size.h"

static int suffix_shift(const char *s, unsigned *shift)
{
	static const char units[] = "KMGTPE";
	const char *u;

	if (*s == '\0') {
		*shift = 0;
		return 0;
	}
	if (strcmp(s, "B") == 0 || strcmp(s, "b") == 0) {
		*shift = 0;
		return 0;
	}
	u = strchr(units, toupper((unsigned char)s[0]));
	if (!u)
		return -1;
	*shift = 10 * (unsigned)(u - units + 1);
	s++;
	/* Accept "K", "KB", "KiB" (all binary). */
	if (*s == '\0' || strcmp(s, "B") == 0 || strcmp(s, "iB") == 0)
		return 0;
	return -1;
}

int settle_parse_size(const char *s, uint64_t *bytes)
{
	uint64_t v = 0;
	unsigned shift;
	int big = 0;
	const char *p = s;

	if (!s || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			big = 1;
		v = v * 10 + d;
	}
	if (suffix_shift(p, &shift) < 0)
		return -1;
	if (big || (shift && v > (UINT64_MAX >> shift)))
		return -2;
	if (v == 0)
		return -1;
	*bytes = v << shift;
	return 0;
}
