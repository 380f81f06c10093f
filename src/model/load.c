/*
 * load.c - read a result file back (jansson, a strict RFC 8259 parser) into
 * the result model, so that `settle show` and `settle compare` work from
 * the samples, not from a stored summary. Google Benchmark JSON files
 * (--benchmark_format=json) are read too: their repetitions become samples.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/command.h"
#include "model/model.h"
#include "stats/rules.h"
#include "settle.h"
#include "util/util.h"

struct loader {
	struct settle_report *rep;
	const char *path;
	char *err;
	size_t errlen;
	const char *too_long; /* the first string longer than settle writes */
	size_t too_long_max;  /* its buffer's length less the NUL */
	long *skip_pos;       /* skipped[].position of the skipped rows, */
	size_t skip_first;    /* loaded from results[skip_first] on */
	json_t *seen;         /* what a Google Benchmark file's entries
				 said so far (same_kind(), once()) */
	json_t *claims;       /* settle's gbench-json's settle_claims, or
				 NULL */
};

__attribute__((format(printf, 2, 3)))
static int fail(struct loader *l, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(l->err, l->errlen, "%s: ", l->path);

	va_start(ap, fmt);
	if (k > 0 && (size_t)k < l->errlen)
		vsnprintf(l->err + k, l->errlen - (size_t)k, fmt, ap);
	va_end(ap);
	/* names and values from the file: one line, nothing a terminal
	 * would act on */
	settle_escape_in(l->err, l->errlen);
	return -1;
}

static const char *str(struct loader *l, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ?
	       settle_report_strdup(l->rep, json_string_value(v)) : NULL;
}

/*
 * A number of the file's metadata: a count, a rate, a time. Values that
 * no settle run writes (negative, not finite, beyond 1e12) read as 0, so
 * that a doctored file cannot make a report print nonsense.
 */
static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	double d = json_is_number(v) ? json_number_value(v) : 0;

	return isfinite(d) && d >= 0 && d <= 1e12 ? d : 0;
}

/* A number of the file's metadata in [lo, hi], or unknown when it is
 * absent, not a number or outside (a value no run writes). */
static double within(json_t *o, const char *key, double lo, double hi,
		     double unknown)
{
	json_t *v = json_object_get(o, key);
	double d = json_is_number(v) ? json_number_value(v) : NAN;

	return isfinite(d) && d >= lo && d <= hi ? d + 0.0 : unknown; /* not -0 */
}

/* A count (repetitions, operations): a non-negative integer, 0 otherwise. */
static uint64_t count(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ?
	       (uint64_t)json_integer_value(v) : 0;
}

/* A sample in ns: from 1e-15 ns to about 11 days. Zero, negative and
 * non-finite times are no measurement settle makes; the shortest it can
 * make is a clock tick over 2^40 repetitions of a body whose work was
 * removed (about 1e-12 ns). */
static int is_time(json_t *s)
{
	double d = json_is_number(s) ? json_number_value(s) : -1;

	return d >= 1e-15 && d <= 1e15;
}

/*
 * A string of the file into dst (len bytes with its NUL); absent or not a
 * string, "". Settle writes these strings from buffers of the same sizes,
 * so one that does not fit is none it wrote (jansson refuses a NUL
 * inside a string already): the loader notes its key and the file is
 * refused, since a cut would make two names that differ past it compare
 * equal.
 */
static void copy(struct loader *l, char *dst, size_t len, json_t *o,
		 const char *key)
{
	json_t *v = json_object_get(o, key);
	const char *s = json_is_string(v) ? json_string_value(v) : "";

	if (json_is_string(v) && !l->too_long && json_string_length(v) >= len) {
		l->too_long = key;
		l->too_long_max = len - 1;
	}
	snprintf(dst, len, "%s", s);
}

/* machine.primitives.read_limit_timed: how many processes timed their
 * read limit's loads, and of them how many chose 256-bit loads; absent,
 * or counts no run writes (not integers, no process, more than settle
 * run's 256 processes, more chose than timed), read as none. */
static void read_limit_timed(struct settle_machine *m, json_t *o)
{
	json_t *jn = json_object_get(o, "processes");
	json_t *jk = json_object_get(o, "chose_256_bit");
	json_int_t n, k;

	if (!json_is_integer(jn) || !json_is_integer(jk))
		return;
	n = json_integer_value(jn);
	k = json_integer_value(jk);
	if (n < 1 || n > 256 || k < 0 || k > n)
		return;
	m->read_limit_timed = (unsigned)n;
	m->read_limit_timed_256 = (unsigned)k;
}

static void load_machine(struct loader *l, struct settle_report *rep,
			 json_t *doc)
{
	struct settle_machine *m = &rep->machine;
	json_t *jm = json_object_get(doc, "machine");
	json_t *t = json_object_get(doc, "timer"), *v;
	size_t i;

	copy(l, m->vendor, sizeof(m->vendor), jm, "vendor");
	copy(l, m->model_name, sizeof(m->model_name), jm, "model_name");
	m->family = (unsigned)within(jm, "family", 0, UINT_MAX, 0);
	m->model = (unsigned)within(jm, "model", 0, UINT_MAX, 0);
	m->stepping = (unsigned)within(jm, "stepping", 0, UINT_MAX, 0);
	json_array_foreach(json_object_get(jm, "isa"), i, v) {
		if (!json_is_string(v))
			continue;
		if (m->isa[0])
			strncat(m->isa, " ", sizeof(m->isa) - strlen(m->isa) - 1);
		strncat(m->isa, json_string_value(v),
			sizeof(m->isa) - strlen(m->isa) - 1);
	}
	json_array_foreach(json_object_get(jm, "caches"), i, v) {
		struct settle_cache *c = &m->caches[m->ncaches];

		if (m->ncaches == SETTLE_MAX_CACHES)
			break;
		c->level = (int)within(v, "level", 0, INT_MAX, 0);
		copy(l, c->type, sizeof(c->type), v, "type");
		c->size_bytes = (uint64_t)num(v, "size_bytes");
		m->ncaches++;
	}
	copy(l, m->caches_source, sizeof(m->caches_source), jm, "caches_source");
	m->logical_cpus = (long)num(jm, "logical_cpus");
	copy(l, m->kernel, sizeof(m->kernel), jm, "kernel");
	v = json_object_get(jm, "hypervisor");
	m->hypervisor = json_is_boolean(v) ? json_is_true(v) : -1;
	copy(l, m->hypervisor_vendor, sizeof(m->hypervisor_vendor), jm,
	     "hypervisor_vendor");
	copy(l, m->emulator, sizeof(m->emulator), jm, "emulator");
	copy(l, m->seccomp, sizeof(m->seccomp), jm, "seccomp");
	copy(l, m->mitigations, sizeof(m->mitigations), jm, "mitigations");
	m->mem_available = (uint64_t)num(jm, "mem_available_bytes");
	copy(l, m->popcount_impl, sizeof(m->popcount_impl),
	     json_object_get(jm, "primitives"), "popcount");
	copy(l, m->bswap_impl, sizeof(m->bswap_impl),
	     json_object_get(jm, "primitives"), "bswap");
	copy(l, m->bswap_sizes, sizeof(m->bswap_sizes),
	     json_object_get(jm, "primitives"), "bswap_sizes");
	copy(l, m->read_limit, sizeof(m->read_limit),
	     json_object_get(jm, "primitives"), "read_limit");
	read_limit_timed(m, json_object_get(json_object_get(jm, "primitives"),
					    "read_limit_timed"));
	rep->timer.tsc_ghz = within(jm, "tsc_ghz", 0.01, 100, 0);
	rep->timer.core_ghz = within(jm, "core_ghz_estimate", 0.2, 10, 0);
	v = json_object_get(t, "clock");
	rep->timer.clock = settle_clock_parse(json_is_string(v) ?
					      json_string_value(v) : NULL);
	rep->timer.why = str(l, t, "why");
	if (!rep->timer.why)
		rep->timer.why = "unknown";
	/* a read or a step of a second or more is no clock's (a kernel
	 * without high-resolution timers steps by 1-10 ms): unknown */
	rep->timer.overhead_ns = within(t, "overhead_ns", 0, 1e9, 0);
	rep->timer.resolution_ns = within(t, "resolution_ns", 0, 1e9, 0);
}

/*
 * The noise: unknown unless an object with a load average. Values no run
 * writes read as unknown: a core clock outside 0.2-10 GHz, a steal outside
 * 0-100 %, other work on more CPUs than the machine has (half a CPU over,
 * for the grain of /proc/stat's ticks); the drift is recomputed from the
 * two clocks, not taken from the file.
 */
