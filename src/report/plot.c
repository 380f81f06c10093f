/*
 * plot.c - pictures of a result, drawn by gnuplot.
 *
 * For a claim measured at two or more buffer sizes: throughput (B/ns)
 * against the size, one line per variant, on a log2 size axis with the
 * machine's L1d, L2 and last-level cache sizes drawn as vertical lines, so
 * that the cliffs where the buffer leaves a cache show. For every claim and
 * size: the distribution of the samples of each variant (a box plot with
 * every sample drawn over it).
 *
 * settle writes the data and a gnuplot script into a temporary directory,
 * runs gnuplot there, and copies the picture next to the target, fsyncs it
 * and renames it over the target: it is written whole or not at all.
 * Numbers are written in the C locale whatever the program's locale, and
 * gnuplot reads them with LC_NUMERIC=C.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/plot.h"
#include "view/view.h"
#include "util/util.h"

#define GNUPLOT_APT "sudo apt-get install -y gnuplot-nox"

#define CANVAS_W 1200   /* px */
#define HEAD_H 64       /* title lines */
#define SWEEP_H 560     /* one throughput panel */
#define DIST_H 360      /* one row of distribution panels */
#define MAX_PANELS 48   /* distribution panels drawn at most */
#define MAX_SERIES 64   /* variants of one claim told apart */
#define MAX_CLAIMS 64
#define LABEL_LEN 96

/* Tableau 10 and two more: told apart on screen and in print. */
static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
};
#define NCOLORS (sizeof(colors) / sizeof(colors[0]))
static const int points[] = { 7, 5, 9, 11, 13, 15, 4, 6, 8, 10, 12, 14 };
#define NPOINTS (sizeof(points) / sizeof(points[0]))

/* The variants of one claim, by label (whole: two labels alike in their
 * first LABEL_LEN bytes are two series), in order of first result. */
struct series {
	const char *label[MAX_SERIES]; /* the results' own */
	int reference[MAX_SERIES]; /* a physical limit, drawn dashed */
	int baseline[MAX_SERIES];  /* the claim's baseline variant */
	size_t n;
};

struct plot {
	const struct settle_report *rep;
	FILE *gp;          /* the script */
	FILE *dat;         /* the data, one block per index */
	unsigned block;    /* next data block */
	const struct settle_claim_info *claims[MAX_CLAIMS];
	size_t nclaims;
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

const char *settle_plot_format(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;

	if (!dot || strchr(dot, '/'))
		return NULL;
	if (!strcasecmp(dot, ".svg"))
		return "svg";
	if (!strcasecmp(dot, ".png"))
		return "png";
	return NULL;
}

/* A gnuplot string: single quotes (no escapes inside but ''), one line;
 * with tic set, '%' doubled (gnuplot takes a tic label for a format: a
 * variant named "50%" failed the plot, "Bad format character"). */
static void quote_as(FILE *f, const char *s, int tic)
{
	fputc('\'', f);
	for (; s && *s; s++) {
		if (*s == '\'')
			fputs("''", f);
		else if (*s == '%' && tic)
			fputs("%%", f);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void quote(FILE *f, const char *s)
{
	quote_as(f, s, 0);
}

static void quote_tic(FILE *f, const char *s)
{
	quote_as(f, s, 1);
}

/* "# block: label" above a data block (a name holds no line break). */
static void data_comment(struct plot *p, const char *label)
{
	fprintf(p->dat, "# %u: ", p->block);
	for (; *label; label++)
		fputc((unsigned char)*label < 0x20 ? ' ' : *label, p->dat);
	fputc('\n', p->dat);
}

static const char *label_of(const struct settle_result *r, char *buf)
{
	snprintf(buf, LABEL_LEN, "%s", r->label);
	return buf;
}

/* A result's whole label, which tells its series. */
static const char *whole_label(const struct settle_result *r)
{
	return r->label ? r->label : "";
}

static size_t series_index(struct series *s, const char *label)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->label[i], label))
			return i;
	if (s->n == MAX_SERIES)
		return MAX_SERIES - 1;
	s->label[s->n] = label;
	return s->n++;
}

static void series_of(const struct settle_report *rep,
		      const struct settle_claim_info *c, struct series *s)
{
	s->n = 0;
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];
		size_t v;

		if (r->claim != c)
			continue;
		v = series_index(s, whole_label(r));
		s->reference[v] = !!r->reference;
		s->baseline[v] = c->baseline && r->variant &&
				 !strcmp(r->variant, c->baseline);
	}
}

/* A result that has samples to draw: times of the work's
 * (settle_result_measured()). */
static int drawable(const struct settle_result *r)
{
	return settle_result_measured(r);
}

