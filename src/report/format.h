/*
 * format.h - an output format (src/report/): how a view is laid out.
 * Each format is one file defining one struct settle_format, listed once
 * in format.c's FORMATS table. A format decides layout only; what is said
 * comes from the view (src/view/view.h).
 */
#ifndef SETTLE_FORMAT_H
#define SETTLE_FORMAT_H

#include <stdio.h>

#include "view/view.h"

struct settle_format {
	const char *name;  /* the --format name */
	/* Lay out a run's or a file's view (NULL: not for settle run/show). */
	void (*report)(FILE *f, const struct settle_view *v);
	/* Lay out a comparison (NULL: refused by settle compare). */
	void (*compare)(FILE *f, const struct settle_compare_view *cv);
};

/*
 * Write r's parameters as the JSON member key: {"size_bytes": N (a sized
 * claim's), "build": B (where r has one), then each parameter, a number
 * or true/false as it stands, else a string}: a result file's "params",
 * which settle reads back (src/model/load.c).
 */
void settle_json_params(FILE *f, const char *key,
			const struct settle_result *r);

#endif
