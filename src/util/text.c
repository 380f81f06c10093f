/*
 * text.c - text services: UTF-8, JSON strings and numbers, units of
 * time, the C locale for writers.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

unsigned long settle_utf8_next(const unsigned char *p, size_t *len)
{
	unsigned long c = p[0], min;
	size_t n;

	*len = 1;
	if (c < 0x80)
		return c;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return 0xfffd;
	}
	/* a continuation byte is never NUL, so this stops at the end */
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0xfffd;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0xfffd;
	*len = n;
	return c;
}

void settle_json_string(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', f);
	while (*p) {
		size_t len;
		unsigned long c = settle_utf8_next(p, &len);

		p += len;
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc((int)c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c == '\r') {
			fputs("\\r", f);
		} else if (c >= 0x20 && c < 0x7f) {
			fputc((int)c, f);
		} else {
			/* control, DEL and every non-ASCII character */
			unsigned long u[2] = { c, 0 };
			int n = 1;

			if (c > 0xffff) {
				c -= 0x10000;
				u[0] = 0xd800 | (c >> 10);
				u[1] = 0xdc00 | (c & 0x3ff);
				n = 2;
			}
			for (int i = 0; i < n; i++)
				fprintf(f, "\\u%c%c%c%c", hex[u[i] >> 12 & 15],
					hex[u[i] >> 8 & 15], hex[u[i] >> 4 & 15],
					hex[u[i] & 15]);
		}
	}
	fputc('"', f);
}

void settle_json_number(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else
		fprintf(f, "%.12g", v);
}

char *settle_format_ns(double ns, char *buf, size_t len)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i = 0;

	if (!isfinite(ns) || ns < 0)
		ns = 0;
	while (i < 3 && ns < u[i].div)
		i++;
	double v = ns / u[i].div;
	snprintf(buf, len, "%.*f %s", v >= 100 ? 1 : v >= 10 ? 2 : 3, v,
		 u[i].unit);
	return buf;
}

void settle_c_locale_begin(struct settle_c_locale *l)
{
	l->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	l->old = l->c ? uselocale(l->c) : (locale_t)0;
}

void settle_c_locale_end(struct settle_c_locale *l)
{
	if (!l->c)
		return;
	uselocale(l->old);
	freelocale(l->c);
	l->c = (locale_t)0;
}