/* Sizes at which claim c has a throughput, ascending, distinct. */
static size_t sweep_sizes(const struct settle_report *rep,
			  const struct settle_claim_info *c, uint64_t *out,
			  size_t max)
{
	size_t n = 0;

	/* as the table: a throughput of the buffer's size only */
	if (!c->sized || c->bytes_per_op != SETTLE_BYTES_SIZE)
		return 0;
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];
		size_t k;

		if (r->claim != c || !drawable(r) || !(r->bytes_per_ns > 0))
			continue;
		for (k = 0; k < n && out[k] != r->size_bytes; k++)
			;
		if (k < n || n == max)
			continue;
		for (k = n++; k > 0 && out[k - 1] > r->size_bytes; k--)
			out[k] = out[k - 1];
		out[k] = r->size_bytes;
	}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Quantile q of sorted x[0..n), linear between order statistics. */
static double quantile(const double *x, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t k = (size_t)pos;

	if (k + 1 >= n)
		return x[n - 1];
	return x[k] + (pos - (double)k) * (x[k + 1] - x[k]);
}

/*
 * Throughput of r: at the median (what the table shows) and at the first
 * and third quartiles of the sample times (bytes / time, so the slower
 * quartile gives the lower throughput).
 */
static int throughput(const struct settle_result *r, double tp[3])
{
	double *x = malloc(r->nsamples * sizeof(*x));
	double med = r->sum.median, bytes = r->bytes_per_ns * med;
	double q1, q3;

	if (!x)
		return -1;
	memcpy(x, r->samples_ns, r->nsamples * sizeof(*x));
	qsort(x, r->nsamples, sizeof(*x), cmp_double);
	q1 = quantile(x, r->nsamples, 0.25);
	q3 = quantile(x, r->nsamples, 0.75);
	free(x);
	tp[0] = settle_safe_div(bytes, q3);
	tp[1] = r->bytes_per_ns;
	tp[2] = settle_safe_div(bytes, q1);
	return 0;
}

/* The cache marks: L1 data, L2, and the last level (if above L2). */
struct mark {
	uint64_t size;
	char text[64];
};

static size_t cache_marks(const struct settle_machine *m, struct mark *out)
{
	uint64_t sz[4] = { 0 };
	int top = 0;
	size_t n = 0;
	char s[32];

	for (size_t i = 0; i < m->ncaches; i++) {
		const struct settle_cache *c = &m->caches[i];

		if (c->level < 1 || c->level > 3 || !c->size_bytes ||
		    !strcmp(c->type, "Instruction"))
			continue;
		sz[c->level] = c->size_bytes;
		if (c->level > top)
			top = c->level;
	}
	for (int l = 1; l <= top; l++) {
		if (!sz[l])
			continue;
		settle_format_size(sz[l], s, sizeof(s));
		out[n].size = sz[l];
		if (l == top && l > 1)
			snprintf(out[n].text, sizeof(out[n].text),
				 "LLC (L%d) %s", l, s);
		else
			snprintf(out[n].text, sizeof(out[n].text), "L%d%s %s",
				 l, l == 1 ? "d" : "", s);
		n++;
	}
	return n;
}

/* x tics at powers of two, every 1, 2, 5 or 10 octaves (so 1 KiB, 1 MiB
 * and 1 GiB are tics whenever they are in range). */
static void size_tics(FILE *gp, double lo, double hi)
{
	int a = (int)ceil(log2(lo)), b = (int)floor(log2(hi));
	int span = b - a, step = span <= 12 ? 1 : span <= 24 ? 2 :
				 span <= 60 ? 5 : 10;
	const char *sep = "";
	char s[32];

	fputs("set xtics (", gp);
	for (int e = (a + step - 1) / step * step; e <= b; e += step) {
		if (e < 0)
			continue;
		fputs(sep, gp);
		quote_tic(gp, settle_format_size(1ull << e, s, sizeof(s)));
		fprintf(gp, " %.17g", ldexp(1, e));
		sep = ", ";
	}
	fputs(")\n", gp);
}

static void panel_reset(FILE *gp)
{
	fputs("reset\n"
	      "set encoding utf8\n"
	      "set border 3 lc rgb '#333333'\n"
	      "set tics nomirror out\n"
	      "set grid ytics lc rgb '#e0e0e0' lw 1\n", gp);
}

/* The result of claim c at size with throughput, labelled label, or NULL. */
static const struct settle_result *sweep_point(const struct settle_report *rep,
					       const struct settle_claim_info *c,
					       uint64_t size, const char *label)
{
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];

		if (r->claim == c && r->size_bytes == size && drawable(r) &&
		    r->bytes_per_ns > 0 && !strcmp(whole_label(r), label))
			return r;
	}
	return NULL;
}

