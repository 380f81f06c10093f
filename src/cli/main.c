/*
 * main.c - the settle command. It parses arguments and wires the layers
 * (claims -> runner -> report); it measures nothing itself.
 *
 * Exit status: 0 success, 1 a measurement failed (a variant computed a
 * different answer, set-up failed) or compare --fail-on tripped, 2 bad
 * usage, unreadable or foreign result file, or unwritable output.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "settle.h"
#include "claims.h"
#include "byob/byob.h"

#define SETTLE_VERSION "0.1.0"
#define MAX_SIZES 64
#define MAX_CLAIMS 16
#define MAX_VARIANTS 64

/* --rigorous: the settings `settle selftest` checks against its targets. */
#define RIGOROUS_SAMPLES 21
#define RIGOROUS_MIN_MS 10
#define RIGOROUS_PROCESSES 5

static const char usage_main[] =
"usage: settle <command> [options]\n"
"\n"
"Settle low-level performance arguments with numbers that hold up.\n"
"\n"
"commands:\n"
"  list                 every claim and variant, one line each\n"
"  run [CLAIM...]       measure claims (default: popcount endian syscall\n"
"                       segprefix) and print their tables\n"
"  info                 describe this machine, its clock and the build\n"
"  show FILE            print the tables of a result file again\n"
"  selftest             measure the harness: A/A false positives, detection\n"
"                       of a 3% / 2% difference, chain latencies\n"
"  compare OLD NEW...   compare result files: change, interval, verdict\n"
"  plot FILE -o OUT     draw a result file (SVG or PNG, with gnuplot):\n"
"                       throughput by buffer size, every sample\n"
"  help [COMMAND]       this text, or a command's options\n"
"\n"
"`settle COMMAND --help` shows a command's options.\n";

static const char usage_run[] =
"usage: settle run [CLAIM...] [options]\n"
"       settle run FILE.c [CLAIM...] [--build \"CC FLAGS\"]... [options]\n"
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
"  --min-time MS      each sample lasts at least MS milliseconds\n"
"                     (default 10, quick 2)\n"
"  --cpu N            pin to CPU N (default: the CPU settle starts on)\n"
"  --quick            fewer samples and shorter samples (CI, emulators)\n"
"  --rigorous         the preset that meets settle's selftest targets: 21\n"
"                     samples of >= 10 ms in each of 5 fresh processes\n"
"  --processes N      repeat the whole measurement in N fresh processes and\n"
"                     pool them; verdicts then take the process as the unit\n"
"                     (a verdict needs N >= 3)\n"
"  --full             also measure the claim's large sizes (popcount: the\n"
"                     4 GiB bitmaps of a 128 TB file system)\n"
"  --device-mbps X    device speed for the endian scale, MB/s (default 13)\n"
"  --equivalence PCT  ratios within +-PCT % count as the same (default 1)\n"
"  --format FMT       table (default), json (the result file), md (GitHub\n"
"                     Markdown), text (plain, <= 72 columns), csv, or\n"
"                     gbench-json (Google Benchmark's JSON, for its tools)\n"
"  --output FILE      write the result there, whole or not at all (json,\n"
"                     gbench-json: the table still goes to standard output)\n"
"  --build \"CC FLAGS\" with FILE.c: a compiler and its flags, repeatable\n"
"                     (default \"cc -O2\"); every build must compute the\n"
"                     same check values\n"
"  --verbose          with FILE.c: say which cached object each build uses\n"
"  -h, --help         this text\n";

static const char usage_list[] =
"usage: settle list\n\nPrint every claim and its variants, one line each.\n";

static const char usage_show[] =
"usage: settle show FILE [--equivalence PCT] [--format FMT]\n\n"
"Print the tables of a result file (written by settle run --format json,\n"
"or a Google Benchmark JSON file) again; statistics and verdicts are\n"
"recomputed from its samples. --format: table (default), json, md, text,\n"
"csv or gbench-json, as for settle run.\n";

static const char usage_compare[] =
"usage: settle compare OLD NEW [NEW2...] [options]\n\n"
"For every claim/variant/params in both files: old and new median, the\n"
"change in % with its 95% interval (two-sample Hodges-Lehmann shift of\n"
"log times, Mann-Whitney interval) and a verdict; all repetitions of a\n"
"name are pooled; a geometric-mean row closes each comparison. Warns when\n"
"the files come from different CPU models, ISA sets, kernels or\n"
"compilers. A file is a settle result file or a Google Benchmark JSON\n"
"file (--benchmark_format=json): claim = the name up to the first '/',\n"
"variant = the rest, samples = its repetitions (aggregates left out).\n\n"
"options:\n"
"  --equivalence PCT  changes within +-PCT % count as the same (default 1)\n"
"  --fail-on slower   exit 1 when any row is slower\n"
"  --fail-on PCT      exit 1 when any row is slower by PCT % or more\n"
"  -h, --help         this text\n";

