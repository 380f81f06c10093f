/*
 * command.h - whole commands, timed the way hyperfine does with settle's
 * statistics: `settle run --command 'NAME=SHELL COMMAND' ...` (private to
 * settle).
 *
 * The commands are the variants of one claim, "command" (the first
 * command the baseline, operation "run", no size), so that verdicts,
 * result files, show, compare, every format and --processes work as for
 * claims. Each sample is one run of a fresh process, /bin/sh -c COMMAND,
 * standard input /dev/null, standard output discarded and standard
 * error to a file (its last lines for a failing run's message; writing
 * it is timed) (--show-output: both sent to settle's standard error),
 * not pinned to a CPU; its wall time is
 * CLOCK_MONOTONIC around fork, exec and wait4, its user and system CPU
 * time come from wait4's rusage (the command and every descendant it
 * waited for). Commands run in interleaved rounds: round k runs every
 * command once, in a row of a Williams design (A B, B A, ...; with three
 * commands or more every command runs after every other equally often:
 * settle_round_order in runner.h). Before the
 * rounds each command runs --warmup times untimed; --prepare runs before
 * every run (warm-up, timed, profiled), untimed.
 *
 * --share SYMBOL: after the rounds, each command runs as many times again
 * under `perf record -e cpu-clock -c PERIOD -g` (never a timed run:
 * perf's start-up and sampling would be in the time), and
 * `perf script -F period,ip,sym` of each run is counted with
 * src/runner/perf_script.c: the samples whose innermost frame is in SYMBOL
 * (self) and those with SYMBOL anywhere in the call chain (with callees).
 * PERIOD is 100 us of CPU time, or more for a command that would give over
 * 20 000 samples per run. The perf program is $SETTLE_PERF, else "perf"
 * on PATH. perf missing or not permitted (kernel.perf_event_paranoid) is
 * refused before anything runs; without privilege and with paranoid 2 only
 * user-space is sampled (cpu-clock:u), which the report says.
 */
#ifndef SETTLE_RUNNER_COMMAND_H
#define SETTLE_RUNNER_COMMAND_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "settle.h"
#include "model/command.h"

#define SETTLE_CMD_MAX 16        /* --command, at most */
#define SETTLE_CMD_NAME_MAX 32   /* bytes of a NAME */
#define SETTLE_WARMUP_MAX 1000
#define SETTLE_WARMUP_DEFAULT 1

/* The options of whole commands; main.c maps them onto its own codes. */
enum settle_command_opt {
	SETTLE_CMDOPT_COMMAND,
	SETTLE_CMDOPT_WARMUP,
	SETTLE_CMDOPT_PREPARE,
	SETTLE_CMDOPT_SHOW_OUTPUT,
	SETTLE_CMDOPT_IGNORE_FAILURE,
	SETTLE_CMDOPT_SHARE,
	SETTLE_CMDOPT_STDOUT,
	SETTLE_CMDOPT_N
};

/* Their getopt_long entries, the value of each being base + its enum. */
#define SETTLE_COMMAND_OPTIONS(base)					       \
	{ "command", required_argument, NULL, (base) + SETTLE_CMDOPT_COMMAND },\
	{ "warmup", required_argument, NULL, (base) + SETTLE_CMDOPT_WARMUP },  \
	{ "prepare", required_argument, NULL, (base) + SETTLE_CMDOPT_PREPARE },\
	{ "show-output", no_argument, NULL,				       \
	  (base) + SETTLE_CMDOPT_SHOW_OUTPUT },				       \
	{ "ignore-failure", no_argument, NULL,				       \
	  (base) + SETTLE_CMDOPT_IGNORE_FAILURE },			       \
	{ "share", required_argument, NULL, (base) + SETTLE_CMDOPT_SHARE },\
	{ "stdout", required_argument, NULL, (base) + SETTLE_CMDOPT_STDOUT }

