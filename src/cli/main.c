/*
 * main.c - the settle command: it parses arguments (getopt_long for every
 * command: --opt value and --opt=value) and dispatches to the layers
 * (claims -> runner -> model -> view -> formats); it measures and decides
 * nothing itself.
 *
 * Exit status: 0 success, 1 a measurement failed (a variant computed a
 * different answer, set-up failed), compare --fail-on tripped or selftest
 * missed a target, 2 bad
 * usage, unreadable or foreign result file, or unwritable output.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "settle.h"
#include "settle_bits.h"
#include "settle_byteorder.h"
#include "claims.h"
#include "byob/byob.h"
#include "runner/command.h"
#include "report/plot.h"
#include "runner/runner.h"
#include "runner/selftest.h"
#include "stats/rules.h"
#include "prim/bswap_kernels.h"
#include "util/env_value.h"
#include "util/util.h"

#define SETTLE_VERSION "0.1.0"
#define MAX_SIZES 64
#define MAX_FILES 16
#define MAX_LISTED 64 /* claims settle list prints at most */

static const char usage_main[] =
"usage: settle <command> [options]\n"
"\n"
"Settle low-level performance arguments with numbers that hold up.\n"
"\n"
"commands:\n"
"  list [CLAIM...]      every claim and variant, one line each\n"
"  list FILE.c          the claims and variants of a C file of your own\n"
"  run [CLAIM...]       measure claims (default: popcount endian syscall\n"
"                       segprefix) and print their tables\n"
"  run FILE.c           measure the claims of a C file of your own\n"
"  run --command N=CMD  time whole shell commands, each run a sample\n"
"  info                 describe this machine, its clock and the build\n"
"  show FILE            print the tables of a result file again\n"
"  selftest             measure the harness: A/A false positives, detection\n"
"                       of a 3% / 2% difference, chain latencies\n"
"  compare OLD NEW...   compare result files: change, interval, verdict\n"
"  plot FILE -o OUT     draw a result file (SVG or PNG, with gnuplot):\n"
"                       throughput by buffer size, every sample\n"
"  help [COMMAND]       this text, or a command's options\n"
"  --version, version   settle's version\n"
"\n"
"`settle COMMAND --help` shows a command's options.\n";

static const char usage_version[] =
"usage: settle --version   (or settle version)\n"
"\n"
"Print settle's version, one line: settle X.Y.Z.\n";

static const char usage_run[] =
"usage: settle run [CLAIM...] [options]\n"
"       settle run FILE.c [CLAIM...] [--build \"CC FLAGS\"]... [options]\n"
"       settle run --command 'NAME=SHELL COMMAND'... [options]\n"
"\n"
"Measure each CLAIM (default: popcount endian syscall segprefix): every\n"
"variant is checked against the baseline, then timed in interleaved\n"
"rounds; the table shows median and best time per operation, the spread\n"
"(median absolute deviation), throughput, and the ratio to the baseline.\n"
"FILE.c: claims of your own (docs/writing-a-claim.md), compiled once per\n"
"--build and cached; every build's variants run in one table.\n"
"\n"
"options:\n"
"  --size SIZE        buffer size, repeatable: 4096, 4K, 128M, 4G, 128T\n"
"                     (binary units); replaces the claim's default sizes\n"
"  --variant NAME     run only this variant (and the baseline); repeatable\n"
"  --samples N        samples per variant and size (default 15, quick 5)\n"
"  --min-time MS      aim each sample at MS milliseconds or more (default\n"
"                     10, quick 2); the header says what they lasted\n"
"  --cpu N            pin to CPU N (default: the CPU settle starts on)\n"
"  --quick            fewer samples and shorter samples (CI, emulators)\n"
"  --rigorous         the preset settle selftest checks its targets with: 40\n"
"                     samples of >= 2 ms (10 in each of 4 layouts) in each\n"
"                     of 9 fresh processes. Cost per variant and size:\n"
"                     9 x ~80 calls of >= 2 ms (the samples, calibration,\n"
"                     a warm-up per visit of a layout, the repetition\n"
"                     check) = ~1.4 s, plus ~0.1 s per process and the\n"
"                     claim's set-up 8 times per process (was 1.7 s with\n"
"                     21 samples of >= 10 ms and one layout)\n"
"  --processes N      repeat the whole measurement in N fresh processes and\n"
"                     pool them (default 1); with N > 1 verdicts take the\n"
"                     process as the unit (a verdict needs N >= 3); a\n"
"                     conclusion settles from N >= 3 (a --command run's\n"
"                     from 1; compare settles from 3 a file, commands too)\n"
"  --layouts N        measure in N layouts (default 1): the claim's buffers\n"
"                     (settle_alloc), the stack and, for FILE.c, the code\n"
"                     (compiled once per layout) placed N ways, one after\n"
"                     another in each process; without --processes, N\n"
"                     fresh processes (at least 3); a row whose time moves\n"
"                     with the layout is marked ~ and a verdict is about\n"
"                     the mean over the layouts (docs/layouts.md); a\n"
"                     FILE.c's rows get verdicts only when N is a\n"
"                     multiple of 4 (its code's four 16-byte slots), its\n"
"                     functions start on them (not gcc -Os) and, where\n"
"                     a ratio moves with the layout, every layout says it\n"
"  --full             also measure the claim's large sizes (popcount: the\n"
"                     4 GiB bitmaps of a 128 TB file system)\n"
"  --device-mbps X    device speed for the endian scale, MB/s (default 13)\n"
"  --equivalence PCT  ratios within +-PCT % count as the same (default 1;\n"
"                     above 0, at most 50)\n"
"  --format FMT       table (default), json (the result file), md (GitHub\n"
"                     Markdown), text (plain, <= 72 columns), csv,\n"
"                     json-lines (one JSON object per result), or\n"
"                     gbench-json (Google Benchmark's JSON, for its tools)\n"
"  -o, --output FILE  write the result there, whole or not at all; without\n"
"                     --format, in the format FILE's name ends with (.md,\n"
"                     .csv, .txt, .jsonl; .svg and .png are refused: settle\n"
"                     plot draws), else json, the result file (with\n"
"                     json and gbench-json the table still goes to standard\n"
"                     output); '-' is standard output (the table\n"
"                     without --format)\n"
"  --build \"CC FLAGS\" with FILE.c: a compiler and its flags, repeatable\n"
"                     (default \"cc -O2\"); every build must compute the\n"
"                     same check values\n"
"  --verbose          with FILE.c: say which cached object each build uses\n"
SETTLE_COMMAND_USAGE
"  -h, --help         this text\n";

static const char usage_list[] =
"usage: settle list [CLAIM...]\n       settle list FILE.c [CLAIM...]\n\n"
"Print every built-in claim (or the ones named) and its variants, one\n"
"line each; or those of FILE.c (compiled with cc -O2, as settle run\n"
"FILE.c does), all or the ones named.\n";

static const char usage_show[] =
"usage: settle show FILE [--equivalence PCT] [--format FMT]\n\n"
"Print the tables of a result file (written by settle run --format json,\n"
"or a Google Benchmark JSON file) again; statistics and verdicts are\n"
"recomputed from its samples. --format: table (default), json, md, text,\n"
"csv, json-lines or gbench-json, as for settle run. `settle run\n"
"--output r.json` and `settle show r.json` print the same tables: the\n"
"band is the file's (settle run --equivalence) unless --equivalence\n"
"is given.\n";