static const char usage_selftest[] =
"usage: settle selftest [options]\n\n"
"Measure settle itself, each trial in fresh processes: (a) A/A: one\n"
"function registered as two variants, how often the verdict is faster or\n"
"slower (false positives) and how often same; (b) how often a variant\n"
"doing 3% more work is called slower (band 1%), and 2% more work (band\n"
"0.5%); (c) the latency of dependent popcnt and imul chains in core\n"
"cycles, measured against a dependent add chain.\n\n"
"options:\n"
"  --quick            20 A/A and 10 detection trials of short samples (CI)\n"
"  --aa-trials N      A/A trials (default 200)\n"
"  --detect-trials N  trials per detection case (default 100)\n"
"  --samples N, --min-time MS, --processes N, --cpu N\n"
"                     settings of each trial (default: the --rigorous\n"
"                     settings: 21 samples of >= 10 ms, 5 processes)\n"
"  --format FMT       table (default) or json\n"
"  --output FILE      write there (json: whole or not at all)\n";

static const char usage_info[] =
"usage: settle info [--cpu N]\n\n"
"Describe the machine: CPU, usable ISA extensions (cpuid and XCR0), caches,\n"
"kernel, hypervisor, mitigations, the clock (TSC rate, read cost,\n"
"resolution), the estimated core clock, and the build.\n";

static const char usage_plot[] =
"usage: settle plot FILE -o OUT.svg|OUT.png [--kind all|throughput|samples]\n"
"\n"
"Draw a result file (settle run --format json) with gnuplot. For a claim\n"
"measured at two or more sizes (settle run popcount --size 1K --size 1M\n"
"...): throughput in B/ns against the buffer size, one line per variant,\n"
"log size axis, with this machine's L1d, L2 and last-level cache sizes\n"
"(from the file) as dashed lines. For every claim and size: each\n"
"variant's samples, a box plot with every sample drawn over it.\n"
"The extension chooses SVG or PNG; the picture is written whole or not\n"
"at all. Needs gnuplot: sudo apt-get install -y gnuplot-nox.\n"
"\n"
"options:\n"
"  -o, --output OUT   the picture to write: a name ending in .svg or .png\n"
"  --kind KIND        all (default), throughput (only the size sweeps) or\n"
"                     samples (only the distributions)\n"
"  -h, --help         this text\n";

static int fail_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "settle: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return 2;
}

static void known_claims(char *buf, size_t len)
{
	size_t n, used = 0;
	const struct settle_claim *const *all = settle_claims(&n);

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", all[i]->name);
}

static int cmd_list(void)
{
	size_t n;
	const struct settle_claim *const *all = settle_claims(&n);

	for (size_t i = 0; i < n; i++) {
		const struct settle_claim *c = all[i];

		printf("%-24s %s\n", c->name, c->description);
		for (size_t j = 0; j < c->nvariants; j++) {
			const struct settle_variant *v = &c->variants[j];
			char name[64];

			char lb[96];

			snprintf(name, sizeof(name), "  %s",
				 settle_variant_label(v, lb, sizeof(lb)));
			printf("%-24s %s%s%s\n", name, v->description,
			       strcmp(v->name, c->baseline) == 0 ?
			       " [baseline]" : "",
			       v->flags & SETTLE_REFERENCE ? " [reference]" : "");
		}
	}
	return 0;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
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
				  "above 0 and at most 50)", arg);
	*band = v / 100;
	return 0;
}

/* Refuse an output path we could not write, before a long run. */
static int check_output(const char *path)
{
	char target[4096], err[512];

	if (settle_output_target(path, target, sizeof(target), err,
				 sizeof(err)) < 0)
		return fail_usage("%s", err);
	return 0;
}

struct run_args {
	const struct settle_claim *claims[MAX_CLAIMS];
	size_t nclaims;
	uint64_t sizes[MAX_SIZES];
	size_t nsizes;
	const char *variants[MAX_VARIANTS];
	size_t nvariants;
	const char *format, *output;
	struct settle_options opt;
	unsigned long samples, min_ms, cpu, processes;
	int have_samples, have_min, have_cpu, have_processes;
	const char *builds[SETTLE_BYOB_MAX_BUILDS]; /* --build, FILE.c */
	size_t nbuilds;
	int verbose;
};

