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
	int data;          /* read by programs (json, csv, ...): a stream
			      cut short would read as whole */
	int echo_table;    /* written to --output FILE, the table still goes
			      to standard output (json, gbench-json) */
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

/*
 * Write the member key (indented two spaces, a comma and a line end
 * after): for each claim of rep, what a reader needs to print its table
 * again (description, title, op_name, baseline, sizes, bytes_per_op,
 * show_cycles, original, its conclusion with v's verdict on it): a result
 * file's "claims".
 */
void settle_json_claims(FILE *f, const char *key,
			const struct settle_report *rep,
			const struct settle_view *v);

/*
 * Write, each as ",\n     \"member\": ...", why r may be invalid, so that a
 * reader decides again: "invalid" (the reason, where r is), the
 * repetition check ("repetition_check") and the read limit it was judged
 * against ("read_limit_bytes_per_ns"), where r has them: a result file's
 * members of a result.
 */
void settle_json_evidence(FILE *f, const struct settle_result *r);

#endif