static const char usage_compare[] =
"usage: settle compare OLD NEW [NEW2...] [options]\n\n"
"For every claim/variant/params in both files: old and new median, the\n"
"change in % with its 95% interval and a verdict. When both files were\n"
"measured by 3 processes or more each (both in layouts, or neither), the\n"
"process is the unit: its mean level, compared by Welch's t interval\n"
"(Yuen's trimmed means from 5 processes a file). Both in layouts by\n"
"fewer processes: balanced units (one sample of every layout, averaged\n"
"over the layouts), compared as pooled samples are. Otherwise all\n"
"repetitions of a name are pooled: two-sample Hodges-Lehmann shift of\n"
"log times, Mann-Whitney interval, which shows the spread within each\n"
"run, not how far another run differs (the summary then says not\n"
"settled). A geometric-mean row closes each comparison. Warns when\n"
"the files come from different CPU models, ISA extensions, kernels,\n"
"compilers, read limits (what settle's read limit reads with), popcount\n"
"or byte-swap kernels, byte-swap size ranges or settings (samples, their\n"
"length, processes, pinned CPU),\n"
"and when a file was measured under other load (other work keeping more\n"
"than 0.25 CPUs busy; in older files, a load average above 0.5), with\n"
"more than 1% of the CPU time stolen by the hypervisor or with the core\n"
"clock drifting by more than 1%. A file is a settle result file or\n"
"a Google Benchmark JSON file (--benchmark_format=json): claim = the\n"
"name up to the first '/', variant = the rest, samples = its repetitions\n"
"(aggregates left out). A new file with no row in common with the old\n"
"(same claim, variant and parameters) compares nothing: exit 2 (1 under\n"
"--fail-on), as soon as one new file of several does.\n\n"
"options:\n"
"  --equivalence PCT  changes within +-PCT % count as the same (default 1;\n"
"                     above 0, at most 50)\n"
"  --fail-on slower   exit 1 when any row is slower, or when the check\n"
"                     cannot be made: a file without results, no row in\n"
"                     common, a row of OLD missing from NEW, an invalid row,\n"
"                     a row with too few samples to decide (one a side)\n"
"                     (each said on standard error); an unclear row\n"
"                     does not trip it (the summary says not settled)\n"
"  --fail-on PCT      the same, with slower meaning by PCT % or more\n"
"  --format FMT       table (default), md, text (<= 72 columns), csv,\n"
"                     json (one document) or json-lines (one object per\n"
"                     compared row)\n"
"  -h, --help         this text\n";

static const char usage_selftest[] =
"usage: settle selftest [options]\n\n"
"Measure settle itself, each trial in fresh processes: (a) A/A: one\n"
"function registered as two variants, how often the verdict is faster or\n"
"slower (false positives) and how often same; (b) how often a variant\n"
"doing 3% more work is called slower (band 1%), and 2% more work (band\n"
"0.5%); (c) the latency of dependent popcnt and imul chains in core\n"
"cycles, measured against a dependent add chain; (d) layouts: the same\n"
"popcount loop compiled in 4 places, copy k against copy k+2 in layout\n"
"k (A/A, 3% more work, and A/A in one layout; x86-64 only).\n\n"
"options:\n"
"  --quick            20 A/A and 10 detection trials of short samples (CI)\n"
"  --aa-trials N      A/A trials (default 200)\n"
"  --detect-trials N  trials per detection case (default 100)\n"
"  --layout-trials N  A/A trials of a popcount loop placed 4 ways (default\n"
"                     200; 0 skips them), and N/2 with 3% more work, N/5\n"
"                     in one layout\n"
"  --samples N, --min-time MS, --processes N, --layouts N, --cpu N\n"
"                     settings of each trial (default: the --rigorous\n"
"                     settings: 40 samples of >= 2 ms, 4 layouts, 9\n"
"                     processes)\n"
"  --format FMT       table (default; json with --output) or json\n"
"  -o, --output FILE  write the JSON result there, whole or not at all\n";

static const char usage_info[] =
"usage: settle info [--cpu N]\n\n"
"Describe the machine: CPU, usable ISA extensions (cpuid and XCR0), caches,\n"
"kernel, hypervisor, mitigations, the clock (TSC rate, read cost,\n"
"resolution), the estimated core clock, and the build.\n";

static const char usage_plot[] =
"usage: settle plot FILE -o OUT.svg|OUT.png [--kind KIND]\n"
"\n"
"Draw a result file (settle run --format json) with gnuplot. For a claim\n"
"measured at two or more sizes (settle run popcount --size 1K --size 1M\n"
"...): throughput in B/ns against the buffer size, one line per variant,\n"
"both axes logarithmic so that every variant shows, with the machine's\n"
"L1d, L2 and last-level cache sizes (from the file; under a hypervisor,\n"
"as it reports them) as dashed lines. For every claim and size (with\n"
"--kind samples or all, or by default when the file has no sweep): each\n"
"variant's samples, a box plot with every sample drawn over it.\n"
"The extension chooses SVG or PNG; the picture is written whole or not\n"
"at all. Needs gnuplot: sudo apt-get install -y gnuplot-nox.\n"
"\n"
"options:\n"
"  -o, --output OUT   the picture to write: a name ending in .svg or .png\n"
"  --kind KIND        auto (default: the size sweeps when the file has\n"
"                     any, else the distributions), throughput (only the\n"
"                     sweeps), samples (only the distributions), or all\n"
"  -h, --help         this text\n";

__attribute__((format(printf, 1, 2)))
static int fail_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "settle: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return 2;
}

/* ---- option values ------------------------------------------------------ */

/*
 * The value arg of option --name: what (e.g. "a whole number") from lo to
 * hi, into *out. Returns 0, else 2 after a message that says whether arg
 * is no such number ("malformed") or one out of range.
 */
static int whole_option(const char *name, const char *arg, const char *what,
			unsigned long lo, unsigned long hi, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!arg || *arg < '0' || *arg > '9')
		return fail_usage("malformed --%s '%s' (%s, %lu to %lu)", name,
				  arg ? arg : "", what, lo, hi);
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*end)
		return fail_usage("malformed --%s '%s' (%s, %lu to %lu)", name,
				  arg, what, lo, hi);
	if (errno || v < lo || v > hi)
		return fail_usage("--%s '%s' is out of range (%s, %lu to %lu)",
				  name, arg, what, lo, hi);
	*out = v;
	return 0;
}

static int parse_positive(const char *s, double *out)
{
	char *end;
	double v;

	/* plain decimal only: no sign, blanks, hexadecimal or exponent */
	if (!s || !*s || strspn(s, "0123456789.") != strlen(s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > 1e9)
		return -1;
	*out = v;
	return 0;
}

/* --equivalence PCT: a percentage in (0, 50]; stored as a fraction. */
static int parse_band(const char *arg, double *band)
{
	double v;

	if (parse_positive(arg, &v) < 0 || v > 50)
		return fail_usage("malformed --equivalence '%s' (a percentage "
				  "above 0 and at most 50, in plain decimal: "
				  "1, 0.5)", arg);
	*band = v / 100;
	return 0;
}

static int parse_cpu(const char *arg, int *cpu)
{
	unsigned long v;

	if (whole_option("cpu", arg, "a CPU number", 0, 1023, &v))
		return 2;
	*cpu = (int)v;
	return 0;
}

/* --format FMT for settle run/show (for_compare 0) or compare (1). */
/* An option that takes one value: 0 while none was given (before, NULL),
 * else 2 after saying so (the last one was taken silently). */
static int given_once(const char *opt, const char *before, const char *arg)
{
	if (!before)
		return 0;
	return fail_usage("%s given twice ('%s', '%s')", opt, before, arg);
}

static int parse_format(const char *arg, int for_compare, const char **fmt)
{
	char names[256];

	if (for_compare && !settle_format_known(arg, 1) &&
	    settle_format_known(arg, 0))
		return fail_usage("--format '%s' is for settle run and show, "
				  "not compare (%s)", arg,
				  settle_format_names(1, names, sizeof(names)));
	if (!settle_format_known(arg, for_compare))
		return fail_usage("unknown --format '%s' (%s)", arg,
				  settle_format_names(for_compare, names,
						      sizeof(names)));
	*fmt = arg;
	return 0;
}

/* Refuse an output path we could not write, before a long run; for one
 * that names a device, terminal or pipe, or the file standard output
 * goes to (--output /dev/stdout > r.json), say what writes to standard
 * output when '-' may (stdout_ok). */
static int check_output(const char *path, int stdout_ok)
{
	char target[4096], err[4608];

	if (settle_output_target(path, target, sizeof(target), err,
				 sizeof(err)) == 0)
		return 0;
	if (stdout_ok && settle_output_is_stdio(path))
		return fail_usage("%s; '-' writes to standard output", err);
	return fail_usage("%s", err);
}

/* Refuse an output that is the same file as in (what names it): a run
 * once wrote its result over its own claim file, and over the settle
 * executable. Returns 0, or 2 with the message said. */
static int refuse_same_file(const char *out, const char *in,
			    const char *what)
{
	struct stat so, si;

	if (!out || stat(out, &so) || stat(in, &si) ||
	    so.st_dev != si.st_dev || so.st_ino != si.st_ino)
		return 0;
	return fail_usage("--output %s is %s (%s): refusing to write over it",
			  out, what, in);
}

/*
 * Parse argv[1..argc) of one command with getopt_long: each option goes
 * to fn(ctx, option, value); -h/--help prints usage. The arguments that
 * are not options are left in argv[*first..argc). Returns 0, 1 after
 * --help, or the first non-zero fn result (a message said).
 */
typedef int (*option_fn)(void *ctx, int opt, const char *arg);

/*
 * getopt_long accepts an abbreviation (--proc for --processes); the
 * option just parsed, opts[li], is written out whole in argv, so that
 * what settle passes on to the processes it starts (settle run
 * --processes) is known by its name there. Returns 0, -1 when out of
 * memory.
 */
static int spell_out(char **argv, const struct option *o)
{
	int at = o->has_arg == required_argument && optarg == argv[optind - 1] ?
		 optind - 2 : optind - 1;
	const char *e = argv[at], *eq;
	size_t n = strlen(o->name);
	char *whole;

	if (strncmp(e, "--", 2) || (!strncmp(e + 2, o->name, n) &&
				    (e[2 + n] == '\0' || e[2 + n] == '=')))
		return 0;
	eq = strchr(e, '=');
	whole = malloc(n + (eq ? strlen(eq) : 0) + 3);
	if (!whole)
		return -1;
	sprintf(whole, "--%s%s", o->name, eq ? eq : "");
	argv[at] = whole; /* kept to the end of the process, as argv */
	return 0;
}

/*
 * The option getopt_long refused: a letter of a cluster (-ab) by itself,
 * as optind may not have passed the cluster yet; a long option given a
 * value it takes none of (--quick=3: optopt is its code); else the
 * argument as written.
 */
static int bad_option(int argc, char **argv)
{
	const char *cur = optind < argc ? argv[optind] : NULL;
	const char *prev = argv[optind - 1];
	int letter = optopt > 0 && optopt < 128;

	if (letter && cur && cur[0] == '-' && cur[1] != '-' &&
	    strchr(cur + 1, optopt))
		return fail_usage("unknown option '-%c' (see settle %s "
				  "--help)", optopt, argv[0]);
	if (!strncmp(prev, "--", 2) && optopt && strchr(prev, '='))
		return fail_usage("option '%.*s' takes no value (see settle %s "
				  "--help)", (int)(strchr(prev, '=') - prev),
				  prev, argv[0]);
	if (letter && prev[0] == '-' && prev[1] != '-')
		return fail_usage("unknown option '-%c' (see settle %s "
				  "--help)", optopt, argv[0]);
	return fail_usage("unknown option '%s' (see settle %s --help)", prev,
			  argv[0]);
}

static int parse_options(int argc, char **argv, const char *shorts,
			 const struct option *opts, option_fn fn, void *ctx,
			 const char *usage, int *first)
{
	int c, rc, li = -1;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, shorts, opts, &li)) != -1) {
		if (li >= 0 && c != '?' && c != ':' &&
		    spell_out(argv, &opts[li]) < 0)
			return fail_usage("out of memory");
		li = -1;
		if (c == 'h') {
			fputs(usage, stdout);
			return 1;
		}
		if (c == '?')
			return bad_option(argc, argv);
		if (c == ':')
			return fail_usage("option '%s' needs a value",
					  argv[optind - 1]);
		if ((rc = fn(ctx, c, optarg)))
			return rc;
	}
	*first = optind;
	return 0;
}