static void load_noise(struct loader *l, struct settle_report *rep,
		       json_t *doc)
{
	json_t *j = json_object_get(doc, "noise");
	struct settle_noise *n = &rep->noise;
	long cpus = rep->machine.logical_cpus;

	n->other_cpus = n->steal_pct = -1;
	n->known = json_is_object(j) &&
		   json_is_number(json_object_get(j, "loadavg"));
	if (!n->known)
		return;
	n->loadavg = num(j, "loadavg");
	n->steal_pct = within(j, "steal_pct", 0, 100, -1);
	n->nvcsw = (long)num(j, "voluntary_switches");
	n->nivcsw = (long)num(j, "involuntary_switches");
	n->migrations = (long)num(j, "migrations");
	copy(l, n->governor, sizeof(n->governor), j, "frequency_governor");
	n->core_ghz_before = within(j, "core_ghz_before", 0.2, 10, 0);
	n->core_ghz_after = within(j, "core_ghz_after", 0.2, 10, 0);
	n->drift_pct = settle_noise_drift(n);
	/* absent from files written before it was recorded: unknown, so
	 * that the load average speaks */
	n->other_cpus = within(j, "other_cpus", 0,
			       cpus > 0 ? (double)cpus + 0.5 : 1e6, -1);
	n->seconds = num(j, "seconds");
}

/* The settings of a run; 0, or -1 after fail() for a band no run
 * writes (0, negative or 100: it was read as 1 % without a word, where
 * settle run --equivalence refuses it). */
static int load_settings(struct loader *l, struct settle_report *rep,
			 json_t *doc)
{
	json_t *b = json_object_get(doc, "build");
	json_t *s = json_object_get(doc, "settings");
	json_t *c = json_object_get(doc, "created");
	json_t *eb = json_object_get(s, "equivalence_band");
	struct settle_options *o = &rep->options;

	if (eb && !(json_is_number(eb) && json_number_value(eb) > 0 &&
		    json_number_value(eb) <= 0.5))
		return fail(l, "malformed: settings.equivalence_band is not a "
			    "band (a fraction above 0, at most 0.5: settle "
			    "run --equivalence 1 writes 0.01)");

	/* when the run began: kept as written, when it is a time */
	if (json_is_string(c) && settle_utc_parse(json_string_value(c)) >= 0)
		snprintf(rep->created, sizeof(rep->created), "%s",
			 json_string_value(c));

	copy(l, rep->compiler, sizeof(rep->compiler), b, "compiler");
	copy(l, rep->build_flags, sizeof(rep->build_flags), b, "flags");
	copy(l, rep->novec_flags, sizeof(rep->novec_flags), b, "novec_flags");
	copy(l, rep->claims_built, sizeof(rep->claims_built), b,
	     "claims_built_with");
	copy(l, rep->order, sizeof(rep->order), s, "order");
	o->samples = (unsigned)within(s, "samples", 0, UINT_MAX, 0);
	o->min_sample_ns = num(s, "min_sample_ns");
	o->cpu = rep->cpu = json_is_integer(json_object_get(s, "cpu")) ?
			    (int)within(s, "cpu", 0, 1 << 20, -1) : -1;
	o->quick = json_is_true(json_object_get(s, "quick"));
	o->full = json_is_true(json_object_get(s, "full"));
	o->device_mbps = num(s, "device_mbps");
	/* at most 256 processes (settle run --processes): a larger count
	 * would split the samples into empty chunks, one loop per chunk */
	o->processes = (unsigned)within(s, "processes", 0, 256, 0);
	o->layouts = (unsigned)within(s, "layouts", 0, UINT_MAX, 0);
	/* the band its verdicts were drawn with (settle run --equivalence:
	 * above 0, at most 50 %), for a reader that asks for the file's */
	if (o->band < 0) {
		double b = num(s, "equivalence_band");

		o->band = b > 0 && b <= 0.5 ? b : 0.01;
	}
	o->layout_first = (unsigned)within(s, "layout", 0, UINT_MAX, 0);
	if (o->layouts > 64 || o->layout_first > 63)
		o->layouts = o->layout_first = 0; /* no run of settle's */
	return 0;
}

/* A claim's conclusion as the file states it; 0 when it has none. */
static int load_conclusion(json_t *j, struct settle_conclusion *k)
{
	json_t *v;
	const char *by;
	size_t i;

	memset(k, 0, sizeof(*k));
	if (!json_is_object(j) || !json_is_string(json_object_get(j, "sentence")))
		return 0;
	snprintf(k->sentence, sizeof(k->sentence), "%s",
		 json_string_value(json_object_get(j, "sentence")));
	json_array_foreach(json_object_get(j, "numbers"), i, v) {
		json_t *x = json_object_get(v, "value");

		if (json_is_string(json_object_get(v, "name")) &&
		    json_is_number(x))
			settle_conclusion_number(k, json_string_value(
				json_object_get(v, "name")),
				json_number_value(x),
				json_string_value(json_object_get(v, "unit")));
	}
	json_array_foreach(json_object_get(j, "rows"), i, v) {
		if (k->nrows == SETTLE_MAX_NAMED ||
		    !json_is_string(json_object_get(v, "label")))
			continue;
		snprintf(k->rows[k->nrows].label, sizeof(k->rows[0].label),
			 "%s", json_string_value(json_object_get(v, "label")));
		by = json_string_value(json_object_get(v, "by"));
		k->rows[k->nrows].by_time = by && !strcmp(by, "time");
		k->rows[k->nrows++].size_bytes = count(v, "size_bytes");
	}
	return 1;
}

/* The claim called name, described by doc's "claims". */
static const struct settle_claim_info *claim_of(struct loader *l,
						json_t *claims,
						const char *name)
{
	json_t *c = json_object_get(claims, name), *b;
	const struct settle_claim_info *info;
	struct settle_conclusion conc;
	struct settle_claim_info k;

	if (!json_is_object(c) || !json_is_string(json_object_get(c, "baseline")))
		return NULL;
	memset(&k, 0, sizeof(k));
	k.name = name;
	k.description = json_string_value(json_object_get(c, "description"));
	k.title = json_string_value(json_object_get(c, "title"));
	k.op_name = json_string_value(json_object_get(c, "op_name"));
	k.baseline = json_string_value(json_object_get(c, "baseline"));
	k.original = json_string_value(json_object_get(c, "original"));
	k.show_cycles = json_is_true(json_object_get(c, "show_cycles"));
	b = json_object_get(c, "bytes_per_op");
	if (b && (json_is_string(b) ? strcmp(json_string_value(b), "size") :
		  !json_is_integer(b) || json_integer_value(b) < 0)) {
		fail(l, "malformed: claims.%s.bytes_per_op is neither \"size\" "
		     "nor a whole number of bytes", name);
		return NULL;
	}
	k.bytes_per_op = json_is_string(b) ? SETTLE_BYTES_SIZE :
			 (uint64_t)json_integer_value(b);
	k.sized = json_is_true(json_object_get(c, "sizes"));
	info = settle_report_claim(l->rep, &k);
	if (info && !info->conclusion &&
	    load_conclusion(json_object_get(c, "conclusion"), &conc))
		settle_report_conclude(l->rep, info, &conc);
	return info;
}

/*
 * A result's "params": size_bytes and build go to *size and *build, the
 * others to p[0..*n) (p has room for every key; the strings stay in
 * params, or in text[] for values that are not strings, which the caller
 * frees). -1 when size_bytes is not a size settle measures (a whole
 * number of bytes, at least 1).
 */
static int split_params(json_t *params, struct settle_param *p, size_t *n,
			char **text, uint64_t *size, const char **build)
{
	const char *key;
	json_t *val;

	*n = 0;
	json_object_foreach(params, key, val) {
		if (strcmp(key, "size_bytes") == 0) {
			if (!json_is_integer(val) || json_integer_value(val) < 1)
				return -1;
			*size = (uint64_t)json_integer_value(val);
		} else if (strcmp(key, "build") == 0 && json_is_string(val)) {
			*build = json_string_value(val);
		} else {
			text[*n] = json_is_string(val) ? NULL :
				   json_dumps(val, JSON_ENCODE_ANY);
			p[*n].key = key;
			p[*n].value = json_is_string(val) ?
				      json_string_value(val) : text[*n];
			p[*n].type = json_is_string(val) ? SETTLE_PARAM_STRING :
				     json_is_boolean(val) ? SETTLE_PARAM_BOOL :
				     SETTLE_PARAM_INT;
			p[*n].label = NULL;
			(*n)++;
		}
	}
	return 0;
}