/* The throughput panel of claim c at screen (0, y) height h. */
static int plot_sweep(struct plot *p, const struct settle_claim_info *c,
		      const uint64_t *sizes, size_t nsizes, double y, double h)
{
	const struct settle_report *rep = p->rep;
	struct series *s = calloc(1, sizeof(*s));
	struct mark marks[4];
	size_t nmarks = cache_marks(&rep->machine, marks);
	double lo = (double)sizes[0], hi = (double)sizes[nsizes - 1];
	unsigned first = p->block;
	const char *sep = "plot ";
	size_t npoints[MAX_SERIES];

	if (!s)
		return -1;
	series_of(rep, c, s);
	for (size_t k = 0; k < nmarks; k++) {
		lo = fmin(lo, (double)marks[k].size);
		hi = fmax(hi, (double)marks[k].size);
	}
	lo /= 1.6;
	hi *= 1.6;
	/* one block per variant: size, throughput at q3 time, median, q1 */
	for (size_t v = 0; v < s->n; v++, p->block++) {
		data_comment(p, s->label[v]);
		npoints[v] = 0;
		for (size_t k = 0; k < nsizes; k++) {
			const struct settle_result *r;
			double tp[3];

			r = sweep_point(rep, c, sizes[k], s->label[v]);
			if (!r)
				continue;
			if (throughput(r, tp) < 0) {
				free(s);
				return -1;
			}
			fprintf(p->dat, "%llu %.9g %.9g %.9g\n",
				(unsigned long long)r->size_bytes, tp[1], tp[0],
				tp[2]);
			npoints[v]++;
		}
		/* an empty block keeps the numbering; it is not plotted */
		fprintf(p->dat, "\n\n");
	}

	panel_reset(p->gp);
	fprintf(p->gp, "set origin 0, %.6f\nset size 1, %.6f\n", y, h);
	fputs("set title ", p->gp);
	quote(p->gp, c->title ? c->title : c->name);
	fputs(" . ' - throughput by buffer size (lines: medians; bars: "
	      "middle half of the samples)' font ',12'\n", p->gp);
	fputs("set logscale x 2\n", p->gp);
	fprintf(p->gp, "set xrange [%.17g:%.17g]\n", lo, hi);
	size_tics(p->gp, lo, hi);
	fprintf(p->gp, "set xlabel 'buffer size (log scale); dashed lines: %s'\n"
		"set ylabel 'throughput, bytes per ns (GB/s), log scale'\n"
		/* every variant visible, the table's and the baseline's */
		"set logscale y 10\nset yrange [*:*]\n"
		"set key outside right top vertical Left reverse samplen 2 "
		"spacing 1.2\n", p->rep->machine.hypervisor > 0 ?
		"the caches as reported by the hypervisor" :
		"this machine''s caches");
	for (size_t k = 0; k < nmarks; k++) {
		fprintf(p->gp, "set arrow from %llu, graph 0 to %llu, graph 1 "
			"nohead dt 2 lw 1.5 lc rgb '#555555' back\n",
			(unsigned long long)marks[k].size,
			(unsigned long long)marks[k].size);
		/* near the right edge the label goes left of its line, so
		 * that it never runs into the key */
		int left = log2((double)marks[k].size / lo) >
			   0.75 * log2(hi / lo);

		fputs("set label ", p->gp);
		quote(p->gp, marks[k].text);
		fprintf(p->gp, " at %llu, graph %.2f offset char %s, 0 %s "
			"tc rgb '#333333' front\n",
			(unsigned long long)marks[k].size,
			0.96 - 0.05 * (double)k, left ? "-0.5" : "0.5",
			left ? "right" : "left");
	}
	if (nmarks && sizes[nsizes - 1] > marks[nmarks - 1].size) {
		/* right of the last line; near the right edge only "DRAM",
		 * which fits before the key */
		double llc = (double)marks[nmarks - 1].size;
		int near = log2(llc / lo) > 0.75 * log2(hi / lo);

		fprintf(p->gp, "set label '%s' at %llu, graph %.2f offset "
			"char 0.5, 0 left tc rgb '#333333' front\n",
			near ? "DRAM" : "beyond the LLC: DRAM",
			(unsigned long long)llc, 0.96 - 0.05 * (double)nmarks);
	}
	for (size_t v = 0; v < s->n; v++) {
		char t[LABEL_LEN + 16];

		if (!npoints[v])
			continue;
		fprintf(p->gp, "%s \\\n  'data.dat' index %u using 1:2:3:4 "
			"with yerrorlines lw 2 ps 0.9 pt %d dt %d lc rgb '%s' "
			"title ", sep, first + (unsigned)v,
			points[v % NPOINTS],
			s->reference[v] ? 2 : 1 + (int)(v / NCOLORS) % 4,
			colors[v % NCOLORS]);
		snprintf(t, sizeof(t), "%s%s", s->label[v],
			 s->reference[v] ? " (reference)" :
			 s->baseline[v] ? " (baseline)" : "");
		quote(p->gp, t);
		sep = ",";
	}
	fputs("\n", p->gp);
	free(s);
	return 0;
}