enum { OPT_SIZE = 256, OPT_SAMPLES, OPT_CPU, OPT_QUICK, OPT_FULL, OPT_FORMAT,
       OPT_OUTPUT, OPT_DEVICE, OPT_VARIANT, OPT_MIN, OPT_EQUIV,
       OPT_PROCESSES, OPT_RIGOROUS, OPT_BUILD, OPT_VERBOSE };

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
	{ "build", required_argument, NULL, OPT_BUILD },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int run_option(struct run_args *a, int c, const char *arg)
{
	enum settle_format fmt;

	switch (c) {
	case OPT_SIZE:
		if (a->nsizes == MAX_SIZES)
			return fail_usage("too many --size options (at most 64)%s", "");
		if (settle_parse_size(arg, &a->sizes[a->nsizes]) < 0)
			return fail_usage("malformed size '%s' (expected e.g. "
					  "4096, 4K, 128M, 4G, 128T)", arg);
		for (size_t i = 0; i < a->nsizes; i++)
			if (a->sizes[i] == a->sizes[a->nsizes])
				return 0; /* each size once */
		a->nsizes++;
		return 0;
	case OPT_SAMPLES:
		if (parse_uint(arg, 1000000, &a->samples) < 0 || !a->samples)
			return fail_usage("malformed --samples '%s' (a whole "
					  "number from 1 to 1000000)", arg);
		a->have_samples = 1;
		return 0;
	case OPT_MIN:
		if (parse_uint(arg, 60000, &a->min_ms) < 0 || !a->min_ms)
			return fail_usage("malformed --min-time '%s' (whole "
					  "milliseconds, 1 to 60000)", arg);
		a->have_min = 1;
		return 0;
	case OPT_CPU:
		if (parse_uint(arg, 1023, &a->cpu) < 0)
			return fail_usage("malformed --cpu '%s' (a CPU number)", arg);
		a->have_cpu = 1;
		return 0;
	case OPT_QUICK:
		a->opt.quick = 1;
		return 0;
	case OPT_FULL:
		a->opt.full = 1;
		return 0;
	case OPT_FORMAT:
		if (settle_format_parse(arg, &fmt) < 0)
			return fail_usage("unknown --format '%s' (" SETTLE_FORMAT_NAMES
					  ")", arg);
		a->format = arg;
		return 0;
	case OPT_OUTPUT:
		a->output = arg;
		return check_output(arg);
	case OPT_DEVICE:
		if (parse_positive(arg, &a->opt.device_mbps) < 0)
			return fail_usage("malformed --device-mbps '%s' (a "
					  "positive number of MB/s)", arg);
		return 0;
	case OPT_EQUIV:
		return parse_band(arg, &a->opt.band);
	case OPT_PROCESSES:
		if (parse_uint(arg, 256, &a->processes) < 0 || !a->processes)
			return fail_usage("malformed --processes '%s' (a whole "
					  "number from 1 to 256)", arg);
		a->have_processes = 1;
		return 0;
	case OPT_RIGOROUS:
		return 0; /* a preset, applied in parse_run */
	case OPT_VARIANT:
		if (a->nvariants == MAX_VARIANTS)
			return fail_usage("too many --variant options%s", "");
		a->variants[a->nvariants++] = arg;
		return 0;
	case OPT_BUILD:
		if (a->nbuilds == SETTLE_BYOB_MAX_BUILDS)
			return fail_usage("too many --build options (at most "
					  "16)%s", "");
		a->builds[a->nbuilds++] = arg;
		return 0;
	case OPT_VERBOSE:
		a->verbose = 1;
		return 0;
	}
	return 2;
}

static int add_claim(struct run_args *a, const char *name)
{
	const struct settle_claim *c = settle_claim_find(name);
	char known[256];

	if (!c) {
		known_claims(known, sizeof(known));
		fprintf(stderr, "settle: unknown claim '%s'; known claims: %s\n",
			name, known);
		return 2;
	}
	for (size_t i = 0; i < a->nclaims; i++)
		if (a->claims[i] == c)
			return 0;
	if (a->nclaims == MAX_CLAIMS)
		return fail_usage("too many claims%s", "");
	a->claims[a->nclaims++] = c;
	return 0;
}

