/*
 * layout.c - text in columns: UTF-8 display widths, cleaning, wrapping
 * (see layout.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/layout.h"
#include "util/util.h"

int settle_cp_width(unsigned long c)
{
	if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) ||
	    (c >= 0xfe00 && c <= 0xfe0f))
		return 0;
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) ||
	    (c >= 0x20000 && c <= 0x3fffd))
		return 2;
	return 1;
}

int settle_text_width_n(const char *s, const char *e)
{
	const unsigned char *p = (const unsigned char *)s;
	int w = 0;

	/* a sequence never spans a space or the end, so p stops at e */
	while (*p && (!e || p < (const unsigned char *)e)) {
		size_t len;

		w += settle_cp_width(settle_utf8_next(p, &len));
		p += len;
	}
	return w;
}

int settle_text_width(const char *s)
{
	return settle_text_width_n(s, NULL);
}

char *settle_text_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char *out = malloc(strlen((const char *)p) + 1), *o = out;

	if (!out)
		return NULL;
	while (*p) {
		size_t len;
		unsigned long c = settle_utf8_next(p, &len);

		if (c == (unsigned char)SETTLE_NBSP) {
			*o++ = SETTLE_NBSP;
		} else if (c == '\n' || c == '\t' || c == '\r') {
			*o++ = ' ';
		} else if (c < 0x20 || (c >= 0x7f && c < 0xa0) ||
			   (c == 0xfffd && len == 1)) {
			*o++ = '?';
		} else {
			memcpy(o, p, len);
			o += len;
		}
		p += len;
	}
	*o = '\0';
	return out;
}

char *settle_text_nb(char *s)
{
	for (char *p = s; *p; p++)
		if (*p == ' ')
			*p = SETTLE_NBSP;
	return s;
}

void settle_spaces(FILE *f, int n)
{
	while (n-- > 0)
		fputc(' ', f);
}

void settle_wrap(FILE *f, const char *s, int col, int indent, int width)
{
	int start = col;

	while (*s) {
		const char *e;
		int w;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		for (e = s; *e && *e != ' '; e++)
			;
		w = settle_text_width_n(s, e);
		if (col > start && col + 1 + w > width) {
			fputc('\n', f);
			settle_spaces(f, indent);
			col = start = indent;
		} else if (col > start) {
			fputc(' ', f);
			col++;
		}
		/* a word wider than the line is cut between characters */
		while (s < e) {
			size_t len;
			int cw = settle_cp_width(settle_utf8_next((const unsigned char *)s,
							   &len));

			if (col + cw > width && col > indent) {
				fputc('\n', f);
				settle_spaces(f, indent);
				col = start = indent;
			}
			fputc(*s == SETTLE_NBSP ? ' ' : *s, f);
			fwrite(s + 1, 1, len - 1, f);
			col += cw;
			s += len;
		}
	}
	fputc('\n', f);
}

void settle_para(FILE *f, int indent0, int indent, int width,
		 const char *fmt, ...)
{
	char *raw = NULL, *txt;
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vasprintf(&raw, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	/* "3.69 GHz", "5 samples": a number stays with its unit */
	for (char *p = raw; *p; p++)
		if (*p == ' ' && p > raw && p[-1] >= '0' && p[-1] <= '9' &&
		    ((p[1] >= 'A' && p[1] <= 'Z') || (p[1] >= 'a' && p[1] <= 'z')))
			*p = SETTLE_NBSP;
	txt = settle_text_clean(raw);
	free(raw);
	if (!txt)
		return;
	settle_spaces(f, indent0);
	settle_wrap(f, txt, indent0, indent, width);
	free(txt);
}