/* A time unit for values from min ns up. */
static void time_unit(double min_ns, double *div, const char **name)
{
	if (min_ns >= 1e9) {
		*div = 1e9;
		*name = "s";
	} else if (min_ns >= 1e6) {
		*div = 1e6;
		*name = "ms";
	} else if (min_ns >= 1e3) {
		*div = 1e3;
		*name = "us";
	} else {
		*div = 1;
		*name = "ns";
	}
}

/* Golden-ratio jitter in [-0.18, 0.18]: even, and the same every time. */
static double jitter(size_t k)
{
	double f = (double)k * 0.6180339887498949;

	return (f - floor(f) - 0.5) * 0.36;
}

/* One distribution panel: claim c at size (0: none) at (x, y), w x h. */
static int plot_dist(struct plot *p, const struct settle_claim_info *c,
		     uint64_t size, double x, double y, double w, double h)
{
	const struct settle_report *rep = p->rep;
	struct series *s = calloc(1, sizeof(*s));
	double lo = INFINITY, hi = 0, div;
	const char *unit, *sep = "plot ";
	char lb[LABEL_LEN], sz[32], omitted[256] = "", note[320];
	size_t n = 0, ndraw = 0, nomitted = 0, longest = 0;
	int logy;

	if (!s)
		return -1;
	series_of(rep, c, s);
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];

		if (r->claim != c || r->size_bytes != size)
			continue;
		if (!drawable(r)) {
			size_t used = strlen(omitted);

			if (r->skipped || !r->nsamples)
				continue;
			nomitted++;
			snprintf(omitted + used, sizeof(omitted) - used,
				 "%s%s", used ? ", " : "", label_of(r, lb));
			continue;
		}
		ndraw++;
		for (size_t k = 0; k < r->nsamples; k++) {
			if (r->samples_ns[k] > 0)
				lo = fmin(lo, r->samples_ns[k]);
			hi = fmax(hi, r->samples_ns[k]);
		}
	}
	if (!(lo < INFINITY))
		lo = hi > 0 ? hi : 1;
	logy = hi / lo > 8;
	time_unit(lo, &div, &unit);

	panel_reset(p->gp);
	fprintf(p->gp, "set origin %.6f, %.6f\nset size %.6f, %.6f\n", x, y,
		w, h);
	fputs("set title ", p->gp);
	if (c->sized)
		snprintf(lb, sizeof(lb), "%s, %s: every sample", c->name,
			 settle_format_size(size, sz, sizeof(sz)));
	else
		snprintf(lb, sizeof(lb), "%s: every sample", c->name);
	quote(p->gp, lb);
	if (omitted[0]) {
		fputs(" . \"\\n\" . ", p->gp);
		if (strlen(omitted) > 48)
			snprintf(omitted, sizeof(omitted), "%zu variants",
				 nomitted);
		snprintf(note, sizeof(note), "not shown, below the clock's "
			 "resolution or invalid: %s", omitted);
		quote(p->gp, note);
	}
	fputs("\n", p->gp);
	if (!ndraw) {
		/* empty axes, so that the panel still says why */
		fputs("unset xtics\nunset ytics\nunset grid\n"
		      "set xrange [0:1]\nset yrange [0:1]\n"
		      "set label 'no sample to show' at graph 0.5, 0.5 center\n"
		      "plot 2 notitle\n", p->gp);
		free(s);
		return 0;
	}
	snprintf(lb, sizeof(lb), "%s per %s%s", unit,
		 c->op_name ? c->op_name : "operation",
		 logy ? " (log scale)" : "");
	fputs("set ylabel ", p->gp);
	quote(p->gp, lb);
	fputs("\n", p->gp);
	if (logy)
		fputs("set logscale y 10\n", p->gp);
	else
		fputs("set yrange [0:*]\n", p->gp);
	fputs("set style boxplot nooutliers\n"
	      "set boxwidth 0.55\n"
	      "unset key\n", p->gp);

	fputs("set xtics (", p->gp);
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];

		if (r->claim != c || r->size_bytes != size || !drawable(r))
			continue;
		fputs(n ? ", " : "", p->gp);
		quote_tic(p->gp, label_of(r, lb));
		fprintf(p->gp, " %zu", ++n);
		if (strlen(lb) > longest)
			longest = strlen(lb);
	}
	fputs(")\n", p->gp);
	if (n * (longest + 1) * 7 > w * CANVAS_W * 0.8)
		fputs("set xtics rotate by 30 right\n", p->gp);
	fprintf(p->gp, "set xrange [0.4:%.1f]\n", (double)n + 0.6);

	n = 0;
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];
		size_t v;

		if (r->claim != c || r->size_bytes != size || !drawable(r))
			continue;
		v = series_index(s, whole_label(r));
		data_comment(p, label_of(r, lb));
		for (size_t k = 0; k < r->nsamples; k++)
			if (!logy || r->samples_ns[k] > 0)
				fprintf(p->dat, "%.9g %.4f\n",
					r->samples_ns[k] / div, jitter(k));
		fprintf(p->dat, "\n\n");
		n++;
		fprintf(p->gp, "%s \\\n  'data.dat' index %u using (%zu):1 "
			"with boxplot lw 1.5 lc rgb '%s' fs transparent solid "
			"0.15 border lc rgb '%s'", sep, p->block, n,
			colors[v % NCOLORS], colors[v % NCOLORS]);
		fprintf(p->gp, ", \\\n  'data.dat' index %u using (%zu + $2):1 "
			"with points pt 7 ps 0.45 lc rgb '%s'", p->block, n,
			colors[v % NCOLORS]);
		sep = ",";
		p->block++;
	}
	fputs("\n", p->gp);
	free(s);
	return 0;
}