/* The lines of `settle run --help` that describe them. */
#define SETTLE_COMMAND_USAGE						       \
"  --command 'NAME=SHELL COMMAND'\n"					       \
"                     time whole commands instead of claims: repeatable,\n" \
"                     the first is the baseline; each run a fresh\n"	       \
"                     /bin/sh -c, standard input /dev/null, output\n"       \
"                     discarded, rounds interleaved; wall time per run,\n"  \
"                     user and system CPU time beside it\n"		       \
"  --warmup N         untimed runs of each command first (default 1)\n"     \
"  --prepare CMD      a shell command run before every run, not timed\n"    \
"  --show-output      the commands' output to standard error\n"	       \
"  --stdout pipe      the commands' standard output to a pipe settle reads\n"\
"                     and discards (default null: /dev/null, which some\n"   \
"                     programs notice and skip their output's work)\n"      \
"  --ignore-failure   measure commands that exit non-zero (else an error);\n"\
"                     a run failed: the conclusion is not settled\n"	       \
"  --share SYMBOL     with --command: the share of perf's cpu-clock samples\n"\
"                     in SYMBOL, self and with its callees, with a 95%\n"   \
"                     interval, and what a k times faster SYMBOL saves by\n"\
"                     Amdahl's law (an estimate, not a bound: the measured\n"\
"                     change decides); repeatable; needs perf (linux-perf)\n"

/* One --command. */
struct settle_command {
	char name[SETTLE_CMD_NAME_MAX + 1];
	const char *shell;      /* the command line; points into argv */
};

/* Everything the command options said. Zero-initialised: nothing. */
struct settle_command_set {
	struct settle_command cmd[SETTLE_CMD_MAX];
	size_t n;
	unsigned warmup;        /* valid when have_warmup */
	int have_warmup;
	const char *prepare;    /* NULL: none */
	int show_output, ignore_failure;
	int stdout_pipe;        /* --stdout pipe */
	const char *share[SETTLE_SHARE_MAX];
	size_t nshare;
};

/*
 * Apply option which (enum settle_command_opt) with its argument arg
 * (NULL for the flags) to s. A --command is NAME=SHELL COMMAND: NAME is 1
 * to 32 letters, digits or "._-+:", unique; the command is not blank.
 * --warmup is a whole number 0..1000, --prepare a command that is not
 * blank, --stdout null or pipe, --share a symbol name of 1..255 bytes without blanks at its ends
 * or control characters (given twice: counted once). Returns 0, or -1
 * with a one-line message in err (errlen bytes).
 */
int settle_command_option(struct settle_command_set *s, int which,
			  const char *arg, char *err, size_t errlen);

/*
 * Check the whole command line once parsed: the other command options
 * need --command, and --command does not mix with claims (claims_too:
 * non-zero when claim names, FILE.c or a claim's option were given: see
 * the message). Returns 0, or -1 with a message in err.
 */
int settle_command_check(const struct settle_command_set *s, int claims_too,
			 char *err, size_t errlen);

/*
 * Measure the commands of s into rep (initialised with
 * settle_report_init; rep->options gives the samples per command, the
 * equivalence band and the progress stream), appending one result per
 * command, analysed (settle_analyze), each with its struct
 * settle_command_data. Returns an exit status: 0; 1 when a measured
 * command exits non-zero or is killed (without --ignore-failure) or
 * settle runs out of memory; 2 when a command is not found or cannot be
 * executed (sh's status 127 or 126), --prepare fails, or --share cannot
 * work (perf missing, not permitted, or failing); -2 when
 * settle_interrupted() asked to stop (the command running is sent
 * SIGTERM, perf's files are removed, err says "interrupted"). On 1, 2 or
 * -2, err holds a message (for 1 and 2 naming the command, its status
 * and the last lines of its standard error) and rep holds no result of
 * the commands. Perf's temporary files are registered with
 * settle_temp_add() while they exist.
 */
int settle_run_commands(struct settle_report *rep,
			const struct settle_command_set *s, char *err,
			size_t errlen);

#endif