static int load(const char *path, double band, struct settle_report *rep)
{
	char err[512];

	if (settle_load_json(path, band, rep, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "settle: %s\n", err);
	return 2;
}

/* Write rep in format fmt to path; 2 after a message. */
static int emit(const struct settle_report *rep, const char *fmt,
		const char *path)
{
	char err[512];

	if (settle_write_report(rep, fmt, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "settle: %s\n", err);
		return 2;
	}
	return 0;
}

/* ---- list --------------------------------------------------------------- */

static int no_options(void *ctx, int opt, const char *arg)
{
	(void)ctx, (void)opt, (void)arg;
	return 2;
}

/* s fit for a terminal in buf (len bytes; settle_escape_in(): a FILE.c's
 * names and descriptions may hold control characters, each written out
 * in up to 6 bytes, and cut to fit); returns buf. */
static const char *shown(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s ? s : "");
	settle_escape_in(buf, len);
	return buf;
}

/*
 * The width of settle list's name column: the longest claim name or
 * indented variant label ("  16-bit in-place load-store"), so that every
 * description starts in the same column.
 */
static int list_width(const struct settle_claim *const *all, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++) {
		const struct settle_claim *c = all[i];
		char lb[96], e[600];

		if (strlen(shown(c->name, e, sizeof(e))) > w)
			w = strlen(e);
		for (size_t j = 0; j < c->nvariants; j++) {
			size_t k = 2 + strlen(shown(settle_variant_label(
				&c->variants[j], lb, sizeof(lb)), e, sizeof(e)));

			if (k > w)
				w = k;
		}
	}
	return w < 127 ? (int)w : 127;
}

/* "popcount, endian, ...": the names of all[0..n) (a static buffer). */
static const char *claim_names(const struct settle_claim *const *all,
			       size_t n)
{
	static char known[256];
	size_t used = 0;

	known[0] = '\0';
	for (size_t k = 0; k < n && used < sizeof(known); k++)
		used += (size_t)snprintf(known + used, sizeof(known) - used,
					 "%s%s", k ? ", " : "", all[k]->name);
	return known;
}

/* Whether name is one of names[0..n). */
static int named(const char *name, char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* The claims settle list prints: with a FILE.c among names, that file's
 * claims (those the other names name, or all of them), as settle run
 * FILE.c [CLAIM...] takes them; else every built-in claim, or each one
 * named, once. 0, or the exit status after saying why. */
static int list_claims(char *const *names, int nnames,
		       const struct settle_claim **out, size_t max, size_t *n)
{
	size_t nall, k, nf = 0;
	const struct settle_claim *const *all = settle_claims(&nall);
	char *file = NULL, *fnames[MAX_LISTED];
	int rc;

	*n = 0;
	for (int i = 0; i < nnames; i++) {
		if (!settle_byob_is_file(names[i])) {
			if (nf < MAX_LISTED)
				fnames[nf++] = names[i];
		} else if (file) {
			return fail_usage("settle list takes one FILE.c at a "
					  "time (as settle run does)");
		} else {
			file = names[i];
		}
	}
	if (file) {
		rc = settle_byob_claims(file, NULL, 0, 1, fnames, nf, 0, out,
					max, &k);
		settle_byob_stdout_restore();
		*n = rc ? 0 : k;
		return rc;
	}
	for (size_t i = 0; i < nall && *n < max; i++)
		if (!nnames || named(all[i]->name, names, nnames))
			out[(*n)++] = all[i];
	for (int i = 0; i < nnames; i++)
		if (!settle_claim_find(names[i]))
			return fail_usage("unknown claim '%s'; known claims: "
					  "%s (or a FILE.c of your own)",
					  names[i], claim_names(all, nall));
	return 0;
}

static int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const struct settle_claim *all[MAX_LISTED];
	int first, rc, width;
	size_t n;

	rc = parse_options(argc, argv, ":h", opts, no_options, NULL,
			   usage_list, &first);
	if (rc)
		return rc == 1 ? 0 : rc;
	rc = list_claims(argv + first, argc - first, all, MAX_LISTED, &n);
	if (rc)
		return rc;
	width = list_width(all, n);
	for (size_t i = 0; i < n; i++) {
		const struct settle_claim *c = all[i];
		char e[600], d[4096];

		printf("%-*s  %s\n", width, shown(c->name, e, sizeof(e)),
		       shown(c->description && c->description[0] ?
			     c->description : c->title, d, sizeof(d)));
		for (size_t j = 0; j < c->nvariants; j++) {
			const struct settle_variant *v = &c->variants[j];
			char name[608], lb[96];

			snprintf(name, sizeof(name), "  %s",
				 shown(settle_variant_label(v, lb, sizeof(lb)),
				       e, sizeof(e)));
			printf("%-*s  %s%s%s\n", width, name,
			       shown(v->description, d, sizeof(d)),
			       strcmp(v->name, c->baseline) == 0 ?
			       " [baseline]" : "",
			       v->flags & SETTLE_REFERENCE ? " [reference]" : "");
		}
	}
	return 0;
}

/* ---- run ---------------------------------------------------------------- */

/* 1 in a process that settle run --processes started (it passes the
 * internal --round-first): that one reports an interruption, once */
static int run_by_parent;