/* Distinct sizes of claim c with something to draw, in order of results. */
static size_t dist_sizes(const struct settle_report *rep,
			 const struct settle_claim_info *c, uint64_t *out,
			 size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *r = &rep->results[i];
		size_t k;

		if (r->claim != c || r->skipped || !r->nsamples)
			continue;
		for (k = 0; k < n && out[k] != r->size_bytes; k++)
			;
		if (k == n && n < max)
			out[n++] = r->size_bytes;
	}
	return n;
}

/* Does rep hold whole commands (settle run --command)? */
static int commands(const struct settle_report *rep)
{
	for (size_t i = 0; i < rep->nresults; i++)
		if (rep->results[i].command)
			return 1;
	return 0;
}

/* "AMD EPYC, L1d 32 KiB, L2 1 MiB, L3 32 MiB; gcc 12.2.0, -O2; ..." */
static void machine_line(const struct settle_report *rep, char *buf,
			 size_t len)
{
	const struct settle_machine *m = &rep->machine;
	size_t used;
	char s[32];

	used = (size_t)snprintf(buf, len, "%s", m->model_name[0] ?
				m->model_name : "unknown CPU");
	for (size_t i = 0; i < m->ncaches && used < len; i++) {
		const struct settle_cache *c = &m->caches[i];

		if (!strcmp(c->type, "Instruction"))
			continue;
		used += (size_t)snprintf(buf + used, len - used, ", L%d%s %s",
					 c->level, !strcmp(c->type, "Data") ?
					 "d" : "", settle_format_size(
						 c->size_bytes, s, sizeof(s)));
	}
	/* the claims' build: the user's compiler for settle run FILE.c */
	if (used < len && rep->claims_built[0])
		used += (size_t)snprintf(buf + used, len - used, "; built with "
					 "%s", rep->claims_built);
	else if (used < len && rep->compiler[0] && !commands(rep))
		/* settle's own build, which built its claims; not the
		 * commands' */
		used += (size_t)snprintf(buf + used, len - used, "; %s %s",
					 rep->compiler, rep->build_flags);
	/* a whole command's sample is one run, of no minimum time */
	if (used < len && rep->options.samples && commands(rep))
		snprintf(buf + used, len - used, "; %u run%s each",
			 rep->options.samples,
			 rep->options.samples == 1 ? "" : "s");
	else if (used < len && rep->options.samples) {
		char floor_ms[64];

		settle_sample_floor(rep, floor_ms, sizeof(floor_ms));
		snprintf(buf + used, len - used, "; %u sample%s, each >= %s",
			 rep->options.samples,
			 rep->options.samples == 1 ? "" : "s", floor_ms);
	}
}

static void distinct_claims(struct plot *p)
{
	p->nclaims = 0;
	for (size_t i = 0; i < p->rep->nresults; i++) {
		const struct settle_claim_info *c = p->rep->results[i].claim;
		size_t k;

		for (k = 0; k < p->nclaims && p->claims[k] != c; k++)
			;
		if (k == p->nclaims && p->nclaims < MAX_CLAIMS)
			p->claims[p->nclaims++] = c;
	}
}

