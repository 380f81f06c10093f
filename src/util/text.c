/*
 * text.c - text services: UTF-8, JSON strings and numbers, units of
 * time, the C locale for writers.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

int settle_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t len;

		/* an invalid sequence decodes as U+FFFD one byte long; the
		 * character itself is three */
		if (settle_utf8_next(p, &len) == 0xfffd && len == 1)
			return 0;
		p += len;
	}
	return 1;
}

int settle_int64_text(const char *s)
{
	const char *d = s + (*s == '-');
	char *end;

	if (*d < '0' || *d > '9' || (*d == '0' && d[1] != '\0'))
		return 0;
	errno = 0;
	(void)strtoll(s, &end, 10);
	return errno == 0 && *end == '\0';
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

/* Unicode's bidirectional formatting characters (UAX #9, section 2):
 * sent raw, they reorder what a terminal shows after them. */
static int bidi_control(unsigned long c)
{
	return c == 0x061c || c == 0x200e || c == 0x200f ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

char *settle_escape(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t cap = 6 * strlen((const char *)p) + 1, n = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	while (*p) {
		size_t len;
		unsigned long c = settle_utf8_next(p, &len);

		if (c == 0xfffd && len == 1)          /* invalid UTF-8 */
			n += (size_t)sprintf(out + n, "\\x%02x", *p);
		else if (c < 0x20 || c == 0x7f)       /* C0, DEL: \x1b */
			n += (size_t)sprintf(out + n, "\\x%02lx", c);
		else if ((c >= 0x80 && c < 0xa0) ||   /* C1: \u009b */
			 bidi_control(c))             /* \u202e */
			n += (size_t)sprintf(out + n, "\\u%04lx", c);
		else {
			memcpy(out + n, p, len);
			n += len;
		}
		p += len;
	}
	out[n] = '\0';
	return out;
}

void settle_escape_in(char *buf, size_t len)
{
	char *e = settle_escape(buf);

	if (e) {
		snprintf(buf, len, "%s", e);
		free(e);
	}
}

void settle_json_number(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else
		fprintf(f, "%.12g", v);
}

/* Decimals that keep 4 significant digits of v in [1, 1000). */
static int ns_decimals(double v)
{
	return v >= 100 ? 1 : v >= 10 ? 2 : 3;
}

char *settle_format_ns(double ns, char *buf, size_t len)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
		{ 1e-3, "ps" },
	};
	size_t i = 0;
	double v, r;
	int d;

	if (!isfinite(ns) || ns < 0) {
		snprintf(buf, len, "unknown");
		return buf;
	}
	if (ns == 0) {
		snprintf(buf, len, "0 ns");
		return buf;
	}
	if (ns < 1e-6) { /* below a thousandth of a picosecond */
		snprintf(buf, len, "%.3g ns", ns);
		return buf;
	}
	/* the largest unit in which the value is at least 1 (ns down to
	 * 0.1, then ps) */
	while (i < 4 && ns < u[i].div)
		i++;
	if (i == 4 && ns >= 0.1)
		i = 3;
	for (;;) {
		v = ns / u[i].div;
		d = ns_decimals(v);
		r = round(v * pow(10, d)) / pow(10, d);
		/* the unit is chosen after rounding: 999.96 ns is 1.000 us */
		if (r >= 1000 && i > 0) {
			i--;
			continue;
		}
		if (ns_decimals(r) != d) /* 99.996 rounds to 100.00 */
			d = ns_decimals(r);
		break;
	}
	if (i == 0 && v >= 1e5) /* days of time: never wider than a column */
		snprintf(buf, len, "%.3g s", v);
	else
		snprintf(buf, len, "%.*f %s", d, v, u[i].unit);
	return buf;
}

char *settle_format_num(double v, int decimals, char *buf, size_t len)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "unknown");
	else if (v != 0 && a < 0.5 * pow(10, -decimals))
		snprintf(buf, len, "%.2g", v); /* never 0.000 for a non-zero */
	else if (snprintf(buf, len, "%.*f", decimals, v) > 9)
		snprintf(buf, len, "%.3g", v); /* never wider than a column */
	return buf;
}

char *settle_format_ratio(double v, char *buf, size_t len)
{
	if (isfinite(v) && v != 0 && fabs(v) < 0.01)
		snprintf(buf, len, "%.2g", v); /* 0.0005 is not 0.001 */
	else
		settle_format_num(v, 3, buf, len);
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

size_t settle_utf8_start(const char *s, size_t i)
{
	while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

char *settle_elide(const char *s, size_t max, char *buf, size_t len)
{
	size_t n = strlen(s), tail, head;

	if (n <= max || max < 16 || max + 6 > len) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	tail = settle_utf8_start(s, n - max / 4);
	head = settle_utf8_start(s, max - max / 4 - 5);
	snprintf(buf, len, "%.*s ... %s", (int)head, s, s + tail);
	return buf;
}

void settle_trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n'))
		s[--n] = '\0';
	while (s[i] == ' ')
		i++;
	memmove(s, s + i, n - i + 1);
}

char *settle_utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	buf[0] = '\0';
	if (now != (time_t)-1 && gmtime_r(&now, &tm) &&
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		buf[0] = '\0';
	return buf;
}

long long settle_utc_parse(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	struct tm tm, back;
	time_t t;

	if (!s || strlen(s) != sizeof(shape) - 1)
		return -1;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i])
			return -1;
	memset(&tm, 0, sizeof(tm));
	sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
	       &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec);
	if (tm.tm_year < 1970)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	back = tm;
	t = timegm(&back);
	/* a day the month has not (02-31) comes back as another date */
	if (t == (time_t)-1 || back.tm_mday != tm.tm_mday ||
	    back.tm_mon != tm.tm_mon || back.tm_hour != tm.tm_hour ||
	    back.tm_min != tm.tm_min || back.tm_sec != tm.tm_sec)
		return -1;
	return (long long)t;
}