static int parse_run(struct run_args *a, int argc, char **argv)
{
	int c, rc, quick = 0, rigorous = 0;

	/*
	 * --quick and --rigorous change the defaults that the other options
	 * then override: a first pass finds them, with the same parser (so
	 * abbreviations and option values are read alike).
	 */
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":h", run_opts, NULL)) != -1) {
		quick |= c == OPT_QUICK;
		rigorous |= c == OPT_RIGOROUS;
	}
	optind = 0;
	if (quick && rigorous)
		return fail_usage("--quick and --rigorous exclude each other%s", "");
	settle_options_default(&a->opt, quick);
	if (rigorous) {
		a->opt.samples = RIGOROUS_SAMPLES;
		a->opt.min_sample_ns = RIGOROUS_MIN_MS * 1e6;
		a->opt.processes = RIGOROUS_PROCESSES;
	}
	a->format = "table";
	while ((c = getopt_long(argc, argv, ":h", run_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_run, stdout);
			return -1;
		}
		if (c == '?')
			return fail_usage("unknown option '%s' (see settle run "
					  "--help)", argv[optind - 1]);
		if (c == ':')
			return fail_usage("option '%s' needs a value",
					  argv[optind - 1]);
		rc = run_option(a, c, optarg);
		if (rc)
			return rc;
	}
	if (optind < argc && settle_byob_is_file(argv[optind])) {
		rc = settle_byob_claims(argv[optind], a->builds, a->nbuilds,
					argv + optind + 1, argc - optind - 1,
					a->verbose, a->claims, MAX_CLAIMS,
					&a->nclaims);
		if (rc)
			return rc;
		optind = argc;
	} else if (a->nbuilds) {
		return fail_usage("--build needs a FILE.c to compile (settle "
				  "run FILE.c --build \"gcc -O2\")%s", "");
	}
	for (int i = optind; i < argc; i++)
		if ((rc = add_claim(a, argv[i])))
			return rc;
	if (a->nclaims == 0) {
		static const char *const dflt[] = { "popcount", "endian",
						    "syscall", "segprefix" };
		for (size_t i = 0; i < 4; i++)
			if ((rc = add_claim(a, dflt[i])))
				return rc;
	}
	if (a->have_samples)
		a->opt.samples = (unsigned)a->samples;
	if (a->have_min)
		a->opt.min_sample_ns = (double)a->min_ms * 1e6;
	if (a->have_cpu)
		a->opt.cpu = (int)a->cpu;
	if (a->have_processes)
		a->opt.processes = (unsigned)a->processes;
	return 0;
}

/* Does a --variant name v: by name ("we32") or by label ("-O2 we32")? */
static int wanted(const struct run_args *a, const struct settle_variant *v)
{
	char lb[128];

	settle_variant_label(v, lb, sizeof(lb));
	for (size_t i = 0; i < a->nvariants; i++)
		if (!strcmp(a->variants[i], v->name) || !strcmp(a->variants[i], lb))
			return 1;
	return 0;
}

/* Is v the baseline of a wanted variant of c? */
static int needed_baseline(const struct run_args *a,
			   const struct settle_claim *c,
			   const struct settle_variant *v)
{
	if (strcmp(v->name, c->baseline) != 0)
		return 0;
	for (size_t j = 0; j < c->nvariants; j++)
		if (wanted(a, &c->variants[j]) &&
		    settle_variant_same_group(&c->variants[j], v))
			return 1;
	return 0;
}

static int known_variant(const struct run_args *a, const char *f)
{
	struct run_args one = { .nvariants = 1 };

	one.variants[0] = f;
	for (size_t i = 0; i < a->nclaims; i++)
		for (size_t j = 0; j < a->claims[i]->nvariants; j++)
			if (wanted(&one, &a->claims[i]->variants[j]))
				return 1;
	return 0;
}

/*
 * With --variant: keep, in copies of the claims, the named variants (by
 * name or label) and their baselines; drop, saying so, the claims that
 * have none of them.
 */
static int filter_variants(struct run_args *a,
			   struct settle_claim *copies,
			   struct settle_variant (*vars)[MAX_VARIANTS])
{
	size_t kept = 0;

	if (a->nvariants == 0)
		return 0;
	for (size_t k = 0; k < a->nvariants; k++)
		if (!known_variant(a, a->variants[k]))
			return fail_usage("unknown variant '%s' (settle list "
					  "shows every variant)", a->variants[k]);
	for (size_t i = 0; i < a->nclaims; i++) {
		const struct settle_claim *c = a->claims[i];
		size_t n = 0, hits = 0;

		for (size_t j = 0; j < c->nvariants && n < MAX_VARIANTS; j++) {
			const struct settle_variant *v = &c->variants[j];
			int w = wanted(a, v);

			hits += w;
			if (w || needed_baseline(a, c, v))
				vars[kept][n++] = *v;
		}
		if (!hits) {
			fprintf(stderr, "settle: note: claim %s has none of the "
				"variants asked for; not run\n", c->name);
			continue;
		}
		copies[kept] = *c;
		copies[kept].variants = vars[kept];
		copies[kept].nvariants = n;
		a->claims[kept] = &copies[kept];
		kept++;
	}
	a->nclaims = kept;
	return 0;
}

/* Refuse sizes that were given to no sized claim, or that cannot fit. */
static int check_sizes(const struct run_args *a, uint64_t avail)
{
	char sz[32], av[32];
	int sized = 0;

	for (size_t i = 0; i < a->nclaims; i++) {
		const struct settle_claim *c = a->claims[i];
		const uint64_t *s = a->nsizes ? a->sizes : c->default_sizes;
		size_t n = a->nsizes ? a->nsizes : c->ndefault_sizes;

		if (!c->default_sizes)
			continue;
		sized = 1;
		size_t nfull = a->nsizes || !a->opt.full ? 0 : c->nfull_sizes;
		uint64_t bufs = c->buffers ? c->buffers : 1;

		for (size_t k = 0; k < n + nfull; k++) {
			uint64_t b = k < n ? s[k] : c->full_sizes[k - n];

			if (avail && (b > avail / 10 * 9 / bufs)) {
				fprintf(stderr, "settle: size %s does not fit: %s "
					"needs %llu buffer%s of it and this machine "
					"has %s of memory available\n",
					settle_format_size(b, sz, sizeof(sz)), c->name,
					(unsigned long long)bufs, bufs > 1 ? "s" : "",
					settle_format_size(avail & ~((1ull << 20) - 1),
							   av, sizeof(av)));
				return 2;
			}
		}
	}
	if (a->nsizes && !sized)
		return fail_usage("--size given, but none of the chosen claims "
				  "takes a size%s", "");
	return 0;
}