/* Append the result of claim cname, variant vname described by jr. */
static struct settle_result *add_result(struct loader *l, json_t *doc,
					json_t *jr, size_t idx,
					const char *cname, const char *vname)
{
	json_t *params = json_object_get(jr, "params");
	size_t np = json_object_size(params), n = 0;
	struct settle_param *p = calloc(np + 1, sizeof(*p));
	char **text = calloc(np + 1, sizeof(*text));
	const struct settle_claim_info *claim =
		claim_of(l, json_object_get(doc, "claims"), cname);
	const char *build = NULL;
	struct settle_result *r = NULL;
	uint64_t size = 0;
	int bad_size = 0;

	if (p && text && claim &&
	    !(bad_size = split_params(params, p, &n, text, &size, &build)))
		r = settle_report_append(l->rep, claim, vname, build, p, n,
					 json_string_value(json_object_get(jr, "label")),
					 json_is_true(json_object_get(jr, "reference")),
					 size);
	for (size_t i = 0; text && i < n; i++)
		free(text[i]);
	free(text);
	free(p);
	if (!claim) {
		if (!*l->err) /* else claim_of() said what is wrong */
			fail(l, "malformed: claim '%s' is not described "
			     "under \"claims\"", cname);
	} else if (bad_size)
		fail(l, "malformed: results[%zu] (%s %s) params.size_bytes is "
		     "not a size in bytes (a whole number, at least 1)", idx,
		     cname, vname);
	else if (!r)
		fail(l, "out of memory");
	return r;
}

static int load_figures(struct loader *l, json_t *arr, size_t idx,
			struct settle_result *r)
{
	size_t i, n = json_array_size(arr);
	json_t *f;

	if (n == 0)
		return 0;
	if (n > SETTLE_MAX_FIGURES)
		return fail(l, "malformed: results[%zu] (%s %s) has %zu scale "
			    "figures; settle writes at most %d", idx,
			    r->claim->name, r->variant, n, SETTLE_MAX_FIGURES);
	r->figures = calloc(n, sizeof(*r->figures));
	if (!r->figures)
		return fail(l, "out of memory");
	json_array_foreach(arr, i, f) {
		copy(l, r->figures[i].label, sizeof(r->figures[i].label), f, "label");
		copy(l, r->figures[i].unit, sizeof(r->figures[i].unit), f, "unit");
		copy(l, r->figures[i].note, sizeof(r->figures[i].note), f, "note");
		r->figures[i].value = num(f, "value");
	}
	r->nfigures = n;
	return 0;
}

/* The evidence for invalid results; the analysis decides again from it. */
/*
 * The evidence a reader judges a row's validity from again: the
 * repetition check (n and 2n repetitions timed in pairs) and the read
 * limit. Absent is fine (a row it was not taken for); present, it must be
 * whole: 1 to SETTLE_REPEAT_PAIRS pairs of times and iterations_2x twice
 * the row's iterations. Before, a malformed one was dropped without a
 * word and the row shown valid, whatever the check had found.
 */
static int load_evidence(struct loader *l, json_t *jr, const char *where,
			 struct settle_result *r)
{
	json_t *rc = json_object_get(jr, "repetition_check");
	json_t *t1 = json_object_get(rc, "ns_1x"), *t2 = json_object_get(rc, "ns_2x");
	size_t n = json_array_size(t1);

	r->read_limit_bpns = within(jr, "read_limit_bytes_per_ns", 1e-3, 1e6, 0);
	if (!rc)
		return 0;
	if (!json_is_object(rc) || !json_is_array(t1) || !json_is_array(t2) ||
	    n == 0 || n > SETTLE_REPEAT_PAIRS || n != json_array_size(t2) ||
	    count(rc, "iterations_2x") != 2 * r->iters)
		return fail(l, "malformed: %s repetition_check: "
			    "ns_1x and ns_2x are 1 to %d times each, as many "
			    "in both, and iterations_2x twice the row's "
			    "iterations", where, SETTLE_REPEAT_PAIRS);
	r->repeat_iters = count(rc, "iterations_2x");
	/* absent (a file before 2026-12-06): as if it blocked, so that no
	 * rule its writer did not know calls an old row invalid */
	r->repeat_blocked = !json_is_false(json_object_get(rc, "blocked"));
	for (size_t i = 0; i < n; i++) {
		json_t *a = json_array_get(t1, i), *b = json_array_get(t2, i);

		if (!is_time(a) || !is_time(b))
			return fail(l, "malformed: %s "
				    "repetition_check: ns_1x[%zu] or ns_2x[%zu] "
				    "is no time (ns)", where, i, i);
		r->repeat1_ns[r->nrepeat] = json_number_value(a);
		r->repeat2_ns[r->nrepeat++] = json_number_value(b);
	}
	return 0;
}

/* "sample_layouts": one layout index (0 to 63) per sample, or absent
 * (every sample in layout 0: a file of one layout, or an older one). */
static int load_layouts(struct loader *l, json_t *jr, size_t idx,
			struct settle_result *r)
{
	json_t *a = json_object_get(jr, "sample_layouts"), *v;
	unsigned n = l->rep->options.layouts; /* with 2 or more: 0 to n - 1;
						 one layout: its index */
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a) || json_array_size(a) != r->nsamples)
		return fail(l, "malformed: results[%zu] sample_layouts is not "
			    "an array of one layout per sample", idx);
	r->sample_layouts = calloc(r->nsamples + 1, 1);
	if (!r->sample_layouts)
		return fail(l, "out of memory");
	/* not a layout of the settings' (an edited file: its header named
	 * fewer layouts than its rows were measured in) */
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > 63 ||
		    (n > 1 && json_integer_value(v) >= n))
			return fail(l, "malformed: results[%zu] "
				    "sample_layouts[%zu] is not a layout (0 to "
				    "%u)", idx, i, n > 1 ? n - 1 : 63);
		r->sample_layouts[i] = (unsigned char)json_integer_value(v);
	}
	return 0;
}

/* The count of preempted samples (preempted_samples, optional): an
 * integer from 0 to the number of samples; -1 after fail() otherwise. */
static int load_preempted(struct loader *l, json_t *jr, size_t idx,
			  struct settle_result *r)
{
	json_t *p = json_object_get(jr, "preempted_samples");

	if (!p)
		return 0;
	if (!json_is_integer(p) || json_integer_value(p) < 0 ||
	    (uint64_t)json_integer_value(p) > r->nsamples)
		return fail(l, "malformed: results[%zu] preempted_samples is "
			    "not a count of its samples", idx);
	r->preempted = (size_t)json_integer_value(p);
	return 0;
}

/* The samples' CPU times (samples_cpu_ns), one a sample, each a number
 * >= 0 below 1e15 ns; absent (older files, commands): unknown. */
static int load_cpu(struct loader *l, json_t *jr, size_t idx,
		    struct settle_result *r)
{
	json_t *a = json_object_get(jr, "samples_cpu_ns"), *s;
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a) || json_array_size(a) != r->nsamples)
		return fail(l, "malformed: results[%zu] samples_cpu_ns is not "
			    "an array of one CPU time per sample", idx);
	r->samples_cpu_ns = calloc(r->nsamples + 1, sizeof(double));
	if (!r->samples_cpu_ns)
		return fail(l, "out of memory");
	json_array_foreach(a, i, s) {
		double v = json_is_number(s) ? json_number_value(s) : -1;

		if (!(v >= 0 && v < 1e15))
			return fail(l, "malformed: results[%zu] "
				    "samples_cpu_ns[%zu] is not a CPU time in "
				    "ns (negative, not a number, or above 1e15)",
				    idx, i);
		r->samples_cpu_ns[i] = v;
	}
	return 0;
}

/* ---- whole commands (settle run --command) ---- */

/* n CPU times in ns from arr into a new array: 0 (under wait4's
 * resolution) to about 11 days each; NULL when one is not. */
static double *cpu_times(json_t *arr, size_t n)
{
	double *x;
	json_t *v;
	size_t i;

	if (!json_is_array(arr) || json_array_size(arr) != n)
		return NULL;
	x = calloc(n + 1, sizeof(*x));
	if (!x)
		return NULL;
	json_array_foreach(arr, i, v) {
		double d = json_is_number(v) ? json_number_value(v) : -1;

		if (!(d >= 0 && d <= 1e15)) {
			free(x);
			return NULL;
		}
		x[i] = d;
	}
	return x;
}

/* A count of a profile: a non-negative integer, -1 otherwise. */
static int profile_count(json_t *o, const char *key, uint64_t *v)
{
	json_t *j = json_object_get(o, key);

	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return -1;
	*v = (uint64_t)json_integer_value(j);
	return 0;
}

/*
 * The samples with any symbol in them and those with a cut chain, kept
 * since settle counted them; a file without them: the sum of the symbols'
 * (at most every sample: the bound they gave before) and none cut; those
 * with a frame perf could not name (not cut), 0 in a file without. -1
 * when impossible (fewer than a symbol's, more than all of theirs or all
 * the samples).
 */
