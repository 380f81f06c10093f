/*
 * view.h - what settle says about a report, decided once.
 *
 * settle_view_build() turns a report into a view: the machine's facts,
 * then per claim its rows (one per result: a status, typed cells already
 * written out, marks, the verdict), the notes under its table, its scale
 * section with numbered footnote marks; then the noise and its warnings.
 * settle_compare_build() does the same for result files compared with
 * each other. The output formats (src/report/) only lay a view out: which
 * words, numbers, marks and warnings appear is decided here, from the
 * rules in src/stats/rules.h, so every format says the same thing.
 *
 * Every text of a view that comes from a claim or a file (names, titles,
 * labels, reasons, notes, file names) is escaped for a terminal
 * (settle_escape(): control characters and escape sequences written out);
 * data formats (csv, json, json-lines) take the raw values from the
 * results instead.
 */
#ifndef SETTLE_VIEW_H
#define SETTLE_VIEW_H

#include <stddef.h>

#include "settle.h"

/* A fact about the machine or the run, e.g. "caches" = "L1d 32 KiB, ...".
 * brief: the short form for one-line layouts (NULL: leave it out there). */
struct settle_view_item {
	const char *key;
	char text[1100];
	char brief[160];
	int in_brief;   /* part of the one-line form */
	int info_only;  /* 1: said by `settle info` only; -1: above a run's
			   tables only; 0: both */
	int detail;     /* too long for the head of a run's tables: in
			   `settle info` and in details only */
};

#define SETTLE_VIEW_MAX_ITEMS 14

/* What a row can show. */
enum settle_row_status {
	SETTLE_ROW_MEASURED,  /* times, ratio and verdict */
	SETTLE_ROW_SKIPPED,   /* not run here; status_text says why */
	SETTLE_ROW_BELOW_RES, /* no time: a sample was below the resolution */
	SETTLE_ROW_INVALID,   /* the work was not done as timed: no time;
				 status_text says why, with a hint */
};

/* How a row stands against its baseline. */
enum settle_row_role {
	SETTLE_ROLE_NONE,     /* no baseline in its group: no ratio */
	SETTLE_ROLE_BASELINE, /* it is the baseline */
	SETTLE_ROLE_COMPARED, /* ratio, interval and verdict */
};

struct settle_view_row {
	const struct settle_result *r; /* raw numbers, for data formats */
	enum settle_row_status status;
	const char *status_text; /* the reason, for a row not measured */
	char size[24];           /* "4 KiB"; "" for a claim without sizes */
	const char *label;       /* the variant's table label */
	int reference;           /* a physical limit: remark "(reference)" */
	const char *mark;        /* "!" for an unstable row, else "" */
	const char *lmark;       /* "~" for a layout-sensitive row, else "" */
	char median[24], best[24]; /* times with units, "1.633 us" */
	char mad[16];            /* "12.8%" */
	char bytes[16];          /* "48.12" (B/ns), "" without throughput */
	char cycles[16];         /* "2.90", "" without cycles */
	enum settle_row_role role;
	char ratio[16];          /* "0.344x", "1.000x" for the baseline, "-" */
	char lo[16], hi[16];     /* the interval's bounds, "0.320"; "" */
	const char *verdict;     /* "faster", ..., "baseline", or "" */
	const char *why;         /* why unclear, or NULL */
};

/* A paragraph under a table. mark: the mark it explains ("!", "*"), or "". */
struct settle_view_note {
	const char *mark;
	char text[1024];
};

#define SETTLE_VIEW_MAX_NOTES 8

/* The claim's own terms: one row per result that has figures. */
struct settle_view_scale_cell {
	char value[40];   /* "0.07114 s" */
	const char *mark; /* "*", "**", ... or "" */
};

struct settle_view_scale_row {
	const char *label;
	char size[24];
	size_t n;
	struct settle_view_scale_cell cell[SETTLE_MAX_FIGURES];
};

struct settle_view_line {
	int level;
	char *text; /* escaped, whole (owned by the view) */
};

struct settle_view_claim {
	const struct settle_claim_info *claim;
	const char *title;
	const char *op_name;
	int sized, show_bytes, show_cycles;
	struct settle_view_row *rows;
	size_t nrows;
	struct settle_view_note notes[SETTLE_VIEW_MAX_NOTES];
	size_t nnotes;
	/* scale section */
	size_t ncols;
	const char *cols[SETTLE_MAX_FIGURES];
	struct settle_view_scale_row *scale;
	size_t nscale;
	struct settle_view_note scale_notes[4];
	size_t nscale_notes;
	/* lines under the table (whole commands: how they ran, CPU time,
	 * shares): level 0 a paragraph, 1 an item, 2 a line under an item */
	struct settle_view_line *lines;
	size_t nlines;
	/* the conclusion: "settled: ..." or "not settled: why; ..." */
	int has_conclusion, settled;
	const char *reason;      /* why not settled, or NULL */
	/* the whole line, escaped, and the sentence alone: room for a whole
	 * command's (it was cut at 600 bytes, mid-word, before the ratios):
	 * a clause per --share symbol, 8 of at most 480 bytes (a name of 255,
	 * a command's of 32, the figures), one per command, 16 of at most 80,
	 * about 5.2 KB; the reason before it at most 2 KB (two --share
	 * symbols and a file's name in it) */
	char conclusion[8192 + 2048];
	char sentence[8192];
	const struct settle_conclusion *numbers; /* the claim's, or NULL */
};

