/*
 * format.c - the output formats by name, and writing any of them whole
 * or not at all, in the C locale.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/format.h"
#include "util/util.h"

/*
 * Every format: X(identifier), defined in src/report/<identifier>.c as
 * `const struct settle_format settle_format_<identifier>`. A new format
 * is its file and one entry here.
 */
#define FORMATS(X) X(table) X(json) X(md) X(text) X(csv) X(jsonl) X(gbench)

#define DECLARE(id) extern const struct settle_format settle_format_##id;
FORMATS(DECLARE)
#define ENTRY(id) &settle_format_##id,
static const struct settle_format *const formats[] = { FORMATS(ENTRY) };
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static const struct settle_format *find(const char *name)
{
	for (size_t i = 0; name && i < NFORMATS; i++)
		if (!strcmp(name, formats[i]->name))
			return formats[i];
	return NULL;
}

int settle_format_known(const char *name, int for_compare)
{
	const struct settle_format *f = find(name);

	return f && (for_compare ? f->compare != NULL : f->report != NULL);
}

int settle_format_is_data(const char *name)
{
	const struct settle_format *f = find(name);

	return f && f->data;
}

int settle_format_echoes_table(const char *name)
{
	const struct settle_format *f = find(name);

	return f && f->echo_table;
}

const char *settle_format_for_path(const char *path)
{
	static const struct { const char *ending, *format; } by_ending[] = {
		{ ".md", "md" }, { ".csv", "csv" }, { ".txt", "text" },
		{ ".jsonl", "json-lines" },
	};
	const char *dot = path ? strrchr(path, '.') : NULL;

	if (dot && strchr(dot, '/'))
		dot = NULL; /* a dot in a directory's name */
	for (size_t i = 0; dot && i < sizeof(by_ending) / sizeof(*by_ending);
	     i++)
		if (!strcasecmp(dot, by_ending[i].ending))
			return by_ending[i].format;
	return "json";
}

char *settle_format_names(int for_compare, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < NFORMATS && used < len; i++) {
		const struct settle_format *f = formats[i];
		int k;

		if (for_compare ? !f->compare : !f->report)
			continue;
		k = snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			     f->name);
		if (k > 0)
			used += (size_t)k;
	}
	return buf;
}

/* Lay out into memory and write it whole: the report or the comparison. */
static int write_out(const struct settle_format *fmt,
		     const struct settle_view *v,
		     const struct settle_compare_view *cv, const char *path,
		     char *err, size_t errlen)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int rc;

	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (v)
		fmt->report(f, v);
	else
		fmt->compare(f, cv);
	if (fclose(f) != 0) {
		free(buf);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = settle_replace_file(path, buf, n, err, errlen);
	free(buf);
	return rc;
}

static int write_view(const struct settle_report *rep, const char *format,
		      int info, const char *path, char *err, size_t errlen)
{
	const struct settle_format *fmt = find(format);
	struct settle_c_locale loc;
	struct settle_view v;
	int rc;

	if (!fmt || !fmt->report) {
		snprintf(err, errlen, "unknown format '%s'", format);
		return -1;
	}
	/* numbers are written out in the view already: C locale for both */
	settle_c_locale_begin(&loc);
	rc = settle_view_build(rep, &v);
	if (rc < 0) {
		snprintf(err, errlen, "out of memory");
	} else {
		v.info = info;
		rc = write_out(fmt, &v, NULL, path, err, errlen);
		settle_view_free(&v);
	}
	settle_c_locale_end(&loc);
	return rc;
}

int settle_write_report(const struct settle_report *rep, const char *format,
			const char *path, char *err, size_t errlen)
{
	return write_view(rep, format, 0, path, err, errlen);
}

int settle_write_machine(const struct settle_report *rep, const char *path,
			 char *err, size_t errlen)
{
	return write_view(rep, "table", 1, path, err, errlen);
}

/* The first section (a new file against the old) with no row in common,
 * or nsections. */
static size_t nothing_compared(const struct settle_compare_view *cv)
{
	size_t k = 0;

	while (k < cv->nsections && cv->sections[k].nrows)
		k++;
	return k;
}

/* The rows a --fail-on check fails on for being slower, on f: how many,
 * and the first by name with its change ("settle: --fail-on: 2 rows
 * slower (by 5% or more): first popcount 4 KiB auto +8.07%"). */
static void say_slower(FILE *f, const struct settle_compare_view *cv,
		       double fail_pct)
{
	char by[40] = "";

	if (!cv->slower)
		return;
	if (fail_pct > 0)
		snprintf(by, sizeof(by), " by %g%% or more", fail_pct);
	for (size_t k = 0; k < cv->nsections; k++)
		for (size_t i = 0; i < cv->sections[k].nrows; i++) {
			const struct settle_compare_row *w =
				&cv->sections[k].rows[i];

			if (!w->slower || (fail_pct > 0 &&
					   w->change < fail_pct))
				continue;
			fprintf(f, "settle: --fail-on: %zu row%s slower%s; "
				"first: %s %s\n", cv->slower,
				cv->slower > 1 ? "s" : "", by, w->name,
				w->change_text);
			return;
		}
}

int settle_write_compare(const struct settle_report *old,
			 const struct settle_report *const *news, size_t nnew,
			 double fail_pct, const char *format, const char *path,
			 FILE *failures, size_t *slower, char *err,
			 size_t errlen)
{
	const struct settle_format *fmt = find(format);
	struct settle_compare_view cv;
	struct settle_c_locale loc;
	size_t k;
	int rc;

	if (!fmt || !fmt->compare) {
		snprintf(err, errlen, "settle compare has no format '%s'",
			 format);
		return -1;
	}
	settle_c_locale_begin(&loc);
	rc = settle_compare_build(old, news, nnew, fail_pct, &cv);
	if (rc < 0) {
		snprintf(err, errlen, "out of memory");
	} else {
		rc = write_out(fmt, NULL, &cv, path, err, errlen);
		*slower = cv.slower;
		if (failures)
			say_slower(failures, &cv, fail_pct);
		for (size_t i = 0; i < cv.nfailures && failures; i++)
			fprintf(failures, "settle: --fail-on: %s\n",
				cv.failures[i]);
		if (failures && cv.slower && (cv.layouts & SETTLE_BY_POOLED))
			fprintf(failures, "settle: --fail-on: slower by pooled "
				"samples of each run, which do not show how far "
				"another run of the same code differs (%s)\n",
				cv.layouts & SETTLE_BY_POOLED_CLAIM ?
				"measure both files with "
				"--layouts 4" :
				cv.layouts & SETTLE_BY_POOLED_GBENCH ?
				"measure with "
				"settle run --layouts 4" : "whole commands have "
				"no layouts: a file's runs share one session of "
				"the machine");
		if (failures)
			*slower += cv.nfailures;
		k = nothing_compared(&cv);
		if (rc == 0 && k < cv.nsections) {
			snprintf(err, errlen, "%s has no row in common with %s",
				 cv.sections[k].nw->source,
				 cv.sections[k].old->source);
			rc = 1;
		}
		settle_compare_free(&cv);
	}
	settle_c_locale_end(&loc);
	return rc;
}
