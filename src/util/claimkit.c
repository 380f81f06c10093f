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

void settle_conclusion_number(struct settle_conclusion *c, const char *name,
			      double value, const char *unit)
{
	if (c->nnumbers == SETTLE_MAX_NAMED)
		return;
	snprintf(c->numbers[c->nnumbers].name,
		 sizeof(c->numbers[0].name), "%s", name);
	snprintf(c->numbers[c->nnumbers].unit,
		 sizeof(c->numbers[0].unit), "%s", unit ? unit : "");
	c->numbers[c->nnumbers++].value = value;
}

static void conclusion_row(struct settle_conclusion *c,
			   const struct settle_result *r, int by_time)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].label, r->label) &&
		    c->rows[i].size_bytes == r->size_bytes) {
			c->rows[i].by_time &= by_time;
			return;
		}
	if (c->nrows == SETTLE_MAX_NAMED)
		return;
	snprintf(c->rows[c->nrows].label, sizeof(c->rows[0].label), "%s",
		 r->label);
	c->rows[c->nrows].by_time = by_time;
	c->rows[c->nrows++].size_bytes = r->size_bytes;
}

void settle_conclusion_row(struct settle_conclusion *c,
			   const struct settle_result *r)
{
	conclusion_row(c, r, 0);
}

void settle_conclusion_row_time(struct settle_conclusion *c,
				const struct settle_result *r)
{
	conclusion_row(c, r, 1);
}

int settle_result_measured(const struct settle_result *r)
{
	return !r->skipped && r->nsamples > 0 && !r->below_resolution &&
	       !r->invalid[0];
}

const struct settle_result *settle_result_find(const struct settle_result *res,
					       size_t n, const char *label,
					       uint64_t size_bytes)
{
	uint64_t size = size_bytes;

	if (size == UINT64_MAX) {
		size = 0;
		for (size_t i = 0; i < n; i++)
			if (res[i].size_bytes > size)
				size = res[i].size_bytes;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(res[i].label, label) && res[i].size_bytes == size &&
		    settle_result_measured(&res[i]))
			return &res[i];
	return NULL;
}
