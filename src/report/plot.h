/*
 * plot.h - pictures of a report drawn by gnuplot (src/report/plot.c).
 */
#ifndef SETTLE_PLOT_H
#define SETTLE_PLOT_H

#include "settle.h"


enum settle_plot_kind {
	SETTLE_PLOT_AUTO,       /* the sweeps when there are any, else the
				   distributions: a picture of sensible size */
	SETTLE_PLOT_ALL,        /* the sweeps, then every distribution */
	SETTLE_PLOT_THROUGHPUT, /* only the sweeps (error if there is none) */
	SETTLE_PLOT_SAMPLES,    /* only the distributions */
};

/*
 * The picture format settle_plot() writes for path, from its extension
 * (case-insensitive): "svg" for .svg, "png" for .png, NULL otherwise.
 */
const char *settle_plot_format(const char *path);

/*
 * Draw rep (a run, or a result file loaded with settle_load_json) into
 * path, an SVG or PNG picture chosen by its extension:
 *  - for each claim with throughput measured at two or more buffer sizes
 *    (a sweep): throughput in bytes per ns (= GB/s) against the buffer
 *    size on a log2 axis, one line per variant through the medians, bars
 *    over the middle half of the samples (quartiles), and dashed vertical
 *    lines at the machine's L1d, L2 and last-level cache sizes
 *    (rep->machine.caches) labelled L1d, L2, LLC;
 *  - for each claim and size: every sample of each variant (time per
 *    operation) as a box plot with the samples drawn over it.
 * Results below the clock's resolution and skipped variants are left out.
 * gnuplot (the environment variable SETTLE_GNUPLOT names another program
 * or path) runs on a script and data written to a temporary directory
 * under $TMPDIR (default /tmp), removed afterwards; the picture is written
 * whole or not at all (temporary file beside path, fsync, rename).
 * Returns 0, or -1 with a one-line message in err: an extension other
 * than .svg or .png, gnuplot missing (the message gives the apt-get
 * command), nothing to plot, gnuplot failing, or path not writable.
 */
int settle_plot(const struct settle_report *rep, const char *path,
		enum settle_plot_kind kind, char *err, size_t errlen);

#endif