struct layout {
	size_t nsweeps, npanels, total_panels, cols, rows;
	int height;
};

static void plan(struct plot *p, enum settle_plot_kind kind,
		 struct layout *l)
{
	uint64_t sizes[64];

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < p->nclaims; i++) {
		if (kind != SETTLE_PLOT_SAMPLES &&
		    sweep_sizes(p->rep, p->claims[i], sizes, 64) >= 2)
			l->nsweeps++;
		if (kind != SETTLE_PLOT_THROUGHPUT)
			l->total_panels += dist_sizes(p->rep, p->claims[i],
						      sizes, 64);
	}
	l->npanels = l->total_panels < MAX_PANELS ? l->total_panels :
		     MAX_PANELS;
	l->cols = l->npanels > 1 ? 2 : 1;
	l->rows = (l->npanels + l->cols - 1) / l->cols;
	l->height = HEAD_H + (int)l->nsweeps * SWEEP_H +
		    (int)l->rows * DIST_H;
}

static int write_script(struct plot *p, enum settle_plot_kind kind,
			const char *format, const struct layout *l)
{
	FILE *gp = p->gp;
	double H = l->height, y = 1 - HEAD_H / H;
	size_t panel = 0;
	uint64_t sizes[64];
	char line[512];
	size_t n;

	fputs("# settle plot: generated by settle (src/report/plot.c)\n", gp);
	if (!strcmp(format, "svg")) {
		fprintf(gp, "set terminal svg size %d,%d dynamic noenhanced "
			"font 'Sans,11' background '#ffffff'\n", CANVAS_W,
			l->height);
	} else {
		fprintf(gp, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			"  set terminal pngcairo size %d,%d noenhanced "
			"font 'Sans,10' background '#ffffff'\n} else {\n"
			"  set terminal png size %d,%d noenhanced "
			"background '#ffffff'\n}\n", CANVAS_W, l->height,
			CANVAS_W, l->height);
	}
	fprintf(gp, "set output 'plot.%s'\n", format);
	fputs("set encoding utf8\nset multiplot title ", gp);
	/* what was measured, and where: not a file's path */
	snprintf(line, sizeof(line), "settle:");
	for (size_t i = 0; i < p->nclaims && strlen(line) < 400; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "%s %s", i ? "," : "", p->claims[i]->name);
	quote(gp, line);
	fputs(" . \"\\n\" . ", gp);
	machine_line(p->rep, line, sizeof(line));
	quote(gp, line);
	if (l->npanels < l->total_panels) {
		snprintf(line, sizeof(line), " (the first %zu of %zu "
			 "distribution panels)", l->npanels, l->total_panels);
		fputs(" . ", gp);
		quote(gp, line);
	}
	fputs(" font ',11'\n", gp);

	for (size_t i = 0; i < p->nclaims && kind != SETTLE_PLOT_SAMPLES;
	     i++) {
		n = sweep_sizes(p->rep, p->claims[i], sizes, 64);
		if (n < 2)
			continue;
		y -= SWEEP_H / H;
		if (plot_sweep(p, p->claims[i], sizes, n, y, SWEEP_H / H) < 0)
			return -1;
	}
	for (size_t i = 0; i < p->nclaims && kind != SETTLE_PLOT_THROUGHPUT;
	     i++) {
		n = dist_sizes(p->rep, p->claims[i], sizes, 64);
		for (size_t k = 0; k < n && panel < l->npanels; k++, panel++) {
			double w = 1.0 / (double)l->cols;
			double row = (double)(panel / l->cols + 1);
			double py = y - row * DIST_H / H;

			if (plot_dist(p, p->claims[i], sizes[k],
				      (double)(panel % l->cols) * w, py, w,
				      DIST_H / H) < 0)
				return -1;
		}
	}
	fputs("unset multiplot\nset output\n", gp);
	return 0;
}

/* gnuplot: $SETTLE_GNUPLOT (a name or a path), else gnuplot in PATH. */
static int find_gnuplot(char *out, size_t len)
{
	const char *want = getenv("SETTLE_GNUPLOT");
	const char *path = getenv("PATH");

	if (!want || !*want)
		want = "gnuplot";
	if (strchr(want, '/')) {
		snprintf(out, len, "%s", want);
		return access(out, X_OK);
	}
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t k = strcspn(path, ":");

		snprintf(out, len, "%.*s/%s", (int)k, k ? path : ".", want);
		if (access(out, X_OK) == 0)
			return 0;
		path += k + (path[k] == ':');
	}
	snprintf(out, len, "%s", want); /* for the message: the name asked for */
	return -1;
}

