/*
 * command.h - what settle says about whole commands (settle run
 * --command; src/view/command.c): the commands, their CPU time beside the
 * wall time, the share of a symbol in perf's samples with its interval,
 * and what Amdahl's law says a faster symbol saves (an estimate: an
 * out-of-order CPU overlaps work). The view builder puts it into the claim's view as
 * lines; the formats lay them out.
 */
#ifndef SETTLE_VIEW_COMMAND_H
#define SETTLE_VIEW_COMMAND_H

#include <stdint.h>

#include "settle.h"
#include "view/view.h"

/* The speed-ups Amdahl's figure is given for: 2, 10 and infinity. */
#define SETTLE_AMDAHL_NK 3
extern const double settle_amdahl_k[SETTLE_AMDAHL_NK];

/* The share of one --share symbol in one command's samples. */
struct settle_share_stat {
	uint64_t samples;           /* perf samples of the command, all runs */
	uint64_t self_n, with_n;    /* of them in the symbol: self, with
				       its callees */
	uint64_t cut_n;             /* of them with a call chain cut short */
	uint64_t unnamed_n;         /* when the symbol is in none of them
				       (else 0): those with a frame perf
				       could not name, which it may be (a
				       stripped program); a name perf found
				       once names all its frames */
	/* fractions, 95 % Wilson intervals; with callees the upper end of
	   with_n + cut_n + unnamed_n samples: the symbol may be above any
	   cut, or any frame perf could not name */
	double self, self_lo, self_hi;
	double with, with_lo, with_hi;
	double with_hi_own;         /* the upper end of with_n's own
				       interval, the cut chains and unnamed
				       frames left out */
	double cpu_ns;  /* median CPU time of a timed run that the samples
			   divide: user + system, or user alone when perf
			   sampled user space only */
	double wall_ns; /* median wall time of a timed run */
	/* what the percentages are of: wall_ns, or cpu_ns where that is
	   the longer (a command on more than one CPU at once: the CPU time
	   saved, a bound on the wall time saved too, is more than a share
	   of the wall time; 40.8 ms of 66.4 ms were once 61 % for k = 2) */
	double basis_ns;
	int of_cpu;     /* basis_ns is cpu_ns */
	double off_ns;  /* wall_ns - cpu_ns, or 0: the time off the CPU,
			   which no cpu-clock sample sees */
	/* Amdahl for k = settle_amdahl_k[j]: with x cpu_ns x (1 - 1/k),
	   its interval from with_lo and from with_hi and off_ns (all of
	   the time off the CPU may be the symbol's), and in % of basis_ns */
	double saved_ns[SETTLE_AMDAHL_NK];
	double saved_lo_ns[SETTLE_AMDAHL_NK], saved_hi_ns[SETTLE_AMDAHL_NK];
	double saved_pct[SETTLE_AMDAHL_NK];
};

/*
 * The share of symbol k (index into r->command->share) in result r.
 * Returns 0; -1 when r was not profiled or has no samples (st all 0), or
 * when the symbol is in none of them: then only the upper bounds are set
 * (self_hi, with_hi, saved_hi_ns, cpu_ns, wall_ns, samples), so that no
 * share is ever given as 0 %.
 */
int settle_share_of(const struct settle_result *r, size_t k,
		    struct settle_share_stat *st);

/*
 * The CPU time (user + system) of result i of rep against its baseline's,
 * paired by round like the wall time (settle_compare_paired, the report's
 * band). Returns 0; -1 for a baseline, a result that is not a whole
 * command, or when no CPU time was measured (c->why says so).
 */
int settle_command_cpu_cmp(const struct settle_report *rep, size_t i,
			   struct settle_comparison *c);

/* Median user and system CPU time per run of r, ns (0 without command
 * data). */
void settle_command_cpu(const struct settle_result *r, double *user_ns,
			double *sys_ns);

/*
 * The lines under the table of claim vc of view v when its results are
 * whole commands (none otherwise): the commands and how they ran, CPU
 * time per run, and for --share the share of each symbol, self and with
 * callees, with its 95 % interval and Amdahl's figure for k = 2, 10 and
 * infinity; and, with --share, the claim's conclusion (the share and
 * what making the symbol infinitely fast saves by Amdahl's law). Returns 0, or -1
 * when out of memory.
 */
int settle_view_command(struct settle_view *v, struct settle_view_claim *vc);

/*
 * The conclusion of a claim of whole commands run with --share, from the
 * baseline's profile (else the first profiled result's): for each symbol
 * its share with callees and its 95 % interval, and what making it
 * infinitely fast saves per run by Amdahl's law (an estimate, not a
 * bound), then each variant's measured ratio. Writes the sentence (len
 * bytes) and, when it does not settle the question, why (whylen bytes;
 * "" when it does): no samples; a symbol in no sample, or with samples
 * named after glibc's implementation of it or after a caller it was
 * inlined into without debug information; a variant whose measured
 * saving (by its interval's upper end) is more than the upper end of
 * Amdahl's figure of all the symbols together, which the profile does not
 * explain (more changed, a callee missed, or work after them waited on
 * their results); a command on more than one CPU, thread or process; a
 * symbol's figure whose upper end lies more than SETTLE_QUOTE_SPREAD of a
 * run above it (too uncertain to quote). Returns 1, or 0 when no result of vc was profiled
 * (sentence and why ""): the generic conclusion applies.
 */
int settle_command_conclusion(const struct settle_view_claim *vc,
			      char *sentence, size_t len, char *why,
			      size_t whylen);

/*
 * The share with callees of each --share symbol that the whole commands a
 * (of the old file) and b (of the new one) were both profiled for, in
 * both: each side's 95 % interval (settle_share_of(); a symbol in none
 * of a side's samples is 0 there, up to its upper bound) and the
 * interval of the change, in fractions of the samples
 * (settle_proportion_difference(), Newcombe's method 10): "larger" or
 * "smaller" when it excludes 0, else "unclear". name is the row's name.
 * A symbol one side was not profiled for, or a side without perf
 * samples, or profiled differently (event, call chains): "not compared"
 * (numbers NaN), its text saying why. Writes at most max entries to out
 * (the two sides' --share symbols together suffice) and returns how many.
 */
size_t settle_share_changes(const struct settle_result *a,
			    const struct settle_result *b, const char *name,
			    struct settle_compare_share *out, size_t max);

#endif
