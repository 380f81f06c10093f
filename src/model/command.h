/*
 * command.h (model) - what the result of a whole command carries besides
 * its wall times (struct settle_result.command; settle run --command, see
 * src/runner/command.h): the CPU time of each run and the counts of the
 * perf profile. A result owns its record: settle_report_free frees it,
 * settle_report_pool adds another process's to it.
 */
#ifndef SETTLE_MODEL_COMMAND_H
#define SETTLE_MODEL_COMMAND_H

#include <stddef.h>
#include <stdint.h>

#define SETTLE_SHARE_MAX 8       /* --share symbols, at most */
#define SETTLE_SYMBOL_MAX 255    /* bytes of a --share SYMBOL */

#define SETTLE_IMPL_NAME 64      /* bytes of an implementation's name */
#define SETTLE_DSO_NAME 256      /* bytes of a file perf sampled code in */
#define SETTLE_THREADS_MAX 64    /* busy threads told apart; more are
				    SETTLE_THREADS_MAX + 1 */

struct settle_share_count {
	char *symbol;
	uint64_t self;          /* samples whose innermost frame is in it */
	uint64_t children;      /* samples with it anywhere in the chain */
	uint64_t impl;          /* samples whose innermost frame is in an
				   implementation glibc chose for it at load
				   (perf names them after it: __strlen_avx2,
				   __memmove_avx512_unaligned_erms for
				   memcpy), in none of the above */
	char impl_name[SETTLE_IMPL_NAME]; /* one of them, or "" */
	char no_debug[SETTLE_DSO_NAME]; /* a file perf named its frames in
				   that settle found no debug information
				   for (perf then names a sample in a copy
				   inlined into a caller after the caller:
				   its share may be too low), or "" (none,
				   or a file from before 2026-12-07) */
};

struct settle_command_data {
	char *shell;            /* the command */
	char *prepare;          /* the --prepare command, or NULL */
	unsigned warmup;        /* untimed runs before the rounds */
	int stdout_pipe;        /* its standard output went to a pipe
				   settle drained (--stdout pipe), not
				   to /dev/null */
	size_t n;               /* runs: entries of user_ns and sys_ns, one
				   per sample of the result, same order */
	double *user_ns, *sys_ns; /* CPU time of each run, ns (wait4) */
	size_t escaped;         /* processes its runs left running outside
				   their process group (setsid, a daemon),
				   which settle ended after the run */
	size_t failed;          /* timed runs that failed: a non-zero exit
				   or a signal (measured under
				   --ignore-failure) */
	size_t failed_untimed;  /* warm-up and profiled runs that failed
				   so (a profile of failing runs is not
				   of the timed work) */
	/* --share (event[0] == '\0': not profiled) */
	char event[24];         /* "cpu-clock", or "cpu-clock:u" */
	uint64_t period_ns;     /* CPU time per sample */
	int call_chains;        /* how perf recorded call chains:
				   SETTLE_CHAINS_* */
	unsigned profiled_runs;
	unsigned profiled_again; /* runs profiled again and dropped: perf
				   unwound more than a tenth of their DWARF
				   chains with frame pointers (not in
				   samples) */
	uint64_t samples;       /* over all profiled runs */
	uint64_t any;           /* of them with any --share symbol in the
				   call chain */
	uint64_t cut;           /* of them whose call chain reaches no
				   process or thread entry: cut short, a
				   symbol above the cut missing from it */
	uint64_t unnamed;       /* of them with a whole chain (or none
				   recorded) but a frame perf could not
				   name ("[unknown]"), which a symbol in
				   no sample may be (a stripped program);
				   0 in a file from before they were
				   counted */
	unsigned busy_threads;  /* most threads (and processes) that took
				   samples in a profiled run, a shell that
				   forked the command aside (its start
				   takes 1-2 %);
				   0 when not counted (a file from before
				   2026-12-07) */
	int counted;            /* any and cut were counted; else (a file
				   from before they were) any is the sum of
				   the symbols' samples and cut 0 */
	size_t nshare;
	struct settle_share_count share[SETTLE_SHARE_MAX];
};

/* How --share's call chains were recorded: none, by walking the frame
 * pointers (perf record -g: a function that sets up no frame, such as a
 * leaf in libc's assembly, hides its caller), or unwound with the DWARF
 * call-frame information from a copy of each sample's user stack (perf
 * record --call-graph dwarf,SETTLE_CHAINS_STACK: a chain deeper than the
 * copy is cut). */
enum { SETTLE_CHAINS_NONE, SETTLE_CHAINS_FP, SETTLE_CHAINS_DWARF };
#define SETTLE_CHAINS_STACK 8192 /* bytes of user stack per sample */

/* A new, empty record for the command shell (prepare may be NULL);
 * returns NULL when out of memory. */
struct settle_command_data *settle_command_data_new(const char *shell,
						    const char *prepare);

/* Room for more runs in user_ns and sys_ns (n unchanged). Returns 0, or
 * -1 when out of memory. */
int settle_command_data_reserve(struct settle_command_data *d, size_t more);

/* Add the counts of one profiled run (or of another file's profile) to
 * s: samples self, with callees, and in an implementation glibc chose for
 * it (impl, one of them named impl_name, kept when s has none yet), and a
 * file of its code without debug information (no_debug, "" for none; kept
 * when s has none yet). */
void settle_share_count_add(struct settle_share_count *s, uint64_t self,
			    uint64_t children, uint64_t impl,
			    const char *impl_name, const char *no_debug);

/* Add a symbol of --share, with no samples yet; returns its index or -1
 * (out of memory, or SETTLE_SHARE_MAX symbols already). */
long settle_command_data_add_symbol(struct settle_command_data *d,
				    const char *symbol);

/*
 * Append src's runs to dst and add its profile (the same symbols, the
 * same event and period, or dst has no profile yet), as when the results
 * of fresh processes are pooled. Returns 0, or -1 (dst unchanged) when
 * out of memory or the profiles cannot be added up.
 */
int settle_command_data_pool(struct settle_command_data *dst,
			     const struct settle_command_data *src);

/* Free d and everything it owns (NULL: nothing). */
void settle_command_data_free(struct settle_command_data *d);

#endif