struct run_args {
	const struct settle_claim **claims;
	size_t nclaims;
	uint64_t sizes[MAX_SIZES];
	size_t nsizes;
	const char **variants;
	size_t nvariants;
	const char *format, *output;
	struct settle_options opt;
	unsigned long samples, min_ms, processes, layouts, layout_first;
	unsigned long round_first;
	int cpu;
	int have_samples, have_min, have_cpu, have_processes, have_layouts;
	int format_guessed; /* from --output's name, no --format given */
	int have_device;
	int have_layout_first, have_round_first;
	int quick, rigorous;
	const char *builds[SETTLE_BYOB_MAX_BUILDS]; /* --build, FILE.c */
	size_t nbuilds;
	int verbose;
	struct settle_command_set cmds; /* --command and its options */
	const char *file;  /* FILE.c, or NULL */
};

enum { OPT_SIZE = 256, OPT_SAMPLES, OPT_CPU, OPT_QUICK, OPT_FULL, OPT_FORMAT,
       OPT_OUTPUT, OPT_DEVICE, OPT_VARIANT, OPT_MIN, OPT_EQUIV,
       OPT_PROCESSES, OPT_RIGOROUS, OPT_BUILD, OPT_VERBOSE, OPT_FAIL_ON,
       OPT_AA, OPT_DETECT, OPT_KIND, OPT_LAYOUTS, OPT_LAYOUT_FIRST,
       OPT_LAYOUT_TRIALS, OPT_ROUND_FIRST,
       OPT_COMMAND0 = 512 /* + enum settle_command_opt */ };

static const struct option run_opts[] = {
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "samples", required_argument, NULL, OPT_SAMPLES },
	{ "min-time", required_argument, NULL, OPT_MIN },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "full", no_argument, NULL, OPT_FULL },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "device-mbps", required_argument, NULL, OPT_DEVICE },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "equivalence", required_argument, NULL, OPT_EQUIV },
	{ "processes", required_argument, NULL, OPT_PROCESSES },
	{ "rigorous", no_argument, NULL, OPT_RIGOROUS },
	{ "layouts", required_argument, NULL, OPT_LAYOUTS },
	{ "layout-first", required_argument, NULL, OPT_LAYOUT_FIRST },
	{ "round-first", required_argument, NULL, OPT_ROUND_FIRST },
	{ "build", required_argument, NULL, OPT_BUILD },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	SETTLE_COMMAND_OPTIONS(OPT_COMMAND0),
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The first pass: --quick and --rigorous change the defaults that the
 * other options then override. */
static int run_preset(void *ctx, int c, const char *arg)
{
	struct run_args *a = ctx;

	(void)arg;
	a->quick |= c == OPT_QUICK;
	a->rigorous |= c == OPT_RIGOROUS;
	return 0;
}

/* A well-formed size of zero bytes ("0", "0K", "00M")? */
static int zero_size(const char *s)
{
	size_t z = strspn(s, "0");
	char one[64];
	uint64_t b;

	/* "010" is ten: zero only when no digit follows the zeros */
	if (!z || isdigit((unsigned char)s[z]) ||
	    strlen(s + z) + 2 > sizeof(one))
		return 0;
	snprintf(one, sizeof(one), "1%s", s + z);
	return settle_parse_size(one, &b) == 0;
}

/* s with its blanks (spaces, tabs) trimmed and each run of them made one
 * space, in place: a build is its words (split at blanks, no quoting),
 * so " cc  -O2" is "cc -O2", compiled and labelled once, not two builds
 * of the same command. */