#define SETTLE_VIEW_MAX_WARNINGS 8
/* Bytes of one of compare's "the files come from different ..."
 * warnings: two file names (256 bytes each, as loaded) and two values
 * (bswap_sizes: 320 each) fit whole; longer (escaped) text is cut
 * visibly. */
#define SETTLE_VIEW_DIFFERENCE_LEN 2048

struct settle_view {
	const struct settle_report *rep;
	int info;          /* only the machine, as `settle info` says it */
	struct settle_view_item items[SETTLE_VIEW_MAX_ITEMS];
	size_t nitems;
	struct settle_view_claim *claims;
	size_t nclaims;
	char noise[600];   /* one sentence: what else happened */
	char warnings[SETTLE_VIEW_MAX_WARNINGS][200];
	size_t nwarnings;
	char **strings;    /* what the view owns: escaped names */
	size_t nstrings;
};

/* "layout-sensitive, +-X %": the reason of an unclear verdict on a row
 * whose time moves with its layout, spread the relative spread of its
 * layouts' medians (X is half of it, in per cent), into buf. */
char *settle_layout_why(double spread, char *buf, size_t len);

/* The words a claim's conclusion and compare's summary begin with... */
#define SETTLE_SETTLED "settled: "
#define SETTLE_NOT_SETTLED "not settled: "
/* ...and the sentence after them in line (md and the data formats write
 * the words their own way). */
const char *settle_conclusion_body(const char *line, int settled);

/* SETTLE_WHY_RATIO_MOVES with how far: "its ratio moves with the layout,
 * +-X %: where the code sits decides", spread the largest layout's ratio
 * over the smallest's, less 1 (X is half of it, in per cent), into buf. */
char *settle_moves_why(double spread, char *buf, size_t len);

/*
 * What every sample of rep lasted at least, into buf (len bytes): the
 * minimum time asked, "2.0 ms", when no sample was shorter or none is
 * known (settle_report_shortest_sample()); else the shortest, rounded
 * down to 3 significant digits, and the minimum asked: "1.96 ms (2.0 ms
 * asked)"; with --quick said inside the parentheses: "2.0 ms (--quick)",
 * "1.96 ms (2.0 ms asked, --quick)".
 */
void settle_sample_floor(const struct settle_report *rep, char *buf,
			 size_t len);

/*
 * Build the view of rep (which must outlive it). Returns 0, or -1 when
 * out of memory. Free with settle_view_free().
 */
int settle_view_build(const struct settle_report *rep, struct settle_view *v);
void settle_view_free(struct settle_view *v);

/* ---- compare ----------------------------------------------------------- */

enum settle_cmp_status {
	SETTLE_CMP_MEASURED,
	SETTLE_CMP_NO_TIME, /* a side has no time of the work's: no
			       samples, every one 0, invalid or below the
			       clock's resolution (verdict "invalid",
			       "unclear" or "": undefined); why says which */
};

/* How compare's rows were compared (settle_compare_view.layouts). */
enum {
	SETTLE_BY_UNITS = 1,      /* some row layout by layout, in balanced
				     units of each file's process */
	SETTLE_BY_PROCESS = 2,    /* some row per process */
	SETTLE_BY_POOLED = 4,     /* some row from pooled samples (not in
				     layouts in both files) */
	SETTLE_BY_POOLED_CLAIM = 8, /* some of those a claim's, which layouts
				       could have placed (a command has none) */
	SETTLE_BY_POOLED_GBENCH = 16, /* some of those of a Google Benchmark
					 file, which keeps no layouts */
};

/* What compare's summary names besides the rows
 * (settle_compare_view.caveats). */
enum {
	SETTLE_CAVEAT_MACHINES = 1, /* the files come from different machines
				       (CPU model, ISA extensions, kernel) */
	SETTLE_CAVEAT_NOISE = 2,    /* a file was measured under noise (load,
				       stolen time, clock drift, a shared
				       CPU) */
	SETTLE_CAVEAT_MOVED = 4,    /* a claim's baseline moved between files
				       of one machine and build (moved
				       names the first) */
	SETTLE_CAVEAT_CHECK = 8,    /* a row computed another check value in
				       each file */
	SETTLE_CAVEAT_CPUS = 16,    /* (with MOVED) the files were pinned to
				       different CPUs */
	SETTLE_CAVEAT_SAME = 32,    /* the new file holds the old one's
				       samples */
};