static int profile_union(json_t *p, struct settle_command_data *d,
			 uint64_t sum)
{
	uint64_t most = 0;

	for (size_t k = 0; k < d->nshare; k++)
		if (d->share[k].children > most)
			most = d->share[k].children;
	d->any = sum < d->samples ? sum : d->samples;
	d->cut = d->unnamed = 0;
	d->counted = json_object_get(p, "any_symbol") &&
		     json_object_get(p, "cut_chains");
	if (!json_object_get(p, "any_symbol") &&
	    !json_object_get(p, "cut_chains"))
		return 0;
	/* one without the other: a file settle did not write */
	if (!d->counted ||
	    profile_count(p, "any_symbol", &d->any) || d->any < most ||
	    d->any > sum || d->any > d->samples ||
	    profile_count(p, "cut_chains", &d->cut) || d->cut > d->samples)
		return -1;
	/* counted since 2026-12-07; disjoint from the cut chains */
	if (json_object_get(p, "busy_threads")) {
		uint64_t t;

		if (profile_count(p, "busy_threads", &t) || !t ||
		    t > SETTLE_THREADS_MAX + 1)
			return -1;
		d->busy_threads = (unsigned)t;
	}
	if (json_object_get(p, "unnamed_chains") &&
	    (profile_count(p, "unnamed_chains", &d->unnamed) ||
	     d->unnamed > d->samples - d->cut))
		return -1;
	return 0;
}

/* Whether d has a --share symbol of that name already. */
static int known_symbol(const struct settle_command_data *d, const char *name)
{
	for (size_t k = 0; k < d->nshare; k++)
		if (!strcmp(d->share[k].symbol, name))
			return 1;
	return 0;
}

/* The --share counts of a command; -1 when missing or impossible. */
static int load_profile(json_t *p, struct settle_command_data *d)
{
	json_t *syms = json_object_get(p, "symbols"), *e;
	const char *ev = json_string_value(json_object_get(p, "event"));
	const char *unwind = json_string_value(json_object_get(p, "unwind"));
	uint64_t runs, again = 0, sum = 0;
	size_t i;

	/* the event settle samples: its period is CPU time */
	if (!ev || (strcmp(ev, "cpu-clock") && strcmp(ev, "cpu-clock:u")) ||
	    profile_count(p, "period_ns", &d->period_ns) || !d->period_ns ||
	    profile_count(p, "runs", &runs) || runs > UINT32_MAX ||
	    (json_object_get(p, "runs_again") &&
	     (profile_count(p, "runs_again", &again) || again > UINT32_MAX)) ||
	    profile_count(p, "samples", &d->samples) || !json_is_array(syms) ||
	    json_array_size(syms) > SETTLE_SHARE_MAX ||
	    (json_object_get(p, "unwind") && (!unwind ||
	     (strcmp(unwind, "dwarf") && strcmp(unwind, "fp")))))
		return -1;
	if (!runs && d->samples) /* samples of no run */
		return -1;
	snprintf(d->event, sizeof(d->event), "%s", ev);
	d->profiled_runs = (unsigned)runs;
	d->profiled_again = (unsigned)again;
	/* "unwind" since DWARF chains: a file without it walked the frame
	 * pointers */
	d->call_chains = !json_is_true(json_object_get(p, "call_chains")) ?
			 SETTLE_CHAINS_NONE :
			 unwind && !strcmp(unwind, "dwarf") ?
			 SETTLE_CHAINS_DWARF : SETTLE_CHAINS_FP;
	json_array_foreach(syms, i, e) {
		const char *name = json_string_value(json_object_get(e, "symbol"));
		json_t *im = json_object_get(e, "implementation");
		const char *iname = json_string_value(json_object_get(im, "name"));
		json_t *nd = json_object_get(e, "without_debug_info");
		const char *nodebug = json_string_value(nd);
		uint64_t self, children, impl = 0;
		long k;

		if (!name || !*name || strlen(name) > SETTLE_SYMBOL_MAX ||
		    known_symbol(d, name) ||
		    profile_count(e, "self", &self) ||
		    profile_count(e, "children", &children) || self > children ||
		    children > d->samples ||
		    /* without call chains a sample's one frame is its
		     * innermost */
		    (d->call_chains == SETTLE_CHAINS_NONE && children != self) ||
		    (im && (profile_count(im, "samples", &impl) || !iname ||
			    !*iname || strlen(iname) >= SETTLE_IMPL_NAME ||
			    impl + self > d->samples)) ||
		    (nd && (!nodebug || !*nodebug || !children ||
			    strlen(nodebug) >= SETTLE_DSO_NAME)) ||
		    (k = settle_command_data_add_symbol(d, name)) < 0)
			return -1;
		d->share[k].self = self;
		d->share[k].children = children;
		d->share[k].impl = impl;
		snprintf(d->share[k].impl_name, SETTLE_IMPL_NAME, "%s",
			 impl && iname ? iname : "");
		snprintf(d->share[k].no_debug, SETTLE_DSO_NAME, "%s",
			 nodebug ? nodebug : "");
		sum += children;
	}
	return profile_union(p, d, sum);
}

/* An optional count of result idx's command, at most most: into *v when
 * present. Returns 0, or -1 (said) when it is no such count. */
static int runs_count(struct loader *l, json_t *c, const char *key,
		      uint64_t most, size_t idx, size_t *v)
{
	uint64_t n;

	if (!json_object_get(c, key))
		return 0;
	if (profile_count(c, key, &n) || n > most)
		return fail(l, "malformed: results[%zu].command.%s", idx, key);
	*v = (size_t)n;
	return 0;
}

/* What a whole command's result adds, if anything: its runs' CPU times
 * and its profile (docs/result-format.md, results[].command). */
static int load_command(struct loader *l, json_t *jr, size_t idx,
			struct settle_result *r)
{
	json_t *c = json_object_get(jr, "command"), *p;
	const char *shell = json_string_value(json_object_get(c, "shell"));
	json_t *prep = json_object_get(c, "prepare"), *out;
	struct settle_command_data *d;

	if (!c)
		return 0;
	if (!json_is_object(c) || !shell ||
	    (prep && !json_is_null(prep) && !json_is_string(prep)))
		return fail(l, "malformed: results[%zu].command lacks its "
			    "shell command", idx);
	d = settle_command_data_new(shell, json_string_value(prep));
	if (!d)
		return fail(l, "out of memory");
	r->command = d;
	d->warmup = (unsigned)within(c, "warmup", 0, UINT_MAX, 0);
	out = json_object_get(c, "stdout");
	if (out && (!json_is_string(out) ||
		    (strcmp(json_string_value(out), "pipe") &&
		     strcmp(json_string_value(out), "null"))))
		return fail(l, "malformed: results[%zu].command.stdout (null "
			    "or pipe)", idx);
	d->stdout_pipe = out && !strcmp(json_string_value(out), "pipe");
	d->user_ns = cpu_times(json_object_get(c, "user_ns"), r->nsamples);
	d->sys_ns = cpu_times(json_object_get(c, "sys_ns"), r->nsamples);
	if (!d->user_ns || !d->sys_ns)
		return fail(l, "malformed: results[%zu].command needs user_ns "
			    "and sys_ns, a CPU time in ns for each sample", idx);
	d->n = r->nsamples;
	if (runs_count(l, c, "failed_runs", d->n, idx, &d->failed) ||
	    runs_count(l, c, "failed_untimed_runs", SIZE_MAX, idx,
		       &d->failed_untimed) ||
	    runs_count(l, c, "escaped_processes", SIZE_MAX, idx, &d->escaped))
		return -1;
	p = json_object_get(c, "profile");
	if (p && (!json_is_object(p) || load_profile(p, d) < 0))
		return fail(l, "malformed: results[%zu].command.profile (an "
			    "event, a period, runs, samples, and symbols "
			    "with self <= children <= samples, an "
			    "implementation's samples and name)", idx);
	return 0;
}

static int load_result(struct loader *l, json_t *doc, json_t *jr, size_t idx,
		       struct settle_report *rep)
{
	json_t *samples = json_object_get(jr, "samples_ns"), *s;
	json_t *params = json_object_get(jr, "params");
	const char *cname = json_string_value(json_object_get(jr, "claim"));
	const char *vname = json_string_value(json_object_get(jr, "variant"));
	struct settle_result *r;
	char where[48];
	size_t i;