static char *squeeze_blanks(char *s)
{
	char *w = s;

	for (const char *r = s; *r; r++) {
		if (*r != ' ' && *r != '\t')
			*w++ = *r;
		else if (w > s && w[-1] != ' ')
			*w++ = ' ';
	}
	if (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
	return s;
}

static int run_option(void *ctx, int c, const char *arg)
{
	struct run_args *a = ctx;
	const char **more;
	char err[512];

	if (c >= OPT_COMMAND0 && c < OPT_COMMAND0 + SETTLE_CMDOPT_N)
		return settle_command_option(&a->cmds, c - OPT_COMMAND0, arg,
					     err, sizeof(err)) ?
		       fail_usage("%s", err) : 0;
	switch (c) {
	case OPT_SIZE:
		if (a->nsizes == MAX_SIZES)
			return fail_usage("too many --size options (at most 64)");
		if (zero_size(arg))
			return fail_usage("--size %s: a size must be at least "
					  "1 byte", arg);
		switch (settle_parse_size(arg, &a->sizes[a->nsizes])) {
		case -2:
			return fail_usage("size '%s' is too large (at most "
					  "2^64 - 1 bytes)", arg);
		case -1:
			return fail_usage("malformed size '%s' (expected e.g. "
					  "4096, 4K, 128M, 4G, 128T)", arg);
		}
		for (size_t i = 0; i < a->nsizes; i++)
			if (a->sizes[i] == a->sizes[a->nsizes])
				return 0; /* each size once */
		a->nsizes++;
		return 0;
	case OPT_SAMPLES:
		if (whole_option("samples", arg, "a whole number", 1, 1000000,
				 &a->samples))
			return 2;
		a->have_samples = 1;
		return 0;
	case OPT_MIN:
		if (whole_option("min-time", arg, "whole milliseconds", 1,
				 60000, &a->min_ms))
			return 2;
		a->have_min = 1;
		return 0;
	case OPT_CPU:
		a->have_cpu = 1;
		return parse_cpu(arg, &a->cpu);
	case OPT_QUICK:
	case OPT_RIGOROUS:
		return 0; /* presets, applied before */
	case OPT_FULL:
		a->opt.full = 1;
		return 0;
	case OPT_FORMAT:
		if (given_once("--format", a->format, arg))
			return 2;
		return parse_format(arg, 0, &a->format);
	case 'o':
	case OPT_OUTPUT:
		if (given_once("--output", a->output, arg))
			return 2;
		a->output = arg;
		return check_output(arg, 1);
	case OPT_DEVICE:
		a->have_device = 1;
		if (parse_positive(arg, &a->opt.device_mbps) < 0)
			return fail_usage("malformed --device-mbps '%s' (a "
					  "positive number of MB/s)", arg);
		return 0;
	case OPT_EQUIV:
		return parse_band(arg, &a->opt.band);
	case OPT_PROCESSES:
		if (whole_option("processes", arg, "a whole number", 1, 256,
				 &a->processes))
			return 2;
		a->have_processes = 1;
		return 0;
	case OPT_LAYOUTS:
		if (whole_option("layouts", arg, "a whole number", 1, 64,
				 &a->layouts))
			return 2;
		a->have_layouts = 1;
		return 0;
	case OPT_LAYOUT_FIRST: /* internal: --processes sets it per child */
		if (whole_option("layout-first", arg, "a layout", 0, 63,
				 &a->layout_first))
			return 2;
		a->have_layout_first = 1;
		return 0;
	case OPT_ROUND_FIRST: /* internal: --processes sets it per child */
		if (whole_option("round-first", arg, "a round", 0, 1ul << 30,
				 &a->round_first))
			return 2;
		a->have_round_first = 1;
		run_by_parent = 1;
		return 0;
	case OPT_VARIANT:
		more = realloc(a->variants, (a->nvariants + 1) * sizeof(*more));
		if (!more)
			return fail_usage("out of memory");
		a->variants = more;
		a->variants[a->nvariants++] = arg;
		return 0;
	case OPT_BUILD:
		if (a->nbuilds == SETTLE_BYOB_MAX_BUILDS)
			return fail_usage("too many --build options (at most "
					  "%d)", SETTLE_BYOB_MAX_BUILDS);
		if (arg[strspn(arg, " \t")] == '-')
			return fail_usage("--build '%s': a compiler comes first, "
					  "then its flags, e.g. --build \"cc "
					  "%s\"", arg, arg + strspn(arg, " \t"));
		a->builds[a->nbuilds++] = squeeze_blanks((char *)arg);
		return 0;
	case OPT_VERBOSE:
		a->verbose = 1;
		return 0;
	}
	return 2;
}

static int add_claim(struct run_args *a, const struct settle_claim *c)
{
	const struct settle_claim **more;

	for (size_t i = 0; i < a->nclaims; i++)
		if (a->claims[i] == c)
			return 0;
	more = realloc(a->claims, (a->nclaims + 1) * sizeof(*more));
	if (!more)
		return fail_usage("out of memory");
	a->claims = more;
	a->claims[a->nclaims++] = c;
	return 0;
}

/* What a FILE.c's build says: a process of --processes only its errors
 * (its parent has said the rest, once). */
static unsigned byob_flags(const struct run_args *a)
{
	if (run_by_parent)
		return SETTLE_BYOB_QUIET;
	return a->verbose ? SETTLE_BYOB_VERBOSE : 0;
}

/* The claims named in argv[first..argc), a FILE.c's, or the defaults. */
static int run_claims(struct run_args *a, int argc, char **argv, int first)
{
	const struct settle_claim *const *list;
	const struct settle_claim *buf[256];
	size_t n;
	int rc;

	if (first < argc && settle_byob_is_file(argv[first])) {
		a->file = argv[first];
		settle_byob_protect(a->output);
		rc = settle_byob_claims(argv[first], a->builds, a->nbuilds,
					a->opt.layouts, argv + first + 1,
					argc - first - 1, byob_flags(a), buf,
					256, &n);
		for (size_t i = 0; !rc && i < n; i++)
			rc = add_claim(a, buf[i]);
		return rc;
	}
	if (a->nbuilds)
		return fail_usage("--build needs a FILE.c to compile (settle "
				  "run FILE.c --build \"gcc -O2\")");
	for (int i = first; i < argc; i++) {
		const struct settle_claim *c = settle_claim_find(argv[i]);
		struct stat st;

		if (c) {
			if ((rc = add_claim(a, c)))
				return rc;
			continue;
		}
		/* a file, named otherwise than FILE.c (sum.c.orig) */
		if (i == first && stat(argv[i], &st) == 0 &&
		    S_ISREG(st.st_mode))
			return fail_usage("unknown claim '%s': a file of "
					  "claims must be named FILE.c", argv[i]);
		list = settle_claims(&n);
		return fail_usage("unknown claim '%s'; known claims: %s",
				  argv[i], claim_names(list, n));
	}
	if (a->nclaims)
		return 0;
	list = settle_default_claims(&n);
	for (size_t i = 0; i < n; i++)
		if ((rc = add_claim(a, list[i])))
			return rc;
	return 0;
}


/* An --output name whose ending names no format (r.html) gets the result
 * file, json: said on standard error, where it was silent. */
static void unnamed_ending(const char *output, const char *format)
{
	const char *dot = output ? strrchr(output, '.') : NULL;

	if (!dot || strchr(dot, '/') || strcmp(format, "json") ||
	    !strcasecmp(dot, ".json"))
		return;
	fprintf(stderr, "settle: --output %s: no format ends in '%s'; "
		"writing json, the result file (--format FMT names another)\n",
		output, dot);
}

static int parse_run(struct run_args *a, int argc, char **argv)
{
	char err[512];
	int first, rc;

	rc = parse_options(argc, argv, ":ho:", run_opts, run_preset, a,
			   usage_run, &first);
	if (rc)
		return rc == 1 ? -1 : rc;
	if (a->quick && a->rigorous)
		return fail_usage("--quick and --rigorous exclude each other");
	settle_options_default(&a->opt, a->quick);
	if (a->rigorous)
		settle_options_rigorous(&a->opt);
	a->format = NULL;
	a->cpu = -1;
	rc = parse_options(argc, argv, ":ho:", run_opts, run_option, a,
			   usage_run, &first);
	if (rc)
		return rc == 1 ? -1 : rc;
	if (!a->format && a->output && settle_plot_format(a->output))
		return fail_usage("--output %s: a picture is drawn by settle "
				  "plot from a result file (settle run "
				  "--output r.json, then settle plot r.json -o "
				  "%s)", a->output, a->output);
	if (!a->format) {
		a->format = a->output && strcmp(a->output, "-") ?
			    settle_format_for_path(a->output) : "table";
		a->format_guessed = 1;
	}
	if (settle_command_check(&a->cmds, first < argc || a->nsizes ||
				 a->nvariants || a->nbuilds || a->opt.full ||
				 a->have_min || a->have_layouts ||
				 a->have_device || a->verbose, err,
				 sizeof(err)) < 0)
		return fail_usage("%s", err);
	if (a->opt.full && a->nsizes)
		return fail_usage("--full adds a claim's large sizes to its "
				  "default ones; with --size the sizes are "
				  "yours alone (add the large one as --size, "
				  "e.g. --size 4G)");
	if (a->cmds.n)
		a->opt.layouts = 1; /* --rigorous's layouts are for claims */
	if (a->have_samples)
		a->opt.samples = (unsigned)a->samples;
	if (a->have_min)
		a->opt.min_sample_ns = (double)a->min_ms * 1e6;
	if (a->have_cpu)
		a->opt.cpu = a->cpu;
	if (a->have_processes)
		a->opt.processes = (unsigned)a->processes;
	if (a->have_layouts)
		a->opt.layouts = (unsigned)a->layouts;
	if (a->have_layout_first)
		a->opt.layout_first = (unsigned)a->layout_first;
	if (a->have_round_first)
		a->opt.round_first = a->round_first;
	/* --layouts N alone: N fresh processes (at least 3), each measuring
	 * every layout; one process cannot show how far a second run
	 * differs, and compare takes the process as its unit when both
	 * files have 3 or more (docs/layouts.md) */
	if (a->have_layouts && !a->have_processes && a->opt.layouts > 1 &&
	    a->opt.processes <= 1)
		a->opt.processes = a->opt.layouts > SETTLE_MIN_UNITS ?
				   a->opt.layouts : SETTLE_MIN_UNITS;
	if ((a->have_layout_first || a->have_round_first) &&
	    a->opt.processes > 1)
		return fail_usage("--layout-first and --round-first are set "
				  "for each process that --processes (or "
				  "--layouts alone) starts; give them without "
				  "it");
	/* never an output over an input: a claim file, settle itself */
	for (int i = first; i < argc; i++)
		if (refuse_same_file(a->output, argv[i], "the claim file"))
			return 2;
	if (refuse_same_file(a->output, "/proc/self/exe",
			     "the settle executable"))
		return 2;
	if (a->format_guessed && !run_by_parent)
		unnamed_ending(a->output, a->format);
	/* the claims last: FILE.c is compiled once per layout */
	return a->cmds.n ? 0 : run_claims(a, argc, argv, first);
}

/* The result in the chosen format; a result file written, the table
 * still goes to standard output. A run that reports an invalid result,
 * or one below the clock's resolution (no time measured: a CI job must
 * not take a run of removed bodies for a pass), has failed (exit status
 * 1). A process of --processes says nothing of
 * it: its table is not shown, and the parent decides again over the pool
 * (a row one process judged against its own read limit may hold up
 * against the others'), and says so itself. */
static int run_output(const struct run_args *a, const struct settle_report *rep)
{
	size_t bad = settle_report_invalid(rep);
	size_t none = settle_report_below_resolution(rep);
	int rc;

	settle_byob_stdout_restore(); /* a FILE.c's claims have run */
	if (settle_byob_copy_returned())
		return 1;
	rc = emit(rep, a->format, a->output ? a->output : "-");

	if (!rc && a->output && strcmp(a->output, "-") &&
	    settle_format_echoes_table(a->format))
		rc = emit(rep, "table", "-");
	if (rc || run_by_parent)
		return rc ? rc : bad || none;
	if (bad)
		fprintf(stderr, "settle: %zu result%s invalid: their time is "
			"not the work's (the table says why)\n", bad,
			bad > 1 ? "s are" : " is");
	if (none)
		fprintf(stderr, "settle: %zu result%s below the clock's "
			"resolution: no time measured (the compiler may have "
			"removed the work; the table says why)\n", none,
			none > 1 ? "s are" : " is");
	return bad || none;
}

/* The name of a signal settle stops on (async-signal-safe). */
static const char *stop_signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM";
}

/*
 * An interrupted run: the claims that finished, on standard output as
 * the table (with --output FILE, which is not written: nothing is lost,
 * no half-measured file) or in the --format that goes there, but for a
 * format programs read (json, csv, ...), which would read as the whole
 * run; then "interrupted" on standard error. The exit status is 128 +
 * the signal.
 */
static int interrupted(const struct run_args *a,
		       const struct settle_report *rep)
{
	int sig = settle_interrupted();
	int to_stdout = !a || !a->output || !strcmp(a->output, "-");
	const char *fmt = !a || !to_stdout ? "table" : a->format;
	int shown = rep && rep->nresults && !settle_format_is_data(fmt);

	if (run_by_parent)
		return 128 + sig;
	settle_byob_stdout_restore();
	if (shown)
		emit(rep, fmt, "-");
	if (!rep || !rep->nresults)
		fprintf(stderr, "settle: interrupted (%s)\n",
			stop_signal_name(sig));
	else if (shown)
		fprintf(stderr, "settle: interrupted (%s): the claims above "
			"finished, the rest was not measured%s\n",
			stop_signal_name(sig), to_stdout ? "" :
			", no --output written");
	else
		fprintf(stderr, "settle: interrupted (%s): the claims that "
			"finished are not written (%s cut short would read as "
			"the whole run), the rest was not measured\n",
			stop_signal_name(sig), fmt);
	return 128 + sig;
}