/* The message for a gnuplot find_gnuplot() did not find: the program
 * SETTLE_GNUPLOT names, or gnuplot itself. Returns -1. */
static int no_gnuplot(const char *name, char *err, size_t errlen)
{
	const char *want = getenv("SETTLE_GNUPLOT");
	const char *where = strchr(name, '/') ? "not an executable file"
					      : "not found in PATH";

	if (want && *want)
		return fail(err, errlen, "SETTLE_GNUPLOT=%s: %s (it names the "
			    "gnuplot settle plot runs; unset it to use "
			    "gnuplot from PATH)", name, where);
	return fail(err, errlen, "settle plot needs gnuplot (%s); install "
		    "it: " GNUPLOT_APT, where);
}

/*
 * The seconds gnuplot may take: SETTLE_PLOT_TIMEOUT (whole seconds, 1 to
 * 86400), else PLOT_TIMEOUT_S; -1 after a message in err when the
 * variable is malformed. A gnuplot that hangs (waiting on a terminal
 * or a font server) would otherwise hold settle plot for ever.
 */
#define PLOT_TIMEOUT_S 60
static long plot_timeout(char *err, size_t errlen)
{
	const char *v = getenv("SETTLE_PLOT_TIMEOUT");
	char *end;
	long s;

	if (!v || !*v)
		return PLOT_TIMEOUT_S;
	errno = 0;
	s = strtol(v, &end, 10);
	if (errno || *end || end == v || s < 1 || s > 86400)
		return fail(err, errlen, "malformed SETTLE_PLOT_TIMEOUT '%s' "
			    "(whole seconds, 1 to 86400)", v);
	return s;
}

/* Run gnuplot on plot.gp in dir, for at most secs seconds; its messages
 * go to dir/gnuplot.log. */
static int run_gnuplot(const char *gnuplot, const char *dir, long secs,
		       char *err, size_t errlen)
{
	static const char *const set[] = { "LC_NUMERIC=C", NULL };
	static const char *const unset[] = { "LC_ALL", "DISPLAY", "GNUTERM",
					     NULL };
	char *argv[] = { (char *)gnuplot, "plot.gp", NULL };
	struct settle_spawn_opts o = {
		SETTLE_SPAWN_NULL, SETTLE_SPAWN_NULL, -1, -1, dir, set, unset,
		0,
	};
	char log[4096], first[200] = "";
	int status, late;
	pid_t pid;
	FILE *f;

	snprintf(log, sizeof(log), "%s/gnuplot.log", dir);
	o.err = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (o.err < 0)
		return fail(err, errlen, "cannot run gnuplot: %s",
			    strerror(errno));
	pid = settle_spawn(argv, &o);
	close(o.err);
	if (pid < 0)
		return fail(err, errlen, "cannot run gnuplot: %s",
			    strerror(errno));
	status = settle_wait_for(pid, secs * 1000, &late);
	if (status == 0)
		return 0;
	if (status < 0)
		return fail(err, errlen, "cannot wait for gnuplot: %s",
			    strerror(errno));
	if (late)
		return fail(err, errlen, "gnuplot did not finish within %ld s "
			    "and was stopped (SETTLE_PLOT_TIMEOUT sets the "
			    "limit)", secs);
	f = fopen(log, "r");
	if (f) {
		/* the first line that says something */
		while (fgets(first, sizeof(first), f))
			if (strspn(first, " \t\n^") < strlen(first))
				break;
		fclose(f);
		first[strcspn(first, "\n")] = '\0';
	}
	return fail(err, errlen, "gnuplot failed (%s %d)%s%s",
		    status < 128 ? "exit status" : "signal",
		    status < 128 ? status : status - 128,
		    first[0] ? ": " : "", first);
}

/* The picture gnuplot wrote (src) written to path whole or not at all. */
static int install_file(const char *src, const char *path, char *err,
			size_t errlen)
{
	FILE *in = fopen(src, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, k;
	int rc;

	if (!in)
		return fail(err, errlen, "gnuplot wrote no picture");
	do {
		char *more;

		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			more = realloc(buf, cap);
			if (!more) {
				free(buf);
				fclose(in);
				return fail(err, errlen, "out of memory");
			}
			buf = more;
		}
		k = fread(buf + n, 1, cap - n, in);
		n += k;
	} while (k > 0);
	rc = ferror(in) ? fail(err, errlen, "cannot read the picture gnuplot "
			       "wrote: %s", strerror(errno)) :
	     n == 0 ? fail(err, errlen, "gnuplot wrote an empty picture") :
	     settle_replace_file(path, buf, n, err, errlen);
	fclose(in);
	free(buf);
	return rc;
}