static int emit(const struct run_args *a, const struct settle_report *rep)
{
	enum settle_format fmt = SETTLE_FORMAT_TABLE;
	char err[256];

	settle_format_parse(a->format, &fmt);
	if (settle_write_report(rep, fmt, a->output ? a->output : "-", err,
				sizeof(err)) < 0) {
		fprintf(stderr, "settle: %s\n", err);
		return 2;
	}
	/* a result file written: the table still goes to standard output */
	if ((fmt == SETTLE_FORMAT_JSON || fmt == SETTLE_FORMAT_GBENCH_JSON) &&
	    a->output && strcmp(a->output, "-"))
		settle_print_table(stdout, rep);
	return 0;
}

/* Options that run_in_processes() sets itself for each child. */
static int child_drops(const char *arg, int *skip_value)
{
	static const char *const with_value[] = { "--processes", "--format",
						  "--output" };

	*skip_value = 0;
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(with_value[i]);

		if (!strcmp(arg, with_value[i])) {
			*skip_value = 1;
			return 1;
		}
		if (!strncmp(arg, with_value[i], n) && arg[n] == '=')
			return 1;
	}
	return 0;
}

static const char *argv_cpu(const struct run_args *a)
{
	static char buf[16];

	snprintf(buf, sizeof(buf), "%d", a->opt.cpu);
	return buf;
}

/* --processes N: the same command in N fresh processes, pooled. */
static int run_in_processes(struct run_args *a, int argc, char **argv)
{
	char **cargv = calloc((size_t)argc + 10, sizeof(*cargv));
	struct settle_report rep;
	char err[512];
	int n = 0, skip, rc;

	if (!cargv)
		return 1;
	if (!settle_cpu_allowed(a->opt.cpu)) {
		free(cargv);
		return fail_usage("cannot pin to CPU %s: not a CPU this process "
				  "may run on", argv_cpu(a));
	}
	/* settle's own options first, so that a "--" among the user's
	 * arguments cannot swallow them */
	cargv[n++] = "/proc/self/exe";
	cargv[n++] = "run";
	cargv[n++] = "--processes";
	cargv[n++] = "1";
	cargv[n++] = "--format";
	cargv[n++] = "json";
	cargv[n++] = "--output";
	cargv[n++] = "-"; /* slot 7: replaced by a file per process */
	for (int i = 1; i < argc; i++) {
		if (child_drops(argv[i], &skip)) {
			i += skip;
			continue;
		}
		cargv[n++] = argv[i];
	}
	cargv[n] = NULL;
	rc = settle_run_processes("/proc/self/exe", cargv, 7, a->opt.processes,
				  a->opt.band, &rep, err, sizeof(err));
	free(cargv);
	if (rc < 0) {
		fprintf(stderr, "settle: %s\n", err);
		return 1;
	}
	rc = emit(a, &rep);
	settle_report_free(&rep);
	return rc;
}

static int cmd_run(int argc, char **argv)
{
	static struct run_args a;
	static struct settle_claim copies[MAX_CLAIMS];
	static struct settle_variant vars[MAX_CLAIMS][MAX_VARIANTS];
	struct settle_machine m;
	struct settle_report rep;
	char err[512];
	int rc;

	rc = parse_run(&a, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;
	if ((rc = filter_variants(&a, copies, vars)))
		return rc;
	settle_machine_describe(&m);
	if ((rc = check_sizes(&a, m.mem_available)))
		return rc;
	if (a.opt.processes > 1)
		return run_in_processes(&a, argc, argv);
	if (isatty(STDERR_FILENO))
		a.opt.progress = stderr;
	if (settle_report_init(&rep, &a.opt, err, sizeof(err)) < 0) {
		fprintf(stderr, "settle: %s\n", err);
		return 2;
	}
	for (size_t i = 0; i < a.nclaims; i++) {
		if (settle_run_claim(&rep, a.claims[i], a.sizes, a.nsizes,
				     err, sizeof(err)) < 0) {
			fprintf(stderr, "settle: %s\n", err);
			settle_report_free(&rep);
			return 1;
		}
	}
	settle_report_finish(&rep);
	rc = emit(&a, &rep);
	settle_report_free(&rep);
	return rc;
}

static int cmd_info(int argc, char **argv)
{
	struct settle_options o;
	struct settle_report rep;
	unsigned long cpu;
	char err[256];

	settle_options_default(&o, 1);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_info, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
			if (parse_uint(argv[++i], 1023, &cpu) < 0)
				return fail_usage("malformed --cpu '%s'", argv[i]);
			o.cpu = (int)cpu;
			continue;
		}
		return fail_usage("unknown argument '%s' (see settle info --help)",
				  argv[i]);
	}
	o.quick = 0; /* a full-length clock calibration */
	if (settle_report_init(&rep, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "settle: %s\n", err);
		return 2;
	}
	settle_print_machine(stdout, &rep);
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