	if (!cname || !vname || !json_is_object(params) || !json_is_array(samples))
		return fail(l, "malformed: results[%zu] lacks claim, variant, "
			    "params or samples_ns", idx);
	r = add_result(l, doc, jr, idx, cname, vname);
	if (!r)
		return -1;
	r->iters = count(jr, "iterations");
	r->ops_per_sample = count(jr, "ops_per_sample");
	if (json_is_string(json_object_get(jr, "check")))
		r->check = strtoull(json_string_value(json_object_get(jr, "check")),
				    NULL, 10);
	r->below_resolution = json_is_true(json_object_get(jr, "below_resolution"));
	r->unaligned_code = json_is_true(json_object_get(jr, "unaligned_code"));
	s = json_object_get(jr, "shortest_sample_ns");
	if (s && !is_time(s))
		return fail(l, "malformed: results[%zu] (%s %s) "
			    "shortest_sample_ns is not a time in ns", idx,
			    cname, vname);
	r->shortest_sample_ns = s ? json_number_value(s) : 0;
	snprintf(where, sizeof(where), "results[%zu]", idx);
	if (load_evidence(l, jr, where, r) < 0)
		return -1;
	r->cycles_source = str(l, jr, "cycles_source");
	if (settle_result_cycles_counted(r)) {
		/* counted: keep the stored means (the counts are not stored) */
		r->cycles_per_op = num(jr, "cycles_per_op");
		r->instructions_per_op = num(jr, "instructions_per_op");
	} else {
		r->cycles_source = NULL; /* recomputed from the samples */
	}
	r->samples_ns = calloc(json_array_size(samples) + 1, sizeof(double));
	if (!r->samples_ns)
		return fail(l, "out of memory");
	json_array_foreach(samples, i, s) {
		if (!is_time(s))
			return fail(l, "malformed: results[%zu] (%s %s) "
				    "samples_ns[%zu] is not a time in ns (zero, "
				    "negative, not finite, or below 1e-15 ns or "
				    "above 1e15 ns)", idx, cname, vname,
				    i);
		r->samples_ns[r->nsamples++] = json_number_value(s);
	}
	if (load_layouts(l, jr, idx, r) < 0 || load_cpu(l, jr, idx, r) < 0 ||
	    load_preempted(l, jr, idx, r) < 0)
		return -1;
	if (load_figures(l, json_object_get(jr, "scale"), idx, r) < 0)
		return -1;
	(void)rep;
	return load_command(l, jr, idx, r);
}

/*
 * Are the rows of each claim and size in one run of results (what
 * settle_report_group_end() takes them to be)? A file whose positions put
 * a skipped row among another group's would split its own.
 */
static int groups_whole(const struct settle_report *rep)
{
	for (size_t i = 1; i < rep->nresults; i++) {
		const struct settle_result *a = &rep->results[i];

		if (a->claim == rep->results[i - 1].claim &&
		    a->size_bytes == rep->results[i - 1].size_bytes)
			continue;
		for (size_t j = 0; j + 1 < i; j++)
			if (rep->results[j].claim == a->claim &&
			    rep->results[j].size_bytes == a->size_bytes)
				return 0;
	}
	return 1;
}

/*
 * Put the skipped rows (loaded last, from results[l->skip_first]) where
 * the file says they stood among all rows (skipped[].position), the
 * measured ones in their order around them, as run printed them; show
 * printed the skipped ones last. After every check that names a row by
 * its index in the file. Positions missing (older files), out of range,
 * not increasing, or splitting a group of rows leave them last.
 */
static int place_skipped(struct loader *l)
{
	struct settle_report *rep = l->rep;
	const long *pos = l->skip_pos;
	size_t first = l->skip_first, n = rep->nresults - first;
	size_t all = rep->nresults, k = 0, m = 0;
	struct settle_result *tmp, *keep;

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!pos || pos[i] < 0 || (size_t)pos[i] >= all ||
		    (i && pos[i] <= pos[i - 1]))
			return 0;
	tmp = malloc(all * sizeof(*tmp));
	keep = malloc(all * sizeof(*keep));
	if (!tmp || !keep) {
		free(tmp);
		free(keep);
		return fail(l, "out of memory");
	}
	memcpy(keep, rep->results, all * sizeof(*keep));
	for (size_t i = 0; i < all; i++)
		tmp[i] = k < n && (size_t)pos[k] == i ?
			 rep->results[first + k++] : rep->results[m++];
	memcpy(rep->results, tmp, all * sizeof(*tmp));
	if (!groups_whole(rep))
		memcpy(rep->results, keep, all * sizeof(*keep));
	free(tmp);
	free(keep);
	return 0;
}

/* The variants that could not run, with their reasons, after the
 * results (their positions kept for place_skipped()). */
static int load_skipped(struct loader *l, json_t *doc, struct settle_report *rep)
{
	json_t *e, *sk = json_object_get(doc, "skipped");
	size_t i;

	l->skip_first = rep->nresults;
	l->skip_pos = calloc(json_array_size(sk) + 1, sizeof(*l->skip_pos));
	if (!l->skip_pos)
		return fail(l, "out of memory");
	json_array_foreach(sk, i, e) {
		const char *why = json_string_value(json_object_get(e, "reason"));
		json_t *copy, *p = json_object_get(e, "position");
		int rc;

		/* said of skipped[i] (not of results[], nor out of memory) */
		if (!json_is_object(e) ||
		    !json_is_string(json_object_get(e, "claim")) ||
		    !json_is_string(json_object_get(e, "variant")) ||
		    !json_is_object(json_object_get(e, "params")))
			return fail(l, "malformed: skipped[%zu] is not an object "
				    "with claim, variant and params", i);
		copy = json_deep_copy(e);
		if (!copy ||
		    json_object_set_new(copy, "samples_ns", json_array())) {
			json_decref(copy);
			return fail(l, "out of memory");
		}
		rc = load_result(l, doc, copy, i, rep);
		json_decref(copy);
		if (rc < 0)
			return -1;
		rep->results[rep->nresults - 1].skipped =
			settle_report_strdup(rep, why ? why : "skipped");
		l->skip_pos[i] = json_is_integer(p) &&
				 json_integer_value(p) <= LONG_MAX ?
				 (long)json_integer_value(p) : -1;
	}
	return 0;
}

/* ---- Google Benchmark files ------------------------------------------ */

/* ns per time_unit, 0 for an unknown unit. */
static double unit_ns(const char *u)
{
	static const struct { const char *u; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].u))
			return units[i].ns;
	return 0;
}

/* A statistic over repetitions (mean, median, ...) or a complexity fit
 * (_BigO, _RMS), by its name: files before run_type, and any layout. */
static int aggregate_name(const char *name)
{
	static const char *const suffix[] = { "_mean", "_median", "_stddev",
					      "_cv", "_BigO", "_RMS" };
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		size_t k = strlen(suffix[i]);

		if (n > k && !strcmp(name + n - k, suffix[i]))
			return 1;
	}
	return 0;
}

/* A Google Benchmark family, as a claim without a baseline (sized: its
 * rows have a size). NULL when out of memory. */
static const struct settle_claim_info *gbench_claim(struct settle_report *rep,
						    const char *name,
						    int sized)
{
	struct settle_claim_info k;

	memset(&k, 0, sizeof(k));
	k.name = name;
	k.description = "Google Benchmark family";
	k.op_name = "iteration";
	k.baseline = ""; /* no variant: repetitions are not paired */
	k.sized = sized;
	return settle_report_claim(rep, &k);
}

static struct settle_result *gbench_result(struct loader *l,
					   struct settle_report *rep,
					   const char *name)
{
	const char *slash = strchr(name, '/');
	size_t clen = slash ? (size_t)(slash - name) : strlen(name);
	const char *vname = slash && slash[1] ? slash + 1 : name;
	const struct settle_claim_info *claim;
	char *cname;

	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *x = &rep->results[i];

		if (strlen(x->claim->name) == clen &&
		    !strncmp(x->claim->name, name, clen) &&
		    !strcmp(x->variant, vname))
			return &rep->results[i];
	}
	cname = strndup(name, clen);
	if (!cname)
		return NULL;
	claim = gbench_claim(rep, cname, 0);
	free(cname);
	if (!claim)
		return NULL;
	(void)l;
	return settle_report_append(rep, claim, vname, NULL, NULL, 0, NULL, 0,
				    0);
}

/*
 * Entry idx names a row of claim (its first len bytes) by kind: its name
 * alone, or settle_params with or without a size. Every entry of one
 * claim must do so alike: else rows of different sizes or benchmarks
 * would be taken for one (a claim whose first entry had no size lost the
 * size of all its rows, and a name alone was pooled into a sized row).
 * 0, or -1 after fail().
 */
static int same_kind(struct loader *l, size_t idx, const char *claim,
		     size_t len, const char *kind)
{
	char key[600];
	const char *was;

	snprintf(key, sizeof(key), "c:%.*s", (int)(len < 512 ? len : 512),
		 claim);
	was = json_string_value(json_object_get(l->seen, key));
	if (!was)
		return json_object_set_new(l->seen, key, json_string(kind)) ?
		       fail(l, "out of memory") : 0;
	if (strcmp(was, kind))
		return fail(l, "malformed: benchmarks[%zu] names a row of "
			    "'%.*s' by %s, its earlier entries by %s: every "
			    "entry of one claim must name its row alike",
			    idx, (int)(len < 200 ? len : 200), claim, kind,
			    was);
	return 0;
}

/*
 * Claim name as settle's gbench-json describes it (settle_claims: a
 * result file's claims, its baseline above all), for entry idx, whose row
 * has a size or not (sized). NULL after fail().
 */
static const struct settle_claim_info *described(struct loader *l,
						 size_t idx, const char *name,
						 int sized)
{
	const struct settle_claim_info *c = claim_of(l, l->claims, name);

	if (!c && !*l->err)
		fail(l, "malformed: benchmarks[%zu]: settle_claim '%.200s' is "
		     "not described in settle_claims", idx, name);
	else if (c && c->sized != sized)
		fail(l, "malformed: benchmarks[%zu]: settle_params %s a size "
		     "where settle_claims says claim '%.200s' %s", idx,
		     sized ? "has" : "lacks", name,
		     c->sized ? "has sizes" : "has none");
	return c && c->sized == sized ? c : NULL;
}

