/* common.c - what every output format derives from a report. */
#include <math.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <stdio.h>

#include "report/report.h"

size_t settle_scale_of(const struct settle_report *rep,
		       const struct settle_result *r,
		       struct settle_figure *out, size_t max)
{
	size_t n = r->nfigures < max ? r->nfigures : max;

	(void)rep;
	for (size_t i = 0; i < n; i++)
		out[i] = r->figures[i];
	return n;
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

size_t settle_report_claims(const struct settle_report *rep,
			    const struct settle_claim_info **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_claim_info *c = rep->results[i].claim;
		size_t j;

		for (j = 0; j < n && out[j] != c; j++)
			;
		if (j == n && n < max)
			out[n++] = c;
	}
	return n;
}

int settle_claim_grouped(const struct settle_report *rep,
			 const struct settle_claim_info *c)
{
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *v = &rep->results[i];

		if (v->claim == c && (v->build || v->nparams))
			return 1;
	}
	return 0;
}

int settle_claim_unstable(const struct settle_report *rep,
			  const struct settle_claim_info *c)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c && rep->results[i].unstable &&
		    !rep->results[i].skipped)
			return 1;
	return 0;
}

const char *settle_cycles_note(const struct settle_report *rep,
			       const struct settle_claim_info *c)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].claim == c && rep->results[i].cycles_source &&
		    !strcmp(rep->results[i].cycles_source, "perf_event_open"))
			return "counted with perf_event_open (mean per operation)";
	return "median x core clock estimated from an add chain (no hardware "
	       "counters)";
}

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

int settle_output_target(const char *path, char *resolved, size_t len,
			 char *err, size_t errlen)
{
	struct stat st;
	char probe[4096];
	int fd;

	if (strcmp(path, "-") == 0) {
		snprintf(resolved, len, "-");
		return 0;
	}
	/* a symbolic link: write the file it names, keep the link */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		char link[4096];
		ssize_t k = readlink(path, link, sizeof(link) - 1);
		const char *slash = strrchr(path, '/');

		if (k < 0) {
			snprintf(err, errlen, "cannot write %s: %s", path,
				 strerror(errno));
			return -1;
		}
		link[k] = '\0';
		if (link[0] == '/' || !slash)
			snprintf(resolved, len, "%s", link);
		else
			snprintf(resolved, len, "%.*s/%s", (int)(slash - path),
				 path, link);
	} else {
		snprintf(resolved, len, "%s", path);
	}
	if (stat(resolved, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "cannot write %s: not a regular file (a "
			 "directory, device or FIFO); refusing to replace it",
			 path);
		return -1;
	}
	/* can a temporary file be made beside it? (missing or read-only
	 * directory, a name too long) */
	errno = 0;
	if ((size_t)snprintf(probe, sizeof(probe), "%s.tmp.XXXXXX", resolved) >=
	    sizeof(probe) || (fd = mkstemp(probe)) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(errno ? errno : ENAMETOOLONG));
		return -1;
	}
	close(fd);
	unlink(probe);
	return 0;
}