static int cmd_show(int argc, char **argv)
{
	struct settle_report rep;
	enum settle_format fmt = SETTLE_FORMAT_TABLE;
	const char *file = NULL;
	double band = 0.01;
	char err[256];
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_show, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--equivalence") && i + 1 < argc) {
			if ((rc = parse_band(argv[++i], &band)))
				return rc;
		} else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
			if (settle_format_parse(argv[++i], &fmt) < 0)
				return fail_usage("unknown --format '%s' ("
						  SETTLE_FORMAT_NAMES ")", argv[i]);
		} else if (argv[i][0] == '-' || file) {
			return fail_usage("unexpected argument '%s' (see settle "
					  "show --help)", argv[i]);
		} else {
			file = argv[i];
		}
	}
	if (!file)
		return fail_usage("show needs a result file%s", "");
	if ((rc = load(file, band, &rep)))
		return rc;
	if (settle_write_report(&rep, fmt, "-", err, sizeof(err)) < 0) {
		fprintf(stderr, "settle: %s\n", err);
		rc = 2;
	}
	settle_report_free(&rep);
	return rc;
}

#define MAX_FILES 16

static int parse_fail_on(const char *arg, double *pct)
{
	if (!strcmp(arg, "slower")) {
		*pct = 0;
		return 0;
	}
	if (parse_positive(arg, pct) < 0)
		return fail_usage("malformed --fail-on '%s' (slower, or a "
				  "percentage)", arg);
	return 0;
}

static int cmd_compare(int argc, char **argv)
{
	struct settle_report reps[MAX_FILES];
	const struct settle_report *news[MAX_FILES];
	const char *files[MAX_FILES];
	size_t nfiles = 0, nloaded = 0, slower;
	double band = 0.01, fail_pct = -1;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_compare, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--equivalence") && i + 1 < argc)
			rc = parse_band(argv[++i], &band);
		else if (!strcmp(argv[i], "--fail-on") && i + 1 < argc)
			rc = parse_fail_on(argv[++i], &fail_pct);
		else if (argv[i][0] == '-' && argv[i][1])
			rc = fail_usage("unknown option '%s' (see settle "
					"compare --help)", argv[i]);
		else if (nfiles == MAX_FILES)
			rc = fail_usage("too many files (at most 16)%s", "");
		else
			files[nfiles++] = argv[i];
		if (rc)
			return rc;
	}
	if (nfiles < 2)
		return fail_usage("compare needs an old and at least one new "
				  "result file%s", "");
	for (; nloaded < nfiles; nloaded++)
		if ((rc = load(files[nloaded], band, &reps[nloaded])))
			break;
	if (!rc) {
		for (size_t k = 1; k < nfiles; k++)
			news[k - 1] = &reps[k];
		slower = settle_print_compare(stdout, &reps[0], news,
					      nfiles - 1, fail_pct);
		if (fail_pct >= 0 && slower)
			rc = 1;
	}
	for (size_t k = 0; k < nloaded; k++)
		settle_report_free(&reps[k]);
	return rc;
}

static const char *met(int ok)
{
	return ok ? "met" : "MISSED";
}

/* "imul 3.00 cycles", or "cnt n/a (not measured on generic)". */
static void print_latency(FILE *f, const char *insn, double cycles,
			  const char *why)
{
	fprintf(f, "%s ", insn ? insn : "?");
	if (cycles > 0)
		fprintf(f, "%.2f cycles", cycles);
	else
		fprintf(f, "n/a (%s)", why ? why : "not measured");
}

