/*
 * format.c - the --format names, and writing any format whole or not at
 * all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

static const struct {
	const char *name;
	enum settle_format fmt;
} formats[] = {
	{ "table", SETTLE_FORMAT_TABLE },
	{ "json", SETTLE_FORMAT_JSON },
	{ "md", SETTLE_FORMAT_MD },
	{ "text", SETTLE_FORMAT_TEXT },
	{ "csv", SETTLE_FORMAT_CSV },
	{ "gbench-json", SETTLE_FORMAT_GBENCH_JSON },
};

int settle_format_parse(const char *name, enum settle_format *fmt)
{
	for (size_t i = 0; name && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(name, formats[i].name) == 0) {
			*fmt = formats[i].fmt;
			return 0;
		}
	return -1;
}

static void print(FILE *f, const struct settle_report *rep,
		  enum settle_format fmt)
{
	struct settle_c_locale loc;

	switch (fmt) {
	case SETTLE_FORMAT_TABLE:
		settle_c_locale_begin(&loc);
		settle_print_table(f, rep);
		settle_c_locale_end(&loc);
		break;
	case SETTLE_FORMAT_JSON:
		settle_c_locale_begin(&loc);
		settle_json_doc(f, rep);
		settle_c_locale_end(&loc);
		break;
	case SETTLE_FORMAT_MD:
		settle_print_md(f, rep);
		break;
	case SETTLE_FORMAT_TEXT:
		settle_print_text(f, rep);
		break;
	case SETTLE_FORMAT_CSV:
		settle_print_csv(f, rep);
		break;
	case SETTLE_FORMAT_GBENCH_JSON:
		settle_print_gbench_json(f, rep);
		break;
	}
}

int settle_write_report(const struct settle_report *rep,
			enum settle_format fmt, const char *path, char *err,
			size_t errlen)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int rc;

	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	print(f, rep, fmt);
	if (fclose(f) != 0) {
		free(buf);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = settle_replace_file(path, buf, n, err, errlen);
	free(buf);
	return rc;
}