static int measure(struct run_args *a, int argc, char **argv,
		   const struct settle_selection *sel)
{
	struct settle_report rep;
	char err[512];
	int rc = 0;

	if (a->opt.processes > 1) {
		rc = settle_run_in_processes(argc, argv, &a->opt, &rep, err,
					     sizeof(err));
		if (rc == -2)
			return interrupted(a, NULL);
		if (rc < 0) {
			fprintf(stderr, "settle: %s\n", err);
			return rc == -3 || strstr(err, "cannot pin") ? 2 : 1;
		}
		/* two processes: the interval is taken over their two
		 * estimates (said once the run has been made, after every
		 * usage error a child may find) */
		if (a->opt.processes < SETTLE_MIN_UNITS)
			fprintf(stderr, "settle: note: with --processes %u no "
				"verdict can be decided: the interval is taken "
				"over the processes' estimates and needs %d or "
				"more (or one process with 5 samples or more)\n",
				a->opt.processes, SETTLE_MIN_UNITS);
		/* the conclusions of the pooled processes, not of the first */
		settle_conclude_claims(&rep, sel->claims, sel->nclaims);
		rc = run_output(a, &rep);
		settle_report_free(&rep);
		return rc;
	}
	if (isatty(STDERR_FILENO))
		a->opt.progress = stderr;
	if (settle_report_init(&rep, &a->opt, err, sizeof(err)) < 0) {
		fprintf(stderr, "settle: %s\n", err);
		return 2;
	}
	if (a->file) /* the claims were built by the user's compiler */
		for (size_t i = 0; i < (a->nbuilds ? a->nbuilds : 1); i++)
			snprintf(rep.claims_built + strlen(rep.claims_built),
				 sizeof(rep.claims_built) -
				 strlen(rep.claims_built), "%s%s",
				 i ? ", " : "", a->nbuilds ? a->builds[i] :
				 SETTLE_BYOB_DEFAULT_BUILD);
	if (a->cmds.n &&
	    (rc = settle_run_commands(&rep, &a->cmds, err, sizeof(err))) > 0)
		fprintf(stderr, "settle: %s\n", err);
	for (size_t i = 0; i < sel->nclaims && !rc; i++) {
		rc = settle_run_claim(&rep, sel->claims[i], a->sizes,
				      a->nsizes, err, sizeof(err));
		if (rc < 0 && rc != -2) {
			fprintf(stderr, "settle: %s\n", err);
			rc = 1;
		}
	}
	if (rc == -2 || !rc) {
		settle_report_finish(&rep);
		settle_conclude_claims(&rep, sel->claims, sel->nclaims);
	}
	if (rc == -2) {
		rc = interrupted(a, &rep);
		settle_report_free(&rep);
		return rc;
	}
	if (!rc)
		rc = run_output(a, &rep);
	settle_report_free(&rep);
	return rc;
}

/* Samples (--samples N, or --rigorous's 40) not a multiple of --layouts:
 * every layout gets the same number of rounds, so they are rounded up;
 * said once, by the parent */
static void note_samples_rounded(const struct run_args *a)
{
	unsigned nl = a->opt.layouts > 1 ? a->opt.layouts : 1;
	unsigned ns = a->opt.samples, per = (ns + nl - 1) / nl;

	if (run_by_parent || ns % nl == 0)
		return;
	fprintf(stderr, "settle: note: %u samples rounded up to %u: %u in "
		"each of %u layouts\n", ns, per * nl, per, nl);
}

static int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct settle_selection sel;
	struct settle_machine m;
	char err[512];
	int rc;

	memset(&a, 0, sizeof(a));
	rc = parse_run(&a, argc, argv);
	if (rc)
		goto out;
	if (settle_select_variants(a.claims, a.nclaims, a.variants,
				   a.nvariants, &sel, err, sizeof(err)) < 0) {
		rc = fail_usage("%s", err);
		goto out;
	}
	for (size_t i = 0; i < sel.ndropped && !run_by_parent; i++)
		fprintf(stderr, "settle: note: claim %s has none of the "
			"variants asked for; not run\n", sel.dropped[i]);
	note_samples_rounded(&a);
	settle_machine_describe(&m);
	if (settle_check_sizes(sel.claims, sel.nclaims, a.sizes, a.nsizes,
			       a.opt.full, m.mem_available, err,
			       sizeof(err)) < 0)
		rc = fail_usage("%s", err);
	else
		rc = measure(&a, argc, argv, &sel);
	settle_selection_free(&sel);
out:
	free(a.claims);
	free(a.variants);
	return rc < 0 ? 0 : rc;
}

/* ---- info --------------------------------------------------------------- */

static int info_option(void *ctx, int c, const char *arg)
{
	return c == OPT_CPU ? parse_cpu(arg, ctx) : 2;
}

static int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct settle_options o;
	struct settle_report rep;
	char err[256];
	int first, rc;

	settle_options_default(&o, 0);
	rc = parse_options(argc, argv, ":h", opts, info_option, &o.cpu,
			   usage_info, &first);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (first < argc)
		return fail_usage("unknown argument '%s' (see settle info "
				  "--help)", argv[first]);
	if (settle_report_init(&rep, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "settle: %s\n", err);
		return 2;
	}
	if (settle_write_machine(&rep, "-", err, sizeof(err)) < 0) {
		fprintf(stderr, "settle: %s\n", err);
		rc = 2;
	}
	settle_report_free(&rep);
	return rc;
}

/* ---- show, compare ---------------------------------------------------- */

struct file_args {
	double band, fail_pct;
	const char *format;
	int for_compare;
};

static int file_option(void *ctx, int c, const char *arg)
{
	struct file_args *a = ctx;

	switch (c) {
	case OPT_EQUIV:
		return parse_band(arg, &a->band);
	case OPT_FORMAT:
		return parse_format(arg, a->for_compare, &a->format);
	case OPT_FAIL_ON:
		if (!strcmp(arg, "slower")) {
			a->fail_pct = 0;
			return 0;
		}
		if (parse_positive(arg, &a->fail_pct) < 0)
			return fail_usage("malformed --fail-on '%s' (slower, "
					  "or a percentage)", arg);
		return 0;
	}
	return 2;
}