struct settle_compare_row {
	const struct settle_result *old_r, *new_r; /* first of each key */
	enum settle_cmp_status status;
	char name[400];        /* "popcount 4 KiB table8" */
	const char *claim;     /* claim name */
	char size[24];         /* "" without a size */
	const char *label;
	double old_median, new_median; /* ns, pooled */
	char old_text[24], new_text[24];
	double change, lo, hi; /* per cent: new / old - 1 */
	double level;          /* the interval's confidence (0..1): below
				  0.95 with 3 processes in a file */
	int ci;                /* the interval is printed (level >= 0.90):
				  lo and hi mean something */
	char change_text[16], lo_text[16], hi_text[16]; /* "+0.98%" */
	size_t n_old, n_new;
	const char *mark;      /* "!" when unstable on either side */
	const char *lmark;     /* "~" when layout-sensitive on either side */
	const char *verdict, *why;
	char why_buf[160];     /* why, when it is made for the row */
	int slower;            /* called slower */
	int invalid_new;       /* the new file's result is invalid */
	int invalid_old;       /* the old file's is (any repetition) */
	int empty_new;         /* the new file's result has no samples (and
				  was not skipped) */
};

/* The share of a --share symbol in a whole command's perf samples, with
 * its callees, in both files (settle_share_changes()). */
struct settle_compare_share {
	char name[400];        /* the command's row: "cmd base" */
	const char *symbol;    /* owned by the new file's result */
	double old_with, old_lo, old_hi; /* fractions, 95 % Wilson; the */
	double new_with, new_lo, new_hi; /* upper ends count cut chains in */
	double change, lo, hi; /* new - old, fractions (Newcombe) */
	const char *verdict;   /* "larger", "smaller" or "unclear"; "not
				  compared" (numbers NaN) when the files
				  profiled it differently, a side was not
				  profiled for it, has no perf samples,
				  perf named some of its samples after
				  glibc's implementations of it, or settle
				  found no debug information for its code */
	char why[800];         /* why "not compared" ("the new file's run has
				  no perf samples"; a file's name in it),
				  else "" */
	char text[2048];       /* the whole line, said once for every format:
				  room for a name, a symbol escaped and the
				  numbers */
};

/* What the lines of a section's shares are, said above them. */
#define SETTLE_SHARE_CHANGES_HEAD "--share: each symbol's share of " \
	"the command's perf samples with its callees, old -> new (95% " \
	"intervals; the change in percentage points, Newcombe's interval)"

struct settle_compare_section {
	const struct settle_report *old, *nw;
	char old_name[300], new_name[300]; /* the files, escaped */
	struct settle_compare_row *rows;
	size_t nrows, nmeasured;
	char (*only_old)[400];
	size_t nonly_old;
	char (*only_new)[400];
	size_t nonly_new;
	int has_geomean;
	double gm, gm_lo, gm_hi; /* per cent */
	char gm_text[16], gm_lo_text[16], gm_hi_text[16];
	const char *gm_method; /* "bootstrap", or "per unit": the mean over
				  the rows of each unit (process, round) */
	struct settle_compare_share *shares; /* --share symbols of its
						whole commands */
	size_t nshares;
};

struct settle_compare_view {
	char (*differences)[SETTLE_VIEW_DIFFERENCE_LEN]; /* "the files come
						     from different ..." */
	size_t ndifferences;
	struct settle_compare_section *sections;
	size_t nsections;
	struct settle_view_note notes[7]; /* change, !, balanced units, per
					     process, under 95 %, pooled, ~ */
	size_t nnotes;
	int layouts;       /* how rows were compared: SETTLE_BY_* bits */
	int caveats;       /* what the summary names besides the rows:
			      SETTLE_CAVEAT_* bits */
	char moved[440];   /* "layout-test cc -O2 steady +30.00%" */
	char warnings[2 * SETTLE_VIEW_MAX_WARNINGS][700];
	size_t nwarnings;
	double band;
	size_t slower; /* rows called slower */
	/* what else --fail-on fails on, one sentence each: no row in common,
	 * a file without results, rows of the old file missing from a new
	 * one, invalid rows in a new file */
	char failures[8][300];
	size_t nfailures;
	/* what changed, in one line: "settled: ..." or "not settled: ..." */
	int settled;
	char summary[1400];
};

/*
 * Build the view of old compared with news[0..nnew): per claim, variant
 * and parameters of news[k] that old also has, the change of the time
 * with its 95 % interval and verdict (by processes' levels or balanced
 * units when both files allow, else every repetition of each side
 * pooled, settle_compare_unpaired()); a geometric-mean row (two or more
 * rows; per unit when every row has as many units a side, else a
 * bootstrap interval, fixed seed); the rows only one side has;
 * the differences between the machines and builds; each file's noise.
 * slower counts rows called slower whose change is at least fail_pct
 * per cent (any change when fail_pct <= 0); failures says what else a
 * --fail-on check must fail on. Returns 0, or -1 when out of
 * memory. Free with settle_compare_free().
 */
int settle_compare_build(const struct settle_report *old,
			 const struct settle_report *const *news, size_t nnew,
			 double fail_pct, struct settle_compare_view *cv);
void settle_compare_free(struct settle_compare_view *cv);

#endif