/*
 * The row of entry b of settle's own gbench-json, named by its
 * settle_claim, settle_variant and settle_params (the result file's
 * claim, variant and params): found among rep's rows, else appended.
 * NULL after fail().
 */
static struct settle_result *settle_row(struct loader *l,
					struct settle_report *rep, json_t *b,
					size_t idx)
{
	json_t *params = json_object_get(b, "settle_params");
	const char *cname = json_string_value(json_object_get(b, "settle_claim"));
	const char *vname = json_string_value(json_object_get(b, "settle_variant"));
	size_t np = json_object_size(params), n = 0;
	struct settle_param *p = calloc(np + 1, sizeof(*p));
	char **text = calloc(np + 1, sizeof(*text));
	struct settle_result key, *r = NULL;
	const char *build = NULL, *why = NULL;
	uint64_t size = 0;

	memset(&key, 0, sizeof(key));
	if (!cname || !*cname)
		why = "settle_claim is not a claim's name";
	else if (!vname || !*vname)
		why = "settle_variant is not a variant's name";
	else if (!json_is_object(params))
		why = "settle_params is not an object of parameters";
	else if (p && text && split_params(params, p, &n, text, &size, &build))
		why = "settle_params.size_bytes is not a size in bytes (a "
		      "whole number, at least 1)";
	if (why) {
		fail(l, "malformed: benchmarks[%zu]: %s", idx, why);
		goto out;
	}
	if (!p || !text)
		goto oom;
	if (same_kind(l, idx, cname, strlen(cname),
		      size ? "settle_params with a size" :
			     "settle_params without a size") < 0)
		goto out;
	key.claim = l->claims ? described(l, idx, cname, size > 0) :
		    gbench_claim(rep, cname, size > 0);
	if (!key.claim && l->claims)
		goto out;
	if (!key.claim)
		goto oom;
	key.variant = vname;
	key.build = build;
	key.params = p;
	key.nparams = n;
	key.size_bytes = size;
	for (size_t i = 0; i < rep->nresults && !r; i++)
		if (settle_result_same_key(&rep->results[i], &key))
			r = &rep->results[i];
	if (!r)
		r = settle_report_append(rep, key.claim, vname, build, p, n,
					 json_string_value(json_object_get(b, "label")),
					 0, size);
	if (r)
		goto out;
oom:
	fail(l, "out of memory");
out:
	for (size_t i = 0; text && i < n; i++)
		free(text[i]);
	free(text);
	free(p);
	return r;
}

/* The row of entry b: by its settle_* members in settle's own file,
 * else by its name. NULL after fail(). */
static struct settle_result *entry_result(struct loader *l,
					  struct settle_report *rep, json_t *b,
					  size_t idx, const char *name)
{
	struct settle_result *r;

	const char *slash = strchr(name, '/');

	if (json_object_get(b, "settle_claim") ||
	    json_object_get(b, "settle_variant") ||
	    json_object_get(b, "settle_params"))
		return settle_row(l, rep, b, idx);
	if (same_kind(l, idx, name, slash ? (size_t)(slash - name) :
				    strlen(name), "a name alone") < 0)
		return NULL;
	r = gbench_result(l, rep, name);
	if (!r)
		fail(l, "out of memory");
	return r;
}

/*
 * A run that Google Benchmark reports as failed (error_occurred): no
 * sample; a benchmark that has none but such runs shows as skipped, with
 * its error_message, instead of missing without a word.
 */
static int gbench_error(struct loader *l, json_t *b, size_t idx,
			struct settle_report *rep, const char *name)
{
	const char *msg = json_string_value(json_object_get(b,
							    "error_message"));
	struct settle_result *r = entry_result(l, rep, b, idx, name);
	char why[300];

	if (!r)
		return -1;
	if (r->nsamples || r->skipped)
		return 0;
	snprintf(why, sizeof(why), "Google Benchmark reported an error%s%s",
		 msg && *msg ? ": " : "", msg && *msg ? msg : "");
	r->skipped = settle_report_strdup(rep, why);
	return r->skipped ? 0 : fail(l, "out of memory");
}

/* The members of entry b that settle reads have their types: a string
 * run_type and time_unit, a true or false error_occurred, whole numbers
 * repetition_index, repetitions and family_index. 0, or -1 after fail(). */
static int entry_types(struct loader *l, json_t *b, size_t idx,
		       const char *name)
{
	static const struct { const char *key; char type; } members[] = {
		{ "run_type", 's' }, { "time_unit", 's' },
		{ "error_occurred", 'b' }, { "repetition_index", 'n' },
		{ "repetitions", 'n' }, { "family_index", 'n' },
	};

	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		json_t *v = json_object_get(b, members[i].key);
		char t = members[i].type;

		if (!v || (t == 's' && json_is_string(v)) ||
		    (t == 'b' && json_is_boolean(v)) ||
		    (t == 'n' && json_is_integer(v) &&
		     json_integer_value(v) >= 0))
			continue;
		return fail(l, "malformed: benchmarks[%zu] (%.200s) has %s "
			    "of the wrong type (%s expected)", idx, name,
			    members[i].key, t == 's' ? "a string" :
			    t == 'b' ? "true or false" : "a whole number");
	}
	return 0;
}

/*
 * Each sample of row once: an entry whose row already has a sample of
 * its repetition_index is a copy (its sample would count twice: 10 copies
 * of each entry turned an unclear 3 % change into `slower` [+1.17 %,
 * +4.87 %]), and one whose family_index is not that of its row's earlier
 * entries is another benchmark of the same name (pooled, a median of
 * neither). 0, or -1 after fail().
 */
static int once(struct loader *l, json_t *b, size_t idx, const char *name,
		size_t row)
{
	json_t *rep = json_object_get(b, "repetition_index");
	json_t *fam = json_object_get(b, "family_index"), *was;
	char key[64];

	if (fam) {
		snprintf(key, sizeof(key), "f:%zu", row);
		was = json_object_get(l->seen, key);
		if (was && !json_equal(was, fam))
			return fail(l, "malformed: benchmarks[%zu] (%.200s) "
				    "has family_index %" JSON_INTEGER_FORMAT
				    ", its row's earlier entries %"
				    JSON_INTEGER_FORMAT ": two benchmarks of "
				    "one name, which settle cannot tell apart",
				    idx, name, json_integer_value(fam),
				    json_integer_value(was));
		if (!was && json_object_set(l->seen, key, fam))
			return fail(l, "out of memory");
	}
	if (!rep)
		return 0;
	snprintf(key, sizeof(key), "r:%zu:%" JSON_INTEGER_FORMAT, row,
		 json_integer_value(rep));
	if (json_object_get(l->seen, key))
		return fail(l, "malformed: benchmarks[%zu] (%.200s) repeats "
			    "repetition_index %" JSON_INTEGER_FORMAT " of its "
			    "row: a copied entry, whose sample would count "
			    "twice", idx, name, json_integer_value(rep));
	return json_object_set_new(l->seen, key, json_true()) ?
	       fail(l, "out of memory") : 0;
}

/* settle_evidence of entry b (sample k of r): only on a row's first
 * entry, an object; read as a result file's. 0, or -1 after fail(). */
static int settle_evidence(struct loader *l, json_t *b, size_t idx,
			   const char *name, struct settle_result *r, size_t k)
{
	json_t *ev = json_object_get(b, "settle_evidence");
	json_t *check = json_object_get(ev, "check");
	json_t *below = json_object_get(ev, "below_resolution");
	json_t *ref = json_object_get(ev, "reference");
	char where[64];

	if (!ev)
		return 0;
	if (k || !json_is_object(ev) || (check && !json_is_string(check)) ||
	    (below && !json_is_boolean(below)) ||
	    (ref && !json_is_boolean(ref)))
		return fail(l, "malformed: benchmarks[%zu] (%.200s) has a "
			    "settle_evidence that is not its row's first "
			    "entry's object of check (a string), reference "
			    "and below_resolution (true or false) and the "
			    "repetition check", idx, name);
	if (check)
		r->check = strtoull(json_string_value(check), NULL, 10);
	/* a repetition's operations: "iterations" above are the sample's */
	if (count(ev, "iterations"))
		r->iters = count(ev, "iterations");
	r->below_resolution = json_is_true(below);
	r->reference = json_is_true(ref);
	snprintf(where, sizeof(where), "benchmarks[%zu] settle_evidence", idx);
	return load_evidence(l, ev, where, r);
}