static const struct option file_opts[] = {
	{ "equivalence", required_argument, NULL, OPT_EQUIV },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int cmd_show(int argc, char **argv)
{
	struct file_args a = { -1, -1, "table", 0 }; /* band -1: the file's */
	struct settle_report rep;
	int first, rc;

	rc = parse_options(argc, argv, ":h", file_opts + 0, file_option, &a,
			   usage_show, &first);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (a.fail_pct >= 0)
		return fail_usage("--fail-on is an option of settle compare");
	if (first == argc)
		return fail_usage("show needs a result file");
	if (first + 1 < argc)
		return fail_usage("unexpected argument '%s' (see settle show "
				  "--help)", argv[first + 1]);
	if ((rc = load(argv[first], a.band, &rep)))
		return rc;
	if (rep.nresults == 0) { /* settle run never writes such a file */
		fprintf(stderr, "settle: %s: no results to show (it holds no "
			"measured result)\n", argv[first]);
		settle_report_free(&rep);
		return 1;
	}
	/* a built-in claim concludes again from the file's results; the
	 * claims of settle run FILE.c (built by the user's compiler, named
	 * like a built-in one or not) keep the file's, as run drew them */
	if (!rep.claims_built[0]) {
		size_t n;
		const struct settle_claim *const *all = settle_claims(&n);

		settle_conclude_claims(&rep, all, n);
	}
	rc = emit(&rep, a.format, "-");
	settle_report_free(&rep);
	return rc;
}

static int cmd_compare(int argc, char **argv)
{
	struct file_args a = { 0.01, -1, "table", 1 };
	struct settle_report reps[MAX_FILES];
	const struct settle_report *news[MAX_FILES];
	size_t nfiles, nloaded = 0, slower = 0;
	char err[512];
	int first, rc;

	rc = parse_options(argc, argv, ":h", file_opts, file_option, &a,
			   usage_compare, &first);
	if (rc)
		return rc == 1 ? 0 : rc;
	nfiles = (size_t)(argc - first);
	if (nfiles < 2)
		return fail_usage("compare needs an old and at least one new "
				  "result file");
	if (nfiles > MAX_FILES)
		return fail_usage("too many files (at most %d)", MAX_FILES);
	for (; nloaded < nfiles; nloaded++)
		if ((rc = load(argv[first + (int)nloaded], a.band,
			       &reps[nloaded])))
			break;
	if (!rc) {
		for (size_t k = 1; k < nfiles; k++)
			news[k - 1] = &reps[k];
		int w = settle_write_compare(&reps[0], news, nfiles - 1,
					     a.fail_pct, a.format, "-",
					     a.fail_pct >= 0 ? stderr : NULL,
					     &slower, err, sizeof(err));

		if (w < 0) {
			fprintf(stderr, "settle: %s\n", err);
			rc = 2;
		} else if (a.fail_pct >= 0 && slower) {
			rc = 1;
		} else if (w == 1) {
			fprintf(stderr, "settle: %s (same claim, variant and "
				"parameters): nothing compared\n", err);
			rc = 2;
		}
	}
	for (size_t k = 0; k < nloaded; k++)
		settle_report_free(&reps[k]);
	return rc;
}

/* ---- selftest ------------------------------------------------------------ */

struct selftest_args {
	struct settle_options o;
	unsigned long aa, det, lay;
	const char *format, *output;
	int quick;
};

static int selftest_preset(void *ctx, int c, const char *arg)
{
	(void)arg;
	((struct selftest_args *)ctx)->quick |= c == OPT_QUICK;
	return 0;
}

static int selftest_option(void *ctx, int c, const char *arg)
{
	struct selftest_args *a = ctx;
	unsigned long v;

	switch (c) {
	case OPT_QUICK:
		return 0;
	case OPT_AA:
	case OPT_DETECT:
	case OPT_LAYOUT_TRIALS:
		if (whole_option(c == OPT_AA ? "aa-trials" :
				 c == OPT_DETECT ? "detect-trials" :
				 "layout-trials", arg, "a whole number",
				 c == OPT_LAYOUT_TRIALS ? 0 : 1, 100000, &v))
			return 2;
		*(c == OPT_AA ? &a->aa : c == OPT_DETECT ? &a->det :
		  &a->lay) = v;
		return 0;
	case OPT_LAYOUTS:
		if (whole_option("layouts", arg, "a whole number", 1, 64, &v))
			return 2;
		a->o.layouts = (unsigned)v;
		return 0;
	case OPT_SAMPLES:
		if (whole_option("samples", arg, "a whole number", 1, 100000,
				 &v))
			return 2;
		a->o.samples = (unsigned)v;
		return 0;
	case OPT_MIN:
		if (whole_option("min-time", arg, "whole milliseconds", 1,
				 60000, &v))
			return 2;
		a->o.min_sample_ns = (double)v * 1e6;
		return 0;
	case OPT_PROCESSES:
		if (whole_option("processes", arg, "a whole number", 1, 64,
				 &v))
			return 2;
		a->o.processes = (unsigned)v;
		return 0;
	case OPT_CPU:
		return parse_cpu(arg, &a->o.cpu);
	case OPT_FORMAT:
		if (strcmp(arg, "table") && strcmp(arg, "json"))
			return fail_usage("unknown --format '%s' (table or "
					  "json)", arg);
		if (given_once("--format", a->format, arg))
			return 2;
		a->format = arg;
		return 0;
	case 'o':
	case OPT_OUTPUT:
		if (given_once("--output", a->output, arg))
			return 2;
		a->output = arg;
		return check_output(arg, 1);
	}
	return 2;
}

/* A selftest whose trial processes failed, or whose trials show a
 * target missed, has failed (exit status 1). */
static int selftest_status(const struct settle_selftest *st,
			   const struct settle_options *o)
{
	unsigned missed = settle_selftest_missed(st, o);

	if (st->failed_trials)
		fprintf(stderr, "settle: selftest: %u trial process%s "
			"failed\n", st->failed_trials,
			st->failed_trials > 1 ? "es" : "");
	if (missed)
		fprintf(stderr, "settle: selftest: %u target%s missed\n",
			missed, missed > 1 ? "s" : "");
	return st->failed_trials || missed ? 1 : 0;
}

static int cmd_selftest(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "aa-trials", required_argument, NULL, OPT_AA },
		{ "detect-trials", required_argument, NULL, OPT_DETECT },
		{ "layout-trials", required_argument, NULL, OPT_LAYOUT_TRIALS },
		{ "layouts", required_argument, NULL, OPT_LAYOUTS },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "min-time", required_argument, NULL, OPT_MIN },
		{ "processes", required_argument, NULL, OPT_PROCESSES },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "output", required_argument, NULL, OPT_OUTPUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct selftest_args a;
	struct settle_selftest st;
	char err[256];
	int first, rc;

	memset(&a, 0, sizeof(a));
	rc = parse_options(argc, argv, ":ho:", opts, selftest_preset, &a,
			   usage_selftest, &first);
	if (rc)
		return rc == 1 ? 0 : rc;
	settle_options_default(&a.o, a.quick);
	if (a.quick) {
		a.o.samples = 12;
		a.o.min_sample_ns = 5e6;
		a.o.layouts = 4;
		a.aa = 20;
		a.det = 10;
		a.lay = 4;
	} else {
		settle_options_rigorous(&a.o);
		a.aa = 200;
		a.det = 100;
		a.lay = 200;
	}
	a.format = NULL;
	rc = parse_options(argc, argv, ":ho:", opts, selftest_option, &a,
			   usage_selftest, &first);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (first < argc)
		return fail_usage("unexpected argument '%s' (see settle "
				  "selftest --help)", argv[first]);
	if (!a.format)
		a.format = a.output ? "json" : "table";
	if (a.output && strcmp(a.format, "json"))
		return fail_usage("selftest --output writes the JSON file, not "
				  "--format %s", a.format);
	if (!settle_cpu_allowed(a.o.cpu))
		return fail_usage("cannot pin to CPU %d: not one of the CPUs "
				  "settle was allowed (its affinity at start)",
				  a.o.cpu);
	if (isatty(STDERR_FILENO))
		a.o.progress = stderr;
	if (settle_selftest_run(&a.o, (unsigned)a.aa, (unsigned)a.det,
				(unsigned)a.lay, &st) < 0) {
		if (settle_interrupted())
			return interrupted(NULL, NULL);
		fprintf(stderr, "settle: selftest: the latency measurement "
			"failed\n");
		return 1;
	}
	if (!strcmp(a.format, "json")) {
		if (settle_write_selftest_json(&st, &a.o, a.output ? a.output :
					       "-", err, sizeof(err)) < 0) {
			fprintf(stderr, "settle: %s\n", err);
			return 2;
		}
		if (a.output)
			settle_selftest_print(stdout, &st, &a.o);
		return selftest_status(&st, &a.o);
	}
	settle_selftest_print(stdout, &st, &a.o);
	return selftest_status(&st, &a.o);
}

/* ---- plot --------------------------------------------------------------- */

struct plot_args {
	enum settle_plot_kind kind;
	const char *out;
};

static int plot_option(void *ctx, int c, const char *arg)
{
	struct plot_args *a = ctx;

	switch (c) {
	case 'o':
	case OPT_OUTPUT:
		a->out = arg;
		return 0;
	case OPT_KIND:
		if (!strcmp(arg, "auto"))
			a->kind = SETTLE_PLOT_AUTO;
		else if (!strcmp(arg, "all"))
			a->kind = SETTLE_PLOT_ALL;
		else if (!strcmp(arg, "throughput"))
			a->kind = SETTLE_PLOT_THROUGHPUT;
		else if (!strcmp(arg, "samples"))
			a->kind = SETTLE_PLOT_SAMPLES;
		else
			return fail_usage("unknown --kind '%s' (auto, all, "
					  "throughput or samples)", arg);
		return 0;
	}
	return 2;
}

