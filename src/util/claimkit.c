/*
 * claimkit.c - small helpers that claims share: reproducible random
 * buffers and scale figures.
 */
#include <stdio.h>
#include <string.h>

#include "settle.h"
#include "settle_byteorder.h"

uint64_t settle_random_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void settle_fill_random(void *buf, size_t len, uint64_t seed)
{
	unsigned char *p = buf;
	size_t i = 0;

	for (; len - i >= 8; i += 8)
		settle_store_le64(p + i, settle_random_next(&seed));
	if (i < len) {
		unsigned char w[8];

		settle_store_le64(w, settle_random_next(&seed));
		memcpy(p + i, w, len - i);
	}
}

void settle_figure_set(struct settle_figure *f, const char *label,
		       const char *unit, double value, const char *note)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->label, sizeof(f->label), "%s", label);
	snprintf(f->unit, sizeof(f->unit), "%s", unit);
	f->value = value;
	snprintf(f->note, sizeof(f->note), "%s", note ? note : "");
}