static void print_selftest(FILE *f, const struct settle_selftest *st,
			   const struct settle_options *o)
{
	int aa = st->aa_false_positive_rate <= 0.05 && st->aa_same_rate >= 0.80;
	int d3 = st->detect_rate_3pct >= 0.90, d2 = st->detect_rate_2pct >= 0.80;

	fprintf(f, "settle selftest: %u samples of >= %.0f ms, %u process%s per "
		"trial, band +-%g%%\n", o->samples, o->min_sample_ns / 1e6,
		o->processes, o->processes == 1 ? "" : "es", o->band * 100);
	fprintf(f, "  A/A, %u trials: faster or slower %.1f%% (target <= 5%%), "
		"same %.1f%% (target >= 80%%): %s\n", st->aa_trials,
		100 * st->aa_false_positive_rate, 100 * st->aa_same_rate,
		met(aa));
	fprintf(f, "  3%% more work, %u trials: called slower %.1f%% (target "
		">= 90%%): %s\n", st->detect_trials,
		100 * st->detect_rate_3pct, met(d3));
	fprintf(f, "  2%% more work, band 0.5%%, %u trials: called slower "
		"%.1f%% (target >= 80%%): %s\n", st->detect_trials,
		100 * st->detect_rate_2pct, met(d2));
	fprintf(f, "  dependent chains against an add chain (1 cycle each, "
		"%.2f GHz):\n    ", st->core_ghz);
	print_latency(f, st->mul_name, st->imul_latency_cycles, st->mul_why);
	fputs(", ", f);
	print_latency(f, st->count_name, st->popcnt_latency_cycles,
		      st->count_why);
	fputs("\n", f);
	if (st->loadavg > 0.5)
		fprintf(f, "  warning: other load on the machine (load average "
			"%.2f): the rates describe\n  this machine's noise as "
			"much as settle\n", st->loadavg);
	if (st->reference_ghz > 0 &&
	    fabs(st->core_ghz / st->reference_ghz - 1) > 0.10)
		fprintf(f, "  warning: the add chain ran at %.2f GHz here but "
			"%.2f GHz at the start:\n  the reference was slowed, "
			"the latencies are unreliable\n", st->core_ghz,
			st->reference_ghz);
	if (o->quick)
		fprintf(f, "  (--quick checks the plumbing; the targets need "
			"the default settings)\n");
}

/* Is --format json given anywhere in argv? */
static int json_later(int argc, char **argv)
{
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--format") && !strcmp(argv[i + 1], "json"))
			return 1;
	return 0;
}

static int cmd_selftest(int argc, char **argv)
{
	struct settle_options o;
	struct settle_selftest st;
	unsigned long aa = 200, det = 100, v;
	const char *format = "table", *output = NULL;
	char err[256];
	int quick = 0, rc = 0;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--quick"))
			quick = 1;
	settle_options_default(&o, quick);
	o.samples = quick ? 11 : RIGOROUS_SAMPLES;
	o.min_sample_ns = (quick ? 5 : RIGOROUS_MIN_MS) * 1e6;
	o.processes = quick ? 1 : RIGOROUS_PROCESSES;
	if (quick) {
		aa = 20;
		det = 10;
	}
	for (int i = 1; i < argc && !rc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_selftest, stdout);
			return 0;
		} else if (!strcmp(a, "--quick")) {
			continue;
		} else if (!val) {
			rc = fail_usage("unknown or incomplete option '%s' (see "
					"settle selftest --help)", a);
		} else if (!strcmp(a, "--aa-trials") || !strcmp(a, "--detect-trials")) {
			if (parse_uint(val, 100000, &v) < 0 || !v)
				rc = fail_usage("malformed trial count '%s'", val);
			*(a[2] == 'a' ? &aa : &det) = v;
		} else if (!strcmp(a, "--samples")) {
			if (parse_uint(val, 100000, &v) < 0 || !v)
				rc = fail_usage("malformed --samples '%s'", val);
			o.samples = (unsigned)v;
		} else if (!strcmp(a, "--min-time")) {
			if (parse_uint(val, 60000, &v) < 0 || !v)
				rc = fail_usage("malformed --min-time '%s'", val);
			o.min_sample_ns = (double)v * 1e6;
		} else if (!strcmp(a, "--processes")) {
			if (parse_uint(val, 64, &v) < 0 || !v)
				rc = fail_usage("malformed --processes '%s' (1 to "
						"64)", val);
			o.processes = (unsigned)v;
		} else if (!strcmp(a, "--cpu")) {
			if (parse_uint(val, 1023, &v) < 0)
				rc = fail_usage("malformed --cpu '%s'", val);
			o.cpu = (int)v;
		} else if (!strcmp(a, "--format")) {
			if (strcmp(val, "table") && strcmp(val, "json"))
				rc = fail_usage("unknown --format '%s' (table or "
						"json)", val);
			format = val;
		} else if (!strcmp(a, "--output")) {
			output = val;
			rc = check_output(val);
			if (!rc && !strcmp(format, "table") && !json_later(argc, argv))
				rc = fail_usage("selftest --output writes the JSON "
						"file: add --format json%s", "");
		} else {
			rc = fail_usage("unknown option '%s' (see settle selftest "
					"--help)", a);
		}
		i++;
	}
	if (rc)
		return rc;
	if (!settle_cpu_allowed(o.cpu)) {
		char cpu[16];

		snprintf(cpu, sizeof(cpu), "%d", o.cpu);
		return fail_usage("cannot pin to CPU %s: not a CPU this process "
				  "may run on", cpu);
	}
	if (isatty(STDERR_FILENO))
		o.progress = stderr;
	if (settle_selftest_run(&o, (unsigned)aa, (unsigned)det, &st) < 0) {
		fprintf(stderr, "settle: selftest: the latency measurement "
			"failed\n");
		return 1;
	}
	if (!strcmp(format, "json")) {
		if (settle_write_selftest_json(&st, &o, output ? output : "-",
					       err, sizeof(err)) < 0) {
			fprintf(stderr, "settle: %s\n", err);
			return 2;
		}
		if (output)
			print_selftest(stdout, &st, &o);
		return 0;
	}
	print_selftest(stdout, &st, &o);
	return 0;
}