static int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, OPT_OUTPUT },
		{ "kind", required_argument, NULL, OPT_KIND },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct plot_args a = { SETTLE_PLOT_AUTO, NULL };
	struct settle_report rep;
	char err[512];
	int first, rc;

	rc = parse_options(argc, argv, ":ho:", opts, plot_option, &a,
			   usage_plot, &first);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (first == argc)
		return fail_usage("plot needs a result file (settle plot FILE "
				  "-o OUT.svg)");
	if (first + 1 < argc)
		return fail_usage("unexpected argument '%s' (plot takes one "
				  "result file)", argv[first + 1]);
	if (!a.out)
		return fail_usage("plot needs --output OUT.svg or OUT.png");
	if (!settle_plot_format(a.out))
		return fail_usage("cannot plot to %s: the name must end in .svg "
				  "or .png", a.out);
	if ((rc = check_output(a.out, 0)))
		return rc;
	if (refuse_same_file(a.out, argv[first], "the result file"))
		return 2;
	if ((rc = load(argv[first], -1, &rep)))
		return rc;
	rc = settle_plot(&rep, a.out, a.kind, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "settle: %s\n", err);
	settle_report_free(&rep);
	return rc < 0 ? 2 : 0;
}

/* ---- dispatch -------------------------------------------------------------- */

static int cmd_help(int argc, char **argv);

/* settle --version, settle version: one line; --help its usage. */
static int cmd_version(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(usage_version, stdout);
		return 0;
	}
	if (argc > 1)
		return fail_usage("unexpected argument '%s' after %s",
				  argv[1], argv[0]);
	printf("settle %s\n", SETTLE_VERSION);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
} commands[] = {
	{ "list", cmd_list, usage_list },
	{ "run", cmd_run, usage_run },
	{ "info", cmd_info, usage_info },
	{ "show", cmd_show, usage_show },
	{ "compare", cmd_compare, usage_compare },
	{ "selftest", cmd_selftest, usage_selftest },
	{ "plot", cmd_plot, usage_plot },
	{ "help", cmd_help, usage_main },
	{ "version", cmd_version, usage_version },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static int unknown_command(const char *cmd)
{
	return fail_usage("unknown command '%s' (commands: list, run, info, "
			  "show, compare, selftest, plot, help, version)", cmd);
}

static int cmd_help(int argc, char **argv)
{
	const char *cmd = argc > 1 && strcmp(argv[1], "-h") &&
			  strcmp(argv[1], "--help") ? argv[1] : NULL;

	if (!cmd) {
		fputs(usage_main, stdout);
		return 0;
	}
	if (argc > 2)
		return fail_usage("unexpected argument '%s' (help takes one "
				  "command)", argv[2]);
	if (!strcmp(cmd, "--version"))
		cmd = "version";
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(cmd, commands[i].name)) {
			fputs(commands[i].usage, stdout);
			return 0;
		}
	return unknown_command(cmd);
}

static int dispatch(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		fputs(usage_main, stderr);
		return 2;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
		return cmd_help(argc - 1, argv + 1); /* settle --help run */
	if (!strcmp(cmd, "--version"))
		return cmd_version(argc - 1, argv + 1);
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	return unknown_command(cmd);
}

/*
 * SETTLE_POPCOUNT, SETTLE_BSWAP, SETTLE_CLOCK and SETTLE_BSWAP_NT_BYTES:
 * the library ignores a
 * value it cannot use; the command refuses it, one line, exit status 2.
 */
static int env_refused(void)
{
	const char *why[] = { settle_popcount_env_refusal(),
			      settle_bswap_env_refusal(),
			      settle_clock_env_refusal() };

	const char *nt = getenv("SETTLE_BSWAP_NT_BYTES"), *src = "";
	char v[64];

	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++)
		if (why[i]) {
			fprintf(stderr, "settle: %s\n", why[i]);
			return 1;
		}
	/* the library ignores a threshold that is no size; settle says so */
	settle_bswap_nt_decide(nt, 0, settle_bswap_nt_cap(0), &src);
	if (nt && *nt && strcmp(src, "SETTLE_BSWAP_NT_BYTES")) {
		settle_env_value(v, sizeof(v), nt);
		fprintf(stderr, "settle: SETTLE_BSWAP_NT_BYTES=%s refused: not "
			"a positive size below 2^64 bytes (1048576, 64K, 32M, "
			"1G, 1T)\n", v);
		return 1;
	}
	return 0;
}

/*
 * SIGINT, SIGTERM: the first asks the layers to stop at their next step
 * (they keep what finished); the second ends settle at once, removing the
 * temporary files the layers registered. A SIGTERM comes once (timeout,
 * a service manager), and so does a SIGINT when no one is at a terminal
 * to press Ctrl-C again (timeout -s INT, a CI runner): when the run has
 * not ended TERM_GRACE_S seconds after it (a claim's run() that never
 * returns, as a looping one did under timeout for ten minutes), settle
 * ends at once, saying so.
 */
#define TERM_GRACE_S 10


static int stderr_is_tty;
static volatile sig_atomic_t grace_sig; /* the signal the watchdog ends */

static void on_alarm(int sig)
{
	static const char head[] = "settle: interrupted (";
	static const char tail[] = "): the current step did not end within "
		"10 s (a claim or command that does not stop?); stopped at "
		"once, nothing written\n";
	int s = grace_sig;
	const char *name = stop_signal_name(s);

	(void)sig;
	/* write(): async-signal-safe (no stdio in a handler); a process of
	 * --processes leaves it to its parent, whose grace ends as its own */
	if (!run_by_parent) {
		(void)!write(2, head, sizeof(head) - 1);
		(void)!write(2, name, strlen(name));
		(void)!write(2, tail, sizeof(tail) - 1);
	}
	settle_temp_cleanup();
	signal(s, SIG_DFL);
	_exit(128 + s);
}

/* When the first signal came (CLOCK_MONOTONIC); a second within
 * SAME_SIGNAL_NS (0.1 s) of it is the same one: timeout(1) signals settle
 * and then its process group, settle again, microseconds apart, and the
 * second, caught after the first, ended settle at once without a word
 * (exit 130, nothing said). */
#define SAME_SIGNAL_NS 100000000LL
static struct timespec first_signal;

static long long since_first_signal(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now); /* async-signal-safe */
	return (long long)(now.tv_sec - first_signal.tv_sec) * 1000000000LL +
	       (now.tv_nsec - first_signal.tv_nsec);
}

static void on_signal(int sig)
{
	static const char msg[] = "\nsettle: stopping after the current "
		"step (Ctrl-C again stops at once)\n";
	static const char again[] = "settle: interrupted again: stopped at "
		"once, nothing written\n";

	if (settle_interrupted()) {
		if (since_first_signal() < SAME_SIGNAL_NS)
			return;
		if (!run_by_parent)
			(void)!write(2, again, sizeof(again) - 1);
		settle_temp_cleanup();
		signal(sig, SIG_DFL);
		_exit(128 + sig);
	}
	clock_gettime(CLOCK_MONOTONIC, &first_signal);
	settle_interrupt_note(sig);
	if (sig == SIGTERM || !stderr_is_tty) {
		grace_sig = sig;
		signal(SIGALRM, on_alarm);
		alarm(TERM_GRACE_S);
	}
	/* write(): async-signal-safe; a child of --processes leaves the
	 * hint to its parent */
	if (sig == SIGINT && stderr_is_tty && !run_by_parent)
		(void)!write(2, msg, sizeof(msg) - 1);
}

static void catch_signals(void)
{
	struct sigaction sa;

	stderr_is_tty = isatty(2);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: waits return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed terminal: stop as for SIGTERM (the commands and their
	 * jobs were left running) */
	sigaction(SIGHUP, &sa, NULL);
	/* SIGCHLD ignored by whatever started settle (inherited across exec)
	 * would reap its children before settle could wait for them */
	signal(SIGCHLD, SIG_DFL);
	/* a write past the file-size limit (ulimit -f) fails with EFBIG, said
	 * and cleaned up as any failed write, instead of killing settle with
	 * its temporary file left next to --output */
	signal(SIGXFSZ, SIG_IGN);
}

/* Standard input, output and error open, on /dev/null where closed:
 * else the first file settle opens lands on one of them (its /dev/null,
 * close-on-exec, on descriptor 0 or 1), and a command run with that
 * descriptor found it closed ("cat: -: Bad file descriptor"). */
static void std_fds_open(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDWR) < 0)
			return;
}

int main(int argc, char **argv)
{
	int rc;

	std_fds_open();
	catch_signals();
	rc = env_refused() ? 2 : dispatch(argc, argv);
	if (settle_interrupted() && rc < 128)
		rc = 128 + settle_interrupted();

	/* output lost (a full disk, a closed pipe) is a failure, said once:
	 * not again when the command failed saying so */
	if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
		fprintf(stderr, "settle: cannot write to standard output: %s\n",
			strerror(errno ? errno : EIO));
		return rc ? rc : 2;
	}
	return rc;
}