/*
 * What else settle's own entry b says of its sample k (the last one
 * appended to r), as the result file does: the row's
 * settle_preempted_samples, the sample's settle_layout and settle_cpu_ns
 * (each either on every entry of a row or on none), and on the row's
 * first entry its settle_evidence (check value, below resolution, why it
 * may be invalid: load_evidence()). The samples must come in the order
 * they were taken, each with its repetition_index: a ratio pairs a row's
 * sample k with its baseline's, the processes are equal consecutive
 * chunks of them, and entries sorted by time (read as "same" where the
 * file in its order was unclear) or copied without their index (50
 * samples a row from 5) are no run's. 0, or -1 after fail().
 */
static int settle_sample(struct loader *l, json_t *b, size_t idx,
			 const char *name, struct settle_result *r, size_t k)
{
	json_t *pre = json_object_get(b, "settle_preempted_samples");
	json_t *lay = json_object_get(b, "settle_layout");
	json_t *cpu = json_object_get(b, "settle_cpu_ns");
	json_t *ri = json_object_get(b, "repetition_index");
	const struct settle_options *o = &l->rep->options;
	unsigned n = o->layouts;
	const char *why = NULL;

	if (!json_is_integer(ri) || json_integer_value(ri) != (json_int_t)k)
		why = "no repetition_index, or one out of the order its "
		      "samples were taken in";
	else if (pre && (!json_is_integer(pre) || json_integer_value(pre) < 0 ||
			 (k && (size_t)json_integer_value(pre) != r->preempted)))
		why = "a settle_preempted_samples that is not its row's count";
	else if (!lay != !r->sample_layouts && k)
		why = "a settle_layout where its row's other entries have "
		      "none, or none where they have one";
	else if (lay && (!json_is_integer(lay) || json_integer_value(lay) < 0 ||
			 json_integer_value(lay) > 63 ||
			 (n > 1 && json_integer_value(lay) >= n)))
		why = "a settle_layout that is not a layout of the file's "
		      "(context.settle_layouts)";
	else if (!cpu != !r->samples_cpu_ns && k)
		why = "a settle_cpu_ns where its row's other entries have "
		      "none, or none where they have one";
	else if (cpu && !(json_is_number(cpu) && json_number_value(cpu) >= 0 &&
			  json_number_value(cpu) < 1e15))
		why = "a settle_cpu_ns that is not a CPU time in ns";
	if (why)
		return fail(l, "malformed: benchmarks[%zu] (%.200s) has %s",
			    idx, name, why);
	if (settle_evidence(l, b, idx, name, r, k) < 0)
		return -1;
	if (pre)
		r->preempted = (size_t)json_integer_value(pre);
	if (lay) {
		unsigned char *p = realloc(r->sample_layouts, k + 1);

		if (!p)
			return fail(l, "out of memory");
		r->sample_layouts = p;
		p[k] = (unsigned char)json_integer_value(lay);
	}
	if (cpu) {
		double *p = realloc(r->samples_cpu_ns, (k + 1) * sizeof(*p));

		if (!p)
			return fail(l, "out of memory");
		r->samples_cpu_ns = p;
		p[k] = json_number_value(cpu);
	}
	return 0;
}

static int load_gbench_entry(struct loader *l, json_t *b, size_t idx,
			     struct settle_report *rep)
{
	const char *name = json_string_value(json_object_get(b, "name"));
	const char *rt = json_string_value(json_object_get(b, "run_type"));
	const char *unit = json_string_value(json_object_get(b, "time_unit"));
	json_t *t = json_object_get(b, "real_time");
	struct settle_result *r;
	double ns, *p;

	/* an empty name would be the variant "" that k.baseline = "" means
	 * "none" by (gbench_result()), and its repetitions a baseline */
	if (!json_is_object(b) || !name || !*name)
		return fail(l, "malformed: benchmarks[%zu] has no name", idx);
	if (entry_types(l, b, idx, name) < 0)
		return -1;
	/* an aggregate of repetitions or a complexity fit, not a sample; by
	 * its name's suffix only in files before run_type (a benchmark of
	 * its own may be called BM_running_mean) */
	if ((rt ? strcmp(rt, "iteration") != 0 : aggregate_name(name)) ||
	    json_object_get(b, "aggregate_name") || json_object_get(b, "big_o") ||
	    json_object_get(b, "rms"))
		return 0;
	/* settle's own entries of a row whose time is not the work's
	 * (invalid, below resolution) are read as samples, judged again */
	if (json_is_true(json_object_get(b, "error_occurred")) &&
	    !json_object_get(b, "settle_claim"))
		return gbench_error(l, b, idx, rep, name);
	if (!json_is_number(t))
		return fail(l, "malformed: benchmarks[%zu] (%s) has no "
			    "real_time", idx, name);
	ns = unit ? unit_ns(unit) : 1; /* Google Benchmark's default: ns */
	if (ns == 0)
		return fail(l, "malformed: benchmarks[%zu] (%s) has time_unit "
			    "'%s'", idx, name, unit);
	ns *= json_number_value(t);
	if (!(ns >= 1e-15 && ns <= 1e15)) /* as is_time() */
		return fail(l, "malformed: benchmarks[%zu] (%s) real_time is "
			    "not a time (zero, negative, not finite, or below "
			    "1e-15 ns or above 1e15 ns)", idx, name);
	r = entry_result(l, rep, b, idx, name);
	if (!r || once(l, b, idx, name, (size_t)(r - rep->results)) < 0)
		return -1;
	p = realloc(r->samples_ns, (r->nsamples + 1) * sizeof(*p));
	if (!p)
		return fail(l, "out of memory");
	r->samples_ns = p;
	r->samples_ns[r->nsamples++] = ns;
	r->skipped = NULL; /* a run that failed before (gbench_error) */
	if (!r->iters) {
		r->iters = (uint64_t)num(b, "iterations");
		r->ops_per_sample = r->iters;
	}
	if (json_object_get(b, "settle_claim") &&
	    settle_sample(l, b, idx, name, r, r->nsamples - 1) < 0)
		return -1;
	return 0;
}

static int same_rounds(struct loader *l, const struct settle_report *rep);

/*
 * settle's own gbench-json: the processes and layouts of its run
 * (context.settle_processes, 1 to 256, and settle_layouts, 0 to 64, as a
 * result file's settings), absent one process in one layout; and the
 * band its verdicts were drawn with (settle_equivalence_band, above 0,
 * at most 0.5), for a reader that asks for the file's (o->band < 0),
 * absent 1 %. 0, or -1 after fail().
 */
static int gbench_runs(struct loader *l, json_t *ctx, struct settle_options *o)
{
	json_t *p = json_object_get(ctx, "settle_processes");
	json_t *n = json_object_get(ctx, "settle_layouts");
	json_t *b = json_object_get(ctx, "settle_equivalence_band");

	if (b && !(json_is_number(b) && json_number_value(b) > 0 &&
		   json_number_value(b) <= 0.5))
		return fail(l, "malformed: context.settle_equivalence_band is "
			    "not a band (a fraction above 0, at most 0.5)");
	if (o->band < 0)
		o->band = b ? json_number_value(b) : 0.01;

	if (p && (!json_is_integer(p) || json_integer_value(p) < 1 ||
		  json_integer_value(p) > 256))
		return fail(l, "malformed: context.settle_processes is not a "
			    "count of processes (1 to 256)");
	if (n && (!json_is_integer(n) || json_integer_value(n) < 0 ||
		  json_integer_value(n) > 64))
		return fail(l, "malformed: context.settle_layouts is not a "
			    "count of layouts (0 to 64)");
	if (p)
		o->processes = (unsigned)json_integer_value(p);
	if (n)
		o->layouts = (unsigned)json_integer_value(n);
	return 0;
}

