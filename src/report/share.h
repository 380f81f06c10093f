/*
 * share.h - the part of the result file that is about whole commands
 * (settle run --command): their runs' CPU times and perf counts, and what
 * follows from them (src/report/share.c). What is said of them is in
 * src/view/command.h.
 */
#ifndef SETTLE_REPORT_SHARE_H
#define SETTLE_REPORT_SHARE_H

#include <stdio.h>

#include "settle.h"

/*
 * The "command" object of result r of rep (nothing when r is not a whole
 * command), preceded by ", ": the runs' CPU times and the profile
 * counts, which settle_load_json reads back, and what follows from them
 * (medians, the CPU time against the baseline's, shares, intervals,
 * Amdahl's figures), which it recomputes (docs/result-format.md). one_line:
 * no line breaks (json-lines); else indented as the result file.
 */
void settle_json_command(FILE *f, const struct settle_report *rep,
			 const struct settle_result *r, int one_line);

struct settle_compare_share;

/*
 * One --share symbol's share in two files, as an object on one line:
 * the command's row, the symbol, each side's share with callees and its
 * 95 % interval, the change in percentage points with its interval, the
 * verdict (compare's json and json-lines; docs/output-formats.md).
 */
void settle_json_share_change(FILE *f, const struct settle_compare_share *c);

#endif
