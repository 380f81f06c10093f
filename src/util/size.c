/* size.c - printing byte counts with binary units (settle_parse_size(),
 * which the primitives library needs for SETTLE_BSWAP_NT_BYTES as well, is
 * in src/prim/size.c). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "settle.h"

char *settle_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB",
					     "TiB", "PiB", "EiB" };
	unsigned i = 0;

	while (i < 6 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)bytes, units[i]);
	return buf;
}