static int load_gbench(struct loader *l, json_t *doc, struct settle_report *rep)
{
	json_t *ctx = json_object_get(doc, "context"), *v;
	struct settle_machine *m = &rep->machine;
	size_t i, most = 0;
	const char *type, *exe;

	m->logical_cpus = (long)num(ctx, "num_cpus");
	json_array_foreach(json_object_get(ctx, "caches"), i, v) {
		struct settle_cache *c = &m->caches[m->ncaches];

		if (m->ncaches == SETTLE_MAX_CACHES)
			break;
		c->level = (int)within(v, "level", 0, INT_MAX, 0);
		copy(l, c->type, sizeof(c->type), v, "type");
		c->size_bytes = (uint64_t)num(v, "size");
		m->ncaches++;
	}
	/* settle's own gbench-json names the CPU; Google Benchmark does not */
	copy(l, m->model_name, sizeof(m->model_name), ctx, "settle_cpu_model");
	/* settle's own gbench-json names its compiler and flags; another
	 * program's file names the benchmark's executable, which is no
	 * build flag: said with the library's build type, flags unknown */
	type = json_string_value(json_object_get(ctx, "library_build_type"));
	exe = json_string_value(json_object_get(ctx, "executable"));
	snprintf(rep->compiler, sizeof(rep->compiler), "Google Benchmark "
		 "file%s%s%s%s", type ? ", library " : "", type ? type : "",
		 exe ? ", executable " : "", exe ? exe : "");
	if (json_is_string(json_object_get(ctx, "settle_compiler")))
		copy(l, rep->compiler, sizeof(rep->compiler), ctx,
		     "settle_compiler");
	copy(l, rep->build_flags, sizeof(rep->build_flags), ctx,
	     "settle_build_flags");
	rep->timer.clock = SETTLE_CLOCK_UNKNOWN; /* it does not say */
	rep->timer.why = "Google Benchmark file";
	m->hypervisor = -1;  /* Google Benchmark does not say */
	rep->cpu = -1;
	rep->noise.known = 0;
	snprintf(rep->noise.governor, sizeof(rep->noise.governor), "unknown");
	rep->options.processes = 1;
	if (gbench_runs(l, ctx, &rep->options) < 0)
		return -1;
	rep->gbench = json_is_string(json_object_get(ctx, "settle_compiler")) ?
		      2 : 1;
	l->claims = json_object_get(doc, "settle_claims");
	if (l->claims && !json_is_object(l->claims))
		return fail(l, "malformed: settle_claims is not an object of "
			    "claims");
	l->seen = json_object();
	if (!l->seen)
		return fail(l, "out of memory");
	json_array_foreach(json_object_get(doc, "benchmarks"), i, v)
		if (load_gbench_entry(l, v, i, rep) < 0) {
			json_decref(l->seen);
			return -1;
		}
	json_decref(l->seen);
	/* with baselines, as a result file's rows: round by round */
	if (l->claims && same_rounds(l, rep) < 0)
		return -1;
	for (i = 0; i < rep->nresults; i++) {
		if (rep->results[i].preempted > rep->results[i].nsamples)
			return fail(l, "malformed: %s/%s has more "
				    "settle_preempted_samples than samples",
				    rep->results[i].claim->name,
				    rep->results[i].variant);
		most = rep->results[i].nsamples > most ?
		       rep->results[i].nsamples : most;
	}
	rep->options.samples = (unsigned)most;
	settle_report_analyze(rep, 0, rep->nresults);
	return 0;
}

static int is_gbench(json_t *doc)
{
	return json_is_object(doc) && !json_object_get(doc, "schema") &&
	       json_is_object(json_object_get(doc, "context")) &&
	       json_is_array(json_object_get(doc, "benchmarks"));
}

/* Is results[i] the first of its key (claim, variant, build, parameters
 * and size)? A file may state a row again, a repetition: compare pools
 * them, show prints each as the file states it. */
static int first_of_key(const struct settle_report *rep, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (settle_result_same_key(&rep->results[j], &rep->results[i]))
			return 0;
	return 1;
}

/*
 * A settle run takes a sample of every row in each round, and a row's
 * ratio pairs its samples with its baseline's round by round: a row and
 * the baseline its ratio is taken against have as many samples. A file
 * where one has more (edited, or spliced) would show a median of samples
 * its ratio never saw (a row's 18 samples, 12 of them 20 times as long,
 * printed a median above its baseline's beside "0.178x faster").
 */
static int same_rounds(struct loader *l, const struct settle_report *rep)
{
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *a = &rep->results[i], *b;
		long k;

		if (!a->nsamples || !first_of_key(rep, i) ||
		    (k = settle_report_baseline(rep, i)) < 0 ||
		    (size_t)k == i)
			continue;
		b = &rep->results[k];
		if (b->nsamples && b->nsamples != a->nsamples)
			return fail(l, "results[%zu] (%s %s) has %zu sample%s and "
				    "its baseline, results[%ld] (%s), %zu: its "
				    "ratio pairs them round by round, and a "
				    "settle run takes one of each in every "
				    "round", i, a->claim->name, a->label,
				    a->nsamples, a->nsamples == 1 ? "" : "s", k,
				    b->label, b->nsamples);
	}
	return 0;
}

/*
 * A row stated again is a repetition that compare pools, and a copy of a
 * row (the same key, every sample the same) is no repetition: it counts
 * the same samples twice, and 50 copies of a row narrowed compare's
 * interval of a 3 % change from [-11.72 %, +20.18 %] (unclear) to
 * [+3.00 %, +3.00 %] (slower). Refused.
 */
static int no_copies(struct loader *l, const struct settle_report *rep)
{
	for (size_t i = 0; i < rep->nresults; i++) {
		const struct settle_result *a = &rep->results[i];

		for (size_t j = 0; a->nsamples && j < i; j++) {
			const struct settle_result *b = &rep->results[j];

			if (b->nsamples == a->nsamples &&
			    settle_result_same_key(a, b) &&
			    !memcmp(a->samples_ns, b->samples_ns,
				    a->nsamples * sizeof(double)))
				return fail(l, "results[%zu] (%s %s) is a copy "
					    "of results[%zu], sample for "
					    "sample: a row stated again must "
					    "be measured again, or its samples "
					    "would count twice", i,
					    a->claim->name, a->label, j);
		}
	}
	return 0;
}

static int load_doc(struct loader *l, json_t *doc, struct settle_report *rep)
{
	json_t *schema = json_object_get(doc, "schema"), *res, *jr;
	size_t i;

	if (json_is_object(doc) && !schema &&
	    json_is_object(json_object_get(doc, "context")) &&
	    json_object_get(doc, "benchmarks"))
		return fail(l, "not a Google Benchmark file either (its "
			    "\"benchmarks\" is not an array), nor a settle "
			    "result file (no \"schema\")");
	if (!json_is_object(doc) || !json_is_string(schema))
		return fail(l, "not a settle result file (no \"schema\")");
	if (strcmp(json_string_value(schema), SETTLE_SCHEMA) != 0)
		return fail(l, "not a settle result file (schema '%.64s', "
			    "expected '%s')", json_string_value(schema),
			    SETTLE_SCHEMA);
	res = json_object_get(doc, "results");
	if (!json_is_array(res) || !json_is_object(json_object_get(doc, "machine")))
		return fail(l, "malformed: no \"results\" array or "
			    "\"machine\" object");
	load_machine(l, rep, doc);
	if (load_settings(l, rep, doc) < 0)
		return -1;
	load_noise(l, rep, doc);
	json_array_foreach(res, i, jr)
		if (load_result(l, doc, jr, i, rep) < 0)
			return -1;
	if (load_skipped(l, doc, rep) < 0 || same_rounds(l, rep) < 0 ||
	    no_copies(l, rep) < 0 || place_skipped(l) < 0)
		return -1;
	settle_report_analyze(rep, 0, rep->nresults);
	return 0;
}

/*
 * path opened to read, without waiting: a FIFO with no writer blocked
 * settle show in open() for good; opened so, it reads as empty (and is
 * refused as no result file), while one with a writer reads as it writes.
 * NULL with errno set.
 */
static FILE *open_for_reading(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int fl = fd < 0 ? -1 : fcntl(fd, F_GETFL);
	FILE *f;

	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ||
	    !(f = fdopen(fd, "r"))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		errno = e;
		return NULL;
	}
	return f;
}

int settle_load_json(const char *path, double band, struct settle_report *rep,
		     char *err, size_t errlen)
{
	struct loader l = { .rep = rep, .path = path, .err = err,
			    .errlen = errlen };
	json_error_t je;
	struct stat st;
	json_t *doc;
	FILE *f;
	int rc;

	if (errlen)
		err[0] = '\0';
	if (settle_report_open(rep) < 0)
		return fail(&l, "out of memory");
	snprintf(rep->source, sizeof(rep->source), "%s", path);
	rep->options.band = band;
	f = open_for_reading(path);
	if (!f) {
		rc = fail(&l, "cannot read: %s", strerror(errno));
		goto out;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		rc = fail(&l, "cannot read: is a directory");
		goto out;
	}
	doc = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
	fclose(f);
	if (!doc) {
		/* in the reader's words, not the library's option */
		if (strstr(je.text, "JSON_ALLOW_NUL"))
			rc = fail(&l, "not a settle result file (a string at "
				  "line %d holds a NUL character, \\u0000, "
				  "which settle cannot keep)", je.line);
		else
			rc = fail(&l, "not a settle result file (invalid or "
				  "truncated JSON at line %d: %s); one is what "
				  "settle run --output FILE.json writes (or a "
				  "Google Benchmark program's "
				  "--benchmark_format=json)", je.line, je.text);
		goto out;
	}
	rep->options.band = band; /* < 0: the file's (a Google Benchmark
				     program's has none: 1 %, gbench_runs()) */
	rc = is_gbench(doc) ? load_gbench(&l, doc, rep) :
	     load_doc(&l, doc, rep);
	if (rc == 0 && l.too_long)
		rc = fail(&l, "malformed: a \"%s\" longer than settle writes "
			  "(at most %zu bytes)", l.too_long,
			  l.too_long_max);
	json_decref(doc);
out:
	free(l.skip_pos);
	if (rc < 0)
		settle_report_free(rep);
	return rc;
}