/* The files settle plot makes in its temporary directory dir: file i
 * (0-3) into f (len bytes). */
static void temp_file(const char *dir, const char *format, size_t i,
		      char *f, size_t len)
{
	static const char *const names[] = { "plot.gp", "data.dat",
					     "gnuplot.log" };

	if (i < 3)
		snprintf(f, len, "%s/%s", dir, names[i]);
	else
		snprintf(f, len, "%s/plot.%s", dir, format);
}

/* dir and its files, registered for removal should settle be ended by a
 * signal meanwhile (settle_temp_add(): a gnuplot that did not end left
 * them behind). */
static void register_dir(const char *dir, const char *format)
{
	char f[4096];

	settle_temp_add(dir, 1);
	for (size_t i = 0; i < 4; i++) {
		temp_file(dir, format, i, f, sizeof(f));
		settle_temp_add(f, 0);
	}
}

static void remove_dir(const char *dir, const char *format)
{
	char f[4096];

	for (size_t i = 0; i < 4; i++) {
		temp_file(dir, format, i, f, sizeof(f));
		unlink(f);
		settle_temp_forget(f);
	}
	rmdir(dir);
	settle_temp_forget(dir);
}

static int write_files(struct plot *p, const char *dir,
		       enum settle_plot_kind kind, const char *format,
		       const struct layout *l, char *err, size_t errlen)
{
	char f[4096];
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0), old = 0;
	int rc;

	snprintf(f, sizeof(f), "%s/plot.gp", dir);
	p->gp = fopen(f, "w");
	snprintf(f, sizeof(f), "%s/data.dat", dir);
	p->dat = fopen(f, "w");
	if (c)
		old = uselocale(c);
	rc = p->gp && p->dat ? write_script(p, kind, format, l) : -1;
	if (c) {
		uselocale(old);
		freelocale(c);
	}
	if (p->gp && (ferror(p->gp) | fclose(p->gp)))
		rc = -1;
	if (p->dat && (ferror(p->dat) | fclose(p->dat)))
		rc = -1;
	if (rc < 0)
		return fail(err, errlen, "cannot write the plot's data in %s: "
			    "%s", dir, strerror(errno ? errno : EIO));
	return 0;
}

int settle_plot(const struct settle_report *rep, const char *path,
		enum settle_plot_kind kind, char *err, size_t errlen)
{
	const char *format = settle_plot_format(path);
	const char *tmpdir = settle_tmpdir();
	struct plot p = { .rep = rep };
	char gnuplot[4096], dir[2048], pic[4096], target[4096];
	struct layout l;
	long secs;
	int rc;

	if (!format)
		return fail(err, errlen, "cannot plot to %s: the name must end "
			    "in .svg or .png", path ? path : "(none)");
	if (settle_output_target(path, target, sizeof(target), err, errlen) < 0)
		return -1;
	path = target;
	if (find_gnuplot(gnuplot, sizeof(gnuplot)) < 0)
		return no_gnuplot(gnuplot, err, errlen);
	if ((secs = plot_timeout(err, errlen)) < 0)
		return -1;
	distinct_claims(&p);
	if (kind == SETTLE_PLOT_AUTO) {
		plan(&p, SETTLE_PLOT_THROUGHPUT, &l);
		kind = l.nsweeps ? SETTLE_PLOT_THROUGHPUT : SETTLE_PLOT_SAMPLES;
	}
	plan(&p, kind, &l);
	if (kind == SETTLE_PLOT_THROUGHPUT && !l.nsweeps)
		return fail(err, errlen, "%s has no size sweep to plot (a "
			    "claim with throughput measured at two or more "
			    "sizes)",
			    rep->source[0] ? rep->source : "the result");
	if (!l.nsweeps && !l.npanels)
		return fail(err, errlen, "%s has no samples to plot",
			    rep->source[0] ? rep->source : "the result");
	if ((size_t)snprintf(dir, sizeof(dir), "%s/settle-plot-XXXXXX",
			     tmpdir) >= sizeof(dir))
		return fail(err, errlen, "cannot make a temporary directory: "
			    "its name would be too long (TMPDIR)");
	if (!mkdtemp(dir))
		return fail(err, errlen, "cannot create a temporary directory "
			    "in %s: %s", tmpdir, strerror(errno));
	register_dir(dir, format);
	rc = write_files(&p, dir, kind, format, &l, err, errlen);
	if (!rc)
		rc = run_gnuplot(gnuplot, dir, secs, err, errlen);
	if (!rc) {
		snprintf(pic, sizeof(pic), "%s/plot.%s", dir, format);
		rc = install_file(pic, path, err, errlen);
	}
	remove_dir(dir, format);
	return rc;
}