static int cmd_plot(int argc, char **argv)
{
	enum settle_plot_kind kind = SETTLE_PLOT_ALL;
	const char *file = NULL, *out = NULL;
	struct settle_report rep;
	char err[512];
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_plot, stdout);
			return 0;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!val)
				return fail_usage("option '%s' needs a value", a);
			out = argv[++i];
		} else if (!strncmp(a, "--output=", 9)) {
			out = a + 9;
		} else if (!strcmp(a, "--kind")) {
			if (!val)
				return fail_usage("option '%s' needs a value", a);
			i++;
			if (!strcmp(val, "all"))
				kind = SETTLE_PLOT_ALL;
			else if (!strcmp(val, "throughput"))
				kind = SETTLE_PLOT_THROUGHPUT;
			else if (!strcmp(val, "samples"))
				kind = SETTLE_PLOT_SAMPLES;
			else
				return fail_usage("unknown --kind '%s' (all, "
						  "throughput or samples)", val);
		} else if (a[0] == '-' && a[1]) {
			return fail_usage("unknown option '%s' (see settle plot "
					  "--help)", a);
		} else if (file) {
			return fail_usage("unexpected argument '%s' (plot takes "
					  "one result file)", a);
		} else {
			file = a;
		}
	}
	if (!file)
		return fail_usage("plot needs a result file (settle plot FILE "
				  "-o OUT.svg)%s", "");
	if (!out)
		return fail_usage("plot needs --output OUT.svg or OUT.png%s", "");
	if (!settle_plot_format(out))
		return fail_usage("cannot plot to %s: the name must end in .svg "
				  "or .png", out);
	if ((rc = check_output(out)))
		return rc;
	if ((rc = load(file, 0.01, &rep)))
		return rc;
	rc = settle_plot(&rep, out, kind, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "settle: %s\n", err);
	settle_report_free(&rep);
	return rc < 0 ? 2 : 0;
}

static int help(const char *cmd)
{
	if (!cmd)
		fputs(usage_main, stdout);
	else if (!strcmp(cmd, "run"))
		fputs(usage_run, stdout);
	else if (!strcmp(cmd, "list"))
		fputs(usage_list, stdout);
	else if (!strcmp(cmd, "info"))
		fputs(usage_info, stdout);
	else if (!strcmp(cmd, "show"))
		fputs(usage_show, stdout);
	else if (!strcmp(cmd, "selftest"))
		fputs(usage_selftest, stdout);
	else if (!strcmp(cmd, "compare"))
		fputs(usage_compare, stdout);
	else if (!strcmp(cmd, "plot"))
		fputs(usage_plot, stdout);
	else if (!strcmp(cmd, "help"))
		fputs(usage_main, stdout);
	else
		return fail_usage("unknown command '%s' (commands: list, run, "
				  "info, show, compare, selftest, plot, help)", cmd);
	return 0;
}

static int dispatch(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		fputs(usage_main, stderr);
		return 2;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
		return help(NULL);
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("settle %s\n", SETTLE_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "help"))
		return help(argc > 2 && strcmp(argv[2], "-h") &&
			    strcmp(argv[2], "--help") ? argv[2] : NULL);
	if (!strcmp(cmd, "list")) {
		if (argc > 2 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help")))
			return help("list");
		if (argc > 2)
			return fail_usage("unknown argument '%s' (see settle "
					  "list --help)", argv[2]);
		return cmd_list();
	}
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "info"))
		return cmd_info(argc - 1, argv + 1);
	if (!strcmp(cmd, "show"))
		return cmd_show(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(cmd, "selftest"))
		return cmd_selftest(argc - 1, argv + 1);
	if (!strcmp(cmd, "plot"))
		return cmd_plot(argc - 1, argv + 1);
	return fail_usage("unknown command '%s' (commands: list, run, info, "
			  "show, compare, selftest, plot, help)", cmd);
}

int main(int argc, char **argv)
{
	int rc = dispatch(argc, argv);

	/* output lost (a full disk, a closed pipe) is a failure, said once */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "settle: cannot write to standard output: %s\n",
			strerror(errno ? errno : EIO));
		return rc ? rc : 2;
	}
	return rc;
}
