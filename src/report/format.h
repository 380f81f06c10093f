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

#endif
