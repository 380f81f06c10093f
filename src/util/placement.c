/*
 * placement.c - where layout k puts data and the stack (see placement.h;
 * code padding is the build's, src/byob), and settle_alloc(), the
 * allocator that claims use for the buffers they work on.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "settle.h"
#include "util/placement.h"

#define PAGE 4096u
#define LINE 64u
#define COLOURS 16u
#define MAGIC 0x5e771e0a110cull

static _Thread_local unsigned next_buffer;

size_t settle_layout_stack(unsigned k)
{
	return 16 * (k % 4) + 64 * ((k * 29u) % 64);
}

size_t settle_layout_data_offset(unsigned k, unsigned n, size_t align)
{
	uint64_t seed = ((uint64_t)k << 32) ^ n, h;
	size_t line, colour;

	if (k == 0)
		return 0;
	h = settle_random_next(&seed);
	line = (size_t)(h % (PAGE / LINE)) * LINE;
	colour = (size_t)((h >> 32) % COLOURS) * PAGE;
	return line / align * align + colour / align * align;
}

void settle_layout_begin(void)
{
	next_buffer = 0;
}

/* What settle_free() needs, just below the buffer. */
struct header {
	uint64_t magic;
	void *raw;
};

void *settle_alloc(const struct settle_params *p, size_t bytes, size_t align)
{
	size_t unit, off, total;
	struct header h;
	char *raw, *buf;

	if (align & (align - 1) || align > ((size_t)1 << 30)) {
		errno = EINVAL;
		return NULL;
	}
	if (align < 16)
		align = 16;
	unit = align > PAGE ? align : PAGE;
	off = settle_layout_data_offset(p ? p->layout : 0, next_buffer++,
					align);
	/* one unit before the buffer holds the header */
	if (bytes > SIZE_MAX - 2 * unit - off) {
		errno = ENOMEM;
		return NULL;
	}
	total = (unit + off + bytes + unit - 1) / unit * unit;
	raw = aligned_alloc(unit, total);
	if (!raw)
		return NULL;
	buf = raw + unit + off;
	h.magic = MAGIC;
	h.raw = raw;
	memcpy(buf - sizeof(h), &h, sizeof(h));
	return buf;
}

void settle_free(void *buf)
{
	struct header h;

	if (!buf)
		return;
	memcpy(&h, (char *)buf - sizeof(h), sizeof(h));
	if (h.magic != MAGIC)
		abort(); /* not settle_alloc()'s: memory is corrupt */
	free(h.raw);
}
